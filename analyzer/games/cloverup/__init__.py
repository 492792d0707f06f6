"""CloverUp analyzer (rules: ``docs/rules/cloverup.md``).

Its game contract (``analyzer.registry.GameModule``).
"""

from analyzer.games.cloverup.params import PARAMS, POLICY_HELP  # noqa: F401 (the game contract)
from analyzer.registry import MEMBERS


def commands():
    """The ``dicelab cloverup`` click group."""
    from analyzer.games.cloverup.cli import group

    return group


def report_section(values, seed: int, quick: bool = False, progress: bool = True):
    """CloverUp's part of the balance report for the given rule values
    (see ``analyzer.sections``)."""
    from analyzer.games.cloverup.report import build_section

    return build_section(values, seed, quick, progress)


def cheatsheet(values):
    """The CloverUp strategy card for the given rule values."""
    from analyzer.games.cloverup.report import build_cheatsheet

    return build_cheatsheet(values)


def kernels_compiled() -> bool:
    """Is the whole-game play loop in numba's cache (``analyzer.run.compile_apart``)?"""
    from analyzer.games.cloverup.warmup import kernels_compiled as compiled

    return compiled()


def compile_kernels() -> None:
    """Compile them: a game and a paired game on the default rules."""
    from analyzer.games.cloverup.warmup import compile_kernels as compile_them

    compile_them()


RULINGS: tuple[str, ...] = ()  # the rules page settles every reading with a parameter

__all__ = list(MEMBERS)
