"""A game's one network shipped from a training checkpoint: its weights, its settings and
its card (``analyzer.games.clever.networks``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.games.clever import networks, value_weights, variants
from analyzer.games.clever.game import CleverGame
from analyzer.games.clever.training import unified
from analyzer.games.clever.training.state import read_checkpoint
from analyzer.errors import UserError
from kernels.clever import net, value_net


def trained_record(game: CleverGame) -> dict[str, Any]:
    """The card's ``trained`` record of a network trained over the unified rows
    (``training.unified``): the round counts, player counts and rule values they draw."""
    rounds = sorted({r for r in unified.SHAPE_ROUNDS if r}
                    | {int(game.layout.ROUNDS_BY_PLAYERS[n])
                       for n in range(1, len(unified.PLAYER_SHARES) + 1)})
    rules = {p.name: [p.default, *variants.other_values(p)]
             for p in variants.drawn_params(game) if p.name != "rounds"}
    return {"rounds": rounds, "players": list(range(1, len(unified.PLAYER_SHARES) + 1)),
            "rules": rules}


def ship(game: CleverGame, checkpoint: Path, output: Path, name: str, config: str,
         latest: bool = False) -> dict[str, Any]:
    """Write the network file ``output`` (and its settings) from the best weights of the
    training ``checkpoint`` (with ``latest``, its latest) and its skip head, with the card
    naming the player ``name`` and the ``config`` that reproduces it; its settings."""
    saved = read_checkpoint(checkpoint)
    try:
        settings = json.loads(str(saved["settings"]))
        weights = saved["weights" if latest else "best_weights"]
        head = saved["skip" if latest else "best_skip"]
        history = json.loads(str(saved["history"]))
    except (KeyError, ValueError) as exc:
        raise UserError(f"checkpoint {str(checkpoint)!r}: not a training checkpoint "
                        f"({exc})") from None
    if not latest and not np.isfinite(saved["best"]):
        raise UserError(f"checkpoint {str(checkpoint)!r} has no best weights yet (no "
                        "evaluation after its warm start); ship its latest (--latest)")
    width = value_weights.hidden_of(settings)
    n_in = value_weights.inputs_of(weights, width)
    if n_in != int(value_net.n_inputs(game.kernel_game, 3)):
        raise UserError(f"checkpoint {str(checkpoint)!r}: its network lacks the seat or the "
                        "rules block; the one network reads both")
    info = {"game": game.id, "inputs": n_in, "hidden": [width, net.H2], "members": 1,
            "scale": value_net.SCALE, "skip": [float(x) for x in head],
            "rule_inputs": variants.input_names(game),
            "card": {"name": name, "config": config, "trained": trained_record(game)},
            "trainer": {"checkpoint": checkpoint.name, "weights": "latest" if latest
                        else "best", "settings": settings, "history": history}}
    value_weights.save(output, [weights], info)
    networks.forget()
    return info
