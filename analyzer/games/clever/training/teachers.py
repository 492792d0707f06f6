"""The teachers of a distilled rule-conditioned network: the game's solo network and its
specialists (``analyzer.games.clever.networks``), each teaching the training games whose rules
are nearest its own (``kernels.clever.selfplay``'s distillation).

A network teaches a variant when the two agree on the game's shape, its round count and
round-track bonuses (``SHAPE``), and the variant changes every other rule the network was
trained on; the most specific such network teaches it. The game's own network, trained on
the defaults, so teaches every variant that keeps the shape; a variant whose shape no
network was trained on has no teacher and learns from its own returns.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from analyzer.games.clever import networks, value_weights, variants
from analyzer.games.clever.game import CleverGame
from analyzer.params import defaults
from kernels.clever import value_net

SHAPE = networks.SHAPE
FREE_SHARE = 0.25  # a distilled run's games whose rules are drawn as the distribution has them


def solo_network(game: CleverGame, path: Path) -> tuple[np.ndarray, np.ndarray]:
    """The solo network (its first member) of the network file ``path`` given the rules
    block (zero rows where it has none), and its skip head (float64[N_SKIP])."""
    members, info = value_weights.load(path, game.kernel_game)
    first = np.asarray(members[0], np.float32)
    n_in = int(value_net.n_inputs(game.kernel_game, 3))
    head = np.zeros(value_net.N_SKIP)
    skip = info.get("skip", [])
    head[:len(skip)] = skip
    h1 = value_weights.hidden_of(info)
    return value_weights.widen(first, value_weights.inputs_of(first, h1), n_in, h1), head


def file_changes(game: CleverGame, path: Path) -> dict[str, Any]:
    """The solo rules a network file was trained on, as changes from the defaults (a
    specialist's round count among them)."""
    trained = networks.record(path)
    values = {**defaults(game.params), **trained.get("rules", {}), "players": 1}
    natural = int(game.layout.ROUNDS_BY_PLAYERS[1])
    if trained.get("rounds", natural) != natural:
        values["rounds"] = trained["rounds"]
    return variants.changes(game, values)


def solo_changes(game: CleverGame, values: dict[str, Any]) -> dict[str, Any]:
    """The changes of the solo variant ``values``, a round count equal to the solo game's
    own not counted as one."""
    out = variants.changes(game, values)
    if out.get("rounds") == int(game.layout.ROUNDS_BY_PLAYERS[1]):
        del out["rounds"]
    return out


def teacher_of(changes: dict[str, Any], taught: list[dict[str, Any]]) -> int:
    """The index of the network of ``taught`` (each its changes) that teaches the variant
    of ``changes``: same shape, every other change of the network's among the variant's,
    the most such changes first; -1 for none."""
    shape = {k: v for k, v in changes.items() if k in SHAPE}
    best, most = -1, -1
    for k, own in enumerate(taught):
        if {n: v for n, v in own.items() if n in SHAPE} != shape:
            continue
        if any(changes.get(n) != v for n, v in own.items()) or len(own) <= most:
            continue
        best, most = k, len(own)
    return best


def teacher_files(game: CleverGame) -> list[Path]:
    """The networks that teach: the game's own file, then its specialists of one solo
    variant shipped beside it, by name."""
    own = game.learned_file
    shipped = sorted(own.parent.glob(f"{own.stem}.*{own.suffix}"))
    return [own] + [p for p in shipped if networks.record(p).get("players") == [1]
                    and not networks.conditioned(networks.record(p), 1)]


def taught_changes(game: CleverGame, files: list[Path]) -> list[dict[str, Any]]:
    """The rules each of the teaching ``files`` teaches, as changes (the game's own file,
    first, teaches the defaults)."""
    return [{}] + [file_changes(game, p) for p in files[1:]]


def teacher_table(game: CleverGame, files: list[Path], table_variants: list[dict[str, Any]]
                  ) -> tuple[np.ndarray, np.ndarray]:
    """``(teachers float64[T, N_POL], teacher_of int64[V])``: the policy rows of the
    teaching ``files`` (``teacher_files``) and the teacher of each of the variants
    ``table_variants`` (-1: none)."""
    n_in = int(value_net.n_inputs(game.kernel_game, 3))
    rows = [value_weights.policy_row([w], n_in, skip=skip)
            for w, skip in (solo_network(game, p) for p in files)]
    taught = taught_changes(game, files)
    index = np.array([teacher_of(solo_changes(game, v), taught) for v in table_variants],
                     np.int64)
    return np.stack(rows), index


def taught_sample(game: CleverGame, count: int, seed: int, taught: list[dict[str, Any]],
                  free_share: float = FREE_SHARE, weights: list[float] | None = None
                  ) -> list[dict[str, Any]]:
    """``count`` solo variants for a distilled run: a share ``free_share`` drawn from the
    training distribution as they are (``variants.sample``), the others each from one of
    the teaching networks' own variants (``taught``, their changes), drawn evenly (or in
    proportion to ``weights``, one a teacher), with half the time no other change and
    otherwise each rule outside the game's shape changed with the distribution's chance.
    Every variant lies inside the distribution."""
    rng = np.random.default_rng([seed, 38])
    free = variants.sample(game, count, seed)
    base = {**defaults(game.params), "players": 1}
    cumulative = None if weights is None else np.cumsum(weights) / np.sum(weights)
    out = []
    for drawn in free:
        if rng.random() < free_share:
            out.append(drawn)
            continue
        pick = int(rng.integers(len(taught))) if cumulative is None else \
            min(int(np.searchsorted(cumulative, rng.random(), side="right")), len(taught) - 1)
        values = {**base, **taught[pick]}
        if rng.random() < 0.5:
            for param in variants.drawn_params(game):
                if param.name not in SHAPE and values[param.name] == base[param.name] \
                        and rng.random() < variants.CHANGE_CHANCE:
                    choices = variants.other_values(param)
                    values[param.name] = choices[int(rng.integers(len(choices)))]
        out.append(values)
    return out


def acting_rows(teacher_of: np.ndarray, shares: list[float], seed: int) -> np.ndarray:
    """``actor_of`` (int64[V]) for a distilled run whose teachers also play: each row of
    the variant table taught by teacher ``t`` (``teacher_of``, int64[V]) is played by that
    teacher with chance ``shares[t]`` (0: never; the learning network plays it, -1), drawn
    once from ``seed``; so the network learns the teachers' values on the positions their
    own play reaches as well as on those its play reaches."""
    draw = np.random.default_rng([seed, 39]).random(teacher_of.shape[0])
    share = np.asarray(shares, np.float64)[np.maximum(teacher_of, 0)]
    return np.where((teacher_of >= 0) & (draw < share), teacher_of, -1).astype(np.int64)


def own_learns_returns(teacher_of: np.ndarray) -> np.ndarray:
    """``teacher_of`` (int64[V]) with the rows the game's own network teaches (0: the
    defaults and the variants nearest them) left untaught (-1), so their games learn from
    their own returns, as the own network did (``train_value.py --own-returns``)."""
    return np.where(teacher_of == 0, -1, teacher_of).astype(np.int64)
