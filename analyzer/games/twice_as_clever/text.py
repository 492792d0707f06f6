"""Twice As Clever moves and sheets in words, for advice and coaching."""

from __future__ import annotations

import numpy as np

from analyzer.games.clever.track_words import next_track_bonuses
from kernels.twice_as_clever import layout as L

SILVER_ROW_NAMES = ("yellow", "blue", "green", "pink")  # the silver rows, top to bottom


def yellow_cell(cell: int) -> str:
    return f"row {L.YELLOW_CELL_ROW[cell] + 1} column {L.YELLOW_CELL_COL[cell] + 1}"


def describe(sheet: np.ndarray, faces: np.ndarray, move: np.ndarray) -> str:
    """A move ``(die, area, target)`` for the dice ``faces``, e.g. 'white 4 -> silver row
    blue' or 'yellow 5 -> yellow row 4 column 3 (circle)'."""
    die, area, target = (int(x) for x in move)
    name = f"{L.DIE_NAMES[die]} {faces[die]}"
    if area == L.SILVER_AREA:
        return f"{name} -> silver row {SILVER_ROW_NAMES[target]}"
    if area == L.YELLOW_AREA:
        how = "cross" if (sheet[L.S_YELLOW_CIRCLED] >> target) & 1 else "circle"
        return f"{name} -> yellow {yellow_cell(target)} ({how})"
    if area == L.BLUE_AREA:
        return (f"{name} -> blue {faces[L.BLUE]}+{faces[L.WHITE]} = "
                f"{faces[L.BLUE] + faces[L.WHITE]} (slot {sheet[L.S_BLUE] + 1})")
    if area == L.GREEN_AREA:
        slot = int(sheet[L.S_GREEN])
        return f"{name} -> green slot {slot + 1} (x{L.GREEN_MULTIPLIER[slot]})"
    return f"{name} -> pink slot {sheet[L.S_PINK] + 1}"


def open_bonuses(sheet: np.ndarray) -> str:
    """The bonuses one mark away (silver columns missing one row, yellow lines missing
    one circle, with the value they need) and the next bonus on each track (with the
    slots still to fill; pink with the value it needs)."""
    names = L.BONUS_NAMES
    near = []
    for value in range(1, 7):
        open_rows = [r for r in range(L.SILVER_ROWS)
                     if not (sheet[L.S_SILVER] >> (6 * r + value - 1)) & 1]
        if len(open_rows) == 1:
            near.append(f"silver {value}s need row {SILVER_ROW_NAMES[open_rows[0]]} -> "
                        f"{names[int(L.SILVER_COLUMN_BONUS[value - 1])]}")
    for g, group in enumerate(L.YELLOW_GROUPS):
        missing = int(group) & ~int(sheet[L.S_YELLOW_CIRCLED])
        if missing and missing & (missing - 1) == 0:
            cell = missing.bit_length() - 1
            line = f"row {g + 1}" if g < 5 else f"column {g - 4}"
            near.append(f"yellow {line} needs a circled {L.YELLOW_VALUES[cell]} -> "
                        f"{names[int(L.YELLOW_GROUP_BONUS[g])]}")
    near += next_track_bonuses(
        sheet, (("blue", L.S_BLUE, L.BLUE_BONUS), ("green", L.S_GREEN, L.GREEN_BONUS),
                ("pink", L.S_PINK, L.PINK_BONUS)), L.TRACK, lambda code: names[code],
        lambda area, k: f", needs {L.PINK_MIN[k]}+" if area == "pink" and L.PINK_MIN[k] > 1
        else "")
    return "; ".join(near) if near else "none"
