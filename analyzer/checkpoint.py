"""``--checkpoint DIR``: every finished chunk of a run is stored as it completes, so a run
that was interrupted (locally or on a cluster) resumes where it stopped.

A run is named by a digest of everything its results depend on (kernel, arguments, seed,
stream, block size, dicelab version); its chunks live in ``DIR/<digest>/`` as
``chunk-<first>-<count>.npy``, written atomically (a file is there whole or not at all).
Several runs (all the simulations of a report, say) share one folder.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import UserError
from analyzer.files import write_atomic


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
    if folder.exists() and not folder.is_dir():
        raise UserError(f"cannot use checkpoint folder {path!r}: it is a file")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create checkpoint folder {path!r}: {exc.strerror}") from None
    if not os.access(folder, os.W_OK):
        raise UserError(f"cannot write checkpoint folder {path!r}: permission denied")
    return folder


class Store:
    """The stored chunks of one run: ``load(chunk)``, ``save(chunk, array)``."""

    def __init__(self, folder: Path, identity: Any, description: dict[str, Any]):
        self.folder = folder / digest(identity)
        self.folder.mkdir(exist_ok=True)
        about = self.folder / "run.json"
        if not about.exists():
            write_atomic(about, json.dumps(description, indent=1, default=str) + "\n")

    def _path(self, chunk: tuple[int, ...]) -> Path:
        return self.folder / ("chunk-" + "-".join(str(int(c)) for c in chunk) + ".npy")

    def has(self, chunk: tuple[int, ...]) -> bool:
        return self._path(chunk).exists()

    def load(self, chunk: tuple[int, ...]) -> np.ndarray | None:
        path = self._path(chunk)
        if not path.exists():
            return None
        try:
            return np.load(path, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise UserError(f"damaged checkpoint file {str(path)!r} ({exc}); delete it and "
                            "run again") from None

    def save(self, chunk: tuple[int, ...], result: np.ndarray) -> None:
        buffer = io.BytesIO()
        np.save(buffer, result, allow_pickle=False)
        write_atomic(self._path(chunk), buffer.getvalue())
