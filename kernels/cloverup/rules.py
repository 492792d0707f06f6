"""CloverUp rules as pure functions of sorted dice (rules page, sections *A turn*,
*The double-six rule* and *Scoring the final dice*). Nothing here draws random numbers.
"""

import numpy as np

from kernels.cloverup.layout import (CLOVER, INSTANT_WIN, MULTISET_DICE, N_MULTISETS,
                                     RULE_CLOVER_BONUS, RULE_DOUBLE_SIX_BONUS, SIX, TRIPLE_SIX)
from kernels.jit import njit


@njit(cache=True, _nrt=False)
def score_final_dice(a, b, c, clover_floor, clover_triple_from):
    """Outcome code of stopping with sorted dice ``a <= b <= c`` (faces 1..7).

    No clover: the sum. One clover: 3 x the higher number when it is at least
    ``clover_triple_from`` (5 by the rules), else ``clover_floor`` (12). Two clovers: 18.
    Three clovers: ``INSTANT_WIN``; three sixes: ``TRIPLE_SIX``.
    """
    clovers = (a == CLOVER) + (b == CLOVER) + (c == CLOVER)
    if clovers == 3:
        return INSTANT_WIN
    if clovers == 2:
        return 18
    if clovers == 1:
        high = b  # sorted, clover last: b is the higher number
        if high >= clover_triple_from:
            return 3 * high
        return clover_floor
    if a == SIX:
        return TRIPLE_SIX
    return a + b + c


@njit(cache=True, _nrt=False)
def roll_ending(a, b, c):
    """Outcome that ends the turn right after a roll showing ``a <= b <= c``, or -1.

    Checked in the rules' order: three clovers (instant win), three natural sixes
    (triple-six effect), two sixes and a clover (18 points).
    """
    if a == CLOVER:
        return INSTANT_WIN
    if a == SIX and b == SIX and c == SIX:
        return TRIPLE_SIX
    if a == SIX and b == SIX and c == CLOVER:
        return 18
    return -1


@njit(cache=True, _nrt=False)
def starts_double_six(a, b, c):
    """True when the roll shows two natural sixes and a number die (``x 6 6``, x < 6)."""
    return a < SIX and b == SIX and c == SIX


@njit(cache=True, _nrt=False)
def rerollable_positions(a, b, c, double_six):
    """Bit mask of the sorted positions that may be rerolled: not clovers, and in the
    double-six state only the third die (position 0)."""
    if double_six:
        return 1
    mask = 0
    if a != CLOVER:
        mask |= 1
    if b != CLOVER:
        mask |= 2
    if c != CLOVER:
        mask |= 4
    return mask


@njit(cache=True, _nrt=False)
def sort3(a, b, c):
    """Three faces in ascending order (a sorting network)."""
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return a, b, c


@njit(cache=True, _nrt=False)
def after_roll(multiset, rerolls, double_six, new_clovers, rules, roll_end, ds_start,
               stop_outcome):
    """The rules checked after every roll (rules page, *A turn* steps 2-4).

    ``multiset``: the sorted dice now showing; ``rerolls``: rerolls left after paying for the
    roll; ``new_clovers``: clovers among the dice just rolled. Each new clover adds the clover
    bonus; a roll that ends the turn (three clovers, three sixes, 6 6 C) ends it; two sixes and
    a number start the double-six rule once; with no reroll left the turn is scored.
    Returns ``(outcome, rerolls, double_six)`` with ``outcome`` -1 while the turn goes on.
    """
    r = rerolls + rules[RULE_CLOVER_BONUS] * new_clovers
    if roll_end[multiset] >= 0:
        return roll_end[multiset], r, double_six
    if double_six == 0 and ds_start[multiset] == 1:
        double_six = 1
        r += rules[RULE_DOUBLE_SIX_BONUS]
    if r <= 0:
        return stop_outcome[multiset], r, double_six
    return -1, r, double_six


# int64[84, 2]: the sorted positions that may be rerolled (not clovers; in the double-six
# state only position 0), as ``rerollable_positions`` gives them
REROLLABLE = np.stack([
    (MULTISET_DICE != CLOVER) @ np.array([1, 2, 4]),
    np.ones(N_MULTISETS, np.int64)], axis=1).astype(np.int64)


@njit(cache=True)
def turn_tables(clover_floor, clover_triple_from, double_six_rule):
    """Per-multiset rule tables for the solver and the play loops.

    Returns ``(stop_outcome, roll_end, double_six_start)``, each int64[N_MULTISETS]:
    the outcome of stopping, the outcome that ends the turn straight after the roll (-1 if
    none), and 1 where the roll starts the double-six rule (0 everywhere when the rule is off).
    """
    stop = np.empty(N_MULTISETS, np.int64)
    end = np.empty(N_MULTISETS, np.int64)
    start = np.zeros(N_MULTISETS, np.int64)
    for m in range(N_MULTISETS):
        a, b, c = MULTISET_DICE[m, 0], MULTISET_DICE[m, 1], MULTISET_DICE[m, 2]
        stop[m] = score_final_dice(a, b, c, clover_floor, clover_triple_from)
        end[m] = roll_ending(a, b, c)
        start[m] = 1 if (double_six_rule and starts_double_six(a, b, c)) else 0
    return stop, end, start
