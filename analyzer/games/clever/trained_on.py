"""Who ``learned`` is, what its network was trained on, and the notes of the outputs that
play it (with the heuristic's figure beside it where the rules leave its training).

The network file's card (``networks``) names the player and the rules it played in
training; ``learned`` plays that one network on every rule set (``CleverGame.network_file``).
"""

from __future__ import annotations

from typing import Any, Callable

from analyzer.games.clever import networks
from analyzer.games.clever.game import CleverGame
from analyzer.params import defaults


def player_name(game: CleverGame) -> str:
    """``learned`` as its card names it: "learned, That's Pretty Clever network 2"."""
    return f"learned, {networks.card(game.network_file())['name']}"


def differences(game: CleverGame, values: dict[str, Any]) -> list[str]:
    """How the rules in force leave those the network was trained on, in words (empty:
    trained on them): a rule it never played changed (one added since it was trained
    among them), a round count or player count outside its training."""
    trained = networks.card(game.network_file(values))["trained"]
    return networks.untrained(trained, values, game.rounds_for(values), defaults(game.params))


def network_note(game: CleverGame, values: dict[str, Any]) -> list[str]:
    """The note line naming the player ``learned`` is on ``values``."""
    name = networks.card(game.network_file(values))["name"]
    if game.user_network is not None:
        return [f"learned plays the network you named: {name}"]
    return [f"learned, {name}: one value network for every game shape, player count and "
            "seat"]


def network_words(game: CleverGame) -> str:
    """The network ``learned`` plays, in words for a report."""
    return networks.card(game.network_file())["name"]


def off_training_note(game: CleverGame, values: dict[str, Any], learned: str,
                      heuristic: Callable[[], str]) -> list[str]:
    """One note line when ``learned`` plays rules its network was not trained on: what
    differs, its figure ``learned`` and the heuristic's (``heuristic()``, computed only
    then); no line otherwise."""
    diffs = differences(game, values)
    if not diffs:
        return []
    return [f"learned plays rules its network was not trained on ({'; '.join(diffs)}):"
            f" learned {learned}, the heuristic {heuristic()} on the same rules"]
