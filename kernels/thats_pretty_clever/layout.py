"""The That's Pretty Clever score sheet as arrays, and the flat int64 sheet state.

Dice (colour ids): WHITE 0, YELLOW 1, BLUE 2, GREEN 3, ORANGE 4, PURPLE 5.
Areas: YELLOW_AREA 0 .. PURPLE_AREA 4 (an area takes the die of its colour; white is wild;
blue always enters blue + white).

Yellow (cells 0..15 = row * 4 + col; 0 = pre-printed cross)::

    3  6  5  X   -> row bonus: blue X
    2  1  X  5   -> orange 4
    1  X  2  4   -> green X
    X  3  4  6   -> fox
    10 14 16 20  column points; main diagonal (3 1 2 6) -> +1

Blue (bit ``sum - 2`` for the sums 2..12)::

    .  2  3  4   -> orange 5
    5  6  7  8   -> yellow X
    9 10 11 12   -> fox
    re-roll | green X | purple 6 | +1   (columns)

Bonuses are ints ``kind * 8 + value`` (``bonus``), ``NO_BONUS`` = 0.
"""

import numpy as np

from kernels.clever_base.sheet import (  # noqa: F401  (flags re-exported for callers)
    FLAG_EARLIEST_FIRST,
    FLAG_KEEP_OVERFLOW,
    H_BONUSES,
    H_FLAGS,
    H_FOXES,
    H_LOST,
    H_PLUS_GOT,
    H_PLUS_USED,
    H_REROLL_GOT,
    H_REROLL_USED,
    H_ROUND,
    H_ROUNDS,
    HEADER_LEN,
    H_RULE_BITS,
    SHEET_LEN,
)

WHITE, YELLOW, BLUE, GREEN, ORANGE, PURPLE = range(6)
N_DICE = 6
YELLOW_AREA, BLUE_AREA, GREEN_AREA, ORANGE_AREA, PURPLE_AREA = range(5)
N_AREAS = 5
AREA_NAMES = ("yellow", "blue", "green", "orange", "purple")
DIE_NAMES = ("white", "yellow", "blue", "green", "orange", "purple")

# bonus kinds
NO_BONUS = 0
REROLL, PLUS_ONE, FOX, CROSS_YELLOW, CROSS_BLUE, CROSS_GREEN, WRITE_ORANGE, WRITE_PURPLE = \
    range(1, 9)
BONUS_NAMES = {REROLL: "re-roll", PLUS_ONE: "+1", FOX: "fox", CROSS_YELLOW: "yellow X",
               CROSS_BLUE: "blue X", CROSS_GREEN: "green X", WRITE_ORANGE: "orange",
               WRITE_PURPLE: "purple"}


def bonus(kind: int, value: int = 0) -> int:
    """Encode a bonus (``WRITE_*`` take the value to write)."""
    return kind * 8 + value


def bonus_label(code: int) -> str:
    kind, value = divmod(code, 8)
    if kind == NO_BONUS:
        return "-"
    return f"{BONUS_NAMES[kind]} {value}" if value else BONUS_NAMES[kind]


B = bonus
YELLOW_VALUES = np.array([3, 6, 5, 0, 2, 1, 0, 5, 1, 0, 2, 4, 0, 3, 4, 6], np.int64)
YELLOW_PREPRINTED = sum(1 << i for i in range(16) if YELLOW_VALUES[i] == 0)
YELLOW_ROWS = np.array([sum(1 << (4 * r + c) for c in range(4)) for r in range(4)], np.int64)
YELLOW_COLS = np.array([sum(1 << (4 * r + c) for r in range(4)) for c in range(4)], np.int64)
YELLOW_DIAGONAL = sum(1 << (5 * i) for i in range(4))
YELLOW_ROW_BONUS = np.array([B(CROSS_BLUE), B(WRITE_ORANGE, 4), B(CROSS_GREEN), B(FOX)],
                            np.int64)
YELLOW_COL_POINTS = np.array([10, 14, 16, 20], np.int64)
YELLOW_DIAGONAL_BONUS = B(PLUS_ONE)

BLUE_CELLS = (1 << 11) - 1  # every sum 2..12 has a cell
BLUE_ROWS = np.array([sum(1 << (s - 2) for s in row) for row in
                      ((2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12))], np.int64)
BLUE_COLS = np.array([sum(1 << (s - 2) for s in col) for col in
                      ((5, 9), (2, 6, 10), (3, 7, 11), (4, 8, 12))], np.int64)
BLUE_ROW_BONUS = np.array([B(WRITE_ORANGE, 5), B(CROSS_YELLOW), B(FOX)], np.int64)
BLUE_COL_BONUS = np.array([B(REROLL), B(CROSS_GREEN), B(WRITE_PURPLE, 6), B(PLUS_ONE)],
                          np.int64)
BLUE_POINTS = np.array([0, 1, 2, 4, 7, 11, 16, 22, 29, 37, 46, 56], np.int64)

TRACK = 11
GREEN_MIN = np.array([1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6], np.int64)
GREEN_BONUS = np.array([0, 0, 0, B(PLUS_ONE), 0, B(CROSS_BLUE), B(FOX), 0, B(WRITE_PURPLE, 6),
                        B(REROLL), 0], np.int64)
GREEN_POINTS = np.array([0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66], np.int64)
ORANGE_MULTIPLIER = np.array([1, 1, 1, 2, 1, 1, 2, 1, 2, 1, 3], np.int64)
ORANGE_BONUS = np.array([0, 0, B(REROLL), 0, B(CROSS_YELLOW), B(PLUS_ONE), 0, B(FOX), 0,
                         B(WRITE_PURPLE, 6), 0], np.int64)
PURPLE_BONUS = np.array([0, 0, B(REROLL), B(CROSS_BLUE), B(PLUS_ONE), B(CROSS_YELLOW), B(FOX),
                         B(REROLL), B(CROSS_GREEN), B(WRITE_ORANGE, 6), B(PLUS_ONE)], np.int64)

ROUNDS_BY_PLAYERS = np.array([0, 6, 6, 5, 4], np.int64)
ROUND_BONUS = np.array([B(REROLL), B(PLUS_ONE), B(REROLL), -1, 0, 0], np.int64)  # -1: choice
ROUND4_OPTIONS = np.array([B(CROSS_YELLOW), B(CROSS_BLUE), B(CROSS_GREEN), B(WRITE_ORANGE, 6),
                           B(WRITE_PURPLE, 6)], np.int64)
ACTION_SLOTS = 7

# the flat sheet state (int64[SHEET_LEN]; a new sheet is ``new_sheet()``): the shared
# Clever header (``kernels.clever_base.sheet``), then the areas
S_ROUND, S_ROUNDS, S_FLAGS = H_ROUND, H_ROUNDS, H_FLAGS
S_REROLL_GOT, S_REROLL_USED = H_REROLL_GOT, H_REROLL_USED  # at most ACTION_SLOTS circled
S_PLUS_GOT, S_PLUS_USED = H_PLUS_GOT, H_PLUS_USED
S_FOXES, S_LOST, S_BONUSES = H_FOXES, H_LOST, H_BONUSES
S_YELLOW = HEADER_LEN  # bit mask of marked yellow cells (pre-printed included)
S_BLUE = HEADER_LEN + 1  # bit mask of marked blue sums (bit sum - 2)
S_GREEN = HEADER_LEN + 2  # crossed green slots
S_ORANGE = HEADER_LEN + 3  # written orange slots
S_PURPLE = HEADER_LEN + 4  # written purple slots
S_ORANGE_VALUES = HEADER_LEN + 5  # 11 written orange values (multiplier applied)
S_PURPLE_VALUES = S_ORANGE_VALUES + TRACK  # 11 written purple values
USED_LEN = S_PURPLE_VALUES + TRACK  # the fields this sheet uses of the SHEET_LEN
assert USED_LEN <= H_RULE_BITS


# the sheet's cells, one per printed box, for the record of which are marked (cell c is
# marked when bit CELL_BIT[c] of sheet[CELL_FIELD[c]] is set, or, with CELL_BIT -1, when
# sheet[CELL_FIELD[c]] exceeds CELL_INDEX[c]): yellow 0..15, blue sums 2..12, then the
# green, orange and purple slots
CELL_FIELD = np.array([S_YELLOW] * 16 + [S_BLUE] * 11 + [S_GREEN] * TRACK
                      + [S_ORANGE] * TRACK + [S_PURPLE] * TRACK, np.int64)
CELL_BIT = np.array(list(range(16)) + list(range(11)) + [-1] * (3 * TRACK), np.int64)
CELL_INDEX = np.array([0] * 27 + list(range(TRACK)) * 3, np.int64)
N_CELLS = len(CELL_FIELD)


def new_sheet() -> np.ndarray:
    sheet = np.zeros(SHEET_LEN, np.int64)
    sheet[S_YELLOW] = YELLOW_PREPRINTED
    return sheet
