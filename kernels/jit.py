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

from numba import njit as _numba_njit
from numba.core import types


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
