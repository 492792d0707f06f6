"""Twice As Clever kernels (rules: ``docs/rules/twice-as-clever.md``; sheet:
``docs/clever-layouts.json``, key ``games.twice_as_clever``, checked cell by cell by
``tests/games/test_tac_sheet.py``).

``layout``: the printed sheet and the flat score-sheet array; ``rules``: marking, "?"
bonuses, action tracks, bonus chains and scoring (pure functions, no dice are drawn);
``value``: the heuristic's sheet features. Turns, policies and games run on the shared
Clever engine (``kernels.clever``).
"""
