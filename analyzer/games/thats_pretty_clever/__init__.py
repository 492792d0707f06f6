"""That's Pretty Clever analyzer (rules: ``docs/rules/thats-pretty-clever.md``): its rule
parameters, sheet file and sheet texts; the commands, report section and cheat sheet are
the shared Clever ones (``analyzer.games.clever``)."""

from analyzer.games.clever.module import export_interface
from analyzer.games.thats_pretty_clever.model import GAME

export_interface(GAME, globals())
