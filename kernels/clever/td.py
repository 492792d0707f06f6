"""Self-play training of the learned value (``kernels.clever.learned``) by TD(lambda), for
either Clever game: solo games played by the learned policy itself, the value of the sheet
after every decision the play loop makes (each pick with its bonuses, the +1s, a round's
bonus) moved towards the next one's, the last towards the final score. The policy plays
with the weights as they are being updated, so one block runs on one thread; game ``g``
uses the random streams ``turn_stream(key, g, ...)`` alone, so a run cut into blocks (and
resumed from a checkpoint between them) is bit-identical to one run in one go.
"""

import numpy as np
from numba import njit

from kernels.clever.game_rules import RULE_GAME, RULE_SHEET_FLAGS
from kernels.clever.learned import (
    BUF_LEN,
    TD_ALPHA,
    TD_HEADER,
    TD_LAMBDA,
    TD_SQ,
    TD_STARTED,
    TD_STEPS,
    TD_TRACE,
    learned_size,
    td_observe,
)
from kernels.clever.play import (
    N_POL,
    W_VALUE,
    active_turn,
    observe,
    round_bonus,
    solo_passive,
    work_buffers,
)
from kernels.clever.sheet import H_ROUND, SHEET_LEN, TAC
from kernels.clever.sheets import start_sheet, total_score
from kernels.rng import turn_stream
from kernels.thats_pretty_clever.value import N_FEATURES as TPC_FEATURES
from kernels.twice_as_clever.value import N_FEATURES as TAC_FEATURES

STAT_GAMES, STAT_SCORE, STAT_SCORE_SQ, STAT_TD_SQ, STAT_STEPS = 0, 1, 2, 3, 4
N_STATS = 5


@njit(cache=True)
def td_block(key, first_game, n_games, pol, rounds, game_rules, alpha, lam, stats):
    """Play solo games ``first_game .. first_game + n_games - 1`` (streams of ``key``,
    uint64) with the learned policy ``pol`` (float64[N_POL], its weights updated in place)
    and train its value by TD(lambda) with step size ``alpha`` and trace decay ``lam``;
    adds games, score sums, squared TD errors and TD steps to ``stats`` (float64[N_STATS])."""
    sheet, scratch, moves, faces, where, log = work_buffers()
    buf = np.zeros(BUF_LEN, np.float64)
    size = learned_size(TAC_FEATURES if game_rules[RULE_GAME] == TAC else TPC_FEATURES)
    row = np.zeros(N_POL + TD_HEADER + size)  # the training row: policy, TD state, trace
    row[:N_POL] = pol
    row[N_POL + TD_ALPHA] = alpha
    row[N_POL + TD_LAMBDA] = lam
    for g in range(first_game, first_game + n_games):
        start_sheet(sheet, game_rules[RULE_GAME], rounds, game_rules[RULE_SHEET_FLAGS])
        row[N_POL + TD_STARTED] = 0.0
        row[N_POL + TD_TRACE:] = 0.0
        for r in range(rounds):
            base = 4 * r
            sheet[H_ROUND] = r
            round_bonus(sheet, r, game_rules, row, turn_stream(key, g, base), scratch)
            if r < 6 and game_rules[r] != 0:  # the round's bonus changed the sheet
                observe(sheet, row, scratch, 0)
            active_turn(sheet.reshape((1, SHEET_LEN)), 0, faces, where, row,
                        turn_stream(key, g, base + 1), moves, scratch, game_rules, log)
            solo_passive(sheet, faces, where, row, turn_stream(key, g, base + 2), moves,
                         scratch, r == rounds - 1, game_rules, log)
        final = float(total_score(sheet))
        td_observe(sheet, row, W_VALUE, N_POL, buf, 0, final)
        stats[STAT_GAMES] += 1
        stats[STAT_SCORE] += final
        stats[STAT_SCORE_SQ] += final * final
    stats[STAT_TD_SQ] += row[N_POL + TD_SQ]
    stats[STAT_STEPS] += row[N_POL + TD_STEPS]
    pol[:] = row[:N_POL]
