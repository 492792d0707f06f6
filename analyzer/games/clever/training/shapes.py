"""Which solo game shapes a rule-conditioned network leaves to the game's own network.

A game's shape is its round count and its round-track bonuses (``networks.SHAPE``,
``networks.shape_key``). On some shapes the game's own network, trained on the defaults
alone, plays better than a network trained over every variant (Twice As Clever's own
network with 7 rounds: 406 points, its conditioned network 381). When a conditioned
network ships, both play the same solo games of every shape of its distribution (the
other rules at their defaults, a held-out seed); the shapes where the own network plays
better (the paired difference's 95% interval wholly on its side) are recorded, with both
means, in the conditioned network's ``trained_on`` record as ``own_plays``, and there
``learned`` plays the own network (``networks.playing_file``), with a note saying why.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np

from analyzer.games.clever import networks, variants
from analyzer.games.clever.game import CleverGame
from analyzer.games.clever.training import games as training_games
from analyzer.params import defaults

SEED = 779_000_000  # held out: far from the training, tuning and evaluation seeds
BONUSES = networks.SHAPE[1:]  # the round-track bonuses


def solo_shapes(game: CleverGame) -> list[dict[str, Any]]:
    """Every solo shape of the training distribution, as full rule values: each round
    count of ``variants.ROUNDS_RANGE`` with each set of round-track bonuses, every other
    rule at its default."""
    base = {**defaults(game.params), "players": 1}
    low, high = variants.ROUNDS_RANGE
    return [{**base, "rounds": rounds, **dict(zip(BONUSES, bonuses))}
            for rounds in range(low, high + 1)
            for bonuses in itertools.product((True, False), repeat=len(BONUSES))]


def measure(game: CleverGame, own_row: np.ndarray, conditioned_row: np.ndarray, games: int,
            advance: Callable[[int], None] = lambda n: None) -> list[dict[str, Any]]:
    """Both policy rows on the same ``games`` solo games of every shape (``SEED``): for
    each, its key, both means and the paired difference (conditioned - own) with its 95%
    interval; ``advance`` is called with each shape's games (a progress bar)."""
    out = []
    for values in solo_shapes(game):
        own, cond = training_games.compare([own_row, conditioned_row],
                                           game.game_rules(values), games, SEED)
        out.append({"shape": networks.shape_key(values, game.layout.ROUNDS_BY_PLAYERS),
                    "games": games,
                    "own": round(float(own["value"]), 2),
                    "conditioned": round(float(cond["value"]), 2),
                    "diff": round(float(cond["diff"]), 2),
                    "diff_ci95": [round(float(cond["diff_ci95_low"]), 2),
                                  round(float(cond["diff_ci95_high"]), 2)]})
        advance(games)
    return out


def own_plays(measured: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The results of ``measure`` whose shape the own network plays better: its mean the
    higher, the paired difference's 95% interval wholly on its side (where the two are
    within noise, the network trained on the shape keeps it)."""
    return [m for m in measured if m["diff_ci95"][1] < 0.0]
