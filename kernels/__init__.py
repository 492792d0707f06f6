"""Numba kernels: plain arrays and numbers in and out, no pandas, click, plotting or I/O.

Rules functions never draw random numbers; only the play loops do, through :mod:`kernels.rng`.

Numba's on-disk cache only notices changes to the file that defines a function, not to the
kernels it calls, so a cached play loop could outlive an edit of the rules it inlines. To rule
that out, the cache lives in a folder named after a hash of every kernel source file and of
where they are installed (unless ``NUMBA_CACHE_DIR`` is set): any change to any kernel starts
from a clean cache, and another copy of the kernels (a second checkout, another environment),
whose code numba keeps apart anyway, never counts as compiled for this one.
:mod:`kernels.jit` points numba there; importing this package imports no numba, so
``cache_dir()`` also serves answers kept on disk that are read without compiled code;
:mod:`kernels.cache_check` checks numba's files there before any is used.
"""

import functools
import hashlib
import os
import tempfile
from pathlib import Path


@functools.cache
def cache_dir() -> Path:
    """The folder of the compiled kernels (``NUMBA_CACHE_DIR`` when set)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    digest = hashlib.sha256(str(Path(__file__).parent.resolve()).encode())
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    for base in (root, Path(tempfile.gettempdir())):
        folder = base / "dicelab-numba" / digest.hexdigest()[:16]
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(folder, os.W_OK):
            return folder
    return Path(tempfile.mkdtemp(prefix="dicelab-numba-"))

