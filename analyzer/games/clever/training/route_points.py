"""Measure which shipped network file plays each point of a Clever game best (the routes
``analyzer.games.clever.routes`` reads; ``scripts/measure_routes.py`` writes them).

A point is a player count and a game shape (its round count and round-track bonuses), the
other rules at their defaults, or a shipped specialist's own variant. Every candidate file
(``networks.candidates``) plays the same games of the point (each in every seat, a
held-out seed); the file trained-on order picks keeps the point unless another's paired
difference from it lies wholly above 0, and then the best of those plays it.

A point decides its shape and player count whatever the other rules; ``measure_reach``
checks that its choice carries to them (other rules changed, another held-out seed).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.games.clever import networks, routes, variants
from analyzer.games.clever.game import CleverGame
from analyzer.games.clever.training import games as training_games
from analyzer.games.clever.training import shapes
from analyzer.params import defaults

SEED = 781_000_000  # held out: far from the training, tuning, evaluation and shape seeds
BLOCK = 64  # games per block: a point's few hundred games still spread over the threads


def point_values(game: CleverGame, players: list[int]) -> list[dict[str, Any]]:
    """The rule values of every point for the player counts ``players``: each solo shape
    of the training distribution, then each shipped specialist's own variant."""
    own = game.learned_file
    base = defaults(game.params)
    variants = shapes.solo_shapes(game)
    for path in networks.specialists(own):
        trained = networks.record(path)
        if path.parent != own.parent or networks.conditioned(trained, 1):
            continue
        rules = {k: v for k, v in trained["rules"].items() if k in base}
        values = {**base, **rules, "rounds": int(trained.get("rounds", 0))}
        if values not in variants:  # not a shape's point already
            variants.append(values)
    return [{**values, "players": count} for count in players for values in variants]


def point_rules(game: CleverGame, values: dict[str, Any]) -> dict[str, Any]:
    """The rules of a point that its shape and player count do not name: those of
    ``values`` that differ from the defaults."""
    base = defaults(game.params)
    return {k: v for k, v in values.items()
            if k not in (*networks.SHAPE, "players") and v != base[k]}


def measure_point(game: CleverGame, values: dict[str, Any], games: int
                  ) -> dict[str, Any] | None:
    """Every candidate file on the same ``games`` games of the point ``values``: the
    point's record (``routes``), or none where only one file could play it."""
    own = game.learned_file
    rounds_by_players = game.layout.ROUNDS_BY_PLAYERS
    could = networks.candidates(own, values, rounds_by_players)
    baseline = networks.playing_file(own, values, rounds_by_players, measured=False)
    if len(could) < 2 or baseline not in could:
        return None
    order = [baseline, *(path for path in could if path != baseline)]
    rows = [game.file_row(path, values) for path in order]
    got = training_games.compare_seats(rows, game.game_rules(values), game.rounds_for(values),
                                       values["players"], games, SEED, BLOCK)
    means = {path.name: round(float(m["value"]), 2) for path, m in zip(order, got)}
    diffs = {path.name: [round(float(m["diff_ci95_low"]), 2),
                         round(float(m["diff_ci95_high"]), 2)]
             for path, m in zip(order[1:], got[1:])}
    return {"players": values["players"],
            "shape": networks.shape_key(values, rounds_by_players),
            "rules": point_rules(game, values), "games": int(got[0]["games"]),
            "means": means, "diff_ci95": diffs, "baseline": baseline.name,
            "plays": choose(means, diffs, baseline.name)}


def choose(means: dict[str, float], diffs: dict[str, list[float]], baseline: str) -> str:
    """The file that plays a point: ``baseline`` (trained-on order's) unless another's
    paired difference from it (``diffs``: 95% interval) lies wholly above 0; then the one
    of those with the best mean."""
    better = [name for name, (low, _) in diffs.items() if low > 0.0]
    return max(better, key=means.__getitem__) if better else baseline


def measure(game: CleverGame, players: list[int], games: dict[int, int],
            advance: Callable[[int], None] = lambda n: None,
            kept: list[dict[str, Any]] = ()) -> dict[str, Any]:
    """The routes of ``game``: every point of ``players`` measured on ``games[players]``
    games (``advance`` is called with each point's games: a progress bar), after the
    points ``kept`` of other player counts (measured before on the same files), and the
    SHA-256 of every file measured."""
    points = [point for point in kept if point["players"] not in players]
    for values in point_values(game, players):
        point = measure_point(game, values, games[values["players"]])
        if point is not None:
            points.append(point)
        advance(games[values["players"]])
    points.sort(key=lambda point: point["players"])
    names = sorted({name for point in points for name in point["means"]})
    folder: Path = game.learned_file.parent
    base = defaults(game.params)
    return routes.sealed({
        "seed": SEED, "files": {name: routes.digest(folder / name) for name in names},
        "defaults": {k: v for k, v in base.items() if k not in (*networks.SHAPE, "players")},
        "points": points})


REACH_SEED = 791_000_000  # held out: the routes' reach, away from the routes' own seed


def reach_values(game: CleverGame, point: dict[str, Any], changes: int,
                 rng: np.random.Generator) -> dict[str, Any]:
    """The rule values of ``point`` (its player count, shape and rules) with ``changes``
    other drawn parameters each moved to another of their values, drawn by ``rng``."""
    values = {**defaults(game.params), **dict(zip(networks.SHAPE, point["shape"])),
              **point["rules"], "players": point["players"]}
    free = [p for p in variants.drawn_params(game)
            if p.name not in networks.SHAPE and p.name not in point["rules"]]
    for k in rng.choice(len(free), size=changes, replace=False):
        choices = variants.other_values(free[k])
        values[free[k].name] = choices[int(rng.integers(len(choices)))]
    return values


def measure_reach(game: CleverGame, players: int, points: int, games: int,
                  advance: Callable[[int], None] = lambda n: None) -> list[dict[str, Any]]:
    """How far a measured point's choice carries: up to ``points`` points of ``players``
    players (drawn) where the routes moved the file from trained-on order's, each with one
    and with two other rules changed, the routed file against trained-on order's on the
    same ``games`` games (seed ``REACH_SEED``): one record each, its paired interval."""
    own, rounds_by_players = game.learned_file, game.layout.ROUNDS_BY_PLAYERS
    moved = [p for p in routes.load(own)["points"]
             if p["players"] == players and p["plays"] != p["baseline"]]
    rng = np.random.default_rng([REACH_SEED, players])
    out = []
    for k in rng.permutation(len(moved))[:points]:
        for changes in (1, 2):
            values = reach_values(game, moved[k], changes, rng)
            routed = networks.playing_file(own, values, rounds_by_players)
            order = networks.playing_file(own, values, rounds_by_players, measured=False)
            advance(games)
            if routed == order:
                continue
            rows = [game.file_row(path, values) for path in (order, routed)]
            got = compare_rows(game, rows, values, games, REACH_SEED + len(out))
            out.append({"players": players, "shape": moved[k]["shape"],
                        "rules": point_rules(game, values), "games": games,
                        "order": order.name, "routed": routed.name, **got})
    return out


def compare_rows(game: CleverGame, rows: list[np.ndarray], values: dict[str, Any],
                 games: int, seed: int) -> dict[str, Any]:
    """Two policy rows on the same ``games`` games of ``values``: both means and the
    second's paired difference from the first with its 95% interval."""
    first, second = training_games.compare_seats(
        rows, game.game_rules(values), game.rounds_for(values), values["players"], games,
        seed, BLOCK)
    return {"means": [round(float(first["value"]), 2), round(float(second["value"]), 2)],
            "diff_ci95": [round(float(second["diff_ci95_low"]), 2),
                          round(float(second["diff_ci95_high"]), 2)]}
