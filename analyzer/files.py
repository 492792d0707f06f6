"""Output files: checked before any work is done, and written atomically (through a
temporary file in the same folder), so a failed run leaves no partial file behind."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from analyzer.errors import UserError


def check_writable(path: str | Path) -> Path:
    """Fail early, with one line, if ``path`` cannot be written."""
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise UserError(f"output path {str(path)!r} is a directory; give a file name")
    if not parent.is_dir():
        raise UserError(f"cannot write {str(path)!r}: folder {str(parent)!r} does not exist")
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UserError(f"cannot write {str(path)!r}: permission denied")
    return path


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder."""
    path = check_writable(path)
    mode = "wb" if isinstance(data, bytes) else "w"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, mode, **({} if mode == "wb" else {"encoding": "utf-8"})) as fh:
            fh.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
