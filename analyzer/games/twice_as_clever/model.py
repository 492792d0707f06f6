"""Twice As Clever rule parameters and its description for the shared Clever analyzer
(rules page: ``docs/rules/twice-as-clever.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from analyzer.games.clever.game import CleverGame
from analyzer.games.clever.params import RULINGS, designer_params, shared_params
from analyzer.games.twice_as_clever import sheetfile, text
from analyzer.params import choice_param
from kernels.clever_base.game_rules import RULE_RETURN_ON_REROLL, RULE_SKIP_ROLL
from kernels.clever_base.sheet import (FLAG_PLUS_PER_ROUND, FLAG_RETURN_EMPTY_POOL,
                                       FOX_FIXED_SHIFT, TAC)
from kernels.twice_as_clever import layout
from kernels.twice_as_clever.value import N_VALUE_WEIGHTS

PARAMS = shared_params(
    ((1, "a re-roll"), (2, "a +1"), (3, "a return"), (4, "the black ?")),
    {"wasted_pick": "12.6", "forfeited_dice": "12.6", "passive_may_decline": "12.6",
     "bonus_order": "6, 12.8", "action_overflow": "12.7", "solo_ties": "12.6",
     "solo_fallback": "12.10", "plus_after_decline": "12.10", "final_plus": "12.10",
     "ties": "7"},
    "white, yellow, blue, green, pink, silver") + (
    choice_param("plus_one_scope", "UNCONFIRMED (section 12.1): +1 actions take each die "
                 "once per round (the English text) or once per turn (the base game)",
                 "how often a +1 may take a die", assumed=True,
                 round="a +1 takes each die once a round",
                 turn="a +1 takes each die once a turn"),
    choice_param("blue_question", "UNCONFIRMED (section 12.2): a blue ? writes a sum no "
                 "higher than the last (descending) or any sum 2-12 (any)", "the blue ?",
                 assumed=True, descending="a blue ? no higher than the last",
                 any="a blue ? may write any sum"),
    choice_param("fox_negative", "UNCONFIRMED (section 12.3): each fox is worth the lowest "
                 "area score, negative (green) included, but 0 whenever an area scores "
                 "exactly 0, as the rulebook says, even beside a negative one (rulebook); the "
                 "lowest score even then (literal); or 0 for a negative lowest (zero)",
                 "foxes beside a negative area", assumed=True,
                 rulebook="a fox worth 0 whenever an area scores 0",
                 literal="a fox always worth the lowest area",
                 zero="a fox never worth less than 0"),
    choice_param("chain_third_pick", "UNCONFIRMED (section 12.4): a silver third pick chains "
                 "only the dice lower than it (lower) or every die left (all)",
                 "dice a silver third pick marks", assumed=True,
                 lower="a silver third pick marks lower dice only",
                 all="a silver third pick marks every die left"),
    choice_param("return_timing", "UNCONFIRMED (section 12.5): returns are used before a roll "
                 "and also between a roll and its re-roll (the returned die joins the "
                 "re-roll), or only before rolls 2 and 3; several may be used before one roll",
                 "when returns may be used", assumed=True,
                 rolls_and_rerolls="returns before rolls and re-rolls",
                 rolls_only="returns before rolls only"),
    choice_param("skip_roll", "section 2: the active player may leave a usable roll unused, "
                 "entering nothing (allowed: the rulebook's 'can't use or does not want to "
                 "use'; only the random and learned policies do), or must pick a usable die "
                 "(never: the public bots' engine)", "leaving a usable roll unused",
                 allowed="a usable roll may go unused", never="a usable roll must be used"),
    choice_param("return_empty_pool", "UNCONFIRMED (section 12.9): a pick that leaves no dice "
                 "in play ends the turn's rolls, fewer than three (ends_turn, the rulebook's "
                 "words and the public bots' engine), or a return may still bring a platter "
                 "die back and the turn goes on (return_allowed)",
                 "a return once the dice run out", assumed=True,
                 ends_turn="no dice left ends the turn",
                 return_allowed="a return may restart a turn out of dice"),
) + designer_params(
    {"start_rerolls": "5, 12.11", "start_plus_ones": "5, 12.11", "fox_value": "7, 12.12"})
RATING_BANDS = (  # (lowest score, label) from the rulebook's solo table (section 11)
    (320, "Twice as clever!"), (300, "Points = IQ!"), (280, "Respect!"),
    (260, "This can't be luck!"), (240, "People, look at this!"),
    (220, "Pretty, pretty clever!"), (200, "You've been training!"),
    (180, "You should be happy!"), (160, "On the right way."), (140, "You can do better."),
    (0, "Half as clever."),
)


def sheet_flags(values: dict[str, Any]) -> int:
    """The sheet flag bits for the rulings its own rules follow, and what a fox is worth
    (``fox_value``, from bit ``FOX_FIXED_SHIFT``)."""
    return (layout.FLAG_EARLIEST_FIRST * (values["bonus_order"] == "earliest_first")
            + layout.FLAG_KEEP_OVERFLOW * (values["action_overflow"] == "kept")
            + layout.FLAG_BLUE_Q_ANY * (values["blue_question"] == "any")
            + layout.FLAG_FOX_FLOOR_ZERO * (values["fox_negative"] == "zero")
            + layout.FLAG_FOX_ZERO_AREA * (values["fox_negative"] == "rulebook")
            + FLAG_PLUS_PER_ROUND * (values["plus_one_scope"] == "round")
            + layout.FLAG_CHAIN_LEFTOVERS * (values["chain_third_pick"] == "all")
            + FLAG_RETURN_EMPTY_POOL * (values["return_empty_pool"] == "return_allowed")
            + (values["fox_value"] << FOX_FIXED_SHIFT))


def extra_rules(values: dict[str, Any], out: np.ndarray) -> None:
    """Section 12.5: may a return come between a roll and its re-roll? Section 2: may a
    usable roll go unused?"""
    out[RULE_RETURN_ON_REROLL] = values["return_timing"] == "rolls_and_rerolls"
    out[RULE_SKIP_ROLL] = values["skip_roll"] == "allowed"


def round_options(code: int) -> tuple[tuple[int, str], ...]:
    """Section 3: the black ? of round 4 is the ? of an area of the player's choice."""
    if code != layout.Q_ANY:
        return ()
    return tuple((int(q), f"{layout.AREA_NAMES[a]} ?") for a, q in enumerate(layout.Q_OF_AREA))


GAME = CleverGame(
    id="twice-as-clever", title="Twice As Clever", prefix="tac", kernel_game=TAC,
    params=PARAMS, layout=layout, letters="WYBGPS", folder=Path(__file__).parent,
    # without its look-ahead the heuristic plays this sheet nearly as well (within 2
    # percentage points in two-player games against it: tests/games/test_clever_analyzer.py)
    # and about 7 times faster
    table_policy="heuristic:0",
    value_size=N_VALUE_WEIGHTS, rating_bands=RATING_BANDS, rulings=RULINGS,
    sheetfile=sheetfile, sheet_flags=sheet_flags, extra_rules=extra_rules,
    # advice: each rollout ends at the end of the next round, valued there by the network
    # (scripts/advice_horizon.py measures a horizon against full rollouts)
    advice_horizon=1,
    report_band=200, describe=text.describe, open_bonuses=text.open_bonuses,
    round_options=round_options,
    reference="published bots on the same rules reach 63.6 (random), 101.8 (greedy), "
              "159.2 (flat Monte Carlo) and 296.5-301.6 (TD(lambda) networks)",
    fox_note="; a negative lowest area (green) makes every fox negative, unless an area "
             "scores 0 (fox_negative=rulebook) or fox_negative=zero")
