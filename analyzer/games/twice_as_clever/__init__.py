"""Twice As Clever analyzer (rules: ``docs/rules/twice-as-clever.md``): its rule
parameters, sheet file and sheet texts; the commands, report section and cheat sheet are
the shared Clever ones (``analyzer.games.clever``)."""

from analyzer.games.clever.module import export_interface
from analyzer.games.twice_as_clever.model import GAME

export_interface(GAME, globals())
