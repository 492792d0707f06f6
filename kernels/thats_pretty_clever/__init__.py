"""That's Pretty Clever kernels (rules: ``docs/rules/thats-pretty-clever.md``; sheet:
``docs/clever-layouts.json``, key ``games.thats_pretty_clever``, checked cell by
cell by ``tests/games/test_tpc_sheet.py``).

``layout``: the printed sheet and the flat score-sheet array; ``rules``: marking, bonus
chains and scoring (pure functions, no dice are drawn); ``value``: the heuristic's sheet
features (fitted from ``kernels.clever.training`` samples). Turns, policies and games run
on the shared Clever engine (``kernels.clever``).
"""
