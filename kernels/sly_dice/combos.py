"""The Sly Dice combinations as pure predicates (rules page, *Combination cards*).

``counts`` is an int64 vector indexed by die value: ``counts[v]`` dice show ``v``. Values
1..6 are faces; with the *sum of two dice* power a die may stand for a value up to 12, so
vectors may be longer than 7. Values above 6 count towards sums and odd/even, never towards
faces, kinds or straights.
"""

import numpy as np

from kernels.jit import njit
from kernels.sly_dice.layout import (DICE_CARDS, EVENS, FIVE_OF_A_KIND, FOUR_OF_A_KIND, FULL_HOUSE,
                                     HIGHER_OR_LOWER, LARGE_STRAIGHT, MS_COUNTS, N_NUMBER_CARDS,
                                     ODDS, SIXTEEN_OR_LOWER, SMALL_STRAIGHT, THREE_OF_A_KIND,
                                     THREE_PAIRS, TWENTY_SIX_OR_HIGHER)


@njit(cache=True, _nrt=False)
def _max_kind(counts):
    best = 0
    for v in range(1, 7):
        best = max(best, counts[v])
    return best


@njit(cache=True, _nrt=False)
def _runs(counts, lo, hi):
    for v in range(lo, hi + 1):
        if counts[v] == 0:
            return False
    return True


@njit(cache=True, _nrt=False)
def holds(counts, card, k):
    """True when dice with value counts ``counts`` make ``card`` (a number card needs at
    least ``k`` dice of its face; ``k`` is ignored otherwise). Higher or Lower is never
    made by dice."""
    if card < N_NUMBER_CARDS:
        return k >= 1 and counts[card + 1] >= k
    if card == THREE_OF_A_KIND:
        return _max_kind(counts) >= 3
    if card == FOUR_OF_A_KIND:
        return _max_kind(counts) >= 4
    if card == FIVE_OF_A_KIND:
        return _max_kind(counts) >= 5
    if card == FULL_HOUSE:
        for a in range(1, 7):
            if counts[a] >= 5:
                return True
            if counts[a] >= 3:
                for b in range(1, 7):
                    if b != a and counts[b] >= 2:
                        return True
        return False
    if card == THREE_PAIRS:
        pairs = 0
        for v in range(1, 7):
            pairs += counts[v] // 2
        return pairs >= 3
    if card == SMALL_STRAIGHT:
        return _runs(counts, np.int64(1), np.int64(5)) or _runs(counts, np.int64(2), np.int64(6))
    if card == LARGE_STRAIGHT:
        return _runs(counts, np.int64(1), np.int64(6))
    if card == HIGHER_OR_LOWER:
        return False
    total = 0
    odd = 0
    n = 0
    for v in range(1, counts.shape[0]):
        total += v * counts[v]
        n += counts[v]
        odd += counts[v] * (v % 2)
    if card == SIXTEEN_OR_LOWER:
        return total <= 16
    if card == TWENTY_SIX_OR_HIGHER:
        return total >= 26
    if card == ODDS:
        return odd == n
    if card == EVENS:
        return odd == 0
    return False


@njit(cache=True, _nrt=False)
def card_value(counts, card, points):
    """Points the best true claim of ``card`` scores with these dice, 0 if none.

    ``points``: float64[N_CARDS], the fixed cards' values (number cards score face x count,
    so their entry is unused)."""
    if card < N_NUMBER_CARDS:
        return float((card + 1) * counts[card + 1])
    if holds(counts, card, np.int64(1)):
        return points[card]
    return 0.0


@njit(cache=True)
def _masks(sets):
    out = np.zeros(sets.shape[0], np.int64)
    for i in range(sets.shape[0]):
        for card in range(N_NUMBER_CARDS, DICE_CARDS):
            if holds(sets[i], card, np.int64(1)):
                out[i] |= 1 << card
    return out


def made_masks():
    """int64[462]: for every six-dice multiset (``MS_COUNTS[6]``) the bit mask of the fixed
    dice cards it makes."""
    return _masks(MS_COUNTS[6])
