"""What a strategy card's rules are worth, measured: policy rows (``card_rules``) played on
the same games (paired) solo, or against each other in two-player games."""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer import paired, pipeline, seats
from analyzer.games.clever import simulation
from analyzer.seeding import check_count
from kernels.clever import play

FAST_BLOCKS = 64  # blocks of games per chunk and per look at a precision (the card and
# greedy play fast)


def paired_scores(game, values: dict[str, Any], rows: list[np.ndarray], games: int,
                  seed: int, precision: float | None = None, progress: bool = False
                  ) -> tuple[list[dict[str, float]], int]:
    """Each policy row of ``rows`` (float64[N_POL] each, playing every seat) on the same
    games: its mean score with its 95% interval and, after the first, the paired
    difference from the first (``paired.metric``); until every difference is within
    ``precision`` points (95%), at most ``games``. Returns the rows and the games played."""
    check_count(games)
    players, n_var = values["players"], len(rows)
    variants = [(str(v), values, ["card"]) for v in range(n_var)]
    lineups = np.stack([np.stack([row] * players) for row in rows])
    args = (lineups, np.full(n_var, game.rounds_for(values), np.int64),
            np.stack([game.game_rules(values)] * n_var))
    run = pipeline.Paired(variants, args, simulation.PAIRED_METRICS,
                          chunk_blocks=FAST_BLOCKS, check_blocks=FAST_BLOCKS)
    acc, n = pipeline.paired_games(simulation.family(game), run, games, seed, progress,
                                   None, precision)
    return [paired.metric(acc, n, v, play.PAIRED_SCORE_SUM, 1.0 / players)
            for v in range(n_var)], n


def head_to_head(game, values: dict[str, Any], row: np.ndarray, against: np.ndarray,
                 games: int, seed: int, progress: bool = False) -> dict[str, Any]:
    """Two-player games of the policy ``row`` against ``against`` (seats swapping every
    game): ``row``'s win rate and each side's mean score, with 95% intervals."""
    values = {**values, "players": 2}
    acc, n = pipeline.play(simulation.family(game), np.stack([row, against]),
                           (game.rounds_for(values), game.game_rules(values)), ["a", "b"],
                           play.COL_HIST + play.HIST_BINS, check_count(games), seed, True,
                           progress=progress, chunk_blocks=FAST_BLOCKS,
                           check_blocks=FAST_BLOCKS)
    mine = seats.row_stats(acc[0].sum(axis=0), simulation.COLUMNS, 2)
    theirs = seats.row_stats(acc[1].sum(axis=0), simulation.COLUMNS, 2)
    figures = {"win_rate": mine["win_rate"], "win_ci95": mine["win_ci95"],
               "score": mine["mean_score"], "score_ci95": mine["ci95"],
               "other_score": theirs["mean_score"], "other_ci95": theirs["ci95"]}
    return {"games": int(n), **{k: np.asarray(v, float).tolist() for k, v in figures.items()}}
