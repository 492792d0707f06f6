"""Training samples for the heuristic's value weights (``kernels.clever.training``): blocks
of solo games spread over numba's threads."""

from __future__ import annotations

import numpy as np

from analyzer.run.block_loop import over_threads
from kernels.clever.training import solo_samples_block


def sample_blocks(keys: np.ndarray, block_games: int, pol: np.ndarray, rounds: int,
                  game_rules: np.ndarray, features: np.ndarray, score: np.ndarray,
                  stage: np.ndarray, final: np.ndarray) -> None:
    """``solo_samples_block`` for every block key (uint64[b]); block ``i`` fills the rows
    from ``i * block_games * 2 * rounds`` of ``features`` (float64[rows, N_FEATURES]),
    ``score``, ``stage`` and ``final`` (int64[rows]), whichever thread plays it."""
    rows = block_games * 2 * rounds

    def block(b: int) -> None:
        part = slice(b * rows, (b + 1) * rows)
        solo_samples_block(keys[b], block_games, pol, rounds, game_rules, features[part],
                           score[part], stage[part], final[part])

    over_threads(block, keys.shape[0])
