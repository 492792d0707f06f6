"""The heuristic's estimate of what a That's Pretty Clever sheet will still score: a linear
function of sparse sheet features, one weight set per number of rounds still to play.

Features (``N_FEATURES``; one-hot unless marked linear): marks per yellow column, row and
the diagonal; blue marks and marks per blue row and column (bonus progress); green, orange
and purple marks; the last purple value; re-rolls and +1s in hand; foxes; and, linear, the
five area scores, the lowest one and the fox points (foxes times each fox's worth:
the lowest, or ``fox_value``; tenths of points). The weights
are fitted to simulated games by ``scripts/train_clever.py --game tpc``.
"""

import numpy as np

from kernels.clever_base.bits import count_bits
from kernels.clever_base.value_terms import (VALUE_STAGES, count_term, term,  # noqa: F401
                                             value_stage)
from kernels.jit import njit
from kernels.thats_pretty_clever.layout import (BLUE_COLS, BLUE_ROWS, N_AREAS, S_BLUE, S_FOXES,
                                                S_GREEN, S_ORANGE, S_PLUS_GOT, S_PLUS_USED,
                                                S_PURPLE, S_PURPLE_VALUES, S_REROLL_GOT,
                                                S_REROLL_USED, S_YELLOW, TRACK, YELLOW_COLS,
                                                YELLOW_DIAGONAL, YELLOW_ROWS)
from kernels.thats_pretty_clever.rules import area_score, fox_worth

F_YELLOW_COL = 0  # + 3 * column + marks - 2 (2..4 marks; every column has a printed mark)
F_YELLOW_ROW = 12  # + 3 * row + marks - 2
F_YELLOW_DIAGONAL = 24  # + marks - 1
F_BLUE = 28  # + marks - 1
F_BLUE_ROW = 39  # + row offset + marks - 1 (rows of 3, 4, 4 sums)
F_BLUE_COL = 50  # + column offset + marks - 1 (columns of 2, 3, 3, 3 sums)
F_GREEN = 61  # + marks - 1
F_ORANGE = 72
F_PURPLE = 83
F_PURPLE_LAST = 94  # + last value - 1, while purple has room
F_REROLLS = 100  # + re-rolls in hand - 1 (at most 7 counted)
F_PLUS = 107
F_FOXES = 114  # + foxes - 1 (at most 5 counted)
F_AREAS = 119  # + area: its score / 10 (linear)
F_LOWEST = 124  # lowest area / 10 (linear)
F_FOX_POINTS = 125  # foxes x a fox's worth (``rules.fox_worth``) / 10 (linear)
F_CONSTANT = 126
N_FEATURES = 127
N_VALUE_WEIGHTS = VALUE_STAGES * N_FEATURES
BLUE_ROW_OFFSETS = np.array([0, 3, 7], np.int64)
BLUE_COL_OFFSETS = np.array([0, 2, 5, 8], np.int64)
NO_FEATURES = np.zeros(0, np.float64)


@njit(cache=True, _nrt=False, inline="always")
def sheet_value(sheet, w, out):
    """``(score, weighted feature sum)`` of ``sheet`` (int64[SHEET_LEN]) under ``w``
    (float64[N_VALUE_WEIGHTS], or empty for 0) with the weight set of its stage; adds the
    features to ``out`` (float64[N_FEATURES], zeroed by the caller; empty: not recorded;
    None: compiled without the stores)."""
    base = value_stage(sheet) * N_FEATURES
    v = 0.0
    yellow = sheet[S_YELLOW]
    for i in range(4):
        k = count_bits(yellow & YELLOW_COLS[i])
        if k >= 2:
            v += term(w, base, out, F_YELLOW_COL + 3 * i + k - 2, 1.0)
        k = count_bits(yellow & YELLOW_ROWS[i])
        if k >= 2:
            v += term(w, base, out, F_YELLOW_ROW + 3 * i + k - 2, 1.0)
    v += count_term(w, base, out, np.int64(F_YELLOW_DIAGONAL), count_bits(yellow & YELLOW_DIAGONAL))
    blue = sheet[S_BLUE]
    v += count_term(w, base, out, np.int64(F_BLUE), count_bits(blue))
    for i in range(3):
        v += count_term(w, base, out, F_BLUE_ROW + BLUE_ROW_OFFSETS[i],
                        count_bits(blue & BLUE_ROWS[i]))
    for i in range(4):
        v += count_term(w, base, out, F_BLUE_COL + BLUE_COL_OFFSETS[i],
                        count_bits(blue & BLUE_COLS[i]))
    for area, first in ((S_GREEN, F_GREEN), (S_ORANGE, F_ORANGE), (S_PURPLE, F_PURPLE)):
        v += count_term(w, base, out, first, sheet[area])
    n = sheet[S_PURPLE]
    if 1 <= n < TRACK:
        v += term(w, base, out, F_PURPLE_LAST + sheet[S_PURPLE_VALUES + n - 1] - 1, 1.0)
    v += count_term(w, base, out, np.int64(F_REROLLS),
                    min(sheet[S_REROLL_GOT] - sheet[S_REROLL_USED], 7))
    v += count_term(w, base, out, np.int64(F_PLUS), min(sheet[S_PLUS_GOT] - sheet[S_PLUS_USED], 7))
    foxes = sheet[S_FOXES]
    v += count_term(w, base, out, np.int64(F_FOXES), min(foxes, 5))
    lowest, total = 1 << 30, 0
    for area in range(N_AREAS):
        a = area_score(sheet, area)
        lowest = min(lowest, a)
        total += a
        v += term(w, base, out, F_AREAS + area, a / 10.0)
    v += term(w, base, out, np.int64(F_LOWEST), lowest / 10.0)
    worth = fox_worth(sheet, lowest)  # as ``rules.total_score``
    v += term(w, base, out, np.int64(F_FOX_POINTS), foxes * worth / 10.0)
    v += term(w, base, out, np.int64(F_CONSTANT), 1.0)
    return total + foxes * worth, v
