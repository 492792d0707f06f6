"""Measure a Clever network file against the shipped learned player on every game shape
and player count: the table of a network card.

At each shape (``training.unified.target_shapes``: rounds 4-8, the round track with every
bonus, none, or all but one) and each player count of ``--players``, the candidate (in
every seat), the shipped ``learned`` and the heuristic play the same games (a held-out seed);
each row gives their means a player and the candidate's paired difference from ``learned``
with its 95% interval. The summary gives the mean and the worst difference over the points,
and the solo margin over the heuristic (its mean and its smallest).

Run: ``python scripts/measure_network.py --game tpc --network FILE [--json OUT]``
(``--checkpoint`` instead of ``--network``: a training checkpoint's latest weights).
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import numpy as np

from analyzer import script_args
from analyzer.errors import UserError
from analyzer.files import check_writable, write_output
from analyzer.games.clever import value_weights
from analyzer.games.clever.training import games as training_games
from analyzer.games.clever.training import unified
from analyzer.games.clever.training.state import read_checkpoint
from analyzer.run.progress import Progress

GAMES = {"tpc": "thats_pretty_clever", "tac": "twice_as_clever"}
SEED = 801_000_000  # held out: away from the training, tuning and routes' seeds
BLOCK = 64


def candidate_row(game, opts) -> np.ndarray:
    """The policy row of the network measured: ``--network``'s file, or the latest
    weights of ``--checkpoint``."""
    if opts.network:
        return game.file_row(Path(opts.network))
    saved = read_checkpoint(Path(opts.checkpoint))
    weights = saved["weights"].astype(np.float32)
    n_in = value_weights.inputs_of(weights, value_weights.hidden_of(
        json.loads(str(saved["settings"]))))
    return value_weights.policy_row([weights], n_in, skip=saved["skip"])


def measure(game, row: np.ndarray, players: list[int], games: dict[int, int],
            advance) -> list[dict]:
    """One record per shape and player count: the candidate, ``learned`` and the
    heuristic on the same games."""
    heuristic = game.parse_policy("heuristic")
    out = []
    for count in players:
        for values in unified.target_shapes(game, count):
            rows = [game.learned_row(values), row, heuristic]
            got = training_games.compare_seats(rows, game.game_rules(values),
                                               game.rounds_for(values), count, games[count],
                                               SEED, BLOCK)
            out.append({"players": count, "rounds": values["rounds"],
                        "track": unified.track_words(values), "games": games[count],
                        "learned": round(got[0]["value"], 2),
                        "network": round(got[1]["value"], 2),
                        "heuristic": round(got[2]["value"], 2),
                        "diff": round(got[1]["diff"], 2),
                        "diff_ci95": [round(got[1]["diff_ci95_low"], 2),
                                      round(got[1]["diff_ci95_high"], 2)]})
            advance(games[count])
    return out


def summary(records: list[dict]) -> dict:
    """The mean and the worst difference from ``learned`` by player count and over every
    point, and the solo margin over the heuristic: its mean over the solo points and the
    smallest."""
    diffs = np.array([r["diff"] for r in records])
    solo = [r["network"] - r["heuristic"] for r in records if r["players"] == 1]
    by_count = {str(n): {"mean_diff": round(float(np.mean([r["diff"] for r in records
                                                           if r["players"] == n])), 2),
                         "worst_diff": round(float(min(r["diff"] for r in records
                                                       if r["players"] == n)), 2)}
                for n in sorted({r["players"] for r in records})}
    return {"mean_diff": round(float(diffs.mean()), 2), "worst_diff": round(float(diffs.min()), 2),
            "by_players": by_count,
            "solo_margin_over_heuristic": round(float(min(solo)), 2) if solo else None,
            "solo_mean_margin_over_heuristic": round(float(np.mean(solo)), 2) if solo else None}


def markdown(records: list[dict], totals: dict) -> str:
    """The card's table: one row per point (player count, rounds, round track) with the
    network's mean a player, its paired difference from ``learned`` (95% interval), and
    ``learned``'s and the heuristic's means; then the summary's lines."""
    lines = ["| players | rounds | round track | games | network | difference (95% CI) "
             "| learned before | heuristic |", "|---|---|---|---|---|---|---|---|"]
    for r in records:
        low, high = r["diff_ci95"]
        lines.append(f"| {r['players']} | {r['rounds']} | {r['track']} | {r['games']:,} "
                     f"| {r['network']:.1f} | {r['diff']:+.1f} ({low:+.1f} to {high:+.1f}) "
                     f"| {r['learned']:.1f} | {r['heuristic']:.1f} |")
    lines += ["", f"Mean difference over the points: {totals['mean_diff']:+.2f}; worst: "
              f"{totals['worst_diff']:+.2f}; solo, the margin over the heuristic: "
              f"{totals['solo_mean_margin_over_heuristic']:+.2f} on average, "
              f"{totals['solo_margin_over_heuristic']:+.2f} at the smallest."]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = script_args.OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=tuple(GAMES), default="tpc")
    given = parser.add_mutually_exclusive_group(required=True)
    given.add_argument("--network", help="a network file (.npy, its .json beside it)")
    given.add_argument("--checkpoint", help="a training checkpoint (.npz): its latest weights")
    parser.add_argument("--players", type=int, nargs="+", choices=(1, 2, 3, 4),
                        default=[1, 2, 3, 4])
    count = script_args.at_least(2)
    parser.add_argument("--solo-games", type=count, default=500)
    parser.add_argument("--games", type=count, default=200, help="games of 2 players")
    parser.add_argument("--more-games", type=count, default=100, help="games of 3 or 4")
    parser.add_argument("--json", help="write the records and the summary here")
    parser.add_argument("--markdown", help="write the card's table of every point here")
    opts = parser.parse_args()
    game = importlib.import_module(f"analyzer.games.{GAMES[opts.game]}.model").GAME
    games = {1: opts.solo_games, 2: opts.games, 3: opts.more_games, 4: opts.more_games}
    total = sum(games[n] * len(unified.target_shapes(game, n)) for n in opts.players)
    try:
        for path in (opts.json, opts.markdown):
            if path:
                check_writable(path)  # before the games, not after them
        row = candidate_row(game, opts)
        with Progress(total, f"{game.title}: the network against learned", True,
                      "games") as bar:
            records = measure(game, row, opts.players, games, bar.advance)
        result = {"seed": SEED, "records": records, "summary": summary(records)}
        if opts.json:
            write_output(opts.json, json.dumps(result, indent=1) + "\n")
        if opts.markdown:
            write_output(opts.markdown, markdown(records, result["summary"]))
    except (UserError, OSError, KeyError, ValueError) as exc:
        script_args.fail("measure_network.py", str(exc))
    for r in records:
        print(f"{r['players']}p {r['rounds']} rounds, {r['track']:<22} learned "
              f"{r['learned']:7.1f}  network {r['network']:7.1f}  diff {r['diff']:+6.1f} "
              f"({r['diff_ci95'][0]:+.1f} to {r['diff_ci95'][1]:+.1f})  heuristic "
              f"{r['heuristic']:7.1f}")
    print(json.dumps(result["summary"], indent=1), file=sys.stderr)


if __name__ == "__main__":
    main()
