"""The loop of a self-play training run: stage after stage, blocks of games played and
learnt from (``kernels.clever.selfplay.train_block``), an evaluation and a checkpoint
every ``eval_every`` games. Running it again with the same settings resumes from the
checkpoint and ends with the same weights, bit for bit, as an uninterrupted run.

The games are played under fixed rules (a fine-tune's one variant), or under a table of
variants each game draws from (the one network's rows: ``training.unified``)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from analyzer.games.clever import value_weights
from analyzer.files import make_folder
from analyzer.games.clever.training import games as tgames
from analyzer.games.clever.training.stages import (Stage, inputs_of_stage, kernel_curriculum,
                                                   schedule, stage_games, training_key)
from analyzer.games.clever.training.state import (CHUNK, fresh_state, keep_best, load_state,
                                                  save_state)
from kernels.clever import net, selfplay, value_net
from kernels.clever_base.game_rules import RULE_GAME

BATCH = 32


@dataclass
class Run:
    """What a training run plays and learns, and how it is measured and kept.

    ``rules``: the game-rules vector of the tuning games (int64[N_GAME_RULES]);
    ``variants``: the rules each training game draws from (int64[V, N_GAME_RULES]; none:
    ``rules``), ``checks``: variants whose mean solo score each evaluation adds
    (``check_games`` games each); ``settings``: what the checkpoint keeps and a resumed
    run must match (the stages, seeds and rules are added here); ``start``: the start
    network's weights for a new run (none: fresh weights), ``start_skip`` its skip head
    (none: zeros), ``start_moments`` the Adam state they were trained to (``m``, ``v``,
    ``step``, ``skip_moments``; none: fresh, as a new run's); ``hidden``: the network's
    first hidden layer's width (``start``'s); ``report``: called with
    each evaluation's entry (and the elapsed seconds and games played in this call),
    ``advance`` with the games of every training call (a progress bar)."""

    game: str  # "tpc" or "tac", as the checkpoint names it
    stages: dict[str, Stage]
    seed: int
    until: str
    checkpoint: Path
    rules: np.ndarray
    rounds_of: np.ndarray
    heuristic: np.ndarray
    settings: dict[str, Any] = field(default_factory=dict)
    variants: np.ndarray | None = None
    checks: np.ndarray | None = None
    check_games: int = 250
    eval_every: int = 20_000
    eval_games: int = 2000
    hidden: int = net.H1  # the network's first hidden layer's width
    chunk: int = CHUNK
    scale: float = 1.0
    max_games: int = 0
    start: np.ndarray | None = None
    start_skip: np.ndarray | None = None
    start_moments: dict[str, Any] | None = None
    report: Callable[[dict, float, int], None] | None = None
    advance: Callable[[int], None] = lambda n: None
    note: Callable[[str], None] = lambda line: None

    def all_settings(self) -> dict[str, Any]:
        """What the checkpoint keeps: the run's settings and ``settings``."""
        return {"game": self.game, "seed": self.seed, "eval_every": self.eval_every,
                "eval_games": self.eval_games, "hidden": [self.hidden, net.H2],
                "stages": {k: json.loads(json.dumps(v._asdict()))
                           for k, v in self.stages.items()},
                "batch": BATCH, "chunk": self.chunk, "scale": self.scale, "rules": {},
                **self.settings}


def open_state(run: Run) -> dict:
    """The run's state: resumed from its checkpoint, or new."""
    settings = run.all_settings()
    game = int(run.rules[RULE_GAME])
    first = list(run.stages)[0]
    if run.checkpoint.exists():
        state = load_state(run.checkpoint, settings)
        run.note(f"resuming from {run.checkpoint}: stage {state['stage']}, "
                 f"{state['done']} games")
    elif run.start is not None:
        state = fresh_state(0, run.seed, first, run.start, run.hidden)
        if run.start_skip is not None:
            state["skip"][:run.start_skip.size] = run.start_skip
            state["best_skip"] = state["skip"].copy()
        if run.start_moments is not None:
            state.update(run.start_moments)
    else:
        state = fresh_state(int(value_net.n_inputs(game, 0)), run.seed, first,
                            h1=run.hidden)
    return state


def fit_inputs(state: dict, n_in: int, h1: int) -> dict:
    """The state's network (of ``h1`` first-layer units) given the stage's ``n_in``
    inputs: the blocks it adds given zero rows (it plays as before)."""
    if state["weights"].size < net.net_size(n_in, h1):
        old = value_weights.inputs_of(state["weights"], h1)
        for part in ("weights", "m", "v"):
            state[part] = value_weights.widen(state[part], old, n_in, h1)
    return state


def train(run: Run) -> dict:
    """Run the stages up to ``run.until`` (or ``run.max_games`` games in this call, at an
    evaluation); the final state."""
    make_folder(run.checkpoint.parent)
    state = open_state(run)
    names = list(run.stages)
    clock = {"start": time.perf_counter(), "played": 0}
    while names.index(state["stage"]) <= names.index(run.until):
        stage = state["stage"]
        if not _run_stage(run, state, stage, clock):
            return state
        if names.index(stage) + 1 >= len(names):
            break
        state["stage"], state["done"] = names[names.index(stage) + 1], 0
        save_state(run.checkpoint, state, run.all_settings())
    return state


def finished(run: Run, state: dict) -> bool:
    """Has ``state`` (``train``'s) played every game up to the end of ``run.until``?"""
    return state["stage"] == run.until and \
        state["done"] >= stage_games(run.stages, run.until, run.scale)


def _run_stage(run: Run, state: dict, stage: str, clock: dict) -> bool:
    """Play and learn the rest of ``stage``; False when ``max_games`` stopped it."""
    spec = run.stages[stage]
    game = int(run.rules[RULE_GAME])
    n_in = inputs_of_stage(spec, game)
    state.update(fit_inputs(state, n_in, run.hidden))
    row = value_weights.policy_row([state["weights"]], n_in, spec.teacher, run.heuristic,
                                   skip=state["skip"])
    weights = value_weights.member(row)  # trained in place, and the skip head too
    total = stage_games(run.stages, stage, run.scale)
    variants = run.rules[None, :] if run.variants is None else run.variants
    key = training_key(run.stages, run.seed, stage)
    curriculum = kernel_curriculum(spec)
    stats = np.zeros(selfplay.N_STATS)
    while state["done"] < total:
        epsilon, lr = schedule(run.stages, stage, state["done"], run.scale)
        n = min(run.chunk, total - state["done"])
        state["step"] = selfplay.train_block(
            key, state["done"], n, row, run.rounds_of, variants, state["m"], state["v"],
            state["step"], lr, epsilon, spec.lam, BATCH, stats, spec.snapshot, curriculum,
            state["skip_moments"], spec.skip_head)
        state["done"] += n
        clock["played"] += n
        run.advance(n)
        if state["done"] % run.eval_every and state["done"] < total:
            continue
        state["weights"] = weights.copy()
        state["skip"] = value_weights.skip_head(row).copy()
        entry = _evaluation(run, state, spec, n_in, stats)
        entry.update({"stage": stage, "games": state["done"],
                      "total_games": _total_before(run.stages, stage, run.scale)
                      + state["done"], "epsilon": round(epsilon, 4), "lr": lr})
        state["history"].append(entry)
        keep_best(state, spec, stage)
        stats[:] = 0
        save_state(run.checkpoint, state, run.all_settings())
        if run.report:
            run.report(entry, time.perf_counter() - clock["start"], clock["played"])
        if run.max_games and clock["played"] >= run.max_games:
            return False
    return True


def _evaluation(run: Run, state: dict, spec: Stage, n_in: int, stats: np.ndarray) -> dict:
    """The learning-curve entry of the weights as they stand: ``games.evaluate``, and the
    check variants' mean where the run has them."""
    entry = tgames.evaluate(state["weights"], state["skip"], n_in, run.rules,
                            run.eval_games, run.seed, stats, spec, run.rounds_of)
    if run.checks is not None:
        row = value_weights.policy_row([state["weights"]], n_in, skip=state["skip"])
        scores = tgames.check_scores(row, run.checks, run.check_games, run.seed)
        entry["check_mean"] = round(float(np.mean(scores)), 2)
        entry["check_scores"] = [round(score, 1) for score in scores]
    return entry


def _total_before(stages: dict[str, Stage], stage: str, scale: float) -> int:
    """The games of the stages before ``stage``."""
    names = list(stages)
    return sum(stage_games(stages, name, scale) for name in names[:names.index(stage)])
