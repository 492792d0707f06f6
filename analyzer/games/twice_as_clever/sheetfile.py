"""A human-writable JSON score sheet for Twice As Clever, read into the kernels' flat sheet.

Format (every field optional except ``format``; rows and columns count from 1)::

    {
      "format": "dicelab-tac-sheet/1",
      "silver": {"yellow": [1, 3], "blue": [3], "green": [], "pink": [6]},
                                      # numbers marked in each silver row
      "yellow": {"circled": [[2, 1], [4, 1]], "crossed": [[2, 1]]},
                                      # yellow cells as [row, column] (rows 1-5, columns
                                      # 1-4 of the staggered lattice); crossed ones must
                                      # also be circled
      "blue": [11, 9, 9],             # written blue sums (never increasing)
      "green": [10, 4, 6],            # written green values (multipliers applied)
      "pink": [3, 5, 2],              # written pink faces
      "rerolls": {"unlocked": 2, "used": 1},
      "plus_ones": {"unlocked": 1, "used": 0},
      "returns": {"unlocked": 1, "used": 0}
    }

Foxes follow from the marks (silver column 3, yellow column 4, blue slot 9, green slot 7,
pink slot 8 with a 2 or more, the re-roll track's 6th circle), so they are not written.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from analyzer.games.clever.sheetfile import FieldReader
from analyzer.games.twice_as_clever.text import SILVER_ROW_NAMES
from kernels.twice_as_clever import layout as L

FORMAT = "dicelab-tac-sheet/1"
ACTIONS = (("rerolls", L.S_REROLL_GOT, L.S_REROLL_USED),
           ("plus_ones", L.S_PLUS_GOT, L.S_PLUS_USED),
           ("returns", L.S_RETURN_GOT, L.S_RETURN_USED))


def blank() -> dict[str, Any]:
    return {"format": FORMAT, "silver": {row: [] for row in SILVER_ROW_NAMES},
            "yellow": {"circled": [], "crossed": []}, "blue": [], "green": [], "pink": [],
            **{key: {"unlocked": 0, "used": 0} for key, _, _ in ACTIONS}}


def to_kernel(data: Any, source: str = "file", flags: int = 0) -> np.ndarray:
    """Validate a sheet document and build the kernels' flat sheet (foxes derived) with
    the rule ``flags`` (``S_FLAGS``)."""
    r = FieldReader(source)
    sheet = r.document(data, FORMAT, blank(), L, flags)
    silver = data.get("silver", {})
    if not isinstance(silver, dict) or set(silver) - set(SILVER_ROW_NAMES):
        raise r.fail("silver", f"expected an object with the rows "
                               f"{', '.join(SILVER_ROW_NAMES)}")
    for row, name in enumerate(SILVER_ROW_NAMES):
        values = silver.get(name, [])
        if not isinstance(values, list):
            raise r.fail(f"silver.{name}", "expected a list of numbers 1..6")
        for i, value in enumerate(values):
            field = f"silver.{name}[{i}]"
            sheet[L.S_SILVER] = r.add(sheet[L.S_SILVER],
                                      6 * row + r.whole(value, field, 1, 6) - 1, field, value)
    yellow = data.get("yellow", {})
    if not isinstance(yellow, dict) or set(yellow) - {"circled", "crossed"}:
        raise r.fail("yellow", "expected {\"circled\": [[row, column], ...], \"crossed\": "
                               "[...]}")
    circled = _yellow_cells(r, yellow.get("circled", []), "yellow.circled")
    crossed = _yellow_cells(r, yellow.get("crossed", []), "yellow.crossed")
    if crossed & ~circled:
        raise r.fail("yellow.crossed", "a crossed cell must also be listed as circled")
    sheet[L.S_YELLOW_CIRCLED], sheet[L.S_YELLOW_CROSSED] = circled, crossed
    blue = _track(r, data.get("blue", []), "blue", 2, 12)
    descending = not flags & L.FLAG_BLUE_Q_ANY  # else a blue ? may write a higher sum
    for i in range(1, len(blue)):
        if descending and blue[i] > blue[i - 1]:
            raise r.fail(f"blue[{i}]", f"{blue[i]} is higher than {blue[i - 1]}: blue sums "
                                       "never increase")
    green = _track(r, data.get("green", []), "green", 1, 24)
    for i, value in enumerate(green):
        mult = int(L.GREEN_MULTIPLIER[i])
        if value % mult or not 1 <= value // mult <= 6:
            raise r.fail(f"green[{i}]", f"{value} is not a die face 1..6 times the slot's "
                                        f"multiplier {mult}")
    pink = _track(r, data.get("pink", []), "pink", 1, 6)
    for count, values, field in ((L.S_BLUE, blue, L.S_BLUE_VALUES),
                                 (L.S_GREEN, green, L.S_GREEN_VALUES),
                                 (L.S_PINK, pink, L.S_PINK_VALUES)):
        sheet[count] = len(values)
        sheet[field:field + len(values)] = values
    for key, got, used in ACTIONS:
        sheet[got], sheet[used] = r.actions(data, key, L.ACTION_SLOTS)
    sheet[L.S_FOXES] = foxes(sheet)
    return sheet


def _yellow_cells(r: FieldReader, cells: Any, field: str) -> int:
    """A bit mask of yellow cells given as [row, column] pairs of the lattice."""
    if not isinstance(cells, list):
        raise r.fail(field, "expected a list of [row, column]")
    mask = 0
    for i, cell in enumerate(cells):
        if not isinstance(cell, list) or len(cell) != 2:
            raise r.fail(f"{field}[{i}]", "expected [row, column]")
        row = r.whole(cell[0], f"{field}[{i}][0]", 1, 5) - 1
        col = r.whole(cell[1], f"{field}[{i}][1]", 1, 4) - 1
        ids = np.nonzero((L.YELLOW_CELL_ROW == row) & (L.YELLOW_CELL_COL == col))[0]
        if ids.size == 0:
            raise r.fail(f"{field}[{i}]", f"row {row + 1} has no number in column {col + 1}")
        mask = r.add(mask, int(ids[0]), f"{field}[{i}]", cell)
    return mask


def _track(r: FieldReader, values: Any, name: str, low: int, high: int) -> list[int]:
    return [r.whole(v, f"{name}[{i}]", low, high)
            for i, v in enumerate(r.list(values, name, L.TRACK))]


ACTION_OF_KIND = {L.REROLL: ACTIONS[0], L.PLUS_ONE: ACTIONS[1], L.RETURN: ACTIONS[2]}


def kind_of(code: int) -> int:
    """The kind of a bonus code (``ACTION_OF_KIND``'s keys, ``L.FOX``, ...)."""
    return int(code)


def earned_bonuses(sheet: np.ndarray) -> list[int]:
    """The bonuses the marks of the areas have earned (rules page section 9): silver
    numbers marked in all four rows, yellow rows and columns all circled, every blue and
    green slot written, and each pink slot written with at least its minimum."""
    earned = [L.SILVER_COLUMN_BONUS[value - 1] for value in range(1, 7)
              if all((sheet[L.S_SILVER] >> (6 * row + value - 1)) & 1
                     for row in range(L.SILVER_ROWS))]
    circled = int(sheet[L.S_YELLOW_CIRCLED])
    earned += [b for g, b in zip(L.YELLOW_GROUPS, L.YELLOW_GROUP_BONUS) if circled & g == g]
    for count_at, track in ((L.S_BLUE, L.BLUE_BONUS), (L.S_GREEN, L.GREEN_BONUS)):
        earned += list(track[:sheet[count_at]])
    earned += [L.PINK_BONUS[s] for s in range(int(sheet[L.S_PINK]))
               if sheet[L.S_PINK_VALUES + s] >= L.PINK_MIN[s]]
    return [int(b) for b in earned if b]


def foxes(sheet: np.ndarray) -> int:
    """Foxes the marks have earned (rules page section 7), the re-roll track's last
    circle's among them."""
    return earned_bonuses(sheet).count(L.FOX) + int(sheet[L.S_REROLL_GOT] >= L.ACTION_SLOTS)


def marks(sheet: np.ndarray) -> int:
    """The marks written on a kernel sheet (a crossed yellow cell counts twice: it was
    circled first)."""
    return (bin(int(sheet[L.S_SILVER])).count("1")
            + bin(int(sheet[L.S_YELLOW_CIRCLED])).count("1")
            + bin(int(sheet[L.S_YELLOW_CROSSED])).count("1")
            + int(sheet[L.S_BLUE]) + int(sheet[L.S_GREEN]) + int(sheet[L.S_PINK]))


def _yellow_document(mask: int) -> list[list[int]]:
    return [[int(L.YELLOW_CELL_ROW[i]) + 1, int(L.YELLOW_CELL_COL[i]) + 1]
            for i in range(L.YELLOW_CELLS) if mask >> i & 1]


def to_document(sheet: np.ndarray) -> dict[str, Any]:
    """The sheet document of a kernel sheet (``to_kernel``'s inverse)."""
    silver = int(sheet[L.S_SILVER])

    def track(count_at: int, values_at: int) -> list[int]:
        return [int(v) for v in sheet[values_at:values_at + sheet[count_at]]]

    return {"format": FORMAT,
            "silver": {name: [v + 1 for v in range(6) if silver >> (6 * row + v) & 1]
                       for row, name in enumerate(SILVER_ROW_NAMES)},
            "yellow": {"circled": _yellow_document(int(sheet[L.S_YELLOW_CIRCLED])),
                       "crossed": _yellow_document(int(sheet[L.S_YELLOW_CROSSED]))},
            "blue": track(L.S_BLUE, L.S_BLUE_VALUES),
            "green": track(L.S_GREEN, L.S_GREEN_VALUES),
            "pink": track(L.S_PINK, L.S_PINK_VALUES),
            **{key: {"unlocked": int(sheet[got]), "used": int(sheet[used])}
               for key, got, used in ACTIONS}}
