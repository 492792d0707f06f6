"""``dicelab cloverup tune``: the face weights that give the exact solver's figures the
values asked for (``analyzer.tune``), every other weight and rule as in force; and what the
found weights do to the other headline figures (exact ones from the solvers, game ones
from a paired what-if against the baseline)."""

from __future__ import annotations

import re
from typing import Any, Sequence

import numpy as np
import pandas as pd

from analyzer.games.cloverup.analyses import run_meta
from analyzer.games.cloverup.model import Model, get_model, parse_policy
from analyzer.games.cloverup.params import PARAMS
from analyzer.output import Result
from analyzer.params import assumed_notes
from analyzer.paired import BASELINE
from analyzer.tune import (SIDE_EFFECTS, SideEffectRun, effect_row, effects_note,
                           effects_table, metric_words, parse_free, parse_targets, solve,
                           whatif_effects)
from kernels.cloverup import layout

FREE = ("1", "2", "3", "4", "5", "6", "clover")  # the weights, in the order of ``weights``
WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6"}
WEIGHT_BOUNDS = (0.01, 100.0)  # a free weight's range unless --bounds says otherwise
WEIGHT_LIMITS = (1e-6, 1e6)
TOLERANCE = 1e-6  # exact figures: every target met to this

TARGETS = {
    "expected_score": "expected points of a turn under the highest-expected-score play",
    "p_at_least_T": "chance of a turn worth at least T points (T = 3..18) under the play "
                    "that maximises it",
    "p_instant_win": "chance of three clovers in a turn under the highest-expected-score "
                     "play",
    "p_triple_six": "chance of three natural sixes in a turn under the same play",
    "first_seat_win": "chance that the first seat wins a two-player game, both playing to "
                      "win (a tie counts one half)",
}
_AT_LEAST = re.compile(r"p_at_least_(\d+)")
EXACT_EFFECTS = {  # the exact headline figures of the side effects, in words
    "expected_score": "expected turn score (optimal play)",
    "p_instant_win": "instant-win chance a turn (optimal play)",
    "p_triple_six": "triple-six chance a turn (optimal play)",
    "first_seat_win": "first seat's win chance, two players both playing to win",
}
GAME_EFFECTS = {  # the what-if's game figures, in words
    "mean_score": "mean game score a player",
    "p_instant_win_game": "instant-win chance a game",
    "triple_sixes_per_game": "triple sixes a game",
}
OPTIMAL = parse_policy("optimal")


def is_target(name: str) -> bool:
    match = _AT_LEAST.fullmatch(name)
    return name in TARGETS and name != "p_at_least_T" or (
        match is not None and 3 <= int(match.group(1)) <= layout.MAX_POINTS)


def figure(model: Model, name: str) -> float:
    """The exact figure a target names, for the model's rules."""
    if name == "expected_score":
        return float(model.optimize(OPTIMAL)[3])
    if name == "p_instant_win":
        return float(model.optimize(OPTIMAL)[4])
    if name == "p_triple_six":
        return float(model.outcome_distribution(OPTIMAL)[layout.TRIPLE_SIX])
    if name == "first_seat_win":
        return model.first_seat_win_chance()
    return float(model.optimize(parse_policy(f"reach:{name.rsplit('_', 1)[1]}"))[3])


def with_weights(values: dict[str, Any], free: Sequence[str], x) -> dict[str, Any]:
    """``values`` with the free weights set to ``x``."""
    weights = list(values["weights"])
    for name, value in zip(free, x):
        weights[FREE.index(name)] = float(value)
    return {**values, "weights": tuple(weights)}


def tune(values: dict[str, Any], target_texts: Sequence[str], free_text: str,
         bounds: Sequence[str] = (), side_effects: SideEffectRun | None = None) -> Result:
    """The free weights that meet the targets; ``UserError`` when one is out of reach.
    With ``side_effects``, also the side-effects table: the other headline figures at
    the found weights against the rules in force."""
    targets = parse_targets(target_texts, is_target, ", ".join(TARGETS))
    free_text = ",".join(WORDS.get(n.strip(), n.strip()) for n in free_text.split(","))
    free = parse_free(free_text, FREE, lambda n: float(values["weights"][FREE.index(n)]),
                      bounds, WEIGHT_BOUNDS, WEIGHT_LIMITS)
    if side_effects is not None:  # a bad lineup is one line before the search
        from analyzer.games.cloverup.simulation import lineup_of

        lineup_of(side_effects.lineup, values["players"])
    baseline, names = values, [f.name for f in free]
    if "first_seat_win" in {t.name for t in targets} and values["players"] != 2:
        values = {**values, "players": 2}

    def evaluate(x: np.ndarray) -> list[float]:
        model = Model(with_weights(values, names, x))
        return [figure(model, t.name) for t in targets]

    answer = solve(evaluate, free, targets, TOLERANCE)
    found = with_weights(values, names, [answer.values[n] for n in names])
    notes = [f"{t.name}: {TARGETS.get(t.name, TARGETS['p_at_least_T'])}" for t in targets]
    if not answer.met:
        notes.insert(0, "not every target can be met within the bounds: the nearest values "
                        "are shown (residual = achieved - wanted)")
    notes += [f"free: {', '.join(f'{f.name} in [{f.low:g}, {f.high:g}]' for f in free)}; "
              "the other weights stay as they are"]
    tables, meta = {"targets": pd.DataFrame(answer.rows())}, {}
    if side_effects is not None:
        found_baseline = with_weights(baseline, names, [answer.values[n] for n in names])
        effects, effect_notes, meta = effects_of(baseline, found_baseline, answer.values,
                                                 [t.name for t in targets], side_effects)
        tables[SIDE_EFFECTS] = effects
        notes += effect_notes
    return Result(
        title=f"CloverUp weights for {', '.join(f'{t.name}={t.value:g}' for t in targets)}",
        headline={"weights": [float(w) for w in found["weights"]], "free": answer.values,
                  "met": answer.met},
        tables=tables,
        meta=run_meta(found, meta.pop("seed", None), evaluations=answer.evaluations, **meta),
        notes=notes + assumed_notes(PARAMS, found))


def effects_of(baseline: dict[str, Any], found: dict[str, Any], free: dict[str, float],
               targets: Sequence[str], run: SideEffectRun
               ) -> tuple[pd.DataFrame, list[str], dict[str, Any]]:
    """The side-effects table of the found weights (``found``: the rules in force with
    them, ``free``: the weights found): the exact figures that are not targets, then the
    game figures of a paired what-if against ``baseline``; its notes and meta."""
    from analyzer.games.cloverup.simulation import whatif

    base_model, found_model = get_model(baseline), get_model(found)
    rows = [effect_row(name, words, figure(base_model, name), figure(found_model, name))
            for name, words in EXACT_EFFECTS.items() if name not in targets]
    label = ", ".join(f"{name}={value:.6g}" for name, value in free.items())
    result = whatif([(BASELINE, baseline, run.lineup), (label, found, run.lineup)],
                    run.games, run.seed, run.threads, run.progress, run.precision)
    rows += whatif_effects(result, label, lambda name: game_words(name, run.lineup),
                           exact=("exact_turn_score",))
    played = result.meta["games"]
    notes = [effects_note(played, run.seed, run.lineup)]
    notes += [note for note in result.notes if note.startswith("ran until")]
    meta = {"seed": run.seed, "side_effect_games": played, "lineup": list(run.lineup)}
    return effects_table(rows), notes, meta


def game_words(name: str, lineup: Sequence[str]) -> str | None:
    """A CloverUp what-if metric in words, or None where it repeats another row (the
    exact turn score of the optimal policy: ``EXACT_EFFECTS``)."""
    if name == "exact_turn_score":
        first = parse_policy(lineup[0])
        return None if first == OPTIMAL else f"expected turn score ({first.name})"
    return metric_words(name, lineup, GAME_EFFECTS)
