"""That's Pretty Clever analyzer (rules: ``shared/rules/thats-pretty-clever.md``).

The interface every game module offers: ``PARAMS``, ``POLICY_HELP``, ``commands()``,
``report_section(values, seed, quick, progress)`` and ``cheatsheet(values)``.
"""

from analyzer.games.thats_pretty_clever.model import PARAMS, POLICY_HELP, RULINGS


def commands():
    """The ``dicelab thats-pretty-clever`` click group."""
    from analyzer.games.thats_pretty_clever.cli import group

    return group


def report_section(values, seed: int, quick: bool = False, progress: bool = True):
    """That's Pretty Clever's part of the balance report."""
    from analyzer.games.thats_pretty_clever.report import build_section

    return build_section(values, seed, quick, progress)


def cheatsheet(values):
    """The That's Pretty Clever strategy card."""
    from analyzer.games.thats_pretty_clever.report import build_cheatsheet

    return build_cheatsheet(values)


__all__ = ["PARAMS", "POLICY_HELP", "RULINGS", "commands", "report_section", "cheatsheet"]
