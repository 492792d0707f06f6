"""The game-module interface (``commands``, ``report_section``, ``cheatsheet``) of a Clever
game, built from its description, so each game's package only names its ``GAME``."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from analyzer.games.clever.game import CleverGame
from analyzer.registry import MEMBERS


def game_interface(game: CleverGame) -> SimpleNamespace:
    """The functions the registry expects of a game module, for ``game``."""

    def commands():
        """The ``dicelab <game>`` click group."""
        from analyzer.games.clever.cli import make_group

        return make_group(game)

    def report_section(values, seed: int, quick: bool = False, progress: bool = True):
        """The game's part of the balance report."""
        from analyzer.games.clever.report import build_section

        return build_section(game, values, seed, quick, progress)

    def cheatsheet(values):
        """The game's strategy card."""
        from analyzer.games.clever.card import build_cheatsheet

        return build_cheatsheet(game, values)

    def kernels_compiled() -> bool:
        """Are the engine's play loops in numba's cache (``analyzer.run.compile_apart``)?"""
        from analyzer.run.driver import all_cached
        from kernels.clever import play

        return all_cached(play.games_block, play.paired_block)

    def compile_kernels() -> None:
        """Compile the engine's play loops: one game and one paired game, default rules."""
        from analyzer.games.clever.report import compile_kernels

        compile_kernels(game)

    return SimpleNamespace(PARAMS=game.params, POLICY_HELP=game.policy_help,
                           RULINGS=game.rulings,
                           commands=commands, report_section=report_section,
                           cheatsheet=cheatsheet, kernels_compiled=kernels_compiled,
                           compile_kernels=compile_kernels)


def export_interface(game: CleverGame, namespace: dict[str, Any]) -> None:
    """Put ``game`` and its interface (``analyzer.registry.MEMBERS``) into a game
    package's ``namespace`` (its ``globals()``), with its ``__all__``."""
    interface = game_interface(game)
    namespace.update({name: getattr(interface, name) for name in MEMBERS}, GAME=game,
                     __all__=["GAME", *MEMBERS])
