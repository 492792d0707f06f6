"""The strategy card's good uses of a die on a Twice As Clever sheet (the ``card`` policy,
``kernels.clever.card``): the thresholds are numbers of the policy row, each with a value
that lets every die through."""

from kernels.jit import njit
from kernels.twice_as_clever.layout import (BLUE_AREA, GREEN_AREA, PINK_AREA, PINK_MIN, S_BLUE,
                                            S_BLUE_VALUES, S_GREEN, S_PINK, TRACK)

BLUE_FIRST = 0  # the lowest sum for the first blue slot (2: any)
BLUE_DROP = 1  # the most a blue sum may fall below the one before (10: any)
GREEN_HIGH = 2  # the lowest face for the first slot of a green pair (1: any)
GREEN_LOW = 3  # the highest face for the second slot of a green pair (6: any)
PINK_FACE = 4  # a pink face this high is good even below the slot's minimum (1: any)


@njit(cache=True, _nrt=False)
def good_use(sheet, area, value, pol, base):
    """Is entering ``value`` in ``area`` a good use by the card's thresholds
    (``pol[base + BLUE_FIRST ...]``, float64)? Silver and yellow always are."""
    if area == BLUE_AREA:
        n = sheet[S_BLUE]
        if n == 0:
            return value >= pol[base + BLUE_FIRST]
        return sheet[S_BLUE_VALUES + n - 1] - value <= pol[base + BLUE_DROP]
    if area == GREEN_AREA:
        n = sheet[S_GREEN]
        if n >= TRACK:
            return True
        return value >= pol[base + GREEN_HIGH] if n % 2 == 0 else value <= pol[base + GREEN_LOW]
    if area == PINK_AREA:
        n = sheet[S_PINK]
        return n >= TRACK or value >= PINK_MIN[n] or value >= pol[base + PINK_FACE]
    return True
