"""The Twice As Clever afterstate as the value network sees it: a sparse vector of
``N_INPUTS`` numbers, written as (input number, value) pairs.

Inputs (offsets below; "thermometer" k = 1 for every count >= k):

* silver: one bit per cell (24), a thermometer of marks per row (4 x 6), the fraction of
  each number's column marked (6);
* yellow: circled and crossed bits per cell (10 + 10), thermometers of the circled and the
  crossed count (10 + 10), the fraction circled of each row and column (9);
* blue: a thermometer of slots (12), the floor the next sum may not exceed (the last sum
  2-12, or 12 when empty: one-hot 11);
* green: a thermometer (12), whether a pair is open (1), the next slot's multiplier
  (one-hot x1-x4), the open pair's first value / 24, the score's positive and negative
  parts / 60;
* pink: a thermometer (12), the next slot's minimum for its bonus (none, 2-6: one-hot 6),
  the sum / 72;
* the action bars: re-rolls, +1s and returns in hand (thermometers capped at 4: 12) and
  circled so far (thermometers to 6, the 6th pays its bar's bonus: 18);
* foxes: a thermometer to 6, foxes / 10 (7);
* scores: each area over its usual top (44, 100, 66, 60, 60; green signed), the lowest
  area / 40, the fox points / 150, the total / 400 (8);
* time and dice: the turn block (``TURN_INPUTS``);
* the bonus block (``N_INPUTS`` - ``N_BASE`` inputs, for a network that has them): the
  bonus groups completed / 15 (yellow rows and columns, silver columns), and for each
  bonus kind (re-roll, +1, return, fox, and the silver, yellow, blue, green and pink "?")
  how close it is: one away (+0.5 per group, track or bar whose next mark fires it, at
  most 1) and the pull of the tracks (the sum over the blue, green and pink slots still
  to fill that fire it of 1 / (1 + slots before them), at most 1). The sums
  are added up in ``val``'s last 18 numbers (the caller's buffer has them past any input).
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
from kernels.twice_as_clever.layout import (ACTION_SLOTS, BLUE_BONUS, FOX, GREEN_BONUS,
                                            GREEN_MULTIPLIER, N_AREAS, PINK_BONUS, PINK_MIN, Q_PINK,
                                            Q_SILVER, S_BLUE, S_BLUE_VALUES, S_FOXES, S_GREEN,
                                            S_GREEN_VALUES, S_PINK, S_REROLL_GOT, S_REROLL_USED,
                                            S_ROUND, S_ROUNDS, S_SILVER, S_YELLOW_CIRCLED,
                                            S_YELLOW_CROSSED, SILVER_COLUMN_BONUS, SILVER_ROWS,
                                            TRACK, YELLOW_CELLS, YELLOW_GROUP_BONUS, YELLOW_GROUPS)
from kernels.twice_as_clever.rules import area_score, fox_worth

AREA_TOPS = np.array([44.0, 100.0, 66.0, 60.0, 60.0], np.float32)
N_YELLOW_GROUPS = 9
N_KINDS = 9  # bonus kinds 1-9 (re-roll .. pink ?); the black ? comes from the round track
SILVER_COLUMN = np.array([sum(1 << (6 * r + v) for r in range(SILVER_ROWS))
                          for v in range(6)], np.int64)  # bit masks of one number's cells
# the bar bonuses of a 6th circle: re-roll -> fox, +1 -> silver ?, return -> pink ?
BAR_BONUS = np.array([FOX, Q_SILVER, Q_PINK], np.int64)
TRACK_BONUS = np.stack((BLUE_BONUS, GREEN_BONUS, PINK_BONUS))

I_SILVER_CELL = 0
I_SILVER_ROW = I_SILVER_CELL + 24  # + 6 * row + marks - 1
I_SILVER_COL = I_SILVER_ROW + 24
I_YELLOW_CIRCLED = I_SILVER_COL + 6
I_YELLOW_CROSSED = I_YELLOW_CIRCLED + YELLOW_CELLS
I_CIRCLED_COUNT = I_YELLOW_CROSSED + YELLOW_CELLS
I_CROSSED_COUNT = I_CIRCLED_COUNT + YELLOW_CELLS
I_YELLOW_GROUP = I_CROSSED_COUNT + YELLOW_CELLS
I_BLUE = I_YELLOW_GROUP + N_YELLOW_GROUPS
I_BLUE_FLOOR = I_BLUE + TRACK  # + floor - 2
I_GREEN = I_BLUE_FLOOR + 11
I_GREEN_OPEN = I_GREEN + TRACK
I_GREEN_NEXT = I_GREEN_OPEN + 1  # + multiplier - 1
I_GREEN_FIRST = I_GREEN_NEXT + 4
I_GREEN_PLUS = I_GREEN_FIRST + 1
I_GREEN_MINUS = I_GREEN_PLUS + 1
I_PINK = I_GREEN_MINUS + 1
I_PINK_NEXT = I_PINK + TRACK  # none (any value pays, or no bonus), then minimum 2-6
I_PINK_SUM = I_PINK_NEXT + 6
I_IN_HAND = I_PINK_SUM + 1  # + 4 * bar + count - 1 (bars: re-roll, +1, return)
I_CIRCLES = I_IN_HAND + 12  # + 6 * bar + count - 1
I_FOXES = I_CIRCLES + 18
I_FOX_COUNT = I_FOXES + 6
I_AREAS = I_FOX_COUNT + 1
I_LOWEST = I_AREAS + N_AREAS
I_FOX_POINTS = I_LOWEST + 1
I_TOTAL = I_FOX_POINTS + 1
I_ROUND = I_TOTAL + 1
N_BASE = I_ROUND + TURN_INPUTS  # the inputs without the bonus block (the turn block
# from I_ROUND: kernels.clever_base.sparse)
I_GROUPS_DONE = N_BASE
I_ONE_AWAY = I_GROUPS_DONE + 1  # + bonus kind - 1
I_PULL = I_ONE_AWAY + N_KINDS  # + bonus kind - 1
N_INPUTS = I_PULL + N_KINDS  # with the bonus block
N_SEATED = N_INPUTS + N_SEAT  # with the seat block too (``kernels.clever_base.seats``)
N_RULED = N_SEATED + N_RULES  # with the rules block too (``kernels.clever_base.rule_block``)


@njit(cache=True, _nrt=False)
def lowest_area(sheet):
    """``(lowest area score, fox points)`` (each fox: ``rules.fox_worth``)."""
    lowest, zero = np.int64(1 << 30), np.bool_(False)
    for a in range(N_AREAS):
        score = area_score(sheet, a)
        lowest = min(lowest, score)
        zero = zero or score == 0
    return lowest, sheet[S_FOXES] * fox_worth(sheet, lowest, zero)


@njit(cache=True, _nrt=False)
def encode(sheet, ts, idx, val, n_in):
    """Write the first ``n_in`` inputs (``N_BASE``, ``N_INPUTS``, ``N_SEATED`` or
    ``N_RULED``) of the afterstate (``sheet`` int64[SHEET_LEN], turn state ``ts``
    int64[TS_LEN]) into ``idx`` int64[>= n_in] and ``val`` float32[>= n_in + 18]; returns
    how many are nonzero."""
    n = np.int64(0)
    silver = sheet[S_SILVER]
    for c in range(24):
        n = put(idx, val, n, I_SILVER_CELL + c, (silver >> c) & 1)
    for r in range(SILVER_ROWS):
        n = thermometer(idx, val, n, I_SILVER_ROW + 6 * r,
                         count_bits((silver >> (6 * r)) & 63), np.int64(6))
    for v in range(6):
        n = put(idx, val, n, I_SILVER_COL + v,
                 np.float32(count_bits(silver & SILVER_COLUMN[v]) / SILVER_ROWS))
    circled, crossed = sheet[S_YELLOW_CIRCLED], sheet[S_YELLOW_CROSSED]
    for c in range(YELLOW_CELLS):
        n = put(idx, val, n, I_YELLOW_CIRCLED + c, (circled >> c) & 1)
        n = put(idx, val, n, I_YELLOW_CROSSED + c, (crossed >> c) & 1)
    n = thermometer(idx, val, n, np.int64(I_CIRCLED_COUNT), count_bits(circled),
                    np.int64(YELLOW_CELLS))
    n = thermometer(idx, val, n, np.int64(I_CROSSED_COUNT), count_bits(crossed),
                    np.int64(YELLOW_CELLS))
    for g in range(N_YELLOW_GROUPS):
        group = YELLOW_GROUPS[g]
        n = put(idx, val, n, I_YELLOW_GROUP + g,
                 np.float32(count_bits(circled & group) / count_bits(group)))
    blue = sheet[S_BLUE]
    n = thermometer(idx, val, n, np.int64(I_BLUE), blue, np.int64(TRACK))
    floor = sheet[S_BLUE_VALUES + blue - 1] if blue > 0 else 12
    n = put(idx, val, n, I_BLUE_FLOOR + floor - 2, 1.0)
    green = sheet[S_GREEN]
    n = thermometer(idx, val, n, np.int64(I_GREEN), green, np.int64(TRACK))
    if green < TRACK:
        n = put(idx, val, n, I_GREEN_NEXT + GREEN_MULTIPLIER[green] - 1, 1.0)
    if green % 2 == 1:
        n = put(idx, val, n, np.int64(I_GREEN_OPEN), 1.0)
        n = put(idx, val, n, np.int64(I_GREEN_FIRST),
                 np.float32(sheet[S_GREEN_VALUES + green - 1] / 24.0))
    green_score = area_score(sheet, np.int64(3))
    n = put(idx, val, n, np.int64(I_GREEN_PLUS), np.float32(max(green_score, 0) / 60.0))
    n = put(idx, val, n, np.int64(I_GREEN_MINUS), np.float32(max(-green_score, 0) / 60.0))
    pink = sheet[S_PINK]
    n = thermometer(idx, val, n, np.int64(I_PINK), pink, np.int64(TRACK))
    if pink < TRACK:
        need = PINK_MIN[pink] if PINK_BONUS[pink] != 0 else 0
        n = put(idx, val, n, I_PINK_NEXT + max(need - 1, 0), 1.0)
    n = put(idx, val, n, np.int64(I_PINK_SUM), np.float32(area_score(sheet, np.int64(4)) / 72.0))
    for bar in range(3):
        got = sheet[S_REROLL_GOT + 2 * bar]  # got, used pairs: re-roll, +1, return
        n = thermometer(idx, val, n, I_IN_HAND + 4 * bar,
                         got - sheet[S_REROLL_USED + 2 * bar], np.int64(4))
        n = thermometer(idx, val, n, I_CIRCLES + 6 * bar, got, np.int64(ACTION_SLOTS))
    foxes = sheet[S_FOXES]
    n = fox_inputs(idx, val, n, np.int64(I_FOXES), foxes)
    total = 0
    for a in range(N_AREAS):
        score = area_score(sheet, a)
        total += score
        n = put(idx, val, n, I_AREAS + a, np.float32(score) / AREA_TOPS[a])
    lowest, fox_points = lowest_area(sheet)
    n = put(idx, val, n, np.int64(I_LOWEST), np.float32(lowest / 40.0))
    n = put(idx, val, n, np.int64(I_FOX_POINTS), np.float32(fox_points / 150.0))
    n = put(idx, val, n, np.int64(I_TOTAL), np.float32((total + fox_points) / 400.0))
    n = turn_block(idx, val, n, np.int64(I_ROUND), sheet[S_ROUND], sheet[S_ROUNDS],
                   sheet[H_PLAYERS],
                   ts)
    if n_in > N_BASE:
        n = _bonus_block(sheet, idx, val, n)
    return seat_and_rules(idx, val, n, sheet, n_in, np.int64(N_INPUTS), np.int64(N_SEATED))


@njit(cache=True, _nrt=False)
def _bonus_block(sheet, idx, val, n):
    """The bonus block's inputs after the ``n`` written; the new count. The one-away and
    pull sums are added up in ``val``'s last 2 x ``N_KINDS`` numbers, past any input (no
    allocation)."""
    end = val.shape[0]
    away = val[end - 2 * N_KINDS:end - N_KINDS]
    pull = val[end - N_KINDS:]
    away[:] = 0.0
    pull[:] = 0.0
    done = 0
    circled = sheet[S_YELLOW_CIRCLED]
    for g in range(N_YELLOW_GROUPS):
        open_cells = YELLOW_GROUPS[g] & ~circled
        if open_cells == 0:
            done += 1
        elif open_cells & (open_cells - 1) == 0:  # one cell left
            away[YELLOW_GROUP_BONUS[g] - 1] += 0.5
    silver = sheet[S_SILVER]
    for v in range(6):
        open_cells = SILVER_COLUMN[v] & ~silver
        if open_cells == 0:
            done += 1
        elif open_cells & (open_cells - 1) == 0:
            away[SILVER_COLUMN_BONUS[v] - 1] += 0.5
    for bar in range(3):
        if sheet[S_REROLL_GOT + 2 * bar] == ACTION_SLOTS - 1:
            away[BAR_BONUS[bar] - 1] += 0.5
    for t in range(3):
        filled = sheet[S_BLUE + t]
        for slot in range(filled, TRACK):
            kind = TRACK_BONUS[t, slot]
            if kind > 0:
                if slot == filled:
                    away[kind - 1] += 0.5
                pull[kind - 1] += 1.0 / (1.0 + slot - filled)
    n = put(idx, val, n, np.int64(I_GROUPS_DONE), np.float32(done / 15.0))
    for k in range(N_KINDS):
        n = put(idx, val, n, I_ONE_AWAY + k, min(away[k], np.float32(1.0)))
        n = put(idx, val, n, I_PULL + k, min(pull[k], np.float32(1.0)))
    return n
