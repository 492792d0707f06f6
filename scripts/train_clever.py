"""Fit a Clever game's heuristic by simulation: approximate policy iteration with a linear
value function, then a coordinate search over its knobs.

``--game tpc`` (That's Pretty Clever) or ``--game tac`` (Twice As Clever). Each iteration
plays solo games with the current heuristic, records the sheet's features after every turn
(``kernels.clever.training``; the features of the game's ``value`` module) and fits, per
stage (rounds still to play), the points still to come by ridge regression on these games
and, with decaying weight, the earlier ones; the next iteration plays with the new weights.
The weights whose games scored best are kept. The knobs (platter cost, re-roll and +1
thresholds) are then tuned one at a time on common random numbers, the gift knob on
two-player games. The result is measured on held-out games with an unused seed and written
to the game's ``heuristic_weights.json`` (``analyzer/games/<game>/``), with the settings in
its ``source``.

Run: ``python scripts/train_clever.py --game tac [--iterations 10] [--games 30000]``
(``NUMBA_NUM_THREADS`` sets the cores used; every result depends only on ``--seed``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import time
from pathlib import Path

import numpy as np

from analyzer.run import driver
from analyzer.games.clever.game import KNOBS, policy_row
from analyzer.games.clever.samples import sample_blocks
from analyzer.files import write_atomic
from analyzer.params import defaults
from analyzer.seeding import STREAM_GAMES
from analyzer.stats import ci95, mean_se
from kernels.clever import play, training
from kernels.clever_base.game_rules import RULE_GAME

GAMES = {"tpc": "thats_pretty_clever", "tac": "twice_as_clever"}
ROUNDS = 6  # solo and two-player games
GAME_BLOCK = 1 << 9  # games per driver block
SAMPLE_BLOCK = 250  # games per training-sample block
START_KNOBS = {"platter": 2.0, "reroll_below": 0.0, "plus_above": 0.0, "samples": 16,
               "branch": 4}
KNOB_STEPS = {"platter": 0.5, "reroll_below": 1.0, "plus_above": 1.0}


class Trainer:
    """One game's rules, model helpers and feature sizes, and the simulations training
    needs."""

    def __init__(self, game: str):
        self.name = game
        self.game = importlib.import_module(f"analyzer.games.{GAMES[game]}.model").GAME
        self.rules = self.game.game_rules(defaults(self.game.params))
        kernel_game = int(self.rules[RULE_GAME])
        self.n_features = training.n_features(kernel_game)
        self.stages = training.value_stages(kernel_game)
        self.value = importlib.import_module(f"kernels.{GAMES[game]}.value")

    def game_rules(self, **changes) -> np.ndarray:
        return self.game.game_rules({**defaults(self.game.params), **changes})

    def make_row(self, knobs: dict, weights: np.ndarray) -> np.ndarray:
        """The heuristic's kernel row with these knobs and value weights."""
        row = policy_row(play.HEURISTIC)
        for name, value in knobs.items():
            row[KNOBS[name]] = value
        row[play.W_VALUE:play.W_VALUE + weights.size] = weights.ravel()
        return row

    def mean_score(self, row: np.ndarray, games: int, seed: int,
                   progress: bool = False) -> tuple[float, float]:
        """Mean solo score of a policy row, and its standard error."""
        job = driver.Job(driver.BlockLoop.of(play.games_block),
                         (row[None, :], False, ROUNDS, self.rules),
                         (1, 1, play.COL_HIST + play.HIST_BINS), GAME_BLOCK, seed, STREAM_GAMES,
                         label=f"{self.name} solo games", unit="games")
        acc, n = driver.run(job, games, progress=progress)
        return mean_se(n, float(acc[0, 0, play.COL_SCORE_SUM]),
                       float(acc[0, 0, play.COL_SCORE_SQ]))

    def win_rate(self, rows: np.ndarray, games: int, seed: int) -> tuple[float, float]:
        """Win rate of ``rows[0]`` against ``rows[1]`` in two-player games (seats
        rotated), and its standard error."""
        job = driver.Job(driver.BlockLoop.of(play.games_block),
                         (rows, True, ROUNDS, self.game_rules(players=2)),
                         (2, 2, play.COL_HIST + play.HIST_BINS), GAME_BLOCK, seed,
                         STREAM_GAMES)
        acc, n = driver.run(job, games, progress=False)
        p = acc[0, :, play.COL_WIN_UNITS].sum() / (n * play.WIN_UNITS)
        return p, float(np.sqrt(p * (1 - p) / n))

    def tune_gift(self, knobs: dict, weights: np.ndarray, games: int, seed: int) -> float:
        """The ``gift`` knob (two-player games): the best of a few values by win rate
        against the same heuristic without it, on common random numbers."""
        plain = self.make_row({**knobs, "gift": 0.0}, weights)
        best, best_rate = 0.0, 0.5
        for gift in (0.25, 0.5, 1.0, 2.0):
            rows = np.stack([self.make_row({**knobs, "gift": gift}, weights), plain])
            rate, se = self.win_rate(rows, games, seed)
            print(f"gift {gift}: win rate {rate:.4f} +- {1.96 * se:.4f}", flush=True)
            if rate > best_rate + 2 * se:
                best, best_rate = gift, rate
        return best

    def samples(self, row: np.ndarray, games: int, seed: int):
        """Features, score so far, stage and final score after every turn of ``games``
        solo games (rounded to whole blocks)."""
        keys = np.random.SeedSequence(seed).generate_state(max(games // SAMPLE_BLOCK, 1),
                                                           np.uint64)
        rows = keys.shape[0] * SAMPLE_BLOCK * 2 * ROUNDS
        features = np.zeros((rows, self.n_features))
        score, stage, final = (np.zeros(rows, np.int64) for _ in range(3))
        sample_blocks(keys, SAMPLE_BLOCK, row, ROUNDS, self.rules, features,
                                   score, stage, final)
        return features, score, stage, final

    def moments(self, features, score, stage, final) -> tuple[np.ndarray, np.ndarray]:
        """Per stage, X'X and X'y of the points still to come (the regression's sums)."""
        gram = np.zeros((self.stages, self.n_features, self.n_features))
        cross = np.zeros((self.stages, self.n_features))
        target = (final - score).astype(np.float64)
        for s in range(self.stages):
            x, y = features[stage == s], target[stage == s]
            gram[s], cross[s] = x.T @ x, x.T @ y
        return gram, cross

    def fit(self, gram: np.ndarray, cross: np.ndarray, ridge: float) -> np.ndarray:
        """Ridge fit per stage (float64[stages, n_features])."""
        eye = ridge * np.eye(self.n_features)
        return np.stack([np.linalg.solve(gram[s] + eye, cross[s])
                         for s in range(self.stages)])


def weights_json(source: str, knobs: dict, weights: np.ndarray) -> str:
    """The weights file: one line per stage of value weights (stage = rounds still to play
    after the current one)."""
    stages = ",\n  ".join(json.dumps([round(float(x), 5) for x in stage]) for stage in weights)
    return (f'{{\n "source": {json.dumps(source)},\n "knobs": {json.dumps(knobs)},\n'
            f' "value_weights": [\n  {stages}\n ]\n}}\n')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=tuple(GAMES), default="tpc")
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
    parser.add_argument("--output", help="default: the game's heuristic_weights.json")
    parser.add_argument("--start", help="a weights file to start from (default: zero "
                        "weights, i.e. the greedy score with lookahead)")
    parser.add_argument("--balance", type=float, default=0.0,
                        help="without --start: start with this weight on each area's "
                        "capped score (Twice As Clever's F_AREAS_CAPPED, tenths of points) "
                        "at every stage but the last, so the first games keep the areas "
                        "balanced (foxes count the lowest area)")
    opts = parser.parse_args()
    trainer = Trainer(opts.game)
    if opts.gift_only and not opts.start:
        parser.error("--gift-only needs --start")
    if opts.balance and opts.start:
        parser.error("--balance sets starting weights: it cannot go with --start")
    output = Path(opts.output or trainer.game.weights_file)
    if not output.parent.is_dir():
        parser.error(f"--output: folder {str(output.parent)!r} does not exist")
    knobs = dict(START_KNOBS)
    weights = np.zeros((trainer.stages, trainer.n_features))
    if opts.balance:
        if not hasattr(trainer.value, "F_AREAS_CAPPED"):
            parser.error(f"--balance: {opts.game} has no capped area features")
        first = trainer.value.F_AREAS_CAPPED
        weights[1:, first:first + 5] = opts.balance
    if opts.start:  # continue from a stored heuristic
        data = json.loads(Path(opts.start).read_text())
        knobs.update(data["knobs"])
        weights = np.asarray(data["value_weights"], dtype=np.float64).reshape(weights.shape)
    gram = np.zeros((trainer.stages, trainer.n_features, trainer.n_features))
    cross = np.zeros((trainer.stages, trainer.n_features))
    best_played, best_weights = -np.inf, weights
    start = time.perf_counter()
    for it in range(0 if opts.gift_only else opts.iterations):
        data = trainer.samples(trainer.make_row(knobs, weights), opts.games, opts.seed + it)
        played = data[3][::2 * ROUNDS].mean()  # the mean of the policy that played them
        if played > best_played:
            best_played, best_weights = played, weights
        g, c = trainer.moments(*data)
        gram, cross = opts.decay * gram + g, opts.decay * cross + c  # older games count less
        weights = trainer.fit(gram, cross, opts.ridge)
        print(f"iteration {it + 1}/{opts.iterations}: games played at {played:.2f}; "
              f"refitted ({time.perf_counter() - start:.0f} s)", flush=True)
    weights = best_weights if not opts.gift_only else weights
    if not opts.gift_only:
        print(f"kept the weights that played {best_played:.2f}", flush=True)
    best = trainer.mean_score(trainer.make_row(knobs, weights), opts.knob_games,
                              opts.seed + 500)[0]
    for name, step in ({} if opts.gift_only else KNOB_STEPS).items():
        for direction in (1, -1):
            while True:
                trial = {**knobs, name: knobs[name] + direction * step}
                value = trainer.mean_score(trainer.make_row(trial, weights), opts.knob_games,
                                           opts.seed + 500)[0]
                if value <= best:
                    break
                knobs, best = trial, value
        print(f"knob {name} = {knobs[name]} ({best:.2f}; "
              f"{time.perf_counter() - start:.0f} s)", flush=True)
    knobs["gift"] = trainer.tune_gift(knobs, weights, opts.gift_games, opts.seed + 700)
    mean, se = trainer.mean_score(trainer.make_row(knobs, weights), opts.holdout,
                                  opts.seed + 1000, progress=True)
    low, high = ci95(mean, se)
    start_note = f"from {Path(opts.start).name}, " if opts.start else \
        f"start weight {opts.balance} on the capped area scores, " if opts.balance else ""
    source = (f"scripts/train_clever.py --game {opts.game}: {start_note}{opts.iterations} "
              f"policy iterations x {opts.games} solo games (seed {opts.seed}), ridge "
              f"{opts.ridge}, decay {opts.decay}; knobs by coordinate search on "
              f"{opts.knob_games} games")
    if opts.gift_only:
        source = json.loads(Path(opts.start).read_text())["source"]
    source += (f"; gift knob: {opts.gift_games} two-player games per value (seed "
               f"{opts.seed + 700}); held-out solo check {opts.holdout} games (seed "
               f"{opts.seed + 1000}): mean {mean:.2f}, 95% CI {low:.2f} to {high:.2f}")
    write_atomic(output, weights_json(source, knobs, weights))
    print(f"held-out mean {mean:.2f} (95% CI {low:.2f} to {high:.2f}) over {opts.holdout} "
          f"games; wrote {output} ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
