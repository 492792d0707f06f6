"""A human-writable JSON score sheet for That's Pretty Clever, read into the kernels' flat
sheet and back.

Format (every field optional except ``format``; rows and columns count from 1)::

    {
      "format": "dicelab-tpc-sheet/1",
      "yellow": [[1, 1], [2, 2]],      # crossed yellow cells as [row, column]
      "blue": [2, 7, 12],              # crossed blue sums
      "green": 4,                      # crossed green slots
      "orange": [3, 5, 2, 8],          # numbers written in orange (multipliers applied)
      "purple": [2, 5, 6, 1],          # numbers written in purple
      "rerolls": {"unlocked": 2, "used": 1},
      "plus_ones": {"unlocked": 1, "used": 0}
    }

Foxes follow from the marks (yellow row 4, blue row 3, green slot 7, orange slot 8,
purple slot 7), so they are not written.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.games.clever.sheetfile import FieldReader
from kernels.thats_pretty_clever import layout as L

FORMAT = "dicelab-tpc-sheet/1"

ACTIONS = (("rerolls", L.S_REROLL_GOT, L.S_REROLL_USED),
           ("plus_ones", L.S_PLUS_GOT, L.S_PLUS_USED))
ACTION_OF_KIND = {L.REROLL: ACTIONS[0], L.PLUS_ONE: ACTIONS[1]}


def blank() -> dict[str, Any]:
    return {"format": FORMAT, "yellow": [], "blue": [], "green": 0, "orange": [],
            "purple": [], "rerolls": {"unlocked": 0, "used": 0},
            "plus_ones": {"unlocked": 0, "used": 0}}


def to_kernel(data: Any, source: str = "file", flags: int = 0) -> np.ndarray:
    """Validate a sheet document and build the kernels' flat sheet (foxes derived) with
    the rule ``flags`` (``S_FLAGS``)."""
    r = FieldReader(source)
    sheet = r.document(data, FORMAT, blank(), L, flags)
    for i, cell in enumerate(r.list(data.get("yellow", []), "yellow", 12, "[row, column]")):
        if not isinstance(cell, list) or len(cell) != 2:
            raise r.fail(f"yellow[{i}]", "expected [row, column]")
        row = r.whole(cell[0], f"yellow[{i}][0]", 1, 4)
        col = r.whole(cell[1], f"yellow[{i}][1]", 1, 4)
        index = 4 * (row - 1) + col - 1
        if L.YELLOW_VALUES[index] == 0:
            raise r.fail(f"yellow[{i}]", f"cell {cell} is pre-printed")
        sheet[L.S_YELLOW] = r.add(sheet[L.S_YELLOW], index, f"yellow[{i}]", cell)
    for i, total in enumerate(r.list(data.get("blue", []), "blue", 11, "sums")):
        sheet[L.S_BLUE] = r.add(sheet[L.S_BLUE], r.whole(total, f"blue[{i}]", 2, 12) - 2,
                                f"blue[{i}]", total)
    green = r.whole(data.get("green", 0), "green", 0, L.TRACK)
    sheet[L.S_GREEN] = green
    _track(r, data.get("orange", []), "orange", sheet, L.S_ORANGE, L.S_ORANGE_VALUES)
    _track(r, data.get("purple", []), "purple", sheet, L.S_PURPLE, L.S_PURPLE_VALUES)
    for key, got, used in ACTIONS:
        sheet[got], sheet[used] = r.actions(data, key, L.ACTION_SLOTS)
    sheet[L.S_FOXES] = foxes(sheet)
    return sheet


def _track(r: FieldReader, values: Any, name: str, sheet, count_at: int, values_at: int) -> None:
    for i, v in enumerate(r.list(values, name, L.TRACK)):
        if name == "orange":
            mult = int(L.ORANGE_MULTIPLIER[i])
            if isinstance(v, bool) or not isinstance(v, int) or v % mult or not \
                    1 <= v // mult <= 6:
                raise r.fail(f"orange[{i}]", f"{v!r} is not a die face 1..6 times the slot's "
                                             f"multiplier {mult}")
        else:
            r.whole(v, f"purple[{i}]", 1, 6)
            if i > 0 and values[i - 1] != 6 and v <= values[i - 1]:
                raise r.fail(f"purple[{i}]", f"{v} is not higher than {values[i - 1]}")
        sheet[values_at + i] = v
    sheet[count_at] = len(values)


def kind_of(code: int) -> int:
    """The kind of a bonus code (``ACTION_OF_KIND``'s keys, ``L.FOX``, ...)."""
    return int(code) // 8


def earned_bonuses(sheet: np.ndarray) -> list[int]:
    """The bonuses the marks have earned (rules page section 9): yellow rows and the
    diagonal, blue rows and columns completed, and the green, orange and purple slots
    filled."""
    yellow, blue = int(sheet[L.S_YELLOW]), int(sheet[L.S_BLUE])
    earned = [b for g, b in zip(L.YELLOW_ROWS, L.YELLOW_ROW_BONUS) if yellow & g == g]
    earned += [L.YELLOW_DIAGONAL_BONUS] * (yellow & L.YELLOW_DIAGONAL == L.YELLOW_DIAGONAL)
    for groups, bonuses in ((L.BLUE_ROWS, L.BLUE_ROW_BONUS), (L.BLUE_COLS, L.BLUE_COL_BONUS)):
        earned += [b for g, b in zip(groups, bonuses) if blue & g == g]
    for count_at, track in ((L.S_GREEN, L.GREEN_BONUS), (L.S_ORANGE, L.ORANGE_BONUS),
                            (L.S_PURPLE, L.PURPLE_BONUS)):
        earned += list(track[:sheet[count_at]])
    return [int(b) for b in earned if b]


def foxes(sheet: np.ndarray) -> int:
    """Foxes the marks have earned (rules page section 9)."""
    return [kind_of(b) for b in earned_bonuses(sheet)].count(L.FOX)


def marks(sheet: np.ndarray) -> int:
    """The marks written on a kernel sheet (pre-printed yellow cells not counted)."""
    return (bin(int(sheet[L.S_YELLOW]) & ~L.YELLOW_PREPRINTED).count("1")
            + bin(int(sheet[L.S_BLUE])).count("1") + int(sheet[L.S_GREEN])
            + int(sheet[L.S_ORANGE]) + int(sheet[L.S_PURPLE]))


def to_document(sheet: np.ndarray) -> dict[str, Any]:
    """The sheet document of a kernel sheet (``to_kernel``'s inverse)."""
    yellow = int(sheet[L.S_YELLOW]) & ~L.YELLOW_PREPRINTED
    blue = int(sheet[L.S_BLUE])
    return {"format": FORMAT,
            "yellow": [[i // 4 + 1, i % 4 + 1] for i in range(16) if yellow >> i & 1],
            "blue": [s + 2 for s in range(11) if blue >> s & 1],
            "green": int(sheet[L.S_GREEN]),
            "orange": [int(v) for v in sheet[L.S_ORANGE_VALUES:
                                             L.S_ORANGE_VALUES + sheet[L.S_ORANGE]]],
            "purple": [int(v) for v in sheet[L.S_PURPLE_VALUES:
                                             L.S_PURPLE_VALUES + sheet[L.S_PURPLE]]],
            **{key: {"unlocked": int(sheet[got]), "used": int(sheet[used])}
               for key, got, used in ACTIONS}}
