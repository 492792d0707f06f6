"""Record a shipped Clever network's measured strength in its card (``"strength"`` in the
settings beside ``value_net.npy``), from the JSON of the scripts that measure it.

Run: ``python scripts/card_strength.py --game tac --evaluation SOLO.json MULTI.json
--shapes SHAPES.json --ms 3.2``, where the evaluations are ``scripts/evaluate_clever.py
--format json`` outputs (solo and ``--multiplayer``), the shapes ``scripts/measure_network.py
--json``'s, and ``--ms`` the CPU milliseconds a solo game (``scripts/bench.py``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from analyzer import script_args
from analyzer.errors import UserError
from analyzer.files import write_atomic
from analyzer.games.clever import networks
from analyzer.games.thats_pretty_clever.model import GAME as TPC
from analyzer.games.twice_as_clever.model import GAME as TAC

GAMES = {"tpc": TPC, "tac": TAC}


def strength(tables: dict[str, list[dict]], shapes: dict, ms: float) -> dict[str, Any]:
    """The card's strength: solo on the defaults and the multiplayer matches by seed, the
    shapes' summary against the player it replaced, and the CPU time a solo game."""
    solo, multi = {}, {}
    for name, rows in tables.items():
        seed = name.split()[-1]
        if " multiplayer seed " in name:
            multi[seed] = [{key: row[key] for key in ("match", "players", "who", "games",
                                                      "win_rate", "win_ci95_low",
                                                      "win_ci95_high")} for row in rows]
        else:
            row = next(r for r in rows if r["policy"] == "learned")
            solo[seed] = {key: row[key] for key in ("games", "mean", "ci95_low", "ci95_high")}
    records = shapes["records"]
    margins = [r["network"] - r["heuristic"] for r in records if r["players"] == 1]
    return {"solo_defaults": solo, "multiplayer_defaults": multi,
            "shapes": {"points": len(records), **shapes["summary"],
                       "solo_mean_margin_over_heuristic": round(sum(margins) / len(margins), 2)},
            "ms_per_solo_game": ms}


def main() -> None:
    parser = script_args.OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=tuple(GAMES), required=True)
    parser.add_argument("--evaluation", nargs="+", required=True, metavar="JSON")
    parser.add_argument("--shapes", required=True, metavar="JSON")
    parser.add_argument("--ms", type=float, required=True)
    opts = parser.parse_args()
    if not opts.ms > 0:  # also refuses nan
        script_args.fail("card_strength.py", f"--ms {opts.ms}: expected the CPU milliseconds "
                         "a solo game, a number above 0")
    try:
        tables: dict[str, list[dict]] = {}
        for path in opts.evaluation:
            tables.update(json.loads(Path(path).read_text())["tables"])
        shapes = json.loads(Path(opts.shapes).read_text())
        found = strength(tables, shapes, opts.ms)
    except (OSError, ValueError, KeyError, TypeError, StopIteration, ZeroDivisionError) as exc:
        script_args.fail("card_strength.py", f"the measurements cannot be read ({exc!r})")
    weights = GAMES[opts.game].learned_file
    try:
        networks.card(weights)
    except UserError as exc:
        script_args.fail("card_strength.py", str(exc))
    settings_path = weights.with_suffix(".json")
    settings = json.loads(settings_path.read_text())
    settings["card"]["strength"] = found
    write_atomic(settings_path, json.dumps(settings, indent=1) + "\n")
    print(f"wrote the strength into {settings_path}")


if __name__ == "__main__":
    main()
