"""The training table of a Clever game's one network: rule sets and player counts drawn
together.

A row is a game of 1-4 players under a set of rules: a share of them the defaults, the
others one of the game shapes (a round count of ``SHAPE_ROUNDS``, or the player count's
own, and a round track of ``TRACKS``) with, half the time, some of the other rules changed.
Self-play takes the player count from the row (``kernels.clever_base.game_rules.RULE_PLAYERS``).
A focused table gives a share of its rows to the solo game on the default rules first; a
table leaning to solo games (``solo``) gives a share of the other rows one player.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.games.clever import variants
from analyzer.games.clever.game import CleverGame
from analyzer.params import defaults
from kernels.clever_base.game_rules import RULE_PLAYERS

PLAYER_SHARES = (0.4, 0.3, 0.15, 0.15)  # the rows' shares of games of 1-4 players
DEFAULT_SHARE = 0.25  # rows on the default rules
SHAPE_ROUNDS = (0, 4, 5, 6, 7, 8)  # 0: the player count's own round count
BONUSES = ("round_1_bonus", "round_2_bonus", "round_3_bonus", "round_4_bonus")
TRACKS = ((), BONUSES, *((name,) for name in BONUSES))  # the round-track bonuses switched
# off: none, all, or one
OTHER_CHANCE = 0.15  # in half the other rows, each rule outside the shape's chance to change

TARGET_ROUNDS = (4, 5, 6, 7, 8)  # the round counts of the shapes a network is measured on


def target_shapes(game: CleverGame, players: int) -> list[dict[str, Any]]:
    """The game shapes a network is measured on, for ``players`` players: each round count
    of ``TARGET_ROUNDS`` with each round track of ``TRACKS``, every other rule at its
    default."""
    base = {**defaults(game.params), "players": players}
    return [{**base, "rounds": rounds, **{name: False for name in off}}
            for rounds in TARGET_ROUNDS for off in TRACKS]


def track_words(values: dict[str, Any]) -> str:
    """The round track of ``values`` in words: "every bonus", "no bonus", "no round-2
    bonus"."""
    off = [name for name in BONUSES if not values[name]]
    if not off:
        return "every bonus"
    if len(off) == len(BONUSES):
        return "no bonus"
    return " ".join(f"no round-{name.split('_')[1]} bonus" for name in off)


def sample(game: CleverGame, count: int, seed: int, focus: float = 0.0, solo: float = 0.0
           ) -> list[dict[str, Any]]:
    """``count`` rows (full rule values, the player count among them) drawn by ``seed``;
    a ``focus`` share of them the solo game on the default rules, and a ``solo`` share of
    the others solo games (their rules drawn as every row's)."""
    rng = np.random.default_rng([seed, 64])
    base = defaults(game.params)
    shares = np.cumsum(PLAYER_SHARES) / np.sum(PLAYER_SHARES)
    out = []
    for _ in range(count):
        if focus > 0.0 and rng.random() < focus:
            out.append({**base, "players": 1})
            continue
        players = int(np.searchsorted(shares, rng.random(), side="right")) + 1
        if solo > 0.0 and rng.random() < solo:
            players = 1
        values = {**base, "players": min(players, len(PLAYER_SHARES))}
        if rng.random() >= DEFAULT_SHARE:
            values["rounds"] = SHAPE_ROUNDS[int(rng.integers(len(SHAPE_ROUNDS)))]
            for name in TRACKS[int(rng.integers(len(TRACKS)))]:
                values[name] = False
            if rng.random() < 0.5:
                _change_others(game, values, rng)
        out.append(values)
    return out


def _change_others(game: CleverGame, values: dict[str, Any], rng: np.random.Generator) -> None:
    """Change each rule outside the game's shape with ``OTHER_CHANCE``, in place."""
    for param in variants.drawn_params(game):
        if param.name != "rounds" and param.name not in BONUSES \
                and rng.random() < OTHER_CHANCE:
            choices = variants.other_values(param)
            values[param.name] = choices[int(rng.integers(len(choices)))]


def table(game: CleverGame, rows: list[dict[str, Any]]) -> np.ndarray:
    """The rows' game-rules vectors (int64[V, N_GAME_RULES]), each with its player count."""
    out = variants.table(game, rows)
    out[:, RULE_PLAYERS] = [values["players"] for values in rows]
    return out
