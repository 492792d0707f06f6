"""The ``card`` policy: a strategy card's rules, played exactly, and greedy where the card is
silent (free marks, the round-4 bonus, returns).

The card counts a use of a die as the points it scores now, plus the points the card
gives a mark in its area (``C_AREA``, until round ``C_AREA_UNTIL``) and each action it
unlocks (``C_UNLOCK``); it picks among the game's good uses (``good_use``, when the roll
has one) the use that counts most, on the turn's first two picks among those that send at
most ``C_KEEP`` dice to the platter (the fewest when none does), each die sent there
costing ``C_PLATTER`` points. It re-rolls when the pick it would make counts fewer than
``C_REROLL`` points (from round ``C_REROLL_FROM``), spends a +1 on a use that counts more
than ``C_PLUS`` (from round ``C_PLUS_FROM``; any use on the game's last turn), picks
passively by the same count (``C_PASSIVE``; none below ``C_DECLINE``), uses returns from
round ``C_RETURN_FROM`` and, with opponents, counts on its last pick ``C_GIFT`` points lost
per point the best use of the platter it leaves counts for an opponent (by the card's count
on that opponent's sheet).

Its numbers sit in the policy row (float64[N_POL]) from ``W_VALUE`` on: the card has no
value weights. Every rule has a value that turns it off, which leaves greedy's choice.
"""

import numpy as np

from kernels.clever.moves import MAX_MOVES, N_DICE, PLATTER, POOL, legal_moves
from kernels.clever.policies import (_LOOK_MOVES, _MOVE_SCORES, _MOVE_TRIAL, GIFT, W_VALUE,
                                     _platter_cost, apply_move)
from kernels.clever.sheets import (NO_TOTAL, area_scores, copy_sheet, quiet_total,
                                   total_score)
from kernels.clever_base.dice import die_value
from kernels.clever_base.sheet import (H_GAME, H_PLUS_GOT, H_REROLL_GOT, H_REROLL_USED,
                                       H_RETURN_GOT, H_ROUND, SHEET_LEN, TAC)
from kernels.jit import njit
from kernels.thats_pretty_clever import card as tpc_card
from kernels.thats_pretty_clever.layout import BLUE_AREA as TPC_BLUE
from kernels.twice_as_clever import card as tac_card
from kernels.twice_as_clever.layout import BLUE_AREA as TAC_BLUE

C_AREA = W_VALUE  # + area: points a mark there counts beside the points it scores now
C_AREA_UNTIL = C_AREA + 5  # the last round (1-based) those points count in
C_UNLOCK = C_AREA + 6  # points each action a use unlocks (re-roll, +1, return) counts
C_KEEP = C_AREA + 7  # + pick (0, 1): the most dice the turn's 1st and 2nd pick send to
# the platter (the fewest when no good use does; 6: any)
C_PLATTER = C_AREA + 9  # points each die the 1st or 2nd pick sends to the platter costs
C_REROLL = C_AREA + 10  # re-roll when the card's pick counts fewer points than this
C_REROLL_FROM = C_AREA + 11  # ... from this round on (1-based)
C_PLUS = C_AREA + 12  # spend a +1 on a use that counts more than this
C_PLUS_FROM = C_AREA + 13  # ... from this round on (1-based; the game's last turn: any)
C_PASSIVE = C_AREA + 14  # 1: passive picks by the card's count among good uses (0: greedy)
C_DECLINE = C_AREA + 15  # ... and none when the best counts fewer points than this
C_GIFT = C_AREA + 16  # the last pick with opponents: points lost per point the best use
# of the dice it leaves counts for an opponent (the card's count; the mean over them)
C_RETURN_FROM = C_AREA + 17  # Twice As Clever: returns only from this round on (1-based)
C_GOOD = C_AREA + 18  # the game's good-use thresholds (``tpc_card``, ``tac_card``)
N_GOOD = 6
C_END = C_GOOD + N_GOOD  # the row's numbers end here
PHASE_PASSIVE = 3  # ``card_select`` phases after the active picks 0-2
PHASE_PLUS = 4


@njit(cache=True, _nrt=False)
def good_use(sheet, faces, die, area, pol):
    """Is the use of ``die`` in ``area`` a good one by the card (each game's ``good_use``)?"""
    if sheet[H_GAME] == TAC:
        return tac_card.good_use(sheet, area, die_value(faces, die, area, np.int64(TAC_BLUE)),
                                 pol, np.int64(C_GOOD))
    return tpc_card.good_use(sheet, area, die_value(faces, die, area, np.int64(TPC_BLUE)),
                             pol, np.int64(C_GOOD))


@njit(cache=True)
def card_count(sheet, faces, moves, i, before, scores, pol, stream, slot, scratch):
    """The card's count of move ``i`` (a row of ``moves`` int64[k, 3]): the points it
    scores now (``before``: the sheet's total; ``scores``: its area scores), plus the
    card's points for a mark in its area and for each action it unlocks."""
    die, area, target = moves[i, 0], moves[i, 1], moves[i, 2]
    quiet = quiet_total(sheet, scores, faces, die, area, target)
    unlocks = 0
    if quiet > NO_TOTAL:
        gain = float(quiet - before)
    else:  # the use fires bonuses: play them on a trial sheet
        trial = scratch[_MOVE_TRIAL:_MOVE_TRIAL + SHEET_LEN]
        copy_sheet(trial, sheet)
        apply_move(trial, faces, die, area, target, pol, stream, slot, scratch)
        gain = float(total_score(trial) - before)
        unlocks = (trial[H_REROLL_GOT] - sheet[H_REROLL_GOT] + trial[H_PLUS_GOT]
                   - sheet[H_PLUS_GOT] + trial[H_RETURN_GOT] - sheet[H_RETURN_GOT])
    if sheet[H_ROUND] + 1 <= pol[C_AREA_UNTIL]:
        gain += pol[C_AREA + area]
    return gain + pol[C_UNLOCK] * unlocks


@njit(cache=True)
def _platter_limit(sheet, faces, where, moves, n, pol, phase, good_only):
    """The most dice the active pick ``phase`` (0 or 1) may send to the platter: the card's
    ``C_KEEP``, or the fewest any allowed use sends when none keeps to it."""
    fewest = N_DICE
    for i in range(n):
        if good_only and not good_use(sheet, faces, moves[i, 0], moves[i, 1], pol):
            continue
        fewest = min(fewest, _platter_cost(faces, where, moves[i, 0]))
    return max(np.int64(pol[C_KEEP + phase]), fewest)


@njit(cache=True)
def card_select(sheet, faces, where, moves, n, pol, stream, slot, scratch, phase, penalty):
    """``(index, count)`` of the card's use among the ``n`` rows of ``moves`` (-1 and -inf
    if none): the good uses if the roll has one, else every use; on the active picks
    ``phase`` 0 and 1 those within the platter limit, each die sent to the platter costing
    ``C_PLATTER``; the highest count less ``penalty[die]`` (float64[N_DICE], or empty),
    the lowest face among equals. ``phase``: the active pick (0-2), ``PHASE_PASSIVE`` or
    ``PHASE_PLUS``; ``where`` (int64[N_DICE]) is read on the first two picks only."""
    if n == 0:
        return -1, -np.inf
    good_only = np.bool_(False)
    for i in range(n):
        if good_use(sheet, faces, moves[i, 0], moves[i, 1], pol):
            good_only = np.bool_(True)
            break
    keep = phase < 2
    limit = _platter_limit(sheet, faces, where, moves, n, pol, phase, good_only) if keep \
        else N_DICE
    before = total_score(sheet)
    scores = scratch[_MOVE_SCORES:_MOVE_SCORES + 5]
    area_scores(sheet, scores)
    best, best_v, best_count = -1, -np.inf, -np.inf
    for i in range(n):
        die = moves[i, 0]
        if good_only and not good_use(sheet, faces, die, moves[i, 1], pol):
            continue
        cost = _platter_cost(faces, where, die) if keep else 0
        if cost > limit:
            continue
        count = card_count(sheet, faces, moves, i, before, scores, pol, stream, slot, scratch)
        v = count - pol[C_PLATTER] * cost - 1e-3 * faces[die]
        if penalty.shape[0] > 0:
            v -= penalty[die]
        if v > best_v:
            best, best_v, best_count = i, v, count
    return best, best_count


@njit(cache=True)
def card_pick(sheets, me, faces, where, pick, moves, n, pol, stream, slot, scratch):
    """``(index, count)`` of player ``me``'s active pick ``pick`` (0-2; ``sheets``:
    int64[players, SHEET_LEN]) by ``card_select``; on the last pick with opponents and
    ``C_GIFT`` set, each die also costs what the platter it leaves gives them."""
    gift = scratch[GIFT:GIFT + N_DICE].view(np.float64)
    if pick < 2 or sheets.shape[0] <= 1 or pol[C_GIFT] == 0.0:
        return card_select(sheets[me], faces, where, moves, n, pol, stream, slot, scratch,
                           pick, gift[:0])
    for d in range(N_DICE):
        gift[d] = 0.0
        if where[d] == POOL:
            gift[d] = pol[C_GIFT] * card_gift(sheets, me, faces, where, d, pol, stream, slot,
                                              scratch)
    return card_select(sheets[me], faces, where, moves, n, pol, stream, slot, scratch, pick,
                       gift)


@njit(cache=True, inline="always")
def card_gift(sheets, me, faces, where, die, pol, stream, slot, scratch):
    """What a last pick of ``die`` leaves the opponents of ``me``: the mean over them of
    the card's count of their best use of the platter it leaves (the platter and every
    other die in play; 0 where none counts above 0)."""
    platter = np.int64(0)
    for d in range(N_DICE):
        if d != die and (where[d] == PLATTER or where[d] == POOL):
            platter |= 1 << d
    moves = scratch[_LOOK_MOVES:_LOOK_MOVES + 3 * MAX_MOVES].reshape((MAX_MOVES, 3))
    scores = scratch[_MOVE_SCORES:_MOVE_SCORES + 5]
    total = 0.0
    for p in range(sheets.shape[0]):
        if p == me:
            continue
        opp = sheets[p]
        before = total_score(opp)
        area_scores(opp, scores)
        best = 0.0
        for j in range(legal_moves(opp, faces, platter, moves, np.bool_(False))):
            best = max(best, card_count(opp, faces, moves, j, before, scores, pol, stream,
                                        slot, scratch))
        total += best
    return total / max(sheets.shape[0] - 1, 1)


@njit(cache=True, inline="always")
def card_rerolls(sheets, me, faces, where, pick, usable, moves, pol, stream, slot, scratch):
    """Does the card spend a re-roll on this roll? With one in hand: when no die is usable,
    or, from round ``C_REROLL_FROM``, when its pick counts fewer than ``C_REROLL``."""
    sheet = sheets[me]
    if sheet[H_REROLL_GOT] - sheet[H_REROLL_USED] <= 0:
        return False
    n = legal_moves(sheet, faces, usable, moves, np.bool_(False))
    if n == 0:
        return True
    if sheet[H_ROUND] + 1 < pol[C_REROLL_FROM]:
        return False
    _, count = card_pick(sheets, me, faces, where, pick, moves, n, pol, stream, slot, scratch)
    return count < pol[C_REROLL]


@njit(cache=True, inline="always")
def card_plus(sheet, faces, moves, n, pol, stream, slot, scratch, last_turn):
    """The use a +1 goes to (-1: keep it): the card's best use, when it counts more than
    ``C_PLUS`` from round ``C_PLUS_FROM`` on; on the game's last turn any."""
    i, count = card_select(sheet, faces, faces, moves, n, pol, stream, slot, scratch,
                           np.int64(PHASE_PLUS), scratch[GIFT:GIFT].view(np.float64))
    if last_turn:
        return i
    if sheet[H_ROUND] + 1 < pol[C_PLUS_FROM] or count <= pol[C_PLUS]:
        return -1
    return i


@njit(cache=True, inline="always")
def card_passive(sheet, faces, moves, n, pol, stream, slot, scratch, may_decline):
    """The card's passive pick (-1: none): its best use by ``card_select``, none where the
    pick may be declined and it counts fewer than ``C_DECLINE``."""
    i, count = card_select(sheet, faces, faces, moves, n, pol, stream, slot, scratch,
                           np.int64(PHASE_PASSIVE), scratch[GIFT:GIFT].view(np.float64))
    if may_decline and count < pol[C_DECLINE]:
        return -1
    return i
