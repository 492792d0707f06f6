"""Fit the That's Pretty Clever heuristic by simulation: approximate policy iteration with
a linear value function, then a coordinate search over its knobs.

Each iteration plays solo games with the current heuristic, records the sheet's features
after every turn (``kernels.thats_pretty_clever.training``) and fits, per stage (rounds
still to play), the points still to come by ridge regression on these games and, with
decaying weight, the earlier ones; the next iteration plays with the new weights. The
weights whose games scored best are kept. The knobs (platter cost, re-roll and +1
thresholds) are then tuned one at a time on common random numbers. The result is measured
on held-out games with an unused seed and written to
``analyzer/games/thats_pretty_clever/heuristic_weights.json``.

Run: ``python scripts/train_tpc.py [--iterations 10] [--games 30000]``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from analyzer import driver
from analyzer.games.thats_pretty_clever.model import (
    KNOBS,
    PARAMS,
    WEIGHTS_FILE,
    game_rules,
    policy_row,
)
from analyzer.games.thats_pretty_clever.simulation import COLUMNS, GAME_BLOCK
from analyzer.params import defaults
from analyzer.seeding import STREAM_GAMES
from analyzer.stats import ci95, mean_se
from kernels.clever import play
from kernels.thats_pretty_clever import training
from kernels.thats_pretty_clever.value import N_FEATURES, VALUE_STAGES

ROUNDS = 6
START_KNOBS = {"platter": 2.0, "reroll_below": 0.0, "plus_above": 0.0, "samples": 16,
               "branch": 4}
KNOB_STEPS = {"platter": 0.5, "reroll_below": 1.0, "plus_above": 1.0}


def make_row(knobs: dict, weights: np.ndarray) -> np.ndarray:
    row = policy_row(play.HEURISTIC)
    for name, value in knobs.items():
        row[KNOBS[name]] = value
    row[play.W_VALUE:] = weights.ravel()
    return row


def mean_score(row: np.ndarray, games: int, seed: int) -> tuple[float, float]:
    """Mean solo score of a policy row, and its standard error."""
    job = driver.Job(play.run_game_blocks,
                     (row[None, :], False, ROUNDS, game_rules(defaults(PARAMS))),
                     (1, 1, play.COL_HIST + play.HIST_BINS), GAME_BLOCK, seed, STREAM_GAMES)
    acc, n = driver.run(job, games, progress=False)
    return mean_se(n, float(acc[0, 0, COLUMNS.score_sum]), float(acc[0, 0, COLUMNS.score_sq]))


def win_rate(rows: np.ndarray, games: int, seed: int) -> tuple[float, float]:
    """Win rate of ``rows[0]`` against ``rows[1]`` in two-player games (seats rotated),
    and its standard error."""
    values = {**defaults(PARAMS), "players": 2}
    job = driver.Job(play.run_game_blocks, (rows, True, ROUNDS, game_rules(values)),
                     (2, 2, play.COL_HIST + play.HIST_BINS), GAME_BLOCK, seed, STREAM_GAMES)
    acc, n = driver.run(job, games, progress=False)
    p = acc[0, :, COLUMNS.win_units].sum() / (n * play.WIN_UNITS)
    return p, float(np.sqrt(p * (1 - p) / n))


def tune_gift(knobs: dict, weights: np.ndarray, games: int, seed: int) -> float:
    """The ``gift`` knob (two-player games): the best of a few values by win rate against
    the same heuristic without it, on common random numbers."""
    plain = make_row({**knobs, "gift": 0.0}, weights)
    best, best_rate = 0.0, 0.5
    for gift in (0.25, 0.5, 1.0, 2.0):
        rate, se = win_rate(np.stack([make_row({**knobs, "gift": gift}, weights), plain]),
                            games, seed)
        print(f"gift {gift}: win rate {rate:.4f} +- {1.96 * se:.4f}", flush=True)
        if rate > best_rate + 2 * se:
            best, best_rate = gift, rate
    return best


def samples(row: np.ndarray, games: int, seed: int):
    """Features, score so far, stage and final score after every turn of ``games`` games."""
    block = 250
    keys = np.random.SeedSequence(seed).generate_state(max(games // block, 1), np.uint64)
    rows = keys.shape[0] * block * 2 * ROUNDS
    features = np.zeros((rows, N_FEATURES))
    score, stage, final = (np.zeros(rows, np.int64) for _ in range(3))
    training.run_sample_blocks(keys, block, row, ROUNDS, game_rules(defaults(PARAMS)),
                               features, score, stage, final)
    return features, score, stage, final


def moments(features, score, stage, final) -> tuple[np.ndarray, np.ndarray]:
    """Per stage, X'X and X'y of the points still to come (the regression's sums)."""
    gram = np.zeros((VALUE_STAGES, N_FEATURES, N_FEATURES))
    cross = np.zeros((VALUE_STAGES, N_FEATURES))
    target = (final - score).astype(np.float64)
    for s in range(VALUE_STAGES):
        x, y = features[stage == s], target[stage == s]
        gram[s], cross[s] = x.T @ x, x.T @ y
    return gram, cross


def fit(gram: np.ndarray, cross: np.ndarray, ridge: float) -> np.ndarray:
    """Ridge fit per stage (float64[VALUE_STAGES, N_FEATURES])."""
    eye = ridge * np.eye(N_FEATURES)
    return np.stack([np.linalg.solve(gram[s] + eye, cross[s]) for s in range(VALUE_STAGES)])


def weights_json(source: str, knobs: dict, weights: np.ndarray) -> str:
    """The weights file: one line per stage of value weights (stage = rounds still to play
    after the current one)."""
    stages = ",\n  ".join(json.dumps([round(float(x), 5) for x in stage]) for stage in weights)
    return (f'{{\n "source": {json.dumps(source)},\n "knobs": {json.dumps(knobs)},\n'
            f' "value_weights": [\n  {stages}\n ]\n}}\n')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--games", type=int, default=30_000, help="games per iteration")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--decay", type=float, default=0.5,
                        help="weight of earlier iterations' games in each fit")
    parser.add_argument("--knob-games", type=int, default=4000, help="games per knob trial")
    parser.add_argument("--holdout", type=int, default=20_000)
    parser.add_argument("--gift-games", type=int, default=6000,
                        help="two-player games per value of the gift knob")
    parser.add_argument("--gift-only", action="store_true",
                        help="with --start: keep its weights and knobs, tune only the gift")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--output", default=str(WEIGHTS_FILE))
    parser.add_argument("--start", help="a weights file to start from (default: zero "
                        "weights, i.e. the greedy score with lookahead)")
    opts = parser.parse_args()
    knobs = dict(START_KNOBS)
    weights = np.zeros((VALUE_STAGES, N_FEATURES))
    if opts.start:  # continue from a stored heuristic
        data = json.loads(Path(opts.start).read_text())
        knobs.update(data["knobs"])
        weights = np.asarray(data["value_weights"], dtype=np.float64)
    gram = np.zeros((VALUE_STAGES, N_FEATURES, N_FEATURES))
    cross = np.zeros((VALUE_STAGES, N_FEATURES))
    best_played, best_weights = -np.inf, weights
    start = time.perf_counter()
    for it in range(0 if opts.gift_only else opts.iterations):
        data = samples(make_row(knobs, weights), opts.games, opts.seed + it)
        played = data[3][::2 * ROUNDS].mean()  # the mean of the policy that played them
        if played > best_played:
            best_played, best_weights = played, weights
        g, c = moments(*data)
        gram, cross = opts.decay * gram + g, opts.decay * cross + c  # older games count less
        weights = fit(gram, cross, opts.ridge)
        print(f"iteration {it + 1}: games played at {played:.2f}; refitted "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
    weights = best_weights if not opts.gift_only else weights
    best = mean_score(make_row(knobs, weights), opts.knob_games, opts.seed + 500)[0]
    for name, step in ({} if opts.gift_only else KNOB_STEPS).items():
        for direction in (1, -1):
            while True:
                trial = {**knobs, name: knobs[name] + direction * step}
                value = mean_score(make_row(trial, weights), opts.knob_games,
                                   opts.seed + 500)[0]
                if value <= best:
                    break
                knobs, best = trial, value
        print(f"knob {name} = {knobs[name]} ({best:.2f})", flush=True)
    knobs["gift"] = tune_gift(knobs, weights, opts.gift_games, opts.seed + 700)
    mean, se = mean_score(make_row(knobs, weights), opts.holdout, opts.seed + 1000)
    low, high = ci95(mean, se)
    output = Path(opts.output)
    start_note = f"from {Path(opts.start).name}, " if opts.start else ""
    source = (f"scripts/train_tpc.py: {start_note}{opts.iterations} policy iterations x "
              f"{opts.games} solo games (seed {opts.seed}), ridge {opts.ridge}, decay "
              f"{opts.decay}; knobs by coordinate search on {opts.knob_games} games")
    if opts.gift_only:
        source = json.loads(Path(opts.start).read_text())["source"]
    source += (f"; gift knob: {opts.gift_games} two-player games per value (seed "
               f"{opts.seed + 700}); held-out solo check {opts.holdout} games (seed "
               f"{opts.seed + 1000}): mean {mean:.2f}, 95% CI {low:.2f} to {high:.2f}")
    output.write_text(weights_json(source, knobs, weights))
    print(f"held-out mean {mean:.2f} (95% CI {low:.2f} to {high:.2f}); wrote {output}")


if __name__ == "__main__":
    main()
