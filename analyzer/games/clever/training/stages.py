"""The stages of a self-play training run (``kernels.clever.selfplay``): what each plays
and learns, and the schedules of its exploration and step size."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels.clever import net, selfplay, value_net

LAMBDA = 0.8
NO_CURRICULUM = (-1, 0, 0.0, 0.0, 0)


class Stage(NamedTuple):
    """One stage of a training run: its games, teacher weight (1: the warm start), lambda,
    exploration (start, end, over what share of the stage), step sizes ((share of the stage
    from which, step size), ...), whether the network has the bonus block, the curriculum
    (capped area, cap, spotlight share, spotlight bias, spotlit areas:
    ``kernels.clever.selfplay``), the games played with one set of weights, whether the
    network has the seat block, the shares of games of 1-4 players, whether the seat
    block's first-layer rows learn alone, the points a win adds to the final score the
    seats of games of 2-4 players learn from, whether the skip head learns (alone, or
    with the network), and whether the solo networks (``--solo-from``) are its partners:
    games of 2-4 players play the mean of theirs and its values, and it learns what it
    adds to them; whether the network has the rules block (``kernels.clever_base.rule_block``);
    the teachers' weight in the targets of the games a teacher network teaches (the run's
    ``teachers``: ``kernels.clever.selfplay``); whether only the seat block's first-layer
    rows learn; whether every game weighs the same whatever its player count."""

    games: int
    teacher: float
    lam: float
    epsilon: tuple[float, float, float]
    steps: tuple[tuple[float, float], ...]
    bonus_block: bool = False
    curriculum: tuple[int, int, float, float] = NO_CURRICULUM
    snapshot: int = 1
    seat_block: bool = False  # the seat block's inputs (``kernels.clever_base.seats``) too
    players: tuple[float, ...] = ()  # shares of games of 1-4 players (none: solo)
    new_rows_only: bool = False  # only the first-layer rows of the seat block learn
    win_bonus: float = 0.0  # points a win adds to what a seat of 2-4 players learns from
    skip_head: bool = False  # the skip head (``kernels.clever.value_net``) learns
    skip_alone: bool = False  # ... and nothing else does
    partner: bool = False  # the solo networks play beside it, unchanged (``selfplay``)
    rules_block: bool = False  # the rules block's inputs too (after the seat block)
    teach: float = 0.0  # the teachers' weight in the targets of the games they teach
    seat_rows_only: bool = False  # only the seat block's first-layer rows learn (solo play,
    # whose seat block is 0, stays as it was)
    per_game: bool = False  # each seat of a game of n players learns with weight 1 / n


def stage_games(stages: dict[str, Stage], stage: str, scale: float) -> int:
    """The games of ``stage`` (``--scale`` shortens every stage, for trials and tests),
    a whole number of its snapshots."""
    snapshot = stages[stage].snapshot
    return max(1, round(stages[stage].games * scale / snapshot)) * snapshot


def schedule(stages: dict[str, Stage], stage: str, done: int, scale: float
             ) -> tuple[float, float]:
    """``(epsilon, step size)`` after ``done`` games of ``stage``."""
    e0, e1, over = stages[stage].epsilon
    share = done / stage_games(stages, stage, scale)
    epsilon = e0 + (e1 - e0) * min(share / over, 1.0)
    lr = [rate for start, rate in stages[stage].steps if share >= start][-1]
    return epsilon, lr


def training_key(stages: dict[str, Stage], seed: int, stage: str) -> np.uint64:
    return np.random.SeedSequence([seed, 2, list(stages).index(stage)]
                                  ).generate_state(1, np.uint64)[0]


def trainable(spec: Stage, game: int, n_in: int, h1: int = net.H1) -> np.ndarray:
    """The range of the weights that learn in a stage (int64[2]; ``(0, -1)``: all): with
    ``new_rows_only``, the first-layer rows (``h1`` numbers each) of the newest block (the
    seat block, or the rules block where the stage has it); with ``seat_rows_only``, the
    seat block's; with ``skip_alone``, none."""
    if spec.skip_alone:
        return np.array([0, 0], np.int64)
    if spec.seat_rows_only:
        first, end = (int(value_net.n_inputs(game, blocks)) for blocks in (1, 2))
        return np.array([first * h1, end * h1], np.int64)
    if not spec.new_rows_only:
        return np.array([0, -1], np.int64)
    first = int(value_net.n_inputs(game, 2 if spec.rules_block else 1))
    return np.array([first * h1, n_in * h1], np.int64)


def multiplayer_only(spec: Stage) -> bool:
    """Does the stage play games of 2-4 players alone (a network for those, beside the
    solo one)?"""
    return bool(spec.players) and spec.players[0] == 0 and any(spec.players)


def kernel_curriculum(spec: Stage) -> np.ndarray:
    """The stage's curriculum as ``selfplay`` takes it (float64[N_CURRICULUM]): the
    behaviour's cap and spotlight, the shares of games of 1-4 players, and whether each
    game weighs the same."""
    shares = (list(spec.players) + [0.0] * selfplay.MAX_PLAYERS)[:selfplay.MAX_PLAYERS]
    return np.array(list(spec.curriculum) + shares + [float(spec.per_game)], np.float64)


def inputs_of_stage(spec: Stage, game: int) -> int:
    """The input count of the network a stage trains: the base inputs, with the bonus
    block, the seat block and the rules block as the stage has them."""
    blocks = 3 if spec.rules_block else 2 if spec.seat_block else int(spec.bonus_block)
    return int(value_net.n_inputs(game, blocks))

