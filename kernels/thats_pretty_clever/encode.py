"""The That's Pretty Clever afterstate as the value network sees it: a sparse vector of
``N_INPUTS`` numbers in [0, 1], written as (input number, value) pairs.

Inputs (offsets below; "thermometer" k = 1 for every count >= k):

* yellow: one bit per cell that can be crossed (12, pre-printed cells left out), the
  fraction marked of each row, column and the diagonal (9);
* blue: one bit per sum 2-12 (11), a thermometer of marks (11), the fraction marked of
  each row and column (7);
* green: a thermometer of marks (11), how easy the next cell is ((7 - its minimum) / 6);
* orange: a thermometer (11), its sum / 96, the next cell's multiplier (x1, x2, x3, or
  full: one-hot 4);
* purple: a thermometer (11), the last value written (none, 1-6: one-hot 7), its sum / 66;
* actions in hand: re-rolls and +1s, thermometers capped at 4 (8);
* foxes: a thermometer to 6, foxes / 10 (7);
* scores: each area over its usual top (60, 56, 66, 96, 66), the lowest area / 40, the
  total / 300 (7);
* time and dice: the turn block (``TURN_INPUTS``);
* the bonus block (``N_INPUTS`` - ``N_BASE`` inputs, for a network that has them): the
  re-rolls and +1s unlocked in the game so far / 7, the bonus groups completed / 12 (yellow
  rows and diagonal, blue rows and columns), for each bonus kind (re-roll, +1, fox, yellow
  X, blue X, green X, orange, purple) how close it is: one away (+0.5 per group or track
  whose next mark fires it, at most 1) and the pull of the tracks (the sum over the track
  cells still to fill that fire it of 1 / (1 + marks before them), at most 1).
* then the seat block and the rules block, for a network that has them.

The time and dice inputs, and the blocks after the bonus block, are both games' own:
``kernels.clever_base.sparse``.
"""

import numpy as np

from kernels.clever_base.bits import count_bits
from kernels.clever_base.rule_block import N_RULES, seat_and_rules
from kernels.clever_base.seats import N_SEAT
from kernels.clever_base.sheet import H_PLAYERS
from kernels.clever_base.sparse import TURN_INPUTS, fox_inputs, put, thermometer, turn_block
from kernels.jit import njit
from kernels.thats_pretty_clever.layout import (BLUE_COL_BONUS, BLUE_COLS, BLUE_ROW_BONUS,
                                                BLUE_ROWS, GREEN_BONUS, GREEN_MIN, N_AREAS,
                                                ORANGE_BONUS, ORANGE_MULTIPLIER, PURPLE_BONUS,
                                                S_BLUE, S_FOXES, S_GREEN, S_ORANGE, S_PLUS_GOT,
                                                S_PLUS_USED, S_PURPLE, S_PURPLE_VALUES,
                                                S_REROLL_GOT, S_REROLL_USED, S_ROUND, S_ROUNDS,
                                                S_YELLOW, TRACK, YELLOW_COLS, YELLOW_DIAGONAL,
                                                YELLOW_DIAGONAL_BONUS, YELLOW_PREPRINTED,
                                                YELLOW_ROW_BONUS, YELLOW_ROWS)
from kernels.thats_pretty_clever.rules import area_score, fox_worth

YELLOW_OPEN_CELLS = np.array([c for c in range(16) if not (YELLOW_PREPRINTED >> c) & 1],
                             np.int64)
AREA_TOPS = np.array([60.0, 56.0, 66.0, 96.0, 66.0], np.float32)

I_YELLOW_CELL = 0
I_YELLOW_GROUP = I_YELLOW_CELL + 12  # rows 0-3, columns 0-3, the diagonal
I_BLUE_SUM = I_YELLOW_GROUP + 9
I_BLUE_COUNT = I_BLUE_SUM + 11
I_BLUE_GROUP = I_BLUE_COUNT + 11  # rows 0-2, columns 0-3
I_GREEN = I_BLUE_GROUP + 7
I_GREEN_EASE = I_GREEN + TRACK
I_ORANGE = I_GREEN_EASE + 1
I_ORANGE_SUM = I_ORANGE + TRACK
I_ORANGE_NEXT = I_ORANGE_SUM + 1
I_PURPLE = I_ORANGE_NEXT + 4
I_PURPLE_LAST = I_PURPLE + TRACK
I_PURPLE_SUM = I_PURPLE_LAST + 7
I_REROLLS = I_PURPLE_SUM + 1
I_PLUS = I_REROLLS + 4
I_FOXES = I_PLUS + 4
I_FOX_COUNT = I_FOXES + 6
I_AREAS = I_FOX_COUNT + 1
I_LOWEST = I_AREAS + N_AREAS
I_TOTAL = I_LOWEST + 1
I_ROUND = I_TOTAL + 1
N_BASE = I_ROUND + TURN_INPUTS  # the inputs without the bonus block (the turn block
# from I_ROUND: kernels.clever_base.sparse)
I_UNLOCKED = N_BASE  # re-rolls, +1s
I_GROUPS_DONE = I_UNLOCKED + 2
I_ONE_AWAY = I_GROUPS_DONE + 1  # + bonus kind - 1
I_PULL = I_ONE_AWAY + 8  # + bonus kind - 1
N_INPUTS = I_PULL + 8  # with the bonus block
N_SEATED = N_INPUTS + N_SEAT  # with the seat block too (``kernels.clever_base.seats``)
N_RULED = N_SEATED + N_RULES  # with the rules block too (``kernels.clever_base.rule_block``)
N_GROUPS = 12
# the bonus groups of the sheet (bit masks of yellow cells or blue sums) and their bonuses
GROUP_MASKS = np.concatenate((YELLOW_ROWS, np.array([YELLOW_DIAGONAL]), BLUE_ROWS, BLUE_COLS))
GROUP_BONUS = np.concatenate((YELLOW_ROW_BONUS, np.array([YELLOW_DIAGONAL_BONUS]),
                              BLUE_ROW_BONUS, BLUE_COL_BONUS))
GROUP_IS_BLUE = np.array([0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1], np.int64)
TRACK_BONUS = np.stack((GREEN_BONUS, ORANGE_BONUS, PURPLE_BONUS))


@njit(cache=True, _nrt=False)
def _fraction(mask, group):
    """The fraction of the cells of ``group`` (a bit mask) marked in ``mask``."""
    return np.float32(count_bits(mask & group) / count_bits(group))


@njit(cache=True, _nrt=False)
def encode(sheet, ts, idx, val, n_in):
    """Write the first ``n_in`` inputs (``N_BASE``, ``N_INPUTS``, ``N_SEATED`` or
    ``N_RULED``) of the afterstate (``sheet`` int64[SHEET_LEN], turn state ``ts``
    int64[TS_LEN]) into
    ``idx`` int64[>= n_in] and ``val`` float32[>= n_in + 16]; returns how many are nonzero."""
    n = np.int64(0)
    yellow = sheet[S_YELLOW]
    for k in range(12):
        n = put(idx, val, n, I_YELLOW_CELL + k, (yellow >> YELLOW_OPEN_CELLS[k]) & 1)
    for g in range(4):
        n = put(idx, val, n, I_YELLOW_GROUP + g, _fraction(yellow, YELLOW_ROWS[g]))
        n = put(idx, val, n, I_YELLOW_GROUP + 4 + g, _fraction(yellow, YELLOW_COLS[g]))
    n = put(idx, val, n, I_YELLOW_GROUP + 8, _fraction(yellow, np.int64(YELLOW_DIAGONAL)))
    blue = sheet[S_BLUE]
    count = np.int64(0)
    for s in range(11):
        bit = (blue >> s) & 1
        count += bit
        n = put(idx, val, n, I_BLUE_SUM + s, bit)
    n = thermometer(idx, val, n, np.int64(I_BLUE_COUNT), count, np.int64(11))
    for g in range(3):
        n = put(idx, val, n, I_BLUE_GROUP + g, _fraction(blue, BLUE_ROWS[g]))
    for g in range(4):
        n = put(idx, val, n, I_BLUE_GROUP + 3 + g, _fraction(blue, BLUE_COLS[g]))
    green = sheet[S_GREEN]
    n = thermometer(idx, val, n, np.int64(I_GREEN), green, np.int64(TRACK))
    if green < TRACK:
        n = put(idx, val, n, np.int64(I_GREEN_EASE), np.float32((7 - GREEN_MIN[green]) / 6.0))
    orange = sheet[S_ORANGE]
    n = thermometer(idx, val, n, np.int64(I_ORANGE), orange, np.int64(TRACK))
    n = put(idx, val, n, np.int64(I_ORANGE_SUM), np.float32(area_score(sheet, np.int64(3)) / 96.0))
    n = put(idx, val, n, I_ORANGE_NEXT + (ORANGE_MULTIPLIER[orange] - 1 if orange < TRACK
                                           else 3), 1.0)
    purple = sheet[S_PURPLE]
    n = thermometer(idx, val, n, np.int64(I_PURPLE), purple, np.int64(TRACK))
    last = sheet[S_PURPLE_VALUES + purple - 1] if purple > 0 else 0
    n = put(idx, val, n, I_PURPLE_LAST + last, 1.0)
    n = put(idx, val, n, np.int64(I_PURPLE_SUM), np.float32(area_score(sheet, np.int64(4)) / 66.0))
    n = thermometer(idx, val, n, np.int64(I_REROLLS), sheet[S_REROLL_GOT] - sheet[S_REROLL_USED],
                    np.int64(4))
    n = thermometer(idx, val, n, np.int64(I_PLUS), sheet[S_PLUS_GOT] - sheet[S_PLUS_USED],
                    np.int64(4))
    foxes = sheet[S_FOXES]
    n = fox_inputs(idx, val, n, np.int64(I_FOXES), foxes)
    total, lowest = 0, 1 << 30
    for a in range(N_AREAS):
        score = area_score(sheet, a)
        total += score
        lowest = min(lowest, score)
        n = put(idx, val, n, I_AREAS + a, np.float32(score) / AREA_TOPS[a])
    n = put(idx, val, n, np.int64(I_LOWEST), np.float32(lowest / 40.0))
    n = put(idx, val, n, np.int64(I_TOTAL),
            np.float32((total + foxes * fox_worth(sheet, lowest)) / 300.0))
    n = turn_block(idx, val, n, np.int64(I_ROUND), sheet[S_ROUND], sheet[S_ROUNDS],
                   sheet[H_PLAYERS],
                   ts)
    if n_in > N_BASE:
        n = _bonus_block(sheet, idx, val, n)
    return seat_and_rules(idx, val, n, sheet, n_in, np.int64(N_INPUTS), np.int64(N_SEATED))


@njit(cache=True, _nrt=False)
def _bonus_block(sheet, idx, val, n):
    """The bonus block's inputs after the ``n`` written; the new count. The one-away and
    pull sums are added up in ``val``'s last 16 numbers, past any input (no allocation)."""
    n = put(idx, val, n, np.int64(I_UNLOCKED), np.float32(sheet[S_REROLL_GOT] / 7.0))
    n = put(idx, val, n, I_UNLOCKED + 1, np.float32(sheet[S_PLUS_GOT] / 7.0))
    away = val[val.shape[0] - 16:val.shape[0] - 8]
    pull = val[val.shape[0] - 8:]
    away[:] = 0.0
    pull[:] = 0.0
    done = 0
    for g in range(N_GROUPS):
        marks = sheet[S_BLUE] if GROUP_IS_BLUE[g] else sheet[S_YELLOW]
        open_cells = GROUP_MASKS[g] & ~marks
        if open_cells == 0:
            done += 1
        elif open_cells & (open_cells - 1) == 0:  # one cell left
            away[GROUP_BONUS[g] // 8 - 1] += 0.5
    for t in range(3):
        filled = sheet[S_GREEN + t]
        for slot in range(filled, TRACK):
            kind = TRACK_BONUS[t, slot] // 8
            if kind > 0:
                if slot == filled:
                    away[kind - 1] += 0.5
                pull[kind - 1] += 1.0 / (1.0 + slot - filled)
    n = put(idx, val, n, np.int64(I_GROUPS_DONE), np.float32(done / N_GROUPS))
    for k in range(8):
        n = put(idx, val, n, I_ONE_AWAY + k, min(away[k], np.float32(1.0)))
        n = put(idx, val, n, I_PULL + k, min(pull[k], np.float32(1.0)))
    return n
