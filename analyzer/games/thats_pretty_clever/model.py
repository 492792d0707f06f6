"""That's Pretty Clever rule parameters and its description for the shared Clever analyzer
(rules page: ``docs/rules/thats-pretty-clever.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from analyzer.games.clever.game import CleverGame
from analyzer.games.clever.params import RULINGS, designer_params, shared_params
from analyzer.games.thats_pretty_clever import sheetfile, text
from kernels.clever_base.sheet import (FLAG_EARLIEST_FIRST, FLAG_KEEP_OVERFLOW,
                                       FOX_FIXED_SHIFT, TPC)
from kernels.thats_pretty_clever import layout
from kernels.thats_pretty_clever.value import N_VALUE_WEIGHTS

PARAMS = shared_params(
    ((1, "a re-roll"), (2, "a +1"), (3, "a re-roll"), (4, "black X or black 6")),
    {"wasted_pick": "14.1", "forfeited_dice": "14.2", "passive_may_decline": "14.3",
     "bonus_order": "11, 14.4", "action_overflow": "14.5", "solo_ties": "14.6",
     "solo_fallback": "14.7", "plus_after_decline": "14.8", "final_plus": "14.9",
     "ties": "12"},
    "white, yellow, blue, green, orange, purple") + designer_params(
    {"start_rerolls": "10, 14.10", "start_plus_ones": "10, 14.10", "fox_value": "12, 14.11"})
RATING_BANDS = (  # (lowest score, label) from the rulebook's solo table (section 13)
    (281, "You're So Clever"), (260, "Are you Einstein?"), (240, "What a genius!"),
    (220, "Impressive!"), (200, "Hat's off to you!"), (180, "Great result!"),
    (160, "That was pretty good."), (140, "Not bad... you could do better."),
    (0, "Try harder!"),
)


def sheet_flags(values: dict[str, Any]) -> int:
    """The sheet flag bits for the rulings its own rules follow, and what a fox is worth
    (``fox_value``, from bit ``FOX_FIXED_SHIFT``)."""
    return (FLAG_EARLIEST_FIRST * (values["bonus_order"] == "earliest_first")
            + FLAG_KEEP_OVERFLOW * (values["action_overflow"] == "kept")
            + (values["fox_value"] << FOX_FIXED_SHIFT))


def _no_extra_rules(values: dict[str, Any], out: np.ndarray) -> None:
    """That's Pretty Clever has no rules-vector entries of its own."""


def round_options(code: int) -> tuple[tuple[int, str], ...]:
    """Section 3: the round-4 choice (code -1) of a black X or a black 6."""
    if code >= 0:
        return ()
    options = []
    for option in layout.ROUND4_OPTIONS:
        kind = int(option) // 8
        what = "black 6 in" if kind in (layout.WRITE_ORANGE, layout.WRITE_PURPLE) else \
            "black X in"
        options.append((int(option), f"{what} {layout.BONUS_NAMES[kind].split()[0]}"))
    return tuple(options)


GAME = CleverGame(
    id="thats-pretty-clever", title="That's Pretty Clever", prefix="tpc", kernel_game=TPC,
    params=PARAMS, layout=layout, letters="WYBGOP", folder=Path(__file__).parent,
    value_size=N_VALUE_WEIGHTS, rating_bands=RATING_BANDS, rulings=RULINGS,
    sheetfile=sheetfile, sheet_flags=sheet_flags, extra_rules=_no_extra_rules,
    # advice: each rollout ends at the end of the round after next, valued there by the network
    # (scripts/advice_horizon.py measures a horizon against full rollouts)
    advice_horizon=2,
    report_band=180, describe=text.describe, open_bonuses=text.open_bonuses,
    round_options=round_options,
    reference="published bots on the same rules reach 183.8 (tuned expectimax) and 250+ "
              "(neural value functions)")
