"""CloverUp's whole-game kernels run once, so that numba compiles them
(``analyzer.run.compile_apart``)."""

from __future__ import annotations

from analyzer.games.cloverup.params import PARAMS
from analyzer.games.cloverup.simulation import simulate, whatif
from analyzer.params import defaults
from analyzer.seeding import DEFAULT_SEED


def kernels_compiled() -> bool:
    """Is the whole-game play loop in numba's cache? (The paired loop, which the report
    never runs, compiles with it in ``compile_kernels`` and on a what-if's first run:
    asked for here, it kept every report planning and timing itself as a first run.)"""
    from analyzer.run.driver import all_cached
    from kernels.cloverup import play

    return all_cached(play.games_block)


def compile_kernels() -> None:
    """A game and a paired game on the default rules, two players."""
    values = {**defaults(PARAMS), "players": 2}
    simulate(values, ["optimal"], 1, DEFAULT_SEED, progress=False)
    whatif([("a", values, "optimal"), ("b", values, "optimal")], 1, DEFAULT_SEED,
           progress=False)
