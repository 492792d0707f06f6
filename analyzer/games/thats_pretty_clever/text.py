"""That's Pretty Clever moves and sheets in words, for advice and coaching."""

from __future__ import annotations

import numpy as np

from analyzer.games.clever.track_words import next_track_bonuses
from kernels.thats_pretty_clever import layout as L


def describe(sheet: np.ndarray, faces: np.ndarray, move: np.ndarray) -> str:
    """A move ``(die, area, cell)`` for the dice ``faces``, e.g. 'blue 3 -> blue 3+4 = 7'."""
    die, area, cell = (int(x) for x in move)
    name = f"{L.DIE_NAMES[die]} {faces[die]}"
    if area == L.YELLOW_AREA:
        return f"{name} -> yellow row {cell // 4 + 1} column {cell % 4 + 1}"
    if area == L.BLUE_AREA:
        return f"{name} -> blue {faces[L.BLUE]}+{faces[L.WHITE]} = {cell}"
    if area == L.GREEN_AREA:
        return f"{name} -> green slot {sheet[L.S_GREEN] + 1}"
    if area == L.ORANGE_AREA:
        slot = int(sheet[L.S_ORANGE])
        return f"{name} -> orange slot {slot + 1} (x{L.ORANGE_MULTIPLIER[slot]})"
    return f"{name} -> purple slot {sheet[L.S_PURPLE] + 1}"


def open_bonuses(sheet: np.ndarray) -> str:
    """The bonuses one mark away (yellow and blue groups missing one cell, with the value
    it needs) and the next bonus on each track (with the slots still to fill)."""
    near = []
    groups = [("yellow row", i + 1, int(m), int(b), "yellow")
              for i, (m, b) in enumerate(zip(L.YELLOW_ROWS, L.YELLOW_ROW_BONUS))]
    groups.append(("yellow diagonal", "", L.YELLOW_DIAGONAL, L.YELLOW_DIAGONAL_BONUS,
                   "yellow"))
    groups += [("blue row", i + 1, int(m), int(b), "blue")
               for i, (m, b) in enumerate(zip(L.BLUE_ROWS, L.BLUE_ROW_BONUS))]
    groups += [("blue column", i + 1, int(m), int(b), "blue")
               for i, (m, b) in enumerate(zip(L.BLUE_COLS, L.BLUE_COL_BONUS))]
    for name, number, mask, code, area in groups:
        marks = int(sheet[L.S_YELLOW if area == "yellow" else L.S_BLUE])
        missing = mask & ~marks
        if missing and missing & (missing - 1) == 0:
            bit = missing.bit_length() - 1
            need = int(L.YELLOW_VALUES[bit]) if area == "yellow" else bit + 2
            near.append(f"{name} {number} needs a {need} -> {L.bonus_label(code)}".replace(
                "  ", " "))
    near += next_track_bonuses(sheet, (("green", L.S_GREEN, L.GREEN_BONUS),
                                       ("orange", L.S_ORANGE, L.ORANGE_BONUS),
                                       ("purple", L.S_PURPLE, L.PURPLE_BONUS)),
                               L.TRACK, L.bonus_label)
    return "; ".join(near) if near else "none"
