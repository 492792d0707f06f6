"""The variants of a Clever game's named rules its network trains on, and
the check set it is measured on.

The training distribution draws every named rule parameter but the player count (the
training's player mix decides it) and those added since the networks were trained
(``UNTRAINED``) from its documented values: each game keeps the
defaults with ``DEFAULT_SHARE``; any other game keeps each parameter's default with
``1 - CHANGE_CHANCE`` and otherwise draws one of its other values (rounds: any count of
``ROUNDS_RANGE`` but the player count's own). A variant lies inside the distribution when
each of its values is one of those (``inside``).

The check set (``check_variants``) is fixed: single changes of the rounds and the round
bonuses, groups of open points changed together, and mixtures of both.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.games.clever import rule_inputs
from analyzer.games.clever.game import CleverGame
from analyzer.games.clever.params import SEARCHED_ROUNDS
from analyzer.params import Param, defaults

DEFAULT_SHARE = 0.4  # training games on the default rules
CHANGE_CHANCE = 0.25  # in the other games, each parameter's chance to leave its default
ROUNDS_RANGE = SEARCHED_ROUNDS  # the round counts the distribution draws from
UNTRAINED = ("start_rerolls", "start_plus_ones", "fox_value")  # rules added since the
# networks were trained: kept at their defaults in training, so that each config still
# reproduces its network bit for bit (its card: never trained with them changed)
NOT_DRAWN = ("players",) + UNTRAINED  # and the parameters the training's player mix decides


def distribution(game: CleverGame) -> dict[str, Any]:
    """The training distribution as a network file's ``trained_on`` record keeps it: the
    parameters drawn, the round counts and the shares."""
    return {"params": [p.name for p in drawn_params(game)], "rounds": list(ROUNDS_RANGE),
            "default_share": DEFAULT_SHARE, "change_chance": CHANGE_CHANCE}


def input_names(game: CleverGame) -> list[str]:
    """The rules block's bit names of the game (``analyzer.games.clever.rule_inputs``)."""
    return rule_inputs.input_names(game.params)


def drawn_params(game: CleverGame) -> list[Param]:
    """The parameters the distribution draws."""
    return [p for p in game.params if p.name not in NOT_DRAWN]


def other_values(param: Param) -> list[Any]:
    """The documented values of ``param`` other than its default (rounds: the counts of
    ``ROUNDS_RANGE``; 0, the player count's own, is the default)."""
    if param.name == "rounds":
        return list(range(ROUNDS_RANGE[0], ROUNDS_RANGE[1] + 1))
    if param.kind == "bool":
        return [not param.default]
    if param.kind == "choice":
        return [c for c in param.choices if c != param.default]
    raise ValueError(f"rule parameter {param.name!r} ({param.kind}) has no documented values "
                     "for the training distribution")


def sample(game: CleverGame, count: int, seed: int, players: int = 1) -> list[dict[str, Any]]:
    """``count`` variants drawn from the training distribution by ``seed``."""
    rng = np.random.default_rng([seed, 37])
    base = {**defaults(game.params), "players": players}
    out = []
    for _ in range(count):
        values = dict(base)
        if rng.random() >= DEFAULT_SHARE:
            for param in drawn_params(game):
                if rng.random() < CHANGE_CHANCE:
                    choices = other_values(param)
                    values[param.name] = choices[int(rng.integers(len(choices)))]
        out.append(values)
    return out


def table(game: CleverGame, variants: list[dict[str, Any]]) -> np.ndarray:
    """The variants' game-rules vectors (int64[V, N_GAME_RULES]), as self-play takes them."""
    return np.stack([game.game_rules(v) for v in variants])


def inside(game: CleverGame, values: dict[str, Any]) -> bool:
    """Does the variant ``values`` lie inside the training distribution?"""
    own = defaults(game.params)
    return all(values[p.name] == own[p.name] or values[p.name] in other_values(p)
               for p in drawn_params(game)) and all(values[n] == own[n] for n in UNTRAINED)


def changes(game: CleverGame, values: dict[str, Any]) -> dict[str, Any]:
    """The parameters of ``values`` that differ from the defaults (the player count
    aside)."""
    own = defaults(game.params)
    return {p.name: values[p.name] for p in game.params
            if p.name != "players" and values[p.name] != own[p.name]}


def label(game: CleverGame, values: dict[str, Any]) -> str:
    """A variant in words: its changes, ``KEY=VALUE`` joined by spaces ("defaults": none)."""
    diff = changes(game, values)
    return " ".join(f"{k}={v}" for k, v in diff.items()) or "defaults"


SHARED_CHECKS = (
    {"rounds": 4}, {"rounds": 5}, {"rounds": 7}, {"rounds": 8},
    {"round_4_bonus": False},
    {"round_1_bonus": False, "round_2_bonus": False, "round_3_bonus": False,
     "round_4_bonus": False},
    {"passive_may_decline": False, "forfeited_dice": "platter",
     "solo_fallback": "other_dice", "plus_after_decline": False},
    {"bonus_order": "earliest_first", "action_overflow": "kept", "final_plus": "every_player",
     "solo_ties": "colour_order"},
    {"rounds": 5, "round_2_bonus": False, "solo_ties": "colour_order"},
    {"rounds": 7, "round_3_bonus": False, "forfeited_dice": "platter"},
)
OWN_CHECKS = {  # each game's own open points, changed together and mixed with rounds
    "twice-as-clever": (
        {"plus_one_scope": "turn", "blue_question": "any", "fox_negative": "zero",
         "chain_third_pick": "all"},
        {"return_timing": "rolls_only", "return_empty_pool": "return_allowed",
         "skip_roll": "never"},
        {"rounds": 8, "plus_one_scope": "turn", "return_empty_pool": "return_allowed"},
    ),
    "thats-pretty-clever": (),
}


def check_variants(game: CleverGame, players: int = 1) -> list[dict[str, Any]]:
    """The check set: full rule values of each check variant for ``players``."""
    base = {**defaults(game.params), "players": players}
    return [{**base, **changed} for changed in SHARED_CHECKS + OWN_CHECKS[game.id]]
