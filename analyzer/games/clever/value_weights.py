"""The value policy's network files: ``value_net.npy`` (float32, the member networks'
weights one after another, ``kernels.clever.net``) and ``value_net.json`` beside it (the
input count, the members, the training settings and learning curve); fresh weights and the
policy row that carries them."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import UserError
from analyzer.files import write_atomic
from kernels.clever import net, play, value_net
from kernels.clever_base import seats

MAX_GIFT = 4.0  # the largest gift weight a network file may set (1: a point the platter
# gives an opponent costs a point)
LOOK_LIMITS = {"samples": 64, "branch": 8, "margin": 100}  # the look one roll ahead
# (``kernels.clever.lookahead``): at most this many sampled rolls, picks compared, points
# of margin; ``"players"``: the player counts that look
RETIRED = {"solo_members", "mixed", "solo_share", "second_seat"}  # settings of files whose
# members split or mixed the games by player count: refused, every member plays every game


def initial_weights(n_in: int, seed: int, h1: int = net.H1) -> np.ndarray:
    """He-normal weights (float32[net_size(n_in, h1)]) drawn by ``seed``; biases and the
    output layer 0, so a fresh network estimates 0 points to come."""
    rng = np.random.default_rng(seed)
    w = np.zeros(net.net_size(n_in, h1), np.float32)
    b1, w2, b2, w3, _, _ = net.net_offsets(n_in, h1)
    w[:b1] = rng.normal(0.0, np.sqrt(2.0 / 24.0), b1)  # about 24 inputs are nonzero
    w[w2:b2] = rng.normal(0.0, np.sqrt(2.0 / h1), b2 - w2)
    w[w3:w3 + net.H2] = rng.normal(0.0, np.sqrt(1.0 / net.H2), net.H2) * 0.01
    return w


def widen(weights: np.ndarray, n_old: int, n_new: int, h1: int = net.H1) -> np.ndarray:
    """The weights (or Adam moments) of a network of ``n_old`` inputs given ``n_new``
    inputs, the new ones' first-layer rows zero: it computes exactly what it did."""
    b1 = n_old * h1
    return np.concatenate((weights[:b1], np.zeros((n_new - n_old) * h1, np.float32),
                           weights[b1:])).astype(np.float32)


def inputs_of(weights: np.ndarray, h1: int = net.H1) -> int:
    """The input count of a network of first hidden layer ``h1`` from its weights' size."""
    return (weights.size - int(net.net_size(0, h1))) // h1


def hidden_of(info: dict[str, Any]) -> int:
    """The first hidden layer's width of a network file's members (its .json's
    ``"hidden"``), or of a training run's (its settings')."""
    return int(info.get("hidden", [net.H1])[0])


def policy_row(members: list[np.ndarray], n_in: int, teacher: float = 0.0,
               heuristic: np.ndarray | None = None, skip: Any = None, gift: float = 0.0,
               look: dict[str, Any] | None = None) -> np.ndarray:
    """The value policy's kernel row (float64[N_POL]) averaging the ``members``' networks
    (float32 weights each, of one first-layer width; every member plays every game), with
    the skip head ``skip`` (N_SEAT or N_SKIP numbers; none: zeros), weighing ``gift``
    times what its last roll's platter gives the opponents (``kernels.clever.denial``),
    looking one roll ahead in the games ``look`` names (``kernels.clever.lookahead``; a
    file's ``"look"``); ``teacher`` > 0 mixes in the heuristic's value (its kernel row
    ``heuristic`` gives the weights)."""
    if not 1 <= len(members) <= value_net.MAX_MEMBERS:
        raise ValueError(f"1 to {value_net.MAX_MEMBERS} member networks, not {len(members)}")
    h1 = int(net.width_of(members[0].size, n_in))
    if h1 not in net.WIDTHS or any(m.size != net.net_size(n_in, h1) for m in members):
        raise ValueError(f"member networks of {n_in} inputs and one first-layer width "
                         f"({' or '.join(map(str, net.WIDTHS))}), not sizes "
                         f"{[m.size for m in members]}")
    if value_net.row_size(n_in, len(members), h1) > value_net.MAX_ROW_SIZE:
        raise ValueError(f"{len(members)} networks of width {h1} do not fit a policy row")
    row = np.zeros(play.N_POL)
    row[play.KIND] = play.VALUE
    if heuristic is not None:
        row[play.W_VALUE:play.W_NET] = heuristic[play.W_VALUE:play.W_NET]
    start = play.W_NET
    row[start + value_net.P_INPUTS] = n_in
    row[start + value_net.P_MEMBERS] = len(members)
    row[start + value_net.P_TEACHER] = teacher
    row[start + value_net.P_HIDDEN] = h1
    row[play.W_GIFT] = gift
    if look:
        row[play.W_SAMPLES], row[play.W_BRANCH] = look["samples"], look["branch"]
        row[play.W_LOOK_MARGIN] = look["margin"]
        row[play.W_LOOK_PLAYERS] = sum(1 << players for players in set(look["players"]))
    if skip is not None:
        skip_head(row)[:len(skip)] = skip
    for k, weights in enumerate(members):
        member(row, k)[:] = weights
    return row


def skip_head(row: np.ndarray) -> np.ndarray:
    """A view of the skip head's weights (float64[N_SKIP]: the seat block's, then the rules
    block's) in a value policy row."""
    first = play.W_NET + value_net.P_SKIP
    return row[first:first + value_net.N_SKIP]


def member(row: np.ndarray, k: int = 0) -> np.ndarray:
    """A view of member ``k``'s float32 weights in a value policy row (training updates
    them in place)."""
    start = play.W_NET
    return value_net.member_weights(row, start, int(row[start + value_net.P_INPUTS]), k)


def save(path: Path, members: list[np.ndarray], info: dict[str, Any]) -> None:
    """Write ``path`` (.npy: float32[members, net_size]) and its ``.json`` twin, each
    atomically; the settings carry the weights' SHA-256 (``weights_digest``), which
    ``load`` checks."""
    weights = np.stack([np.asarray(m, np.float32) for m in members])
    buffer = io.BytesIO()
    np.save(buffer, weights)
    write_atomic(path, buffer.getvalue())
    info = {**info, DIGEST: weights_digest(weights)}
    write_atomic(path.with_suffix(".json"), json.dumps(info, indent=1) + "\n")


REMEDY = ("give a network file as `dicelab GAME train --network FILE` wrote it, or "
          "install dicelab again for its own networks")  # what to do about a bad file
DIGEST = "weights_sha256"  # the settings' entry: the SHA-256 of the weights' float32 bytes


def weights_digest(weights: np.ndarray) -> str:
    """The SHA-256 of a network file's weights (float32[members, net_size]) as stored, in
    C order."""
    return hashlib.sha256(np.ascontiguousarray(weights).tobytes()).hexdigest()


def load(path: Path, game: int) -> tuple[list[np.ndarray], dict[str, Any]]:
    """The member networks and settings stored by ``save`` for ``game`` (the kernels'
    TPC or TAC; the base inputs, or with the bonus block, or the seat block too); a
    ``UserError`` naming what is wrong."""
    info_path = path.with_suffix(".json")
    try:
        weights = np.load(path, allow_pickle=False)
        info = json.loads(info_path.read_text())
    except (OSError, ValueError, EOFError) as exc:  # EOFError: an empty file
        raise UserError(f"value network {str(path)!r} (with {info_path.name}): cannot be "
                        f"read ({exc}); {REMEDY}") from None
    if not isinstance(info, dict) or info.get(DIGEST) != weights_digest(weights):
        raise UserError(f"value network {str(path)!r} is damaged: its weights do not match "
                        f"the SHA-256 its {info_path.name} records ({DIGEST}); {REMEDY}")
    accepted = {int(value_net.n_inputs(game, blocks)) for blocks in range(4)}
    n_in = info.get("inputs") if isinstance(info, dict) else None
    hidden = info.get("hidden") if isinstance(info, dict) else None
    widths = [[h1, net.H2] for h1 in net.WIDTHS]
    size = int(net.net_size(n_in, hidden[0])) if n_in in accepted and hidden in widths \
        else -1
    if n_in not in accepted or weights.ndim != 2 or weights.shape[1] != size \
            or weights.dtype != np.float32 \
            or not 1 <= weights.shape[0] <= value_net.MAX_MEMBERS \
            or value_net.row_size(n_in, weights.shape[0], hidden[0]) > value_net.MAX_ROW_SIZE \
            or not np.isfinite(weights).all() \
            or RETIRED & set(info) \
            or not _good_gift(info.get("gift", 0.0)) \
            or not good_look(info.get("look", {})) \
            or not _good_skip(info.get("skip", [0.0] * seats.N_SEAT)):
        raise UserError(f"value network {str(path)!r}: expected 1 to "
                        f"{value_net.MAX_MEMBERS} networks (1 of width {net.MAX_H1}) of finite "
                        "float32 weights "
                        f"({' or '.join(map(str, sorted(accepted)))} inputs, hidden layers "
                        f"{' or '.join(f'{h} x {net.H2}' for h in net.WIDTHS)}) and a .json "
                        "naming their inputs and hidden layers (and the gift's weight: 0 "
                        f"to {MAX_GIFT:g}; the look ahead: {{}} or {LOOK_WORDS}; a skip "
                        f"head of {seats.N_SEAT} or {value_net.N_SKIP} finite numbers; "
                        f"none of {', '.join(sorted(RETIRED))}: every network plays every "
                        "game)")
    return list(weights), info


LOOK_DEFAULTS = {"branch": 3, "margin": 6.0}  # learned:N's, where its file sets no look


def look_everywhere(row: np.ndarray, samples: int) -> None:
    """Make a value policy ``row`` look one roll ahead with ``samples`` sampled rolls in
    games of every player count (0: never), comparing the picks its file's look compares
    (else ``LOOK_DEFAULTS``')."""
    row[play.W_SAMPLES] = samples
    row[play.W_LOOK_PLAYERS] = 0b11110 if samples else 0
    if not row[play.W_BRANCH]:
        row[play.W_BRANCH] = LOOK_DEFAULTS["branch"]
        row[play.W_LOOK_MARGIN] = LOOK_DEFAULTS["margin"]


LOOK_WORDS = ("players: a list of 1-4, samples: 1-" + str(LOOK_LIMITS["samples"])
              + ", branch: 1-" + str(LOOK_LIMITS["branch"]) + ", margin: 0-"
              + str(LOOK_LIMITS["margin"]) + " points")


def good_look(look: Any) -> bool:
    """Is ``look`` a look-ahead setting: ``{}`` (none), or the player counts that look, the
    sampled rolls, the picks compared and the margin within ``LOOK_LIMITS``?"""
    if look == {}:
        return True
    if not isinstance(look, dict) or set(look) != {"players", *LOOK_LIMITS}:
        return False
    players = look["players"]
    whole = all(isinstance(look[k], int) and not isinstance(look[k], bool)
                for k in ("samples", "branch"))
    margin = look["margin"]
    return isinstance(players, list) and all(
        isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 4 for n in players) \
        and whole and 1 <= look["samples"] <= LOOK_LIMITS["samples"] \
        and 1 <= look["branch"] <= LOOK_LIMITS["branch"] \
        and isinstance(margin, (int, float)) and not isinstance(margin, bool) \
        and 0 <= margin <= LOOK_LIMITS["margin"]


def _good_skip(skip: Any) -> bool:
    """Is ``skip`` a skip head: ``N_SEAT`` (the seat block's) or ``N_SKIP`` (and the rules
    block's) finite numbers?"""
    return isinstance(skip, list) and len(skip) in (seats.N_SEAT, value_net.N_SKIP) and all(
        isinstance(x, (int, float)) and not isinstance(x, bool) and np.isfinite(x)
        for x in skip)


def _good_gift(gift: Any) -> bool:
    """Is ``gift`` a gift weight: a number from 0 to ``MAX_GIFT``?"""
    return isinstance(gift, (int, float)) and not isinstance(gift, bool) \
        and 0.0 <= gift <= MAX_GIFT


def file_row(members: list[np.ndarray], info: dict[str, Any]) -> np.ndarray:
    """The value policy's kernel row of a network file's members and settings (as
    ``load`` returns them): its skip head, gift and look ahead."""
    return policy_row(members, int(info["inputs"]), skip=info.get("skip"),
                      gift=info.get("gift", 0.0), look=info.get("look"))
