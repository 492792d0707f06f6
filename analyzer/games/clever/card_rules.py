"""A Clever strategy card's rules as data: each game's ``card_rules.json`` lists the rules,
each with its numbers and the words that state them. The ``card`` policy's kernel row
(``kernels.clever.card``) and the card's printed lines are both made from that one file,
so they cannot disagree."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import UserError
from kernels.clever import card as kc
from kernels.clever.policies import CARD, KIND, N_POL
from kernels.clever_base.sheet import TAC
from kernels.thats_pretty_clever import card as tpc_card
from kernels.twice_as_clever import card as tac_card

OFF = -1000.0  # a count no use falls below: the rule never fires
# every number of a card: its place in the kernel row and the value that turns it off
# (greedy's choice); the area points are added per game (``numbers``)
SHARED = {"area_until": (kc.C_AREA_UNTIL, 12.0), "unlock": (kc.C_UNLOCK, 0.0),
          "keep_1": (kc.C_KEEP, 6.0), "keep_2": (kc.C_KEEP + 1, 6.0),
          "platter": (kc.C_PLATTER, 0.0), "reroll_below": (kc.C_REROLL, OFF),
          "reroll_from": (kc.C_REROLL_FROM, 1.0), "plus_above": (kc.C_PLUS, 0.0),
          "plus_from": (kc.C_PLUS_FROM, 1.0), "passive": (kc.C_PASSIVE, 0.0),
          "decline_below": (kc.C_DECLINE, OFF), "gift": (kc.C_GIFT, 0.0),
          "return_from": (kc.C_RETURN_FROM, 1.0)}
GOOD = {  # each game's good-use thresholds
    "tpc": {"orange_min": (tpc_card.ORANGE_MIN, 1.0),
            "orange_times_min": (tpc_card.ORANGE_TIMES_MIN, 1.0),
            "purple_step": (tpc_card.PURPLE_STEP, 6.0),
            "green_spare": (tpc_card.GREEN_SPARE, 5.0)},
    "tac": {"blue_first": (tac_card.BLUE_FIRST, 2.0), "blue_drop": (tac_card.BLUE_DROP, 10.0),
            "green_high": (tac_card.GREEN_HIGH, 1.0), "green_low": (tac_card.GREEN_LOW, 6.0),
            "pink_face": (tac_card.PINK_FACE, 1.0)},
}
assert kc.C_END <= N_POL


def numbers(game) -> dict[str, tuple[int, float]]:
    """Every number a card of ``game`` (a ``CleverGame``) may set: its place in the kernel
    row and its value off."""
    areas = {f"points_{a}": (kc.C_AREA + i, 0.0) for i, a in enumerate(game.layout.AREA_NAMES)}
    good = GOOD["tac" if game.kernel_game == TAC else "tpc"]
    return {**areas, **SHARED, **{k: (kc.C_GOOD + i, off) for k, (i, off) in good.items()}}


@dataclass(frozen=True)
class Rule:
    """One rule of a card: ``name`` (``card:-NAME`` plays the card without it), the
    ``block`` it is printed in, its ``numbers`` and ``words`` (a template of them),
    ``players``: where its worth is measured (``solo``, or ``table``: two-player games)."""

    name: str
    block: str
    words: str
    numbers: dict[str, float]
    players: str = "solo"

    def text(self) -> str:
        """The rule in words, its numbers filled in (whole numbers without a point)."""
        shown = {k: f"{v:g}" for k, v in self.numbers.items()}
        return self.words.format(**shown)


@dataclass(frozen=True)
class Card:
    """A game's card: its rules, in the order printed, how they were tuned, the numbers
    a rule may set (``numbers``) and a line opening some blocks (by heading)."""

    rules: tuple[Rule, ...]
    tuned: str = ""
    known: dict[str, tuple[int, float]] = field(default_factory=dict)
    intros: dict[str, str] = field(default_factory=dict)

    def rule(self, name: str) -> Rule:
        for r in self.rules:
            if r.name == name:
                return r
        raise UserError(f"the card has no rule {name!r}; its rules: "
                        f"{', '.join(r.name for r in self.rules)}")

    def row(self, without: tuple[str, ...] = ()) -> np.ndarray:
        """The ``card`` policy's kernel row (float64[N_POL]): every number off, then the
        numbers of each rule but those named in ``without``."""
        for name in without:
            self.rule(name)
        row = np.zeros(N_POL)
        row[KIND] = CARD
        for where, off in self.known.values():
            row[where] = off
        for r in self.rules:
            if r.name not in without:
                for k, v in r.numbers.items():
                    row[self.known[k][0]] = v
        return row

    def with_numbers(self, **changed: float) -> "Card":
        """The card with some numbers changed (each in the rule that holds it)."""
        missing = set(changed) - {k for r in self.rules for k in r.numbers}
        if missing:
            raise KeyError(f"no rule holds {sorted(missing)}")
        return replace(self, rules=tuple(
            replace(r, numbers={k: float(changed.get(k, v)) for k, v in r.numbers.items()})
            for r in self.rules))


def from_data(game, data: dict[str, Any], source: str) -> Card:
    """A card from the data of a ``card_rules.json`` (a one-line error naming ``source``
    where a number is unknown or a rule's words name a number it does not hold)."""
    known = numbers(game)
    rules = []
    for item in data["rules"]:
        nums = {k: float(v) for k, v in item["numbers"].items()}
        unknown = set(nums) - set(known)
        if unknown:
            raise UserError(f"{source}: rule {item['name']!r} sets unknown numbers "
                            f"{sorted(unknown)}")
        rule = Rule(item["name"], item["block"], item["words"], nums,
                    item.get("players", "solo"))
        try:
            rule.text()
        except KeyError as err:
            raise UserError(f"{source}: rule {item['name']!r}'s words name {err}, "
                            "which it does not set") from None
        rules.append(rule)
    return Card(tuple(rules), data.get("tuned", ""), known, dict(data.get("intros", {})))


def load(game, path: Path | None = None) -> Card:
    """The card of ``game`` from its ``card_rules.json`` (or ``path``)."""
    path = Path(path or game.folder / "card_rules.json")
    return from_data(game, json.loads(path.read_text()), str(path))


def parse(game, option: str, card: Card | None = None) -> np.ndarray:
    """The kernel row of ``card`` or ``card:-NAME`` (the card without its rule NAME)."""
    card = card or load(game)
    if not option:
        return card.row()
    if not option.startswith("-"):
        raise UserError(f"bad card option {option!r}: expected card:-RULE, one of "
                        f"{', '.join(r.name for r in card.rules)}")
    return card.row((option[1:],))
