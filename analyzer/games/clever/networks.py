"""The network ``learned`` plays, and its card.

Each Clever game ships one value network (``value_net.npy``, its settings in the ``.json``
beside it) that plays every game shape, player count and seat: the rules, the player count
and the seat are among its inputs. ``learned`` plays it on every rule set, or the network
file a user names (``--network``, ``CleverGame.with_network``), and nothing else.

The settings' ``"card"`` says who plays and what it learnt on::

    {"name": "That's Pretty Clever network 2",      # the player's name in every output
     "config": "analyzer/games/thats_pretty_clever/value_net.toml",  # its training config
     "trained": {"rounds": [4, 5, 6, 7, 8],        # the round counts it played
                 "players": [1, 2, 3, 4],
                 "rules": {parameter: [values]}},   # each rule's values it played
     "strength": {...}}                             # as measured (scripts/card_strength.py)

A rule the card does not name was played at its default only.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from analyzer.errors import UserError
from analyzer.games.clever import value_weights

SHAPE = ("rounds", "round_1_bonus", "round_2_bonus", "round_3_bonus", "round_4_bonus")


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


def card(path: Path) -> dict[str, Any]:
    """The card of network file ``path``; a ``UserError`` where it is missing or
    malformed."""
    return _card(path.with_suffix(".json"))


@functools.lru_cache(maxsize=None)
def _card(path: Path) -> dict[str, Any]:
    data = _settings(path)
    found = data.get("card") if isinstance(data, dict) else None
    trained = found.get("trained") if isinstance(found, dict) else None
    if not (isinstance(found, dict) and isinstance(found.get("name"), str)
            and isinstance(trained, dict) and _counts(trained.get("rounds"))
            and _counts(trained.get("players"))
            and isinstance(trained.get("rules"), dict)
            and all(isinstance(v, list) for v in trained["rules"].values())):
        raise UserError(f"network settings {str(path)!r}: its card must name the player "
                        "(name) and what it was trained on (trained: rounds, players, rules); "
                        f"{value_weights.REMEDY}")
    return found


def _counts(values: Any) -> bool:
    """Is ``values`` a non-empty list of whole numbers above 0?"""
    return isinstance(values, list) and bool(values) and all(
        isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in values)


def forget() -> None:
    """Forget the files read so far (a network file was just written)."""
    _card.cache_clear()
    _settings.cache_clear()


def untrained(trained: dict[str, Any], values: dict[str, Any], rounds: int,
              defaults: dict[str, Any]) -> list[str]:
    """How the rule ``values`` (``rounds`` rounds in all) leave what a card's ``trained``
    record played, in words (empty: inside it); a rule the record does not name counts as
    played at its value in ``defaults`` alone."""
    out = []
    if values["players"] not in trained["players"]:
        out.append(f"{values['players']} players (trained on "
                   f"{_span(trained['players'])})")
    if rounds not in trained["rounds"]:
        out.append(f"{rounds} rounds (trained on {_span(trained['rounds'])})")
    for name, value in values.items():
        played = trained["rules"].get(name)
        if name in ("players", "rounds") or value in (played or [defaults.get(name, value)]):
            continue
        out.append(f"{name}={value} (trained on {', '.join(map(str, played))})" if played
                   else f"{name}={value} (never trained with it changed)")
    return out


def _span(counts: list[int]) -> str:
    """Whole numbers in words: "4-8" for a run of them, else "1, 3"."""
    ordered = sorted(counts)
    if len(ordered) > 2 and ordered == list(range(ordered[0], ordered[-1] + 1)):
        return f"{ordered[0]}-{ordered[-1]}"
    return ", ".join(map(str, ordered))
