"""``dicelab cloverup tune``: the face weights that give the exact solver's figures the
values asked for (``analyzer.tune``), every other weight and rule as in force."""

from __future__ import annotations

import re
from typing import Any, Sequence

import numpy as np
import pandas as pd

from analyzer.games.cloverup.analyses import run_meta
from analyzer.games.cloverup.model import Model, parse_policy
from analyzer.games.cloverup.params import PARAMS
from analyzer.output import Result
from analyzer.params import assumed_notes
from analyzer.tune import parse_free, parse_targets, solve
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
         bounds: Sequence[str] = ()) -> Result:
    """The free weights that meet the targets; ``UserError`` when one is out of reach."""
    targets = parse_targets(target_texts, is_target, ", ".join(TARGETS))
    free_text = ",".join(WORDS.get(n.strip(), n.strip()) for n in free_text.split(","))
    free = parse_free(free_text, FREE, lambda n: float(values["weights"][FREE.index(n)]),
                      bounds, WEIGHT_BOUNDS, WEIGHT_LIMITS)
    names = [f.name for f in free]
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
    return Result(
        title=f"CloverUp weights for {', '.join(f'{t.name}={t.value:g}' for t in targets)}",
        headline={"weights": [float(w) for w in found["weights"]], "free": answer.values,
                  "met": answer.met},
        tables={"targets": pd.DataFrame(answer.rows())},
        meta=run_meta(found, evaluations=answer.evaluations),
        notes=notes + assumed_notes(PARAMS, found))
