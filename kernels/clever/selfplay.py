"""Self-play training of the value policy's network (``kernels.clever.valued``,
``kernels.clever.net``), for either Clever game: solo games in which every decision
explores with probability epsilon and records the afterstate it chose; after each game,
the forward-view lambda-returns of its afterstates (the last one's is the final score) are
the targets of minibatch Adam steps, in a shuffled order.

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
per point of one area drawn per game from the bit mask ``C_SPOT_AREAS`` when it is not 0).

With a teacher weight of 1 in the row (``value_net.P_TEACHER``) the games are played by
the tuned heuristic's values through the value policy's decisions and the network learns
from them (the warm start; lambda 1 makes the targets the final scores).
"""

import numpy as np
from numba import prange

from kernels.clever.game_rules import RULE_GAME, RULE_SHEET_FLAGS
from kernels.clever.net import H1, H2, adam_step, add_gradient, forward, net_size
from kernels.clever.play import W_NET, finish_solo, round_bonus, work_buffers
from kernels.clever.policies import WORK_LEN
from kernels.clever.sheet import H_ROUND
from kernels.clever.sheets import start_sheet
from kernels.clever.value_net import P_INPUTS, P_WEIGHTS, SCALE, member_span
from kernels.clever.valued import (
    MAX_RECORDS,
    R_CAP,
    R_CAP_AREA,
    R_CAPPED_USED,
    R_CHOSEN_AREA,
    R_COUNT,
    R_DRAWS,
    R_EPSILON,
    R_HEADER,
    R_SPOT_AREA,
    R_SPOTLIGHT,
    R_STREAM,
    REC_IDX,
    REC_NNZ,
    REC_SCORE,
    REC_STRIDE,
    REC_VAL,
    REC_VALUE,
    TRAIN_LEN,
)
from kernels.jit import njit
from kernels.rng import turn_stream, uniform

STAT_GAMES, STAT_SCORE, STAT_SCORE_SQ, STAT_ERR_SQ, STAT_SAMPLES, STAT_CAPPED = range(6)
N_STATS = 6
C_CAP_AREA, C_CAP, C_SPOT_SHARE, C_SPOT_BIAS, C_SPOT_AREAS = range(5)
N_CURRICULUM = 5
EXPLORE_TURN = 4000  # the turn numbers of a game's exploration, shuffle and curriculum
SHUFFLE_TURN = 4001  # streams
CURRICULUM_TURN = 4002
GAME_LEN = WORK_LEN + TRAIN_LEN  # one training game's work buffer and records


@njit(cache=True)
def no_curriculum():
    """A curriculum (float64[N_CURRICULUM]) that leaves the behaviour alone."""
    curriculum = np.zeros(N_CURRICULUM)
    curriculum[C_CAP_AREA] = -1
    return curriculum


@njit(cache=True)
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


@njit(cache=True)
def _play(key, g, pol, rounds, game_rules, epsilon, curriculum, scratch):
    """Play training game ``g`` with the work buffer ``scratch`` (int64[GAME_LEN]), which
    keeps its records; returns its final score."""
    sheet, _, moves, faces, where, log = work_buffers()
    head = scratch[WORK_LEN:WORK_LEN + R_HEADER]
    start_sheet(sheet, game_rules[RULE_GAME], rounds, game_rules[RULE_SHEET_FLAGS])
    head[R_COUNT] = 0
    head[R_STREAM:R_STREAM + 1].view(np.uint64)[0] = turn_stream(key, g, EXPLORE_TURN)
    head[R_DRAWS] = 0
    head[R_EPSILON:R_EPSILON + 1].view(np.float64)[0] = epsilon
    head[R_CAP_AREA] = np.int64(curriculum[C_CAP_AREA])
    head[R_CAP] = np.int64(curriculum[C_CAP])
    head[R_CAPPED_USED] = 0
    head[R_CHOSEN_AREA] = -1
    stream = turn_stream(key, g, CURRICULUM_TURN)
    spot = uniform(stream, 0) < curriculum[C_SPOT_SHARE]
    head[R_SPOTLIGHT:R_SPOTLIGHT + 1].view(np.float64)[0] = \
        curriculum[C_SPOT_BIAS] if spot else 0.0
    head[R_SPOT_AREA] = spot_area(np.int64(curriculum[C_SPOT_AREAS]), uniform(stream, 1))
    sheet[H_ROUND] = 0
    round_bonus(sheet, 0, game_rules, pol, turn_stream(key, g, 0), scratch)
    return finish_solo(key, g, pol, 0, rounds, game_rules, sheet, faces, where, 0, scratch,
                       moves, log)


@njit(cache=True, parallel=True)
def play_snapshot(key, first_game, pol, rounds, game_rules, epsilon, curriculum, games,
                  finals):
    """Play training games ``first_game ..`` (one per row of ``games``, int64[k,
    GAME_LEN], which keep their records) in parallel with the policy row ``pol`` as it is;
    their final scores into ``finals`` (int64[k])."""
    for j in prange(games.shape[0]):
        finals[j] = _play(key, first_game + j, pol, rounds, game_rules, epsilon, curriculum,
                          games[j])


@njit(cache=True)
def learn_snapshot(key, first_game, pol, games, finals, adam_m, adam_v, step, lr, lam,
                   batch, stats, grad, a1, a2, d2, targets, order):
    """Learn from the played games of ``play_snapshot`` in game order (see ``train_block``
    for the arguments; the rest is work space); returns the Adam steps taken in all."""
    n_in = np.int64(pol[W_NET + P_INPUTS])
    size = net_size(n_in)
    first = W_NET + P_WEIGHTS
    w = pol[first:first + member_span(n_in)].view(np.float32)[:size]
    for j in range(games.shape[0]):
        g = first_game + j
        head = games[j, WORK_LEN:WORK_LEN + R_HEADER]
        records = games[j, WORK_LEN + R_HEADER:]
        final = float(finals[j])
        stats[STAT_GAMES] += 1
        stats[STAT_SCORE] += final
        stats[STAT_SCORE_SQ] += final * final
        stats[STAT_CAPPED] += head[R_CAPPED_USED]
        k = head[R_COUNT]
        # forward-view lambda-returns: G_t = (1 - lam) V(t + 1) + lam G_(t + 1)
        ret = final
        for t in range(k - 1, -1, -1):
            rec = records[t * REC_STRIDE:(t + 1) * REC_STRIDE]
            targets[t] = (ret - rec[REC_SCORE]) / SCALE
            value = rec[REC_VALUE:REC_VALUE + 1].view(np.float64)[0]
            ret = (1.0 - lam) * value + lam * ret
            order[t] = t
        shuffle = turn_stream(key, g, SHUFFLE_TURN)
        for t in range(k - 1, 0, -1):
            i = np.int64(uniform(shuffle, t) * (t + 1))
            order[t], order[i] = order[i], order[t]
        for b0 in range(0, k, batch):
            b1 = min(b0 + batch, k)
            for q in range(b0, b1):
                t = order[q]
                rec = records[t * REC_STRIDE:(t + 1) * REC_STRIDE]
                idx = rec[REC_IDX:REC_VAL]
                val = rec[REC_VAL:REC_STRIDE].view(np.float32)
                nnz = rec[REC_NNZ]
                out = forward(w, n_in, idx, val, nnz, a1, a2)
                err = out - targets[t]
                stats[STAT_ERR_SQ] += err * err * SCALE * SCALE
                stats[STAT_SAMPLES] += 1
                add_gradient(w, n_in, idx, val, nnz, a1, a2, np.float32(err / (b1 - b0)),
                             grad, d2)
            step += 1
            adam_step(w, grad, adam_m, adam_v, step, lr)
    return step


@njit(cache=True)
def train_block(key, first_game, n_games, pol, rounds, game_rules, adam_m, adam_v, step,
                lr, epsilon, lam, batch, stats, snapshot, curriculum):
    """Play and learn from solo games ``first_game ..`` (``n_games``, a multiple of
    ``snapshot`` unless it ends the run; streams of ``key``, uint64) with the value policy
    ``pol`` (float64[N_POL]; its first member network is trained in place).
    ``adam_m``, ``adam_v``: float32[net_size] Adam moments, ``step``: Adam steps taken so
    far; ``lr`` the step size, ``epsilon`` the exploration rate, ``lam`` the lambda of the
    returns, ``batch`` the minibatch size, ``snapshot`` the games played with one set of
    weights, ``curriculum`` float64[N_CURRICULUM] (``no_curriculum()``: none). Adds
    games, score sums, squared errors (points^2), samples and dice put into a capped area
    to ``stats`` (float64[N_STATS]); returns the Adam steps taken in all."""
    grad = np.zeros(net_size(np.int64(pol[W_NET + P_INPUTS])), np.float32)
    a1 = np.zeros(H1, np.float32)
    a2 = np.zeros(H2, np.float32)
    d2 = np.zeros(H2, np.float32)
    targets = np.zeros(MAX_RECORDS, np.float64)
    order = np.zeros(MAX_RECORDS, np.int64)
    games = np.zeros((min(snapshot, n_games), GAME_LEN), np.int64)
    finals = np.zeros(games.shape[0], np.int64)
    for g0 in range(first_game, first_game + n_games, snapshot):
        k = min(snapshot, first_game + n_games - g0)
        play_snapshot(key, g0, pol, rounds, game_rules, epsilon, curriculum, games[:k],
                      finals[:k])
        step = learn_snapshot(key, g0, pol, games[:k], finals[:k], adam_m, adam_v, step,
                              lr, lam, batch, stats, grad, a1, a2, d2, targets, order)
    return step
