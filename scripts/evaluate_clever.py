"""The policy strength table of both Clever games (``analyzer.clever.evaluation``): every
policy's solo mean with its 95% interval, the paired difference from the tuned heuristic,
per-area means, foxes, fox points, the lowest area, the decisions and rating bands, on two
seeds that training and tuning never use: the reporting seed (the CLI's default) and a
second, held-out one.

Run: ``python scripts/evaluate_clever.py --games 10000 [--format markdown] [-o FILE]``.
"""

from __future__ import annotations

import argparse

from analyzer.clever.evaluation import POLICIES, evaluate
from analyzer.games.thats_pretty_clever.model import GAME as TPC
from analyzer.games.twice_as_clever.model import GAME as TAC
from analyzer.output import FORMATS, Result, emit
from analyzer.params import defaults
from analyzer.seeding import DEFAULT_SEED

HELD_OUT_SEED = 31_415_926  # never used by training, tuning or reports


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seeds", default=f"{DEFAULT_SEED},{HELD_OUT_SEED}",
                        help="evaluation seeds (training and tuning use seeds from 1e9 on)")
    parser.add_argument("--policies", default=",".join(POLICIES),
                        help="policies to evaluate (each game plays those it offers)")
    parser.add_argument("--games-only", choices=("tpc", "tac"), help="one game only")
    parser.add_argument("--format", choices=FORMATS, default="markdown")
    parser.add_argument("-o", "--output")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    opts = parser.parse_args()
    policies = [p.strip() for p in opts.policies.split(",") if p.strip()]
    seeds = [int(s) for s in opts.seeds.split(",")]
    games = {"tpc": (TPC,), "tac": (TAC,), None: (TPC, TAC)}[opts.games_only]
    tables, notes = {}, []
    for game in games:
        offered = [p for p in policies if p in game.policy_help]
        for seed in seeds:
            result = evaluate(game, defaults(game.params), offered, opts.games, seed,
                              progress=not opts.quiet)
            tables[f"{game.id} seed {seed}"] = result.tables["policies"]
            notes += [n for n in result.notes if n not in notes]
    emit(Result(f"Clever policy strength: solo, {opts.games} games per policy, seeds "
                f"{', '.join(map(str, seeds))}", tables=tables,
                meta={"games": opts.games, "seeds": seeds,
                      "rules": "defaults (see dicelab rules GAME)"},
                notes=notes), opts.format, opts.output)


if __name__ == "__main__":
    main()
