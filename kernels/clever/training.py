"""Training samples for the heuristic's value weights, for either Clever game: solo games
played by a policy, with the sheet's value features (``sheets.feature_value``, the game's
``value`` module), score and stage recorded after every turn and the game's final score.
"""

import numpy as np

from kernels.clever.play import active_turn, round_bonus, solo_passive, work_buffers
from kernels.clever_base.sheet import H_ROUND, SHEET_LEN, TAC
from kernels.clever.sheets import feature_value, start_game_sheet, total_score, value_stage
from kernels.jit import njit
from kernels.rng import turn_stream
from kernels.thats_pretty_clever import value as tpc_value
from kernels.twice_as_clever import value as tac_value

NO_FEATURES = np.zeros(0, np.float64)


def n_features(game: int) -> int:
    """How many value features a sheet of ``game`` (TPC or TAC) records."""
    return tac_value.N_FEATURES if game == TAC else tpc_value.N_FEATURES


def value_stages(game: int) -> int:
    """How many weight sets (stages) the value of ``game`` has."""
    return tac_value.VALUE_STAGES if game == TAC else tpc_value.VALUE_STAGES


@njit(cache=True, _nrt=False)
def _record(sheet, features, score, stage, row):
    features[row, :] = 0.0
    score[row], _ = feature_value(sheet, NO_FEATURES, features[row])
    stage[row] = value_stage(sheet)


@njit(cache=True, nogil=True)
def solo_samples_block(key, n_games, pol, rounds, game_rules, features, score, stage, final):
    """Play ``n_games`` solo games of the game ``game_rules[RULE_GAME]`` with policy ``pol``
    (float64[N_POL]); per game ``2 * rounds`` rows (after each active and each passive turn)
    of ``features`` (float64[rows, the game's N_FEATURES]), ``score``, ``stage``
    (int64[rows]) and the game's ``final`` score (int64[rows]). ``nogil``: callers spread
    blocks over threads (``analyzer.games.clever.samples``)."""
    sheet, scratch, moves, faces, where, log = work_buffers()
    per_game = 2 * rounds
    for g in range(n_games):
        start_game_sheet(sheet, game_rules, rounds, np.int64(1))
        row = g * per_game
        for r in range(rounds):
            base = 4 * r
            sheet[H_ROUND] = r
            round_bonus(sheet, r, game_rules, pol, turn_stream(key, g, base), scratch)
            active_turn(sheet.reshape((1, SHEET_LEN)), np.int64(0), faces, where, pol,
                        turn_stream(key, g, base + 1), moves, scratch, game_rules, log,
                        np.int64(0))
            _record(sheet, features, score, stage, row + 2 * r)
            solo_passive(sheet, faces, where, pol, turn_stream(key, g, base + 2), moves,
                         scratch, r == rounds - 1, game_rules, log)
            _record(sheet, features, score, stage, row + 2 * r + 1)
        final[row:row + per_game] = total_score(sheet)
