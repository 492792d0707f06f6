"""Tune the That's Pretty Clever heuristic weights by the cross-entropy method.

Every candidate plays the same solo games (common random numbers: one seed for the whole
search), the elite fraction sets the next sampling distribution, and the final weights are
measured on held-out games with another seed. Writes
``analyzer/games/thats_pretty_clever/heuristic_weights.json``.

Run: ``python scripts/tune_tpc.py [--iterations 20] [--population 32] [--games 1500]``.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from analyzer import driver
from analyzer.games.thats_pretty_clever.model import (
    PARAMS,
    WEIGHT_NAMES,
    WEIGHTS_FILE,
    game_rules,
    heuristic_weights,
    policy_row,
)
from analyzer.games.thats_pretty_clever.simulation import COLUMNS, GAME_BLOCK
from analyzer.params import defaults
from analyzer.seeding import STREAM_GAMES
from analyzer.stats import ci95, mean_se
from kernels.thats_pretty_clever import play


def mean_score(weights: np.ndarray, games: int, seed: int) -> tuple[float, float]:
    """Mean solo score of the heuristic with these weights, and its standard error."""
    rounds = 6
    lineup = policy_row(play.HEURISTIC, weights)[None, :]
    job = driver.Job(play.run_game_blocks, (lineup, False, rounds, game_rules(defaults(PARAMS))),
                     (1, 1, play.COL_HIST + play.HIST_BINS), GAME_BLOCK, seed, STREAM_GAMES)
    acc, n = driver.run(job, games, progress=False)
    row = acc[0, 0]
    return mean_se(n, float(row[COLUMNS.score_sum]), float(row[COLUMNS.score_sq]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--population", type=int, default=32)
    parser.add_argument("--elite", type=int, default=8)
    parser.add_argument("--games", type=int, default=1500, help="games per candidate")
    parser.add_argument("--holdout", type=int, default=20_000, help="games for the final check")
    parser.add_argument("--seed", type=int, default=7)
    opts = parser.parse_args()
    _ = defaults(PARAMS)
    rng = np.random.default_rng(opts.seed)
    mu = heuristic_weights()
    sigma = np.maximum(np.abs(mu) * 0.5, 0.5)
    best_w, best_v = mu.copy(), mean_score(mu, opts.games, opts.seed)[0]
    start = time.perf_counter()
    for it in range(opts.iterations):
        samples = mu + sigma * rng.standard_normal((opts.population, mu.shape[0]))
        scores = np.array([mean_score(w, opts.games, opts.seed)[0] for w in samples])
        elite = samples[np.argsort(scores)[-opts.elite:]]
        mu = 0.7 * elite.mean(axis=0) + 0.3 * mu
        sigma = 0.7 * elite.std(axis=0) + 0.3 * sigma + 0.02
        if scores.max() > best_v:
            best_v, best_w = float(scores.max()), samples[int(np.argmax(scores))].copy()
        print(f"iteration {it + 1}: best {scores.max():.2f}, elite mean "
              f"{np.sort(scores)[-opts.elite:].mean():.2f}, overall best {best_v:.2f} "
              f"({time.perf_counter() - start:.0f} s)", flush=True)
    candidates = {"mean": mu, "best": best_w}
    checked = {name: mean_score(w, opts.holdout, opts.seed + 1000)
               for name, w in candidates.items()}
    name = max(checked, key=lambda k: checked[k][0])
    mean, se = checked[name]
    WEIGHTS_FILE.write_text(json.dumps({
        "source": f"scripts/tune_tpc.py: cross-entropy method, {opts.iterations} iterations x "
                  f"{opts.population} candidates x {opts.games} solo games (seed {opts.seed}); "
                  f"held-out check {opts.holdout} games (seed {opts.seed + 1000}): mean "
                  f"{mean:.2f}, 95% CI {ci95(mean, se)[0]:.2f} to {ci95(mean, se)[1]:.2f}",
        "weights": {n: round(float(v), 4) for n, v in zip(WEIGHT_NAMES, candidates[name])},
    }, indent=1) + "\n")
    print(f"held-out mean {mean:.2f} +- {1.96 * se:.2f} ({name}); wrote {WEIGHTS_FILE}")


if __name__ == "__main__":
    main()
