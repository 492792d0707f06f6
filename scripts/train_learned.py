"""Train a Clever game's learned policy by TD(lambda) self-play (``kernels.clever.td``).

The learned value (``kernels.clever.learned``: an optional fixed linear prior plus a network
of one hidden layer) starts from ``--start`` (``zero``: no prior, the network adds nothing,
so the first games are played on the score alone; ``heuristic``: the tuned heuristic's
linear value as the prior) and is trained on solo games played by the learned policy itself,
in chunks of ``--chunk`` games. After every ``--eval-every`` chunks it is measured, without
learning, on ``--eval-games`` solo games of the tuning seed range, with the platter knob
as it is and one ``PLATTER_STEP`` either side (the value is learned from the sheets after
each turn, so the cost of sending dice to the platter in the middle of a turn is left to
that knob); the best knob is kept for the next games and the best measurement chooses the
weights and knobs written at the end, with the settings and the tuning results in the
``.json`` twin. A checkpoint (``--checkpoint``) is written after every
measurement; running the same command again resumes from it and gives the same weights as
an uninterrupted run.

Seeds: training games use the streams of ``SeedSequence([seed, 1])`` (game ``g`` its own),
tuning games seed ``TUNING_SEED_BASE + seed``; both are kept apart from the seed reports and
``scripts/evaluate_clever.py`` use (the CLI default, 20261129, and ``--seed`` values below
one million).

Run: ``python scripts/train_learned.py --game tpc --games 2000000``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path

import numpy as np

from analyzer import driver
from analyzer.clever import learned_weights
from analyzer.params import defaults
from analyzer.seeding import STREAM_GAMES
from analyzer.stats import ci95, mean_se
from kernels.clever import play, td
from kernels.clever.game_rules import RULE_GAME
from kernels.clever.learned import HIDDEN
from kernels.clever.training import n_features

GAMES = {"tpc": "thats_pretty_clever", "tac": "twice_as_clever"}
ROUNDS = 6  # solo games
TUNING_SEED_BASE = 1_000_000_000
GAME_BLOCK = 1 << 9
SETTINGS = ("game", "start", "alpha", "half_life", "lam", "seed", "chunk", "init_scale",
            "platter", "eval_every", "eval_games")
PLATTER_STEP = 0.5


def mean_score(row: np.ndarray, rules: np.ndarray, games: int, seed: int) -> tuple[float, float]:
    """Mean solo score of a policy row and its standard error (no learning)."""
    job = driver.Job(play.run_game_blocks, (row[None, :], False, ROUNDS, rules),
                     (1, 1, play.COL_HIST + play.HIST_BINS), GAME_BLOCK, seed, STREAM_GAMES)
    acc, n = driver.run(job, games, progress=False)
    return mean_se(n, float(acc[0, 0, play.COL_SCORE_SUM]), float(acc[0, 0, play.COL_SCORE_SQ]))


def training_key(seed: int) -> np.uint64:
    return np.random.SeedSequence([seed, 1]).generate_state(1, np.uint64)[0]


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=tuple(GAMES), default="tpc")
    parser.add_argument("--games", type=int, default=1_000_000, help="training games in all")
    parser.add_argument("--chunk", type=int, default=20_000, help="games per chunk")
    parser.add_argument("--alpha", type=float, default=1e-4, help="TD step size")
    parser.add_argument("--half-life", type=int, default=0,
                        help="games after which the step size halves (0: constant)")
    parser.add_argument("--lam", type=float, default=0.8, help="TD trace decay (lambda)")
    parser.add_argument("--start", choices=("zero", "heuristic"), default="zero")
    parser.add_argument("--init-scale", type=float, default=0.1)
    parser.add_argument("--platter", type=float, default=None,
                        help="starting platter knob (default: the heuristic's)")
    parser.add_argument("--eval-every", type=int, default=5, help="chunks per measurement")
    parser.add_argument("--eval-games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--checkpoint", help="default: checkpoints/<game>-learned.npz")
    parser.add_argument("--output", help="default: the game's learned_weights.npy")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    opts = parser.parse_args()
    if opts.games < 1 or opts.chunk < 1 or opts.eval_every < 1 or opts.eval_games < 1:
        parser.error("--games, --chunk, --eval-every and --eval-games must be at least 1")
    if opts.half_life < 0:
        parser.error("--half-life must be 0 (a constant step size) or more games")
    if not (opts.alpha > 0 and 0 <= opts.lam <= 1):
        parser.error("--alpha must be above 0 and --lam within [0, 1]")
    return opts


def main() -> None:
    opts = parse()
    model = importlib.import_module(f"analyzer.games.{GAMES[opts.game]}.model")
    rules = model.game_rules(defaults(model.PARAMS))
    nf = n_features(int(rules[RULE_GAME]))
    knobs = json.loads(model.WEIGHTS_FILE.read_text())["knobs"]
    if opts.platter is not None:
        knobs["platter"] = opts.platter
    settings = {name: getattr(opts, name) for name in SETTINGS}
    checkpoint = Path(opts.checkpoint or f"checkpoints/{opts.game}-learned.npz")
    output = Path(opts.output or model.LEARNED_FILE)
    checkpoint.parent.mkdir(parents=True, exist_ok=True)
    if checkpoint.exists():
        saved = np.load(checkpoint, allow_pickle=False)
        if json.loads(str(saved["settings"])) != settings:
            sys.exit(f"checkpoint {checkpoint} was made with other settings "
                     f"({saved['settings']}); give another --checkpoint")
        weights, done = saved["weights"], int(saved["done"])
        best, best_weights = float(saved["best"]), saved["best_weights"]
        knobs, best_knobs = json.loads(str(saved["knobs"])), json.loads(str(saved["best_knobs"]))
        history = json.loads(str(saved["history"]))
        print(f"resuming from {checkpoint} after {done} games", file=sys.stderr)
    else:
        prior = None
        if opts.start == "heuristic":
            prior = model.GAME.heuristic_row()[play.W_VALUE:play.W_VALUE + 6 * nf]
        weights = learned_weights.initial_weights(nf, opts.seed, prior, opts.init_scale)
        done, best, best_weights, history = 0, -np.inf, weights.copy(), []
        best_knobs = dict(knobs)
    row = learned_weights.policy_row(weights, knobs, model.KNOBS)
    key = training_key(opts.seed)
    started, stats, first_done = time.perf_counter(), np.zeros(td.N_STATS), done
    chunk_index = done // opts.chunk
    while done < opts.games:
        n = min(opts.chunk, opts.games - done)
        alpha = opts.alpha * 0.5 ** (done / opts.half_life) if opts.half_life else opts.alpha
        td.td_block(key, done, n, row, ROUNDS, rules, alpha, opts.lam, stats)
        done += n
        chunk_index += 1
        if chunk_index % opts.eval_every and done < opts.games:
            continue
        played = stats[td.STAT_SCORE] / stats[td.STAT_GAMES]
        td_rms = float(np.sqrt(stats[td.STAT_TD_SQ] / stats[td.STAT_STEPS]))
        weights = row[play.W_VALUE:play.W_VALUE + weights.size].copy()
        trials = []
        for platter in (knobs["platter"] - PLATTER_STEP, knobs["platter"],
                        knobs["platter"] + PLATTER_STEP):
            trial = {**knobs, "platter": max(platter, 0.0)}
            trials.append((*mean_score(learned_weights.policy_row(weights, trial, model.KNOBS),
                                       rules, opts.eval_games, TUNING_SEED_BASE + opts.seed),
                           trial))
        mean, se, knobs = max(trials, key=lambda t: t[0])
        row[model.KNOBS["platter"]] = knobs["platter"]
        if mean > best:
            best, best_weights, best_knobs = mean, weights.copy(), dict(knobs)
        history.append({"games": done, "played": round(played, 2), "td_rms": round(td_rms, 3),
                        "platter": knobs["platter"], "tuning_mean": round(mean, 2),
                        "tuning_se": round(se, 2)})
        stats[:] = 0
        buffer_path = checkpoint.with_suffix(".tmp.npz")
        np.savez(buffer_path, weights=weights, done=done, best=best, best_weights=best_weights,
                 settings=json.dumps(settings), history=json.dumps(history),
                 knobs=json.dumps(knobs), best_knobs=json.dumps(best_knobs))
        buffer_path.replace(checkpoint)
        if not opts.quiet:
            elapsed = time.perf_counter() - started
            print(f"{done:>9} games: self-play mean {played:6.2f}, TD rms {td_rms:5.2f}, "
                  f"platter {knobs['platter']:.1f}, tuning mean {mean:6.2f} +- {1.96 * se:.2f} "
                  f"(best {best:6.2f}); "
                  f"{elapsed:6.0f} s, {(done - first_done) / elapsed:.0f} games/s",
                  file=sys.stderr, flush=True)
    info = {"game": GAMES[opts.game], "hidden": HIDDEN, "knobs": best_knobs,
            "settings": settings, "games_trained": done,
            "source": (f"scripts/train_learned.py --game {opts.game} --games {opts.games} "
                       f"--chunk {opts.chunk} --alpha {opts.alpha} "
                       f"--half-life {opts.half_life} --lam {opts.lam} "
                       f"--start {opts.start} --init-scale {opts.init_scale} "
                       f"--platter {settings['platter']} "
                       f"--eval-every {opts.eval_every} --eval-games {opts.eval_games} "
                       f"--seed {opts.seed}"),
            "tuning": {"seed": TUNING_SEED_BASE + opts.seed, "games": opts.eval_games,
                       "best_mean": round(best, 2)},
            "history": history}
    learned_weights.save(output, best_weights, info)
    low, high = ci95(*mean_score(learned_weights.policy_row(best_weights, best_knobs,
                                                            model.KNOBS),
                                 rules, opts.eval_games, TUNING_SEED_BASE + opts.seed))
    print(f"wrote {output} (tuning mean {best:.2f}, 95% CI {low:.2f} to {high:.2f})",
          file=sys.stderr)


if __name__ == "__main__":
    main()
