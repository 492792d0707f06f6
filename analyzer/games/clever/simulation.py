"""Clever Monte Carlo (either game): total and per-area scores, foxes, bonuses, solo rating
bands and win rates by seat and policy, all with 95% intervals; paired what-ifs."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd

from analyzer import output, paired, pipeline, seats, stats
from analyzer.run import driver
from analyzer.games.clever import decisions, trained_on
from analyzer.games.clever.cells import cell_rows
from analyzer.games.clever.game import CleverGame
from analyzer.games.clever.params import unread_at
from analyzer.output import Result
from kernels.accumulate import contest_columns
from kernels.clever import play
from kernels.clever.policies import HEURISTIC, KIND, VALUE

GAME_BLOCK = 1 << 9
COLUMNS = seats.Columns(play.COL_GAMES, play.COL_SCORE_SUM, play.COL_SCORE_SQ,
                        play.COL_WIN_UNITS, play.COL_HIST, play.WIN_UNITS,
                        **contest_columns(play.COL_CONTEST))


def run_meta(game: CleverGame, values: dict[str, Any], seed: int | None = None,
             **extra: Any) -> dict[str, Any]:
    return output.run_meta(game.id, game.params, values, seed, **extra)


def chunk_blocks(codes: np.ndarray) -> int:
    """Blocks per chunk of work for policy rows ``codes`` (float64[..., N_POL]): about a
    second on one core (random and greedy: 64 blocks, ~0.8 s; the valued policies, 20 to
    200 times slower: 4 blocks, 1-3 s for the heuristic and learned ones; the card plays
    as fast as greedy)."""
    return 4 if _valued(codes).any() else 64


def check_blocks(codes: np.ndarray) -> int:
    """Blocks between two looks at a precision for policy rows ``codes``: 2 (1,024 games)
    for the valued policies, so that a run of the learned one stops within a second or
    two of its precision; 64 for the others."""
    return 2 if _valued(codes).any() else 64


def _valued(codes: np.ndarray) -> np.ndarray:
    """Which policy rows value sheets by an estimate (the heuristic and learned ones)."""
    kinds = codes[..., KIND]
    return (kinds == HEURISTIC) | (kinds == VALUE)


def family(game: CleverGame) -> pipeline.Family:
    """The game's part of the games pipeline (both games play the same kernels)."""
    return pipeline.Family(game.title, game.params, play.games_block, play.paired_block,
                           COLUMNS, play.N_PAIRED, GAME_BLOCK,
                           lambda values, seed=None, **extra: run_meta(game, values, seed,
                                                                       **extra))


def play_games(game: CleverGame, values: dict[str, Any], lineup: list[str], games: int, seed: int,
               rotate: bool = True, precision: float | None = None, progress: bool = True,
               batch_blocks: int | None = None):
    """Run games; returns ``(accumulator int64[slot, seat, column], games_played)``."""
    pipeline.check_games(games)
    codes = np.stack([game.parse_policy(p, values) for p in lineup])
    return pipeline.play(family(game), codes, (game.rounds_for(values), game.game_rules(values)),
                         lineup, play.COL_HIST + play.HIST_BINS, games, seed, rotate,
                         precision, progress, batch_blocks, chunk_blocks(codes),
                         check_blocks(codes))


def _mean_ci(row, games, col, col_sq):
    mean, se = stats.mean_se(games, float(row[col]), float(row[col_sq]))
    return mean, stats.ci95(mean, se)


def rating_rows(game: CleverGame, name: str, row: np.ndarray) -> list[dict[str, Any]]:
    """Share of games in each band of the rulebook's solo rating table."""
    hist = row[play.COL_HIST:]
    n = float(hist.sum())
    rows, upper = [], len(hist)
    for low, label in game.rating_bands:
        hits = float(hist[low:upper].sum())
        low95, high95 = stats.proportion_ci95(n, hits)
        rows.append({"policy": name, "rating": label, "from": low,
                     "share": stats.proportion_se(n, hits)[0], "ci95_low": low95,
                     "ci95_high": high95})
        upper = low
    return rows


def bonus_round_rows(game: CleverGame, name: str, row: np.ndarray, rounds: int) -> list[dict]:
    """Bonuses of each kind received per game in each round (from the round-end counts)."""
    games = float(row[play.COL_GAMES])
    first = play.COL_LOG + play.LOG_BONUS_ROUNDS
    kinds = play.N_BONUS_KINDS
    upto = row[first:first + play.LOG_ROUNDS * kinds].reshape(play.LOG_ROUNDS, kinds)
    rows, before = [], np.zeros(kinds)
    for r in range(min(rounds, play.LOG_ROUNDS)):
        for kind, label in game.layout.BONUS_NAMES.items():
            rows.append({"policy": name, "round": r + 1, "bonus": label,
                         "per_game": (upto[r, kind] - before[kind]) / games})
        before = upto[r].astype(np.float64)
    return rows


def decision_rows(game: CleverGame, name: str, row: np.ndarray) -> tuple[list[dict], list[dict]]:
    """The active turns' decision log of one row: first picks by area and face (share of
    first picks), and per pick of a turn the picks, dice sent to the platter and re-rolls
    per game."""
    games = float(row[play.COL_GAMES])
    log = row[play.COL_LOG:play.COL_LOG + play.LOG_LEN].astype(np.float64)
    areas = game.layout.AREA_NAMES
    firsts = log[play.LOG_FIRST:play.LOG_FIRST + 6 * len(areas)].reshape(-1, 6)
    total = max(firsts.sum(), 1.0)
    first_rows = [{"policy": name, "area": area, "face": face + 1,
                   "share": firsts[a, face] / total}
                  for a, area in enumerate(areas) for face in range(6)]
    pick_rows = []
    for k in range(3):
        picks = log[play.LOG_PICKS + k]
        pick_rows.append({"policy": name, "pick": k + 1, "per_game": picks / games,
                          "platter_per_pick": log[play.LOG_PLATTER + k] / max(picks, 1.0),
                          "rerolls_per_game": log[play.LOG_REROLLS + k] / games})
        if game.has_returns:
            pick_rows[-1]["returns_per_game"] = log[play.LOG_RETURNS + k] / games
    return first_rows, pick_rows


OWN_TABLES = ("areas", "bonuses", "ratings", "first_picks", "picks", "bonus_rounds", "cells",
              "rerolls", "first_by_round", "actions_by_round", "decision_rules")
TABLES = pipeline.table_names(OWN_TABLES)  # simulate's tables (``--tables``)


def simulate(game: CleverGame, values: dict[str, Any], policies: Sequence[str], games: int,
             seed: int, threads: int | None = None, rotate: bool = True,
             precision: float | None = None, progress: bool = True,
             batch_blocks: int | None = None) -> Result:
    """Whole games: total and per-area scores, foxes, bonuses, rating bands, win rates
    (``precision`` is checked every ``batch_blocks`` blocks of games, see ``driver.run``)."""
    players = values["players"]
    names = seats.cycle_lineup([p.strip().lower() for p in policies], players)
    for name in names:
        game.parse_policy(name)
    used = driver.set_threads(threads)
    run = play_games(game, values, names, games, seed, rotate, precision, progress,
                     batch_blocks)
    reading = pipeline.Reading(
        lambda name, row: seats.row_stats(row, COLUMNS, players),
        lambda name, row, s: policy_record(name, row, s, players),
        lambda rows: policy_tables(game, values, rows),
        headline_keys=("mean_score", "ci95", "games", "win_rate", "win_ci95"))
    notes = pipeline.Notes(
        rulings=("engine rulings on the rules page's open points: " + "; ".join(game.rulings),),
        after=lambda policies, played: games_notes(game, values, names, policies, played,
                                                   seed, rotate))
    return pipeline.games_result(family(game), values, names, run, reading, notes,
                                 seed=seed, games=games, precision=precision, threads=used,
                                 rotate=rotate)


def policy_record(name: str, row: np.ndarray, s: dict[str, Any], players: int
                  ) -> dict[str, Any]:
    """A policy's row of the policies table: score, foxes, lowest area, actions used."""
    g = float(row[play.COL_GAMES])
    foxes, foxes_ci = _mean_ci(row, g, play.COL_FOXES, play.COL_FOXES_SQ)
    log = row[play.COL_LOG:play.COL_LOG + play.LOG_LEN]
    record = {"policy": name, "seat_games": s["games"], "mean_score": s["mean_score"],
              "ci95_low": s["ci95"][0], "ci95_high": s["ci95"][1],
              **seats.spread(row, COLUMNS), "foxes": foxes,
              "foxes_ci95_low": foxes_ci[0], "foxes_ci95_high": foxes_ci[1],
              "fox_points": row[play.COL_FOX_POINTS] / g,
              "lowest_area": row[play.COL_LOWEST] / g,
              "rerolls_per_game": log[play.LOG_REROLLS:play.LOG_REROLLS + 3].sum() / g,
              "plus_active_per_game": log[play.LOG_PLUS] / g,
              "plus_passive_per_game": log[play.LOG_PLUS_PASSIVE] / g,
              "passive_declined_per_game": log[play.LOG_DECLINED] / g}
    if players > 1:
        record.update(win_rate=s["win_rate"], win_ci95_low=s["win_ci95"][0],
                      win_ci95_high=s["win_ci95"][1])
    return record


def policy_tables(game: CleverGame, values: dict[str, Any], rows: dict[str, np.ndarray]
                  ) -> dict[str, pd.DataFrame]:
    """The game's own tables from every policy's row: areas, bonuses, rating bands, first
    picks, picks, bonuses by round, cells, re-rolls and the decisions by round."""
    rounds = game.rounds_for(values)
    out: dict[str, list] = {name: [] for name in OWN_TABLES}
    for name, row in rows.items():
        out["areas"] += area_rows(game, name, row)
        out["bonuses"] += bonus_rows(game, name, row)
        out["ratings"] += rating_rows(game, name, row)
        firsts, picks = decision_rows(game, name, row)
        out["first_picks"] += firsts
        out["picks"] += picks
        out["bonus_rounds"] += bonus_round_rows(game, name, row, rounds)
        out["cells"] += cell_rows(game, name, row, rounds)
        out["rerolls"] += decisions.reroll_rows(name, row)
        out["first_by_round"] += decisions.first_round_rows(game, name, row, rounds)
        out["actions_by_round"] += decisions.action_round_rows(game, name, row, rounds)
        out["decision_rules"] += decisions.rule_rows(game, name, row, rounds)
    return {table: pd.DataFrame(lines) for table, lines in out.items()}


def area_rows(game: CleverGame, name: str, row: np.ndarray) -> list[dict[str, Any]]:
    """Each area's mean score with its 95% interval, and the dice entered there a game."""
    g = float(row[play.COL_GAMES])
    log = row[play.COL_LOG:play.COL_LOG + play.LOG_LEN]
    out = []
    for a, area in enumerate(game.layout.AREA_NAMES):
        mean, ci = _mean_ci(row, g, play.COL_AREAS + a, play.COL_AREAS_SQ + a)
        out.append({"policy": name, "area": area, "mean_score": mean, "ci95_low": ci[0],
                    "ci95_high": ci[1], "dice_per_game": log[play.LOG_DICE + a] / g})
    return out


def bonus_rows(game: CleverGame, name: str, row: np.ndarray) -> list[dict[str, Any]]:
    """Bonuses of each kind a game, with their 95% intervals."""
    g = float(row[play.COL_GAMES])
    out = []
    for kind, label in game.layout.BONUS_NAMES.items():
        mean, ci = _mean_ci(row, g, play.COL_BONUSES + kind, play.COL_BONUSES_SQ + kind)
        out.append({"policy": name, "bonus": label, "per_game": mean, "ci95_low": ci[0],
                    "ci95_high": ci[1]})
    return out


def games_notes(game: CleverGame, values: dict[str, Any], names: list[str],
                policies: dict[str, Any], played: int, seed: int, rotate: bool) -> list[str]:
    """The notes after the assumed rules: how ties are broken, and which network
    ``learned`` played (with the heuristic's figure where it was not trained on these
    rules)."""
    notes = []
    if values["players"] > 1:
        notes.append("ties go to the highest single area, then the win is shared"
                     if values["ties"] == "best_area" else "tied totals share the win")
    if "learned" in policies:
        notes += trained_on.network_note(game, values)
        notes += trained_on.off_training_note(
            game, values, figure(policies["learned"], played),
            lambda: heuristic_figure(game, values, names, played, seed, rotate))
    return notes


HEURISTIC_CHECK_GAMES = 1000  # games of the heuristic's figure beside an untrained learned


def figure(stats_of: dict[str, Any], games: int) -> str:
    """A policy's mean score with its 95% interval, in words."""
    low, high = stats_of["ci95"]
    return f"{stats_of['mean_score']:.1f} (95% CI {low:.1f} to {high:.1f}, {games:,} games)"


def heuristic_figure(game: CleverGame, values: dict[str, Any], names: list[str],
                     games: int, seed: int, rotate: bool = True) -> str:
    """The heuristic's mean score in the lineup ``names`` with the heuristic in the learned
    policy's seats (at most ``HEURISTIC_CHECK_GAMES`` games, the same seed)."""
    lineup = ["heuristic" if name == "learned" else name for name in names]
    acc, played = play_games(game, values, lineup, min(games, HEURISTIC_CHECK_GAMES), seed,
                             rotate, progress=False)
    row = seats.by_name(acc, lineup)["heuristic"]
    return figure(seats.row_stats(row, COLUMNS, values["players"]), played)


PAIRED_METRICS = (
    ("mean_score", play.PAIRED_SCORE_SUM, "players"),
    ("first_seat_win_rate", play.PAIRED_FIRST_SEAT_WIN, play.WIN_UNITS),
    ("foxes_per_player", play.PAIRED_FOXES, "players"),
)


def whatif(game: CleverGame, variants: Sequence[tuple[str, dict[str, Any], list[str]]],
           games: int, seed: int, threads: int | None = None, progress: bool = True,
           precision: float | None = None, batch_blocks: int | None = None,
           untrained_notes: bool = True) -> Result:
    """Compare variants ``(label, rule values, lineup)`` on the same games; the first is
    the reference (the baseline), the others get paired differences with 95% intervals,
    and every variant's rules and lineup in force are listed. With ``precision`` (a
    ``seats.Precision``, or a number of points), the run ends before ``games`` once every
    paired difference is that narrow (``paired.stop_rule``). With
    ``untrained_notes``, a variant that plays ``learned`` off its network's training rules
    gets a note with the heuristic's figure."""
    n_players = paired.check_variants(list(variants), games)
    used = driver.set_threads(threads)
    lineups = np.stack([np.stack([game.parse_policy(p, v) for p in
                                  seats.cycle_lineup(policies, n_players)])
                        for _, v, policies in variants])
    args = (lineups, np.array([game.rounds_for(v) for _, v, _ in variants], np.int64),
            np.stack([game.game_rules(v) for _, v, _ in variants]))
    run = pipeline.Paired(list(variants), args, PAIRED_METRICS,
                          chunk_blocks=chunk_blocks(lineups),
                          check_blocks=check_blocks(lineups))
    acc, n = pipeline.paired_games(family(game), run, games, seed, progress, batch_blocks,
                                   precision)
    result = pipeline.whatif_result(family(game), run, acc, n, seed, used,
                                    precision=precision, cap=games)
    result.notes += _unread_notes(variants, n_players)
    if untrained_notes:
        rows = result.tables["variants"].to_dict("records")
        result.notes += _untrained_notes(game, variants, rows, n_players, n, seed)
    return result


def _unread_notes(variants: Sequence[tuple[str, dict[str, Any], list[str]]],
                  players: int) -> list[str]:
    """A note for each rule a what-if variant changes from the baseline that no game of
    ``players`` players reads (``params.unread_at``; none where the random policy plays,
    which wastes picks)."""
    if any(p.strip().lower() == "random" for _, _, lineup in variants for p in lineup):
        return []
    base, unread = variants[0][1], unread_at(players)
    return [f"variant {label!r}: {name} is read by no game of {players} player"
            f"{'s' * (players > 1)} of these policies, as {why}"
            for label, values, _ in variants[1:] for name, why in unread.items()
            if values[name] != base[name]]


def _untrained_notes(game: CleverGame, variants, rows: list[dict], players: int, games: int,
                     seed: int) -> list[str]:
    """Where ``learned`` plays: the line naming it, and a note for each variant whose
    rules its network was not trained on (with the heuristic's figure in that variant's
    games)."""
    notes = []
    for label, values, policies in variants:
        lineup = seats.cycle_lineup([p.strip().lower() for p in policies], players)
        if "learned" not in lineup:
            continue
        if not notes:
            notes += trained_on.network_note(game, values)
        mean = next(r["value"] for r in rows
                    if r["variant"] == label and r["metric"] == "mean_score")
        notes += trained_on.off_training_note(
            game, values, f"{mean:.1f} (mean score of all players, variant {label!r})",
            lambda v=values, u=lineup: heuristic_figure(game, v, u, games, seed))
    return notes
