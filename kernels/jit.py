"""numba's ``njit``, with its on-disk cache in the kernels' own folder.

Every kernel function is ``njit(cache=True)``, numba's own decorator and nothing more.
Numba compiles a function once for each set of argument types it is called with, so
constants passed from one kernel function to another are ``np.int64(...)`` or
``np.bool_(...)`` values: a plain constant reaches the callee as a literal type, and
``f(x, 4)`` and ``f(x, 5)`` would be two compiles of ``f`` and everything it calls
(``tests/test_numba_as_is.py`` reads every call).
"""

from __future__ import annotations

import os
from pathlib import Path

from kernels import cache_check, cache_dir

if not os.environ.get("NUMBA_CACHE_DIR"):  # numba's documented setting, read at every
    os.environ["NUMBA_CACHE_DIR"] = str(cache_dir())  # compile (and below, at once, for
    # the caches of the functions decorated next)

from numba import njit  # noqa: E402
from numba.core import config  # noqa: E402

config.reload_config()
cache_check.check(Path(config.CACHE_DIR))

__all__ = ["njit", "in_cache"]


def cache_folder() -> Path:
    """The folder numba caches compiled kernels in."""
    return Path(config.CACHE_DIR)


def in_cache(dispatcher) -> bool:
    """Has numba's on-disk cache compiled code of ``dispatcher``'s function? (The cache
    folder is named after the kernels' sources, so whatever it holds was compiled from
    them.)"""
    func = dispatcher.py_func
    qualname = func.__qualname__.replace("<", "").replace(">", "")  # as numba names it
    name = f"*{qualname}-{func.__code__.co_firstlineno}.py*.nbi"
    return any(cache_folder().rglob(name))
