"""Train a Clever game's one value network by self-play, in resumable stages, and ship it.

The network (``kernels.clever.net``) values every afterstate of the value policy
(``kernels.clever.valued``) with the rules, the player count and the seat among its
inputs; ``kernels.clever.selfplay`` plays games with it in every seat and trains it by Adam
on the lambda-returns of the afterstates each game chose. Each game draws its rules and
player count from the unified rows (``analyzer.games.clever.training.unified``): a quarter
on the default rules, the rest over the game shapes (4-8 rounds, the round track's
bonuses), half of those with other rules changed, 1-4 players.

``--curriculum fresh`` (from random weights; ``--hidden 256`` the width):

* ``warm``: 4,000 games played by the tuned heuristic's values through the value policy's
  decisions; the network learns their final scores (lambda 1).
* ``main``: 600,000 games, epsilon 0.15 falling to 0.02 over the first 60%; step size
  3e-4, halved at 60% and again at 85%.
* ``polish``: 300,000 games, epsilon 0.04 falling to 0.01; step size 1e-4 halving at 50%.
* ``anneal``: 300,000 games at epsilon 0.005; the step size rising from 2e-6 to 1e-5 while
  Adam settles, then 5e-6 from 40% and 2.5e-6 from 75%.

``--curriculum anneal`` is the last stage alone, for a network that goes on from another
(``--start-from`` a checkpoint or a network file). ``--curriculum focus`` goes on from
another network's latest weights and Adam state (``--start-from ... --start-latest``),
with ``--focus SHARE`` of its games the solo game on the default rules (``--solo SHARE``: that
share of the others solo games over the game shapes):

* ``focus``: 450,000 games, epsilon 0.02 falling to 0.005 over the first half; step size
  1e-4 (after a short rise from 2e-6), 5e-5 from 50%, 2.5e-5 from 80%;
* ``settle``: 150,000 games at epsilon 0.005, step size 1e-5, then 5e-6 from 50%.

Every ``--eval-every`` games the network plays ``--eval-games`` solo games on the default
rules without exploring or learning (``TUNING_SEED_BASE + seed``, the same games every
time) and the check variants' solo games; the weights with the best moving average of
three such evaluations are kept as the stage's best. A checkpoint (weights, Adam state,
counters, the learning curve) is written after every evaluation, so running the same
command again resumes where it stopped and ends with the same weights, bit for bit, as an
uninterrupted run.

``--ship CHECKPOINT --name NAME`` writes the game's ``value_net.npy`` and its settings
with the card (``analyzer.games.clever.networks``) from the checkpoint's best weights
(``--latest``: its latest); ``--ship-to`` another file.

``--config FILE`` runs the steps of a training config in order
(``analyzer.games.clever.training.config``); every shipped network's config is the
``value_net.toml`` beside it. ``--config FILE --into DIR`` is a trial run of the config in
the folder ``DIR`` (nothing else written), which ``--scale`` and the other evaluation
options may shorten.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import sys
from pathlib import Path
from typing import NoReturn

import numpy as np

from analyzer import script_args
from analyzer.errors import UserError
from analyzer.games.clever import value_weights, variants
from analyzer.games.clever.training import config, shipping, unified
from analyzer.games.clever.training import run as training_run
from analyzer.games.clever.training.stages import LAMBDA, Stage
from analyzer.games.clever.training.state import CHUNK, read_checkpoint
from analyzer.params import defaults
from kernels.clever import net

GAMES = {"tpc": "thats_pretty_clever", "tac": "twice_as_clever"}
_ONE = dict(bonus_block=True, snapshot=16, seat_block=True, rules_block=True,
            skip_head=True, per_game=True)  # every input block from the first game; the
# skip head learns with the network; each game weighs the same whatever its player count
FRESH_STAGES = {
    "warm": Stage(4000, 1.0, 1.0, (0.0, 0.0, 1.0), ((0.0, 1e-3),), **_ONE),
    "main": Stage(600_000, 0.0, LAMBDA, (0.15, 0.02, 0.6),
                  ((0.0, 3e-4), (0.6, 1.5e-4), (0.85, 7.5e-5)), **_ONE),
    "polish": Stage(300_000, 0.0, LAMBDA, (0.04, 0.01, 1.0), ((0.0, 1e-4), (0.5, 5e-5)),
                    **_ONE),
    "anneal": Stage(300_000, 0.0, LAMBDA, (0.005, 0.005, 1.0),
                    ((0.0, 2e-6), (0.03, 1e-5), (0.4, 5e-6), (0.75, 2.5e-6)), **_ONE),
}
FOCUS_STAGES = {
    "focus": Stage(450_000, 0.0, LAMBDA, (0.02, 0.005, 0.5),
                   ((0.0, 2e-6), (0.02, 1e-4), (0.5, 5e-5), (0.8, 2.5e-5)), **_ONE),
    "settle": Stage(150_000, 0.0, LAMBDA, (0.005, 0.005, 1.0),
                    ((0.0, 1e-5), (0.5, 5e-6)), **_ONE),
}
CURRICULA = {"fresh": FRESH_STAGES, "anneal": {"anneal": FRESH_STAGES["anneal"]},
             "focus": FOCUS_STAGES}
VARIANT_TABLE = 4096  # rows drawn for a run's table (seed: the run's)


def fail(message: str) -> NoReturn:
    """One line on stderr and exit status 2: the project's answer to bad input."""
    script_args.fail("train_value.py", message)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = script_args.OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", metavar="FILE",
                        help="run the steps of this training config (TOML), each with its "
                             "own options (with --into DIR: a trial run there)")
    parser.add_argument("--game", choices=tuple(GAMES), default="tpc")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--curriculum", choices=tuple(CURRICULA), default="fresh",
                        help="the stages to run (default: fresh)")
    parser.add_argument("--stage", help="train up to the end of this stage (default: the "
                        "curriculum's last)")
    parser.add_argument("--eval-every", type=int, default=20_000)
    parser.add_argument("--eval-games", type=int, default=2000)
    parser.add_argument("--chunk", type=int, default=CHUNK, help="games per training call")
    parser.add_argument("--focus", type=float, default=0.0, metavar="SHARE",
                        help="this share of the games (0 to 0.9) the solo game on the "
                             "default rules, the rest as the table draws them (default 0)")
    parser.add_argument("--solo", type=float, default=0.0, metavar="SHARE",
                        help="this share of the games not given to --focus solo games, "
                             "their rules drawn as the table draws them (0 to 1, default 0)")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="every stage's length times this factor: below 1 for trials "
                             "and tests, above 1 (at most 10) for a longer run")
    parser.add_argument("--max-games", type=int, default=0,
                        help="stop after about this many games in this run, at an "
                             "evaluation (0: run to the end of --stage); run again to go on")
    parser.add_argument("--checkpoint", help="default: checkpoints/<game>-value-<seed>.npz")
    parser.add_argument("--start-from", metavar="FILE",
                        help="a new run starts from the best weights of this training "
                             "checkpoint (.npz) or the network of this network file (.npy), "
                             "instead of random weights")
    parser.add_argument("--start-latest", action="store_true",
                        help="--start-from a checkpoint: its latest weights and the Adam "
                             "state they were trained to")
    parser.add_argument("--hidden", type=int, choices=net.WIDTHS,
                        help=f"a new network's first hidden layer's width (default {net.H1})")
    parser.add_argument("--ship", metavar="CHECKPOINT",
                        help="write the game's value_net.npy from this checkpoint and stop")
    parser.add_argument("--name", help="--ship: the player's name on the card (e.g. "
                                       "\"That's Pretty Clever network 2\")")
    parser.add_argument("--ship-config", metavar="FILE", default="",
                        help="--ship: the training config that reproduces it, for the card")
    parser.add_argument("--latest", action="store_true",
                        help="--ship the checkpoint's latest weights, not its best")
    parser.add_argument("--ship-to", metavar="FILE",
                        help="--ship writes this file instead of the game's value_net.npy")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    opts = parser.parse_args(argv)
    check(parser, opts)
    return opts


def check(parser: argparse.ArgumentParser, opts: argparse.Namespace) -> None:
    """A one-line exit where the options do not go together."""
    if opts.chunk < 1 or opts.eval_every % opts.chunk or opts.eval_games < 1 \
            or not 0 < opts.scale <= 10 or opts.max_games < 0 or not 0 <= opts.focus <= 0.9 \
            or not 0 <= opts.solo <= 1:
        parser.error("--eval-every must be a multiple of --chunk; --eval-games at least 1; "
                     "--scale within (0, 10]; --max-games 0 or more; --focus from 0 to 0.9; "
                     "--solo from 0 to 1")
    if (opts.latest or opts.ship_to or opts.name) and not opts.ship \
            or opts.ship and not opts.name \
            or opts.start_latest and not str(opts.start_from or "").endswith(".npz"):
        parser.error("--latest, --ship-to and --name go with --ship, which needs --name; "
                     "--start-latest with --start-from a checkpoint (.npz)")
    stages = CURRICULA[opts.curriculum]
    opts.stage = opts.stage or list(stages)[-1]
    if opts.stage not in stages:
        parser.error(f"--stage for --curriculum {opts.curriculum}: one of "
                     f"{', '.join(stages)}")
    snapshot = max(stage.snapshot for stage in stages.values())
    if opts.chunk % snapshot:
        parser.error(f"--chunk: a multiple of {snapshot} (the games played with one set "
                     "of weights)")


def start_digest(path: Path) -> str:
    """``--start-from``'s file name and the SHA-256 of its bytes (kept in the settings: a
    resumed run must start from the same network)."""
    try:
        return f"{path.name} sha256:{hashlib.sha256(path.read_bytes()).hexdigest()}"
    except OSError as exc:
        fail(f"--start-from {path}: cannot be read ({exc.strerror})")


def start_network(opts: argparse.Namespace, game) -> tuple[np.ndarray, np.ndarray, dict | None,
                                                           int]:
    """``--start-from``'s weights, skip head, Adam state (``--start-latest``; else none)
    and first-layer width."""
    path = Path(opts.start_from)
    try:
        if path.suffix != ".npz":
            members, info = value_weights.load(path, game.kernel_game)
            return (np.asarray(members[0], np.float32).copy(),
                    np.asarray(info.get("skip", []), np.float64), None,
                    value_weights.hidden_of(info))
        saved = read_checkpoint(path)
        width = value_weights.hidden_of(json.loads(str(saved["settings"])))
    except (OSError, KeyError, ValueError, UserError) as exc:
        fail(f"--start-from {path}: not a network file or training checkpoint ({exc})")
    if not opts.start_latest:
        return saved["best_weights"].astype(np.float32), saved["best_skip"], None, width
    moments = {"m": saved["m"], "v": saved["v"], "step": int(saved["step"]),
               "skip_moments": saved["skip_moments"]}
    return saved["weights"].astype(np.float32), saved["skip"], moments, width


def train(opts: argparse.Namespace, model) -> bool:
    """Run the curriculum's stages (``analyzer.games.clever.training.run``), a progress
    line on stderr after every evaluation; False where ``--max-games`` stopped it first."""
    game = model.GAME
    extra = {"rules": {}, "variants": {"count": VARIANT_TABLE, "seed": opts.seed,
                                       **variants.distribution(game)},
             "unified": {"shares": list(unified.PLAYER_SHARES)}}
    start, skip, moments, width = None, None, None, opts.hidden or net.H1
    if opts.start_from:
        extra["start_from"] = start_digest(Path(opts.start_from))
        start, skip, moments, width = start_network(opts, game)
        if opts.start_latest:
            extra["start_latest"] = True
        if opts.hidden and opts.hidden != width:
            fail(f"--hidden {opts.hidden}: the start network has {width} first-layer units")
    if opts.focus:
        extra["variants"]["focus"] = opts.focus
    if opts.solo:
        extra["variants"]["solo"] = opts.solo
    rows = unified.sample(game, VARIANT_TABLE, opts.seed, opts.focus, opts.solo)
    run = training_run.Run(
        game=opts.game, stages=CURRICULA[opts.curriculum], seed=opts.seed, until=opts.stage,
        checkpoint=Path(opts.checkpoint or f"checkpoints/{opts.game}-value-{opts.seed}.npz"),
        rules=game.game_rules(defaults(game.params)), rounds_of=game.layout.ROUNDS_BY_PLAYERS,
        heuristic=game.heuristic_row(), settings=extra, variants=unified.table(game, rows),
        checks=variants.table(game, variants.check_variants(game)),
        eval_every=opts.eval_every, eval_games=opts.eval_games, hidden=width,
        check_games=min(training_run.Run.check_games, opts.eval_games),
        chunk=opts.chunk, scale=opts.scale, max_games=opts.max_games, start=start,
        start_skip=skip if skip is not None and skip.size else None, start_moments=moments,
        report=None if opts.quiet else progress_line,
        note=lambda line: print(line, file=sys.stderr))
    try:
        return training_run.finished(run, training_run.train(run))
    except UserError as exc:
        fail(str(exc))


def progress_line(entry: dict, elapsed: float, played: int) -> None:
    """One evaluation's line on stderr."""
    print(f"{entry['stage']:>8} {entry['games']:>7}: self-play {entry['self_play_mean']:6.1f}"
          f" (eps {entry['epsilon']:.3f}, lr {entry['lr']:.1e}, rms {entry['rms_error']:5.1f}),"
          f" tuning {entry['tuning_mean']:6.2f} +- {1.96 * entry['tuning_se']:.2f},"
          f" areas {entry['areas']}, fox points {entry['fox_points']};"
          + (f" checks {entry['check_mean']} {entry.get('check_scores', '')};"
             if "check_mean" in entry else "")
          + f" {elapsed:5.0f} s, {played / elapsed:4.0f} games/s",
          file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> bool:
    """Run the command line ``argv`` (none: the process's), or with ``--config FILE``
    every step of that training config in order (``training.config``); False where
    ``--max-games`` stopped a training run before its end."""
    if argv is None and "--config" in sys.argv[1:]:
        run_config(sys.argv[1:])
        return True
    opts = parse(argv)
    model = importlib.import_module(f"analyzer.games.{GAMES[opts.game]}.model")
    if not opts.ship:
        return train(opts, model)
    output = Path(opts.ship_to) if opts.ship_to else model.GAME.learned_file
    try:
        shipping.ship(model.GAME, Path(opts.ship), output, opts.name, opts.ship_config,
                      opts.latest)
    except UserError as exc:  # e.g. --ship-to a folder that does not exist
        fail(str(exc))
    print(f"wrote {output}: {opts.name}", file=sys.stderr)
    return True


def run_config(argv: list[str]) -> None:
    """``--config FILE``: each step of the config, as its own command line; with
    ``--into DIR`` a trial run in that folder (``config.trial_step``), which may shorten
    the training steps with ``--scale``, ``--chunk``, ``--eval-every``, ``--eval-games``
    and ``--max-games``."""
    parser = script_args.OneLineParser(prog="train_value.py")
    parser.add_argument("--config", metavar="FILE", required=True)
    parser.add_argument("--into", metavar="DIR")
    for option in config.TRIAL_OPTIONS:
        parser.add_argument("--" + option.replace("_", "-"),
                            type=float if option == "scale" else int)
    opts = parser.parse_args(argv)
    overrides = {key: getattr(opts, key) for key in config.TRIAL_OPTIONS}
    if not opts.into and any(value is not None for value in overrides.values()):
        fail("--scale, --chunk, --eval-every, --eval-games and --max-games go with --config "
             "only for a trial run (--into DIR): a config holds every option of its network")
    try:
        steps = config.read_steps(Path(opts.config))
        if opts.into:
            steps = [config.trial_step(step, Path(opts.into), overrides) for step in steps]
        lines = [config.step_arguments(step) for step in steps]
    except UserError as exc:
        fail(str(exc))
    for k, line in enumerate(lines, start=1):
        print(f"step {k} of {len(lines)}: {' '.join(line)}", file=sys.stderr, flush=True)
        if not main(line):
            print(f"step {k} stopped at --max-games: run the config again to go on",
                  file=sys.stderr)
            return


if __name__ == "__main__":
    main()
