"""Running Sly Dice games and reading their accumulators: the play loop's job, the columns
per policy and seat, behaviour rates and card frequencies with 95% intervals."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analyzer import pipeline, seats, stats
from analyzer.games.sly_dice.model import Policy, get_model, run_meta
from analyzer.games.sly_dice.params import PARAMS
from kernels.accumulate import contest_columns
from kernels.sly_dice import layout, play

GAME_BLOCK = 1 << 11
COLUMNS = seats.Columns(play.COL_GAMES, play.COL_SCORE_SUM, play.COL_SCORE_SQ,
                        play.COL_WIN_UNITS, play.COL_HIST, play.WIN_UNITS, play.HIST_LOW,
                        **contest_columns(play.COL_CONTEST))
FAMILY = pipeline.Family("Sly Dice", PARAMS, play.games_block, play.paired_block, COLUMNS,
                         play.N_PAIRED, GAME_BLOCK, run_meta)
RATES = (  # (name, numerator, denominator column or None, squares column for per-game counts)
    ("bluff_rate", play.COL_BLUFFS, play.COL_CLAIMS, None),
    ("bluffs_caught_rate", play.COL_BLUFFS_CAUGHT, play.COL_BLUFFS, None),
    ("accusations_per_game", play.COL_ACCUSATIONS, None, play.COL_ACCUSATIONS_SQ),
    ("accusations_right_rate", play.COL_ACCUSATIONS_RIGHT, play.COL_ACCUSATIONS, None),
    ("bluff_cards_per_game", play.COL_BLUFF_CARDS, None, play.COL_BLUFF_CARDS_SQ),
    ("false_accusation_cards_per_game", play.COL_FALSE_CARDS, None, play.COL_FALSE_CARDS_SQ),
    ("higher_or_lower_success", play.COL_HOL_WINS, play.COL_HOL_TRIES, None),
)


def blocks_of(rows: np.ndarray) -> int:
    """Blocks per chunk of work and between two looks at a precision for policy rows
    ``rows`` (float64[..., N_POLICY]): 2 (4,096 games) where a seat plays the equilibrium,
    whose accusations solve each claim's game as they go, about 200 times slower than
    the other policies; 64 otherwise."""
    return 2 if (rows[..., play.ACCUSE_MODE] == play.EQUILIBRIUM).any() else 64


def play_games(values: dict[str, Any], lineup: list[Policy], games: int, seed: int,
               rotate: bool = True, precision: float | None = None, progress: bool = True,
               batch_blocks: int | None = None):
    """Run games; returns ``(accumulator int64[slot, seat, column], games_played)``."""
    pipeline.check_games(games)
    rows = np.stack([p.row() for p in lineup])
    return pipeline.play(FAMILY, rows, get_model(values).game_args(),
                         [p.name for p in lineup], play.COL_HIST + play.HIST_BINS, games,
                         seed, rotate, precision, progress, batch_blocks, blocks_of(rows),
                         blocks_of(rows))


def policy_stats(row: np.ndarray, players: int) -> dict[str, Any]:
    """Score, win rate and behaviour rates of one accumulator row, with 95% intervals."""
    out = seats.row_stats(row, COLUMNS, players)
    games = float(row[play.COL_GAMES])
    for name, num, den, squares in RATES:
        if den is None:  # a count per game: a mean
            value, se = stats.mean_se(games, float(row[num]), float(row[squares]))
            out[name], out[f"{name}_ci95"] = value, stats.ci95(value, se)
        else:  # a proportion
            n, hits = float(row[den]), float(row[num])
            out[name] = stats.proportion_se(n, hits)[0]
            out[f"{name}_ci95"] = stats.proportion_ci95(n, hits)
    return out


def card_table(per_policy: dict[str, np.ndarray]) -> pd.DataFrame:
    rows = []
    for name, row in per_policy.items():
        games = float(row[play.COL_GAMES])
        for card in range(layout.N_CARDS):
            hits = float(row[play.COL_CARDS + card])
            low, high = stats.proportion_ci95(games, hits)
            rows.append({"policy": name, "card": layout.CARD_NAMES[card],
                         "scored_per_game": stats.proportion_se(games, hits)[0],
                         "ci95_low": low, "ci95_high": high})
    return pd.DataFrame(rows)
