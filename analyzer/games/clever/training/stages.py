"""The stages of a self-play training run (``kernels.clever.selfplay``): what each plays
and learns, and the schedules of its exploration and step size."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels.clever import selfplay, value_net

LAMBDA = 0.8
NO_CURRICULUM = (-1, 0, 0.0, 0.0, 0)


class Stage(NamedTuple):
    """One stage of a training run: its games, teacher weight (1: the warm start), lambda,
    exploration (start, end, over what share of the stage), step sizes ((share of the stage
    from which, step size), ...), whether the network has the bonus block, the curriculum
    (capped area, cap, spotlight share, spotlight bias, spotlit areas:
    ``kernels.clever.selfplay``), the games played with one set of weights, whether the
    network has the seat block, the shares of games of 1-4 players, whether the skip head
    learns with the network, whether the network has the rules block
    (``kernels.clever_base.rule_block``), whether every game weighs the same whatever its
    player count."""

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
    skip_head: bool = False  # the skip head (``kernels.clever.value_net``) learns
    rules_block: bool = False  # the rules block's inputs too (after the seat block)
    per_game: bool = False  # each seat of a game of n players learns with weight 1 / n


RETIRED = {"new_rows_only": False, "win_bonus": 0.0, "skip_alone": False,
           "partner": False, "teach": 0.0, "seat_rows_only": False}  # fields stages had,
# at the values that left them out (a checkpoint's stages may still name them)


def stage_games(stages: dict[str, Stage], stage: str, scale: float) -> int:
    """The games of ``stage`` times ``scale`` (below 1 for trials and tests, above 1 for a
    longer run), a whole number of its snapshots."""
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


def multiplayer_only(spec: Stage) -> bool:
    """Does the stage play games of 2-4 players alone (no solo share)?"""
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

