"""The value policy's decisions, for either Clever game: every choice is the argmax of the
value (``value_net.afterstate_value``) over the afterstates its candidates leave, each a
trial sheet plus its turn state (``kernels.clever_base.turn``). No thresholds, no knobs:

* an active pick, with the bonuses it fires and (Twice As Clever) the platter-chain marks
  of a silver pick; with no legal pick, the forfeit, and where the rules let a usable roll
  go unused (Twice As Clever), the forfeit beside the picks;
* re-rolling the roll against keeping it (its best pick);
* a return (Twice As Clever: each platter die back into the pool) against proceeding;
* each +1, one at a time, against stopping;
* the passive pick against declining it (where the rules allow);
* the round-track bonus to take where there is a choice.

In games of 2-4 players, the choices of the last roll also weigh what the platter they
leave gives the opponents (``denial``, the row's ``W_GIFT``): the play loop reckons the
opponents' gains on that roll alone, and ``denial.gift`` is 0 on any other.

Free marks, platter-chain rows and the black ? inside a candidate are placed by the same
value, with the candidate's turn state (``policies.sheet_value`` reads it from the work
buffer's ``TURN``). Each decision leaves the chosen afterstate in the work buffer
(``BEST_SHEET``, ``BEST_TURN``) and its turn state in ``TURN``. A pick that leaves no
dice in play is valued as the end of the picks (``PH_ACTIVE_PLUS``) under either reading
of ``FLAG_RETURN_EMPTY_POOL``; where that flag lets a return restart the turn, the return
is a decision of its own when the turn gets there.

Self-play training gives the work buffer ``TRAIN_LEN`` more numbers (``training``): then a
decision explores (a uniformly random candidate with probability epsilon, drawn from the
buffer's own stream) and records the chosen afterstate's inputs, score and value. A
training game may also follow a curriculum: a cap on the dice put into one area (picks,
passive picks and +1s into it are dropped once the cap is reached, while another candidate
is left; bonus marks are never capped), and a spotlight that adds to every candidate's
value, for choosing only, a bias toward the lowest area and the fox points, or toward the
points of one area.
"""

import numpy as np

from kernels.clever.denial import gift
from kernels.clever_base.game_rules import RULE_FORFEIT_TO_PLATTER, RULE_SKIP_ROLL
from kernels.clever.moves import N_DICE, PLATTER, POOL, to_field
from kernels.clever.policies import (BEST_SHEET, BEST_TURN, CAND_SHEET, CAND_WHERE, TURN, W_NET,
                                     WORK_LEN, apply_move, chain_marks, sheet_value)
from kernels.clever_base.sheet import (FLAG_PLUS_PER_ROUND, H_FLAGS, H_FOXES, H_PLUS_TAKEN,
                                       H_PLUS_USED, H_REROLL_GOT, H_REROLL_USED, H_RETURN_USED,
                                       SHEET_LEN)
from kernels.clever.sheets import area_scores, chain_area, copy_sheet, total_score
from kernels.clever_base.turn import (ALL_DICE, PH_ACTIVE_PLUS, PH_OVER, PH_PASSIVE,
                                      PH_PASSIVE_PLUS, PH_ROLL, TS_LEN, TS_PHASE, set_turn)
from kernels.clever.sheets import encode_afterstate
from kernels.clever.value_net import MAX_INPUTS, P_INPUTS
from kernels.jit import njit
from kernels.rng import uniform

# the training region after WORK_LEN: a header, then one record per decision
R_COUNT = 0  # decisions recorded this game
R_STREAM = 1  # the exploration stream (uint64 bits)
R_DRAWS = 2  # numbers drawn from it this game
R_EPSILON = 3  # the exploration rate (float64 bits)
R_CAP_AREA = 4  # the area whose dice are capped this game (curriculum), or -1
R_CAP = 5  # the most dice picks, passive picks and +1s may put there
R_CAPPED_USED = 6  # dice put there so far this game
R_SPOTLIGHT = 7  # the behaviour's bias this game (float64 bits, points per point of the
# lowest area plus the fox points; 0: none). Recorded values stay unbiased.
R_CHOSEN_AREA = 8  # the area of the move the decision under way keeps, or -1
R_VALUE = 9  # the unbiased value of the last candidate valued (float64 bits)
R_BEST_VALUE = 10  # the unbiased value of the best candidate so far (float64 bits)
R_SPOT_AREA = 11  # the area the spotlight favours (bias per point it scores), or -1: the
# lowest area and the fox points
R_AREAS = 12  # int64[5] work space: area scores
R_HEADER = R_AREAS + 5
REC_NNZ, REC_SCORE, REC_VALUE = 0, 1, 2  # value: float64 bits
REC_IDX = 3  # int64[MAX_INPUTS]
REC_VAL = REC_IDX + MAX_INPUTS  # float32[MAX_INPUTS]
REC_STRIDE = REC_VAL + MAX_INPUTS // 2
MAX_RECORDS = 320  # of the chosen afterstates
TRAIN_LEN = R_HEADER + MAX_RECORDS * REC_STRIDE



@njit(cache=True, _nrt=False)
def training(scratch):
    """Is this a self-play training work buffer (longer than ``WORK_LEN``)?"""
    return scratch.shape[0] > WORK_LEN


@njit(cache=True, _nrt=False)
def _masks(where):
    """``(pool, platter)`` bit masks of the dice."""
    pool, platter = 0, 0
    for d in range(N_DICE):
        if where[d] == POOL:
            pool |= 1 << d
        elif where[d] == PLATTER:
            platter |= 1 << d
    return pool, platter


@njit(cache=True, _nrt=False)
def round_taken(sheet):
    """The dice +1 has taken that still count (Twice As Clever: this round; else none
    outside a +1 window)."""
    return sheet[H_PLUS_TAKEN] if sheet[H_FLAGS] & FLAG_PLUS_PER_ROUND else 0


@njit(cache=True)
def _explore(scratch, k):
    """In training, with the exploration rate's chance: a uniformly random candidate of
    ``k`` to take; else -1 (take the best)."""
    if not training(scratch) or k <= 1:
        return -1
    head = scratch[WORK_LEN:WORK_LEN + R_HEADER]
    epsilon = head[R_EPSILON:R_EPSILON + 1].view(np.float64)[0]
    if epsilon <= 0.0:
        return -1
    stream = head[R_STREAM:R_STREAM + 1].view(np.uint64)[0]
    draws = head[R_DRAWS]
    head[R_DRAWS] = draws + 2
    if uniform(stream, draws) >= epsilon:
        return -1
    return np.int64(uniform(stream, draws + 1) * k)


@njit(cache=True, _nrt=False)
def _keep(scratch, sheet):
    """The candidate ``sheet`` with the turn state in ``TURN``, valued last, is the best so
    far."""
    copy_sheet(scratch[BEST_SHEET:BEST_SHEET + SHEET_LEN], sheet)
    for k in range(TS_LEN):
        scratch[BEST_TURN + k] = scratch[TURN + k]
    if training(scratch):
        scratch[WORK_LEN + R_BEST_VALUE] = scratch[WORK_LEN + R_VALUE]


@njit(cache=True)
def _value(sheet, pol, scratch):
    """The value of a candidate (``sheet`` with the turn state in ``TURN``) for choosing:
    ``sheet_value``, plus in a spotlight training game its bias. In training the unbiased
    value is kept for the record."""
    v = sheet_value(sheet, pol, scratch)
    if not training(scratch):
        return v
    head = scratch[WORK_LEN:WORK_LEN + R_HEADER]
    head[R_VALUE:R_VALUE + 1].view(np.float64)[0] = v
    bias = head[R_SPOTLIGHT:R_SPOTLIGHT + 1].view(np.float64)[0]
    if bias > 0.0:
        scores = head[R_AREAS:R_AREAS + 5]
        area_scores(sheet, scores)
        area = head[R_SPOT_AREA]
        if area >= 0:
            v += bias * scores[area]
        else:
            lowest = scores.min()
            v += bias * (lowest + sheet[H_FOXES] * lowest)
    return v


@njit(cache=True, _nrt=False)
def _capped(scratch, moves, n):
    """In a capped training game whose cap is reached: drop the ``n`` ``moves`` into the
    capped area, unless none would be left (the rows kept move up in place). Returns the
    count left."""
    if not training(scratch):
        return n
    head = scratch[WORK_LEN:WORK_LEN + R_HEADER]
    area = head[R_CAP_AREA]
    if area < 0 or head[R_CAPPED_USED] < head[R_CAP]:
        return n
    kept = 0
    for i in range(n):
        kept += moves[i, 1] != area
    if kept == 0 or kept == n:
        return n
    k = 0
    for i in range(n):
        if moves[i, 1] != area:
            moves[k, 0], moves[k, 1], moves[k, 2] = moves[i, 0], moves[i, 1], moves[i, 2]
            k += 1
    return k


@njit(cache=True, _nrt=False)
def _chosen_area(scratch, area):
    """The decision under way keeps a move into ``area`` (-1: none)."""
    if training(scratch):
        scratch[WORK_LEN + R_CHOSEN_AREA] = area


@njit(cache=True, _nrt=False)
def _better(i, v, forced, best_v):
    """Does candidate ``i`` worth ``v`` replace the best so far (worth ``best_v``)? The
    explored candidate ``forced`` (if >= 0) replaces it, and no other."""
    return i == forced if forced >= 0 else v > best_v


@njit(cache=True)
def _try_move(sheet, faces, moves, i, plus, pol, stream, slot, scratch, forced, best,
              best_v):
    """Candidate move ``i`` (``plus`` = 1: a +1, which spends one) on a trial copy of
    ``sheet``, valued with the turn state in ``TURN``: the new ``(best, best_v)``."""
    cand = scratch[CAND_SHEET:CAND_SHEET + SHEET_LEN]
    copy_sheet(cand, sheet)
    cand[H_PLUS_USED] += plus
    apply_move(cand, faces, moves[i, 0], moves[i, 1], moves[i, 2], pol, stream, slot,
               scratch)
    v = _value(cand, pol, scratch)
    if _better(i, v, forced, best_v):
        _keep(scratch, cand)
        return i, v
    return best, best_v


@njit(cache=True)
def finish(scratch, pol):
    """End a decision: ``TURN`` is the chosen afterstate's again; in training, a die put
    into the capped area is counted, and the chosen afterstate (unless the game is over
    there) is recorded with its score, its (unbiased) value and the inputs of the
    policy's network."""
    for k in range(TS_LEN):
        scratch[TURN + k] = scratch[BEST_TURN + k]
    if not training(scratch):
        return
    head = scratch[WORK_LEN:WORK_LEN + R_HEADER]
    if head[R_CHOSEN_AREA] >= 0 and head[R_CHOSEN_AREA] == head[R_CAP_AREA]:
        head[R_CAPPED_USED] += 1
    head[R_CHOSEN_AREA] = -1
    if scratch[BEST_TURN + TS_PHASE] == PH_OVER:
        return
    k = head[R_COUNT]
    if k >= MAX_RECORDS:
        return
    head[R_COUNT] = k + 1
    rec = _record(scratch, pol, k, scratch[BEST_SHEET:BEST_SHEET + SHEET_LEN],
                  scratch[BEST_TURN:BEST_TURN + TS_LEN])
    rec[REC_VALUE] = head[R_BEST_VALUE]  # float64 bits


@njit(cache=True)
def _record(scratch, pol, k, sheet, turn):
    """Record ``k`` of the training region: the inputs of the policy's network for the
    afterstate ``sheet`` with the turn state ``turn``, and its score; returns the record."""
    at = WORK_LEN + R_HEADER + k * REC_STRIDE
    rec = scratch[at:at + REC_STRIDE]
    rec[REC_NNZ] = encode_afterstate(sheet, turn, rec[REC_IDX:REC_VAL],
                                     rec[REC_VAL:REC_STRIDE].view(np.float32),
                                     np.int64(pol[W_NET + P_INPUTS]))
    rec[REC_SCORE] = total_score(sheet)
    return rec


@njit(cache=True)
def _forfeit(sheet, where, picks, pol, scratch, rules):
    """The value of forfeiting the roll (no pick entered; one pick used, the dice stay in
    the pool or, by the rules, go to the platter), kept as the best afterstate so far."""
    pool, platter = _masks(where)
    if rules[RULE_FORFEIT_TO_PLATTER]:
        pool, platter = np.int64(0), platter | pool
    ts = scratch[TURN:TURN + TS_LEN]
    if picks + 1 >= 3 or pool == 0:
        set_turn(ts, np.int64(PH_ACTIVE_PLUS), picks + 1, np.int64(0), platter | pool,
                 round_taken(sheet))
    else:
        set_turn(ts, np.int64(PH_ROLL), picks + 1, pool, platter, round_taken(sheet))
    v = _value(sheet, pol, scratch) - gift(scratch, pol, where)  # ``denial``
    _keep(scratch, sheet)
    return v


@njit(cache=True)
def choose_active(sheet, faces, where, picks, moves, n, pol, stream, slot, scratch, rules):
    """``(index, value)`` of the best active pick of the ``n`` legal ``moves`` with
    ``picks`` picks made this turn; index -1: the roll is forfeited (one pick used, the
    dice stay in the pool or, by the rules, go to the platter), when ``n`` is 0 or, with
    ``RULE_SKIP_ROLL``, as one more candidate (leaving a usable roll unused)."""
    if n == 0:
        v = _forfeit(sheet, where, picks, pol, scratch, rules)
        _chosen_area(scratch, np.int64(-1))
        return -1, v
    n = _capped(scratch, moves, n)
    skip = rules[RULE_SKIP_ROLL] == 1
    forced = _explore(scratch, n + skip)  # n: the skip
    best, best_v = -1, -np.inf
    if skip:
        best_v = _forfeit(sheet, where, picks, pol, scratch, rules)
    for i in range(n):
        v = pick_value(sheet, faces, where, picks, moves, i, pol, stream, slot, scratch)
        if _better(i, v, forced, best_v):
            best, best_v = i, v
            _keep(scratch, scratch[CAND_SHEET:CAND_SHEET + SHEET_LEN])
    _chosen_area(scratch, moves[best, 1] if best >= 0 else -1)
    return best, best_v


@njit(cache=True)
def pick_value(sheet, faces, where, picks, moves, i, pol, stream, slot, scratch):
    """The value of active pick ``moves[i]`` with ``picks`` picks made this turn, less what
    its platter gives (``denial``). Leaves its afterstate in the work buffer's
    ``CAND_SHEET``, ``CAND_WHERE`` and ``TURN``."""
    die = moves[i, 0]
    cand = scratch[CAND_SHEET:CAND_SHEET + SHEET_LEN]
    choice_turn(sheet, faces, where, die, np.int64(PH_ROLL), picks, scratch)
    copy_sheet(cand, sheet)
    apply_move(cand, faces, die, moves[i, 1], moves[i, 2], pol, stream, slot, scratch)
    if moves[i, 1] == chain_area(cand):
        chain_marks(cand, faces, where, die, picks == 2, pol, stream, slot + 4096, scratch)
    return _value(cand, pol, scratch) - gift(scratch, pol,
                                             scratch[CAND_WHERE:CAND_WHERE + N_DICE])


@njit(cache=True, inline="always")
def reroll_instead(sheet, where, picks, keep_value, pol, scratch):
    """After ``choose_active`` left its pick (worth ``keep_value``) as the best afterstate:
    ``(re-roll?, its value)``. If so the re-roll's afterstate (one re-roll spent, the same
    dice to roll) becomes the best."""
    if sheet[H_REROLL_GOT] - sheet[H_REROLL_USED] <= 0:
        return False, -np.inf
    forced = _explore(scratch, np.int64(2))  # 0: keep, 1: re-roll
    pool, platter = _masks(where)
    cand = scratch[CAND_SHEET:CAND_SHEET + SHEET_LEN]
    copy_sheet(cand, sheet)
    cand[H_REROLL_USED] += 1
    set_turn(scratch[TURN:TURN + TS_LEN], np.int64(PH_ROLL), picks, pool, platter,
             round_taken(sheet))
    v = _value(cand, pol, scratch) - gift(scratch, pol, where)
    if _better(np.int64(1), v, forced, keep_value):
        _keep(scratch, cand)
        _chosen_area(scratch, np.int64(-1))
        return True, v
    return False, v  # ``finish`` restores the kept pick's turn state


@njit(cache=True, inline="always")
def choose_return(sheet, where, picks, pol, scratch):
    """Twice As Clever's return before a roll: the platter die to bring back into the pool
    (one return spent), or -1 to proceed with the roll. Records the decision."""
    pool, platter = _masks(where)
    taken = round_taken(sheet)
    count = 0
    for d in range(N_DICE):
        count += (platter >> d) & 1
    forced = _explore(scratch, count + 1)  # 0: proceed, k: the k-th platter die
    ts = scratch[TURN:TURN + TS_LEN]
    set_turn(ts, np.int64(PH_ROLL), picks, pool, platter, taken)
    best, best_v = -1, _value(sheet, pol, scratch)
    _keep(scratch, sheet)
    cand = scratch[CAND_SHEET:CAND_SHEET + SHEET_LEN]
    k = np.int64(0)
    for d in range(N_DICE):
        if not (platter >> d) & 1:
            continue
        k += 1
        copy_sheet(cand, sheet)
        cand[H_RETURN_USED] += 1
        set_turn(ts, np.int64(PH_ROLL), picks, pool | (1 << d), platter & ~(1 << d), taken)
        v = _value(cand, pol, scratch)
        if _better(k, v, forced, best_v):
            best, best_v = d, v
            _keep(scratch, cand)
    finish(scratch, pol)
    return best


@njit(cache=True, inline="always")
def choose_plus(sheet, faces, moves, n, taken, phase, stop_phase, pol, stream, slot,
                scratch):
    """The next +1 in the +1 window ``phase`` (``PH_ACTIVE_PLUS`` or ``PH_PASSIVE_PLUS``):
    the index of one of the ``n`` legal ``moves`` (dice not in ``taken``), or -1 to stop
    (the afterstate of stopping is in ``stop_phase``: the passive turn, the round's end, or
    the game's end). Records the decision."""
    ts = scratch[TURN:TURN + TS_LEN]
    per_round = sheet[H_FLAGS] & FLAG_PLUS_PER_ROUND
    n = _capped(scratch, moves, n)
    forced = _explore(scratch, n + 1)  # n: stop
    keep_taken = taken if per_round and stop_phase == PH_PASSIVE else 0
    set_turn(ts, stop_phase, np.int64(0), np.int64(0), np.int64(0), keep_taken)
    best, best_v = np.int64(-1), _value(sheet, pol, scratch)
    _keep(scratch, sheet)
    for i in range(n):
        set_turn(ts, phase, np.int64(0), np.int64(0), np.int64(0), taken | (1 << moves[i, 0]))
        best, best_v = _try_move(sheet, faces, moves, i, np.int64(1), pol, stream, slot, scratch,
                                 forced, best, best_v)
    _chosen_area(scratch, moves[best, 1] if best >= 0 else -1)
    finish(scratch, pol)
    return best


@njit(cache=True, inline="always")
def choose_passive(sheet, faces, where, moves, n, may_decline, pol, stream, slot, scratch):
    """The passive pick: the index of one of the ``n`` candidate ``moves``, or -1 to
    decline (``may_decline``, or nothing to pick). Records the decision."""
    if n == 0:
        return -1
    _, platter = _masks(where)
    taken = round_taken(sheet)
    ts = scratch[TURN:TURN + TS_LEN]
    n = _capped(scratch, moves, n)
    forced = _explore(scratch, n + (1 if may_decline else 0))  # n: decline
    best, best_v = np.int64(-1), -np.inf
    set_turn(ts, np.int64(PH_PASSIVE_PLUS), np.int64(0), np.int64(0), platter, taken)
    if may_decline:
        best_v = _value(sheet, pol, scratch)
        _keep(scratch, sheet)
    for i in range(n):
        set_turn(ts, np.int64(PH_PASSIVE_PLUS), np.int64(0), np.int64(0), platter, taken)
        best, best_v = _try_move(sheet, faces, moves, i, np.int64(0), pol, stream, slot, scratch,
                                 forced, best, best_v)
    _chosen_area(scratch, moves[best, 1] if best >= 0 else -1)
    finish(scratch, pol)
    return best


@njit(cache=True, _nrt=False)
def choice_turn(sheet, faces, where, die, window, picks, scratch):
    """Put in ``TURN`` the turn state after a move of ``die`` as the choosers above value
    it, so that the free marks the move fires are placed as in play. ``window``: the
    decision's turn phase: ``PH_ROLL`` an active pick (``picks`` made before it, ``where``
    before it), ``PH_PASSIVE`` the passive pick, ``PH_ACTIVE_PLUS`` or ``PH_PASSIVE_PLUS``
    a +1 (``sheet[H_PLUS_TAKEN]`` with the die taken already)."""
    ts = scratch[TURN:TURN + TS_LEN]
    if window == PH_ACTIVE_PLUS or window == PH_PASSIVE_PLUS:
        set_turn(ts, window, np.int64(0), np.int64(0), np.int64(0), sheet[H_PLUS_TAKEN])
        return
    taken = round_taken(sheet)
    if window == PH_PASSIVE:
        set_turn(ts, np.int64(PH_PASSIVE_PLUS), np.int64(0), np.int64(0), _masks(where)[1], taken)
        return
    cand_where = scratch[CAND_WHERE:CAND_WHERE + N_DICE]
    for k in range(N_DICE):
        cand_where[k] = where[k]
    to_field(faces, cand_where, die)
    left, on_platter = _masks(cand_where)
    if picks + 1 >= 3 or left == 0:
        set_turn(ts, np.int64(PH_ACTIVE_PLUS), picks + 1, np.int64(0), on_platter | left, taken)
    else:
        set_turn(ts, np.int64(PH_ROLL), picks + 1, left, on_platter, taken)


@njit(cache=True, _nrt=False)
def start_round(scratch):
    """The turn state of a round's start (before the active roll): round-track bonus
    choices are valued there."""
    set_turn(scratch[TURN:TURN + TS_LEN], np.int64(PH_ROLL), np.int64(0), np.int64(ALL_DICE),
             np.int64(0), np.int64(0))
