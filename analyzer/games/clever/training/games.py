"""The games that measure a training run's network without exploring or learning: solo
tuning games, mirror matches, paired comparisons."""

from __future__ import annotations

import numpy as np

from analyzer import paired
from analyzer.run import driver
from analyzer.games.clever import value_weights
from analyzer.games.clever.training.stages import Stage
from analyzer.seeding import STREAM_GAMES, STREAM_PAIRED
from analyzer.stats import mean_se
from kernels.clever import play, selfplay
from kernels.clever_base.game_rules import RULE_ROUNDS

ROUNDS = 6  # solo games, unless the rules set the rounds
TUNING_SEED_BASE = 1_000_000_000
GAME_BLOCK = 1 << 9


def solo_rounds(rules: np.ndarray) -> int:
    """The rounds of a solo game under the game-rules vector ``rules``."""
    return int(rules[RULE_ROUNDS]) or ROUNDS


def mean_score(row: np.ndarray, rules: np.ndarray, games: int, seed: int
               ) -> tuple[float, float, np.ndarray]:
    """Mean solo score of a policy row, its standard error and the per-game means of the
    accumulator columns (``play.COL_*``; no learning, no exploring)."""
    job = driver.Job(driver.BlockLoop.of(play.games_block),
                     (row[None, :], False, solo_rounds(rules), rules),
                     (1, 1, play.COL_HIST + play.HIST_BINS), GAME_BLOCK, seed, STREAM_GAMES)
    acc, n = driver.run(job, games, progress=False)
    out = acc[0, 0]
    mean, se = mean_se(n, float(out[play.COL_SCORE_SUM]), float(out[play.COL_SCORE_SQ]))
    return mean, se, out / n


def mirror(row: np.ndarray, rules: np.ndarray, players: int, rounds: int, games: int,
           seed: int) -> dict:
    """A mirror match of the policy row in every seat of ``players`` (no rotation): each
    seat's win share and mean score."""
    return match([row] * players, rules, rounds, games, seed, False)


def match(rows: list[np.ndarray], rules: np.ndarray, rounds: int, games: int, seed: int,
          rotate: bool) -> dict:
    """Games of the policy rows (one per seat, seats rotating or not): each row's win share
    and mean score (``seat_*``: by the row's slot)."""
    players = len(rows)
    lineup = np.stack(rows)
    job = driver.Job(driver.BlockLoop.of(play.games_block), (lineup, rotate, rounds, rules),
                     (players, players, play.COL_HIST + play.HIST_BINS), GAME_BLOCK, seed,
                     STREAM_GAMES)
    acc, n = driver.run(job, games, progress=False)
    seats = [acc[p].sum(axis=0) for p in range(players)]
    return {"seat_win": [round(float(s[play.COL_WIN_UNITS]) / play.WIN_UNITS / n, 4)
                         for s in seats],
            "seat_mean": [round(float(s[play.COL_SCORE_SUM]) / n, 2) for s in seats]}


def compare(rows: list[np.ndarray], rules: np.ndarray, games: int, seed: int
            ) -> list[dict[str, float]]:
    """Paired solo means of policy rows on the same games: each row's mean and its
    difference from the first row's, with 95% intervals (``analyzer.paired.metric``)."""
    return compare_seats(rows, rules, solo_rounds(rules), 1, games, seed)


def compare_seats(rows: list[np.ndarray], rules: np.ndarray, rounds: int, players: int,
                  games: int, seed: int, block: int = GAME_BLOCK) -> list[dict[str, float]]:
    """Paired games of ``players`` players, each policy row in every seat in turn, on the
    same games (the seed's paired stream, blocks of ``block`` games): each row's mean
    score per player and its difference from the first row's, with 95% intervals."""
    lineups = np.stack([np.stack([row] * players) for row in rows])
    job = driver.Job(driver.BlockLoop.of(play.paired_block),
                     (lineups, np.full(len(rows), rounds), np.stack([rules] * len(rows))),
                     (len(rows) + 1, len(rows), play.N_PAIRED), block, seed, STREAM_PAIRED)
    acc, n = driver.run(job, games, progress=False)
    return [{**paired.metric(acc, n, v, play.PAIRED_SCORE_SUM, 1.0 / players), "games": n}
            for v in range(len(rows))]


def evaluate(weights: np.ndarray, skip: np.ndarray, n_in: int, rules: np.ndarray,
             games: int, seed: int, stats: np.ndarray, spec: Stage, rounds_of: np.ndarray
             ) -> dict:
    """A learning-curve entry: the self-play statistics since the last one and the
    ``games`` tuning games (seed ``TUNING_SEED_BASE + seed``; no exploring, no curriculum)
    of the network ``weights``: solo, and in a stage with multiplayer games a 2-player
    mirror match too."""
    row = value_weights.policy_row([weights], n_in, skip=skip)
    mean, se, out = mean_score(row, rules, games, TUNING_SEED_BASE + seed)
    played = stats[selfplay.STAT_GAMES]
    extra = {}
    if len(spec.players) > 1 and any(spec.players[1:]):
        extra["mirror_2p"] = mirror(row, rules, 2, int(rounds_of[2]), games,
                                    TUNING_SEED_BASE + seed)
    return {**extra, "self_play_mean": round(stats[selfplay.STAT_SCORE] / played, 2),
            "rms_error": round(float(np.sqrt(stats[selfplay.STAT_ERR_SQ]
                                             / stats[selfplay.STAT_SAMPLES])), 2),
            "samples_per_game": round(stats[selfplay.STAT_SAMPLES] / played, 1),
            "capped_dice_per_game": round(stats[selfplay.STAT_CAPPED] / played, 2),
            "tuning_mean": round(mean, 2), "tuning_se": round(se, 2),
            "areas": [round(float(a), 1) for a in out[play.COL_AREAS:play.COL_AREAS + 5]],
            "fox_points": round(float(out[play.COL_FOX_POINTS]), 1)}


def check_scores(row: np.ndarray, tables: np.ndarray, games: int, seed: int) -> list[float]:
    """The mean solo score of a policy row on each variant of ``tables``
    (int64[V, N_GAME_RULES]; ``games`` tuning games each, the same seeds for every one)."""
    return [float(mean_score(row, rules, games, TUNING_SEED_BASE + seed)[0])
            for rules in tables]
