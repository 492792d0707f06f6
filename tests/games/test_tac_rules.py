"""Twice As Clever: recorded positions for ``kernels.twice_as_clever.rules`` (rules page
``docs/rules/twice-as-clever.md``). Each test starts from ``layout.new_sheet()``, applies
dice entries and bonus resolutions, and checks the exact sheet fields, pending bonuses and
scores. Each test names the section it checks.

Expected numbers are taken from the rules page, not from ``layout``; slots, rows and columns
are counted from 1 in the docstrings (as on the page) and from 0 in the code."""

import numpy as np
import pytest

from kernels.twice_as_clever import layout as L
from kernels.twice_as_clever import rules as R
from tests.games.sheet_position import SheetPosition, bits, sums

SV, Y, B, G, P = L.SILVER_AREA, L.YELLOW_AREA, L.BLUE_AREA, L.GREEN_AREA, L.PINK_AREA
REROLL, PLUS, RETURN, FOX = L.REROLL, L.PLUS_ONE, L.RETURN, L.FOX
QS, QY, QB, QG, QP, QANY = L.Q_SILVER, L.Q_YELLOW, L.Q_BLUE, L.Q_GREEN, L.Q_PINK, L.Q_ANY
NO_CHOICE = (REROLL, PLUS, RETURN, FOX)

# 8.2: the yellow lattice as printed, cell id -> (row, column, value), 1-based; ids in
# reading order (as in clever-layouts.json)
YELLOW_PAGE = {0: (1, 2, 3), 1: (1, 4, 6), 2: (2, 1, 1), 3: (2, 3, 2), 4: (3, 2, 4),
               5: (3, 4, 3), 6: (4, 1, 2), 7: (4, 3, 5), 8: (5, 2, 5), 9: (5, 4, 4)}
ALL_YELLOW = (1 << 10) - 1
ALL_SILVER = (1 << 24) - 1


def sc(row, value):
    """Silver cell: rows yellow 0, blue 1, green 2, pink 3 (8.1); value 1-6."""
    return 6 * row + value - 1


class Pos(SheetPosition):
    """A sheet and its pending-bonus stack."""

    layout, rules = L, R

    def silver(self, value, *rows):
        for r in rows:
            self.enter(SV, value, r)
        return self

    def yellow(self, *cells):
        for c in cells:
            self.enter(Y, YELLOW_PAGE[c][2], c)
        return self

    def blue(self, *sums):
        for s in sums:
            self.enter(B, s)
        return self

    def green(self, *faces):
        for f in faces:
            self.enter(G, f)
        return self

    def pink(self, *faces):
        for f in faces:
            self.enter(P, f)
        return self

    def drain(self):
        """Resolve pending bonuses that need no choice (set-up helper)."""
        while self.n:
            assert self.pending[self.n - 1] in NO_CHOICE, self.stack()
            self.pop()
        return self

    def values(self, area):
        start, count = {B: (L.S_BLUE_VALUES, L.S_BLUE), G: (L.S_GREEN_VALUES, L.S_GREEN),
                        P: (L.S_PINK_VALUES, L.S_PINK)}[area]
        return [int(x) for x in self.sheet[start:start + self.sheet[count]]]


def faces(*f):
    return sum(1 << (v - 1) for v in f)


def cells_where(pos, n):
    """Yellow cell ids in page row (pos 0) or column (pos 1) ``n``."""
    return tuple(c for c, rcv in YELLOW_PAGE.items() if rcv[pos] == n)


# --- 8.1 silver -----------------------------------------------------------------------------

@pytest.mark.parametrize("row", range(4))
def test_8_1_silver_marks_its_number_in_any_row(row):
    """8.1: a silver die marks its number in any row where it is still open (player's
    choice); the other rows and numbers stay open; one mark scores 2."""
    p = Pos()
    for v in range(1, 7):
        assert R.silver_rows(p.sheet, v) == 0b1111
    p.silver(4, row)
    assert p.f(L.S_SILVER) == 1 << sc(row, 4)
    assert R.silver_rows(p.sheet, 4) == 0b1111 & ~(1 << row)
    assert all(R.silver_rows(p.sheet, v) == 0b1111 for v in (1, 2, 3, 5, 6))
    assert R.can_enter(p.sheet, SV, 4)
    assert p.stack() == [] and p.scores() == [2, 0, 0, 0, 0]


@pytest.mark.parametrize("value,code", [
    (1, PLUS), (2, QY), (3, FOX), (4, QB), (5, QG), (6, QP)])
def test_8_1_silver_column_bonus_when_all_four_rows_marked(value, code):
    """8.1: a number marked in all four rows pays +1 / yellow ? / fox / blue ? / green ? /
    pink ? (numbers 1-6), once, on the fourth mark (rows in any order)."""
    p = Pos().silver(value, 2, 0, 3)
    assert p.stack() == []
    assert R.silver_rows(p.sheet, value) == 0b0010
    p.silver(value, 1)
    assert p.stack() == [code]
    assert p.f(L.S_SILVER) == sum(1 << sc(r, value) for r in range(4))
    assert p.scores()[SV] == 4 * 2


@pytest.mark.parametrize("value", range(1, 7))
def test_8_1_silver_die_refused_when_number_full_in_all_rows(value):
    """8.1 / 12.6: once a number is marked in all four rows the silver die showing it may
    not be chosen at all; the other numbers stay legal."""
    p = Pos().silver(value, 0, 1, 2, 3)
    assert R.silver_rows(p.sheet, value) == 0
    assert not R.can_enter(p.sheet, SV, value)
    for other in range(1, 7):
        if other != value:
            assert R.can_enter(p.sheet, SV, other)


def test_8_1_12_6_wasted_pick_never_takes_the_silver_die():
    """8.1 / 12.6: with wasted picks allowed, a die with no legal place may be picked and
    entered nowhere, but not the silver die whose number is full in all four rows (it
    "cannot be chosen")."""
    from kernels.clever.moves import MAX_MOVES, legal_moves
    p = Pos().silver(6, 0, 1, 2, 3)
    faces = np.array([1, 1, 1, 1, 1, 6], np.int64)
    moves = np.zeros((MAX_MOVES, 3), np.int64)
    n = legal_moves(p.sheet, faces, 1 << L.SILVER, moves, True)
    assert n == 0
    p.sheet[L.S_YELLOW_CROSSED] = p.sheet[L.S_YELLOW_CIRCLED] = (1 << L.YELLOW_CELLS) - 1
    n = legal_moves(p.sheet, faces, 1 << L.YELLOW, moves, True)  # yellow is full
    assert [tuple(m) for m in moves[:n] if m[1] == -1] == [(1, -1, -1)]


def test_8_1_silver_row_scoring_table():
    """8.1: one row scores 2 4 7 11 16 22 for 1-6 marks."""
    p = Pos()
    table = [2, 4, 7, 11, 16, 22]
    for k, v in enumerate([6, 1, 4, 2, 5, 3]):
        p.silver(v, 1)
        assert p.scores() == [table[k], 0, 0, 0, 0], k
    assert p.stack() == []


def test_8_1_silver_rows_scored_separately_max_88():
    """8.1: rows are scored separately then summed (3 marks in row 1 and 2 in row 4 are
    7 + 4 = 11, not 16); a full grid is 4 x 22 = 88 and pays all six column bonuses."""
    p = Pos().silver(1, 0).silver(2, 0).silver(3, 0).silver(5, 3).silver(6, 3)
    assert p.scores()[SV] == 11
    p = Pos()
    for v in range(1, 7):
        p.silver(v, 0, 1, 2, 3)
    assert p.f(L.S_SILVER) == ALL_SILVER
    assert p.scores() == [88, 0, 0, 0, 0]
    assert p.stack() == [PLUS, QY, FOX, QB, QG, QP]
    assert not any(R.can_enter(p.sheet, SV, v) for v in range(1, 7))


# --- 8.2 yellow -----------------------------------------------------------------------------

def test_8_2_yellow_page_values_by_cell():
    """8.2: 1 and 6 are printed once, 2-5 twice; a die of value v may mark exactly the
    cells printed v."""
    p = Pos()
    for v in range(1, 7):
        expect = bits(*(c for c, (_, _, val) in YELLOW_PAGE.items() if val == v))
        assert R.yellow_cells(p.sheet, v) == expect, v
        assert bin(expect).count("1") == (1 if v in (1, 6) else 2)


def test_8_2_yellow_circle_then_cross_only_crosses_score():
    """8.2: a 3 first circles an uncircled 3 (no points), a second 3 may cross that circled
    cell (3 points); a crossed cell takes nothing more. The single 1 is then closed."""
    p = Pos()
    p.yellow(0)
    assert (p.f(L.S_YELLOW_CIRCLED), p.f(L.S_YELLOW_CROSSED)) == (bits(0), 0)
    assert p.scores()[Y] == 0
    assert R.yellow_cells(p.sheet, 3) == bits(0, 5)  # cross cell 0 or circle cell 5
    p.yellow(0)
    assert (p.f(L.S_YELLOW_CIRCLED), p.f(L.S_YELLOW_CROSSED)) == (bits(0), bits(0))
    assert p.scores() == [0, 3, 0, 0, 0]
    assert R.yellow_cells(p.sheet, 3) == bits(5)
    p.yellow(2, 2)  # the only 1: circled, then crossed
    assert not R.can_enter(p.sheet, Y, 1)
    assert p.scores()[Y] == 10 and p.stack() == []


def test_8_2_yellow_count_table_max_165():
    """8.2: circling all ten cells scores 0; then 1..10 crosses score 3 10 21 36 55 75 96
    118 141 165; crossing pays no bonus."""
    p = Pos().yellow(*range(10))
    assert p.f(L.S_YELLOW_CIRCLED) == ALL_YELLOW and p.scores()[Y] == 0
    p.n = 0  # the line bonuses are checked below
    table = [3, 10, 21, 36, 55, 75, 96, 118, 141, 165]
    for k, c in enumerate([9, 0, 5, 2, 7, 4, 1, 8, 3, 6]):
        p.yellow(c)
        assert p.scores() == [0, table[k], 0, 0, 0], k
    assert p.f(L.S_YELLOW_CROSSED) == ALL_YELLOW and p.stack() == []
    assert not any(R.can_enter(p.sheet, Y, v) for v in range(1, 7))


@pytest.mark.parametrize("row,code", [(1, QB), (2, RETURN), (3, QY), (4, QG), (5, QP)])
def test_8_2_yellow_row_bonus_when_all_circled(row, code):
    """8.2: rows 1-5 pay blue ? / return / yellow ? / green ? / pink ? once both their
    numbers are circled (no cross needed); crossing them later pays nothing again."""
    a, b = cells_where(0, row)
    p = Pos().yellow(a)
    assert p.stack() == []
    p.yellow(b)
    assert p.stack() == [code]
    assert p.f(L.S_YELLOW_CROSSED) == 0 and p.scores()[Y] == 0
    p.yellow(a, b)
    assert p.stack() == [code] and p.scores()[Y] == 10


@pytest.mark.parametrize("col,code", [(1, REROLL), (2, PLUS), (3, QS), (4, FOX)])
def test_8_2_yellow_column_bonus_when_all_circled(col, code):
    """8.2: columns 1-4 ({1,2}, {3,4,5}, {2,5}, {6,3,4}) pay re-roll / +1 / silver ? / fox
    once all their numbers are circled; crossing them later pays nothing again."""
    cells = cells_where(1, col)
    assert [YELLOW_PAGE[c][2] for c in cells] == \
        {1: [1, 2], 2: [3, 4, 5], 3: [2, 5], 4: [6, 3, 4]}[col]
    p = Pos().yellow(*cells[:-1])
    assert p.stack() == []
    p.yellow(cells[-1])
    assert p.stack() == [code]
    p.yellow(*cells)
    assert p.stack() == [code]


def test_8_2_yellow_crossed_cell_counts_as_circled():
    """6 / 8.2: row 2 (1, 2): the 1 circled then crossed, then the 2 circled -> the row's
    return is paid (crossed counts as circled); crossing the 2 pays nothing more."""
    p = Pos().yellow(2, 2)
    assert p.f(L.S_YELLOW_CROSSED) == bits(2) and p.stack() == []
    p.yellow(3)
    assert p.stack() == [RETURN]
    p.yellow(3)
    assert p.stack() == [RETURN] and p.scores()[Y] == 10


def test_8_2_yellow_all_nine_lines_pay_once():
    """8.2: circling all ten numbers completes five rows and four columns: nine bonuses,
    each exactly once."""
    p = Pos().yellow(*range(10))
    assert sorted(p.stack()) == sorted([QB, RETURN, QY, QG, QP, REROLL, PLUS, QS, FOX])


def test_6_yellow_cell_completing_row_and_column_pushes_both():
    """6 / 8.2: the 4 of row 5 completes row 5 (with the 5) and column 4 (with 6 and 3):
    pink ? and fox (order UNCONFIRMED, so only the multiset is checked)."""
    p = Pos().yellow(8, 1, 5)
    assert p.stack() == []
    p.yellow(9)
    assert sorted(p.stack()) == sorted([QP, FOX])


# --- 8.3 blue -------------------------------------------------------------------------------

@pytest.mark.parametrize("total", range(2, 13))
def test_8_3_blue_first_slot_any_sum_then_never_increasing(total):
    """8.3: the first slot takes any sum 2-12; the next must be <= it (equal allowed)."""
    p = Pos()
    assert R.can_enter(p.sheet, B, total)
    p.blue(total)
    assert p.values(B) == [total]
    assert R.can_enter(p.sheet, B, total)
    assert not R.can_enter(p.sheet, B, total + 1)
    assert all(R.can_enter(p.sheet, B, s) for s in range(2, total + 1))
    assert p.scores() == [0, 0, 1, 0, 0]


def test_8_3_blue_descent_sequence():
    """8.3: 9, 9, 7 is legal; then 8 is refused, 7 and 2 are allowed; after 2 only 2."""
    p = Pos().blue(9, 9, 7)
    assert p.values(B) == [9, 9, 7]
    assert not R.can_enter(p.sheet, B, 8)
    assert R.can_enter(p.sheet, B, 7) and R.can_enter(p.sheet, B, 2)
    p.n = 0  # slots 2 and 3 (checked in test_8_3_blue_slot_bonuses)
    p.blue(2)
    assert [R.can_enter(p.sheet, B, s) for s in (2, 3)] == [True, False]


def test_8_3_blue_slot_bonuses():
    """8.3: blue slots 2 return, 3 yellow ?, 5 +1, 6 re-roll, 7 pink ?, 9 fox, 10 return,
    12 green ?; a full track takes nothing."""
    p = Pos()
    got = p.pushed_by_each(12, lambda: p.blue(12))
    assert got == [[], [RETURN], [QY], [], [PLUS], [REROLL], [QP], [], [FOX], [RETURN], [],
                   [QG]]
    assert not R.can_enter(p.sheet, B, 2)


def test_8_3_blue_count_table_max_78():
    """8.3: blue scores by the number of filled slots: 1 3 6 10 15 21 28 36 45 55 66 78,
    whatever the sums written."""
    table = [1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66, 78]
    p, q = Pos(), Pos()
    for k, s in enumerate([12, 11, 11, 10, 8, 8, 7, 6, 5, 4, 3, 2]):
        p.blue(s)
        q.blue(2)
        assert p.scores() == q.scores() == [0, 0, table[k], 0, 0], k


# --- 8.4 green ------------------------------------------------------------------------------

def test_8_4_green_multipliers():
    """8.4: each slot gets face x 2 2 2 1 3 3 3 2 3 1 4 1."""
    p = Pos()
    p.green(5, 4, 3, 6, 2, 1, 6, 5, 4, 3, 2, 1)
    p.n = 0
    assert p.values(G) == [10, 8, 6, 6, 6, 3, 18, 10, 12, 3, 8, 1]
    assert not R.can_enter(p.sheet, G, 6)


def test_8_4_green_pair_is_first_minus_second_incomplete_pair_zero():
    """8.4: pair A = 6x2 - 1x2 = 10; a lone first slot of pair B (6x2) scores 0 until its
    second is written (6 - 1x1 = 11, total 21)."""
    p = Pos().green(6)
    assert p.scores()[G] == 0
    p.green(1).drain()  # slot 2: re-roll
    assert p.scores() == [0, 0, 0, 10, 0]
    p.green(6)
    assert p.values(G) == [12, 2, 12] and p.scores()[G] == 10
    p.green(1)
    assert p.scores()[G] == 10 + 11


def test_8_4_green_negative_pair_counts():
    """8.4: pair A = 1x2 - 6x2 = -10 (negative results count)."""
    p = Pos().green(1, 6).drain()
    assert p.values(G) == [2, 12] and p.scores() == [0, 0, 0, -10, 0]
    assert p.total() == -10


def test_8_4_green_range_92_and_minus_43():
    """8.4 / 13: 6,1 in every pair scores 10+11+15+16+17+23 = 92; 1,6 scores
    -10-4-15-9-3-2 = -43."""
    hi = Pos().green(*[6, 1] * 6)
    lo = Pos().green(*[1, 6] * 6)
    assert hi.scores()[G] == 92 and lo.scores()[G] == -43


def test_8_4_green_slot_bonuses_paid_even_if_pair_incomplete():
    """8.4: green slots 2 re-roll, 4 blue ?, 5 return, 7 fox, 8 silver ?, 9 +1, 11 pink ?,
    12 yellow ?; slots 5, 7, 9 and 11 pay although their pair is still open (and score 0)."""
    p = Pos()
    got = p.pushed_by_each(12, lambda: p.green(3))
    assert got == [[], [REROLL], [], [QB], [RETURN], [], [FOX], [QS], [PLUS], [], [QP], [QY]]
    q = Pos().green(6, 1, 6, 1)
    q.n = 0  # slots 2 and 4
    q.green(6)
    assert q.stack() == [RETURN]  # slot 5 alone: pair C incomplete
    assert q.scores()[G] == 10 + 11


# --- 8.5 pink -------------------------------------------------------------------------------

def test_8_5_pink_any_face_sum_scores_max_72():
    """8.5: any face goes in the next slot (no order rule); score = sum; 12 sixes = 72."""
    p = Pos()
    for v in [6, 1, 6, 2, 1, 5, 3, 3, 6, 1, 4, 2]:
        assert all(R.can_enter(p.sheet, P, f) for f in range(1, 7))
        p.pink(v)
    p.n = 0
    assert p.scores()[P] == 40
    assert not R.can_enter(p.sheet, P, 1)
    assert Pos().pink(*[6] * 12).scores()[P] == 72


@pytest.mark.parametrize("slot,need,code", [
    (3, 2, REROLL), (4, 3, RETURN), (5, 4, PLUS), (6, 5, QG), (7, 6, QY), (8, 2, FOX),
    (9, 3, QS), (10, 4, REROLL), (11, 5, QB), (12, 6, QY)])
def test_8_5_pink_bonus_only_at_or_above_minimum(slot, need, code):
    """8.5: pink slot bonus paid only if the value written is >= the printed minimum."""
    def upto():
        return Pos().pink(*[1] * (slot - 1))  # 1 is below every minimum: no bonuses
    below, at, six = upto(), upto(), upto()
    assert below.stack() == []
    below.pink(need - 1)
    at.pink(need)
    six.pink(6)
    assert below.stack() == [] and at.stack() == [code] and six.stack() == [code]
    assert below.values(P)[-1] == need - 1 and at.scores()[P] == slot - 1 + need


def test_8_5_pink_slots_1_2_have_no_bonus():
    """8.5: pink slots 1 and 2 pay nothing, even for a 6."""
    p = Pos().pink(6, 6)
    assert p.stack() == [] and p.values(P) == [6, 6]


# --- 5 action tracks ------------------------------------------------------------------------

TRACKS = [(REROLL, L.S_REROLL_GOT, FOX), (RETURN, L.S_RETURN_GOT, QP),
          (PLUS, L.S_PLUS_GOT, QS)]


@pytest.mark.parametrize("code,field,last", TRACKS)
def test_5_action_track_six_circles_sixth_pays(code, field, last):
    """5: six circles per track; circling the 6th pays fox (re-roll) / pink ? (return) /
    silver ? (+1) at once; a 7th unlock is lost and pays nothing again (12.7)."""
    p = Pos()
    for k in range(1, 6):
        p.give(code)
        assert p.f(field) == k and p.stack() == []
    p.give(code)
    assert p.f(field) == 6 and p.stack() == [last]
    p.give(code)
    assert p.f(field) == 6 and p.f(L.S_LOST) == 1 and p.stack() == [last]


@pytest.mark.parametrize("code,field,last", TRACKS)
def test_12_7_action_overflow_kept_with_flag(code, field, last):
    """12.7: with ``FLAG_KEEP_OVERFLOW`` a 7th and 8th unlock are kept (no loss); the 6th
    circle's bonus is still paid once."""
    p = Pos(L.FLAG_KEEP_OVERFLOW)
    for _ in range(8):
        p.give(code)
    assert p.f(field) == 8 and p.f(L.S_LOST) == 0 and p.stack() == [last]


def test_5_sixth_circle_bonuses_resolved():
    """5: re-roll 6th -> a fox; return 6th -> pink ? (a 4 in pink slot 1); +1 6th ->
    silver ? (any open cell: pink row 6)."""
    p = Pos()
    for _ in range(6):
        p.give(REROLL)
    assert p.pop() == FOX and p.f(L.S_FOXES) == 1
    for _ in range(6):
        p.give(RETURN)
    assert R.bonus_choices(p.sheet, QP) == faces(1, 2, 3, 4, 5, 6)
    assert p.pop(choice=4) == QP and p.values(P) == [4]
    for _ in range(6):
        p.give(PLUS)
    assert R.bonus_choices(p.sheet, QS) == ALL_SILVER
    assert p.pop(choice=sc(3, 6)) == QS and p.f(L.S_SILVER) == 1 << sc(3, 6)
    assert p.stack() == [] and p.f(L.S_LOST) == 0


def test_5_sixth_circle_reached_by_a_sheet_bonus():
    """5 / 6: five +1s circled; green slot 9 (+1) circles the 6th, whose silver ? marks the
    last open 1 (yellow row) -> silver number 1 complete -> another +1, lost (track full)."""
    p = Pos()
    for _ in range(5):
        p.give(PLUS)
    p.silver(1, 1, 2, 3)
    p.green(*[6] * 8)
    p.n = 0
    p.green(6)
    assert p.stack() == [PLUS]
    assert p.pop() == PLUS and p.f(L.S_PLUS_GOT) == 6 and p.stack() == [QS]
    assert p.pop(choice=sc(0, 1)) == QS and p.stack() == [PLUS]
    assert p.pop() == PLUS
    assert p.f(L.S_PLUS_GOT) == 6 and p.f(L.S_LOST) == 1 and p.stack() == []


# --- 6 the "?" bonuses ----------------------------------------------------------------------

def test_6_silver_q_marks_any_open_cell():
    """6: silver ? marks any open silver cell (any row, any number)."""
    p = Pos().silver(2, 1)
    assert R.bonus_choices(p.sheet, QS) == ALL_SILVER & ~(1 << sc(1, 2))
    p.give(QS, sc(2, 5))
    assert p.f(L.S_SILVER) == (1 << sc(1, 2)) | (1 << sc(2, 5))
    assert p.stack() == [] and p.scores()[SV] == 4


def test_6_yellow_q_circles_or_crosses():
    """6: yellow ? circles any uncircled number or crosses any circled one (ignoring the
    dice); a crossed number is no longer a choice."""
    p = Pos()
    assert R.bonus_choices(p.sheet, QY) == ALL_YELLOW
    p.give(QY, 4)
    assert (p.f(L.S_YELLOW_CIRCLED), p.f(L.S_YELLOW_CROSSED)) == (bits(4), 0)
    p.give(QY, 4)
    assert (p.f(L.S_YELLOW_CIRCLED), p.f(L.S_YELLOW_CROSSED)) == (bits(4), bits(4))
    assert R.bonus_choices(p.sheet, QY) == ALL_YELLOW & ~bits(4)
    assert p.scores()[Y] == 3


def test_6_yellow_q_not_lost_while_a_circled_number_is_uncrossed():
    """6: with every number circled, a yellow ? can still cross one."""
    p = Pos().yellow(*range(10))
    p.n = 0
    assert R.bonus_choices(p.sheet, QY) == ALL_YELLOW
    p.give(QY, 7)
    assert p.f(L.S_YELLOW_CROSSED) == bits(7) and p.f(L.S_LOST) == 0


def test_12_2_blue_q_honours_descent_by_default():
    """6 / 12.2: a blue ? on the first slot may write any sum 2-12; after a 7 it may write
    only 2-7 (7 included); a 5 is written in slot 2 (return)."""
    p = Pos()
    assert R.bonus_choices(p.sheet, QB) == sums(*range(2, 13))
    p.blue(7)
    assert R.bonus_choices(p.sheet, QB) == sums(*range(2, 8))
    p.give(QB, 5)
    assert p.values(B) == [7, 5] and p.stack() == [RETURN]
    p.drain().blue(2)
    assert R.bonus_choices(p.sheet, QB) == sums(2)  # never lost while a slot is free


def test_12_2_blue_q_any_sum_with_flag():
    """12.2: with ``FLAG_BLUE_Q_ANY`` a blue ? after a 7 may write 11; the dice then
    descend from the 11."""
    p = Pos(L.FLAG_BLUE_Q_ANY).blue(7)
    assert R.bonus_choices(p.sheet, QB) == sums(*range(2, 13))
    p.give(QB, 11)
    assert p.values(B) == [7, 11]
    assert R.can_enter(p.sheet, B, 11) and not R.can_enter(p.sheet, B, 12)


def test_6_green_q_face_times_next_multiplier():
    """6: green ? writes a chosen face x the next slot's multiplier (4 on slot 5, x3 = 12)
    and pays that slot's bonus (return)."""
    p = Pos().green(1, 1, 1, 1)
    p.n = 0
    assert R.bonus_choices(p.sheet, QG) == faces(1, 2, 3, 4, 5, 6)
    p.give(QG, 4)
    assert p.values(G)[-1] == 12 and p.stack() == [RETURN]


def test_6_pink_q_bonus_still_needs_minimum():
    """6 / 8.5: pink ? writes a chosen face; slot 3's re-roll needs >= 2."""
    low = Pos().pink(1, 1).give(QP, 1)
    high = Pos().pink(1, 1).give(QP, 2)
    assert low.values(P) == [1, 1, 1] and low.stack() == []
    assert high.values(P) == [1, 1, 2] and high.stack() == [REROLL]


@pytest.mark.parametrize("area,code", [(SV, QS), (Y, QY), (B, QB), (G, QG), (P, QP)])
def test_3_6_black_q_choose_area_pushes_its_q(area, code):
    """3 / 6: round 4's black ? is any one coloured ?: choosing an area pushes that area's
    ? (resolved next)."""
    assert int(L.ROUND_BONUS[3]) == QANY
    p = Pos()
    assert R.bonus_choices(p.sheet, QANY) == bits(SV, Y, B, G, P)
    p.give(QANY, area)
    assert p.stack() == [code] and p.f(L.S_LOST) == 0


def test_6_black_q_offers_only_areas_that_can_take_a_mark():
    """6: with silver and blue full the black ? offers yellow, green and pink; a green
    choice then writes green slot 1 (a 5 x2 = 10)."""
    p = Pos()
    p.sheet[L.S_SILVER] = ALL_SILVER
    p.sheet[L.S_BLUE] = 12
    assert R.bonus_choices(p.sheet, QANY) == bits(Y, G, P)
    p.give(QANY, G)
    assert p.pop(choice=5) == QG
    assert p.values(G) == [10] and p.stack() == []


def _full_silver(p):
    p.sheet[L.S_SILVER] = ALL_SILVER


def _full_yellow(p):
    p.sheet[L.S_YELLOW_CIRCLED] = ALL_YELLOW
    p.sheet[L.S_YELLOW_CROSSED] = ALL_YELLOW


def _full_track(field):
    return lambda p: p.sheet.__setitem__(field, 12)


def _full_all(p):
    _full_silver(p)
    _full_yellow(p)
    for field in (L.S_BLUE, L.S_GREEN, L.S_PINK):
        p.sheet[field] = 12


@pytest.mark.parametrize("code,fill", [
    (QS, _full_silver), (QY, _full_yellow), (QB, _full_track(L.S_BLUE)),
    (QG, _full_track(L.S_GREEN)), (QP, _full_track(L.S_PINK)), (QANY, _full_all)])
def test_6_q_lost_when_area_cannot_take_it(code, fill):
    """6: a "?" whose area cannot take the mark is lost (S_LOST counts it); the sheet is
    otherwise unchanged."""
    p = Pos()
    fill(p)
    before = p.sheet.copy()
    assert R.bonus_choices(p.sheet, code) == 0
    p.give(code)
    assert p.stack() == [] and p.f(L.S_LOST) == 1
    stats = set(range(L.S_BONUSES, L.S_BONUSES + L.N_BONUS_KINDS)) | {L.S_LOST}
    keep = [i for i in range(L.SHEET_LEN) if i not in stats]  # the sheet proper
    assert np.array_equal(p.sheet[keep], before[keep])


def test_6_blue_q_from_yellow_row_lost_when_blue_full():
    """6: yellow row 1 complete with a full blue track: its blue ? is lost."""
    p = Pos().blue(*[12] * 12)
    p.n = 0
    p.yellow(0, 1)
    assert p.pop() == QB
    assert p.f(L.S_LOST) == 1 and p.f(L.S_BLUE) == 12 and p.stack() == []


def test_6_no_choice_bonuses():
    """6: re-roll, +1, return and fox offer no choice (bonus_choices -1)."""
    sheet = L.new_sheet()
    for code in NO_CHOICE:
        assert R.bonus_choices(sheet, code) == -1


# --- 6 chains -------------------------------------------------------------------------------

def test_6_chain_silver_yellow_silver_fox():
    """6: silver 2 completes its column (yellow ?); the ? circles yellow 5 of row 4,
    completing column 3 {2, 5} (silver ?); that ? marks the last silver 3 (pink row),
    completing number 3 (fox)."""
    p = Pos().silver(2, 0, 1, 2).silver(3, 0, 1, 2).yellow(3)
    assert p.stack() == []
    p.silver(2, 3)
    assert p.stack() == [QY]
    assert p.pop(choice=7) == QY and p.stack() == [QS]
    assert p.f(L.S_YELLOW_CIRCLED) == bits(3, 7)
    assert p.pop(choice=sc(3, 3)) == QS and p.stack() == [FOX]
    assert p.pop() == FOX and p.stack() == []
    assert p.f(L.S_FOXES) == 1 and p.f(L.S_LOST) == 0
    assert p.scores() == [16, 0, 0, 0, 0]  # four rows of 2 marks


def test_6_chain_blue_yellow_pink_green_blue():
    """6: blue slot 3 (yellow ?) -> circle the 4 of row 5 (pink ?) -> a 5 on pink slot 6
    (>= 5: green ?) -> a 6 on green slot 4 (x1; blue ?) -> a 10 on blue slot 4 (<= 10; no
    bonus). Pair B = 1x2 - 6 = -4."""
    p = Pos().blue(12, 12).drain()  # slot 2: return
    p.yellow(8).pink(1, 1, 1, 1, 1).green(1, 1, 1).drain()  # green slot 2: re-roll
    assert p.stack() == []
    p.blue(10)
    assert p.stack() == [QY]
    assert p.pop(choice=9) == QY and p.stack() == [QP]
    assert p.pop(choice=5) == QP and p.stack() == [QG]
    assert p.pop(choice=6) == QG and p.stack() == [QB]
    assert R.bonus_choices(p.sheet, QB) == sums(*range(2, 11))
    assert p.pop(choice=10) == QB and p.stack() == []
    assert p.values(B) == [12, 12, 10, 10]
    assert p.values(P) == [1, 1, 1, 1, 1, 5]
    assert p.values(G) == [2, 2, 2, 6]
    assert p.f(L.S_YELLOW_CIRCLED) == bits(8, 9)
    assert (p.f(L.S_RETURN_GOT), p.f(L.S_REROLL_GOT), p.f(L.S_LOST)) == (1, 1, 0)
    assert p.scores() == [0, 0, 10, -4, 10]


# --- 7 foxes and the total ------------------------------------------------------------------

def _five_areas(pink=True):
    """silver 1 mark (2), yellow 1 cross (3), blue 2 slots (3), green 3,1 (6-2 = 4),
    pink a 5 (5)."""
    p = Pos().silver(1, 0).yellow(2, 2).blue(12, 12).drain().green(3, 1).drain()
    if pink:
        p.pink(5)
    assert p.stack() == []
    return p


def test_7_foxes_worth_lowest_area():
    """7: total = 2+3+3+4+5 = 17 plus each fox x the lowest area (2): 2 foxes -> 21."""
    p = _five_areas()
    assert p.scores() == [2, 3, 3, 4, 5] and p.total() == 17
    p.give(FOX).give(FOX)
    assert p.f(L.S_FOXES) == 2 and p.total() == 21


def test_7_foxes_worth_nothing_with_a_zero_area():
    """7: with pink empty (0) the foxes are worth nothing: 12."""
    p = _five_areas(pink=False).give(FOX).give(FOX)
    assert p.scores() == [2, 3, 3, 4, 0] and p.total() == 12


def test_7_foxes_worth_nothing_with_green_pair_open():
    """7 / 8.4: a lone green first slot scores 0, so the foxes are worth nothing."""
    p = Pos().silver(1, 0).yellow(2, 2).blue(12, 12).drain().green(6).pink(5)
    p.give(FOX)
    assert p.scores() == [2, 3, 3, 0, 5] and p.total() == 13


def test_12_3_negative_green_makes_foxes_negative():
    """7 / 12.3: green 1,6 = -10 is the lowest area; literally each fox is -10:
    2+3+3-10+5 = 3, two foxes -> -17."""
    p = Pos().silver(1, 0).yellow(2, 2).blue(12, 12).drain().green(1, 6).drain().pink(5)
    p.give(FOX).give(FOX)
    assert p.scores() == [2, 3, 3, -10, 5] and p.total() == 3 - 20


def test_12_3_fox_floor_zero_flag():
    """12.3: with ``FLAG_FOX_FLOOR_ZERO`` the negative lowest area makes foxes worth 0
    (total 3); a positive lowest area is unaffected (21)."""
    p = Pos(L.FLAG_FOX_FLOOR_ZERO)
    p.silver(1, 0).yellow(2, 2).blue(12, 12).drain().green(1, 6).drain().pink(5)
    p.give(FOX).give(FOX)
    assert p.total() == 3
    q = _five_areas()
    q.sheet[L.S_FLAGS] |= L.FLAG_FOX_FLOOR_ZERO
    q.give(FOX).give(FOX)
    assert q.total() == 21


def test_12_3_an_area_at_0_makes_foxes_worthless_flag():
    """12.3, the rulebook's reading (``FLAG_FOX_ZERO_AREA``): with an area at exactly 0,
    foxes are worth 0 even when green is negative (literal: the negative lowest); without
    an area at 0 a negative lowest still counts."""
    for flags, total in ((L.FLAG_FOX_ZERO_AREA, 3 - 10 + 5), (0, 3 - 10 + 5 - 20)):
        p = Pos(flags)  # silver 0, yellow 3, blue 0 (an area at 0), green -10, pink 5
        p.yellow(2, 2).green(1, 6).drain().pink(5)
        p.give(FOX).give(FOX)
        assert p.scores() == [0, 3, 0, -10, 5] and p.total() == total
    p = Pos(L.FLAG_FOX_ZERO_AREA)
    p.silver(1, 0).yellow(2, 2).blue(12, 12).drain().green(1, 6).drain().pink(5)
    p.give(FOX).give(FOX)
    assert p.total() == 3 - 20


def test_13_maximum_area_scores():
    """13: silver 88, yellow 165, blue 78, green 92, pink 72."""
    p = Pos()
    for v in range(1, 7):
        p.silver(v, 0, 1, 2, 3)
    p.yellow(*range(10)).yellow(*range(10))
    p.blue(*[12] * 12).green(*[6, 1] * 6).pink(*[6] * 12)
    assert p.scores() == [88, 165, 78, 92, 72]


# --- 12.8 bonus order -----------------------------------------------------------------------

def test_12_8_bonus_order_latest_first_or_earliest_first():
    """6 / 12.8: blue slots 2 (return) and 3 (yellow ?) waiting together resolve latest
    first by default (the yellow ?), earliest first with ``FLAG_EARLIEST_FIRST``."""
    for flags, first, second in [(0, QY, RETURN), (L.FLAG_EARLIEST_FIRST, RETURN, QY)]:
        p = Pos(flags).blue(12, 12, 11)
        assert p.stack() == [RETURN, QY]
        assert p.pop(choice=4) == first
        assert p.stack() == [second]
        assert p.pop(choice=4) == second
        assert p.stack() == []
        assert p.f(L.S_RETURN_GOT) == 1 and p.f(L.S_YELLOW_CIRCLED) == bits(4)


def test_12_8_earliest_first_queue_runs_a_chain_breadth_first():
    """12.8: with ``FLAG_EARLIEST_FIRST`` the bonus fired while resolving the first waits
    behind the older one: pink ? (slot 3, a 2: re-roll) queues after the pending fox."""
    p = Pos(L.FLAG_EARLIEST_FIRST).pink(1, 1)
    p.pending[0], p.pending[1] = QP, FOX
    p.n = 2
    assert p.pop(choice=2) == QP
    assert p.stack() == [FOX, REROLL]
    assert p.pop() == FOX and p.pop() == REROLL
    assert (p.f(L.S_FOXES), p.f(L.S_REROLL_GOT)) == (1, 1)
