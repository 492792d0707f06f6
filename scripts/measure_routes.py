"""Measure which shipped network plays each game shape best, into the game's routes.json.

Where more than one shipped network file could play, the routes
(``analyzer.games.clever.routes``, kept beside the networks) say which ``learned`` plays.

Every candidate file plays the same games of each point (each game shape with the other
rules at their defaults, and each shipped specialist's own variant; held-out seed
``route_points.SEED``): ``--solo-games`` solo games (500), ``--games`` two-player games
(200) and ``--more-games`` of three and of four players (100; every seat the candidate).
Points of other player counts measured before on the same files are kept.

Run after a network ships: ``python scripts/measure_routes.py --game tac [--players 2]``
(default: every player count); prints each point where the file that plays changes from
trained-on order.
"""

from __future__ import annotations

import importlib
import json
import sys

from analyzer.errors import UserError
from analyzer.files import write_atomic
from analyzer.games.clever import networks, routes
from analyzer.games.clever.training import route_points
from analyzer.run.progress import Progress
from analyzer.script_args import OneLineParser, at_least

GAMES = {"tpc": "thats_pretty_clever", "tac": "twice_as_clever"}


def kept_points(game) -> list[dict]:
    """The points the game's routes measured on its files as they are now (none where
    they are out of date; a damaged routes file is replaced, never read)."""
    try:
        data = routes.load(game.learned_file)
    except UserError as exc:
        print(f"measure_routes.py: {exc}; measuring afresh", file=sys.stderr)
        return []
    return [] if not data or data["stale"] else data["points"]


def main() -> None:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=tuple(GAMES), default="tac")
    parser.add_argument("--players", type=int, nargs="+", choices=(1, 2, 3, 4),
                        default=[1, 2, 3, 4])
    games = at_least(2)  # a paired interval needs two games
    parser.add_argument("--solo-games", type=games, default=500)
    parser.add_argument("--games", type=games, default=200,
                        help="games of each point with 2 players")
    parser.add_argument("--more-games", type=games, default=100,
                        help="games of each point with 3 or 4 players")
    opts = parser.parse_args()
    game = importlib.import_module(f"analyzer.games.{GAMES[opts.game]}.model").GAME
    each = {1: opts.solo_games, 2: opts.games, 3: opts.more_games, 4: opts.more_games}
    games = {count: each[count] for count in opts.players}
    networks.forget()
    total = sum(games[v["players"]] for v in route_points.point_values(game, opts.players))
    try:
        with Progress(total, f"{game.title}: every candidate network, every point", True,
                      "games") as bar:
            data = route_points.measure(game, opts.players, games, bar.advance,
                                        kept_points(game))
    except UserError as exc:
        print(f"measure_routes.py: error: {exc}", file=sys.stderr)
        sys.exit(2)
    write_atomic(routes.path_for(game.learned_file), json.dumps(data, indent=1) + "\n")
    for point in data["points"]:
        if point["plays"] != point["baseline"]:
            print(f"{point['players']}p {point['shape']} {point['rules'] or ''}: "
                  f"{point['plays']} {point['means'][point['plays']]:.1f} against "
                  f"{point['baseline']} {point['means'][point['baseline']]:.1f}")


if __name__ == "__main__":
    main()
