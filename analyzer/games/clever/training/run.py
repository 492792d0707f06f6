"""The loop of a self-play training run: stage after stage, blocks of games played and
learnt from (``kernels.clever.selfplay.train_block``), an evaluation and a checkpoint
every ``eval_every`` games. Running it again with the same settings resumes from the
checkpoint and ends with the same weights, bit for bit, as an uninterrupted run.

The games are played under fixed rules, or under a table of variants each game draws from
(``analyzer.games.clever.variants``: a rule-conditioned network's distribution, or a
specialist's one variant)."""

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
from analyzer.games.clever.training.stages import (
    Stage,
    inputs_of_stage,
    kernel_curriculum,
    multiplayer_only,
    schedule,
    stage_games,
    trainable,
    training_key,
)
from analyzer.games.clever.training.state import (
    CHUNK,
    fit_start,
    fresh_state,
    keep_best,
    load_state,
    save_state,
)
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
    first hidden layer's width (``start``'s); ``partners``: networks that play beside the
    trained one, unchanged;
    ``rival``: a policy row the evaluations of a stage of 2-4 players alone play
    two-player games against; ``teachers``: policy rows (float64[T, N_POL]) that teach the
    games of the variants ``teacher_of`` (int64[V], -1: none) gives them, with the stage's
    ``teach`` weight (none: no teachers), and those ``actor_of`` (int64[V], -1: the
    learning network) gives play the variants' games, and those ``side_of`` (int64[V],
    -1: none) gives teach one unchosen candidate of each decision too (side records,
    ``selfplay``); ``report``: called with
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
    fork_from: Path | None = None
    partners: list[np.ndarray] = field(default_factory=list)
    rival: np.ndarray | None = None
    teachers: np.ndarray | None = None
    teacher_of: np.ndarray | None = None
    actor_of: np.ndarray | None = None
    side_of: np.ndarray | None = None
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
    """The run's state: resumed from its checkpoint, forked from another run's, or new."""
    settings = run.all_settings()
    game = int(run.rules[RULE_GAME])
    first = list(run.stages)[0]
    if run.checkpoint.exists():
        state = load_state(run.checkpoint, settings)
        run.note(f"resuming from {run.checkpoint}: stage {state['stage']}, "
                 f"{state['done']} games")
    elif run.fork_from:
        state = load_state(run.fork_from, settings, fork=True)
        run.note(f"forking {run.fork_from}: stage {state['stage']}, {state['done']} games")
    elif run.start is not None:
        state = fresh_state(0, run.seed, first, run.start, run.hidden)
        if run.start_skip is not None:
            state["skip"][:run.start_skip.size] = run.start_skip
            state["best_skip"] = state["skip"].copy()
        if run.start_moments is not None:
            state.update(run.start_moments)
    else:
        state = fresh_state(int(value_net.n_inputs(game, False)), run.seed, first,
                            h1=run.hidden)
    return state


def fit_inputs(state: dict, n_in: int, h1: int) -> dict:
    """The state's network (of ``h1`` first-layer units) given the stage's ``n_in``
    inputs: blocks the stage lacks dropped (their rows must be zero), blocks it adds given
    zero rows (it plays as before)."""
    if state["weights"].size > net.net_size(n_in, h1):
        state = fit_start(state, n_in, h1)
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


def _run_stage(run: Run, state: dict, stage: str, clock: dict) -> bool:
    """Play and learn the rest of ``stage``; False when ``max_games`` stopped it."""
    spec = run.stages[stage]
    game = int(run.rules[RULE_GAME])
    n_in = inputs_of_stage(spec, game)
    state.update(fit_inputs(state, n_in, run.hidden))
    beside = [value_weights.widen(m, value_weights.inputs_of(m), n_in)
              for m in run.partners] if spec.partner else []
    row = value_weights.policy_row([state["weights"], *beside], n_in, spec.teacher,
                                   run.heuristic, skip=state["skip"])
    weights = value_weights.member(row)  # trained in place, and the skip head too
    total = stage_games(run.stages, stage, run.scale)
    variants = run.rules[None, :] if run.variants is None else run.variants
    teachers, teacher_of, actor_of = selfplay.no_teachers(len(variants))
    side_of = selfplay.no_sides(len(variants))
    if run.teachers is not None:
        teachers, teacher_of = run.teachers, run.teacher_of
        actor_of = actor_of if run.actor_of is None else run.actor_of
        side_of = side_of if run.side_of is None else run.side_of
    key = training_key(run.stages, run.seed, stage)
    curriculum, learns = kernel_curriculum(spec), trainable(spec, game, n_in, run.hidden)
    stats = np.zeros(selfplay.N_STATS)
    while state["done"] < total:
        epsilon, lr = schedule(run.stages, stage, state["done"], run.scale)
        n = min(run.chunk, total - state["done"])
        state["step"] = selfplay.train_block(
            key, state["done"], n, row, run.rounds_of, variants, state["m"], state["v"],
            state["step"], lr, epsilon, spec.lam, BATCH, stats, spec.snapshot, curriculum,
            learns, spec.win_bonus, state["skip_moments"], spec.skip_head, teachers,
            teacher_of, actor_of, spec.teach, side_of)
        state["done"] += n
        clock["played"] += n
        run.advance(n)
        if state["done"] % run.eval_every and state["done"] < total:
            continue
        state["weights"] = weights.copy()
        state["skip"] = value_weights.skip_head(row).copy()
        entry = _evaluation(run, state, spec, beside, n_in, stats)
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


def _evaluation(run: Run, state: dict, spec: Stage, beside: list[np.ndarray], n_in: int,
                stats: np.ndarray) -> dict:
    """The learning-curve entry of the weights as they stand: ``games.evaluate``, and the
    check variants' mean where the run has them."""
    entry = tgames.evaluate([state["weights"], *beside], state["skip"], n_in, run.rules,
                            run.eval_games, run.seed, stats, spec, run.rounds_of,
                            run.rival if multiplayer_only(spec) else None)
    if run.checks is not None:
        row = value_weights.policy_row([state["weights"], *beside], n_in, skip=state["skip"])
        scores = tgames.check_scores(row, run.checks, run.check_games, run.seed)
        entry["check_mean"] = round(float(np.mean(scores)), 2)
        entry["check_scores"] = [round(score, 1) for score in scores]
    return entry


def _total_before(stages: dict[str, Stage], stage: str, scale: float) -> int:
    """The games of the stages before ``stage``."""
    names = list(stages)
    return sum(stage_games(stages, name, scale) for name in names[:names.index(stage)])
