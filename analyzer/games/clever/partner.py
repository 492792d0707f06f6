"""A rule-conditioned network's partner: the game's own solo network, joining the
conditioned network's estimate (the mean of the two) on the game shapes where the pair
was measured to play better than the conditioned network alone.

The conditioned network learns every variant of its distribution; on the rules it was
trained on (the defaults' shape), the own network is the stronger of the two (Twice As
Clever, solo: 3 points on 4,000 paired games), and the mean of the two is stronger than
either. Where the own network never learnt the shape (4 rounds, no round bonus), it
pulls the pair down. So a conditioned file's settings may name a partner
(``"partner"``): the file and member of the partner network, the SHA-256 of that file
(``routes.digest``) when the gate was measured, and the solo shapes (``networks.shape_key``)
where it joins. The partner is given the conditioned network's inputs with zero rows (it
computes exactly what it did) and keeps its own width; the two are the policy row's
members.

The gate reads the rules in force: solo games of a listed shape, whatever their other
rules. Games of 2-4 players play the conditioned network alone, and so does every side of
a comparison that pins the conditioned network (a what-if, the report's rule values)
unless the partner joins all of its sides: a rule's effect is one model's, never the
partner's gain on one side. Once the partner file changes, the gate was measured on
another network and is not used (``partner_members`` gives none) until it is measured
again (``scripts/measure_partner.py``).
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import UserError
from analyzer.games.clever import networks, routes, value_weights

KEY = "partner"  # the conditioned file's settings entry
_HEX = re.compile(r"[0-9a-f]{64}")


def good_entry(entry: Any) -> bool:
    """Is ``entry`` a partner setting: the partner's file name (beside the conditioned
    file), its member, its SHA-256, the shapes it joins (``[rounds, four bonuses]``) and
    the measured means (a mapping)?"""
    if not isinstance(entry, dict) or set(entry) != {"file", "member", "sha256", "shapes",
                                                     "measured"}:
        return False
    name, member, shapes = entry["file"], entry["member"], entry["shapes"]
    return isinstance(name, str) and name == Path(name).name and name.endswith(".npy") \
        and isinstance(member, int) and not isinstance(member, bool) and member >= 0 \
        and isinstance(entry["sha256"], str) and bool(_HEX.fullmatch(entry["sha256"])) \
        and isinstance(shapes, list) and all(_good_shape(s) for s in shapes) \
        and isinstance(entry["measured"], dict)


def _good_shape(shape: Any) -> bool:
    """Is ``shape`` a shape key: a round count and one bool per round-track bonus?"""
    return isinstance(shape, list) and len(shape) == len(networks.SHAPE) \
        and isinstance(shape[0], int) and not isinstance(shape[0], bool) \
        and all(isinstance(b, bool) for b in shape[1:])


def joins(info: dict[str, Any], values: dict[str, Any] | None, rounds_by_players) -> bool:
    """Does the partner of a conditioned file's settings ``info`` join its play on the
    rule ``values`` (a solo game of a listed shape)? In a comparison of variants that
    pins one network (``networks.compared``), only where it joins every one of them, so
    that every side plays the same model."""
    entry = info.get(KEY)
    if not entry or values is None:
        return False
    return all(v["players"] == 1 and networks.shape_key(v, rounds_by_players)
               in entry["shapes"] for v in (values, *networks.compared()))


def partner_members(path: Path, info: dict[str, Any], values: dict[str, Any] | None,
                    rounds_by_players, game: int) -> list[np.ndarray]:
    """The partner network (float32 weights, given the conditioned network's inputs) that
    joins the network file ``path`` (settings ``info``) on the rule
    ``values`` (``joining``); none where it does not."""
    other = joining(path, info, values, rounds_by_players)
    if other is None:
        return []
    entry = info[KEY]
    return [widened(other, entry["sha256"], entry["member"], int(info["inputs"]), game)]


def joining(path: Path, info: dict[str, Any], values: dict[str, Any] | None,
            rounds_by_players) -> Path | None:
    """The partner file that joins the network file ``path`` (settings ``info``) on the
    rule ``values``: none where the gate is shut there or the partner file has changed
    since the gate was measured; a ``UserError`` where the partner entry is damaged."""
    if KEY in info and not good_entry(info[KEY]):
        raise UserError(f"value network {str(path)!r}: its {KEY!r} setting is damaged; "
                        "expected the partner's file name, member, SHA-256, shapes "
                        "([rounds, four bonuses]) and measured means; measure it again "
                        "with scripts/measure_partner.py")
    if not joins(info, values, rounds_by_players):
        return None
    other = path.parent / info[KEY]["file"]
    if not other.exists() or routes.digest(other) != info[KEY]["sha256"]:
        return None
    return other


def words(path: Path, info: dict[str, Any], values: dict[str, Any],
          rounds_by_players) -> str:
    """Where a partner joins the network file ``path`` on ``values``, in words for a
    note (else empty)."""
    other = joining(path, info, values, rounds_by_players)
    return "" if other is None else \
        f", joined by {other.name}: the mean of the two, measured stronger than it alone " \
        "on the game shape of these rules"


@functools.lru_cache(maxsize=8)
def widened(path: Path, sha256: str, member: int, n_in: int, game: int) -> np.ndarray:
    """Member ``member`` of the network file ``path`` (its SHA-256 ``sha256``, by which
    a changed file is read again), given ``n_in`` inputs with zero rows (it computes
    exactly what it did, at its own width: a policy row's last member may be of another
    width than the others); a ``UserError`` where it has no such member or more inputs."""
    members, info = value_weights.load(path, game)
    n_old = int(info["inputs"])
    if member >= len(members) or n_old > n_in:
        raise UserError(
            f"partner network {str(path)!r}: expected a member {member} of at most "
            f"{n_in} inputs, found {len(members)} members of {n_old} inputs; measure the "
            "partner again")
    return value_weights.widen(members[member], n_old, n_in, value_weights.hidden_of(info))
