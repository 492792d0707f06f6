"""Sly Dice bot policies, and the model built from the rule values (rules page:
``docs/rules/sly-dice.md``)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from analyzer import output
from analyzer.errors import UserError
from analyzer.games.sly_dice.params import ASSUMED_POINTS, PARAMS, accepted_policies, points_param
from analyzer.params import assumed_notes
from kernels.sly_dice import hol, layout, odds, play
from kernels.sly_dice.combos import made_masks
from kernels.sly_dice.plausibility import plausibility_table


@dataclass(frozen=True)
class Policy:
    """A parsed bot policy: its name and its row for the game kernel."""

    name: str
    bluff_below: float = -1.0
    accuse_mode: int = play.NEVER
    accuse_below: float = 0.0

    def row(self) -> np.ndarray:
        out = np.zeros(play.N_POLICY)
        out[play.BLUFF_BELOW] = self.bluff_below
        out[play.ACCUSE_MODE] = self.accuse_mode
        out[play.ACCUSE_BELOW] = self.accuse_below
        return out


def _number(text: str, lo: float, hi: float) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if lo <= value <= hi else None


def parse_policy(name: str, stable: "Policy | None" = None) -> Policy:
    """Parse a policy name; a ``UserError`` listing the accepted names otherwise."""
    text = name.strip().lower()
    parts = text.split(":")
    fail = UserError(f"unknown policy {name!r}; accepted: {accepted_policies()} "
                     "(B >= 0 points, A between 0 and 1)")
    if text == "honest":
        return Policy("honest")
    if text == "rational":
        return Policy("rational", accuse_mode=play.EXPECTED)
    if text == "equilibrium":
        return Policy("equilibrium", accuse_mode=play.EQUILIBRIUM)
    if text == "stable":
        if stable is None:
            raise fail
        return Policy("stable", stable.bluff_below, stable.accuse_mode, stable.accuse_below)
    if parts[0] == "bluffer" and len(parts) == 2:
        b = _number(parts[1], 0, 1000)
        if b is not None:
            return Policy(text, bluff_below=b)
    if parts[0] == "accuser" and len(parts) == 2:
        a = _number(parts[1], 0, 1)
        if a is not None:
            return Policy(text, accuse_mode=play.THRESHOLD, accuse_below=a)
    if parts[0] == "sly" and len(parts) == 3:
        b, a = _number(parts[1], 0, 1000), _number(parts[2], 0, 1)
        if b is not None and parts[2] == "rational":
            return Policy(text, b, play.EXPECTED)
        if b is not None and a is not None:
            return Policy(text, b, play.THRESHOLD, a)
    raise fail


def card_points(values: dict[str, Any]) -> np.ndarray:
    """float64[N_CARDS] points of the fixed cards (number cards: 0, they score face x k)."""
    points = np.zeros(layout.N_CARDS)
    for card in ASSUMED_POINTS:
        points[layout.card_id(card)] = values[points_param(card)]
    return points


def rounds_for(values: dict[str, Any]) -> int:
    return values["rounds"] or {2: 8, 3: 9, 4: 8}[values["players"]]


def _compact(q, actions):
    """Keep only the allowed actions of every position: ``q`` [common, card, *position,
    action] -> float32 [common, *position, slot, card] with slot j = ``actions[..., j]``."""
    moved = np.moveaxis(q, 1, -1)  # [common, *position, action, card]
    index = np.broadcast_to(np.maximum(actions, 0)[None, ..., None],
                            (moved.shape[0], *actions.shape, moved.shape[-1]))
    slots = np.take_along_axis(moved, index, axis=-2)
    slots = np.where((actions >= 0)[None, ..., None], slots, -np.inf)
    return np.ascontiguousarray(slots.astype(np.float32))


@functools.lru_cache(maxsize=4)
def _q_tables(rerolls: int):
    """Action values for the game kernel, allowed actions only: ``q1`` float32[56 common,
    56 rolled, 4 slots, 17 cards], ``q2`` float32[56, 6 locked, 21 rolled, 3 slots, 17]; the
    action of each slot is in ``play.ACTIONS_3`` / ``play.ACTIONS_2`` (0 = stop)."""
    q1, q2 = odds.q_tables(rerolls)
    return (_compact(q1, play.ACTIONS_3),
            _compact(q2, np.broadcast_to(play.ACTIONS_2, (6, *play.ACTIONS_2.shape))))


@functools.lru_cache(maxsize=1)
def _made():
    return made_masks()


@functools.lru_cache(maxsize=1)
def _plausibility() -> np.ndarray:
    return plausibility_table()


@functools.lru_cache(maxsize=1)
def _hol():
    return hol.hol_solve()


class Model:
    """Arrays the kernels need for one set of rule values."""

    def __init__(self, values: dict[str, Any]):
        self.values = dict(values)
        self.points = card_points(values)
        self.weights = np.array([f + 1.0 for f in range(layout.N_NUMBER_CARDS)]
                                + list(self.points[layout.N_NUMBER_CARDS:layout.DICE_CARDS]))
        self.q1, self.q2 = _q_tables(values["rerolls"])
        self.made = _made()
        self.hol_success, self.hol_calls = _hol()
        self.plausibility = _plausibility()
        self.bonus = np.array([values["bluff_bonus"], values["bluff_bonus_step"],
                               values["false_accusation_penalty"],
                               values["false_accusation_step"]], np.float64)
        self.rounds = rounds_for(values)

    def game_args(self) -> tuple:
        """Kernel arguments after the lineup and the rotate flag (see ``play.games_block``)."""
        return (self.rounds, self.points, self.weights, self.q1, self.q2,
                self.values["rerolls"], self.hol_success, self.hol_calls, self.plausibility,
                self.made, self.bonus)


@functools.lru_cache(maxsize=16)
def _cached_model(frozen: tuple) -> Model:
    return Model(dict(frozen))


def get_model(values: dict[str, Any]) -> Model:
    return _cached_model(tuple(sorted(values.items())))


def run_meta(values: dict[str, Any], seed: int | None = None, **extra: Any) -> dict[str, Any]:
    """Metadata of a sly-dice result (``analyzer.output.run_meta``)."""
    return output.run_meta("sly-dice", PARAMS, values, seed, **extra)


def card_notes(values: dict[str, Any], cards: list[int]) -> list[str]:
    """Assumed-points notes for the fixed cards a result depends on."""
    names = {points_param(layout.CARD_NAMES[c]) for c in cards if c >= layout.N_NUMBER_CARDS}
    return assumed_notes([p for p in PARAMS if p.name in names], values)
