"""Which of a Clever game's network files plays a variant, from the ``trained_on`` record
each file's ``.json`` keeps: ``{"rules": {parameter: value}, "players": [..]}`` (and, for a
file whose network for 2-4 players was trained on other rules than its solo one, that
one's record under ``"multiplayer"``).

A game's specialists (``value_net.<name>.npy`` beside its ``value_net.npy``, each with
its own ``.json``) are networks trained on one variant, or over a distribution of variants (a
rule-conditioned network, whose record names it under ``"variants"``). ``learned`` plays
the network trained on the rules and player count in force, the nearest first: a
specialist of that one variant, the game's own file,
a rule-conditioned network whose distribution holds them, and the game's own file where
none does. Where the game's measured routes (``routes``) cover the rules in force, the
shipped file they measured strongest there plays instead. In games of 2-4 players
on rules that change the game's shape (``SHAPE``: its round count or round-track bonuses)
and that no network was trained on with that player count, every seat plays what ``learned``
plays solo on them: measured, a network trained on the game's length plays it better than
one trained on the player count (Twice As Clever without round bonuses, two players: 187
points a seat against 72). A comparison of variants
(``common_file``, ``pinned``) plays one network in all of them where one holds them all (in
games of 2-4 players, their solo games), so its differences are one network's.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from analyzer.errors import UserError
from analyzer.games.clever import routes, value_weights

SHAPE = ("rounds", "round_1_bonus", "round_2_bonus", "round_3_bonus", "round_4_bonus")
_PINNED: contextvars.ContextVar[Path | None] = contextvars.ContextVar("pinned", default=None)
_COMPARED: contextvars.ContextVar[tuple[dict[str, Any], ...]] = contextvars.ContextVar(
    "compared", default=())


def record(path: Path) -> dict[str, Any]:
    """The ``trained_on`` record of network file ``path`` (its .npy; empty when its .json
    has none), read once per process."""
    return _record(path.with_suffix(".json"))


def settings(path: Path) -> Any:
    """The settings (.json) of network file ``path``, read once per process (its weights
    are not read: nothing compiles)."""
    return _settings(path.with_suffix(".json"))


@functools.lru_cache(maxsize=None)
def _settings(path: Path) -> Any:
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise UserError(f"network settings {str(path)!r} cannot be read ({exc}); "
                        f"{value_weights.REMEDY}") from None


@functools.lru_cache(maxsize=None)
def _record(path: Path) -> dict[str, Any]:
    data = _settings(path)
    trained = data.get("trained_on", {}) if isinstance(data, dict) else None
    if not isinstance(trained, dict) or (trained and not (
            isinstance(trained.get("rules"), dict) and isinstance(trained.get("players"), list))):
        raise UserError(f"network settings {str(path)!r}: trained_on must hold the rules "
                        "(a mapping) and the player counts (a list) the network was trained on")
    return trained


def mismatches(trained: dict[str, Any], values: dict[str, Any], rounds_by_players
               ) -> list[str]:
    """How the rule ``values`` differ from a ``trained_on`` record, in words (empty:
    trained on them); ``rounds_by_players``: the game's rounds for each player count (a
    network counts as trained on its player count's rounds only, or for a rule-conditioned
    network, on the round counts of its distribution). A rule-conditioned network's
    record names its training distribution under ``"variants"``: every value of a
    parameter it draws counts as trained on."""
    if not trained:
        return ["its training rules are not recorded"]
    if values["players"] > 1 and "multiplayer" in trained:  # its own network's record
        trained = trained["multiplayer"]
    drawn = set(trained.get("variants", {}).get("params", []))
    out = [f"{name}={values[name]} (trained on {value})"
           for name, value in trained["rules"].items()
           if name not in drawn and values.get(name, value) != value]
    players = values["players"]
    if players not in trained["players"]:
        counts = ", ".join(map(str, trained["players"]))
        out.append(f"{players} players (trained on {counts})")
    natural = int(rounds_by_players[players])
    rounds = int(values["rounds"] or natural)
    if "rounds" in trained:  # a specialist's own round count
        if rounds != trained["rounds"]:
            out.append(f"rounds={rounds} (trained on {trained['rounds']})")
    elif "rounds" in drawn:
        low, high = trained["variants"]["rounds"]
        if rounds != natural and not low <= rounds <= high:
            out.append(f"rounds={rounds} (trained on {low}-{high})")
    elif rounds != natural:
        out.append(f"rounds={rounds} (trained on {natural} for {players} "
                   f"player{'s' if players > 1 else ''})")
    return out


def conditioned(trained: dict[str, Any], players: int) -> bool:
    """Was the network of a ``trained_on`` record that plays games of ``players`` trained
    over a distribution of variants (rule-conditioned)?"""
    if players > 1 and "multiplayer" in trained:
        trained = trained["multiplayer"]
    return "variants" in trained


def specialists(own: Path) -> list[Path]:
    """The specialist network files shipped beside a game's own file ``own``, by name (a
    network a user trained plays only where a command names it: ``--network``)."""
    return sorted(own.parent.glob(f"{own.stem}.*{own.suffix}"))


@functools.lru_cache(maxsize=None)
def _specialists(own: Path) -> tuple[Path, ...]:
    return tuple(specialists(own))


def forget() -> None:
    """Forget the files read so far (a specialist was just written)."""
    _specialists.cache_clear()
    _record.cache_clear()
    _settings.cache_clear()
    routes.forget()


def playing_file(own: Path, values: dict[str, Any] | None, rounds_by_players,
                 measured: bool = True) -> Path:
    """The network file that plays the rule ``values`` (none: ``own``): with
    ``measured`` the file the routes measured strongest
    on their player count and shape (``_routed``); else the first specialist trained on
    them alone, else ``own`` where it was, else the first rule-conditioned specialist
    trained on them, else (2-4 players, the shape changed) the file that plays them solo,
    else ``own``."""
    if values is None:
        return own
    pin = _PINNED.get()
    if pin is not None and _holds(pin, solo_view(values, rounds_by_players), rounds_by_players):
        return pin
    routed = _routed(own, values, rounds_by_players) if measured else None
    if routed is not None:
        return routed
    for path in _specialists(own):
        if not conditioned(record(path), values["players"]) \
                and _holds(path, values, rounds_by_players):
            return path
    if _holds(own, values, rounds_by_players):
        return own
    over = conditioned_files(own, values, rounds_by_players)
    if over:
        return over[0]
    if values["players"] > 1 and reshaped(record(own), values, rounds_by_players):
        return playing_file(own, solo_view(values, rounds_by_players), rounds_by_players,
                            measured)
    return own


def _routed(own: Path, values: dict[str, Any], rounds_by_players) -> Path | None:
    """The file the routes measured strongest on the player count and shape of the rule
    ``values`` (the point that covers them: ``routes.point_for``), whatever their other
    rules; none where no point covers them."""
    if not routes.usable(own):
        return None
    point = routes.point_for(own, values, shape_key(values, rounds_by_players))
    return None if point is None else own.parent / point["plays"]


def shape_key(values: dict[str, Any], rounds_by_players) -> list:
    """The shape of the rule ``values`` (``SHAPE``) as ``[rounds, round_1_bonus, ...,
    round_4_bonus]``, the round count written out."""
    natural = int(rounds_by_players[values["players"]])
    return [int(values["rounds"] or natural), *(bool(values[name]) for name in SHAPE[1:])]


def reshaped(trained: dict[str, Any], values: dict[str, Any], rounds_by_players) -> bool:
    """Do the rule ``values`` change the game's shape from the rules of a ``trained_on``
    record: a round count other than the player count's own, or other round-track
    bonuses?"""
    natural = int(rounds_by_players[values["players"]])
    rules = trained.get("rules", {})
    return int(values["rounds"] or natural) != natural or any(
        name in rules and values.get(name, rules[name]) != rules[name] for name in SHAPE[1:])


def solo_view(values: dict[str, Any], rounds_by_players) -> dict[str, Any]:
    """The solo game of the rule ``values``: one player, the same round count (a solo
    game's values as they are, the round count written out)."""
    natural = int(rounds_by_players[values["players"]])
    return {**values, "players": 1, "rounds": int(values["rounds"] or natural)}


def conditioned_files(own: Path, values: dict[str, Any], rounds_by_players) -> list[Path]:
    """The rule-conditioned specialists of the game of ``own`` whose distribution holds
    the rule ``values``, by name."""
    return [path for path in _specialists(own) if conditioned(record(path), values["players"])
            and _holds(path, values, rounds_by_players)]


def candidates(own: Path, values: dict[str, Any], rounds_by_players) -> list[Path]:
    """The shipped network files that could play the rule ``values``, for measuring
    which plays them best (``routes``): the specialists of one variant trained on their
    solo game, the game's own file and the rule-conditioned files whose distribution
    holds that solo game."""
    solo = solo_view(values, rounds_by_players)
    single = [path for path in _specialists(own) if path.parent == own.parent
              and not conditioned(record(path), 1) and _holds(path, solo, rounds_by_players)]
    over = [path for path in conditioned_files(own, solo, rounds_by_players)
            if path.parent == own.parent]
    return [*single, own, *over]


def _holds(path: Path, values: dict[str, Any], rounds_by_players) -> bool:
    """Was the network file ``path`` trained on the rule ``values``?"""
    return not mismatches(record(path), values, rounds_by_players)


def common_file(own: Path, variants: list[dict[str, Any]], rounds_by_players) -> Path | None:
    """The one network file to play every variant of a comparison, where their nearest
    networks differ: the first rule-conditioned one trained on all of them (none where
    they agree, or where no such network holds them all). The nearest are those trained
    on each (a shape a conditioned network leaves to the own network counts as its own),
    so a rule's effect is measured by a network trained on both sides where one is."""
    if len({playing_file(own, v, rounds_by_players, measured=False) for v in variants}) <= 1:
        return None
    holding = [set(conditioned_files(own, solo_view(v, rounds_by_players), rounds_by_players))
               for v in variants]
    return next((path for path in _specialists(own) if all(path in h for h in holding)),
                None)


@contextlib.contextmanager
def pinned(path: Path | None, variants: Sequence[dict[str, Any]] = ()) -> Iterator[None]:
    """Within the block, ``playing_file`` gives ``path`` for every rules it was trained
    on (none: no change), and ``compared`` gives the rule values of the comparison's
    ``variants``."""
    token = _PINNED.set(path)
    compared_token = _COMPARED.set(tuple(variants) if path is not None else ())
    try:
        yield
    finally:
        _COMPARED.reset(compared_token)
        _PINNED.reset(token)


def compared() -> tuple[dict[str, Any], ...]:
    """The rule values of every variant of the comparison in force (``pinned``; none
    outside one): what plays one of them plays them all alike."""
    return _COMPARED.get()
