"""Clever play loops, one implementation for both sheets (That's Pretty Clever rules page
sections 3-6 and 10; Twice As Clever the same): round bonuses, active
turns with three rolls and the silver platter, passive picks, the solo passive turn,
re-roll and +1 actions, whole games, the per-block accumulators and the advice rollouts.
Turn mechanics live in ``moves``, decisions in ``policies``; both are re-exported here.
"""

import numpy as np

from kernels.accumulate import (COMEBACK_LEN, CONTEST_LEN, STANDING_ROUNDS, add_comebacks,
                                add_contest, add_products, put_seat_wins, seat_lineup,
                                used_width)
from kernels.clever.denial import no_gift, opponent_gains
from kernels.clever_base.game_rules import (RULE_FINAL_PLUS_ALL, RULE_FORFEIT_TO_PLATTER,
                                            RULE_PASSIVE_DECLINE, RULE_PLUS_AFTER_DECLINE,
                                            RULE_RETURN_ON_REROLL, RULE_SKIP_ROLL,
                                            RULE_SOLO_FALLBACK, RULE_SOLO_TIES_BY_COLOUR,
                                            RULE_TIES_SHARED, RULE_WASTED_PICK)
from kernels.clever.moves import (  # noqa: F401  (re-exported for callers)
    FIELD,
    MAX_MOVES,
    N_DICE,
    N_ORDERS,
    PLATTER,
    POOL,
    _pool_mask,
    _roll,
    legal_moves,
    order_places,
    passive_candidates,
    rolls_on,
    solo_platter,
    take_die,
    to_field,
    use_plus_one,
    use_reroll,
)
from kernels.clever.card import (C_PASSIVE, C_RETURN_FROM, card_passive, card_pick, card_plus,
                                 card_rerolls)
from kernels.clever.policies import (  # noqa: F401  (re-exported for callers)
    BEST_SHEET,
    CARD,
    GREEDY,
    HEURISTIC,
    KIND,
    MOVE_PENDING,
    N_POL,
    POLICY_NAMES,
    RANDOM,
    TURN,
    VALUE,
    W_BRANCH,
    W_GIFT,
    W_LOOK_MARGIN,
    W_LOOK_PLAYERS,
    W_NET,
    W_PLATTER,
    W_PLUS_ABOVE,
    W_REROLL_BELOW,
    W_SAMPLES,
    W_VALUE,
    WORK_LEN,
    new_game_work,
    resolve_pending,
    _platter_cost,
    _wants_reroll,
    apply_move,
    chain_marks,
    choose_move,
    choose_pick,
    return_die,
    sheet_value,
)
from kernels.clever_base.seats import seat_sheets
from kernels.clever_base.sheet import (FLAG_PLUS_PER_ROUND, H_BONUSES,
                                       H_EVENT, H_FLAGS, H_FOXES, H_LEAD, H_PLAYERS, H_PLUS_GOT,
                                       H_PLUS_TAKEN, H_PLUS_USED, H_REROLL_GOT, H_REROLL_USED,
                                       H_RETURN_GOT, H_RETURN_USED, H_ROUND, H_SEAT,
                                       MAX_BONUS_KINDS, SHEET_LEN)
from kernels.clever.sheets import (MAX_CELLS, MAX_PENDING, area_scores, chain_area, copy_sheet,
                                   marked_cells, start_game_sheet, total_score)
from kernels.clever_base.turn import (PH_ACTIVE_PLUS, PH_OVER, PH_PASSIVE, PH_PASSIVE_PLUS, PH_ROLL,
                                      PH_ROUND_END, TS_LEN, set_turn)
from kernels.clever.lookahead import choose_looking
from kernels.clever.valued import (choice_turn, choose_passive, choose_plus, choose_return, finish,
                                   reroll_instead, start_round)
from kernels.jit import njit
from kernels.rng import turn_stream, uniform
from kernels.thats_pretty_clever.layout import ROUND4_OPTIONS

N_AREAS = 5
N_BONUS_KINDS = MAX_BONUS_KINDS
# a player's game log (int64[LOG_LEN]): the decisions of the active turns, added up, and
# the bonuses received and the cells marked by the end of each round
LOG_FIRST = 0  # + 6 * area + face - 1: the first pick of a turn
LOG_PICKS = LOG_FIRST + 6 * N_AREAS  # + pick (0-2): picks made
LOG_PLATTER = LOG_PICKS + 3  # + pick: dice those picks sent to the platter
LOG_REROLLS = LOG_PLATTER + 3  # + pick: re-rolls spent on the roll before that pick
LOG_PLUS = LOG_REROLLS + 3  # +1 actions spent at the end of active turns
LOG_RETURNS = LOG_PLUS + 1  # + pick: returns spent before that pick's roll
LOG_PLUS_PASSIVE = LOG_RETURNS + 3  # +1 actions spent after passive picks
LOG_DECLINED = LOG_PLUS_PASSIVE + 1  # passive picks declined while one was possible
LOG_DICE = LOG_DECLINED + 1  # + area: dice entered there (active and passive picks, +1s)
LOG_ROUNDS = 12  # rounds logged (the most a what-if allows)
LOG_BONUS_ROUNDS = LOG_DICE + N_AREAS  # + N_BONUS_KINDS * round + kind: received by round's end
LOG_CELLS = LOG_BONUS_ROUNDS + LOG_ROUNDS * N_BONUS_KINDS  # + MAX_CELLS * round + cell:
# 1 when the sheet's cell (``sheets.marked_cells``) is marked by the round's end
LOG_STANDINGS = LOG_CELLS + LOG_ROUNDS * MAX_CELLS  # + round: the total score at its end
GAIN_BINS = 8  # points a pick scores at once: 0 (or less), 1, 2, 3, 4-5, 6-7, 8-10, 11+
LOG_REROLL_GAIN = LOG_STANDINGS + STANDING_ROUNDS  # + 2 * (GAIN_BINS * pick + gain bin)
# + re-rolled (0/1): the value policy's choices with a re-roll in hand, by the points its
# best pick of the roll would score at once
LOG_FIRST_ROUND = LOG_REROLL_GAIN + 2 * GAIN_BINS * 3  # + N_AREAS * round + area: first picks
LOG_ACTION_ROUNDS = LOG_FIRST_ROUND + N_AREAS * LOG_ROUNDS  # + 3 * round + ACTION_*: spent
ACTION_REROLL, ACTION_PLUS, ACTION_RETURN = 0, 1, 2
LOG_REROLL_ROUND = LOG_ACTION_ROUNDS + 3 * LOG_ROUNDS  # + 2 * (GAIN_BINS * round + gain
# bin) + re-rolled: the same choices by round
LOG_PASSIVE_PICKS = LOG_REROLL_ROUND + 2 * GAIN_BINS * LOG_ROUNDS  # passive picks taken
LOG_LEN = LOG_PASSIVE_PICKS + 1
# game accumulator columns per (lineup slot, seat), then the score histogram
COL_GAMES, COL_SCORE_SUM, COL_SCORE_SQ, COL_WIN_UNITS, COL_FOXES = range(5)
COL_FOXES_SQ = 5
COL_AREAS = 6  # + area: area score sums
COL_AREAS_SQ = COL_AREAS + N_AREAS  # + area: sums of squares
COL_BONUSES = COL_AREAS_SQ + N_AREAS  # + bonus kind: bonuses received
COL_BONUSES_SQ = COL_BONUSES + N_BONUS_KINDS
COL_FOX_POINTS = COL_BONUSES_SQ + N_BONUS_KINDS  # points the foxes scored
COL_LOWEST = COL_FOX_POINTS + 1  # the lowest area's score
COL_LOG = COL_LOWEST + 1  # + LOG_*: the decision log, summed
COL_COMEBACK = COL_LOG + LOG_LEN  # ``accumulate.add_comebacks``, 10-point gaps (2+ players)
COL_CONTEST = COL_COMEBACK + COMEBACK_LEN  # ``accumulate.add_contest`` (``log_decisions``)
COL_HIST = COL_CONTEST + CONTEST_LEN
HIST_BINS = 400
WIN_UNITS = 12
COMEBACK_STEP = 10  # points per deficit bin of the comeback record


@njit(cache=True)
def active_turn(sheets, me, faces, where, pol, stream, moves, scratch, rules, log,
                first_pick):
    """Player ``me``'s active turn (section 4; ``sheets``: int64[players, SHEET_LEN]): up to
    three rolls and picks, lower dice to the platter, re-rolls after a roll, then +1
    actions. A pick that leaves no dice in play ends the picks, unless the sheet's
    ``FLAG_RETURN_EMPTY_POOL`` lets a return (Twice As Clever) bring a die back first.
    Leaves ``where`` for the passive players. ``rules``: int64[N_GAME_RULES]; the
    turn's decisions are added to ``log`` (int64[LOG_LEN]). With ``first_pick`` > 0 the
    turn continues from that pick with ``where`` as given (advice rollouts; plus
    ``PROCEED``: its roll comes without a return first)."""
    sheet = sheets[me]
    proceed = first_pick >= PROCEED
    first_pick &= PROCEED - 1
    if first_pick == 0:
        where[:] = POOL
    slot = 16 * first_pick
    for pick in range(first_pick, 3):
        if not rolls_on(sheet, where):
            break  # no dice left in play: fewer than three rolls (section 5)
        if not (proceed and pick == first_pick):
            slot = _use_returns(sheet, faces, where, pol, stream, slot, scratch, log, pick)
        if _pool_mask(where) == 0:
            break
        slot = _roll(faces, where, stream, slot)
        if pol[KIND] == VALUE:
            i, slot = _valued_roll(sheets, me, faces, where, pick, moves, pol, stream,
                                   slot, scratch, rules, log)
        else:
            i, slot = _policy_roll(sheets, me, faces, where, pick, moves, pol, stream, slot,
                                   scratch, rules, log)
        slot += 1
        if i < 0:  # a forfeited roll: the dice stay in play, or go to the platter
            if rules[RULE_FORFEIT_TO_PLATTER]:
                for d in range(N_DICE):
                    if where[d] == POOL:
                        where[d] = PLATTER
            continue
        die = moves[i, 0]
        if pick == 0 and moves[i, 1] >= 0:
            log[LOG_FIRST + 6 * moves[i, 1] + faces[die] - 1] += 1
            log[LOG_FIRST_ROUND + N_AREAS * _log_round(sheet) + moves[i, 1]] += 1
        log[LOG_PICKS + pick] += 1
        log[LOG_DICE + moves[i, 1]] += moves[i, 1] >= 0
        log[LOG_PLATTER + pick] += _platter_cost(faces, where, die)
        if pol[KIND] == VALUE:  # the chosen afterstate,
            # chain marks included
            copy_sheet(sheet, scratch[BEST_SHEET:BEST_SHEET + SHEET_LEN])
        else:
            apply_move(sheet, faces, die, moves[i, 1], moves[i, 2], pol, stream, slot,
                       scratch)
            if moves[i, 1] == chain_area(sheet):
                chain_marks(sheet, faces, where, die, pick == 2, pol, stream, slot + 4096,
                            scratch)
        slot += 64
        to_field(faces, where, die)
    for d in range(N_DICE):
        if where[d] == POOL:
            where[d] = PLATTER
    spent = plus_ones(sheet, faces, pol, stream, slot, moves, scratch, np.bool_(False),
                      np.bool_(False), log)
    log[LOG_PLUS] += spent


@njit(cache=True, inline="always")
def _policy_roll(sheets, me, faces, where, pick, moves, pol, stream, slot, scratch, rules,
                 log):
    """After the roll of pick ``pick``: the re-rolls and the pick of the policies that
    decide by their own rules (random, greedy, heuristic, the card; where a usable roll
    may go unused, only random ever leaves one). Returns the chosen move's index (-1: the
    roll is forfeited) and the next random slot."""
    sheet = sheets[me]
    usable = _pool_mask(where)
    while True:
        if pol[KIND] == CARD:
            again, listed = card_rerolls(sheets, me, faces, where, pick, usable, moves, pol,
                                         stream, slot, scratch), -1
        else:
            again, listed = _wants_reroll(sheet, faces, usable, moves, pol, stream, slot,
                                          scratch, where)
        if not again:
            break
        sheet[H_REROLL_USED] += 1
        log[LOG_REROLLS + pick] += 1
        log[LOG_ACTION_ROUNDS + 3 * _log_round(sheet) + ACTION_REROLL] += 1
        if rules[RULE_RETURN_ON_REROLL]:  # the returned dice join the re-roll
            slot = _use_returns(sheet, faces, where, pol, stream, slot, scratch, log, pick)
            usable = _pool_mask(where)
        slot = _roll(faces, where, stream, slot + 1)
    # only the random policy ever uses a wasted pick (it never raises the score)
    waste = rules[RULE_WASTED_PICK] == 1 and pol[KIND] == RANDOM
    if listed >= 0 and not waste:  # greedy's re-roll check listed them already
        n = listed
    else:
        n = legal_moves(sheet, faces, usable, moves, waste)
    if pol[KIND] == CARD:
        i, _ = card_pick(sheets, me, faces, where, pick, moves, n, pol, stream, slot, scratch)
    else:
        i, _ = choose_pick(sheets, me, faces, where, 3 - pick, moves, n, pol, stream, slot,
                           scratch)
    if rules[RULE_SKIP_ROLL] and pol[KIND] == RANDOM and n > 0 and \
            uniform(stream, slot + 3000) * (n + 1) >= n:
        i = -1  # leaving the roll unused is one more legal choice for the random policy
    return i, slot


@njit(cache=True, inline="always")
def _valued_roll(sheets, me, faces, where, pick, moves, pol, stream, slot, scratch, rules,
                 log):
    """After the roll of pick ``pick``, player ``me``'s value policy (``valued``): its best
    pick (or the forfeit) against a re-roll, until it keeps a roll; on the last roll each
    is weighed with what it leaves the opponents (``denial``). Returns the pick's index
    (-1: the roll is forfeited; its afterstate is the work buffer's ``BEST_SHEET``) and the
    next random slot."""
    sheet = sheets[me]
    while True:
        if pick >= 2:  # the last roll weighs what its platter gives (``denial``)
            opponent_gains(sheets, me, faces, where, pol, stream, scratch,
                           rules[RULE_PASSIVE_DECLINE] == 1)
        else:
            no_gift(scratch)
        n = legal_moves(sheet, faces, _pool_mask(where), moves, np.bool_(False))
        i, keep = choose_looking(sheet, faces, where, pick, moves, n, pol, stream, slot,
                                 scratch, rules)
        in_hand = sheet[H_REROLL_GOT] - sheet[H_REROLL_USED] > 0
        gain = np.int64(0)
        if in_hand and i >= 0:  # the best pick's afterstate, before a re-roll replaces it
            gain = total_score(scratch[BEST_SHEET:BEST_SHEET + SHEET_LEN]) - total_score(sheet)
        again, _ = reroll_instead(sheet, where, pick, keep, pol, scratch)
        finish(scratch, pol)
        if in_hand:
            log[LOG_REROLL_GAIN + 2 * (GAIN_BINS * pick + gain_bin(gain)) + again] += 1
            log[LOG_REROLL_ROUND + 2 * (GAIN_BINS * _log_round(sheet) + gain_bin(gain))
                + again] += 1
        if not again:
            return i, slot
        sheet[H_REROLL_USED] += 1
        log[LOG_REROLLS + pick] += 1
        log[LOG_ACTION_ROUNDS + 3 * _log_round(sheet) + ACTION_REROLL] += 1
        if rules[RULE_RETURN_ON_REROLL]:  # the returned dice join the re-roll
            slot = _use_returns(sheet, faces, where, pol, stream, slot, scratch, log, pick)
        slot = _roll(faces, where, stream, slot + 1)


@njit(cache=True, _nrt=False)
def gain_bin(points):
    """The ``GAIN_BINS`` bin of a pick that scores ``points`` at once."""
    if points <= 3:
        return max(points, 0)
    return 4 if points <= 5 else 5 if points <= 7 else 6 if points <= 10 else 7


@njit(cache=True, _nrt=False)
def _log_round(sheet):
    """The round being played, as the log's round index (the last logged one beyond)."""
    return min(sheet[H_ROUND], LOG_ROUNDS - 1)


@njit(cache=True)
def work_buffers():
    """The work arrays a loop of solo games needs: ``(sheet, scratch, moves, faces, where,
    log)`` (int64[SHEET_LEN], [WORK_LEN], [MAX_MOVES, 3], [N_DICE], [N_DICE], [LOG_LEN])."""
    return (np.empty(SHEET_LEN, np.int64), np.empty(WORK_LEN, np.int64),
            np.zeros((MAX_MOVES, 3), np.int64), np.zeros(N_DICE, np.int64),
            np.zeros(N_DICE, np.int64), np.zeros(LOG_LEN, np.int64))


@njit(cache=True, _nrt=False)
def _count(where, place):
    """How many dice are at ``place``."""
    k = 0
    for d in range(N_DICE):
        k += where[d] == place
    return k


@njit(cache=True)
def _use_returns(sheet, faces, where, pol, stream, slot, scratch, log, pick):
    """Twice As Clever's return action (section 5) before a roll of pick ``pick``: platter
    dice the policy brings back into the pool, while returns are in hand (none before the
    first roll: the platter is empty). Returns the next random slot."""
    while sheet[H_RETURN_GOT] - sheet[H_RETURN_USED] > 0:
        if pol[KIND] == CARD and sheet[H_ROUND] + 1 < pol[C_RETURN_FROM]:
            break  # the card keeps its returns until that round
        if pol[KIND] == VALUE:
            back = choose_return(sheet, where, pick, pol, scratch) if \
                _count(where, np.int64(PLATTER)) > 0 else -1
        else:
            back = return_die(sheet, faces, where, pol, stream, slot + 8, scratch)
        if back < 0:
            break
        where[back] = POOL  # rolled with the next roll
        sheet[H_RETURN_USED] += 1
        log[LOG_RETURNS + pick] += 1
        log[LOG_ACTION_ROUNDS + 3 * _log_round(sheet) + ACTION_RETURN] += 1
        slot += 2
    return slot


@njit(cache=True)
def plus_ones(sheet, faces, pol, stream, slot, moves, scratch, last_turn, passive, log):
    """+1 actions at the end of a turn (section 10; ``passive``: after a passive pick): any
    die at its face, each die at most once per turn (once per round with
    ``FLAG_PLUS_PER_ROUND``; the dice already taken are ``H_PLUS_TAKEN``'s bits). Greedy
    uses one when the move raises the score (any move on the last turn); random uses each
    with chance one half; the value policy each one whose afterstate is worth more than
    stopping. The dice are added to ``log``'s areas; returns how many were spent."""
    per_round = sheet[H_FLAGS] & FLAG_PLUS_PER_ROUND
    taken = sheet[H_PLUS_TAKEN]  # once per turn: 0, unless the window is resumed (advice)
    spent = 0
    while sheet[H_PLUS_GOT] - sheet[H_PLUS_USED] > 0:
        n = legal_moves(sheet, faces, ((1 << N_DICE) - 1) & ~taken, moves, np.bool_(False))
        if n == 0:
            break
        if pol[KIND] == VALUE:
            stop = PH_OVER if last_turn else (PH_ROUND_END if passive else PH_PASSIVE)
            i = choose_plus(sheet, faces, moves, n, taken,
                            PH_PASSIVE_PLUS if passive else PH_ACTIVE_PLUS, stop, pol,
                            stream, slot + 2, scratch)
            if i < 0:
                break
            copy_sheet(sheet, scratch[BEST_SHEET:BEST_SHEET + SHEET_LEN])  # +1 spent
            log[LOG_DICE + moves[i, 1]] += 1
            spent += 1
            taken |= 1 << moves[i, 0]
            slot += 70
            continue
        if pol[KIND] == RANDOM and uniform(stream, slot) < 0.5:
            break
        if pol[KIND] == CARD:
            i = card_plus(sheet, faces, moves, n, pol, stream, slot + 1, scratch, last_turn)
            if i < 0:
                break
        else:
            i, after = choose_move(sheet, faces, moves, n, pol, stream, slot + 1, scratch,
                                   faces[:0])
            threshold = pol[W_PLUS_ABOVE] if pol[KIND] >= HEURISTIC else 0.0
            if pol[KIND] != RANDOM and not last_turn and \
                    after - sheet_value(sheet, pol, scratch) <= threshold:
                break
        sheet[H_PLUS_USED] += 1
        log[LOG_DICE + moves[i, 1]] += 1
        spent += 1
        taken |= 1 << moves[i, 0]
        apply_move(sheet, faces, moves[i, 0], moves[i, 1], moves[i, 2], pol, stream,
                   slot + 2, scratch)
        slot += 70
    sheet[H_PLUS_TAKEN] = taken if per_round else 0
    log[LOG_ACTION_ROUNDS + 3 * _log_round(sheet) + ACTION_PLUS] += spent
    return spent


@njit(cache=True)
def passive_pick(sheet, faces, where, pol, stream, slot, moves, scratch, last_turn, rules,
                 log):
    """A passive player's pick (section 5): one platter die; only if none is usable, one
    of the active player's field dice (which may always be declined). Where the rules let
    a passive player decline, the random policy counts declining as one more choice, the
    value policy values it and the card declines below its ``C_DECLINE`` (the others always
    pick). Then +1 actions (after a decline only with ``RULE_PLUS_AFTER_DECLINE``);
    declines and +1s are added to ``log``."""
    n = passive_candidates(sheet, faces, where, moves)
    # a field die (none of the platter's usable) is only ever a "may" (section 5)
    may_decline = rules[RULE_PASSIVE_DECLINE] == 1 or (n > 0 and where[moves[0, 0]] != PLATTER)
    if pol[KIND] == VALUE:
        i = choose_passive(sheet, faces, where, moves, n, may_decline, pol, stream, slot + 1,
                           scratch)
        if i >= 0:
            copy_sheet(sheet, scratch[BEST_SHEET:BEST_SHEET + SHEET_LEN])
    else:
        if pol[KIND] == CARD and pol[C_PASSIVE] > 0:
            i = card_passive(sheet, faces, moves, n, pol, stream, slot, scratch, may_decline)
        else:
            i, _ = choose_move(sheet, faces, moves, n, pol, stream, slot, scratch, faces[:0])
        if may_decline and pol[KIND] == RANDOM and uniform(stream, slot + 99) * (n + 1) >= n:
            i = -1  # declining is one more legal choice for the random policy
        if i >= 0:
            apply_move(sheet, faces, moves[i, 0], moves[i, 1], moves[i, 2], pol, stream,
                       slot + 1, scratch)
    if i < 0 and n > 0:
        log[LOG_DECLINED] += 1
    log[LOG_PASSIVE_PICKS] += i >= 0
    if i >= 0 and moves[i, 1] >= 0:
        log[LOG_DICE + moves[i, 1]] += 1
    if i >= 0 or rules[RULE_PLUS_AFTER_DECLINE]:
        spent = plus_ones(sheet, faces, pol, stream, slot + 100, moves, scratch, last_turn,
                          np.bool_(True), log)
        log[LOG_PLUS_PASSIVE] += spent


@njit(cache=True)
def solo_passive(sheet, faces, where, pol, stream, moves, scratch, last_turn, rules, log):
    """The solo passive turn (section 6): roll all six, the three lowest go to the platter
    (ties in an order drawn uniformly, or in colour order white to purple with
    ``RULE_SOLO_TIES_BY_COLOUR``), use one of them (with ``RULE_SOLO_FALLBACK``, one of the
    other three when none of them is usable), then +1 actions."""
    where[:] = POOL
    _roll(faces, where, stream, np.int64(0))
    order = 0 if rules[RULE_SOLO_TIES_BY_COLOUR] else np.int64(uniform(stream,
                                                                       np.int64(7)) * N_ORDERS)
    solo_platter(faces, where, min(order, N_ORDERS - 1), rules[RULE_SOLO_FALLBACK] == 1)
    passive_pick(sheet, faces, where, pol, stream, np.int64(8), moves, scratch, last_turn, rules,
                 log)


@njit(cache=True)
def round_bonus(sheet, rnd, game_rules, pol, stream, scratch):
    """Rounds 1-4 (section 3): re-roll, +1, re-roll, then a choice of black X or black 6
    (random: any option; greedy: the one with the best score after it)."""
    sheet[H_PLUS_TAKEN] = 0  # a new round: +1 may take every die again
    if pol[KIND] == VALUE:
        start_round(scratch)  # a choice of bonus is valued before the round's first roll
    code = game_rules[rnd] if rnd < 6 else 0
    if code == 0:
        return
    if code < 0:
        k = np.int64(uniform(stream, np.int64(1)) * ROUND4_OPTIONS.shape[0])
        code = ROUND4_OPTIONS[k]
        if pol[KIND] != RANDOM:
            trial = np.empty(SHEET_LEN, np.int64)
            best_v = -np.inf
            for option in ROUND4_OPTIONS:
                copy_sheet(trial, sheet)
                apply_bonus_chain(trial, option, pol, stream, np.int64(2), scratch)
                v = sheet_value(trial, pol, scratch)
                if v > best_v:
                    code, best_v = option, v
    apply_bonus_chain(sheet, code, pol, stream, np.int64(3), scratch)


@njit(cache=True, inline="always")
def apply_bonus_chain(sheet, code, pol, stream, slot, scratch):
    """Resolve one bonus and everything it triggers, depth-first."""
    pending = scratch[MOVE_PENDING:MOVE_PENDING + MAX_PENDING]
    pending[0] = code
    resolve_pending(sheet, pending, np.int64(1), pol, stream, slot, scratch)


@njit(cache=True)
def finish_solo(key, game, pol, rnd, rounds, game_rules, sheet, faces, where, first_pick,
                scratch, moves, log):
    """Play a solo game on from round ``rnd`` (0-based): the rest of the active turn from
    ``first_pick`` (3 = the picks are over, the +1 window is open; 4 = the active turn is
    over; 5 = the passive turn is over too; a pick plus ``PROCEED``: that pick's roll comes
    without a return first), the passive turn, then the remaining rounds. Returns the
    final score. The sheet's seat fields say solo (``kernels.clever_base.seats``)."""
    return np.int64(finish_solo_until(key, game, pol, rnd, rounds, game_rules, sheet, faces,
                                      where, first_pick, scratch, moves, log, rounds - 1))


@njit(cache=True)
def finish_solo_until(key, game, pol, rnd, rounds, game_rules, sheet, faces, where,
                      first_pick, scratch, moves, log, last_round):
    """``finish_solo`` up to the end of round ``last_round`` (0-based): there, before the
    last round, the policy's value of the round's end (``sheet_value``: the value policy's
    estimate of the final score; the heuristic's score and estimate; greedy's score)
    stands for the final score. Rounds after it play the same dice as in a whole rollout."""
    sheet[H_PLAYERS], sheet[H_SEAT], sheet[H_LEAD] = 1, 0, 0
    for r in range(rnd, min(last_round, rounds - 1) + 1):
        last = r == rounds - 1
        base = r * 4
        if r > rnd:
            sheet[H_ROUND] = r
            sheet[H_EVENT] = -1
            round_bonus(sheet, r, game_rules, pol, turn_stream(key, game, base), scratch)
        start = first_pick if r == rnd else 0
        # at 3 no pick is left: the pool goes to the platter, then +1s
        if start & (PROCEED - 1) <= 3:
            sheet[H_EVENT] = 0
            active_turn(sheet.reshape((1, SHEET_LEN)), np.int64(0), faces, where, pol,
                        turn_stream(key, game, base + 1), moves, scratch, game_rules, log,
                        start)
        if start & (PROCEED - 1) <= 4:
            sheet[H_EVENT] = 1
            solo_passive(sheet, faces, where, pol, turn_stream(key, game, base + 2), moves,
                         scratch, last, game_rules, log)
    if last_round >= rounds - 1:
        return float(total_score(sheet))
    set_turn(scratch[TURN:TURN + TS_LEN], np.int64(PH_ROUND_END), np.int64(0), np.int64(0),
             np.int64(0), np.int64(0))
    return sheet_value(sheet, pol, scratch)


# advice (``advise_rollouts``): the phases a position can be in, and the choices beside moves
ADVISE_PASSIVE = 3  # the passive pick (phases 0-2: the active turn's picks)
ADVISE_PLUS = 4  # the +1 window after the active turn's picks
ADVISE_PASSIVE_PLUS = 5  # the +1 window after the passive pick
CHOICE_REROLL = -2  # a move row's area: re-roll the dice in play (active picks)
CHOICE_STOP = -3  # ... use no more +1 now (+1 windows)
CHOICE_DECLINE = -4  # ... decline the passive pick
CHOICE_RETURN = -5  # ... return the row's die from the platter (before an active roll)
CHOICE_PROCEED = -6  # ... roll without a return first
CHOICE_SKIP = -7  # ... leave the roll unused (Twice As Clever's ``RULE_SKIP_ROLL``)
PROCEED = 8  # added to a ``first_pick``: its roll comes without a return first


@njit(cache=True)
def advice_choice(s, f, w, die, area, target, pol, stream, phase, last, scratch, buffer,
                  log, game_rules):
    """Make one advice choice on the copies ``s``, ``f``, ``w`` of the position: a move
    (an active or passive pick, or a +1 in a +1 window) or a ``CHOICE_*``. Returns the
    ``first_pick`` that ``finish_solo`` plays on from."""
    if area == CHOICE_SKIP:  # as a forfeited roll: one pick used, nothing entered
        if game_rules[RULE_FORFEIT_TO_PLATTER]:
            for d in range(N_DICE):
                if w[d] == POOL:
                    w[d] = PLATTER
        return phase + 1
    if area == CHOICE_REROLL:
        s[H_REROLL_USED] += 1
        return phase  # the same pick, after a new roll of the dice in play
    if area == CHOICE_RETURN:
        s[H_RETURN_USED] += 1
        w[die] = POOL
        return phase  # the same roll, more returns possible first
    if area == CHOICE_PROCEED:
        return phase + PROCEED
    plus = phase >= ADVISE_PLUS
    if area != CHOICE_STOP and area != CHOICE_DECLINE:
        if plus:
            s[H_PLUS_USED] += 1
            s[H_PLUS_TAKEN] |= 1 << die
        if pol[KIND] == VALUE:  # its free marks' turn state
            window = (PH_ROLL if phase < ADVISE_PASSIVE else PH_PASSIVE if phase == ADVISE_PASSIVE
                      else PH_ACTIVE_PLUS if phase == ADVISE_PLUS else PH_PASSIVE_PLUS)
            choice_turn(s, f, w, die, window, phase, scratch)
        apply_move(s, f, die, area, target, pol, stream, np.int64(0), scratch)
        if phase < ADVISE_PASSIVE:
            if area == chain_area(s):
                chain_marks(s, f, w, die, phase == 2, pol, stream, np.int64(4096), scratch)
            to_field(f, w, die)
            return phase + 1
        if phase == ADVISE_PLUS:
            return 3  # the window goes on (the policy's +1s)
    if phase == ADVISE_PLUS:  # stopped
        s[H_PLUS_TAKEN] = s[H_PLUS_TAKEN] if s[H_FLAGS] & FLAG_PLUS_PER_ROUND else 0
        return 4
    if phase == ADVISE_PASSIVE or area != CHOICE_STOP:  # the passive window goes on
        plus_ones(s, f, pol, stream, np.int64(100), buffer, scratch, last, np.bool_(True), log)
    s[H_PLUS_TAKEN] = s[H_PLUS_TAKEN] if s[H_FLAGS] & FLAG_PLUS_PER_ROUND else 0
    return 5


@njit(cache=True, nogil=True)
def advise_rollouts(sheet, faces, where, moves, pol, rnd, rounds, game_rules, phase, key,
                    first_rollout, n_rollouts, out, last_round):
    """Final scores of solo rollouts ``first_rollout ..`` (``n_rollouts`` of them) after each
    candidate choice.

    ``moves``: int64[m, 3] candidate moves for the dice in ``faces``/``where`` (or
    ``CHOICE_*`` rows: die -1, area the choice); ``phase``: the active pick (0-2), the
    passive pick (``ADVISE_PASSIVE``) or a +1 window (``ADVISE_PLUS``,
    ``ADVISE_PASSIVE_PLUS``; ``sheet[H_PLUS_TAKEN]``: the dice +1 took in it already);
    before an active pick's roll, the returns (``CHOICE_RETURN`` rows, die the platter
    die) are candidates beside ``CHOICE_PROCEED``.
    Rollout r of every choice uses the same random stream (paired), whichever call computes
    it. ``out``: float64[m, n_rollouts]. A rollout ends with round ``last_round``
    (``finish_solo_until``; ``rounds - 1``: the game's end). Serial and ``nogil``: callers
    spread rollouts over threads (a numba parallel loop would compile the engine again
    into it).
    """
    m = moves.shape[0]
    for job in range(m * n_rollouts):
        i, j = job // n_rollouts, job % n_rollouts
        r = first_rollout + j
        s = sheet.copy()
        f = faces.copy()
        w = where.copy()
        scratch = np.zeros(WORK_LEN, np.int64)
        new_game_work(scratch)
        buffer = np.zeros((MAX_MOVES, 3), np.int64)
        log = np.zeros(LOG_LEN, np.int64)
        stream = turn_stream(key, r, np.int64(4095))
        s[H_PLAYERS], s[H_SEAT], s[H_LEAD] = 1, 0, 0  # solo: the turn under way
        s[H_EVENT] = 1 if phase == ADVISE_PASSIVE or phase == ADVISE_PASSIVE_PLUS else 0
        start = advice_choice(s, f, w, moves[i, 0], moves[i, 1], moves[i, 2], pol, stream,
                              phase, rnd == rounds - 1, scratch, buffer, log, game_rules)
        out[i, j] = finish_solo_until(key, r, pol, rnd, rounds, game_rules, s, f, w, start,
                                      scratch, buffer, log, last_round)


@njit(cache=True, _nrt=False)
def begin_turn(sheets, event):
    """Turn ``event`` of the round begins (-1: the round begins; ``kernels.clever_base.seats``):
    every sheet's ``H_EVENT`` and lead over the best opponent ``H_LEAD`` (0 solo; each
    sheet's total is kept in ``H_LEAD`` while the best totals are found)."""
    n = sheets.shape[0]
    top, second, top_p = np.int64(-(1 << 40)), np.int64(-(1 << 40)), -1
    for q in range(n):
        sheets[q, H_EVENT] = event
        t = total_score(sheets[q]) if n > 1 else 0
        sheets[q, H_LEAD] = t
        if t > top:
            top, second, top_p = t, top, q
        elif t > second:
            second = t
    for p in range(n):
        sheets[p, H_LEAD] = 0 if n == 1 else sheets[p, H_LEAD] - (second if p == top_p
                                                                  else top)


@njit(cache=True)
def play_game(key, game, policy, rounds, game_rules, sheets, scratch, moves, faces, where,
              logs):
    """One game of ``n = sheets.shape[0]`` players over ``rounds`` rounds (section 2:
    ``ROUNDS_BY_PLAYERS``) with the game-rules vector ``game_rules`` (int64[N_GAME_RULES]:
    the round-track bonuses of ``layout.ROUND_BONUS``, then the switches); 1 player plays
    the solo game (section 6), more the multiplayer game (sections 4-5). Player ``p``
    plays ``policy`` row ``p`` (float64[n, N_POL]; one row plays every seat) with
    ``scratch`` row ``p`` (int64[n, >= WORK_LEN]; one row: shared). Fills ``sheets``
    (int64[n, SHEET_LEN]) and adds the players' decisions to ``logs`` (int64[n, LOG_LEN])."""
    n = sheets.shape[0]
    for p in range(n):
        start_game_sheet(sheets[p], game_rules, rounds, n)
    for p in range(scratch.shape[0]):
        new_game_work(scratch[p])
    seat_sheets(sheets)
    for rnd in range(rounds):
        base = rnd * (n + 1) * (n + 1)
        begin_turn(sheets, np.int64(-1))
        for p in range(n):
            sheets[p, H_ROUND] = rnd
            round_bonus(sheets[p], rnd, game_rules, _row(policy, p),
                        turn_stream(key, game, base + p), _row(scratch, p))
        for a in range(n):
            last = rnd == rounds - 1 and a == n - 1
            turn = base + (a + 1) * (n + 1)
            begin_turn(sheets, a)
            active_turn(sheets, a, faces, where, _row(policy, a),
                        turn_stream(key, game, turn), moves, _row(scratch, a), game_rules,
                        logs[a], np.int64(0))
            if n == 1:
                begin_turn(sheets, np.int64(1))
                solo_passive(sheets[0], faces, where, _row(policy, np.int64(0)),
                             turn_stream(key, game, turn + 1), moves, _row(scratch, np.int64(0)),
                             last, game_rules, logs[0])
                continue
            for p in range(n):
                if p != a:
                    passive_pick(sheets[p], faces, where, _row(policy, p),
                                 turn_stream(key, game, turn + 1 + p), np.int64(0), moves,
                                 _row(scratch, p), last, game_rules, logs[p])
        if rnd == rounds - 1 and n > 1:
            final_plus_ones(key, game, policy, rounds, game_rules, sheets, scratch, moves,
                             faces, logs)
        _log_round_end(sheets, rnd, logs)


@njit(cache=True, inline="always")
def final_plus_ones(key, game, policy, rounds, game_rules, sheets, scratch, moves, faces,
                     logs):
    """After the game's last turn (sections 10 and 11, ``final_plus``): the last active
    player's +1 window, and with ``RULE_FINAL_PLUS_ALL`` every other player's too."""
    n = sheets.shape[0]
    base = (rounds - 1) * (n + 1) * (n + 1)
    for p in range(n):
        if p == n - 1 or game_rules[RULE_FINAL_PLUS_ALL]:
            stream = turn_stream(key, game, base + 1 if p == n - 1 else
                                 rounds * (n + 1) * (n + 1) + p)
            plus_ones(sheets[p], faces, _row(policy, p), stream, np.int64(0), moves,
                      _row(scratch, p), np.bool_(True), np.bool_(False), logs[p])


@njit(cache=True, inline="always")
def _row(rows, p):
    """Row ``p`` of a player's ``rows`` (a single row serves every player)."""
    return rows[p % rows.shape[0]]


@njit(cache=True, _nrt=False)
def _log_round_end(sheets, rnd, logs):
    """Add each player's bonuses, marked cells and standing after round ``rnd`` to
    ``logs``."""
    n = sheets.shape[0]
    if rnd < LOG_ROUNDS:
        for p in range(n):
            for k in range(N_BONUS_KINDS):
                logs[p, LOG_BONUS_ROUNDS + N_BONUS_KINDS * rnd + k] = \
                    sheets[p, H_BONUSES + k]
            start = LOG_CELLS + MAX_CELLS * rnd
            marked_cells(sheets[p], logs[p, start:start + MAX_CELLS])
    if rnd < STANDING_ROUNDS:
        for p in range(n):
            logs[p, LOG_STANDINGS + rnd] = total_score(sheets[p])


@njit(cache=True, inline="always")
def award_wins(totals, best_area, wins, shared_ties):
    """Split ``WIN_UNITS``: highest total, then highest single area (unless
    ``shared_ties``), then shared."""
    n = totals.shape[0]
    key = totals * 1000 + best_area * (0 if shared_ties else 1)
    top = key.max()
    tied = 0
    for p in range(n):
        tied += key[p] == top
    for p in range(n):
        wins[p] = WIN_UNITS // tied if key[p] == top else 0


@njit(cache=True, nogil=True)
def games_block(key, first, end, out, lineup, rotate, rounds, game_rules):
    """Play games ``first`` to ``end - 1`` of block ``key`` into ``out`` (int64[n slots,
    n seats, COL_HIST + HIST_BINS]);
    ``lineup``: float64[n, N_POL] policies of the slots, moved one seat a game with
    ``rotate``. Without the GIL: blocks, or pieces of them, run side by side on threads
    (``analyzer.run.block_loop``; a numba parallel loop around the engine would compile
    it a second time)."""
    n = lineup.shape[0]
    sheets = np.empty((n, SHEET_LEN), np.int64)
    scratch = np.empty((1, WORK_LEN), np.int64)  # shared by the players
    moves = np.zeros((MAX_MOVES, 3), np.int64)
    faces = np.zeros(N_DICE, np.int64)
    where = np.zeros(N_DICE, np.int64)
    logs = np.zeros((n, LOG_LEN), np.int64)
    seated = np.zeros_like(lineup)  # seat_lineup copies the used width
    slot_of = np.empty(n, np.int64)
    totals = np.empty(n, np.int64)
    best_area = np.empty(n, np.int64)
    wins = np.empty(n, np.int64)
    scores = np.empty(N_AREAS, np.int64)
    decisions = np.empty(n, np.int64)
    width = used_width(lineup)
    for g in range(first, end):
        seat_lineup(lineup, g, first, rotate, seated, slot_of, width)
        logs[:] = 0
        play_game(key, g, seated, rounds, game_rules, sheets, scratch, moves, faces, where,
                  logs)
        for p in range(n):
            totals[p] = total_score(sheets[p])
            area_scores(sheets[p], scores)
            best_area[p] = scores.max()
            decisions[p] = log_decisions(logs[p])
        award_wins(totals, best_area, wins, game_rules[RULE_TIES_SHARED])
        add_contest(out, slot_of, totals, decisions, np.int64(COL_CONTEST), np.int64(-1))
        for p in range(n):
            row = out[slot_of[p], p]
            area_scores(sheets[p], scores)
            row[COL_GAMES] += 1
            row[COL_SCORE_SUM] += totals[p]
            row[COL_SCORE_SQ] += totals[p] * totals[p]
            row[COL_WIN_UNITS] += wins[p]
            row[COL_FOXES] += sheets[p, H_FOXES]
            row[COL_FOXES_SQ] += sheets[p, H_FOXES] ** 2
            row[COL_FOX_POINTS] += totals[p] - scores.sum()
            row[COL_LOWEST] += scores.min()
            for a in range(N_AREAS):
                row[COL_AREAS + a] += scores[a]
                row[COL_AREAS_SQ + a] += scores[a] * scores[a]
            for k in range(N_BONUS_KINDS):
                row[COL_BONUSES + k] += sheets[p, H_BONUSES + k]
                row[COL_BONUSES_SQ + k] += sheets[p, H_BONUSES + k] ** 2
            for k in range(LOG_LEN):
                row[COL_LOG + k] += logs[p, k]
            if n > 1:
                add_comebacks(row, np.int64(COL_COMEBACK), logs[:, LOG_STANDINGS:], p, wins[p],
                              rounds,
                              np.int64(COMEBACK_STEP))
            row[COL_HIST + min(totals[p], HIST_BINS - 1)] += 1


@njit(cache=True, _nrt=False)
def log_decisions(log):
    """The decisions a player's game log (int64[LOG_LEN]) records: the active picks, the
    passive picks taken or declined (where one was possible), and every re-roll, +1 and
    return spent."""
    d = log[LOG_PASSIVE_PICKS] + log[LOG_DECLINED]
    for k in range(3):
        d += log[LOG_PICKS + k]
    for k in range(3 * LOG_ROUNDS):
        d += log[LOG_ACTION_ROUNDS + k]
    return d


# metrics of one game compared across variants (paired_block)
PAIRED_SCORE_SUM = 0  # all players' scores added up
PAIRED_FIRST_SEAT_WIN = 1
PAIRED_FOXES = 2
N_PAIRED = 3  # then each seat's win units (``put_seat_wins``): out's last axis is
# N_PAIRED + the seats reported


@njit(cache=True, nogil=True)
def paired_block(key, first, end, out, lineups, rounds, game_rules):
    """Play games ``first`` to ``end - 1`` of block ``key`` under each of V variants on the
    same random numbers: ``lineups`` float64[V, n, N_POL], ``rounds`` int64[V], ``game_rules``
    int64[V, N_GAME_RULES]; ``out`` int64[V + 1, V, N_PAIRED]
    (``kernels.accumulate.add_products``)."""
    n_var, n = lineups.shape[0], lineups.shape[1]
    sheets = np.empty((n, SHEET_LEN), np.int64)
    scratch = np.empty((1, WORK_LEN), np.int64)  # shared by the players
    moves = np.zeros((MAX_MOVES, 3), np.int64)
    faces = np.zeros(N_DICE, np.int64)
    where = np.zeros(N_DICE, np.int64)
    totals = np.empty(n, np.int64)
    best_area = np.empty(n, np.int64)
    wins = np.empty(n, np.int64)
    scores = np.empty(N_AREAS, np.int64)
    x = np.zeros((n_var, out.shape[2]), np.int64)
    logs = np.zeros((n, LOG_LEN), np.int64)  # not reported by the paired loop
    for g in range(first, end):
        for v in range(n_var):
            play_game(key, g, lineups[v], rounds[v], game_rules[v], sheets, scratch, moves,
                      faces, where, logs)
            foxes = 0
            for p in range(n):
                totals[p] = total_score(sheets[p])
                area_scores(sheets[p], scores)
                best_area[p] = scores.max()
                foxes += sheets[p, H_FOXES]
            award_wins(totals, best_area, wins, game_rules[v, RULE_TIES_SHARED])
            x[v, PAIRED_SCORE_SUM] = totals.sum()
            x[v, PAIRED_FIRST_SEAT_WIN] = wins[0]
            x[v, PAIRED_FOXES] = foxes
            put_seat_wins(x[v], np.int64(N_PAIRED), wins)
        add_products(out, x)
