"""Tune the numbers of a Clever strategy card (its ``card_rules.json``) by simulation, and
check the card on another seed.

Each number in turn is tried at nearby values on the same games (paired, one seed); the
value with the best mean solo score stays (a rule measured at the table: the best win
rate against the card as it was, in two-player games). ``--check SEED`` then plays, on
that other seed, the card beside greedy and the heuristic, the card without each of its
rules (solo, paired) and against the card without each rule it measures at the table.

Run: ``python scripts/tune_card.py --game tpc --seed 11 --games 4000 --passes 3 --write``,
then ``python scripts/tune_card.py --game tpc --passes 0 --check 20261129``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from analyzer import script_args
from analyzer.files import write_atomic
from analyzer.games.clever import card_rules
from analyzer.games.clever.card_measure import head_to_head, paired_scores
from analyzer.games.thats_pretty_clever.model import GAME as TPC
from analyzer.games.twice_as_clever.model import GAME as TAC
from analyzer.params import defaults

GAMES = {"tpc": TPC, "tac": TAC}
BOUNDS = {"area_until": (1, 6), "unlock": (0, 12), "keep_1": (0, 6), "keep_2": (0, 6),
          "platter": (0, 6), "reroll_below": (-2, 30), "reroll_from": (1, 6),
          "plus_above": (0, 30), "plus_from": (1, 6), "passive": (0, 1),
          "decline_below": (-2, 10), "gift": (0, 6), "return_from": (1, 7),
          "orange_min": (1, 6), "orange_times_min": (1, 6), "purple_step": (1, 6),
          "green_spare": (0, 5), "blue_first": (2, 12), "blue_drop": (0, 10),
          "green_high": (1, 6), "green_low": (1, 6), "pink_face": (1, 7)}
STEPS = (-4, -2, -1, 1, 2, 4)
GIFT_STEPS = (-1.0, -0.5, 0.5, 1.0)


def candidates(name: str, value: float) -> list[float]:
    """``value`` first, then the values near it that the number may take."""
    low, high = BOUNDS.get(name, (0, 15))  # an area's points: 0 to 15
    steps = GIFT_STEPS if name == "gift" else STEPS
    return [value] + sorted({min(max(value + s, low), high) for s in steps} - {value})


def tune_number(game, card, name: str, games: int, seed: int, table: bool):
    """The card with the number ``name`` at its best value (printed with every value's
    mean score, or win rate against the card as it was)."""
    holder = next(r for r in card.rules if name in r.numbers)
    values = candidates(name, holder.numbers[name])
    cards = [card.with_numbers(**{name: v}) for v in values]
    rows = [c.row() for c in cards]
    if table:
        two = {**defaults(game.params), "players": 2}
        marks = [0.5] + [head_to_head(game, two, row, rows[0], games, seed)["win_rate"]
                         for row in rows[1:]]
    else:
        solo = {**defaults(game.params), "players": 1}
        marks = [m["value"] for m in paired_scores(game, solo, rows, games, seed)[0]]
    best = int(np.argmax(marks))
    print(f"  {name}: " + ", ".join(f"{v:g}: {m:.3f}" for v, m in zip(values, marks))
          + f" -> {values[best]:g}", flush=True)
    return cards[best]


def check(game, card, games: int, table_games: int, seed: int) -> None:
    """The card on ``seed``: beside greedy and the heuristic, and each rule's worth."""
    solo = {**defaults(game.params), "players": 1}
    solo_rules = [r.name for r in card.rules if r.players != "table"]
    names = ["card", *(f"without {n}" for n in solo_rules), "greedy", "heuristic"]
    rows = [card.row(), *(card.row((n,)) for n in solo_rules),
            game.parse_policy("greedy"), game.parse_policy("heuristic")]
    measured, n = paired_scores(game, solo, rows, games, seed)
    print(f"solo, {n:,} paired games, seed {seed}:")
    for name, m in zip(names, measured):
        print(f"  {name}: {m['value']:.2f} ({m['ci95_low']:.2f} to {m['ci95_high']:.2f})")
    two = {**defaults(game.params), "players": 2}
    for rule in (r for r in card.rules if r.players in ("table", "both")):
        h = head_to_head(game, two, card.row(), card.row((rule.name,)), table_games, seed)
        low, high = h["win_ci95"]
        print(f"  two players, against the card without {rule.name}: wins "
              f"{h['win_rate']:.2%} ({low:.2%} to {high:.2%}), {h['games']:,} games")


def write(path: Path, card, opts) -> None:
    """Write the tuned numbers back into the card's file, with how they were tuned."""
    data = json.loads(path.read_text())
    for item in data["rules"]:
        item["numbers"] = {k: _plain(v) for k, v in card.rule(item["name"]).numbers.items()}
    data["tuned"] = (f"seed {opts.seed}: each number tried at nearby values on "
                     f"{opts.games:,} paired solo games ({opts.table_games:,} two-player "
                     f"games for a rule measured at the table), {opts.passes} "
                     f"pass{'es' * (opts.passes != 1)} over the numbers")
    write_atomic(path, json.dumps(data, indent=1) + "\n")
    print(f"wrote {path}")


def _plain(v: float) -> float | int:
    return int(v) if float(v).is_integer() else float(v)


def main() -> None:
    parser = script_args.OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=tuple(GAMES), required=True)
    parser.add_argument("--seed", type=script_args.at_least(0), default=11)
    parser.add_argument("--games", type=script_args.at_least(2), default=4000)
    parser.add_argument("--table-games", type=script_args.at_least(2), default=20_000)
    parser.add_argument("--passes", type=script_args.at_least(0), default=1)
    parser.add_argument("--only", nargs="*", default=None, metavar="NUMBER")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--check", type=script_args.at_least(0), default=None, metavar="SEED")
    opts = parser.parse_args()
    game = GAMES[opts.game]
    path = game.folder / "card_rules.json"
    card = card_rules.load(game, path)
    for p in range(opts.passes):
        print(f"pass {p + 1}", flush=True)
        for rule in card.rules:
            for name in rule.numbers:
                if opts.only is None or name in opts.only:
                    table = rule.players == "table"
                    card = tune_number(game, card, name,
                                       opts.table_games if table else opts.games,
                                       opts.seed, table)
    print(json.dumps({r.name: r.numbers for r in card.rules}))
    if opts.write:
        write(path, card, opts)
    if opts.check is not None:
        check(game, card, 2 * opts.games, opts.table_games, opts.check)


if __name__ == "__main__":
    main()
