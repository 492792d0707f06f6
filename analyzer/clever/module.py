"""The game-module interface (``commands``, ``report_section``, ``cheatsheet``) of a Clever
game, built from its description, so each game's package only names its ``GAME``."""

from __future__ import annotations

from types import SimpleNamespace

from analyzer.clever.game import CleverGame


def game_interface(game: CleverGame) -> SimpleNamespace:
    """The functions the registry expects of a game module, for ``game``."""

    def commands():
        """The ``dicelab <game>`` click group."""
        from analyzer.clever.cli import make_group

        return make_group(game)

    def report_section(values, seed: int, quick: bool = False, progress: bool = True):
        """The game's part of the balance report."""
        from analyzer.clever.report import build_section

        return build_section(game, values, seed, quick, progress)

    def cheatsheet(values):
        """The game's strategy card."""
        from analyzer.clever.report import build_cheatsheet

        return build_cheatsheet(game, values)

    return SimpleNamespace(PARAMS=game.params, POLICY_HELP=game.policy_help,
                           RULINGS=game.rulings,
                           commands=commands, report_section=report_section,
                           cheatsheet=cheatsheet)
