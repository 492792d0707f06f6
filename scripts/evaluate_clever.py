"""The policy strength table of both Clever games (``analyzer.clever.evaluation``): every
policy's solo mean with its 95% interval, the paired difference from the tuned heuristic,
per-area means, foxes and rating bands, on a seed that training and tuning never use.

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help="reporting seed (training and tuning use seeds from 1e9 on)")
    parser.add_argument("--policies", default=",".join(POLICIES))
    parser.add_argument("--format", choices=FORMATS, default="markdown")
    parser.add_argument("-o", "--output")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    opts = parser.parse_args()
    policies = [p.strip() for p in opts.policies.split(",") if p.strip()]
    results = [evaluate(game, defaults(game.params), policies, opts.games, opts.seed,
                        progress=not opts.quiet) for game in (TPC, TAC)]
    emit(Result(f"Clever policy strength: solo, {opts.games} games per policy, seed "
                f"{opts.seed}",
                tables={game.id: r.tables["policies"] for game, r in zip((TPC, TAC), results)},
                meta={"games": opts.games, "seed": opts.seed,
                      "rules": "defaults (see dicelab rules GAME)"},
                notes=[n for r in results for n in r.notes]), opts.format, opts.output)


if __name__ == "__main__":
    main()
