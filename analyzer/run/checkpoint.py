"""``--checkpoint DIR``: every finished chunk of a run is stored as it completes, so a run
that was interrupted (locally or on a cluster) resumes where it stopped.

A run is named by a digest of everything its results depend on (kernel, arguments, seed,
stream, block size, dicelab version); its chunks live in ``DIR/<digest>/`` as
``chunk-<first>-<count>.npy``, written atomically (a file is there whole or not at all).
Several runs (all the simulations of a report, say) share one folder.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import UserError
from analyzer.files import (is_regular_file, os_error_words, remove_dead_temporaries, shown,
                            why_not_writable, write_atomic)


def digest(identity: Any) -> str:
    """A stable hex digest of nested tuples/lists/dicts/dataclasses of numbers, strings and
    arrays."""
    h = hashlib.sha256()
    _feed(h, identity)
    return h.hexdigest()[:20]


def _feed(h: Any, value: Any) -> None:
    if isinstance(value, np.ndarray):
        h.update(f"array{value.dtype.str}{value.shape}".encode())
        h.update(np.ascontiguousarray(value).tobytes())
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        h.update(f"dataclass{type(value).__name__}".encode())
        for f in dataclasses.fields(value):
            _feed(h, f.name)
            _feed(h, getattr(value, f.name))
    elif isinstance(value, dict):
        h.update(b"dict")
        for k in sorted(value):
            _feed(h, k)
            _feed(h, value[k])
    elif isinstance(value, (list, tuple)):
        h.update(f"seq{len(value)}".encode())
        for v in value:
            _feed(h, v)
    elif isinstance(value, (str, int, float, bool, np.integer, np.floating, np.bool_)) or \
            value is None:
        h.update(f"{type(value).__name__}:{value!r};".encode())
    else:
        raise TypeError(f"cannot digest {type(value).__name__}")


def check_folder(path: str) -> Path:
    """The checkpoint folder, created if missing; one clear line if it cannot be used."""
    folder = Path(path)
    try:
        if folder.exists() and not folder.is_dir():
            raise UserError(f"cannot use checkpoint folder {path!r}: it is a file")
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create checkpoint folder {shown(path)}: "
                        f"{os_error_words(exc)}") from None
    if not os.access(folder, os.W_OK):
        raise UserError(f"cannot write checkpoint folder {shown(path)}: "
                        f"{why_not_writable(folder)}")
    return folder


class Store:
    """The stored chunks of one run: ``has(chunk)``, ``load(chunk)``, ``save(chunk, array)``.

    Each chunk's array (``chunk-*.npy``) has a record beside it (``chunk-*.json``: its
    SHA-256, shape and dtype), written after it. A chunk whose record is missing or does
    not match is named in one line on stderr, deleted and counted as missing, so that the
    run computes it again."""

    def __init__(self, folder: Path, identity: Any, description: dict[str, Any]):
        self.folder = folder / digest(identity)
        self.folder.mkdir(exist_ok=True)
        remove_dead_temporaries(self.folder)
        self._checked: dict[tuple[int, ...], np.ndarray] = {}
        about = self.folder / "run.json"
        if not about.exists():
            write_atomic(about, json.dumps(description, indent=1, default=str) + "\n")

    def _path(self, chunk: tuple[int, ...]) -> Path:
        return self.folder / ("chunk-" + "-".join(str(int(c)) for c in chunk) + ".npy")

    def has(self, chunk: tuple[int, ...]) -> bool:
        """Whether ``chunk`` is stored whole (a damaged one is reported and deleted)."""
        if chunk in self._checked:
            return True
        path = self._path(chunk)
        if not os.path.lexists(path):
            return False
        array, problem = _read_checked(path)
        if problem:
            print(f"dicelab: damaged checkpoint chunk {str(path)!r} ({problem}): computing "
                  "it again", file=sys.stderr, flush=True)
            for stale in (path, _record_path(path)):
                with contextlib.suppress(OSError):  # a folder there: saving names it
                    stale.unlink(missing_ok=True)
            return False
        self._checked[chunk] = array
        return True

    def load(self, chunk: tuple[int, ...]) -> np.ndarray | None:
        """The stored result of ``chunk`` (checked), or None if it is not stored whole."""
        return self._checked.pop(chunk) if self.has(chunk) else None

    def save(self, chunk: tuple[int, ...], result: np.ndarray) -> None:
        buffer = io.BytesIO()
        np.save(buffer, result, allow_pickle=False)
        path = self._path(chunk)
        for stale in (path, _record_path(path)):  # a pipe or link would be written through
            if os.path.lexists(stale) and not is_regular_file(stale):
                with contextlib.suppress(OSError):
                    stale.unlink()
        # the record first: a chunk appears only beside its record, so a run stopped
        # between the two writes leaves an unused record, never an unchecked chunk
        write_atomic(_record_path(path), json.dumps(_record(path, result)) + "\n")
        write_atomic(path, buffer.getvalue())


def _record_path(path: Path) -> Path:
    return path.with_suffix(".json")


def _record(path: Path, array: np.ndarray) -> dict[str, Any]:
    """What the record of the chunk at ``path`` holds: its shape, dtype and the SHA-256 of
    its data with its run and chunk names (a chunk copied from elsewhere does not match)."""
    data = np.ascontiguousarray(array)
    h = hashlib.sha256(f"{path.parent.name}/{path.name}:".encode())
    h.update(data.tobytes())
    return {"sha256": h.hexdigest(), "shape": list(data.shape), "dtype": data.dtype.str}


def _read_checked(path: Path) -> tuple[np.ndarray | None, str]:
    """The array stored at ``path`` and "" if it matches its record, else None and what is
    wrong, in words."""
    if not all(map(is_regular_file, (path, _record_path(path)))):
        return None, ("no checksum record beside it" if is_regular_file(path)
                      else "not a regular file")
    try:
        expected = json.loads(_record_path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None, "no checksum record beside it"
    except (OSError, ValueError, RecursionError):
        return None, "its checksum record is unreadable"
    try:
        array = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError):
        return None, "not a readable array"
    if not isinstance(array, np.ndarray):
        return None, "not a single array"
    found = _record(path, array)
    if not isinstance(expected, dict):
        return None, "its checksum record is unreadable"
    for key, what in (("dtype", "type"), ("shape", "shape"), ("sha256", "checksum")):
        if found[key] != expected.get(key):
            return None, f"its {what} does not match its record"
    return array, ""
