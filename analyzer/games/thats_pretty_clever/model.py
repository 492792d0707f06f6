"""That's Pretty Clever rule parameters and policies (rules page:
``shared/rules/thats-pretty-clever.md``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import UserError
from analyzer.params import Param
from kernels.clever import play
from kernels.clever.game_rules import (
    N_GAME_RULES,
    RULE_FORFEIT_TO_PLATTER,
    RULE_GAME,
    RULE_PASSIVE_DECLINE,
    RULE_SHEET_FLAGS,
    RULE_SOLO_TIES_BY_COLOUR,
    RULE_TIES_SHARED,
    RULE_WASTED_PICK,
)
from kernels.clever.sheet import FLAG_EARLIEST_FIRST, FLAG_KEEP_OVERFLOW, TPC
from kernels.thats_pretty_clever.layout import ROUND_BONUS, ROUNDS_BY_PLAYERS
from kernels.thats_pretty_clever.value import N_FEATURES, VALUE_STAGES

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
    Param("bonus_order", "choice", "latest_first", "UNCONFIRMED (sections 11, 14.4): bonuses "
          "fired by one mark resolve depth-first, the latest triggered first (free marks "
          "placed by the policy), or earliest_first (a queue)", assumed=True,
          choices=("latest_first", "earliest_first")),
    Param("action_overflow", "choice", "lost", "UNCONFIRMED (section 14.5): a re-roll or +1 "
          "unlocked with all 7 circles circled is lost, or kept", assumed=True,
          choices=("lost", "kept")),
    Param("solo_ties", "choice", "random", "UNCONFIRMED (section 14.6): ties for the solo "
          "passive turn's three lowest dice are broken at random, or in colour order (white, "
          "yellow, blue, green, orange, purple)", assumed=True,
          choices=("random", "colour_order")),
    Param("ties", "choice", "best_area", "tied totals (section 12): the best single area "
          "wins, then the win is shared; or shared at once", choices=("best_area", "shared")),
)

POLICY_HELP = {
    "random": "a uniformly random legal choice everywhere",
    "greedy": "the choice with the best score right after it (bonuses placed the same way)",
    "heuristic": "the best fitted estimate of the final score (score so far plus a linear "
                 "value of the sheet's features, fitted to simulated games by "
                 "scripts/train_tpc.py), looking one roll ahead at active picks",
    "heuristic:N": "the heuristic with N sampled rolls in its lookahead (heuristic:0 = no "
                   "lookahead, about 5 times faster)",
}
WEIGHTS_FILE = Path(__file__).with_name("heuristic_weights.json")
KNOBS = {"platter": play.W_PLATTER, "reroll_below": play.W_REROLL_BELOW,
         "plus_above": play.W_PLUS_ABOVE, "samples": play.W_SAMPLES, "branch": play.W_BRANCH,
         "gift": play.W_GIFT}

# where the engine departs from the rules page's recommendation on an open point (14.4)
RULINGS = (
    "bonuses fired together: the policy places each free mark but does not choose their "
    "order (the rules page recommends letting it); bonus_order sets the order",
)


def heuristic_row(path: Path = WEIGHTS_FILE) -> np.ndarray:
    """The heuristic's kernel row (float64[N_POL]): its knobs and fitted value weights as
    stored by ``scripts/train_tpc.py``."""
    data = json.loads(path.read_text())
    row = policy_row(play.HEURISTIC)
    for name, value in data["knobs"].items():
        row[KNOBS[name]] = float(value)
    weights = np.asarray(data["value_weights"], dtype=np.float64)
    if weights.shape != (VALUE_STAGES, N_FEATURES):
        raise ValueError(f"{path}: value_weights must be {VALUE_STAGES} x {N_FEATURES}")
    row[play.W_VALUE:] = weights.ravel()
    return row


def policy_row(kind: int) -> np.ndarray:
    """A policy's kernel row (float64[N_POL]) with no weights set."""
    row = np.zeros(play.N_POL)
    row[play.KIND] = kind
    return row


def parse_policy(name: str) -> np.ndarray:
    """The kernel row of a policy name; a ``UserError`` listing the names otherwise."""
    text = name.strip().lower()
    base, _, samples = text.partition(":")
    if base not in play.POLICY_NAMES or (samples and base != "heuristic"):
        raise UserError(f"unknown policy {name!r}; accepted: {', '.join(POLICY_HELP)}")
    kind = play.POLICY_NAMES.index(base)
    if kind != play.HEURISTIC:
        return policy_row(kind)
    row = heuristic_row()
    if samples:
        if not samples.isdigit() or int(samples) > 256:
            raise UserError(f"bad lookahead {samples!r} in {name!r}: expected heuristic:N "
                            "with N a whole number from 0 to 256")
        row[play.W_SAMPLES] = int(samples)
    return row


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
    out[RULE_TIES_SHARED] = values["ties"] == "shared"
    out[RULE_SOLO_TIES_BY_COLOUR] = values["solo_ties"] == "colour_order"
    out[RULE_SHEET_FLAGS] = sheet_flags(values)
    out[RULE_GAME] = TPC
    return out


def sheet_flags(values: dict[str, Any]) -> int:
    """The ``S_FLAGS`` bits a sheet carries for the rulings its own rules follow."""
    return (FLAG_EARLIEST_FIRST * (values["bonus_order"] == "earliest_first")
            + FLAG_KEEP_OVERFLOW * (values["action_overflow"] == "kept"))
