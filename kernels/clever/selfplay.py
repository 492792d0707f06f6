"""Self-play training of the value policy's network (``kernels.clever.valued``,
``kernels.clever.net``), for either Clever game: solo games in which every decision
explores with probability epsilon and records the afterstate it chose; after each game,
the forward-view lambda-returns of its afterstates (the last one's is the final score) are
the targets of minibatch Adam steps, in a shuffled order.

The policy plays with the weights as they are being trained, so one block runs on one
thread. Game ``g`` uses the streams ``turn_stream(key, g, ...)`` alone (its exploration
and shuffle streams too), so a run cut into blocks, and resumed from a checkpoint between
them, is bit-identical to one run in one go.

With a teacher weight of 1 in the row (``value_net.P_TEACHER``) the games are played by
the tuned heuristic's values through the value policy's decisions and the network learns
from them (the warm start; lambda 1 makes the targets the final scores).
"""

import numpy as np
from numba import njit

from kernels.clever.game_rules import RULE_GAME, RULE_SHEET_FLAGS
from kernels.clever.net import H1, H2, add_gradient, adam_step, forward, net_size
from kernels.clever.play import (
    W_NET,
    active_turn,
    round_bonus,
    solo_passive,
    work_buffers,
)
from kernels.clever.policies import WORK_LEN
from kernels.clever.sheet import H_ROUND, SHEET_LEN
from kernels.clever.sheets import start_sheet, total_score
from kernels.clever.valued import (
    R_COUNT,
    R_DRAWS,
    R_EPSILON,
    R_HEADER,
    R_STREAM,
    REC_IDX,
    REC_NNZ,
    REC_SCORE,
    REC_STRIDE,
    REC_VAL,
    REC_VALUE,
    TRAIN_LEN,
)
from kernels.clever.value_net import P_INPUTS, P_WEIGHTS, SCALE, member_span
from kernels.rng import turn_stream, uniform

STAT_GAMES, STAT_SCORE, STAT_SCORE_SQ, STAT_ERR_SQ, STAT_SAMPLES = range(5)
N_STATS = 5
EXPLORE_TURN = 4000  # the turn numbers of a game's exploration and shuffle streams
SHUFFLE_TURN = 4001


@njit(cache=True)
def train_block(key, first_game, n_games, pol, rounds, game_rules, adam_m, adam_v, step,
                lr, epsilon, lam, batch, stats):
    """Play and learn from solo games ``first_game ..`` (``n_games``; streams of ``key``,
    uint64) with the value policy ``pol`` (float64[N_POL]; its first member network is
    trained in place). ``adam_m``, ``adam_v``: float32[net_size] Adam moments, ``step``:
    Adam steps taken so far; ``lr`` the step size, ``epsilon`` the exploration rate,
    ``lam`` the lambda of the returns, ``batch`` the minibatch size. Adds games, score
    sums, squared errors (points^2) and samples to ``stats`` (float64[N_STATS]); returns
    the Adam steps taken in all."""
    sheet, scratch0, moves, faces, where, log = work_buffers()
    scratch = np.zeros(WORK_LEN + TRAIN_LEN, np.int64)
    head = scratch[WORK_LEN:WORK_LEN + R_HEADER]
    n_in = np.int64(pol[W_NET + P_INPUTS])
    size = net_size(n_in)
    first = W_NET + P_WEIGHTS
    w = pol[first:first + member_span(n_in)].view(np.float32)[:size]
    grad = np.zeros(size, np.float32)
    a1 = np.zeros(H1, np.float32)
    a2 = np.zeros(H2, np.float32)
    d2 = np.zeros(H2, np.float32)
    targets = np.zeros(512, np.float64)
    order = np.zeros(512, np.int64)
    records = scratch[WORK_LEN + R_HEADER:]
    for g in range(first_game, first_game + n_games):
        start_sheet(sheet, game_rules[RULE_GAME], rounds, game_rules[RULE_SHEET_FLAGS])
        head[R_COUNT] = 0
        head[R_STREAM:R_STREAM + 1].view(np.uint64)[0] = turn_stream(key, g, EXPLORE_TURN)
        head[R_DRAWS] = 0
        head[R_EPSILON:R_EPSILON + 1].view(np.float64)[0] = epsilon
        for r in range(rounds):
            base = 4 * r
            sheet[H_ROUND] = r
            round_bonus(sheet, r, game_rules, pol, turn_stream(key, g, base), scratch)
            active_turn(sheet.reshape((1, SHEET_LEN)), 0, faces, where, pol,
                        turn_stream(key, g, base + 1), moves, scratch, game_rules, log)
            solo_passive(sheet, faces, where, pol, turn_stream(key, g, base + 2), moves,
                         scratch, r == rounds - 1, game_rules, log)
        final = float(total_score(sheet))
        stats[STAT_GAMES] += 1
        stats[STAT_SCORE] += final
        stats[STAT_SCORE_SQ] += final * final
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
            j = np.int64(uniform(shuffle, t) * (t + 1))
            order[t], order[j] = order[j], order[t]
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
