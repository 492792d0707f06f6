"""Answers kept on disk: results that are the same every time for the same inputs and code
(exact solutions, fictitious play), computed once and then read back.

Each answer is a JSON file beside the compiled kernels, named after its inputs and a digest
of the analyzer's and kernels' sources, so any change to the code computes it anew. Reading
one imports neither numba nor pandas: a repeated exact query answers in a fraction of a
second instead of loading the compiled kernels.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

from analyzer.errors import UserError
from analyzer.files import is_regular_file, write_atomic
from kernels import cache_dir

PACKAGES = ("analyzer", "kernels")


@functools.cache
def code_digest() -> str:
    """A digest of every Python source of the analyzer and the kernels."""
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def path_for(kind: str, key: Any) -> Path:
    """Where the answer of ``kind`` (a short name) for ``key`` (JSON-able inputs) is kept."""
    text = json.dumps([kind, key, code_digest()], sort_keys=True, default=str)
    return cache_dir() / f"kept-{kind}-{hashlib.sha256(text.encode()).hexdigest()[:20]}.json"


def _checksum(path: Path, answer: Any) -> str:
    """The SHA-256 of ``answer`` (as canonical JSON) with the name of its file."""
    text = json.dumps(answer, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(f"{path.name}:{text}".encode()).hexdigest()


def read(path: Path, valid: Callable[[Any], bool] | None = None) -> Any | None:
    """The answer kept at ``path``, or None when there is none or it cannot be trusted:
    unreadable, its checksum wrong (edited by hand, damaged) or, with ``valid``, not of
    the expected form. A damaged one is named in one line on stderr (it is computed
    again)."""
    try:
        text = path.read_text(encoding="utf-8") if is_regular_file(path) else None
    except (OSError, UnicodeDecodeError):
        text = ""
    if text is None:
        problem, found = ("not a regular file" if os.path.lexists(path) else ""), None
    else:
        problem, found = _check(path, text, valid)
    if problem:
        print(f"dicelab: kept answer {str(path)!r} is damaged ({problem}): computing it "
              "again", file=sys.stderr, flush=True)
        return None
    return found


def _check(path: Path, text: str, valid: Callable[[Any], bool] | None) -> tuple[str, Any]:
    """What is wrong with the kept file's ``text`` ("" if nothing) and its answer."""
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return "not valid JSON", None
    if not isinstance(doc, dict) or set(doc) != {"sha256", "answer"}:
        return "not a kept answer", None
    if doc["sha256"] != _checksum(path, doc["answer"]):
        return "its checksum does not match", None
    if valid is not None and not valid(doc["answer"]):
        return "not an answer of the expected form", None
    return "", doc["answer"]


def write(path: Path, answer: Any) -> None:
    """Keep ``answer`` at ``path`` with its checksum; a folder that cannot be written only
    costs the saving."""
    try:
        if os.path.lexists(path) and not is_regular_file(path):
            os.unlink(path)  # a pipe or link there would be written through
        write_atomic(path, json.dumps({"sha256": _checksum(path, answer), "answer": answer}))
    except (UserError, OSError):
        pass


def answer(kind: str, key: Any, compute: Callable[[], Any],
           valid: Callable[[Any], bool] | None = None) -> Any:
    """The JSON-able answer kept for ``key``, computed by ``compute()`` (and kept) the
    first time, or again when the kept one is damaged or fails ``valid``."""
    path = path_for(kind, key)
    found = read(path, valid)
    if found is None:
        found = compute()
        write(path, found)
    return found


def is_probability(value: Any) -> bool:
    """A kept answer that is a probability (a float from 0 to 1, give or take rounding)."""
    return isinstance(value, float) and -1e-9 <= value <= 1 + 1e-9


def is_rows(value: Any, keys: set[str]) -> bool:
    """A kept answer that is a list of rows (dicts) with exactly ``keys``."""
    return isinstance(value, list) and all(isinstance(r, dict) and set(r) == keys
                                           for r in value)


def is_split_table(value: Any) -> bool:
    """A kept DataFrame as ``to_dict("split")`` (index, columns, data rows)."""
    return (isinstance(value, dict) and isinstance(value.get("columns"), list)
            and isinstance(value.get("data"), list)
            and all(isinstance(r, list) and len(r) == len(value["columns"])
                    for r in value["data"]))
