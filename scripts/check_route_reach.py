"""Check that the routes' choices carry to rules their points did not measure.

A measured point (``analyzer.games.clever.routes``) decides which network file plays its
game shape and player count whatever the other rules. For up to ``--points`` points of each
player count where the routes moved the file from trained-on order's, this plays the
routed file and trained-on order's on the same games of the point with one and with two
other rules changed (drawn; held-out seed ``route_points.REACH_SEED``): ``--solo-games``
solo games (300), ``--games`` two-player games (200), ``--more-games`` of three and four
players (100). Writes every comparison and a summary (ahead, within noise, behind) to
``--json`` and prints the summary.

Run after measuring the routes: ``python scripts/check_route_reach.py --game tac --json
training/routes-reach-tac.json``.
"""

from __future__ import annotations

import collections
import importlib
import json

from analyzer.errors import UserError
from analyzer.files import check_writable, write_atomic
from analyzer.games.clever import networks, routes
from analyzer.games.clever.training import route_points
from analyzer.run.progress import Progress
from analyzer.script_args import OneLineParser, at_least, fail

GAMES = {"tpc": "thats_pretty_clever", "tac": "twice_as_clever"}


def summary(records: list[dict]) -> dict[str, dict[str, int]]:
    """Per player count, how many comparisons the routed file led beyond noise, how many
    lay within noise and how many it trailed beyond noise."""
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for rec in records:
        low, high = rec["diff_ci95"]
        counts[str(rec["players"])]["ahead" if low > 0 else "behind" if high < 0
                                    else "within noise"] += 1
    return {players: dict(c) for players, c in sorted(counts.items())}


def main() -> None:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=tuple(GAMES), default="tac")
    parser.add_argument("--points", type=at_least(1), default=6,
                        help="points of each player count checked (default 6)")
    games = at_least(2)  # a paired interval needs two games
    parser.add_argument("--solo-games", type=games, default=300)
    parser.add_argument("--games", type=games, default=200)
    parser.add_argument("--more-games", type=games, default=100)
    parser.add_argument("--json", required=True, help="file to write the comparisons to")
    opts = parser.parse_args()
    game = importlib.import_module(f"analyzer.games.{GAMES[opts.game]}.model").GAME
    each = {1: opts.solo_games, 2: opts.games, 3: opts.more_games, 4: opts.more_games}
    networks.forget()
    try:
        check_writable(opts.json)  # before the games, not after
        if not routes.usable(game.learned_file):
            fail("check_route_reach.py", f"{game.title} has no routes measured on its "
                 "networks as they are; run scripts/measure_routes.py first")
        total = sum(2 * opts.points * each[n] for n in each)
        records = []
        with Progress(total, f"{game.title}: routes on rules their points did not "
                      "measure", True, "games") as bar:
            for players in each:
                records += route_points.measure_reach(game, players, opts.points,
                                                      each[players], bar.advance)
        counts = summary(records)
        write_atomic(opts.json, json.dumps({"seed": route_points.REACH_SEED,
                                            "summary": counts, "comparisons": records},
                                           indent=1) + "\n")
    except UserError as exc:
        fail("check_route_reach.py", str(exc))
    for players, c in counts.items():
        print(f"{players} player(s): {c}")


if __name__ == "__main__":
    main()
