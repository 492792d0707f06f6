"""numba's ``njit``, with its on-disk cache in the kernels' own folder.

Every kernel function is ``njit(cache=True)``, numba's own decorator and nothing more. Numba
compiles a function called from compiled code as a kernel of its own, with every function
it calls linked in, optimised and turned into machine code again; in a call tree as deep
as the Clever engine's, a helper's code is made again at every level above it. A helper
that one function alone calls is therefore ``inline="always"`` (numba's documented
inlining): it is typed and compiled as part of its caller, and the tree is that much
shallower. Helpers called from many places stay functions of their own, compiled once
each and cached.

Constants passed to a kernel function from compiled code are ``np.int64`` values (the
layouts' constants are): numba compiles a function anew for every literal argument
(``f(x, 4)`` and ``f(x, 5)`` are two compiles), but once for an ``int64``.
"""

from __future__ import annotations

import os
from pathlib import Path

from kernels import cache_dir

if not os.environ.get("NUMBA_CACHE_DIR"):  # numba's documented setting, read at every
    os.environ["NUMBA_CACHE_DIR"] = str(cache_dir())  # compile (and below, at once, for
    # the caches of the functions decorated next)

from numba import njit  # noqa: E402
from numba.core import config  # noqa: E402

config.reload_config()

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
