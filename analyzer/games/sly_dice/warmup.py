"""Sly Dice's kernels run once, so that numba compiles them (``analyzer.run.compile_apart``)."""

from __future__ import annotations

from analyzer.games.sly_dice.fictitious import Duels
from analyzer.games.sly_dice.params import PARAMS
from analyzer.games.sly_dice.runs import play_games
from analyzer.games.sly_dice.simulation import lineup_of, whatif
from analyzer.params import defaults
from analyzer.seeding import DEFAULT_SEED


def compile_kernels() -> None:
    """A game, a paired game and a duel on the default rules, two honest players (the
    rules' exact tables are built on the way)."""
    values = {**defaults(PARAMS), "players": 2}
    honest = lineup_of(["honest"], values)
    play_games(values, honest, 1, DEFAULT_SEED, progress=False)
    whatif([("a", values, ["honest"]), ("b", values, ["honest"])], 1, DEFAULT_SEED,
           progress=False)
    Duels(values, DEFAULT_SEED).play(honest[:1], honest[1], 1)
