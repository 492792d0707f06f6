"""The strategy card's good uses of a die on a That's Pretty Clever sheet (the ``card``
policy, ``kernels.clever.card``): the thresholds are numbers of the policy row, each with a
value that lets every die through."""

from kernels.jit import njit
from kernels.thats_pretty_clever.layout import (GREEN_AREA, GREEN_MIN, ORANGE_AREA,
                                                ORANGE_MULTIPLIER, PURPLE_AREA, S_GREEN,
                                                S_ORANGE, S_PURPLE, S_PURPLE_VALUES, TRACK)

ORANGE_MIN = 0  # the lowest face for an orange slot without a multiplier (1: any)
ORANGE_TIMES_MIN = 1  # ... for a x2 or x3 slot (1: any)
PURPLE_STEP = 2  # the most a purple number may rise above the one before (after a 6 or
# on an empty track: above 0); a 6 always (6: any)
GREEN_SPARE = 3  # the most a green face may exceed its slot's minimum (5: any)


@njit(cache=True, _nrt=False)
def good_use(sheet, area, value, pol, base):
    """Is entering ``value`` in ``area`` a good use by the card's thresholds
    (``pol[base + ORANGE_MIN ...]``, float64)? Yellow and blue always are."""
    if area == ORANGE_AREA:
        slot = sheet[S_ORANGE]
        if slot >= TRACK:
            return True
        return value >= pol[base + (ORANGE_TIMES_MIN if ORANGE_MULTIPLIER[slot] > 1
                                    else ORANGE_MIN)]
    if area == PURPLE_AREA:
        n = sheet[S_PURPLE]
        last = sheet[S_PURPLE_VALUES + n - 1] if n > 0 else 0
        return value == 6 or value - (0 if last == 6 else last) <= pol[base + PURPLE_STEP]
    if area == GREEN_AREA:
        slot = sheet[S_GREEN]
        return slot >= TRACK or value - GREEN_MIN[slot] <= pol[base + GREEN_SPARE]
    return True
