"""Measured routes: which shipped network file ``learned`` plays where more than one could.

A Clever game ships its own network, a rule-conditioned one and specialists of single
variants. Trained-on order (``networks.playing_file``) picks the nearest network trained on
the rules in force, but that is not always the strongest: That's Pretty Clever's
conditioned network outscores its 8-round specialist by 9 points, and in two-player games
of 8 rounds Twice As Clever's conditioned network outscores the own network by 17 points a
seat. ``scripts/measure_routes.py`` plays every candidate file on the same games of every
game shape (``networks.SHAPE``; the other rules at their defaults) and of every shipped
specialist's own variant, solo and with 2 players, and keeps the results beside the
networks in ``routes.json``: for each such point, every candidate's mean and its paired
difference from the file trained-on order picks, and the file that plays there, which is
that one unless another beats it beyond noise (the paired difference's 95% interval wholly
above 0; then the best of those).

A point covers the rules of its shape and player count whose other rules include its own
(a specialist's variant); the most specific point that covers the rules in force decides
(``networks.playing_file``), whatever the other rules: the shape and the player count
decide which network plays best, and other rules move that little. On 74 variants of
moved points with one or two other rules changed (``scripts/check_route_reach.py``, a
held-out seed), the chosen file led trained-on order's beyond noise in 63 and was within
noise in the other 11. Where the chosen file was not trained on a rule in force, every
output says so and shows the heuristic's figure beside it (``trained_on``).
The file keeps the SHA-256 of every network it measured (its weights and settings): once
one of them changes, its routes are out of date and are not used (``load``: ``stale``).
It keeps its own SHA-256 too: a damaged file is one clear error, never read.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

from analyzer.errors import UserError

NAME = "routes.json"


def path_for(own: Path) -> Path:
    """The routes file of the game whose own network file is ``own``."""
    return own.parent / NAME


def digest(path: Path) -> str:
    """The SHA-256 of a network file's bytes and its settings' (``.json``: how it plays,
    what it was trained on), in hex."""
    return hashlib.sha256(path.read_bytes() + path.with_suffix(".json").read_bytes()
                          ).hexdigest()


def sealed(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with its own SHA-256 (``"sha256"``, of the rest as sorted JSON), by which
    ``load`` finds a damaged routes file."""
    rest = {k: v for k, v in data.items() if k != "sha256"}
    text = json.dumps(rest, sort_keys=True).encode()
    return {**rest, "sha256": hashlib.sha256(text).hexdigest()}


@functools.lru_cache(maxsize=None)
def load(own: Path) -> dict[str, Any]:
    """The routes of the game of ``own`` (``{}`` where it has none), with ``stale`` true
    when a network it measured has changed since; a ``UserError`` when the file is
    damaged."""
    path = path_for(own)
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text())
        files = data["files"]
        points = data["points"]
        good = isinstance(files, dict) and isinstance(points, list) \
            and isinstance(data["defaults"], dict) and all(
            _good_point(point, files) for point in points)
        intact = sealed(data)["sha256"] == data["sha256"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UserError(f"routes file {str(path)!r} cannot be read ({exc}); measure "
                        "them again with scripts/measure_routes.py") from None
    if not intact:
        raise UserError(f"routes file {str(path)!r} is damaged (its SHA-256 does not match "
                        "its contents); measure them again with scripts/measure_routes.py")
    if not good:
        raise UserError(f"routes file {str(path)!r}: expected files (name: SHA-256), the "
                        "defaults measured with and points (players, shape, rules, means, "
                        "plays: a measured file); measure them again with "
                        "scripts/measure_routes.py")
    stale = any(not (own.parent / name).exists()
                or not (own.parent / name).with_suffix(".json").exists()
                or digest(own.parent / name) != sha for name, sha in files.items())
    return {**data, "stale": stale}


def _good_point(point: Any, files: dict[str, Any]) -> bool:
    """Is ``point`` a measured point whose files are all among ``files``?"""
    return isinstance(point, dict) and isinstance(point.get("players"), int) \
        and isinstance(point.get("shape"), list) and isinstance(point.get("rules"), dict) \
        and isinstance(point.get("means"), dict) and point.get("plays") in point["means"] \
        and all(name in files for name in point["means"])


def point_for(own: Path, values: dict[str, Any], shape: list) -> dict[str, Any] | None:
    """The measured point that decides the rule ``values`` of ``shape`` (``shape_key``):
    of their player count and shape, the one with the most rules of its own, all of them
    in force, with ``exact`` set where every other rule is at the default it was measured
    with; none where there is none or the routes are out of date."""
    if not usable(own):
        return None
    data = load(own)
    covering = [point for point in data["points"]
                if point["players"] == values["players"] and point["shape"] == shape
                and all(values.get(k) == v for k, v in point["rules"].items())]
    point = max(covering, key=lambda point: len(point["rules"]), default=None)
    if point is None:
        return None
    exact = all(values.get(k) == point["rules"].get(k, v) for k, v in data["defaults"].items())
    return {**point, "exact": exact}


def usable(own: Path) -> bool:
    """Does the game of ``own`` have routes measured on its networks as they are now?"""
    data = load(own)
    return bool(data) and not data["stale"]


def forget() -> None:
    """Forget the routes read so far."""
    load.cache_clear()
