"""CloverUp analyzer (rules: ``docs/rules/cloverup.md``).

The interface every game module offers: ``PARAMS``, ``POLICY_HELP``, ``commands()``,
``report_section(values, seed, quick, progress)`` and ``cheatsheet(values)``.
"""

from analyzer.games.cloverup.params import PARAMS, POLICY_HELP


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


__all__ = ["PARAMS", "POLICY_HELP", "commands", "report_section", "cheatsheet"]
