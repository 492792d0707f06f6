"""Twice As Clever analyzer (rules: ``docs/rules/twice-as-clever.md``): its rule
parameters, sheet file and sheet texts; the commands, report section and cheat sheet are
the shared Clever ones (``analyzer.games.clever``)."""

from analyzer.games.clever.module import game_interface
from analyzer.games.twice_as_clever.model import GAME

_interface = game_interface(GAME)
PARAMS, POLICY_HELP, RULINGS = _interface.PARAMS, _interface.POLICY_HELP, _interface.RULINGS
commands, report_section = _interface.commands, _interface.report_section
cheatsheet = _interface.cheatsheet
kernels_compiled, compile_kernels = _interface.kernels_compiled, _interface.compile_kernels
compile_alone = _interface.compile_alone  # analyzer.cli.main

__all__ = ["GAME", "PARAMS", "POLICY_HELP", "RULINGS", "commands", "report_section",
           "cheatsheet", "kernels_compiled", "compile_kernels", "compile_alone"]
