"""Output files: checked before any work is done, and written atomically (through a
temporary file in the same folder), so a failed run leaves no partial file behind."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from analyzer.errors import UserError


def _probe(folder: Path, what: str) -> None:
    """Create and remove a temporary file in ``folder``: the one sure test that files can be
    written there (permissions, read-only or virtual file systems such as /proc)."""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".dicelab-probe-")
    except OSError as exc:
        raise UserError(f"cannot write {what}: {exc.strerror.lower()} in folder "
                        f"{str(folder)!r}") from None
    os.close(fd)
    os.unlink(tmp)


def _check_parent(path: Path, parent: Path, what: str) -> None:
    """The folder ``parent`` that ``path`` goes into must exist (and be a folder)."""
    if parent.exists() and not parent.is_dir():
        raise UserError(f"cannot write {what}: {str(parent)!r} is a file, not a folder")
    if not parent.is_dir():
        raise UserError(f"cannot write {what}: folder {str(parent)!r} does not exist")


def check_writable(path: str | Path) -> Path:
    """Fail early, with one line, if ``path`` cannot be written."""
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise UserError(f"output path {str(path)!r} is a directory; give a file name")
    _check_parent(path, parent, repr(str(path)))
    if path.exists() and not os.access(path, os.W_OK):
        raise UserError(f"cannot write {str(path)!r}: permission denied")
    _probe(parent, repr(str(path)))
    return path


def check_folder_writable(path: Path, what: str) -> None:
    """Fail early, with one line, if the folder ``path`` (created later if missing) cannot
    take files; ``what`` names it."""
    if path.exists() and not path.is_dir():
        raise UserError(f"cannot write {what} {str(path)!r}: it is a file")
    parent = path.parent if str(path.parent) else Path(".")
    if not path.exists():
        _check_parent(path, parent, f"{what} {str(path)!r}")
    _probe(path if path.exists() else parent, f"{what} {str(path)!r}")


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder."""
    path = check_writable(path)
    mode = "wb" if isinstance(data, bytes) else "w"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, mode, **({} if mode == "wb" else {"encoding": "utf-8"})) as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError as exc:
        raise UserError(f"cannot write {str(path)!r}: {exc.strerror or exc}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
