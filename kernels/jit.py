"""The kernels' ``njit``: numba's, with one compiled specialisation per argument type.

Called from compiled code with a constant argument (``push(stack, 0, 4)``), a numba
function is compiled anew for that constant's literal type, and again for every other
constant: the Clever engine carried 69 such extra copies, each optimised again inside
every kernel that calls it, for over a third of its first-run compile time. Functions
made by this ``njit`` see every literal as its plain type (``Literal[int](4)`` as
``int64``), so each has one specialisation per layout of its arguments; the code
compiled is the same. Use it exactly like ``numba.njit``.
"""

from __future__ import annotations

import os
import threading

import numba
from numba import njit as _numba_njit
from numba.core import types

from kernels import cache_dir

numba.config.CACHE_DIR = str(cache_dir())


def _plain_types(dispatcher):
    """Make ``dispatcher`` compile for the unliteral types of the arguments it is called
    with from compiled code (calls from Python never carry literals)."""
    typed_call = dispatcher.get_call_template

    def get_call_template(args, kws):
        return typed_call(tuple(types.unliteral(a) for a in args),
                          {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def njit(*args, **options):
    """``numba.njit`` (same arguments, with or without parentheses) whose functions
    compile one specialisation per argument type, literals widened."""
    if len(args) == 1 and callable(args[0]) and not options:
        return _plain_types(_numba_njit(args[0]))
    decorate = _numba_njit(*args, **options)
    return lambda func: _plain_types(decorate(func))


# --- one whole-program optimisation per kernel -----------------------------------------
# Numba optimises each compiled function's module with every function it calls linked in,
# then does so again in each caller, up to the kernel called from Python: the Clever
# engine's leaves were optimised dozens of times over. Functions compiled while another
# is being compiled (depth > 1: only ever called from compiled code so far) now get
# numba's per-function passes only; the kernel that links them (depth 1, called from
# Python, and the parallel loops made while it compiles) optimises the whole at once,
# inlining included, as before. DICELAB_NUMBA_OPTIMIZE_ALL=1 restores numba's way.
_compiling = threading.local()


def _depth() -> int:
    return getattr(_compiling, "depth", 0)


def _optimize_once() -> None:
    from numba.core import codegen, dispatcher

    compile_ = dispatcher.Dispatcher.compile
    optimize = codegen.CPUCodeLibrary._optimize_final_module

    def compile(self, sig):
        depth = _depth()
        _compiling.depth = depth + 1
        try:
            return compile_(self, sig)
        finally:
            _compiling.depth = depth

    def optimize_final_module(self):
        if _depth() <= 1:
            optimize(self)

    dispatcher.Dispatcher.compile = compile
    codegen.CPUCodeLibrary._optimize_final_module = optimize_final_module


if os.environ.get("DICELAB_NUMBA_OPTIMIZE_ALL") != "1":
    _optimize_once()
