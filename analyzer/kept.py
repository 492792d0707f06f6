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
from pathlib import Path
from typing import Any, Callable

from analyzer.errors import UserError
from analyzer.files import write_atomic
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


def read(path: Path) -> Any | None:
    """The answer kept at ``path``, or None when there is none (or it cannot be read)."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def write(path: Path, answer: Any) -> None:
    """Keep ``answer`` at ``path``; a folder that cannot be written only costs the saving."""
    try:
        write_atomic(path, json.dumps(answer))
    except UserError:
        pass


def answer(kind: str, key: Any, compute: Callable[[], Any]) -> Any:
    """The JSON-able answer kept for ``key``, computed by ``compute()`` (and kept) the
    first time."""
    path = path_for(kind, key)
    found = read(path)
    if found is None:
        found = compute()
        write(path, found)
    return found
