"""Bit-mask helpers for the Clever sheets (marked cells are bits of an int64)."""

from kernels.jit import njit


@njit(cache=True, _nrt=False)
def count_bits(x):
    """How many bits of ``x`` (a non-negative int64) are set."""
    k = 0
    while x:
        x &= x - 1
        k += 1
    return k
