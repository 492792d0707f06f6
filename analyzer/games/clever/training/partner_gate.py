"""Measure where a rule-conditioned network's partner joins it (the gate that
``analyzer.games.clever.partner`` reads; ``scripts/measure_partner.py`` writes it).

On every solo shape of the training distribution (``shapes.solo_shapes``: each round count
and set of round-track bonuses, the other rules at their defaults), the conditioned
network alone and the pair (its mean with the partner) play the same games (held-out seed
``SEED``). The partner joins the shapes where the pair's paired difference from the
network alone lies wholly above 0.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.games.clever import networks, partner, routes, value_weights
from analyzer.games.clever.game import CleverGame
from analyzer.games.clever.training import games as training_games
from analyzer.games.clever.training import shapes

SEED = 773_000_000  # held out: away from the training, tuning, evaluation and route seeds
BLOCK = 64  # games per block: a shape's games still spread over the threads


def measure_shape(game: CleverGame, rows: list[np.ndarray], values: dict[str, Any],
                  games: int) -> dict[str, Any]:
    """The network alone and the pair (``rows``) on the same ``games`` solo games of
    ``values``: the shape, both means and the pair's paired difference (95% interval)."""
    alone, pair = training_games.compare_seats(rows, game.game_rules(values),
                                               game.rounds_for(values), 1, games, SEED, BLOCK)
    return {"shape": networks.shape_key(values, game.layout.ROUNDS_BY_PLAYERS),
            "alone": round(float(alone["value"]), 2), "pair": round(float(pair["value"]), 2),
            "diff_ci95": [round(float(pair["diff_ci95_low"]), 2),
                          round(float(pair["diff_ci95_high"]), 2)]}


def measure(game: CleverGame, path: Path, other: Path, member: int, games: int,
            advance: Callable[[int], None] = lambda n: None) -> dict[str, Any]:
    """The partner entry of the conditioned network file ``path`` with member ``member``
    of ``other`` as its partner: every solo shape measured on ``games`` games
    (``advance`` is called with each shape's games: a progress bar), and the shapes where
    the pair plays better beyond noise."""
    members, info = value_weights.load(path, game.kernel_game)
    digest = routes.digest(other)
    mate = partner.widened(other, digest, member, int(info["inputs"]), game.kernel_game)
    rows = [value_weights.file_row(members, info),
            value_weights.file_row(members + [mate], info)]
    measured = []
    for values in shapes.solo_shapes(game):
        measured.append(measure_shape(game, rows, values, games))
        advance(games)
    return {"file": other.name, "member": member, "sha256": digest,
            "shapes": [m["shape"] for m in measured if m["diff_ci95"][0] > 0.0],
            "measured": {"seed": SEED, "games": games, "points": measured}}
