"""Measure a Clever game's players on variants of its rules: the tuned heuristic, the
``learned`` policy of the game's network file, the rule-conditioned network and the
specialist trained for the variant alone that play its solo games (where ``learned`` has
them; where no specialist was trained on it, the one a measured route sends it to), and
other network files (``--network LABEL=FILE``, e.g. a training run's network).
The figure of the network ``learned`` plays on the variant is in bold.

Every policy plays the same games of each variant (common random numbers, held-out seed:
``--seed``, far from the training and tuning seeds): solo, and two-player games with the
policy in both seats (the mean score per player). Each figure has its 95% interval, and
each policy its paired difference from the heuristic.

The variants: the defaults and the check set (``analyzer.games.clever.variants.check_variants``),
or those given with ``--variant "KEY=VALUE KEY=VALUE"`` (repeatable).

Run: ``python scripts/evaluate_variants.py --game tac [--games 2000] [--players 1 2]
[--json out.json]``; prints a Markdown table.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

import numpy as np

from analyzer.games.clever import networks, variants
from analyzer.games.clever.training import games as training_games
from analyzer.errors import UserError
from analyzer.files import write_atomic
from analyzer.params import defaults, resolve

GAMES = {"tpc": "thats_pretty_clever", "tac": "twice_as_clever"}
SEED = 777_000_000
BLOCK = 64


def rows_for(game, values: dict, extra: dict[str, Path]) -> tuple[dict[str, np.ndarray], str]:
    """The policy rows measured on ``values``: the heuristic, the game's own network file,
    the other network files ``extra`` (label: file), the rule-conditioned network and the
    specialist that play solo games of ``values`` (each if any; where none was trained on
    them, the specialist the routes send them to); and the label of the one ``learned``
    plays on ``values``."""
    own = game.learned_file
    rows = {"heuristic": game.parse_policy("heuristic"), "learned": game.file_row(own, values)}
    for label, path in extra.items():
        rows[label] = game.file_row(path, values)
    rounds_by_players = game.layout.ROUNDS_BY_PLAYERS
    could = networks.candidates(own, values, rounds_by_players)
    over = [path for path in could if networks.conditioned(networks.record(path), 1)]
    single = could[:could.index(own)]
    plays = game.network_file(values)
    if not single and plays != own and plays not in over:
        single = [plays]  # a nearby variant's specialist, by its measured route
    if over:
        rows["conditioned"] = game.file_row(over[0], values)
    if single:
        rows["specialist"] = game.file_row(single[0], values)
    return rows, ("learned" if plays == own else "conditioned" if plays in over[:1]
                  else "specialist" if plays in single[:1] else "")


def measure(game, values: dict, rows: dict[str, np.ndarray], plays: str, games: int,
            seed: int) -> list[dict]:
    """Each policy's mean score per player on ``values`` (``values["players"]`` seats, the
    policy in each), with its 95% interval, its paired difference from the first and
    whether ``learned`` plays it (``plays``)."""
    players = values["players"]
    names = list(rows)
    metrics = training_games.compare_seats([rows[n] for n in names], game.game_rules(values),
                                           game.rounds_for(values), players, games, seed,
                                           BLOCK)
    out = []
    for name, m in zip(names, metrics):
        out.append({"variant": variants.label(game, values), "players": players,
                    "policy": name, "plays": name == plays, "games": m.pop("games"),
                    **{k: round(float(x), 2) for k, x in m.items()}})
    return out


def table(results: list[dict]) -> str:
    """The results as a Markdown table: one line per variant and player count."""
    policies = list(dict.fromkeys(r["policy"] for r in results))
    last = [p for p in ("conditioned", "specialist") if p in policies]
    policies = [p for p in policies if p not in last] + last
    head = ["variant", "players", *policies, *(f"{p} - heuristic" for p in policies[1:])]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    keys = list(dict.fromkeys((r["variant"], r["players"]) for r in results))
    for variant, players in keys:
        got = {r["policy"]: r for r in results
               if r["variant"] == variant and r["players"] == players}
        cells = [_cell(got[p]) if p in got else "" for p in policies]
        cells += [f"{got[p]['diff']:+.1f} ({got[p]['diff_ci95_low']:+.1f} to "
                  f"{got[p]['diff_ci95_high']:+.1f})" if p in got else ""
                  for p in policies[1:]]
        lines.append(f"| {variant} | {players} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _cell(result: dict) -> str:
    """A figure with its 95% interval, in bold where ``learned`` plays it."""
    text = f"{result['value']:.1f} ({result['ci95_low']:.1f}-{result['ci95_high']:.1f})"
    return f"**{text}**" if result.get("plays") else text


def chosen_variants(game, texts: list[str], players: int) -> list[dict]:
    """The defaults and the check set, or the variants ``texts`` (``KEY=VALUE ...``)."""
    base = {**defaults(game.params), "players": players}
    if not texts:
        return [base] + variants.check_variants(game, players)
    return [resolve(game.params, None, text.split(), {"players": players}) for text in texts]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=tuple(GAMES), default="tac")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--network", action="append", default=[], metavar="LABEL=FILE",
                        help="another value network file to measure (repeatable)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--json", type=Path, help="also write the results here")
    opts = parser.parse_args()
    game = importlib.import_module(f"analyzer.games.{GAMES[opts.game]}.model").GAME
    extra = {label: Path(path) for label, _, path in
             (text.partition("=") for text in opts.network)}
    results = []
    try:
        for players in opts.players:
            for values in chosen_variants(game, opts.variant, players):
                rows, plays = rows_for(game, values, extra)
                results += measure(game, values, rows, plays, opts.games, opts.seed)
                print(f"{variants.label(game, values)}, {players}p: done", file=sys.stderr)
        if opts.json:
            write_atomic(opts.json, json.dumps(results, indent=1) + "\n")
    except UserError as exc:
        print(f"evaluate_variants.py: error: {exc}", file=sys.stderr)
        sys.exit(2)
    print(table(results))


if __name__ == "__main__":
    main()
