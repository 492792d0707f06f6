"""The value policy's look one roll ahead: its first and second picks of a turn compared by
the mean, over sampled rolls of the dice each leaves in play, of the value of the best
next pick (or forfeit, or re-roll where one is in hand) on that roll.

The afterstate value of an early pick is the network's estimate of what the rest of the
turn and game will bring. Averaging the next roll's best afterstate over rolls replaces
one step of that estimate by the dice themselves. ``W_SAMPLES`` (in the policy's row;
0: none) rolls are drawn for each of the ``W_BRANCH`` picks of best one-step value within
``W_LOOK_MARGIN`` points of the best, in games of the player counts ``W_LOOK_PLAYERS``
names; every pick meets the same rolls (common random numbers, from slots that depend on
the pick number alone), and where the dice in play have no more rolls than that (one die
at 16 samples), each roll is taken once instead. The next pick is valued by
``valued.choose_active`` in the work buffer's inner part, which weighs no gift and no
return before the roll. The pick kept is left as ``choose_active`` leaves it, and its
one-step value is returned, so a re-roll, the forfeit and the training records compare
one-step values as before (valuing the re-roll by the same look did no better: That's
Pretty Clever solo, 4,000 paired games, +2.4 points over one step where the look of the
picks alone gave +3.0).
"""

import numpy as np

from kernels.clever_base.bits import count_bits
from kernels.clever.denial import no_gift
from kernels.clever_base.game_rules import RULE_SKIP_ROLL
from kernels.clever.moves import MAX_MOVES, N_DICE, POOL, legal_moves
from kernels.clever.policies import (_LOOK_FACES, _LOOK_MOVES, _LOOK_RANK, CAND_SHEET, CAND_WHERE,
                                     INNER, LOOK_SLOT, TURN, W_BRANCH, W_LOOK_MARGIN,
                                     W_LOOK_PLAYERS, W_SAMPLES, sheet_value)
from kernels.clever_base.sheet import H_PLAYERS, H_REROLL_GOT, H_REROLL_USED, SHEET_LEN
from kernels.clever.sheets import copy_sheet
from kernels.clever_base.turn import PH_ROLL, TS_LEN, set_turn
from kernels.clever.valued import (_forfeit, _keep, _masks, choose_active, pick_value, round_taken,
                                   training)
from kernels.jit import njit
from kernels.rng import uniform


@njit(cache=True, _nrt=False, inline="always")
def looks(sheet, picks, n, pol, scratch):
    """Does the value policy look ahead at this pick: ``W_SAMPLES`` > 0, the game's player
    count in ``W_LOOK_PLAYERS``, pick 0 or 1 with more than one legal pick, not training?"""
    players = max(sheet[H_PLAYERS], 1)
    return pol[W_SAMPLES] > 0 and np.int64(pol[W_LOOK_PLAYERS]) >> players & 1 == 1 \
        and picks < 2 and n > 1 and not training(scratch)


@njit(cache=True, inline="always")
def choose_looking(sheet, faces, where, picks, moves, n, pol, stream, slot, scratch,
                   rules):
    """``choose_active``, looking one roll ahead where ``looks``: ``(index, one-step
    value)``. The ``W_BRANCH`` best picks by one-step value within ``W_LOOK_MARGIN`` points
    of the best are compared by ``_next_roll_mean``; the forfeit (``RULE_SKIP_ROLL``) meets
    the pick kept by one-step value."""
    if not looks(sheet, picks, n, pol, scratch):
        return choose_active(sheet, faces, where, picks, moves, n, pol, stream, slot,
                             scratch, rules)
    ranked = scratch[_LOOK_RANK:_LOOK_RANK + MAX_MOVES].view(np.float64)
    for i in range(n):
        ranked[i] = pick_value(sheet, faces, where, picks, moves, i, pol, stream, slot,
                               scratch)
    best = np.argmax(ranked[:n])
    best_v = ranked[best]
    close = 0
    for i in range(n):
        close += ranked[i] >= best_v - pol[W_LOOK_MARGIN]
    if close > 1:
        best_q = -np.inf
        for _ in range(min(np.int64(pol[W_BRANCH]), n)):
            i = np.argmax(ranked[:n])
            one_step = ranked[i]
            if one_step < best_v - pol[W_LOOK_MARGIN]:
                break
            ranked[i] = -np.inf
            pick_value(sheet, faces, where, picks, moves, i, pol, stream, slot, scratch)
            q = _next_roll_mean(faces, picks + 1, one_step, np.int64(pol[W_SAMPLES]), pol,
                                stream, slot, scratch, rules)
            if q > best_q:
                best, best_q, best_v = i, q, one_step
    if rules[RULE_SKIP_ROLL] == 1:
        v = _forfeit(sheet, where, picks, pol, scratch, rules)
        if v > best_v:
            return -1, v
    pick_value(sheet, faces, where, picks, moves, best, pol, stream, slot, scratch)
    _keep(scratch, scratch[CAND_SHEET:CAND_SHEET + SHEET_LEN])
    return best, best_v


@njit(cache=True, inline="always")
def _next_roll_mean(faces, picks, one_step, samples, pol, stream, slot, scratch, rules):
    """The mean over ``samples`` sampled rolls (or every roll once, where there are no more)
    of the dice in play after a candidate pick (its afterstate in ``CAND_SHEET`` and
    ``CAND_WHERE``) of the best value of pick ``picks``: its best pick or forfeit, or a
    re-roll where one is in hand. ``one_step``: the candidate's own value, the answer when
    no dice are left in play. ``faces``: int64[N_DICE], the roll the candidate was picked
    from (the dice off the pool keep their faces)."""
    sheet = scratch[CAND_SHEET:CAND_SHEET + SHEET_LEN]
    where = scratch[CAND_WHERE:CAND_WHERE + N_DICE]
    pool, platter = _masks(where)
    if pool == 0:
        return one_step
    inner = scratch[INNER:INNER + INNER]
    no_gift(inner)
    reroll = -np.inf
    if sheet[H_REROLL_GOT] - sheet[H_REROLL_USED] > 0:
        trial = inner[CAND_SHEET:CAND_SHEET + SHEET_LEN]
        copy_sheet(trial, sheet)
        trial[H_REROLL_USED] += 1
        set_turn(inner[TURN:TURN + TS_LEN], np.int64(PH_ROLL), picks, pool, platter,
                 round_taken(sheet))
        reroll = sheet_value(trial, pol, inner)
    rolled = scratch[_LOOK_FACES:_LOOK_FACES + N_DICE]
    moves = scratch[_LOOK_MOVES:_LOOK_MOVES + 3 * MAX_MOVES].reshape((MAX_MOVES, 3))
    outcomes = 6 ** count_bits(pool)
    exact = outcomes <= samples  # every roll once, each as likely
    rolls = outcomes if exact else samples
    total = 0.0
    for k in range(rolls):
        code = k
        for d in range(N_DICE):
            rolled[d] = faces[d]
            if where[d] != POOL:
                continue
            if exact:
                rolled[d] = code % 6 + 1
                code //= 6
            else:
                u = uniform(stream, LOOK_SLOT + picks * 4096 + k * N_DICE + d)
                rolled[d] = np.int64(u * 6.0) + 1
        n = legal_moves(sheet, rolled, pool, moves, np.bool_(False))
        _, v = choose_active(sheet, rolled, where, picks, moves, n, pol, stream, slot,
                             inner, rules)
        total += max(v, reroll)
    return total / rolls

