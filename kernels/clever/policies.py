"""Clever policies (either sheet): how a sheet is valued (greedy: its score; heuristic:
its score plus fitted estimates of what is still to come), where free marks go, which move
to make (the heuristic looks one roll ahead) and when to re-roll or spend a +1.

A policy is a float64 row (float64[N_POL]): its ``KIND``, the heuristic's knobs ``W_*``,
then its value weights.
"""

import numpy as np

from kernels.clever.moves import MAX_MOVES, N_DICE, PLATTER, POOL, _pool_mask, legal_moves, to_field
from kernels.clever_base.blocks import block_starts
from kernels.clever_base.sheet import H_REROLL_GOT, H_REROLL_USED, SHEET_LEN
from kernels.clever.sheets import (MAX_PENDING, NO_TOTAL, area_scores, best_enter_total,
                                   bonus_choices, chain_area, chain_leftovers, chain_rows,
                                   choice_of_bit, chosen_bonus, copy_sheet, enter_die, enter_total,
                                   heuristic_value, mark_total, pop_pending, quiet_total,
                                   resolve_bonus, total_score)
from kernels.clever_base.turn import TS_LEN
from kernels.clever.value_net import MAX_ROW_SIZE, NET_BUF_LEN, afterstate_value, forget_inputs
from kernels.jit import njit
from kernels.rng import uniform
from kernels.thats_pretty_clever.value import N_VALUE_WEIGHTS as TPC_VALUE_WEIGHTS
from kernels.twice_as_clever.value import N_VALUE_WEIGHTS as TAC_VALUE_WEIGHTS

RANDOM, GREEDY, HEURISTIC, VALUE, CARD = 0, 1, 2, 3, 4
POLICY_NAMES = ("random", "greedy", "heuristic", "learned", "card")  # by KIND; HEURISTIC
# and VALUE value sheets by an estimate of the final score (``sheet_value``); VALUE
# (the ``learned`` policy) decides every choice by the value of the afterstate it leaves
# (``valued``); CARD plays a strategy card's rules (``card``) and, where the card is
# silent, as greedy
# The policy kinds the engine compiles for in this process: all of them, unless
# ``play.compile_policies`` narrowed them. Numba reads these flags when it compiles and
# leaves out the branches of the kinds left out: random and greedy alone compile without
# the heuristic's estimate (``value.sheet_value``) and the learned policy's networks.
KIND = 0
W_PLATTER = 1  # per die an active pick sends to the platter while a later pick could use it
W_REROLL_BELOW = 2  # re-roll when the best pick gains less than this
W_PLUS_ABOVE = 3  # spend a +1 when it gains more than this (any gain on the last turn)
W_SAMPLES = 4  # active picks: sampled re-rolls of the dice left in play (0 = one-step)
W_BRANCH = 5  # active picks: how many of the best one-step moves the lookahead compares
W_GIFT = 6  # multiplayer: per point the platter gives an opponent (mean over them); the
# heuristic weighs its last pick by the points at once, the value policy (``denial``)
# the choices of its last roll by the value of the opponents' best passive pick
W_LOOK_MARGIN = 7  # the value policy's lookahead (``lookahead``) compares only picks
# within this many points of the best one-step value
W_LOOK_PLAYERS = 8  # ... in games of these player counts (bit n: n players; 0: none)
W_VALUE = 9  # the heuristic's value weights (``value.sheet_value``; each game reads its
# first ``N_VALUE_WEIGHTS``)
W_NET = W_VALUE + max(TPC_VALUE_WEIGHTS, TAC_VALUE_WEIGHTS)  # the value policy's networks
# (``value_net``; the heuristic's weights before them serve as its warm-start teacher)
N_POL = W_NET + MAX_ROW_SIZE
# the work buffer (int64[WORK_LEN]) the decision functions use instead of allocating:
# a trial sheet for free marks, a trial sheet for moves, and two pending-bonus stacks
_BONUS_TRIAL = 0
_MOVE_TRIAL = SHEET_LEN
MOVE_PENDING = 2 * SHEET_LEN
_BONUS_PENDING = 2 * SHEET_LEN + MAX_PENDING
# ... then, for the lookahead over the next roll, the sheet after a candidate pick, the dice
# after it (faces, where), a move buffer for the next roll and the one-step values of the
# candidates; the area scores of a sheet (greedy trials) and of the sheet greedy
# ``choose_move`` compares moves on (8 each); the value policy's turn state, the network's
# work space, a candidate's trial sheet and dice, and the best candidate's afterstate so far
# (sheet and turn); and what each die of the roll would give each opponent as a passive
# pick (``denial``)
(_LOOK_SHEET, _LOOK_FACES, _LOOK_WHERE, _LOOK_MOVES, _LOOK_RANK, _SCORES, _MOVE_SCORES,
 TURN, _NET_BUF, CAND_SHEET, CAND_WHERE, BEST_SHEET, BEST_TURN, GIFT) = block_starts(
    2 * SHEET_LEN + 2 * MAX_PENDING, SHEET_LEN, N_DICE, N_DICE, 3 * MAX_MOVES, MAX_MOVES,
    8, 8, TS_LEN, NET_BUF_LEN, SHEET_LEN, N_DICE, SHEET_LEN, TS_LEN)
INNER = GIFT + 2 + 3 * N_DICE  # denial.GIFT_LEN; from here, a work buffer of this
# layout without this last region, for the decisions the value policy's lookahead
# (``lookahead``) values on sampled rolls
WORK_LEN = INNER + INNER
LOOK_SLOT = 1 << 20  # random slots of the sampled re-rolls, far from the play loop's
MAX_CHOICE_BITS = 32  # free-mark choices are bit masks of at most this many bits


@njit(cache=True, _nrt=False)
def new_game_work(scratch):
    """Ready the work buffer ``scratch`` (int64[>= WORK_LEN]) for a game: the value
    network forgets the inputs it last valued (``value_net.forget_inputs``) and values
    each candidate from the last one's first layer, but in the inner part, where the
    look's sampled rolls are valued from scratch (measured: a two-player game of That's
    Pretty Clever, which looks, took 21.5 ms with the cache there and 19.3 without)."""
    forget_inputs(scratch[_NET_BUF:_NET_BUF + NET_BUF_LEN], np.int64(1))
    forget_inputs(scratch[INNER + _NET_BUF:INNER + _NET_BUF + NET_BUF_LEN], np.int64(0))


@njit(cache=True, _nrt=False)
def scores_only(pol):
    """Does the policy value a sheet by its score alone (random, greedy, the card)?"""
    return pol[KIND] < HEURISTIC or pol[KIND] == CARD


@njit(cache=True, _nrt=False)
def greedy_like(pol):
    """Does the policy choose as greedy where it has no rule of its own (greedy, the
    card)?"""
    return pol[KIND] == GREEDY or pol[KIND] == CARD


@njit(cache=True)
def sheet_value(sheet, pol, scratch):
    """How good a sheet is for a policy: greedy (and the card) counts the score; the
    heuristic adds its estimate of the points still to come (``value.heuristic_value``); the
    value policy values the afterstate of the sheet and the turn state in ``scratch``'s
    ``TURN`` (``value_net.afterstate_value``)."""
    if scores_only(pol):
        return float(total_score(sheet))
    if pol[KIND] == VALUE:
        return afterstate_value(sheet, scratch[TURN:TURN + TS_LEN], pol, np.int64(W_NET),
                                scratch[_NET_BUF:_NET_BUF + NET_BUF_LEN], pol[W_VALUE:W_NET])
    weights = pol[W_VALUE:]
    score, estimate = heuristic_value(sheet, weights)
    return score + estimate


@njit(cache=True, inline="always")
def _best_mark(sheet, code, pol, scratch):
    """``(choice, value after)`` of the best place for the free mark of ``code`` by
    ``sheet_value`` (ties: the lowest choice)."""
    options = bonus_choices(sheet, code)
    best, best_v = -1, -np.inf
    if scores_only(pol):  # the score after the mark, without a trial sheet
        scores = scratch[_SCORES:_SCORES + 5]
        area_scores(sheet, scores)
        for i in range(MAX_CHOICE_BITS):
            if (options >> i) & 1:
                target = choice_of_bit(sheet, code, i)
                v = float(mark_total(sheet, scores, code, target))
                if v > best_v:
                    best, best_v = target, v
        return best, best_v
    trial = scratch[_BONUS_TRIAL:_BONUS_TRIAL + SHEET_LEN]
    pending = scratch[_BONUS_PENDING:_BONUS_PENDING + MAX_PENDING]
    for i in range(MAX_CHOICE_BITS):
        if (options >> i) & 1:
            target = choice_of_bit(sheet, code, i)
            copy_sheet(trial, sheet)
            resolve_bonus(trial, code, target, pending, np.int64(0))
            v = sheet_value(trial, pol, scratch)
            if v > best_v:
                best, best_v = target, v
    return best, best_v


@njit(cache=True, inline="always")
def _pick_bonus_target(sheet, code, pol, stream, slot, scratch):
    """Where a free mark goes: the random policy picks uniformly, the others the place with
    the best ``sheet_value`` after it; a choice of which bonus to take (the black ?) goes
    to the bonus whose best mark is best."""
    options = bonus_choices(sheet, code)
    if options <= 0:
        return 0
    if pol[KIND] == RANDOM:
        count = 0
        for i in range(MAX_CHOICE_BITS):
            count += (options >> i) & 1
        k = np.int64(uniform(stream, slot) * count)
        for i in range(MAX_CHOICE_BITS):
            if (options >> i) & 1:
                if k == 0:
                    return choice_of_bit(sheet, code, i)
                k -= 1
    if chosen_bonus(sheet, code, choice_of_bit(sheet, code, np.int64(0))) == 0:
        return _best_mark(sheet, code, pol, scratch)[0]
    best, best_v = -1, -np.inf
    for i in range(MAX_CHOICE_BITS):
        if (options >> i) & 1:
            choice = choice_of_bit(sheet, code, i)
            v = _best_mark(sheet, chosen_bonus(sheet, code, choice), pol, scratch)[1]
            if v > best_v:
                best, best_v = choice, v
    return best


@njit(cache=True)
def apply_move(sheet, faces, die, area, cell, pol, stream, slot, scratch):
    """Enter the die and resolve every bonus it triggers, depth-first (the latest
    triggered first); free marks are placed by the policy. ``scratch``: int64[WORK_LEN]."""
    if area < 0:
        return  # a wasted pick: the die is moved, nothing is entered
    pending = scratch[MOVE_PENDING:MOVE_PENDING + MAX_PENDING]
    n = enter_die(sheet, faces, die, area, cell, pending, np.int64(0))
    resolve_pending(sheet, pending, n, pol, stream, slot + 32, scratch)


@njit(cache=True)
def resolve_pending(sheet, pending, n, pol, stream, slot, scratch):
    """Resolve ``n`` pending bonuses and all they trigger; the policy places free marks."""
    k = 0
    while n > 0:
        code = pop_pending(sheet, pending, n)
        n -= 1
        target = _pick_bonus_target(sheet, code, pol, stream, slot + k, scratch)
        n = resolve_bonus(sheet, code, target, pending, n)
        k += 1


@njit(cache=True)
def chain_marks(sheet, faces, where, picked, last_pick, pol, stream, slot, scratch):
    """Twice As Clever's platter chain (section 8.1), before the platter rule moves the
    dice: every die in play lower than the ``picked`` die (every die left, on the
    ``last_pick`` with ``chain_leftovers``) marks silver where ``chain_rows`` allows (the
    policy picks the row when there is a choice), with its bonuses resolved at once."""
    leftovers = last_pick and chain_leftovers(sheet)
    pending = scratch[MOVE_PENDING:MOVE_PENDING + MAX_PENDING]
    trial = scratch[_MOVE_TRIAL:_MOVE_TRIAL + SHEET_LEN]
    area = chain_area(sheet)
    for d in range(N_DICE):
        if where[d] != POOL or d == picked or (faces[d] >= faces[picked] and not leftovers):
            continue
        rows = chain_rows(sheet, faces, picked, d)
        if rows == 0:
            continue
        best, best_v = np.int64(-1), -np.inf
        scores = scratch[_SCORES:_SCORES + 5]
        if greedy_like(pol):
            area_scores(sheet, scores)
        for r in range(MAX_CHOICE_BITS):  # the rows are bits of ``rows``
            if (rows >> r) & 1:
                if pol[KIND] == RANDOM:
                    v = uniform(stream, slot + 8 * d + r)
                elif greedy_like(pol):  # the score after the mark, without a trial
                    v = float(enter_total(sheet, scores, faces, d, area, r))
                else:
                    copy_sheet(trial, sheet)
                    enter_die(trial, faces, d, area, r, pending, np.int64(0))
                    v = sheet_value(trial, pol, scratch)
                if v > best_v:
                    best, best_v = r, v
        n = enter_die(sheet, faces, d, area, best, pending, np.int64(0))
        resolve_pending(sheet, pending, n, pol, stream, slot + 64 + 8 * d, scratch)


@njit(cache=True, inline="always")
def return_die(sheet, faces, where, pol, stream, slot, scratch):
    """Which platter die to bring back into play with a return action (Twice As Clever,
    section 5), or -1: random returns a random one half the time; the others the die
    whose six faces are worth most right away (the best ``sheet_value`` of each face's
    marks, before the bonuses they fire, over the six faces), if any face is usable."""
    platter = 0
    count = 0
    for d in range(N_DICE):
        if where[d] == PLATTER:
            platter |= 1 << d
            count += 1
    if count == 0:
        return -1
    if pol[KIND] == RANDOM:
        if uniform(stream, slot) < 0.5:
            return -1
        k = np.int64(uniform(stream, slot + 1) * count)
        for d in range(N_DICE):
            if (platter >> d) & 1:
                if k == 0:
                    return d
                k -= 1
    trial_faces = scratch[_LOOK_FACES:_LOOK_FACES + N_DICE]
    moves = scratch[_LOOK_MOVES:_LOOK_MOVES + 3 * MAX_MOVES].reshape((MAX_MOVES, 3))
    trial = scratch[_MOVE_TRIAL:_MOVE_TRIAL + SHEET_LEN]
    pending = scratch[MOVE_PENDING:MOVE_PENDING + MAX_PENDING]
    now = sheet_value(sheet, pol, scratch)
    greedy = scores_only(pol)
    scores = scratch[_SCORES:_SCORES + 5]
    if greedy:  # scores after a mark come without trial sheets
        area_scores(sheet, scores)
    best, best_gain = -1, 0.0
    for d in range(N_DICE):
        if not (platter >> d) & 1:
            continue
        for k in range(N_DICE):
            trial_faces[k] = faces[k]
        gain = 0.0
        for face in range(1, 7):
            trial_faces[d] = face
            if greedy:
                top = max(now, float(best_enter_total(sheet, scores, trial_faces, d)))
                gain += (top - now) / 6.0
                continue
            n = legal_moves(sheet, trial_faces, 1 << d, moves, np.bool_(False))
            top = now
            for i in range(n):
                copy_sheet(trial, sheet)
                enter_die(trial, trial_faces, d, moves[i, 1], moves[i, 2], pending, np.int64(0))
                top = max(top, sheet_value(trial, pol, scratch))
            gain += (top - now) / 6.0
        if gain > best_gain:
            best, best_gain = d, gain
    return best


@njit(cache=True, _nrt=False)
def _platter_cost(faces, where, die):
    """How many dice in play a pick of ``die`` sends to the platter."""
    k = 0
    for d in range(N_DICE):
        if where[d] == POOL and faces[d] < faces[die]:
            k += 1
    return k


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
    greedy = greedy_like(pol)
    scores = scratch[_MOVE_SCORES:_MOVE_SCORES + 5]
    if greedy:  # a move that fires no bonus is scored without a trial sheet
        area_scores(sheet, scores)
    for i in range(n):
        die = moves[i, 0]
        quiet = NO_TOTAL
        if greedy and moves[i, 1] >= 0:
            quiet = quiet_total(sheet, scores, faces, die, moves[i, 1], moves[i, 2])
        if quiet > NO_TOTAL:
            value = float(quiet)
        else:
            copy_sheet(trial, sheet)
            apply_move(trial, faces, die, moves[i, 1], moves[i, 2], pol, stream, slot,
                       scratch)
            value = sheet_value(trial, pol, scratch)
        v = value - 1e-3 * faces[die]
        if where.shape[0] > 0 and not scores_only(pol):
            v -= pol[W_PLATTER] * _platter_cost(faces, where, die)
        if v > best_v:
            best, best_v, best_value = i, v, value
    return best, best_value


@njit(cache=True, inline="always")
def _wants_reroll(sheet, faces, usable, moves, pol, stream, slot, scratch, where):
    """``(spend a re-roll?, listed)``. Random: half the time; greedy: when no die of the
    roll is usable; heuristic: when the best pick gains less than ``W_REROLL_BELOW``.
    ``listed``: for greedy, how many legal moves of the roll (no wasted picks) it left in
    ``moves``, else -1."""
    if sheet[H_REROLL_GOT] - sheet[H_REROLL_USED] <= 0:
        return False, -1
    if pol[KIND] == RANDOM:
        return uniform(stream, slot) < 0.5, -1
    n = legal_moves(sheet, faces, usable, moves, np.bool_(False))
    if pol[KIND] == GREEDY:
        return n == 0, n
    if n == 0:
        return True, -1
    _, after = choose_move(sheet, faces, moves, n, pol, stream, slot, scratch, where)
    return after - sheet_value(sheet, pol, scratch) < pol[W_REROLL_BELOW], -1


@njit(cache=True, inline="always")
def _next_roll_value(sheet, faces, where, picks_left, pol, stream, scratch):
    """The heuristic's mean value of the best next pick over ``W_SAMPLES`` sampled rolls of
    the dice in play (``sheet``, ``faces``, ``where``: after a candidate pick, in the work
    buffer; ``faces`` is overwritten). The samples depend only on ``picks_left``, so every
    candidate pick meets the same rolls (common random numbers)."""
    pool = _pool_mask(where)
    if pool == 0:
        return sheet_value(sheet, pol, scratch)  # the turn has no more picks
    moves = scratch[_LOOK_MOVES:_LOOK_MOVES + 3 * MAX_MOVES].reshape((MAX_MOVES, 3))
    samples = np.int64(pol[W_SAMPLES])
    after_leaf = picks_left > 2  # the sampled pick is not the turn's last one
    total = 0.0
    for k in range(samples):
        for d in range(N_DICE):
            if where[d] == POOL:
                u = uniform(stream, LOOK_SLOT + picks_left * 4096 + k * N_DICE + d)
                faces[d] = np.int64(u * 6.0) + 1
        n = legal_moves(sheet, faces, pool, moves, np.bool_(False))
        if n == 0:
            total += sheet_value(sheet, pol, scratch)  # a forfeited roll
            continue
        i, value = choose_move(sheet, faces, moves, n, pol, stream, np.int64(LOOK_SLOT), scratch,
                               where if after_leaf else faces[:0])
        if after_leaf:
            value -= pol[W_PLATTER] * _platter_cost(faces, where, moves[i, 0])
        total += value
    return total / samples


@njit(cache=True, inline="always")
def platter_gift(sheets, me, faces, where, die, scratch):
    """The mean over the opponents of ``me`` (rows of ``sheets`` int64[n, SHEET_LEN]) of the
    best immediate score gain (the die's own mark, bonuses not counted) from the platter
    that a last pick of ``die`` leaves: the platter and every other die still in play."""
    platter = np.int64(0)
    for d in range(N_DICE):
        if d != die and (where[d] == PLATTER or where[d] == POOL):
            platter |= 1 << d
    moves = scratch[_LOOK_MOVES:_LOOK_MOVES + 3 * MAX_MOVES].reshape((MAX_MOVES, 3))
    trial = scratch[_LOOK_SHEET:_LOOK_SHEET + SHEET_LEN]
    pending = scratch[_BONUS_PENDING:_BONUS_PENDING + MAX_PENDING]
    total = 0.0
    for p in range(sheets.shape[0]):
        if p == me:
            continue
        before = total_score(sheets[p])
        best = 0
        for j in range(legal_moves(sheets[p], faces, platter, moves, np.bool_(False))):
            copy_sheet(trial, sheets[p])
            enter_die(trial, faces, moves[j, 0], moves[j, 1], moves[j, 2], pending, np.int64(0))
            best = max(best, total_score(trial) - before)
        total += best
    return total / max(sheets.shape[0] - 1, 1)


@njit(cache=True, inline="always")
def _last_pick(sheets, me, faces, where, moves, n, pol, stream, slot, scratch):
    """The heuristic's last pick in a multiplayer turn: the one-step value less
    ``W_GIFT`` times what the platter it leaves gives the opponents."""
    trial = scratch[_MOVE_TRIAL:_MOVE_TRIAL + SHEET_LEN]
    best, best_v, best_value = -1, -np.inf, -np.inf
    for i in range(n):
        copy_sheet(trial, sheets[me])
        die = moves[i, 0]
        apply_move(trial, faces, die, moves[i, 1], moves[i, 2], pol, stream, slot, scratch)
        value = sheet_value(trial, pol, scratch)
        v = value - 1e-3 * faces[die] - pol[W_GIFT] * platter_gift(sheets, me, faces, where,
                                                                    die, scratch)
        if v > best_v:
            best, best_v, best_value = i, v, value
    return best, best_value


@njit(cache=True, inline="always")
def choose_pick(sheets, me, faces, where, picks_left, moves, n, pol, stream, slot, scratch):
    """``(index, one-step value after)`` of player ``me``'s active pick (``sheets``:
    int64[players, SHEET_LEN]) with ``picks_left`` picks left in the turn (this one
    included). One-step policies use ``choose_move``, counting dice sent to the platter only
    while a later pick could still use them. The heuristic with ``W_SAMPLES`` > 0 compares
    its ``W_BRANCH`` best one-step moves by the mean value of the best next pick over
    sampled rolls of the dice each leaves in play; with opponents, its last pick also
    weighs what the platter gives them (``W_GIFT``)."""
    sheet = sheets[me]
    where_cost = where if picks_left > 1 else faces[:0]  # no platter cost
    if pol[KIND] != HEURISTIC:
        return choose_move(sheet, faces, moves, n, pol, stream, slot, scratch, where_cost)
    if picks_left <= 1 and pol[W_GIFT] != 0 and sheets.shape[0] > 1 and n > 1:
        return _last_pick(sheets, me, faces, where, moves, n, pol, stream, slot, scratch)
    if np.int64(pol[W_SAMPLES]) <= 0 or picks_left <= 1 or n <= 1:
        return choose_move(sheet, faces, moves, n, pol, stream, slot, scratch, where_cost)
    trial = scratch[_MOVE_TRIAL:_MOVE_TRIAL + SHEET_LEN]
    ranked = scratch[_LOOK_RANK:_LOOK_RANK + MAX_MOVES].view(np.float64)
    for i in range(n):  # one-step values (with the platter estimate) to shortlist moves
        copy_sheet(trial, sheet)
        die = moves[i, 0]
        apply_move(trial, faces, die, moves[i, 1], moves[i, 2], pol, stream, slot, scratch)
        ranked[i] = sheet_value(trial, pol, scratch) \
            - 1e-3 * faces[die] \
            - pol[W_PLATTER] * _platter_cost(faces, where, die)
    look = scratch[_LOOK_SHEET:_LOOK_SHEET + SHEET_LEN]
    look_faces = scratch[_LOOK_FACES:_LOOK_FACES + N_DICE]
    look_where = scratch[_LOOK_WHERE:_LOOK_WHERE + N_DICE]
    best, best_q, best_value = -1, -np.inf, -np.inf
    for _ in range(min(np.int64(pol[W_BRANCH]), n)):
        i = np.argmax(ranked[:n])
        ranked[i] = -np.inf
        copy_sheet(look, sheet)
        die = moves[i, 0]
        apply_move(look, faces, die, moves[i, 1], moves[i, 2], pol, stream, slot, scratch)
        value = sheet_value(look, pol, scratch)
        for k in range(N_DICE):
            look_faces[k], look_where[k] = faces[k], where[k]
        to_field(look_faces, look_where, die)
        q = _next_roll_value(look, look_faces, look_where, picks_left, pol, stream,
                             scratch) - 1e-3 * faces[die]
        if q > best_q:
            best, best_q, best_value = i, q, value
    return best, best_value
