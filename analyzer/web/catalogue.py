"""What the pages are built from: every game, its player counts and its rule parameters
in plain words (the form of the what-if bench)."""

from __future__ import annotations

import functools
from typing import Any

from analyzer.paired import FIGURE_WORDS
from analyzer.params import Param
from analyzer.registry import GAMES


def _choices(param: Param) -> list[dict[str, str]]:
    """The values a form offers for a switch or a choice, each with its words."""
    values: tuple[Any, ...] = (True, False) if param.kind == "bool" else param.choices
    return [{"value": param.show(v), "words": param.words(v)} for v in values]


def param_entry(param: Param) -> dict[str, Any]:
    """One rule parameter as the form shows it."""
    entry = {"name": param.name, "label": param.label, "kind": param.kind,
             "default": param.show(param.default), "default_words": param.words(param.default),
             "accepted": param.accepted(), "assumed": param.assumed, "meaning": param.help}
    if param.kind in ("bool", "choice"):
        entry["choices"] = _choices(param)
    if param.kind in ("int", "float"):
        entry["low"], entry["high"] = param.low, param.high
    return entry


@functools.cache
def games() -> list[dict[str, Any]]:
    """Every registered game with its rule parameters (the player count apart) and its
    what-if figures in words."""
    out = []
    for spec in GAMES.values():
        params = spec.load().PARAMS
        players = next(p for p in params if p.name == "players")
        out.append({"id": spec.id, "title": spec.title, "summary": spec.summary,
                    "players": {"low": spec.min_players, "high": spec.max_players,
                                "default": players.default},
                    "params": [param_entry(p) for p in params if p.name != "players"],
                    "figures": FIGURE_WORDS})
    return out
