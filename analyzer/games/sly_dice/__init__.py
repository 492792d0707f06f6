"""Sly Dice analyzer (rules: ``docs/rules/sly-dice.md``).

Its game contract (``analyzer.registry.GameModule``).
"""

from analyzer.games.sly_dice.params import PARAMS, POLICY_HELP  # noqa: F401 (the game contract)
from analyzer.registry import MEMBERS


def commands():
    """The ``dicelab sly-dice`` click group."""
    from analyzer.games.sly_dice.cli import group

    return group


def report_section(values, seed: int, quick: bool = False, progress: bool = True):
    """Sly Dice's part of the balance report (see ``analyzer.sections``)."""
    from analyzer.games.sly_dice.report import build_section

    return build_section(values, seed, quick, progress)


def cheatsheet(values):
    """The Sly Dice strategy card for the given rule values."""
    from analyzer.games.sly_dice.report import build_cheatsheet

    return build_cheatsheet(values)


def kernels_compiled() -> bool:
    """Are the play loops and exact tables in numba's cache (``analyzer.run.compile_apart``)?"""
    from analyzer.run.driver import all_cached
    from kernels.sly_dice import odds, play

    return all_cached(play.games_block, play.paired_block, play.duel_block, odds.odds_table,
                      odds.q_tables)


def compile_kernels() -> None:
    """Compile them: a game, a paired game and a duel on the default rules."""
    from analyzer.games.sly_dice.warmup import compile_kernels

    compile_kernels()


RULINGS: tuple[str, ...] = ()  # the rules page settles every reading with a parameter

__all__ = list(MEMBERS)
