"""A sheet's total from its five area scores, for both Clever games: the sum and the
lowest area, which each game's foxes are worth (the games differ only in that worth)."""

import numpy as np

from kernels.jit import njit


@njit(cache=True, _nrt=False)
def parts_with(scores, area, score):
    """``(sum, lowest, whether one scores exactly 0)`` of the area scores ``scores``
    (int64[5]) with ``score`` in place of ``area``'s."""
    total, lowest, zero = 0, np.int64(1 << 30), False
    for a in range(scores.shape[0]):
        s = score if a == area else scores[a]
        total += s
        lowest = min(lowest, s)
        zero = zero or s == 0
    return total, lowest, zero
