"""``dicelab <clever game> tune``: the rule values that bring simulated figures nearest to
their targets. The Clever games' rule parameters are switches, choices and round counts,
so every combination of the free ones is played, all on the same dice (common random
numbers: the paired what-if loop), and the nearest is chosen; each figure keeps its 95%
interval. The rules in force are played first, so the answer's side effects (its other
figures against them) are paired differences of the same games."""

from __future__ import annotations

import itertools
from typing import Any, Sequence

import numpy as np
import pandas as pd

from analyzer.games.clever import trained_on
from analyzer.games.clever.game import CleverGame
from analyzer.games.clever.simulation import heuristic_figure, whatif
from analyzer.errors import UserError
from analyzer.output import Result
from analyzer.params import assumed_notes
from analyzer.seats import as_precision
from analyzer.paired import BASELINE, SEAT_WIN
from analyzer.tune import (CLOSE, SIDE_EFFECTS, effects_table, metric_words, parse_targets,
                           whatif_effects)

MAX_COMBINATIONS = 64
TARGETS = {
    "mean_score": "mean final score per player",
    "first_seat_win_rate": "share of wins of the first seat (2 or more players)",
    "foxes_per_player": "mean foxes per player",
}
EFFECTS = {  # the what-if's figures of the side effects, in words (and each seat's win rate)
    "mean_score": "mean final score a player",
    "foxes_per_player": "foxes a player",
}


def choices(game: CleverGame, name: str) -> list[Any]:
    """The values a free rule parameter's search tries: every value of a switch or a
    choice, the documented search range of a number (``Param.search``: rounds 4 to 8)."""
    param = next((p for p in game.params if p.name == name), None)
    if param is None or name == "players":
        accepted = ", ".join(p.name for p in game.params if p.name != "players")
        raise UserError(f"unknown free parameter {name!r}: expected some of {accepted}")
    if param.kind == "bool":
        return [False, True]
    if param.kind == "choice":
        return list(param.choices)
    low, high = param.search or (param.low, param.high)
    return list(range(int(low), int(high) + 1))


def tune(game: CleverGame, values: dict[str, Any], target_texts: Sequence[str],
         free_text: str, policy: str, games: int, seed: int, precision: Any,
         threads: int | None = None, progress: bool = True) -> Result:
    """Play every combination of the free parameters' values on common random numbers
    (up to ``games`` games, until paired differences are as narrow as ``precision`` asks:
    a ``seats.Precision``, or a number of points; none: ``games`` games) and answer the
    one nearest the targets, with its side effects: the other figures against the rules
    in force (played first, so every difference is paired with them)."""
    targets = parse_targets(target_texts, TARGETS.__contains__, ", ".join(TARGETS))
    as_precision(precision)  # a bad width is one line
    if values["players"] == 1 and "first_seat_win_rate" in {t.name for t in targets}:
        raise UserError("first_seat_win_rate needs 2 or more players (--set players=N)")
    names, grid = free_grid(game, free_text)
    variants = [(", ".join(f"{n}={v}" for n, v in zip(names, combo)),
                 {**values, **dict(zip(names, combo))}, [policy]) for combo in grid]
    run = whatif(game, baseline_first(variants, values, policy), games, seed, threads,
                 progress, precision, untrained_notes=False)
    played = run.tables["variants"]
    rows = [combination_row(played, label, dict(zip(names, combo)), targets)
            for (label, _, _), combo in zip(variants, grid)]
    best_label = variants[min(range(len(rows)), key=lambda i: rows[i]["miss"])][0]
    table = pd.DataFrame(rows).sort_values("miss", kind="stable").reset_index(drop=True)
    best = table.iloc[0]
    met = all(best[f"{t.name}_ci95_low"] <= t.value <= best[f"{t.name}_ci95_high"]
              for t in targets)
    for t in targets:
        if abs(best[t.name] - t.value) > max(CLOSE * abs(t.value), CLOSE):
            raise UserError(f"target {t.name}={t.value:g} is out of reach with "
                            f"{', '.join(names)}: the nearest is {best[t.name]:.4g}")
    games_played = run.meta["games"]
    found = {n: best[n].item() if hasattr(best[n], "item") else best[n] for n in names}
    notes = _notes(targets, policy, games_played, run.notes, met)
    if policy == "learned":
        notes += trained_on.network_note(game, {**values, **found})
        notes += _untrained_note(game, variants, {**values, **found}, played, games_played,
                                 seed)
    return Result(
        title=f"{game.title} rules for {', '.join(f'{t.name}={t.value:g}' for t in targets)}",
        headline={"values": found, "met": bool(met),
                  **{t.name: float(best[t.name]) for t in targets}},
        tables={"combinations": table,
                SIDE_EFFECTS: side_effects(run, best_label, policy, targets)},
        meta={**run.meta, "policy": policy, "free": names},
        notes=notes + assumed_notes(game.params, values))


def free_grid(game: CleverGame, free_text: str) -> tuple[list[str], list[tuple]]:
    """The free parameters' names and every combination of their values (at most
    ``MAX_COMBINATIONS``, at least two)."""
    names = [n.strip() for n in free_text.split(",") if n.strip()]
    if not names:
        raise UserError("no --free parameter given: expected some of "
                        + ", ".join(p.name for p in game.params if p.name != "players"))
    grid = list(itertools.product(*(choices(game, n) for n in names)))
    if len(grid) > MAX_COMBINATIONS:
        raise UserError(f"{len(grid)} combinations of {', '.join(names)}: accepted at most "
                        f"{MAX_COMBINATIONS} (fewer free parameters)")
    if len(grid) == 1:
        raise UserError(f"{names[0]} has one value only: nothing to tune")
    return names, grid


def baseline_first(variants: list, values: dict[str, Any], policy: str) -> list:
    """The variants to play, the baseline (the rules in force) first: the combination
    that is the rules in force moved to the front, or the rules in force added (where a
    value in force lies outside the search range)."""
    for k, (_, rules, _) in enumerate(variants):
        if rules == values:
            return [variants[k]] + variants[:k] + variants[k + 1:]
    return [(BASELINE, values, [policy])] + variants


def combination_row(played: pd.DataFrame, label: str, combo: dict[str, Any],
                    targets: Sequence[Any]) -> dict[str, Any]:
    """A combination's row: its values, each target's figure with its 95% interval, and
    its miss (the root mean square of the misses, each relative to its target)."""
    row, miss = dict(combo), 0.0
    for t in targets:
        got = played[(played["variant"] == label) & (played["metric"] == t.name)].iloc[0]
        row[t.name] = got["value"]
        row[f"{t.name}_ci95_low"], row[f"{t.name}_ci95_high"] = got["ci95_low"], \
            got["ci95_high"]
        miss += ((got["value"] - t.value) / max(abs(t.value), 1.0)) ** 2
    row["miss"] = float(np.sqrt(miss))
    return row


def side_effects(run: Result, label: str, policy: str, targets: Sequence[Any]
                 ) -> pd.DataFrame:
    """The side-effects table of the answer (variant ``label`` of the what-if ``run``,
    whose first variant is the rules in force): every figure that is not a target."""
    named = {t.name for t in targets}
    if "first_seat_win_rate" in named:
        named.add(f"{SEAT_WIN}1")
    words = {name: text for name, text in EFFECTS.items() if name not in named}
    lineup = [policy] * run.headline["players"]
    return effects_table(whatif_effects(
        run, label, lambda name: None if name in named else metric_words(name, lineup, words)))


def _notes(targets: Sequence[Any], policy: str, games: int, whatif_notes: list[str],
           met: bool) -> list[str]:
    """The answer's notes: each target, the games played, the side effects, the precision
    reached, and whether no interval contains every target."""
    notes = [f"{t.name}: {TARGETS[t.name]}, played by {policy}" for t in targets]
    notes.append(f"every combination played the same {games:,} games (common random "
                 "numbers); 95% intervals")
    notes.append(f"{SIDE_EFFECTS}: the other figures of the answer against the baseline "
                 "(the rules in force), from the same games, each difference with its 95% "
                 "interval")
    notes += [note for note in whatif_notes if note.startswith("ran until")]
    if not met:
        notes.insert(0, "no combination's 95% interval contains every target: the nearest "
                        "is shown")
    return notes


def _untrained_note(game: CleverGame, variants: list, answer: dict[str, Any],
                    played: pd.DataFrame, games: int, seed: int) -> list[str]:
    """A note when combinations were played by ``learned`` off its network's training
    rules: how many, and for the answer's rules its mean score beside the heuristic's."""
    off = sum(bool(trained_on.differences(game, v)) for _, v, _ in variants)
    if not off:
        return []
    label = next(text for text, v, _ in variants if v == answer)
    mean = played[(played.variant == label) & (played.metric == "mean_score")]["value"]
    lineup = ["learned"] * answer["players"]
    note = trained_on.off_training_note(
        game, answer, f"{float(mean.iloc[0]):.1f} (mean score of all players)",
        lambda: heuristic_figure(game, answer, lineup, games, seed))
    return [f"{off} of the {len(variants)} combinations are off the learned network's "
            "training rules"] + note

