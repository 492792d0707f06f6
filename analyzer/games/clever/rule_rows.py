"""A network's rules block under the game's rule inputs as they are now: rule inputs only
grow. Each rules-block bit (``analyzer.games.clever.rule_inputs``, ``parameter=value``)
has two first-layer rows (the bit, and the bit scaled by the rounds left) and one skip-head
weight (``kernels.clever_base.rule_block``). A network trained with the bits ``trained``
plays the game's bits ``now`` with each trained bit's rows moved to where that bit is now,
and zero rows for a bit it never had: it computes what it did on every rule it was trained
with, and a new rule parameter changes nothing until it is trained.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.errors import UserError
from kernels.clever import net
from kernels.clever_base.rule_block import N_RULE_BITS, RULES_FEWER_LEFT, RULES_SCALED
from kernels.clever_base.seats import N_SEAT


def moves(trained: list[str], now: list[str], source: str) -> list[tuple[int, int]]:
    """``(bit now, bit trained)`` for every trained bit; a ``UserError`` naming
    ``source`` when a trained bit is not among the game's bits now."""
    gone = [name for name in trained if name not in now]
    if gone:
        raise UserError(f"value network {source}: trained with rule inputs the game no "
                        f"longer has ({', '.join(gone)}); rule inputs only grow")
    return [(now.index(name), k) for k, name in enumerate(trained)]


def regrown_weights(weights: np.ndarray, n_in: int, rules_first: int,
                    pairs: list[tuple[int, int]], n_now: int) -> np.ndarray:
    """A member network's weights (float32, first-layer rows of ``h1`` numbers each, its
    width from its size) with the rows of the game's ``n_now`` rules-block bits (the block
    from input ``rules_first``) moved by ``pairs`` (``moves``; a bit no pair names: zero);
    every other weight as it was (the rows of bits the game does not use too)."""
    h1 = int(net.width_of(weights.size, n_in))
    out = weights.copy()
    for offset in (0, RULES_SCALED):
        base = rules_first + offset
        block = weights[base * h1:(base + N_RULE_BITS) * h1].reshape(N_RULE_BITS, h1)
        moved = block.copy()
        moved[:n_now] = 0.0
        for now, was in pairs:
            moved[now] = block[was]
        out[base * h1:(base + N_RULE_BITS) * h1] = moved.ravel()
    return out


def regrown_skip(skip: list[float], pairs: list[tuple[int, int]], n_now: int) -> list[float]:
    """A skip head (``N_SKIP`` numbers: the seat block's, then the rules block's scaled
    inputs from ``RULES_FEWER_LEFT``) with the weights of the game's ``n_now`` rule bits
    moved by ``pairs`` (a bit no pair names: zero)."""
    if len(skip) <= N_SEAT:
        return list(skip)
    first = N_SEAT + RULES_SCALED - RULES_FEWER_LEFT  # the first scaled bit's weight
    out = list(skip)
    out[first:first + n_now] = [0.0] * n_now
    for now, was in pairs:
        out[first + now] = skip[first + was]
    return out


def regrown(members: list[np.ndarray], info: dict[str, Any], now: list[str],
            rules_first: int, source: str) -> tuple[list[np.ndarray], dict[str, Any]]:
    """A network file's members and settings (its ``rule_inputs`` the bits it was trained
    with) given the game's rule inputs ``now``; the settings keep the trained bits under
    ``trained_rule_inputs``."""
    trained = list(info["rule_inputs"])
    pairs = moves(trained, now, source)
    n_in = int(info["inputs"])
    grown = [regrown_weights(np.asarray(m, np.float32), n_in, rules_first, pairs, len(now))
             for m in members]
    settings = {**info, "rule_inputs": list(now), "trained_rule_inputs": trained}
    if "skip" in info:
        settings["skip"] = regrown_skip(info["skip"], pairs, len(now))
    return grown, settings
