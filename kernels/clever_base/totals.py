"""A sheet's total from its five area scores, for both Clever games: the sum and the
lowest area, which each game's foxes are worth (the games differ only in that worth),
unless the rules fix what a fox is worth (``fox_value``)."""

import numpy as np

from kernels.clever_base.sheet import FOX_FIXED_SHIFT, H_FLAGS
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


@njit(cache=True, _nrt=False)
def fixed_fox(sheet):
    """The points each fox of ``sheet`` (int64[SHEET_LEN]) is worth whatever its areas
    score (``fox_value``, in its flags from bit ``FOX_FIXED_SHIFT``); 0 where a fox is
    worth the lowest area, as the rulebooks say."""
    return sheet[H_FLAGS] >> FOX_FIXED_SHIFT
