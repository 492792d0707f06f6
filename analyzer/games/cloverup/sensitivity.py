"""What each CloverUp rule is worth: every rule but the face weights moved one step either
way (a yes/no rule flipped) and a few other sets of face weights, each alone, with its
exact effect on a turn's expected score and on the first seat's two-player chance to win."""

from __future__ import annotations

from typing import Any

import pandas as pd

from analyzer.games.cloverup.analyses import EV
from analyzer.games.cloverup.model import get_model
from analyzer.games.cloverup.params import GAME_ONLY, PARAMS

STEPPED = ("rerolls", "clover_bonus_rerolls", "double_six_rule", "double_six_bonus_rerolls",
           "one_clover_floor", "one_clover_triples_from", "triple_six_effect", "rounds")
FLOOR_STEP = 2  # points the clover floor moves by (one point changes little)
TURN_ONLY = ("rounds",)  # rules a single turn does not see
BY_NAME = {param.name: param for param in PARAMS}


def _steps(values: dict[str, Any]) -> list[tuple[str, Any]]:
    """(parameter, new value) for each rule of ``STEPPED``, within its bounds."""
    out: list[tuple[str, Any]] = []
    for param in PARAMS:
        if param.name not in STEPPED or param.name in GAME_ONLY:
            continue
        now = values[param.name]
        if param.kind == "bool":
            out.append((param.name, not now))
            continue
        step = FLOOR_STEP if param.name == "one_clover_floor" else 1
        out += [(param.name, now + d) for d in (-step, step) if param.low <= now + d <= param.high]
    return out


def change_words(name: str, value: Any) -> str:
    """A rule change in plain words, e.g. "3 re-rolls a turn" (``Param.words``)."""
    return BY_NAME[name].words(value)


def _row(values: dict[str, Any], label: str, param: str) -> dict[str, Any]:
    turn = float(get_model({**values, "players": 1}).optimize(EV)[3])
    first = get_model({**values, "players": 2}).first_seat_win_chance()
    return {"change": label, "parameter": param, "expected_points": turn,
            "first_seat_win_rate": first}


def rule_changes(values: dict[str, Any], weight_sets: tuple = ()) -> pd.DataFrame:
    """Each one-rule change of ``values`` and each of ``weight_sets`` ((name, weights)),
    beside the rules in force (the first row), with the exact expected turn score under
    optimal play and the first seat's chance to win a two-player game when both play to
    win; ``*_change`` columns are the differences from the rules in force."""
    rows = [_row(values, "rules in force", "")]
    for name, value in _steps(values):
        rows.append(_row({**values, name: value}, change_words(name, value), name))
    for name, weights in weight_sets:
        rows.append(_row({**values, "weights": tuple(weights)}, name, "weights"))
    table = pd.DataFrame(rows)
    base = table.iloc[0]
    table["expected_points_change"] = table.expected_points - base.expected_points
    table["first_seat_change"] = table.first_seat_win_rate - base.first_seat_win_rate
    turn_blind = table.parameter.isin(TURN_ONLY)
    table.loc[turn_blind, ["expected_points", "expected_points_change"]] = float("nan")
    return table
