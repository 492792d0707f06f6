"""Sly Dice analyzer (rules: ``docs/rules/sly-dice.md``).

The interface every game module offers: ``PARAMS``, ``POLICY_HELP``, ``commands()``,
``report_section(values, seed, quick, progress)`` and ``cheatsheet(values)``.
"""

from analyzer.games.sly_dice.params import PARAMS, POLICY_HELP


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


__all__ = ["PARAMS", "POLICY_HELP", "commands", "report_section", "cheatsheet"]
