"""Sly Dice whole-game Monte Carlo: win rates, scores, bluffing and accusation rates and
card frequencies per policy and per seat, with 95% intervals; paired what-if comparisons."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd

from analyzer import paired, seats
from analyzer.run import driver
from analyzer.games.sly_dice.fictitious import stable_strategy
from analyzer.games.sly_dice.model import Policy, get_model, parse_policy, run_meta
from analyzer.games.sly_dice.params import PARAMS
from analyzer.games.sly_dice.runs import (
    COLUMNS,
    GAME_BLOCK,
    RATES,
    card_table,
    play_games,
    policy_stats,
)
from analyzer.output import Result
from analyzer.params import assumed_notes
from analyzer.seeding import STREAM_PAIRED, check_seed
from kernels.sly_dice import play


def lineup_of(policies: Sequence[str], values: dict[str, Any]) -> list[Policy]:
    """The policies of a lineup (``stable`` computed first when named), one per seat."""
    needs_stable = any(p.strip().lower() == "stable" for p in policies)
    stable = stable_strategy(values) if needs_stable else None
    return seats.cycle_lineup([parse_policy(p, stable) for p in policies], values["players"])


def simulate(values: dict[str, Any], policies: Sequence[str], games: int, seed: int,
             threads: int | None = None, rotate: bool = True, precision: float | None = None,
             progress: bool = True) -> Result:
    """Whole games: scores, win rates, bluffing and accusations per policy and per seat."""
    players = values["players"]
    lineup = lineup_of(policies, values)
    names = [p.name for p in lineup]
    used = driver.set_threads(threads)
    acc, played = play_games(values, lineup, games, seed, rotate, precision, progress)
    per_policy = seats.by_name(acc, names)
    policy_rows, dist_rows, headline_policies = [], [], {}
    for name, row in per_policy.items():
        s = policy_stats(row, players)
        headline_policies[name] = {k: s[k] for k in ("mean_score", "ci95", "win_rate",
                                                     "win_ci95", "games")}
        record = {"policy": name, "seat_games": s["games"], "mean_score": s["mean_score"],
                  "ci95_low": s["ci95"][0], "ci95_high": s["ci95"][1],
                  **seats.spread(row, COLUMNS),
                  "win_rate": s["win_rate"], "win_ci95_low": s["win_ci95"][0],
                  "win_ci95_high": s["win_ci95"][1]}
        for rate_name, *_ in RATES:
            record[rate_name] = s[rate_name]
            record[f"{rate_name}_ci95_low"], record[f"{rate_name}_ci95_high"] = \
                s[f"{rate_name}_ci95"]
        policy_rows.append(record)
        dist_rows += seats.score_distribution(row, COLUMNS, by="policy", name=name)
    seat_rows, seat_dist = seats.seat_rows(acc, COLUMNS, names, rotate)
    notes = assumed_notes(PARAMS, values)
    notes += seats.precision_note(precision, games, played,
                                  precision is None or seats.precise_enough(
                                      acc, names, COLUMNS, precision))
    notes.append("ties go to the most Successful Bluffing cards, then the win is shared")
    return Result(
        title=f"Sly Dice games: {players} players, {played} games",
        headline={"players": players, "games": played, "policies": headline_policies},
        tables={"policies": pd.DataFrame(policy_rows), "seats": pd.DataFrame(seat_rows),
                "cards": card_table(per_policy),
                "score_distribution": pd.DataFrame(dist_rows + seat_dist)},
        meta=run_meta(values, seed, games=played, threads=used, rotate=rotate,
                      lineup=names),
        notes=notes,
    )


PAIRED_METRICS = (
    ("mean_score", play.PAIRED_SCORE_SUM, "players"),
    ("first_seat_win_rate", play.PAIRED_FIRST_SEAT_WIN, play.WIN_UNITS),
    ("bluffs_per_game", play.PAIRED_BLUFFS, 1),
    ("bluffs_caught_per_game", play.PAIRED_BLUFFS_CAUGHT, 1),
    ("accusations_per_game", play.PAIRED_ACCUSATIONS, 1),
)


def whatif(variants: Sequence[tuple[str, dict[str, Any], list[str]]], games: int, seed: int,
           threads: int | None = None, progress: bool = True) -> Result:
    """Compare variants ``(label, rule values, lineup policies)`` on the same games (common
    random numbers); the first is the reference, the others get paired differences."""
    n_players = paired.check_variants(list(variants), games)
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
    n_var = len(variants)
    job = driver.Job(driver.BlockLoop.of(play.paired_block), args,
                     (n_var + 1, n_var, play.N_PAIRED + n_players), GAME_BLOCK,
                     check_seed(seed),
                     STREAM_PAIRED, "what-if games", "games")
    acc, n = driver.run(job, games, progress)
    metrics = PAIRED_METRICS + paired.seat_metrics(play.N_PAIRED, n_players, play.WIN_UNITS)
    rows = paired.lineup_rows(acc, n, list(variants), metrics, n_players)
    details = paired.variant_details(PARAMS, list(variants))
    for row in rows:
        row["changes"] = details[row["variant"]]["changes"]
    headline = paired.headline(rows, n, n_players, variants[0][0], details=details)
    return Result(f"Sly Dice what-if: {n_var} variants, {n} games each", headline=headline,
                  tables={"variants": pd.DataFrame(rows)},
                  meta=run_meta(variants[0][1], seed, games=n, threads=used),
                  notes=paired.details_notes(details) + assumed_notes(PARAMS, variants[0][1]))
