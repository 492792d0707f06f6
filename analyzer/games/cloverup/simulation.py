"""CloverUp Monte Carlo: single turns checked against the exact solver, whole games with
any lineup of policies, and paired what-if comparisons on common random numbers."""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
import pandas as pd

from analyzer import paired, pipeline, seats, stats
from analyzer.run import driver
from analyzer.errors import UserError
from analyzer.games.cloverup.analyses import run_meta
from analyzer.games.cloverup.model import Model, Policy, get_model, parse_policy
from analyzer.games.cloverup.params import GAME_ONLY, PARAMS
from analyzer.output import Result
from analyzer.params import assumed_notes
from analyzer.seeding import STREAM_TURNS, check_count, check_seed
from kernels.accumulate import contest_columns
from kernels.cloverup import layout, play

TURN_BLOCK = 1 << 16  # turns per seed block (fixed: results must not depend on batching)
GAME_BLOCK = 1 << 11  # games per seed block


def lineup_dice(model: Model, policies: Sequence[Policy]
                ) -> tuple[np.ndarray, np.ndarray, dict]:
    """What a lineup's games draw their turns from (``Model.outcome_dice``): every
    distinct table's outcome die (float64[D, N_OUTCOMES + GUIDE_SIZE]), the row of each
    table (int32[T]), and each policy's ``(first_table, situational)``."""
    distinct = list(dict.fromkeys(policies))
    dice, rows, starts = stacked([model.outcome_dice(p) for p in distinct])
    return dice, rows, {p: (starts[k], int(p.kind == "win")) for k, p in enumerate(distinct)}


def lineup_decisions(model: Model, policies: Sequence[Policy]) -> np.ndarray:
    """The decisions' cdf given each outcome of every distinct table of a lineup
    (``Model.decision_cdf``), in the rows of ``lineup_dice``'s dice."""
    return np.concatenate([model.decision_cdf(p) for p in dict.fromkeys(policies)])


def stacked(parts: list[tuple[np.ndarray, np.ndarray]]
            ) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Several parts' outcome dice and table rows ``(dice, rows)`` as one: the dice one
    after another, each part's rows moved past the dice before it; and the first table
    of each part."""
    starts = np.cumsum([0] + [rows.shape[0] for _, rows in parts])[:-1]
    offsets = np.cumsum([0] + [dice.shape[0] for dice, _ in parts])[:-1]
    rows = np.concatenate([r + o for (_, r), o in zip(parts, offsets)]).astype(np.int32)
    return np.concatenate([d for d, _ in parts]), rows, [int(k) for k in starts]


def kernel_rules(model: Model) -> tuple:
    return (model.die, model.rules, model.roll_end, model.ds_start, model.stop_outcome)


# ---------------------------------------------------------------- turns

def simulate_turns(values: dict[str, Any], policy: str, turns: int, seed: int,
                   threads: int | None = None, progress: bool = True,
                   batch_blocks: int | None = None) -> np.ndarray:
    """Outcome counts int64[N_OUTCOMES] of the first ``turns`` turns of ``seed``."""
    model = get_model(values)
    pol = parse_policy(policy)
    driver.set_threads(threads)
    job = driver.Job(play.run_turn_blocks,
                     (model.turn_policy(pol).reshape(model.table_shape), *kernel_rules(model)),
                     (layout.N_OUTCOMES,), TURN_BLOCK, check_seed(seed), STREAM_TURNS,
                     "turns", "turns")
    check_count(turns, "turn")
    counts, _ = driver.run(job, turns, progress, batch_blocks)
    return counts


def turns(values: dict[str, Any], policy: str, n_turns: int, seed: int,
          threads: int | None = None, progress: bool = True) -> Result:
    """Simulated turn outcomes next to the exact ones, with standard errors and z-scores."""
    model = get_model(values)
    pol = parse_policy(policy)
    counts = simulate_turns(values, policy, n_turns, seed, threads, progress)
    exact = model.outcome_distribution(pol)
    points = model.utility(Policy("optimal", "optimal"))
    rows = []
    for o in range(layout.N_OUTCOMES):
        if exact[o] == 0 and counts[o] == 0:
            continue
        p, se = stats.proportion_se(n_turns, counts[o])
        exact_se = math.sqrt(exact[o] * (1 - exact[o]) / n_turns)
        rows.append({"outcome": layout.outcome_label(o), "simulated": p, "se": exact_se,
                     "exact": exact[o], "z": stats.z_score(p, exact_se, exact[o])})
    mean = float(counts @ points) / n_turns
    exact_mean = float(exact @ points)
    sd = math.sqrt(max(float(exact @ points**2) - exact_mean**2, 0.0))
    return Result(
        title=f"CloverUp turns under {pol.name}: simulation against the exact solver",
        headline={"mean_score": mean, "se": sd / math.sqrt(n_turns), "exact_mean": exact_mean,
                  "z": stats.z_score(mean, sd / math.sqrt(n_turns), exact_mean)},
        tables={"outcomes": pd.DataFrame(rows)},
        meta=run_meta(values, seed, turns=n_turns, policy=pol.name),
        notes=assumed_notes(PARAMS, values),
    )


# ---------------------------------------------------------------- games

COLUMNS = seats.Columns(play.COL_GAMES, play.COL_SCORE_SUM, play.COL_SCORE_SQ,
                        play.COL_WIN_UNITS, play.COL_HIST, play.WIN_UNITS,
                        **contest_columns(play.COL_CONTEST))
FAMILY = pipeline.Family("CloverUp", PARAMS, play.games_block, play.paired_block, COLUMNS,
                         play.N_PAIRED, GAME_BLOCK, run_meta)


def lineup_of(policies: Sequence[str], players: int) -> list[Policy]:
    """Seat i of the lineup plays ``policies[i % len(policies)]``."""
    lineup = seats.cycle_lineup([parse_policy(p) for p in policies], players)
    if any(p.kind == "win" for p in lineup) and players != 2:
        raise UserError(f"the win policy is solved for two players, not {players}; "
                        "accepted: --players 2")
    return lineup


def _row_stats(row: np.ndarray, players: int) -> dict[str, Any]:
    out = seats.row_stats(row, COLUMNS, players)
    instant, out["instant_win_ci95"] = seats.rate(row, COLUMNS, play.COL_INSTANT_WINS)
    sixes, sixes_se = stats.mean_se(float(row[play.COL_GAMES]),
                                    float(row[play.COL_TRIPLE_SIXES]),
                                    float(row[play.COL_TRIPLE_SIXES_SQ]))
    out.update(instant_win_rate=instant, triple_sixes_per_game=sixes,
               triple_sixes_ci95=stats.ci95(sixes, sixes_se))
    return out


def _by_policy(acc: np.ndarray, lineup: list[Policy]) -> dict[str, np.ndarray]:
    return seats.by_name(acc, [p.name for p in lineup])


def play_games(values: dict[str, Any], lineup: list[Policy], games: int, seed: int,
               rotate: bool = True, precision: float | None = None,
               progress: bool = True, batch_blocks: int | None = None):
    """Run games; returns ``(accumulator int64[slot, seat, column], games_played)``."""
    pipeline.check_games(games)
    model = get_model(values)
    dice, row_of, where = lineup_dice(model, lineup)
    seat_policies = np.array([where[p] for p in lineup], np.int64)
    max_total = layout.MAX_POINTS * values["rounds"]
    args = (values["rounds"], values["triple_six_effect"], dice, row_of, model.max_diff,
            lineup_decisions(model, lineup))
    return pipeline.play(FAMILY, seat_policies, args, [p.name for p in lineup],
                         play.COL_HIST + max_total + 1, games, seed, rotate, precision,
                         progress, batch_blocks)


def exact_win_rates(values: dict[str, Any], lineup: list[Policy],
                    rotate: bool) -> dict[str, float]:
    """Exact win rate of each policy in a two-player lineup (empty otherwise)."""
    if len(lineup) != 2:
        return {}
    model = get_model(values)
    first = model.game_win_chance(lineup[0], lineup[1])
    if lineup[0] == lineup[1]:
        return {lineup[0].name: 0.5} if rotate else {}
    if not rotate:
        return {lineup[0].name: first, lineup[1].name: 1 - first}
    second = model.game_win_chance(lineup[1], lineup[0])
    return {lineup[0].name: 0.5 * (first + 1 - second),
            lineup[1].name: 0.5 * (second + 1 - first)}


TABLES = pipeline.table_names()  # simulate's tables (``--tables``)


def simulate(values: dict[str, Any], policies: Sequence[str], games: int, seed: int,
             threads: int | None = None, rotate: bool = True, precision: float | None = None,
             progress: bool = True) -> Result:
    """Whole games: score and win statistics per policy and per seat, with 95% intervals."""
    players = values["players"]
    lineup = lineup_of(policies, players)
    used = driver.set_threads(threads)
    run = play_games(values, lineup, games, seed, rotate, precision, progress)
    exact = exact_win_rates(values, lineup, rotate)

    def stats_of(name: str, row: np.ndarray) -> dict[str, Any]:
        out = _row_stats(row, players)
        if players > 1 and name in exact:
            out["exact_win_rate"] = exact[name]
        return out

    reading = pipeline.Reading(stats_of, lambda name, row, s: _record(name, row, s, players),
                               headline_keys=("mean_score", "ci95", "win_rate", "win_ci95",
                                              "exact_win_rate", "games"))
    notes = pipeline.Notes(GAME_ONLY, after=lambda policies, played: [
        "a shared win counts as a fraction; an instant win ends the game with the totals "
        "reached so far"])
    return pipeline.games_result(FAMILY, values, [p.name for p in lineup], run, reading,
                                 notes, seed=seed, games=games, precision=precision,
                                 threads=used, rotate=rotate)


def _record(name: str, row: np.ndarray, s: dict[str, Any], players: int) -> dict[str, Any]:
    """A policy's row of the policies table."""
    record = {"policy": name, "seat_games": s["games"], "mean_score": s["mean_score"],
              "se": s["se"], "ci95_low": s["ci95"][0], "ci95_high": s["ci95"][1]}
    if players > 1:
        record.update(win_rate=s["win_rate"], win_ci95_low=s["win_ci95"][0],
                      win_ci95_high=s["win_ci95"][1])
        if "exact_win_rate" in s:
            record["exact_win_rate"] = s["exact_win_rate"]
    record.update(instant_win_rate=s["instant_win_rate"],
                  instant_win_ci95_low=s["instant_win_ci95"][0],
                  instant_win_ci95_high=s["instant_win_ci95"][1],
                  triple_sixes_per_game=s["triple_sixes_per_game"],
                  triple_sixes_ci95_low=s["triple_sixes_ci95"][0],
                  triple_sixes_ci95_high=s["triple_sixes_ci95"][1],
                  **seats.spread(row, COLUMNS))
    return record


# ---------------------------------------------------------------- what-if

PAIRED_METRICS = (
    ("mean_score", play.PAIRED_SCORE_SUM, "players"),
    ("p_instant_win_game", play.PAIRED_INSTANT_WIN, 1),
    ("first_seat_win_rate", play.PAIRED_FIRST_SEAT_WIN, play.WIN_UNITS),
    ("triple_sixes_per_game", play.PAIRED_TRIPLE_SIXES, 1),
)


def whatif(variants: Sequence[tuple[str, dict[str, Any], str | list[str]]], games: int,
           seed: int, threads: int | None = None, progress: bool = True,
           precision: Any = None) -> Result:
    """Compare rule/policy variants ``(label, rule values, lineup)`` (a lineup: a policy or
    a list cycled over the seats) on common random numbers.

    The first variant is the reference (the baseline); every other one gets the paired
    difference and its 95% interval (with ``precision``, the run ends before ``games``
    once they are that narrow: ``paired.stop_rule``). Exact single-turn values (of the
    lineup's first policy) are given beside the simulated game metrics.
    """
    variants = [(label, values, _policies(policies)) for label, values, policies in variants]
    n_players = paired.check_variants(variants, games)
    used = driver.set_threads(threads)
    models = [get_model(values) for _, values, _ in variants]
    parts, wheres, lineups = [], [], []
    for model, (_, values, policies) in zip(models, variants):
        lineups.append(lineup_of(policies, n_players))
        *part, where = lineup_dice(model, lineups[-1])
        parts.append(tuple(part))
        wheres.append(where)
    dice, rows, starts = stacked(parts)
    seated = [[(where[p][0] + start, where[p][1]) for p in lineup]
              for lineup, where, start in zip(lineups, wheres, starts)]
    column = lambda key: np.array([v[key] for _, v, _ in variants], np.int64)  # noqa
    args = (np.array(seated, np.int64), column("rounds"), column("triple_six_effect"), dice,
            rows, np.array([m.max_diff for m in models], np.int64))
    run = pipeline.Paired(variants, args, PAIRED_METRICS, exact_turn_rows(variants, models))
    acc, played = pipeline.paired_games(FAMILY, run, games, seed, progress,
                                        precision=precision)
    return pipeline.whatif_result(
        FAMILY, run, acc, played, seed, used,
        notes=["exact_turn_score: one turn of the lineup's first policy, exact"],
        precision=precision, cap=games)


def exact_turn_rows(variants: list, models: list[Model]):
    """A what-if's rows of the exact score of one turn of each variant's first policy
    (none for the win policy), its difference from the reference's: no interval."""
    turn = [None if parse_policy(policies[0]).kind == "win"
            else models[v].expected_points(parse_policy(policies[0]))
            for v, (_, _, policies) in enumerate(variants)]

    def rows(v: int) -> list[dict[str, Any]]:
        if turn[v] is None:
            return []
        diff = turn[v] - turn[0] if v > 0 and turn[0] is not None else math.nan
        label, _, policies = variants[v]
        return [{"variant": label, "lineup": ",".join(policies),
                 "metric": "exact_turn_score", "seat_policy": "", "value": turn[v],
                 "ci95_low": turn[v], "ci95_high": turn[v], "diff": diff,
                 "diff_ci95_low": diff, "diff_ci95_high": diff}]
    return rows


def _policies(policies: str | list[str]) -> list[str]:
    return [policies] if isinstance(policies, str) else list(policies)
