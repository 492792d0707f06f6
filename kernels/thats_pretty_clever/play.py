"""That's Pretty Clever play loops (rules page sections 3-6 and 10): round bonuses, active
turns with three rolls and the silver platter, passive picks, the solo passive turn,
re-roll and +1 actions, with the ``random`` and ``greedy`` policies. Only this module
draws dice.

A move is a row ``(die, area, cell)`` of an int64[MAX_MOVES, 3] buffer: ``cell`` is the
yellow cell, the blue sum, or -1. Dice live in ``faces`` int64[6] and ``where`` int64[6]
(``POOL``, ``FIELD``, ``PLATTER``).
"""

import numpy as np
from numba import njit, prange

from kernels.accumulate import add_products
from kernels.rng import turn_stream, uniform
from kernels.thats_pretty_clever.layout import (
    BLUE,
    BLUE_AREA,
    CROSS_BLUE,
    GREEN_AREA,
    N_AREAS,
    N_DICE,
    ORANGE_AREA,
    PURPLE_AREA,
    ROUND4_OPTIONS,
    RULE_FORFEIT_TO_PLATTER,
    RULE_PASSIVE_DECLINE,
    RULE_WASTED_PICK,
    S_BLUE,
    S_BONUSES,
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
    WHITE,
    WRITE_PURPLE,
    YELLOW_AREA,
    YELLOW_COL_POINTS,
    YELLOW_PREPRINTED,
)
from kernels.thats_pretty_clever.rules import (
    MAX_PENDING,
    area_scores,
    bonus_choices,
    can_enter,
    enter,
    resolve_bonus,
    total_score,
    yellow_cells,
)

POOL, FIELD, PLATTER = 0, 1, 2
# game accumulator columns per (lineup slot, seat), then the score histogram
COL_GAMES, COL_SCORE_SUM, COL_SCORE_SQ, COL_WIN_UNITS, COL_FOXES = range(5)
COL_FOXES_SQ = 5
COL_AREAS = 6  # + area: area score sums
COL_AREAS_SQ = COL_AREAS + N_AREAS  # + area: sums of squares
N_BONUS_KINDS = WRITE_PURPLE + 1
COL_BONUSES = COL_AREAS_SQ + N_AREAS  # + bonus kind: bonuses received
COL_BONUSES_SQ = COL_BONUSES + N_BONUS_KINDS
COL_HIST = COL_BONUSES_SQ + N_BONUS_KINDS
HIST_BINS = 400
WIN_UNITS = 12
MAX_MOVES = 64
RANDOM, GREEDY, HEURISTIC = 0, 1, 2
POLICY_NAMES = ("random", "greedy", "heuristic")
# a policy is a float64 row: its kind, then the heuristic's weights
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
# die colour -> its own area (white is wild)
DIE_AREA = np.array([-1, YELLOW_AREA, BLUE_AREA, GREEN_AREA, ORANGE_AREA, PURPLE_AREA],
                    np.int64)


@njit(cache=True)
def _die_value(faces, die, area):
    """The value a die enters with: blue takes blue + white wherever the other die is."""
    if area == BLUE_AREA:
        return faces[BLUE] + faces[WHITE]
    return faces[die]


@njit(cache=True)
def _add_moves(sheet, faces, die, moves, n):
    for area in range(N_AREAS):
        if die != WHITE and DIE_AREA[die] != area:
            continue
        value = _die_value(faces, die, area)
        if not can_enter(sheet, area, value):
            continue
        if area == YELLOW_AREA:
            cells = yellow_cells(sheet, value)
            for c in range(16):
                if (cells >> c) & 1:
                    moves[n, 0], moves[n, 1], moves[n, 2] = die, area, c
                    n += 1
        else:
            moves[n, 0], moves[n, 1], moves[n, 2] = die, area, value if area == BLUE_AREA \
                else -1
            n += 1
    return n


@njit(cache=True)
def legal_moves(sheet, faces, usable, moves, waste=False):
    """Every legal use of the dice whose bit is set in ``usable``; returns the count. With
    ``waste``, a die with no legal placement may be picked anyway: move ``(die, -1, -1)``."""
    n = 0
    for die in range(N_DICE):
        if (usable >> die) & 1:
            before = n
            n = _add_moves(sheet, faces, die, moves, n)
            if waste and n == before:
                moves[n, 0], moves[n, 1], moves[n, 2] = die, -1, -1
                n += 1
    return n


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
    scores = np.empty(N_AREAS, np.int64)
    area_scores(sheet, scores)
    v += pol[W_FOX] * sheet[S_FOXES] + pol[W_MIN_AREA] * scores.min()
    played = sheet[S_ROUND] / max(sheet[S_ROUNDS], 1)
    return score + v * max(1.0 - pol[W_LATE] * played, 0.0)


@njit(cache=True)
def _pick_bonus_target(sheet, code, pol, stream, slot, scratch):
    """Where a free X goes: the random pol picks uniformly, greedy picks the target with
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
    pending = np.zeros(MAX_PENDING, np.int64)
    for i in range(16):
        if (options >> i) & 1:
            target = i + offset
            scratch[:] = sheet
            resolve_bonus(scratch, code, target, pending, 0)
            v = sheet_value(scratch, pol)
            if v > best_v:
                best, best_v = target, v
    return best


@njit(cache=True)
def apply_move(sheet, faces, die, area, cell, pol, stream, slot, scratch):
    """Enter the die and resolve every bonus it triggers, depth-first (the latest
    triggered first); free marks are placed by the pol."""
    if area < 0:
        return  # a wasted pick: the die is moved, nothing is entered
    pending = np.zeros(MAX_PENDING, np.int64)
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
    trial = np.empty(SHEET_LEN, np.int64)
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
def to_field(faces, where, die):
    """Section 4: the picked die goes to a field and every die in play showing a strictly
    lower face goes to the silver platter."""
    where[die] = FIELD
    for d in range(N_DICE):
        if where[d] == POOL and faces[d] < faces[die]:
            where[d] = PLATTER


@njit(cache=True)
def take_die(sheet, faces, where, die, area, cell, targets):
    """Replay one active pick with recorded choices: enter ``die`` in ``area`` (``cell``:
    the yellow cell or blue sum), resolve the bonuses it triggers depth-first with the free
    marks going to ``targets`` (int64[k], in resolution order: yellow cell or blue sum), then
    apply the platter rule. Returns the number of targets used."""
    pending = np.zeros(MAX_PENDING, np.int64)
    n = enter(sheet, area, _die_value(faces, die, area), cell, pending, 0)
    used = 0
    while n > 0:
        n -= 1
        code = pending[n]
        target = 0
        if bonus_choices(sheet, code) > 0:
            if used >= targets.shape[0]:
                raise ValueError("a free mark has no recorded target")
            target = targets[used]
            used += 1
        n = resolve_bonus(sheet, code, target, pending, n)
    to_field(faces, where, die)
    return used


@njit(cache=True)
def passive_candidates(sheet, faces, where, moves):
    """Section 5: a passive player's choices are the platter dice; only when none of them
    can be used, the dice on the active player's fields. Returns the move count."""
    platter = 0
    fields = 0
    for d in range(N_DICE):
        if where[d] == PLATTER:
            platter |= 1 << d
        elif where[d] == FIELD:
            fields |= 1 << d
    n = legal_moves(sheet, faces, platter, moves)
    if n == 0:
        n = legal_moves(sheet, faces, fields, moves)
    return n


@njit(cache=True)
def use_reroll(sheet):
    """Section 10: spend an unlocked re-roll; False if none is left."""
    if sheet[S_REROLL_GOT] - sheet[S_REROLL_USED] <= 0:
        return False
    sheet[S_REROLL_USED] += 1
    return True


@njit(cache=True)
def use_plus_one(sheet, faces, die, area, cell, targets, taken):
    """Section 10: spend a +1 on any die at its face (each die once per turn: ``taken`` is
    the bit mask of dice already taken by +1 this turn). Returns the new mask, or -1 when
    no +1 is left, the die was taken already or the use is not legal."""
    if sheet[S_PLUS_GOT] - sheet[S_PLUS_USED] <= 0 or (taken >> die) & 1:
        return -1
    if not can_enter(sheet, area, _die_value(faces, die, area)):
        return -1
    sheet[S_PLUS_USED] += 1
    where = np.full(N_DICE, FIELD, np.int64)  # nothing moves to the platter
    take_die(sheet, faces, where, die, area, cell, targets)
    return taken | (1 << die)


@njit(cache=True)
def _roll(faces, where, stream, slot):
    """Roll every die in the pool; returns the next free random slot."""
    for d in range(N_DICE):
        if where[d] == POOL:
            faces[d] = np.int64(uniform(stream, slot + d) * 6.0) + 1
    return slot + N_DICE


@njit(cache=True)
def _pool_mask(where):
    mask = 0
    for d in range(N_DICE):
        if where[d] == POOL:
            mask |= 1 << d
    return mask


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


@njit(cache=True)
def active_turn(sheet, faces, where, pol, stream, moves, scratch, rules, first_pick=0):
    """The active player's turn (section 4): up to three rolls and picks, lower dice to the
    platter, re-rolls after a roll, then +1 actions. Leaves ``where`` for the passive
    players. ``rules``: int64[N_GAME_RULES]. With ``first_pick`` > 0 the turn continues
    from that pick with ``where`` as given (advice rollouts)."""
    if first_pick == 0:
        where[:] = POOL
    slot = 16 * first_pick
    for pick in range(first_pick, 3):
        if _pool_mask(where) == 0:
            break
        slot = _roll(faces, where, stream, slot)
        usable = _pool_mask(where)
        while _wants_reroll(sheet, faces, usable, moves, pol, stream, slot, scratch, where):
            sheet[S_REROLL_USED] += 1
            slot = _roll(faces, where, stream, slot + 1)
        # only the random policy ever uses a wasted pick (it never raises the score)
        waste = rules[RULE_WASTED_PICK] == 1 and pol[KIND] == RANDOM
        n = legal_moves(sheet, faces, usable, moves, waste)
        i, _ = choose_move(sheet, faces, moves, n, pol, stream, slot, scratch, where)
        slot += 1
        if i < 0:  # a forfeited roll: the dice stay in play, or go to the platter
            if rules[RULE_FORFEIT_TO_PLATTER]:
                for d in range(N_DICE):
                    if where[d] == POOL:
                        where[d] = PLATTER
            continue
        die = moves[i, 0]
        apply_move(sheet, faces, die, moves[i, 1], moves[i, 2], pol, stream, slot, scratch)
        slot += 64
        to_field(faces, where, die)
    for d in range(N_DICE):
        if where[d] == POOL:
            where[d] = PLATTER
    plus_ones(sheet, faces, pol, stream, slot, moves, scratch, False)


@njit(cache=True)
def plus_ones(sheet, faces, pol, stream, slot, moves, scratch, last_turn):
    """+1 actions at the end of a turn (section 10): any die at its face, each die at most
    once per turn. Greedy uses one when the move raises the score (any move on the last
    turn); random uses each with chance one half."""
    taken = 0
    while sheet[S_PLUS_GOT] - sheet[S_PLUS_USED] > 0:
        n = legal_moves(sheet, faces, ((1 << N_DICE) - 1) & ~taken, moves)
        if n == 0:
            return
        if pol[KIND] == RANDOM and uniform(stream, slot) < 0.5:
            return
        i, after = choose_move(sheet, faces, moves, n, pol, stream, slot + 1, scratch, NO_DICE)
        threshold = pol[W_PLUS_ABOVE] if pol[KIND] == HEURISTIC else 0.0
        if pol[KIND] != RANDOM and not last_turn and \
                after - sheet_value(sheet, pol) <= threshold:
            return
        sheet[S_PLUS_USED] += 1
        taken |= 1 << moves[i, 0]
        apply_move(sheet, faces, moves[i, 0], moves[i, 1], moves[i, 2], pol, stream,
                   slot + 2, scratch)
        slot += 70


@njit(cache=True)
def passive_pick(sheet, faces, where, pol, stream, slot, moves, scratch, last_turn, rules):
    """A passive player's pick (section 5): one platter die; only if none is usable, one
    of the active player's field dice. Where the rules let a passive player decline, the
    random policy counts declining as one more choice (the others always pick, since a pick
    never lowers the score). Then +1 actions."""
    n = passive_candidates(sheet, faces, where, moves)
    i, _ = choose_move(sheet, faces, moves, n, pol, stream, slot, scratch, NO_DICE)
    if rules[RULE_PASSIVE_DECLINE] and pol[KIND] == RANDOM and \
            uniform(stream, slot + 99) * (n + 1) >= n:
        i = -1  # declining is one more legal choice for the random policy
    if i >= 0:
        apply_move(sheet, faces, moves[i, 0], moves[i, 1], moves[i, 2], pol, stream,
                   slot + 1, scratch)
    plus_ones(sheet, faces, pol, stream, slot + 100, moves, scratch, last_turn)


@njit(cache=True)
def solo_passive(sheet, faces, where, pol, stream, moves, scratch, last_turn, rules):
    """The solo passive turn (section 6): roll all six, the three lowest go to the platter
    (ties at random), use one of them, then +1 actions."""
    where[:] = POOL
    _roll(faces, where, stream, 0)
    order = np.argsort(faces * 16 + (np.arange(N_DICE) * 7 + np.int64(
        uniform(stream, 7) * 6)) % N_DICE, kind="mergesort")
    for k in range(N_DICE):
        where[order[k]] = PLATTER if k < 3 else FIELD
    passive_pick(sheet, faces, where, pol, stream, 8, moves, scratch, last_turn, rules)


@njit(cache=True)
def round_bonus(sheet, rnd, game_rules, pol, stream, scratch):
    """Rounds 1-4 (section 3): re-roll, +1, re-roll, then a choice of black X or black 6
    (random: any option; greedy: the one with the best score after it)."""
    code = game_rules[rnd] if rnd < 6 else 0
    if code == 0:
        return
    if code < 0:
        k = np.int64(uniform(stream, 1) * ROUND4_OPTIONS.shape[0])
        code = ROUND4_OPTIONS[k]
        if pol[KIND] != RANDOM:
            trial = np.empty(SHEET_LEN, np.int64)
            best_v = -np.inf
            for option in ROUND4_OPTIONS:
                trial[:] = sheet
                apply_bonus_chain(trial, option, pol, stream, 2, scratch)
                v = sheet_value(trial, pol)
                if v > best_v:
                    code, best_v = option, v
    apply_bonus_chain(sheet, code, pol, stream, 3, scratch)


@njit(cache=True)
def apply_bonus_chain(sheet, code, pol, stream, slot, scratch):
    """Resolve one bonus and everything it triggers, depth-first."""
    pending = np.zeros(MAX_PENDING, np.int64)
    pending[0] = code
    n = 1
    k = 0
    while n > 0:
        n -= 1
        c = pending[n]
        target = _pick_bonus_target(sheet, c, pol, stream, slot + k, scratch)
        n = resolve_bonus(sheet, c, target, pending, n)
        k += 1


@njit(cache=True)
def finish_solo(key, game, pol, rnd, rounds, game_rules, sheet, faces, where, first_pick,
                scratch, moves):
    """Play a solo game on from round ``rnd`` (0-based): the rest of the active turn from
    ``first_pick`` (3 = the active turn is over; 4 = the passive turn is over too), the
    passive turn, then the remaining rounds. Returns the final score."""
    for r in range(rnd, rounds):
        last = r == rounds - 1
        base = r * 4
        if r > rnd:
            sheet[S_ROUND] = r
            round_bonus(sheet, r, game_rules, pol, turn_stream(key, game, base), scratch)
        start = first_pick if r == rnd else 0
        if start <= 3:  # at 3 no pick is left: the pool goes to the platter, then +1s
            active_turn(sheet, faces, where, pol, turn_stream(key, game, base + 1), moves,
                        scratch, game_rules, start)
        if start < 4:
            solo_passive(sheet, faces, where, pol, turn_stream(key, game, base + 2), moves,
                         scratch, last, game_rules)
    return total_score(sheet)


@njit(cache=True, parallel=True)
def advise_rollouts(sheet, faces, where, moves, pol, rnd, rounds, game_rules, phase, key,
                    n_rollouts, out):
    """Final scores of ``n_rollouts`` solo rollouts after each candidate move.

    ``moves``: int64[m, 3] candidate moves for the dice in ``faces``/``where``; ``phase``:
    the active pick just made (0-2) or 3 for the passive pick. Rollout r of every move uses
    the same random stream (paired). ``out``: float64[m, n_rollouts].
    """
    m = moves.shape[0]
    for job in prange(m * n_rollouts):
        i, r = job // n_rollouts, job % n_rollouts
        s = sheet.copy()
        f = faces.copy()
        w = where.copy()
        scratch = np.empty(SHEET_LEN, np.int64)
        buffer = np.zeros((MAX_MOVES, 3), np.int64)
        stream = turn_stream(key, r, 4095)
        die = moves[i, 0]
        apply_move(s, f, die, moves[i, 1], moves[i, 2], pol, stream, 0, scratch)
        if phase < 3:
            to_field(f, w, die)
        else:
            plus_ones(s, f, pol, stream, 100, buffer, scratch, rnd == rounds - 1)
        out[i, r] = finish_solo(key, r, pol, rnd, rounds, game_rules, s, f, w, phase + 1,
                                scratch, buffer)


@njit(cache=True)
def play_game(key, game, policy, rounds, game_rules, sheets, scratch, moves, faces, where):
    """One game of ``n = policy.shape[0]`` players (``policy``: float64[n, N_POL]) over
    ``rounds`` rounds (section 2: ``ROUNDS_BY_PLAYERS``) with the round-track bonuses
    the game-rules vector ``game_rules`` (int64[N_GAME_RULES]: the round-track bonuses of
    ``layout.ROUND_BONUS``, then the switches); 1 player plays the solo
    game (section 6), more the multiplayer game (sections 4-5). Fills ``sheets``
    (int64[n, SHEET_LEN])."""
    n = policy.shape[0]
    for p in range(n):
        sheets[p, :] = 0
        sheets[p, S_YELLOW] = YELLOW_PREPRINTED
        sheets[p, S_ROUNDS] = rounds
    for rnd in range(rounds):
        base = rnd * (n + 1) * (n + 1)
        for p in range(n):
            sheets[p, S_ROUND] = rnd
            round_bonus(sheets[p], rnd, game_rules, policy[p],
                        turn_stream(key, game, base + p), scratch)
        for a in range(n):
            last = rnd == rounds - 1 and a == n - 1
            turn = base + (a + 1) * (n + 1)
            active_turn(sheets[a], faces, where, policy[a], turn_stream(key, game, turn),
                        moves, scratch, game_rules)
            if n == 1:
                solo_passive(sheets[0], faces, where, policy[0],
                             turn_stream(key, game, turn + 1), moves, scratch, last,
                             game_rules)
                continue
            for p in range(n):
                if p != a:
                    passive_pick(sheets[p], faces, where, policy[p],
                                 turn_stream(key, game, turn + 1 + p), 0, moves, scratch,
                                 last, game_rules)
        if rnd == rounds - 1 and n > 1:
            plus_ones(sheets[n - 1], faces, policy[n - 1], turn_stream(key, game, base + 1),
                      0, moves, scratch, True)


@njit(cache=True)
def award_wins(totals, best_area, wins):
    """Split ``WIN_UNITS``: highest total, then highest single area, then shared."""
    n = totals.shape[0]
    key = totals * 1000 + best_area
    top = key.max()
    tied = 0
    for p in range(n):
        tied += key[p] == top
    for p in range(n):
        wins[p] = WIN_UNITS // tied if key[p] == top else 0


@njit(cache=True)
def games_block(key, n_games, out, lineup, rotate, rounds, game_rules):
    """Play ``n_games`` games into ``out`` (int64[n slots, n seats, COL_HIST + HIST_BINS]);
    ``lineup``: float64[n, N_POL] policies of the slots, moved one seat a game with
    ``rotate``."""
    n = lineup.shape[0]
    sheets = np.empty((n, SHEET_LEN), np.int64)
    scratch = np.empty(SHEET_LEN, np.int64)
    moves = np.zeros((MAX_MOVES, 3), np.int64)
    faces = np.zeros(N_DICE, np.int64)
    where = np.zeros(N_DICE, np.int64)
    seated = np.empty_like(lineup)
    slot_of = np.empty(n, np.int64)
    totals = np.empty(n, np.int64)
    best_area = np.empty(n, np.int64)
    wins = np.empty(n, np.int64)
    scores = np.empty(N_AREAS, np.int64)
    for g in range(n_games):
        shift = g % n if rotate else 0
        for seat in range(n):
            slot_of[seat] = (seat + shift) % n
            seated[seat, :] = lineup[slot_of[seat]]
        play_game(key, g, seated, rounds, game_rules, sheets, scratch, moves, faces, where)
        for p in range(n):
            totals[p] = total_score(sheets[p])
            area_scores(sheets[p], scores)
            best_area[p] = scores.max()
        award_wins(totals, best_area, wins)
        for p in range(n):
            row = out[slot_of[p], p]
            area_scores(sheets[p], scores)
            row[COL_GAMES] += 1
            row[COL_SCORE_SUM] += totals[p]
            row[COL_SCORE_SQ] += totals[p] * totals[p]
            row[COL_WIN_UNITS] += wins[p]
            row[COL_FOXES] += sheets[p, S_FOXES]
            row[COL_FOXES_SQ] += sheets[p, S_FOXES] ** 2
            for a in range(N_AREAS):
                row[COL_AREAS + a] += scores[a]
                row[COL_AREAS_SQ + a] += scores[a] * scores[a]
            for k in range(N_BONUS_KINDS):
                row[COL_BONUSES + k] += sheets[p, S_BONUSES + k]
                row[COL_BONUSES_SQ + k] += sheets[p, S_BONUSES + k] ** 2
            row[COL_HIST + min(totals[p], HIST_BINS - 1)] += 1


@njit(cache=True, parallel=True)
def run_game_blocks(keys, sizes, out, *args):
    """``games_block`` over every block in parallel."""
    for b in prange(keys.shape[0]):
        games_block(keys[b], sizes[b], out[b], *args)


# metrics of one game compared across variants (paired_block)
PAIRED_SCORE_SUM = 0  # all players' scores added up
PAIRED_FIRST_SEAT_WIN = 1
PAIRED_FOXES = 2
N_PAIRED = 3


@njit(cache=True)
def paired_block(key, n_games, out, lineups, rounds, game_rules):
    """Play every game of block ``key`` under each of V variants on the same random
    numbers: ``lineups`` float64[V, n, N_POL], ``rounds`` int64[V], ``game_rules``
    int64[V, 6]; ``out`` int64[V + 1, V, N_PAIRED] (``kernels.accumulate.add_products``)."""
    n_var, n = lineups.shape[0], lineups.shape[1]
    sheets = np.empty((n, SHEET_LEN), np.int64)
    scratch = np.empty(SHEET_LEN, np.int64)
    moves = np.zeros((MAX_MOVES, 3), np.int64)
    faces = np.zeros(N_DICE, np.int64)
    where = np.zeros(N_DICE, np.int64)
    totals = np.empty(n, np.int64)
    best_area = np.empty(n, np.int64)
    wins = np.empty(n, np.int64)
    scores = np.empty(N_AREAS, np.int64)
    x = np.empty((n_var, N_PAIRED), np.int64)
    for g in range(n_games):
        for v in range(n_var):
            play_game(key, g, lineups[v], rounds[v], game_rules[v], sheets, scratch, moves,
                      faces, where)
            foxes = 0
            for p in range(n):
                totals[p] = total_score(sheets[p])
                area_scores(sheets[p], scores)
                best_area[p] = scores.max()
                foxes += sheets[p, S_FOXES]
            award_wins(totals, best_area, wins)
            x[v, PAIRED_SCORE_SUM] = totals.sum()
            x[v, PAIRED_FIRST_SEAT_WIN] = wins[0]
            x[v, PAIRED_FOXES] = foxes
        add_products(out, x)


@njit(cache=True, parallel=True)
def run_paired_blocks(keys, sizes, out, *args):
    """``paired_block`` over every block in parallel."""
    for b in prange(keys.shape[0]):
        paired_block(keys[b], sizes[b], out[b], *args)
