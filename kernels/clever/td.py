"""Self-play training of the learned value (``kernels.clever.learned``) by TD(lambda), for
either Clever game: solo games played by the learned policy itself, the value of the sheet
after every turn (active, then passive) moved towards the next one's, the last towards the
final score. The policy plays with the weights as they are being updated, so one block runs
on one thread; game ``g`` uses the random streams ``turn_stream(key, g, ...)`` alone, so a
run cut into blocks (and resumed from a checkpoint between them) is bit-identical to one
run in one go.
"""

import numpy as np
from numba import njit

from kernels.clever.game_rules import RULE_GAME, RULE_SHEET_FLAGS
from kernels.clever.learned import (
    BUF_LEN,
    add_gradient,
    learned_size,
    learned_value,
    n_features,
)
from kernels.clever.moves import N_DICE
from kernels.clever.play import (
    LOG_LEN,
    MAX_MOVES,
    W_VALUE,
    WORK_LEN,
    active_turn,
    round_bonus,
    solo_passive,
)
from kernels.clever.sheet import H_ROUND, SHEET_LEN
from kernels.clever.sheets import start_sheet, total_score
from kernels.rng import turn_stream

STAT_GAMES, STAT_SCORE, STAT_SCORE_SQ, STAT_TD_SQ, STAT_STEPS = 0, 1, 2, 3, 4
N_STATS = 5


@njit(cache=True)
def _td_step(pol, trace, delta, alpha, size):
    """Move the weights ``pol[W_VALUE:W_VALUE + size]`` by ``alpha * delta * trace``."""
    step = alpha * delta
    for i in range(size):
        pol[W_VALUE + i] += step * trace[i]


@njit(cache=True)
def td_block(key, first_game, n_games, pol, rounds, game_rules, alpha, lam, stats):
    """Play solo games ``first_game .. first_game + n_games - 1`` (streams of ``key``,
    uint64) with the learned policy ``pol`` (float64[N_POL], updated in place) and train
    its value by TD(lambda) with step size ``alpha`` and trace decay ``lam``; adds games,
    score sums, squared TD errors and steps to ``stats`` (float64[N_STATS])."""
    sheet = np.empty(SHEET_LEN, np.int64)
    scratch = np.empty(WORK_LEN, np.int64)
    moves = np.zeros((MAX_MOVES, 3), np.int64)
    faces = np.zeros(N_DICE, np.int64)
    where = np.zeros(N_DICE, np.int64)
    log = np.zeros(LOG_LEN, np.int64)
    buf = np.zeros(BUF_LEN, np.float64)
    start_sheet(sheet, game_rules[RULE_GAME], rounds, game_rules[RULE_SHEET_FLAGS])
    size = pol.shape[0] - W_VALUE
    trace = np.zeros(size, np.float64)
    for g in range(first_game, first_game + n_games):
        start_sheet(sheet, game_rules[RULE_GAME], rounds, game_rules[RULE_SHEET_FLAGS])
        size = learned_size(n_features(sheet))
        trace[:size] = 0.0
        before = 0.0  # the value of the last sheet, before this turn
        for r in range(rounds):
            base = 4 * r
            sheet[H_ROUND] = r
            round_bonus(sheet, r, game_rules, pol, turn_stream(key, g, base), scratch)
            for phase in range(2):
                if phase == 0:
                    active_turn(sheet.reshape((1, SHEET_LEN)), 0, faces, where, pol,
                                turn_stream(key, g, base + 1), moves, scratch, game_rules,
                                log)
                else:
                    solo_passive(sheet, faces, where, pol, turn_stream(key, g, base + 2),
                                 moves, scratch, r == rounds - 1, game_rules)
                last = r == rounds - 1 and phase == 1
                if last:
                    now = float(total_score(sheet))
                else:
                    score, estimate = learned_value(sheet, pol, W_VALUE, buf)
                    now = score + estimate
                if r > 0 or phase > 0:  # a sheet was valued before this turn
                    delta = now - before
                    _td_step(pol, trace, delta, alpha, size)
                    stats[STAT_TD_SQ] += delta * delta
                    stats[STAT_STEPS] += 1
                if not last:
                    for i in range(size):
                        trace[i] *= lam
                    add_gradient(sheet, pol, W_VALUE, buf, 1.0, trace)
                before = now
        final = float(total_score(sheet))
        stats[STAT_GAMES] += 1
        stats[STAT_SCORE] += final
        stats[STAT_SCORE_SQ] += final * final
