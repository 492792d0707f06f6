"""The game shapes of a Clever game's training distribution: its round count and its
round-track bonuses (``networks.SHAPE``, ``networks.shape_key``), the points at which the
routes measure which shipped network plays best (``route_points``)."""

from __future__ import annotations

import itertools
from typing import Any

from analyzer.games.clever import networks, variants
from analyzer.games.clever.game import CleverGame
from analyzer.params import defaults

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
