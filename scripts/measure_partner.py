"""Measure where a Clever game's rule-conditioned network takes its own network as a partner.

The conditioned network alone and its mean with the partner (the game's own solo
network, ``analyzer.games.clever.partner``) play the same solo games of every shape of the
training distribution (held-out seed ``partner_gate.SEED``); the partner joins the shapes
where the pair plays better beyond noise. The gate is written into the conditioned file's
settings (``"partner"``), with every shape's means.

Run after a conditioned network ships, then measure the routes again (the conditioned
file's settings changed): ``python scripts/measure_partner.py --game tac [--games 1000]``;
``--none`` takes the partner out.
"""

from __future__ import annotations

import importlib
import json
import sys

from analyzer.errors import UserError
from analyzer.files import write_atomic
from analyzer.games.clever import networks, partner
from analyzer.games.clever.training import partner_gate, shapes
from analyzer.run.progress import Progress
from analyzer.script_args import OneLineParser, at_least

GAMES = {"tpc": "thats_pretty_clever", "tac": "twice_as_clever"}
CONDITIONED = "value_net.conditioned.npy"


def main() -> None:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=tuple(GAMES), default="tac")
    parser.add_argument("--games", type=at_least(2), default=1000,
                        help="solo games of each shape (a paired interval needs two)")
    parser.add_argument("--none", action="store_true", help="take the partner out")
    opts = parser.parse_args()
    game = importlib.import_module(f"analyzer.games.{GAMES[opts.game]}.model").GAME
    own = game.learned_file
    path = own.parent / CONDITIONED
    settings = path.with_suffix(".json")
    try:
        info = json.loads(settings.read_text())
        info.pop(partner.KEY, None)
        if not opts.none:
            total = opts.games * len(shapes.solo_shapes(game))
            with Progress(total, f"{game.title}: the conditioned network with and "
                          "without its partner, every shape", True, "games") as bar:
                info[partner.KEY] = partner_gate.measure(game, path, own, 0, opts.games,
                                                         bar.advance)
    except (OSError, ValueError, UserError) as exc:
        print(f"measure_partner.py: error: {exc}", file=sys.stderr)
        sys.exit(2)
    write_atomic(settings, json.dumps(info, indent=1) + "\n")
    networks.forget()
    for point in info.get(partner.KEY, {}).get("measured", {}).get("points", []):
        low, high = point["diff_ci95"]
        mark = "joins" if point["shape"] in info[partner.KEY]["shapes"] else ""
        print(f"{point['shape']}: alone {point['alone']:.1f}, pair {point['pair']:.1f} "
              f"({low:+.1f} to {high:+.1f}) {mark}")
    print("the conditioned file's settings changed: measure the routes again "
          "(scripts/measure_routes.py)")


if __name__ == "__main__":
    main()
