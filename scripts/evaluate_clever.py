"""The policy strength table of both Clever games (``analyzer.games.clever.evaluation``): every
policy's solo mean with its 95% interval, the paired difference from the tuned heuristic,
per-area means, foxes, fox points, the lowest area, the decisions and rating bands, on two
seeds that training and tuning never use: the reporting seed (the CLI's default) and a
second, held-out one.

With ``--multiplayer GAMES``, each game's multiplayer table too
(``analyzer.games.clever.matches``): ``learned`` in every seat of 2, 3 and 4 players (seats
fixed), and two-player matches, seats rotating, against the heuristic and against
``--previous`` (another value network file, e.g. the one shipped before).

Run: ``python scripts/evaluate_clever.py --games 10000 [--multiplayer 4000] [--format
markdown] [-o FILE]``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from analyzer.games.clever import value_weights
from analyzer.games.clever.evaluation import POLICIES, evaluate
from analyzer.games.clever.matches import strength
from analyzer.games.thats_pretty_clever.model import GAME as TPC
from analyzer.games.twice_as_clever.model import GAME as TAC
from analyzer.output import FORMATS, Result, emit
from analyzer.params import defaults
from analyzer.seeding import DEFAULT_SEED

HELD_OUT_SEED = 31_415_926  # never used by training, tuning or reports


def opponents(game, previous: list[list[str]]) -> dict:
    """The policy rows of the multiplayer table: learned first, then the heuristic and
    each ``--previous`` network of this game."""
    named = {"learned": game.parse_policy("learned"),
             "heuristic": game.parse_policy("heuristic")}
    for short, path in previous:
        if {"tpc": TPC, "tac": TAC}[short] is game:
            members, info = value_weights.load(Path(path), game.kernel_game)
            named[f"previous ({path})"] = value_weights.file_row(members, info)
    return named


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
    parser.add_argument("--multiplayer", type=int, default=0, metavar="GAMES",
                        help="games per multiplayer match (0: solo table only)")
    parser.add_argument("--solo", type=int, default=1, choices=(0, 1),
                        help="0: leave the solo table out")
    parser.add_argument("--previous", nargs=2, metavar=("GAME", "VALUE_NET"), action="append",
                        default=[], help="a network to meet in two-player matches, e.g. "
                        "tac old/value_net.npy")
    opts = parser.parse_args()
    for short, path in opts.previous:
        if short not in ("tpc", "tac") or not Path(path).is_file():
            parser.error(f"--previous {short} {path}: expected tpc or tac and an existing "
                         "value_net.npy")
    policies = [p.strip() for p in opts.policies.split(",") if p.strip()]
    seeds = [int(s) for s in opts.seeds.split(",")]
    games = {"tpc": (TPC,), "tac": (TAC,), None: (TPC, TAC)}[opts.games_only]
    tables, notes = {}, []
    for game in games:
        offered = [p for p in policies if p in game.policy_help]
        for seed in seeds:
            if opts.solo:
                result = evaluate(game, defaults(game.params), offered, opts.games, seed,
                                  progress=not opts.quiet)
                tables[f"{game.id} seed {seed}"] = result.tables["policies"]
                notes += [n for n in result.notes if n not in notes]
            if opts.multiplayer:
                tables[f"{game.id} multiplayer seed {seed}"] = strength(
                    game, defaults(game.params), opponents(game, opts.previous),
                    opts.multiplayer, seed, not opts.quiet).round(3)
    emit(Result(f"Clever policy strength: solo, {opts.games} games per policy, seeds "
                f"{', '.join(map(str, seeds))}", tables=tables,
                meta={"games": opts.games, "seeds": seeds,
                      "rules": "defaults (see dicelab rules GAME)"},
                notes=notes), opts.format, opts.output)


if __name__ == "__main__":
    main()
