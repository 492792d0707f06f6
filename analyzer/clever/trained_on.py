"""The rules a Clever game's learned network was trained on, and the note every output
that plays ``learned`` under other rules carries (with the heuristic's figure beside it).

``value_net.json`` keeps ``trained_on``: ``{"rules": {parameter: value}, "players": [..]}``
(every rule parameter but the player count, the round count and the tie rule, which do not
change how a player plays); a file whose network for 2-4 players was trained on other
rules than its solo network keeps that one's record under ``"multiplayer"``. A network
also counts as trained on a round count other than the player count's (``rounds``) never.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, Callable

from analyzer.clever.game import CleverGame
from analyzer.params import Param

NOT_PLAY = ("players", "rounds", "ties")  # parameters the network's inputs or the
# training's player mix cover, or that do not change play


def trained_on(game: CleverGame) -> dict[str, Any]:
    """The game's ``trained_on`` record (empty when the file has none)."""
    return _record(game.learned_file.with_suffix(".json"))


@functools.lru_cache(maxsize=None)
def _record(path: Path) -> dict[str, Any]:
    """A network file's ``trained_on`` record, read once per process."""
    return json.loads(path.read_text()).get("trained_on", {})


def training_record(params: tuple[Param, ...], values: dict[str, Any],
                    players: list[int]) -> dict[str, Any]:
    """The ``trained_on`` record of a network trained on the rule ``values`` in games of
    ``players`` players."""
    return {"rules": {p.name: values[p.name] for p in params if p.name not in NOT_PLAY},
            "players": sorted(players)}


def differences(game: CleverGame, values: dict[str, Any]) -> list[str]:
    """How the rules in force differ from those the network was trained on, in words
    (empty: trained on them)."""
    record = trained_on(game)
    if not record:
        return ["its training rules are not recorded"]
    if values["players"] > 1 and "multiplayer" in record:  # its own network's record
        record = record["multiplayer"]
    out = [f"{name}={values[name]} (trained on {value})"
           for name, value in record["rules"].items() if values.get(name, value) != value]
    players = values["players"]
    if players not in record["players"]:
        counts = ", ".join(map(str, record["players"]))
        out.append(f"{players} players (trained on {counts})")
    natural = int(game.layout.ROUNDS_BY_PLAYERS[players])
    if values["rounds"] and values["rounds"] != natural:
        out.append(f"rounds={int(values['rounds'])} (trained on {natural} for {players} "
                   f"player{'s' if players > 1 else ''})")
    return out


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
