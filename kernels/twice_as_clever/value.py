"""The heuristic's estimate of what a Twice As Clever sheet will still score: a linear
function of sparse sheet features, one weight set per number of rounds still to play
(the interface of ``kernels.thats_pretty_clever.value``).

Features (``N_FEATURES``; one-hot unless marked linear): marks per silver row (1-5) and per
silver number (2-3 of 4 rows: column bonus progress); circles in each partly circled
yellow row and column, crossed cells (1-10) and circled cells still to cross (1-2); blue
slots filled (1-10+) and, while blue has room, the last blue sum (the headroom under the
never-increasing rule); green slots (1-11+) and the face of an open pair's first value;
pink slots (1-11+; the next slot's minimum follows); re-rolls, +1s and returns in hand
(1-3+); foxes (1-4+); and, linear (tenths of points), an open green pair's first value,
the five area scores, the lowest one and foxes times the lowest; a constant; and, linear,
each area's score up to ``AREA_CAP`` (strong play keeps every area near it, as each fox
is worth the lowest area). The weights are fitted by
``scripts/train_clever.py --game tac``.
"""

import numpy as np

from kernels.clever_base.value_terms import (VALUE_STAGES, count_term, term,  # noqa: F401
                                             value_stage)
from kernels.jit import njit
from kernels.twice_as_clever.layout import (BLUE_POINTS, GREEN_MULTIPLIER, N_AREAS, S_BLUE,
                                            S_BLUE_VALUES, S_FOXES, S_GREEN, S_GREEN_VALUES, S_PINK,
                                            S_PINK_VALUES, S_PLUS_GOT, S_PLUS_USED, S_REROLL_GOT,
                                            S_REROLL_USED, S_RETURN_GOT, S_RETURN_USED, S_SILVER,
                                            S_YELLOW_CIRCLED, S_YELLOW_CROSSED, SILVER_ROWS, TRACK,
                                            YELLOW_GROUPS)
from kernels.twice_as_clever.rules import SILVER_ROW_SCORE, YELLOW_SCORE, fox_worth

F_SILVER_ROW = 0  # + 5 * row + marks - 1 (1..5 marks; a full row is in the linear score)
F_SILVER_COL = 20  # + 2 * (number - 1) + marks - 2 (2..3 of the 4 rows marked)
F_YELLOW_GROUP = 32  # + group offset + circled - 1 (short of the whole line; rows then cols)
F_YELLOW_CROSSED = 43  # + crossed cells - 1
F_YELLOW_OPEN = 53  # + circled, uncrossed cells - 1 (at most 2 counted)
F_BLUE = 55  # + slots - 1 (at most 10 counted)
F_BLUE_LAST = 65  # + last sum - 2, while blue has room
F_GREEN = 76  # + slots - 1 (at most 11 counted)
F_GREEN_OPEN = 87  # + face of an open pair's first value - 1
F_PINK = 93  # + slots - 1 (at most 11 counted)
F_REROLLS = 104  # + re-rolls in hand - 1 (at most 3 counted)
F_PLUS = 107
F_RETURNS = 110
F_FOXES = 113  # + foxes - 1 (at most 4 counted)
F_GREEN_PENDING = 117  # an open green pair's first value / 10 (linear)
F_AREAS = 118  # + area: its score / 10 (linear)
F_LOWEST = 123  # lowest area / 10 (linear)
F_FOX_POINTS = 124  # foxes x lowest area / 10 (linear)
F_CONSTANT = 125
F_AREAS_CAPPED = 126  # + area: min(its score, AREA_CAP) / 10 (linear; balance, see foxes)
N_FEATURES = 131
AREA_CAP = 30
N_VALUE_WEIGHTS = VALUE_STAGES * N_FEATURES
# yellow lines (``YELLOW_GROUPS``: 5 rows of 2 cells, columns of 2, 3, 2, 3 cells): where
# each line's "circled, not yet complete" features start
YELLOW_GROUP_OFFSETS = np.array([0, 1, 2, 3, 4, 5, 6, 8, 9], np.int64)
YELLOW_GROUP_SIZES = np.array([2, 2, 2, 2, 2, 2, 3, 2, 3], np.int64)
NO_FEATURES = np.zeros(0, np.float64)


def _feature_tables():
    """Per-mask feature indices (-1: none) of the silver rows, the yellow crossed and open
    counts, and the yellow lines' ``[count, index, ...]`` rows (see ``sheet_value``)."""
    pop = [bin(m).count("1") for m in range(1 << 10)]
    row = np.full(SILVER_ROWS * 64, -1, np.int64)
    for r in range(SILVER_ROWS):
        for m in range(64):
            if 1 <= pop[m] <= 5:
                row[64 * r + m] = F_SILVER_ROW + 5 * r + pop[m] - 1
    crossed = np.array([F_YELLOW_CROSSED + pop[m] - 1 if pop[m] else -1
                        for m in range(1 << 10)], np.int64)
    open_ = np.array([F_YELLOW_OPEN + min(pop[m], 2) - 1 if pop[m] else -1
                      for m in range(1 << 10)], np.int64)
    groups = np.zeros((1 << 10, 1 + len(YELLOW_GROUP_SIZES)), np.int64)
    for m in range(1 << 10):
        for g in range(len(YELLOW_GROUP_SIZES)):
            k = pop[m & int(YELLOW_GROUPS[g])]
            if 1 <= k < YELLOW_GROUP_SIZES[g]:
                groups[m, 0] += 1
                groups[m, groups[m, 0]] = F_YELLOW_GROUP + YELLOW_GROUP_OFFSETS[g] + k - 1
    low_bit = np.array([(m & -m).bit_length() - 1 for m in range(64)], np.int64)
    return row, crossed, open_, groups, low_bit


# int64[4 * 64]: a silver row's feature by ``64 * row + its marks``; int64[1024]: the
# yellow crossed and "circled, uncrossed" features by mask; int64[1024, 10]: the yellow
# lines' features by circled mask (count, then indices in line order); int64[64]: the
# lowest set bit's index
SILVER_ROW_FEATURE, YELLOW_CROSSED_FEATURE, YELLOW_OPEN_FEATURE, YELLOW_GROUP_FEATURES, \
    LOW_BIT = _feature_tables()


@njit(cache=True, _nrt=False, inline="always")
def sheet_value(sheet, w, out):
    """``(score, weighted feature sum)`` of ``sheet`` (int64[SHEET_LEN], a Twice As Clever
    sheet) under ``w`` (float64[>= N_VALUE_WEIGHTS], or empty for 0) with the weight set of
    its stage; adds the features to ``out`` (float64[N_FEATURES], zeroed by the caller;
    empty: not recorded; None: compiled without the stores). Features are summed in a fixed
    order (table look-ups, no loops over cells)."""
    base = value_stage(sheet) * N_FEATURES
    v = 0.0
    silver = sheet[S_SILVER]
    r0, r1, r2, r3 = silver & 63, (silver >> 6) & 63, (silver >> 12) & 63, (silver >> 18) & 63
    for i in range(SILVER_ROWS):
        f = SILVER_ROW_FEATURE[64 * i + ((silver >> (6 * i)) & 63)]
        if f >= 0:
            v += term(w, base, out, f, 1.0)
    # rows marked per number, bit-sliced: 2 or 3 of the 4 rows (mid bit set, high clear)
    x1, c1, x2, c2 = r0 ^ r1, r0 & r1, r2 ^ r3, r2 & r3
    low, c3 = x1 ^ x2, x1 & x2
    mid, high = c1 ^ c2 ^ c3, (c1 & c2) | (c3 & (c1 ^ c2))
    cols = mid & ~high
    while cols:
        number = LOW_BIT[cols]
        v += term(w, base, out, F_SILVER_COL + 2 * number + ((low >> number) & 1), 1.0)
        cols &= cols - 1
    circled = sheet[S_YELLOW_CIRCLED]
    crossed = sheet[S_YELLOW_CROSSED]
    for j in range(YELLOW_GROUP_FEATURES[circled, 0]):
        v += term(w, base, out, YELLOW_GROUP_FEATURES[circled, 1 + j], 1.0)
    f = YELLOW_CROSSED_FEATURE[crossed]
    if f >= 0:
        v += term(w, base, out, f, 1.0)
    f = YELLOW_OPEN_FEATURE[circled & ~crossed]
    if f >= 0:
        v += term(w, base, out, f, 1.0)
    n = sheet[S_BLUE]
    if n >= 1:
        v += term(w, base, out, F_BLUE + min(n, 10) - 1, 1.0)
        if n < TRACK:
            v += term(w, base, out, F_BLUE_LAST + sheet[S_BLUE_VALUES + n - 1] - 2, 1.0)
    n = sheet[S_GREEN]
    green = 0
    for pair in range(n // 2):
        green += sheet[S_GREEN_VALUES + 2 * pair] - sheet[S_GREEN_VALUES + 2 * pair + 1]
    if n >= 1:
        v += term(w, base, out, F_GREEN + min(n, 11) - 1, 1.0)
        if n % 2 == 1:  # an open pair: its first value is written
            first = sheet[S_GREEN_VALUES + n - 1]
            face = first // GREEN_MULTIPLIER[n - 1]
            v += term(w, base, out, F_GREEN_OPEN + face - 1, 1.0)
            v += term(w, base, out, np.int64(F_GREEN_PENDING), first / 10.0)
    n = sheet[S_PINK]
    pink = 0
    for i in range(n):
        pink += sheet[S_PINK_VALUES + i]
    v += count_term(w, base, out, np.int64(F_PINK), min(n, 11))
    v += count_term(w, base, out, np.int64(F_REROLLS),
                    min(sheet[S_REROLL_GOT] - sheet[S_REROLL_USED], 3))
    v += count_term(w, base, out, np.int64(F_PLUS), min(sheet[S_PLUS_GOT] - sheet[S_PLUS_USED], 3))
    v += count_term(w, base, out, np.int64(F_RETURNS),
                    min(sheet[S_RETURN_GOT] - sheet[S_RETURN_USED], 3))
    foxes = sheet[S_FOXES]
    v += count_term(w, base, out, np.int64(F_FOXES), min(foxes, 4))
    scores = (SILVER_ROW_SCORE[r0] + SILVER_ROW_SCORE[r1] + SILVER_ROW_SCORE[r2]
              + SILVER_ROW_SCORE[r3], YELLOW_SCORE[crossed], BLUE_POINTS[sheet[S_BLUE]],
              green, pink)
    lowest, total, zero = np.int64(1 << 30), 0, np.bool_(False)
    for area in range(N_AREAS):
        a = scores[area]
        lowest = min(lowest, a)
        zero = zero or a == 0
        total += a
        v += term(w, base, out, F_AREAS + area, a / 10.0)
        v += term(w, base, out, F_AREAS_CAPPED + area, min(a, AREA_CAP) / 10.0)
    lowest = fox_worth(sheet, lowest, zero)  # as ``rules.total_score``
    v += term(w, base, out, np.int64(F_LOWEST), lowest / 10.0)
    v += term(w, base, out, np.int64(F_FOX_POINTS), foxes * lowest / 10.0)
    v += term(w, base, out, np.int64(F_CONSTANT), 1.0)
    return total + foxes * lowest, v
