"""The Twice As Clever score sheet as arrays, and the flat int64 sheet state (rules page
``docs/rules/twice-as-clever.md``; ``tests/games/test_tac_sheet.py`` checks every array
against ``clever-layouts.json``).

Dice (colour ids): WHITE 0, YELLOW 1, BLUE 2, GREEN 3, PINK 4, SILVER 5.
Areas: SILVER_AREA 0, YELLOW_AREA 1, BLUE_AREA 2, GREEN_AREA 3, PINK_AREA 4 (an area takes
the die of its colour; white is wild; blue always enters blue + white).

Silver: cell ``row * 6 + value - 1`` for the rows yellow, blue, green, pink.
Yellow: 10 cells (ids as in the JSON) that are first circled, then crossed::

    .  3  .  6    -> blue ?
    1  .  2  .    -> return
    .  4  .  3    -> yellow ?
    2  .  5  .    -> green ?
    .  5  .  4    -> pink ?
    re-roll | +1 | silver ? | fox   (columns)

Blue, green and pink are 12-slot tracks filled left to right.
Bonuses are the ints ``NO_BONUS`` (0) and the kinds below; a ``Q_*`` is a coloured "?"
(a free mark in that area, rules page section 6); ``Q_ANY`` is the black "?" of round 4.
"""

import numpy as np

from kernels.clever_base.sheet import (  # noqa: F401  (flags re-exported for callers)
    FLAG_EARLIEST_FIRST,
    FLAG_KEEP_OVERFLOW,
    H_BONUSES,
    H_FLAGS,
    H_FOXES,
    H_GAME,
    H_LOST,
    H_PLUS_GOT,
    H_PLUS_USED,
    H_REROLL_GOT,
    H_REROLL_USED,
    H_RETURN_GOT,
    H_RETURN_USED,
    H_ROUND,
    H_ROUNDS,
    HEADER_LEN,
    MAX_BONUS_KINDS,
    H_RULE_BITS,
    SHEET_LEN,
    TAC,
)

WHITE, YELLOW, BLUE, GREEN, PINK, SILVER = range(6)
N_DICE = 6
SILVER_AREA, YELLOW_AREA, BLUE_AREA, GREEN_AREA, PINK_AREA = range(5)
N_AREAS = 5
AREA_NAMES = ("silver", "yellow", "blue", "green", "pink")
DIE_NAMES = ("white", "yellow", "blue", "green", "pink", "silver")
DIE_AREA = np.array([-1, YELLOW_AREA, BLUE_AREA, GREEN_AREA, PINK_AREA, SILVER_AREA],
                    np.int64)  # white (-1) is wild
SILVER_ROW_OF_DIE = np.array([-1, 0, 1, 2, 3, -1], np.int64)  # platter chain: own row

NO_BONUS = 0
REROLL, PLUS_ONE, RETURN, FOX, Q_SILVER, Q_YELLOW, Q_BLUE, Q_GREEN, Q_PINK, Q_ANY = \
    range(1, 11)
N_BONUS_KINDS = Q_ANY + 1
assert N_BONUS_KINDS <= MAX_BONUS_KINDS
Q_OF_AREA = np.array([Q_SILVER, Q_YELLOW, Q_BLUE, Q_GREEN, Q_PINK], np.int64)
BONUS_NAMES = {REROLL: "re-roll", PLUS_ONE: "+1", RETURN: "return", FOX: "fox",
               Q_SILVER: "silver ?", Q_YELLOW: "yellow ?", Q_BLUE: "blue ?",
               Q_GREEN: "green ?", Q_PINK: "pink ?", Q_ANY: "black ?"}

SILVER_ROWS = 4
SILVER_COLUMN_BONUS = np.array([PLUS_ONE, Q_YELLOW, FOX, Q_BLUE, Q_GREEN, Q_PINK], np.int64)
SILVER_POINTS = np.array([0, 2, 4, 7, 11, 16, 22], np.int64)  # by marks in one row

YELLOW_CELLS = 10
YELLOW_VALUES = np.array([3, 6, 1, 2, 4, 3, 2, 5, 5, 4], np.int64)
YELLOW_CELL_ROW = np.array([0, 0, 1, 1, 2, 2, 3, 3, 4, 4], np.int64)
YELLOW_CELL_COL = np.array([1, 3, 0, 2, 1, 3, 0, 2, 1, 3], np.int64)
YELLOW_GROUPS = np.array([  # bit masks of cell ids: the five rows, then the four columns
    0b11, 0b11 << 2, 0b11 << 4, 0b11 << 6, 0b11 << 8,
    (1 << 2) | (1 << 6), (1 << 0) | (1 << 4) | (1 << 8), (1 << 3) | (1 << 7),
    (1 << 1) | (1 << 5) | (1 << 9)], np.int64)
YELLOW_GROUP_BONUS = np.array([Q_BLUE, RETURN, Q_YELLOW, Q_GREEN, Q_PINK,
                               REROLL, PLUS_ONE, Q_SILVER, FOX], np.int64)
YELLOW_POINTS = np.array([0, 3, 10, 21, 36, 55, 75, 96, 118, 141, 165], np.int64)

TRACK = 12
BLUE_BONUS = np.array([0, RETURN, Q_YELLOW, 0, PLUS_ONE, REROLL, Q_PINK, 0, FOX, RETURN, 0,
                       Q_GREEN], np.int64)
BLUE_POINTS = np.array([0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78], np.int64)
GREEN_MULTIPLIER = np.array([2, 2, 2, 1, 3, 3, 3, 2, 3, 1, 4, 1], np.int64)
GREEN_BONUS = np.array([0, REROLL, 0, Q_BLUE, RETURN, 0, FOX, Q_SILVER, PLUS_ONE, 0, Q_PINK,
                        Q_YELLOW], np.int64)  # pairs: slots (0, 1), (2, 3), ... (10, 11)
PINK_MIN = np.array([0, 0, 2, 3, 4, 5, 6, 2, 3, 4, 5, 6], np.int64)
PINK_BONUS = np.array([0, 0, REROLL, RETURN, PLUS_ONE, Q_GREEN, Q_YELLOW, FOX, Q_SILVER,
                       REROLL, Q_BLUE, Q_YELLOW], np.int64)

ACTION_SLOTS = 6
ROUNDS_BY_PLAYERS = np.array([0, 6, 6, 5, 4], np.int64)
ROUND_BONUS = np.array([REROLL, PLUS_ONE, RETURN, Q_ANY, 0, 0], np.int64)

# the flat sheet state (int64[SHEET_LEN]; a new sheet is ``new_sheet()``): the shared
# Clever header (``kernels.clever_base.sheet``), then the areas
S_ROUND, S_ROUNDS, S_FLAGS = H_ROUND, H_ROUNDS, H_FLAGS
S_REROLL_GOT, S_REROLL_USED = H_REROLL_GOT, H_REROLL_USED  # at most ACTION_SLOTS circled
S_PLUS_GOT, S_PLUS_USED = H_PLUS_GOT, H_PLUS_USED
S_RETURN_GOT, S_RETURN_USED = H_RETURN_GOT, H_RETURN_USED
S_FOXES, S_LOST, S_BONUSES = H_FOXES, H_LOST, H_BONUSES
S_SILVER = HEADER_LEN  # bit mask of marked silver cells (row * 6 + value - 1)
S_YELLOW_CIRCLED = HEADER_LEN + 1  # bit mask of circled yellow cells (crossed stay circled)
S_YELLOW_CROSSED = HEADER_LEN + 2  # bit mask of crossed yellow cells
S_BLUE = HEADER_LEN + 3  # written blue slots
S_GREEN = HEADER_LEN + 4  # written green slots
S_PINK = HEADER_LEN + 5  # written pink slots
S_BLUE_VALUES = HEADER_LEN + 6  # 12 written blue sums
S_GREEN_VALUES = S_BLUE_VALUES + TRACK  # 12 written green values (multiplier applied)
S_PINK_VALUES = S_GREEN_VALUES + TRACK  # 12 written pink values
USED_LEN = S_PINK_VALUES + TRACK  # the fields this sheet uses of the SHEET_LEN
assert USED_LEN <= H_RULE_BITS
FLAG_BLUE_Q_ANY = 4  # a blue ? may write any sum, ignoring the never-increasing rule
FLAG_FOX_FLOOR_ZERO = 8  # a negative lowest area makes foxes worth 0, not negative
FLAG_CHAIN_LEFTOVERS = 32  # a silver third pick chains every leftover die, not only lower
FLAG_FOX_ZERO_AREA = 64  # an area scoring exactly 0 makes foxes worth 0, even beside a
# negative one (the rulebook's "0 points in an area: foxes are worthless")


# the sheet's cells, one per printed box, for the record of which are marked (cell c is
# marked when bit CELL_BIT[c] of sheet[CELL_FIELD[c]] is set, or, with CELL_BIT -1, when
# sheet[CELL_FIELD[c]] exceeds CELL_INDEX[c]): silver row * 6 + value - 1, the yellow
# cells circled, then crossed, then the blue, green and pink slots
CELL_FIELD = np.array([S_SILVER] * 24 + [S_YELLOW_CIRCLED] * YELLOW_CELLS
                      + [S_YELLOW_CROSSED] * YELLOW_CELLS + [S_BLUE] * TRACK
                      + [S_GREEN] * TRACK + [S_PINK] * TRACK, np.int64)
CELL_BIT = np.array(list(range(24)) + list(range(YELLOW_CELLS)) * 2 + [-1] * (3 * TRACK),
                    np.int64)
CELL_INDEX = np.array([0] * (24 + 2 * YELLOW_CELLS) + list(range(TRACK)) * 3, np.int64)
N_CELLS = len(CELL_FIELD)


def new_sheet() -> np.ndarray:
    sheet = np.zeros(SHEET_LEN, np.int64)
    sheet[H_GAME] = TAC
    return sheet
