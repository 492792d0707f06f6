"""Multiplayer strength of a Clever game's policies: mirror matches (one policy in every
seat, seats fixed: a seat effect the rules do not create shows as a win rate away from a
fair share) and head-to-head matches in two-player games (seats rotating every game, so
each policy plays each seat equally often), with 95% intervals."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analyzer import seats
from analyzer.run import driver
from analyzer.games.clever.game import CleverGame
from analyzer.games.clever.simulation import COLUMNS, GAME_BLOCK, chunk_blocks
from analyzer.seeding import STREAM_GAMES, check_seed
from kernels.clever import play


def play_rows(game: CleverGame, values: dict[str, Any], rows: list[np.ndarray], games: int,
              seed: int, rotate: bool, progress: bool = False) -> tuple[np.ndarray, int]:
    """Games of the policy rows ``rows`` (one per seat; float64[N_POL] each) on the rules
    ``values``: ``(accumulator int64[slot, seat, column], games played)``."""
    codes = np.stack(rows)
    n = len(rows)
    job = driver.Job(driver.BlockLoop.of(play.games_block),
                     (codes, rotate, game.rounds_for({**values, "players": n}),
                      game.game_rules({**values, "players": n})),
                     (n, n, play.COL_HIST + play.HIST_BINS), GAME_BLOCK, check_seed(seed),
                     STREAM_GAMES, "games", "games", chunk_blocks(codes))
    return driver.run(job, games, progress)


def _row(label: str, who: str, stats_of: dict[str, Any], players: int) -> dict[str, Any]:
    return {"match": label, "players": players, "who": who, "games": stats_of["games"],
            "win_rate": stats_of["win_rate"], "win_ci95_low": stats_of["win_ci95"][0],
            "win_ci95_high": stats_of["win_ci95"][1], "mean_score": stats_of["mean_score"],
            "ci95_low": stats_of["ci95"][0], "ci95_high": stats_of["ci95"][1]}


def mirror(game: CleverGame, values: dict[str, Any], name: str, row: np.ndarray,
           players: int, games: int, seed: int, progress: bool = False) -> list[dict]:
    """``name`` in every seat of ``players``-player games, seats fixed: each seat's win
    rate and mean score."""
    acc, _ = play_rows(game, values, [row] * players, games, seed, False, progress)
    return [_row(f"{name} mirror", f"seat {s + 1}",
                 seats.row_stats(acc[s, s], COLUMNS, players), players)
            for s in range(players)]


def head_to_head(game: CleverGame, values: dict[str, Any], named: dict[str, np.ndarray],
                 games: int, seed: int, progress: bool = False) -> list[dict]:
    """Two-player games of the two policies ``named`` (name: row), seats rotating: each
    one's win rate and mean score over both seats."""
    (a, row_a), (b, row_b) = named.items()
    acc, _ = play_rows(game, values, [row_a, row_b], games, seed, True, progress)
    return [_row(f"{a} vs {b}", name, seats.row_stats(acc[slot].sum(axis=0), COLUMNS, 2), 2)
            for slot, name in enumerate((a, b))]


def one_against_rest(game: CleverGame, values: dict[str, Any], named: dict[str, np.ndarray],
                     players: int, games: int, seed: int, progress: bool = False
                     ) -> list[dict]:
    """Games of ``players`` with the first policy of ``named`` in one seat and the second in
    every other, seats rotating: the first one's win rate (a fair share is 1 /
    ``players``) and mean score, and the others' mean."""
    (a, row_a), (b, row_b) = named.items()
    acc, _ = play_rows(game, values, [row_a] + [row_b] * (players - 1), games, seed, True,
                       progress)
    label = f"{a} vs {players - 1} {b}"
    return [_row(label, a, seats.row_stats(acc[0].sum(axis=0), COLUMNS, players), players),
            _row(label, b, seats.row_stats(acc[1:].sum(axis=(0, 1)), COLUMNS, players),
                 players)]


def strength(game: CleverGame, values: dict[str, Any], named: dict[str, np.ndarray],
             games: int, seed: int, progress: bool = False) -> pd.DataFrame:
    """The multiplayer strength table of the first policy of ``named``: its mirror matches
    in 2, 3 and 4 players, and matches against each other policy named: two-player games,
    and games of 3 and 4 players with the others in every other seat."""
    first, row = next(iter(named.items()))
    rows = []
    for players in (2, 3, 4):
        rows += mirror(game, values, first, row, players, games, seed, progress)
    for other, other_row in list(named.items())[1:]:
        pair = {first: row, other: other_row}
        rows += head_to_head(game, values, pair, games, seed, progress)
        for players in (3, 4):
            rows += one_against_rest(game, values, pair, players, games, seed, progress)
    return pd.DataFrame(rows)
