"""The rules a Clever game's learned network was trained on, and the note every output
that plays ``learned`` under other rules carries (with the heuristic's figure beside it).

``value_net.json`` keeps ``trained_on``: ``{"rules": {parameter: value}, "players": [..]}``
(every rule parameter but the player count, the round count and the tie rule, which do not
change how a player plays); a file whose network for 2-4 players was trained on other
rules than its solo network keeps that one's record under ``"multiplayer"``. A network
counts as trained on its player count's round count only, unless its record names
another (a specialist's ``"rounds"``) or a training distribution (a rule-conditioned
network's ``"variants"``: every value of the parameters it draws, and its round counts).
Which network file plays a variant (a specialist's or the game's own): ``networks``; the
line that names it: ``network_note``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from analyzer.games.clever import networks, routes, rule_inputs
from analyzer.games.clever.game import CleverGame
from analyzer.params import Param

NOT_PLAY = ("players", "rounds", "ties")  # parameters the network's inputs or the
# training's player mix cover, or that do not change play


def trained_on(game: CleverGame, values: dict[str, Any] | None = None) -> dict[str, Any]:
    """The ``trained_on`` record (empty when the file has none) of the network file that
    plays ``values`` (none: the game's own file)."""
    return networks.record(game.network_file(values))


def training_record(params: tuple[Param, ...], values: dict[str, Any],
                    players: list[int]) -> dict[str, Any]:
    """The ``trained_on`` record of a network trained on the rule ``values`` in games of
    ``players`` players."""
    return {"rules": {p.name: values[p.name] for p in params if p.name not in NOT_PLAY},
            "players": sorted(players)}


def differences(game: CleverGame, values: dict[str, Any]) -> list[str]:
    """How the rules in force differ from those the network that plays them was trained
    on, in words (empty: trained on them): a rule parameter added since it was trained
    (``rule_rows``) counts where it is changed."""
    return networks.mismatches(trained_on(game, values), values,
                               game.layout.ROUNDS_BY_PLAYERS) + never_changed(game, values)


def never_changed(game: CleverGame, values: dict[str, Any]) -> list[str]:
    """The rule parameters changed in ``values`` that the network playing them was never
    trained with changed (its rules block had no input for them), in words."""
    trained = networks.settings(game.network_file(values))
    trained = trained.get("rule_inputs") if isinstance(trained, dict) else None
    now = rule_inputs.input_names(game.params)
    if not isinstance(trained, list) or trained == now:
        return []
    return [f"{p.name}={values[p.name]} (never trained with it changed)" for p in game.params
            if values[p.name] != p.default
            and not any(name.startswith(f"{p.name}=") for name in trained)
            and any(name.startswith(f"{p.name}=") for name in now)]


def network_note(game: CleverGame, values: dict[str, Any]) -> list[str]:
    """One note line naming the network ``learned`` plays on ``values`` where that is not
    plain: a specialist (which file, and the rules it was trained on that differ from the
    game's own network's), or the game's rule-conditioned network on rules other than the
    defaults (trained over a distribution of variants that holds them); each with the
    player counts it was trained on where the game's are others; none otherwise."""
    path = game.network_file(values)
    measured = _measured_note(game, values, path)
    if measured:
        return measured
    trained = networks.record(path)
    players = _players_words(trained, values["players"])
    if networks.conditioned(trained, values["players"]):
        changed = [p.name for p in game.params if p.name != "players"
                   and values[p.name] != p.default]
        if not changed:
            return []
        return [f"learned plays {path.name}, a rule-conditioned network: trained over "
                f"variants of the rules, these among them{players}"
                f"{game.partner_words(path, values)}"]
    if path == game.learned_file:
        return []
    own = networks.record(game.learned_file).get("rules", {})
    rules = "; ".join(f"{k}={v}" for k, v in trained["rules"].items() if own.get(k) != v)
    rounds = trained.get("rounds")
    rules += f"; {rounds} rounds" if rounds and rounds != game.rounds_for(
        {**values, "rounds": 0, "players": 1}) else ""
    return [f"learned plays {path.name}, a network trained on these rules "
            f"({rules.strip('; ')}){players}"]


def _measured_note(game: CleverGame, values: dict[str, Any], path: Path) -> list[str]:
    """Where the routes measured (``analyzer.games.clever.routes``) play another file
    than trained-on order would on ``values``: one line naming both and their means on the
    point measured (its other rules at their defaults where those in force differ); none
    otherwise."""
    rounds_by_players = game.layout.ROUNDS_BY_PLAYERS
    if not routes.usable(game.learned_file):
        return []
    nearest = networks.playing_file(game.learned_file, values, rounds_by_players,
                                    measured=False)
    point = routes.point_for(game.learned_file, values,
                             networks.shape_key(values, rounds_by_players))
    if nearest == path or point is None or point["plays"] != path.name \
            or nearest.name not in point["means"]:
        return []
    count = point["players"]
    games = "solo games" if count == 1 else f"games of {count} players"
    rules = "".join(f", {k}={v}" for k, v in point["rules"].items())
    rules += "" if point["exact"] else ", the other rules at their defaults"
    return [f"learned plays {path.name} here: measured on {games} of "
            f"{_shape_words(point['shape'])}{rules}, it outscored {nearest.name}, the "
            f"network trained nearest these rules ({point['means'][path.name]:.1f} against "
            f"{point['means'][nearest.name]:.1f} points a player in {point['games']:,} "
            "games)"]


def _shape_words(shape: list) -> str:
    """A shape key (``networks.shape_key``) in words: "7 rounds, without the round-2
    and round-4 bonuses"."""
    off = [str(r) for r, on in enumerate(shape[1:], start=1) if not on]
    if not off:
        return f"{shape[0]} rounds"
    bonuses = " and ".join(f"round-{r}" for r in off)
    return f"{shape[0]} rounds, without the {bonuses} bonus{'es' if len(off) > 1 else ''}"


def _players_words(trained: dict[str, Any], players: int) -> str:
    """Where a network was not trained on games of ``players`` players: the counts it was
    trained on, in words (else empty)."""
    counts = trained.get("players", [])
    if not counts or players in counts:
        return ""
    games = "solo games" if counts == [1] else \
        f"games of {', '.join(map(str, counts))} players"
    return f", in {games} (every seat plays it here)"


def network_words(game: CleverGame, values: dict[str, Any]) -> str:
    """The network ``learned`` plays on ``values`` (solo), in words."""
    solo = {**values, "players": 1}
    path = game.network_file(solo)
    if networks.conditioned(networks.record(path), 1):
        return (f"{path.name}, a rule-conditioned network trained over variants of the "
                "rules (each named parameter drawn from its documented values, 4-8 rounds)"
                f"{game.partner_words(path, solo)}")
    if path != game.learned_file:
        return f"the specialist {path.name}, trained on these rules"
    return f"{path.name}, a network trained on the default rules"


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
