"""That's Pretty Clever policies: how a sheet is valued (greedy: its score; heuristic:
tuned estimates on top), where free marks go, which move to make and when to re-roll.

A policy is a float64 row: its ``KIND`` then the heuristic's weights ``W_*``.
"""

import numpy as np
from numba import njit

from kernels.rng import uniform
from kernels.thats_pretty_clever.layout import (
    CROSS_BLUE,
    N_DICE,
    S_BLUE,
    S_FOXES,
    S_GREEN,
    S_ORANGE,
    S_PLUS_GOT,
    S_PLUS_USED,
    S_PURPLE,
    S_PURPLE_VALUES,
    S_REROLL_GOT,
    S_REROLL_USED,
    S_ROUND,
    S_ROUNDS,
    S_YELLOW,
    SHEET_LEN,
    TRACK,
    YELLOW_COL_POINTS,
)
from kernels.thats_pretty_clever.moves import POOL, _die_value, legal_moves
from kernels.thats_pretty_clever.rules import (
    MAX_PENDING,
    bonus_choices,
    enter,
    resolve_bonus,
    score_parts,
    total_score,
)

RANDOM, GREEDY, HEURISTIC = 0, 1, 2
POLICY_NAMES = ("random", "greedy", "heuristic")
KIND = 0
W_YELLOW_2, W_YELLOW_3 = 1, 2  # share of a column's points when 2 / 3 of its cells are marked
W_BLUE, W_GREEN = 3, 4  # per mark
W_ORANGE_FREE = 5  # per orange slot still free
W_PURPLE, W_PURPLE_ROOM = 6, 7  # per mark; per step of room above the last purple value
W_REROLL, W_PLUS = 8, 9  # per action still available
W_FOX, W_MIN_AREA = 10, 11
W_PLATTER = 12  # per die an active pick sends to the platter
W_REROLL_BELOW = 13  # re-roll when the best pick gains less than this
W_PLUS_ABOVE = 14  # spend a +1 when it gains more than this (any gain on the last turn)
W_LATE = 15  # how much the estimates shrink from the first round to the last
N_POL = 16
NO_DICE = np.zeros(0, np.int64)  # ``where`` for picks that send no dice to the platter
# the work buffer (int64[WORK_LEN]) the decision functions use instead of allocating:
# a trial sheet for free marks, a trial sheet for moves, and two pending-bonus stacks
_BONUS_TRIAL = 0
_MOVE_TRIAL = SHEET_LEN
_MOVE_PENDING = 2 * SHEET_LEN
_BONUS_PENDING = 2 * SHEET_LEN + MAX_PENDING
WORK_LEN = 2 * SHEET_LEN + 2 * MAX_PENDING


@njit(cache=True)
def sheet_value(sheet, pol):
    """How good a sheet is for a policy: greedy counts the score; the heuristic adds its
    weighted estimates of what the marks, free slots and actions will still bring."""
    score = total_score(sheet)
    if pol[KIND] != HEURISTIC:
        return float(score)
    v = 0.0
    for c in range(4):
        k = 0
        for r in range(4):
            k += (sheet[S_YELLOW] >> (4 * r + c)) & 1
        if k == 2:
            v += pol[W_YELLOW_2] * YELLOW_COL_POINTS[c]
        elif k == 3:
            v += pol[W_YELLOW_3] * YELLOW_COL_POINTS[c]
    blue = 0
    for b in range(11):
        blue += (sheet[S_BLUE] >> b) & 1
    v += pol[W_BLUE] * blue + pol[W_GREEN] * sheet[S_GREEN]
    v += pol[W_ORANGE_FREE] * (TRACK - sheet[S_ORANGE])
    n = sheet[S_PURPLE]
    v += pol[W_PURPLE] * n
    if n < TRACK:
        last = sheet[S_PURPLE_VALUES + n - 1] if n > 0 else 0
        v += pol[W_PURPLE_ROOM] * (6 - last if last < 6 else 6)
    v += pol[W_REROLL] * (sheet[S_REROLL_GOT] - sheet[S_REROLL_USED])
    v += pol[W_PLUS] * (sheet[S_PLUS_GOT] - sheet[S_PLUS_USED])
    _, lowest = score_parts(sheet)
    v += pol[W_FOX] * sheet[S_FOXES] + pol[W_MIN_AREA] * lowest
    played = sheet[S_ROUND] / max(sheet[S_ROUNDS], 1)
    return score + v * max(1.0 - pol[W_LATE] * played, 0.0)


@njit(cache=True)
def _pick_bonus_target(sheet, code, pol, stream, slot, scratch):
    """Where a free X goes: the random policy picks uniformly, greedy picks the target with
    the best immediate score (ties: lowest index)."""
    options = bonus_choices(sheet, code)
    if options <= 0:
        return 0
    count = 0
    for i in range(16):
        count += (options >> i) & 1
    offset = 2 if code // 8 == CROSS_BLUE else 0  # blue options are sums, bit = sum - 2
    if pol[KIND] == RANDOM:
        k = np.int64(uniform(stream, slot) * count)
        for i in range(16):
            if (options >> i) & 1:
                if k == 0:
                    return i + offset
                k -= 1
    best, best_v = -1, -1e300
    trial = scratch[_BONUS_TRIAL:_BONUS_TRIAL + SHEET_LEN]
    pending = scratch[_BONUS_PENDING:_BONUS_PENDING + MAX_PENDING]
    for i in range(16):
        if (options >> i) & 1:
            target = i + offset
            trial[:] = sheet
            resolve_bonus(trial, code, target, pending, 0)
            v = sheet_value(trial, pol)
            if v > best_v:
                best, best_v = target, v
    return best


@njit(cache=True)
def apply_move(sheet, faces, die, area, cell, pol, stream, slot, scratch):
    """Enter the die and resolve every bonus it triggers, depth-first (the latest
    triggered first); free marks are placed by the policy. ``scratch``: int64[WORK_LEN]."""
    if area < 0:
        return  # a wasted pick: the die is moved, nothing is entered
    pending = scratch[_MOVE_PENDING:_MOVE_PENDING + MAX_PENDING]
    n = enter(sheet, area, _die_value(faces, die, area), cell, pending, 0)
    k = 0
    while n > 0:
        n -= 1
        code = pending[n]
        target = _pick_bonus_target(sheet, code, pol, stream, slot + 32 + k, scratch)
        n = resolve_bonus(sheet, code, target, pending, n)
        k += 1


@njit(cache=True)
def choose_move(sheet, faces, moves, n, pol, stream, slot, scratch, where):
    """``(index, value after)`` of the chosen move (-1 if none): uniform for random (value
    -inf), else the best ``sheet_value`` after the move; with ``where`` (an active pick)
    the heuristic also counts the dice the pick sends to the platter. Among equals the
    lowest die face wins, which keeps more dice in play."""
    if n == 0:
        return -1, -np.inf
    if pol[KIND] == RANDOM:
        return np.int64(uniform(stream, slot) * n), -np.inf
    best, best_v, best_value = 0, -np.inf, -np.inf
    trial = scratch[_MOVE_TRIAL:_MOVE_TRIAL + SHEET_LEN]
    for i in range(n):
        trial[:] = sheet
        die = moves[i, 0]
        apply_move(trial, faces, die, moves[i, 1], moves[i, 2], pol, stream, slot, scratch)
        value = sheet_value(trial, pol)
        v = value - 1e-3 * faces[die]
        if where.shape[0] > 0 and pol[KIND] == HEURISTIC:
            for d in range(N_DICE):
                if where[d] == POOL and faces[d] < faces[die]:
                    v -= pol[W_PLATTER]
        if v > best_v:
            best, best_v, best_value = i, v, value
    return best, best_value


@njit(cache=True)
def _wants_reroll(sheet, faces, usable, moves, pol, stream, slot, scratch, where):
    """Spend a re-roll? Random: half the time; greedy: when no die of the roll is usable;
    heuristic: when the best pick gains less than ``W_REROLL_BELOW``."""
    if sheet[S_REROLL_GOT] - sheet[S_REROLL_USED] <= 0:
        return False
    if pol[KIND] == RANDOM:
        return uniform(stream, slot) < 0.5
    n = legal_moves(sheet, faces, usable, moves)
    if pol[KIND] == GREEDY or n == 0:
        return n == 0
    _, after = choose_move(sheet, faces, moves, n, pol, stream, slot, scratch, where)
    return after - sheet_value(sheet, pol) < pol[W_REROLL_BELOW]
