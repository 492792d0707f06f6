"""Sly Dice whole-game Monte Carlo: win rates, scores, bluffing and accusation rates and
card frequencies per policy and per seat, with 95% intervals; paired what-if comparisons."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from analyzer import paired, pipeline, seats
from analyzer.run import driver
from analyzer.games.sly_dice.fictitious import stable_strategy
from analyzer.games.sly_dice.model import Policy, get_model, parse_policy
from analyzer.games.sly_dice.runs import (COLUMNS, FAMILY, RATES, blocks_of, card_table, play_games,
                                          policy_stats)
from analyzer.output import Result
from kernels.sly_dice import play


def lineup_of(policies: Sequence[str], values: dict[str, Any]) -> list[Policy]:
    """The policies of a lineup (``stable`` computed first when named), one per seat."""
    needs_stable = any(p.strip().lower() == "stable" for p in policies)
    stable = stable_strategy(values) if needs_stable else None
    return seats.cycle_lineup([parse_policy(p, stable) for p in policies], values["players"])


TABLES = pipeline.table_names(("cards",))  # simulate's tables (``--tables``)


def simulate(values: dict[str, Any], policies: Sequence[str], games: int, seed: int,
             threads: int | None = None, rotate: bool = True, precision: float | None = None,
             progress: bool = True) -> Result:
    """Whole games: scores, win rates, bluffing and accusations per policy and per seat."""
    players = values["players"]
    lineup = lineup_of(policies, values)
    used = driver.set_threads(threads)
    run = play_games(values, lineup, games, seed, rotate, precision, progress)
    reading = pipeline.Reading(lambda name, row: policy_stats(row, players), _record,
                               lambda rows: {"cards": card_table(rows)})
    notes = pipeline.Notes(after=lambda policies, played: [
        "ties go to the most Successful Bluffing cards, then the win is shared"])
    return pipeline.games_result(FAMILY, values, [p.name for p in lineup], run, reading,
                                 notes, seed=seed, games=games, precision=precision,
                                 threads=used, rotate=rotate)


def _record(name: str, row: np.ndarray, s: dict[str, Any]) -> dict[str, Any]:
    """A policy's row of the policies table."""
    record = {"policy": name, "seat_games": s["games"], "mean_score": s["mean_score"],
              "ci95_low": s["ci95"][0], "ci95_high": s["ci95"][1],
              **seats.spread(row, COLUMNS),
              "win_rate": s["win_rate"], "win_ci95_low": s["win_ci95"][0],
              "win_ci95_high": s["win_ci95"][1]}
    for rate_name, *_ in RATES:
        record[rate_name] = s[rate_name]
        record[f"{rate_name}_ci95_low"], record[f"{rate_name}_ci95_high"] = \
            s[f"{rate_name}_ci95"]
    return record


PAIRED_METRICS = (
    ("mean_score", play.PAIRED_SCORE_SUM, "players"),
    ("first_seat_win_rate", play.PAIRED_FIRST_SEAT_WIN, play.WIN_UNITS),
    ("bluffs_per_game", play.PAIRED_BLUFFS, 1),
    ("bluffs_caught_per_game", play.PAIRED_BLUFFS_CAUGHT, 1),
    ("accusations_per_game", play.PAIRED_ACCUSATIONS, 1),
)


def whatif(variants: Sequence[tuple[str, dict[str, Any], list[str]]], games: int, seed: int,
           threads: int | None = None, progress: bool = True, precision: Any = None
           ) -> Result:
    """Compare variants ``(label, rule values, lineup policies)`` on the same games (common
    random numbers); the first is the reference, the others get paired differences (with
    ``precision``, until they are that narrow: ``paired.stop_rule``; at most ``games``)."""
    paired.check_variants(list(variants), games)
    used = driver.set_threads(threads)
    models = [get_model(values) for _, values, _ in variants]
    lineups = np.stack([np.stack([p.row() for p in lineup_of(policies, values)])
                        for _, values, policies in variants])
    args = (lineups, np.array([m.rounds for m in models], np.int64),
            np.stack([m.points for m in models]), np.stack([m.weights for m in models]),
            np.stack([m.q1 for m in models]), np.stack([m.q2 for m in models]),
            np.array([m.values["rerolls"] for m in models], np.int64),
            models[0].hol_success, models[0].hol_calls, models[0].plausibility,
            models[0].made, np.stack([m.bonus for m in models]))
    run = pipeline.Paired(list(variants), args, PAIRED_METRICS,
                          chunk_blocks=blocks_of(lineups), check_blocks=blocks_of(lineups))
    acc, n = pipeline.paired_games(FAMILY, run, games, seed, progress, precision=precision)
    return pipeline.whatif_result(FAMILY, run, acc, n, seed, used, precision=precision,
                                  cap=games)
