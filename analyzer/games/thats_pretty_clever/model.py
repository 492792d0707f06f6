"""That's Pretty Clever rule parameters and policies (rules page:
``shared/rules/thats-pretty-clever.md``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import UserError
from analyzer.params import Param
from kernels.thats_pretty_clever import play
from kernels.thats_pretty_clever.layout import (
    N_GAME_RULES,
    ROUND_BONUS,
    ROUNDS_BY_PLAYERS,
    RULE_FORFEIT_TO_PLATTER,
    RULE_PASSIVE_DECLINE,
    RULE_WASTED_PICK,
)

PARAMS = (
    Param("players", "int", 1, "players in a game (1 = solo)", low=1, high=4),
    Param("rounds", "int", 0, "rounds in a game; 0 = by player count (6, 6, 5, 4 for 1-4)",
          low=0, high=12),
) + tuple(
    Param(f"round_{r}_bonus", "bool", True, f"the round track's round-{r} bonus ({label})")
    for r, label in ((1, "a re-roll"), (2, "a +1"), (3, "a re-roll"),
                     (4, "black X or black 6"))) + (
    Param("wasted_pick", "bool", False, "UNCONFIRMED (section 14.1): an active player may "
          "pick a die that has no legal placement (it moves, nothing is entered); only the "
          "random policy uses it",
          assumed=True),
    Param("forfeited_dice", "choice", "stay", "UNCONFIRMED (section 14.2): after a roll with "
          "no usable die the dice stay in play or go to the platter", assumed=True,
          choices=("stay", "platter")),
    Param("passive_may_decline", "bool", True, "UNCONFIRMED (section 14.3): a passive player "
          "may decline to pick; only the random policy uses it", assumed=True),
)

POLICY_HELP = {
    "random": "a uniformly random legal choice everywhere",
    "greedy": "the choice with the best score right after it (bonuses placed the same way)",
    "heuristic": "the best weighted estimate of the sheet's worth (weights tuned by "
                 "scripts/tune_tpc.py, stored in heuristic_weights.json)",
}
WEIGHTS_FILE = Path(__file__).with_name("heuristic_weights.json")
WEIGHT_NAMES = ("yellow_2", "yellow_3", "blue", "green", "orange_free", "purple",
                "purple_room", "reroll", "plus_one", "fox", "min_area", "platter",
                "reroll_below", "plus_above", "late")

# rulings on the rules page's UNCONFIRMED points that the engine implements (section 14)
RULINGS = (
    "simultaneous bonuses: resolved depth-first, the latest triggered first; free marks are "
    "placed by the policy",
    "action-track overflow: an 8th re-roll or +1 unlock is lost",
    "solo passive turn: ties for the three lowest dice are broken at random",
    "+1 actions: each die at most once per turn",
)


def heuristic_weights() -> np.ndarray:
    """The tuned heuristic weights (float64[len(WEIGHT_NAMES)])."""
    data = json.loads(WEIGHTS_FILE.read_text())
    return np.array([float(data["weights"].get(n, 0.0)) for n in WEIGHT_NAMES])


def policy_row(kind: int, weights: np.ndarray | None = None) -> np.ndarray:
    row = np.zeros(play.N_POL)
    row[play.KIND] = kind
    if weights is not None:
        row[1:] = weights
    return row


def parse_policy(name: str) -> np.ndarray:
    """The kernel row of a policy name; a ``UserError`` listing the names otherwise."""
    text = name.strip().lower()
    if text not in play.POLICY_NAMES:
        raise UserError(f"unknown policy {name!r}; accepted: {', '.join(POLICY_HELP)}")
    kind = play.POLICY_NAMES.index(text)
    return policy_row(kind, heuristic_weights() if kind == play.HEURISTIC else None)


def rounds_for(values: dict[str, Any]) -> int:
    return values["rounds"] or int(ROUNDS_BY_PLAYERS[values["players"]])


def game_rules(values: dict[str, Any]) -> np.ndarray:
    """The kernels' game-rules vector (int64[N_GAME_RULES]): the round-track bonuses in
    force (a switched-off one is 0), then the switches for the open points."""
    out = np.zeros(N_GAME_RULES, np.int64)
    out[:6] = ROUND_BONUS
    for r in range(1, 5):
        if not values[f"round_{r}_bonus"]:
            out[r - 1] = 0
    out[RULE_WASTED_PICK] = values["wasted_pick"]
    out[RULE_FORFEIT_TO_PLATTER] = values["forfeited_dice"] == "platter"
    out[RULE_PASSIVE_DECLINE] = values["passive_may_decline"]
    return out
