"""Self-play training of the value policy's network (``kernels.clever.valued``,
``kernels.clever.net``), for either Clever game: games of 1-4 players, the network in
every seat, in which every decision explores with probability epsilon and records the
afterstate it chose; after each game, the forward-view lambda-returns of each seat's
afterstates (the last one's is that seat's final score) are the targets of minibatch Adam
steps, in a shuffled order, seat after seat. Each game's player count is drawn from the
curriculum's shares (``C_PLAYERS``; none: solo), its rounds follow the player count.
The row's one network learns, and its skip head with it where the run says so.

Games are played in snapshots of ``snapshot`` games: the games of a snapshot are played
in parallel with the weights as they were at its start, then learnt from one after
another in game order (a snapshot of 1 plays every game with the weights of all the
games before it). Game ``g`` uses the streams ``turn_stream(key, g, ...)`` alone (its
exploration, curriculum and shuffle streams too), so the weights are bit-identical for
any thread count, and a run cut into blocks (of whole snapshots) and resumed from a
checkpoint between them is bit-identical to one run in one go.

A curriculum (float64[N_CURRICULUM]) shapes the behaviour of the training games, never
their targets: ``C_CAP_AREA`` (an area whose dice are capped, or -1), ``C_CAP`` (the most
dice put there per game), ``C_SPOT_SHARE`` (the share of games played with the spotlight)
and ``C_SPOT_BIAS`` (its bias: points per point of the lowest area plus the fox points, or
per point of one area drawn per game from the bit mask ``C_SPOT_AREAS`` when it is not 0),
and the shares of games of 1-4 players (``C_PLAYERS`` on); with ``C_PER_GAME`` set, each
seat of a game of ``n`` players learns with weight ``1 / n``.

With a teacher weight of 1 in the row (``value_net.P_TEACHER``) the games are played by
the tuned heuristic's values through the value policy's decisions and the network learns
from them (the warm start; lambda 1 makes the targets the final scores).
"""

import numpy as np
from numba import prange

from kernels.clever_base.game_rules import RULE_PLAYERS, RULE_ROUNDS
from kernels.clever.net import H2, MAX_H1, adam_step, add_gradient, forward, net_size
from kernels.clever.play import LOG_LEN, W_NET, finish_solo, play_game, round_bonus, work_buffers
from kernels.clever.policies import WORK_LEN, new_game_work
from kernels.clever_base.sheet import H_EVENT, H_ROUND, SHEET_LEN
from kernels.clever.sheets import start_game_sheet, total_score
from kernels.clever_base.seats import N_SEAT
from kernels.clever.value_net import (P_INPUTS, P_MEMBERS, N_SKIP, P_SKIP, SCALE, hidden_of,
                                      member_weights, seat_first, skip_slot, skip_output)
from kernels.clever.valued import (MAX_RECORDS, R_CAP, R_CAP_AREA, R_CAPPED_USED, R_CHOSEN_AREA,
                                   R_COUNT, R_DRAWS, R_EPSILON, R_HEADER, R_SPOT_AREA, R_SPOTLIGHT,
                                   R_STREAM, REC_IDX, REC_NNZ, REC_SCORE, REC_STRIDE, REC_VAL,
                                   REC_VALUE, TRAIN_LEN)
from kernels.jit import njit
from kernels.rng import turn_stream, uniform

MAX_PLAYERS = 4

STAT_GAMES, STAT_SCORE, STAT_SCORE_SQ, STAT_ERR_SQ, STAT_SAMPLES, STAT_CAPPED = range(6)
N_STATS = 6
C_CAP_AREA, C_CAP, C_SPOT_SHARE, C_SPOT_BIAS, C_SPOT_AREAS = range(5)
C_PLAYERS = 5  # + players - 1: the share of games of 1-4 players (all 0: solo only)
C_PER_GAME = C_PLAYERS + MAX_PLAYERS  # 1: each seat of a game of n players learns with
# weight 1 / n, so that every game weighs the same whatever its player count
N_CURRICULUM = C_PER_GAME + 1
EXPLORE_TURN = 4000  # the turn numbers of a game's exploration, shuffle and curriculum
SHUFFLE_TURN = 4001  # streams (seat 0; seat p > 0: SEAT_EXPLORE_TURN + p and
CURRICULUM_TURN = 4002  # SEAT_SHUFFLE_TURN + p)
SEAT_EXPLORE_TURN = 4010
SEAT_SHUFFLE_TURN = 4020
GAME_LEN = WORK_LEN + TRAIN_LEN  # one player's work buffer and records in a training game


@njit(cache=True)
def no_curriculum():
    """A curriculum (float64[N_CURRICULUM]) that leaves the behaviour alone."""
    curriculum = np.zeros(N_CURRICULUM)
    curriculum[C_CAP_AREA] = -1
    return curriculum


@njit(cache=True, _nrt=False)
def spot_area(areas, u):
    """The area a spotlight game favours: one of the bit mask ``areas`` picked by the
    uniform number ``u``; -1 (the lowest area and the fox points) when the mask is 0."""
    count = 0
    for a in range(63):
        count += (areas >> a) & 1
    if count == 0:
        return -1
    pick = min(np.int64(u * count), count - 1)
    for a in range(63):
        if (areas >> a) & 1:
            if pick == 0:
                return a
            pick -= 1
    return -1


@njit(cache=True, _nrt=False)
def players_of(key, g, curriculum):
    """The player count of training game ``g``: drawn by the curriculum's shares of 1-4
    players (all 0: solo)."""
    shares = curriculum[C_PLAYERS:C_PLAYERS + MAX_PLAYERS]
    total = shares.sum()
    if total <= 0.0:
        return 1
    u = uniform(turn_stream(key, g, np.int64(CURRICULUM_TURN)), np.int64(2)) * total
    for n in range(MAX_PLAYERS - 1):
        u -= shares[n]
        if u < 0.0:
            return n + 1
    return MAX_PLAYERS


@njit(cache=True)
def _start_records(key, g, seat, epsilon, curriculum, scratch):
    """Set up the training header of seat ``seat``'s work buffer ``scratch``
    (int64[GAME_LEN]) for game ``g``: no records, its exploration stream, the curriculum
    (the spotlight is drawn once a game: the same for every seat)."""
    head = scratch[WORK_LEN:WORK_LEN + R_HEADER]
    head[R_COUNT] = 0
    explore = EXPLORE_TURN if seat == 0 else SEAT_EXPLORE_TURN + seat
    head[R_STREAM:R_STREAM + 1].view(np.uint64)[0] = turn_stream(key, g, explore)
    head[R_DRAWS] = 0
    head[R_EPSILON:R_EPSILON + 1].view(np.float64)[0] = epsilon
    head[R_CAP_AREA] = np.int64(curriculum[C_CAP_AREA])
    head[R_CAP] = np.int64(curriculum[C_CAP])
    head[R_CAPPED_USED] = 0
    head[R_CHOSEN_AREA] = -1
    stream = turn_stream(key, g, np.int64(CURRICULUM_TURN))
    spot = uniform(stream, np.int64(0)) < curriculum[C_SPOT_SHARE]
    head[R_SPOTLIGHT:R_SPOTLIGHT + 1].view(np.float64)[0] = \
        curriculum[C_SPOT_BIAS] if spot else 0.0
    head[R_SPOT_AREA] = spot_area(np.int64(curriculum[C_SPOT_AREAS]), uniform(stream, np.int64(1)))


@njit(cache=True, _nrt=False)
def variant_of(key, g, n_variants):
    """The row of the variant table training game ``g`` plays (uniform; 0 for a table of
    one row, with no draw)."""
    if n_variants <= 1:
        return 0
    u = uniform(turn_stream(key, g, np.int64(CURRICULUM_TURN)), np.int64(3))
    return min(np.int64(u * n_variants), n_variants - 1)


@njit(cache=True)
def _play(key, g, pol, rounds_of, variants, epsilon, curriculum, scratches, finals):
    """Play training game ``g``, each seat with its own work buffer (``scratches``
    int64[MAX_PLAYERS, GAME_LEN], which keep its records) and the policy row ``pol``,
    under a row of the variant table ``variants`` (int64[V, N_GAME_RULES], ``variant_of``;
    its ``RULE_ROUNDS``, else ``rounds_of[players]``, gives the rounds; its ``RULE_PLAYERS``,
    else the curriculum, the player count); the seats' final
    scores into ``finals`` (int64[MAX_PLAYERS]). Returns the player count (solo: the solo
    loop; 2-4: ``play.play_game``)."""
    game_rules = variants[variant_of(key, g, variants.shape[0])]
    players = game_rules[RULE_PLAYERS] if game_rules[RULE_PLAYERS] > 0 \
        else players_of(key, g, curriculum)
    rounds = game_rules[RULE_ROUNDS] if game_rules[RULE_ROUNDS] > 0 else rounds_of[players]
    for p in range(players):
        _start_records(key, g, p, epsilon, curriculum, scratches[p])
    if players == 1:
        finals[0] = _play_solo(key, g, pol, rounds, game_rules, scratches[0])
        return 1
    sheets = np.empty((players, SHEET_LEN), np.int64)
    logs = np.zeros((players, LOG_LEN), np.int64)
    _, _, moves, faces, where, _ = work_buffers()
    play_game(key, g, pol.reshape((1, pol.shape[0])), rounds, game_rules,
              sheets, scratches[:players], moves, faces, where, logs)
    for p in range(players):
        finals[p] = total_score(sheets[p])
    return players


@njit(cache=True)
def _play_solo(key, g, pol, rounds, game_rules, scratch):
    """Play solo training game ``g`` with the work buffer ``scratch`` (its records set up
    by ``_start_records``); returns its final score."""
    sheet, _, moves, faces, where, log = work_buffers()
    new_game_work(scratch)
    start_game_sheet(sheet, game_rules, rounds, np.int64(1))
    sheet[H_ROUND] = 0
    sheet[H_EVENT] = -1
    round_bonus(sheet, np.int64(0), game_rules, pol, turn_stream(key, g, np.int64(0)), scratch)
    return finish_solo(key, g, pol, np.int64(0), rounds, game_rules, sheet, faces, where,
                       np.int64(0), scratch,
                       moves, log)


@njit(cache=True, parallel=True)
def play_snapshot(key, first_game, pol, rounds_of, variants, epsilon, curriculum, games,
                  finals, players):
    """Play training games ``first_game ..`` (one per row of ``games``, int64[k,
    MAX_PLAYERS, GAME_LEN], which keep their seats' records) in parallel with the policy
    row ``pol`` as it is, each under a row of ``variants`` (``_play``); their seats' final
    scores into ``finals`` (int64[k, MAX_PLAYERS]) and their player counts into
    ``players`` (int64[k])."""
    for j in prange(games.shape[0]):
        players[j] = _play(key, first_game + j, pol, rounds_of, variants, epsilon,
                           curriculum, games[j], finals[j])


@njit(cache=True, _nrt=False)
def skip_step(pol, skip_grad, moments, t, lr):
    """One Adam step of the row's skip head (``value_net.P_SKIP``) along ``skip_grad``
    (float64[N_SKIP], left zeroed); ``moments`` float64[2, N_SKIP]; ``t`` the step
    (1-based)."""
    c1 = 1.0 - 0.9 ** t
    c2 = 1.0 - 0.999 ** t
    for i in range(N_SKIP):
        g = skip_grad[i]
        moments[0, i] = 0.9 * moments[0, i] + 0.1 * g
        moments[1, i] = 0.999 * moments[1, i] + 0.001 * g * g
        pol[W_NET + P_SKIP + i] -= lr * (moments[0, i] / c1) / (
            np.sqrt(moments[1, i] / c2) + 1e-8)
        skip_grad[i] = 0.0


@njit(cache=True, _nrt=False)
def _skip_gradient(n_in, idx, val, nnz, err, skip_grad):
    """``skip_grad += err * d(output)/d(skip head)``: the seat and rules blocks' inputs."""
    for k in range(nnz):
        slot = skip_slot(n_in, idx[k])
        if slot >= 0:
            skip_grad[slot] += err * val[k]


@njit(cache=True, _nrt=False)
def _returns(records, k, goal, lam, targets):
    """The forward-view lambda-returns of the ``k`` chosen records, in ``SCALE`` points
    to come, into ``targets``: ``G_t = (1 - lam) V(t + 1) + lam G_(t + 1)``, the last
    record's the value ``goal``."""
    ret = goal
    for t in range(k - 1, -1, -1):
        rec = records[t * REC_STRIDE:(t + 1) * REC_STRIDE]
        targets[t] = (ret - rec[REC_SCORE]) / SCALE
        value = rec[REC_VALUE:REC_VALUE + 1].view(np.float64)[0]
        ret = (1.0 - lam) * value + lam * ret


@njit(cache=True)
def _learn_seat(key, g, seat, players, pol, w, n_in, scratch, final, adam_m, adam_v, step,
                lr, lam, batch, stats, grad, a1, a2, d2, targets, order, skip_moments,
                skip_grad, skip_learns, weight):
    """Learn from one seat's records of game ``g`` of ``players`` (its work buffer
    ``scratch``, its final score ``final``): lambda-returns, then shuffled minibatch Adam
    steps on the weights ``w`` of the row ``pol``, its one member, and, with
    ``skip_learns`` in a game of 2-4 players or with the rules block, on the row's skip
    head (``skip_moments`` float64[2, N_SKIP], ``skip_grad`` float64[N_SKIP] work space);
    ``weight`` scales its gradients; returns the Adam steps taken in all."""
    head = scratch[WORK_LEN:WORK_LEN + R_HEADER]
    records = scratch[WORK_LEN + R_HEADER:]
    skip_learns = skip_learns and (players > 1 or seat_first(n_in) + N_SEAT < n_in)
    stats[STAT_GAMES] += 1
    stats[STAT_SCORE] += final
    stats[STAT_SCORE_SQ] += final * final
    stats[STAT_CAPPED] += head[R_CAPPED_USED]
    n = head[R_COUNT]
    _returns(records, n, final, lam, targets)
    shuffle = turn_stream(key, g, SHUFFLE_TURN if seat == 0 else SEAT_SHUFFLE_TURN + seat)
    for t in range(n):
        order[t] = t
    for t in range(n - 1, 0, -1):
        i = np.int64(uniform(shuffle, t) * (t + 1))
        order[t], order[i] = order[i], order[t]
    for b0 in range(0, n, batch):
        b1 = min(b0 + batch, n)
        for q in range(b0, b1):
            t = order[q]
            rec = records[t * REC_STRIDE:(t + 1) * REC_STRIDE]
            idx = rec[REC_IDX:REC_VAL]
            val = rec[REC_VAL:REC_STRIDE].view(np.float32)
            nnz = rec[REC_NNZ]
            out = forward(w, n_in, idx, val, nnz, a1, a2) \
                + skip_output(pol, np.int64(W_NET), n_in, idx, val, nnz)
            err = out - targets[t]
            stats[STAT_ERR_SQ] += err * err * SCALE * SCALE
            stats[STAT_SAMPLES] += 1
            add_gradient(w, n_in, idx, val, nnz, a1, a2,
                         np.float32(weight * err / (b1 - b0)), grad, d2)
            if skip_learns:
                _skip_gradient(n_in, idx, val, nnz, weight * err / (b1 - b0), skip_grad)
        step += 1
        adam_step(w, grad, adam_m, adam_v, step, lr)
        if skip_learns:
            skip_step(pol, skip_grad, skip_moments, step, lr)
    return step


@njit(cache=True)
def learn_snapshot(key, first_game, pol, games, finals, players, adam_m, adam_v, step, lr,
                   lam, batch, stats, grad, a1, a2, d2, targets, order, skip_moments,
                   skip_grad, skip_learns, per_game):
    """Learn from the played games of ``play_snapshot`` in game order, seat after seat
    (see ``train_block`` for the arguments; ``per_game``: each seat of a game of ``n``
    players weighs ``1 / n``; the rest is work space); returns the Adam steps taken in
    all."""
    n_in = np.int64(pol[W_NET + P_INPUTS])
    w = member_weights(pol, np.int64(W_NET), n_in, np.int64(0))
    for j in range(games.shape[0]):
        n = players[j]
        share = 1.0 / n if per_game else 1.0
        for p in range(n):
            step = _learn_seat(key, first_game + j, p, n, pol, w, n_in, games[j, p],
                               float(finals[j, p]), adam_m, adam_v, step, lr, lam, batch,
                               stats, grad, a1, a2, d2, targets, order, skip_moments,
                               skip_grad, skip_learns, share)
    return step


@njit(cache=True)
def train_block(key, first_game, n_games, pol, rounds_of, variants, adam_m, adam_v, step,
                lr, epsilon, lam, batch, stats, snapshot, curriculum, skip_moments,
                skip_learns):
    """Play and learn from games ``first_game ..`` (``n_games``, a multiple of
    ``snapshot`` unless it ends the run; streams of ``key``, uint64) with the value policy
    ``pol`` (float64[N_POL] of one member network, trained in place) in every seat;
    ``rounds_of``: int64[MAX_PLAYERS + 1] rounds by player count; ``variants``
    int64[V, N_GAME_RULES] the rules each game draws from (one row: fixed rules; its
    ``RULE_ROUNDS`` > 0 sets the rounds for every player count, its ``RULE_PLAYERS`` > 0
    the player count).
    ``adam_m``, ``adam_v``: float32[net_size] Adam moments (of the row's width),
    ``step``: Adam steps taken so far; ``lr`` the step size, ``epsilon`` the exploration
    rate, ``lam`` the lambda of the returns, ``batch`` the minibatch size, ``snapshot``
    the games played with one set of weights, ``curriculum`` float64[N_CURRICULUM]
    (``no_curriculum()``: none; its ``C_PLAYERS`` shares give each game's player count),
    ``skip_moments`` float64[2, N_SKIP] the Adam moments of the row's skip head
    (``value_net.P_SKIP``), which learns in games of 2-4 players (and with the rules
    block, in every game) with ``skip_learns``. Adds seat-games, score sums, squared
    errors (points^2), samples and dice put into a capped area to ``stats``
    (float64[N_STATS]); returns the Adam steps taken in all."""
    grad = np.zeros(net_size(np.int64(pol[W_NET + P_INPUTS]), hidden_of(pol, np.int64(W_NET))),
                    np.float32)
    a1 = np.zeros(MAX_H1, np.float32)
    a2 = np.zeros(H2, np.float32)
    d2 = np.zeros(H2, np.float32)
    targets = np.zeros(MAX_RECORDS, np.float64)
    order = np.zeros(MAX_RECORDS, np.int64)
    if skip_moments.shape[1] != N_SKIP:
        raise ValueError("skip_moments must be float64[2, N_SKIP]")
    if pol[W_NET + P_MEMBERS] != 1:
        raise ValueError("a training row holds one network")
    skip_grad = np.zeros(N_SKIP)
    seats = max(1, variants[:, RULE_PLAYERS].max())
    for n in range(MAX_PLAYERS):
        if curriculum[C_PLAYERS + n] > 0.0:
            seats = max(seats, n + 1)
    games = np.zeros((min(snapshot, n_games), seats, GAME_LEN), np.int64)
    finals = np.zeros((games.shape[0], MAX_PLAYERS), np.int64)
    players = np.zeros(games.shape[0], np.int64)
    per_game = curriculum[C_PER_GAME] > 0.0
    for g0 in range(first_game, first_game + n_games, snapshot):
        k = min(snapshot, first_game + n_games - g0)
        play_snapshot(key, g0, pol, rounds_of, variants, epsilon, curriculum, games[:k],
                      finals[:k], players[:k])
        step = learn_snapshot(key, g0, pol, games[:k], finals[:k], players[:k], adam_m,
                              adam_v, step, lr, lam, batch, stats, grad, a1, a2, d2,
                              targets, order, skip_moments, skip_grad, skip_learns,
                              per_game)
    return step
