"""That's Pretty Clever: recorded positions for ``kernels.thats_pretty_clever.rules``
(rules page ``docs/rules/thats-pretty-clever.md``). Each test starts from
``layout.new_sheet()``, applies dice entries and bonus resolutions, and checks the exact
sheet fields, pending bonuses and scores. Each test names the section it checks.

Expected numbers are taken from the rules page, not from ``layout``; slots are counted from
1 in the docstrings (as on the page) and from 0 in the code."""

import numpy as np
import pytest

from kernels.clever_base.sheet import MAX_BONUS_KINDS
from kernels.thats_pretty_clever import layout as L
from kernels.thats_pretty_clever import rules as R
from kernels.thats_pretty_clever.layout import bonus
from tests.games.sheet_position import SheetPosition, bits, sums

Y, BL, G, ORA, P = L.YELLOW_AREA, L.BLUE_AREA, L.GREEN_AREA, L.ORANGE_AREA, L.PURPLE_AREA
REROLL, PLUS, FOX = bonus(L.REROLL), bonus(L.PLUS_ONE), bonus(L.FOX)
YX, BX, GX = bonus(L.CROSS_YELLOW), bonus(L.CROSS_BLUE), bonus(L.CROSS_GREEN)


def OR(v):
    return bonus(L.WRITE_ORANGE, v)


def PU(v):
    return bonus(L.WRITE_PURPLE, v)


PREPRINTED = (1 << 3) | (1 << 6) | (1 << 9) | (1 << 12)  # the anti-diagonal (8.1)


class Pos(SheetPosition):
    """A sheet and its pending-bonus stack."""

    layout, rules = L, R

    def yellow(self, *cells):
        for c in cells:
            self.enter(Y, int(L.YELLOW_VALUES[c]), c)
        return self

    def blue(self, *sums):
        for s in sums:
            self.enter(BL, s)
        return self

    def track(self, area, *values):
        for v in values:
            self.enter(area, v)
        return self

    def drain_unlocks(self):
        """Resolve pending bonuses that need no choice (set-up helper)."""
        while self.n:
            assert self.pending[self.n - 1] // 8 in (L.REROLL, L.PLUS_ONE, L.FOX)
            self.pop()
        return self

    def orange(self):
        return [int(x) for x in self.sheet[L.S_ORANGE_VALUES:L.S_ORANGE_VALUES + 11]]

    def purple(self):
        return [int(x) for x in self.sheet[L.S_PURPLE_VALUES:L.S_PURPLE_VALUES + 11]]


# --- 8.1 yellow -----------------------------------------------------------------------------

YELLOW_CELLS_OF = {1: (5, 8), 2: (4, 10), 3: (0, 13), 4: (11, 14), 5: (2, 7), 6: (1, 15)}


def test_8_1_yellow_new_sheet_has_preprinted_antidiagonal():
    """8.1: the four pre-printed crosses count as marked from the start; a yellow X
    (bonus_choices) can go to any of the 12 other cells, never a pre-printed one."""
    p = Pos()
    assert p.f(L.S_YELLOW) == PREPRINTED
    assert R.bonus_choices(p.sheet, YX) == 0xFFFF & ~PREPRINTED
    for v in range(1, 7):
        assert R.yellow_cells(p.sheet, v) & PREPRINTED == 0
    assert not R.can_enter(p.sheet, Y, 0) and not R.can_enter(p.sheet, Y, 7)


@pytest.mark.parametrize("value", range(1, 7))
def test_8_1_yellow_each_value_twice_then_blocked(value):
    """8.1: each value 1-6 is printed twice; one die crosses one cell of the player's choice;
    a third die of that value has no cell."""
    a, b = YELLOW_CELLS_OF[value]
    p = Pos()
    assert R.yellow_cells(p.sheet, value) == bits(a, b)
    p.yellow(b)
    assert p.f(L.S_YELLOW) == PREPRINTED | bits(b)
    assert R.yellow_cells(p.sheet, value) == bits(a)
    assert R.can_enter(p.sheet, Y, value)
    p.yellow(a)
    assert R.yellow_cells(p.sheet, value) == 0
    assert not R.can_enter(p.sheet, Y, value)
    assert p.stack() == [] and p.scores() == [0, 0, 0, 0, 0]


@pytest.mark.parametrize("row,cells,code", [
    (1, (0, 1, 2), BX),       # 3 6 5 X -> blue X
    (2, (4, 5, 7), OR(4)),    # 2 1 X 5 -> orange 4
    (3, (8, 10, 11), GX),     # 1 X 2 4 -> green X
    (4, (13, 14, 15), FOX),   # X 3 4 6 -> fox
])
def test_8_1_yellow_row_bonus(row, cells, code):
    """8.1 / 9: a completed yellow row (pre-printed cross included) pays its bonus once,
    the moment its last cell is marked."""
    p = Pos().yellow(*cells[:2])
    assert p.stack() == []
    p.yellow(cells[2])
    assert p.stack() == [code]
    assert p.f(L.S_YELLOW) == PREPRINTED | bits(*cells)
    assert p.scores()[Y] == 0  # rows score nothing


@pytest.mark.parametrize("col,cells,points", [
    (1, (0, 4, 8), 10), (2, (1, 5, 13), 14), (3, (2, 10, 14), 16), (4, (7, 11, 15), 20)])
def test_8_1_yellow_column_points(col, cells, points):
    """8.1 / 12: a completed column is worth 10/14/16/20 points and pays no bonus."""
    p = Pos().yellow(*cells[:2])
    assert p.scores()[Y] == 0
    p.yellow(cells[2])
    assert p.stack() == []
    assert p.scores() == [points, 0, 0, 0, 0]
    assert R.total_score(p.sheet) == points


def test_8_1_yellow_diagonal_plus_one():
    """8.1: the main diagonal 3, 1, 2, 6 completed -> +1 action (paid at once, 10)."""
    p = Pos().yellow(0, 5, 10)
    assert p.stack() == []
    p.yellow(15)
    assert p.stack() == [PLUS]
    assert p.pop() == PLUS
    assert p.f(L.S_PLUS_GOT) == 1 and p.stack() == []


def test_8_1_yellow_all_cells_60_and_all_groups_pay_once():
    """8.1 / 9: crossing all 12 open cells completes 4 columns (60 points), the 4 rows and
    the diagonal; each group pays exactly once."""
    p = Pos().yellow(0, 5, 10, 15, 1, 2, 4, 7, 8, 11, 13, 14)
    assert p.f(L.S_YELLOW) == 0xFFFF
    assert sorted(p.stack()) == sorted([BX, OR(4), GX, FOX, PLUS])
    assert p.scores()[Y] == 60


def test_11_yellow_cell_completing_row_and_diagonal_pushes_both():
    """11: one mark completing a row and the diagonal earns both bonuses (order is
    UNCONFIRMED, so only the multiset is checked)."""
    p = Pos().yellow(0, 5, 10, 13, 14)
    assert p.stack() == []
    p.yellow(15)
    assert sorted(p.stack()) == sorted([FOX, PLUS])


# --- 7 / 8.2 blue ---------------------------------------------------------------------------

@pytest.mark.parametrize("total", range(2, 13))
def test_8_2_blue_each_sum_2_to_12_has_one_cell(total):
    """8.2: every blue+white sum 2..12 has exactly one cell; once crossed it is closed."""
    p = Pos()
    assert R.can_enter(p.sheet, BL, total)
    p.blue(total)
    assert p.f(L.S_BLUE) == sums(total)
    assert not R.can_enter(p.sheet, BL, total)
    assert p.stack() == []
    assert p.scores() == [0, 1, 0, 0, 0]


@pytest.mark.parametrize("total", [-1, 0, 1, 13, 14])
def test_8_2_blue_sum_out_of_range(total):
    """7 / 8.2: only the sums 2..12 exist (the dice icon at row 1, column 1 is no cell)."""
    assert not R.can_enter(L.new_sheet(), BL, total)


@pytest.mark.parametrize("row,cells,code", [
    (1, (2, 3, 4), OR(5)), (2, (5, 6, 7, 8), YX), (3, (9, 10, 11, 12), FOX)])
def test_8_2_blue_row_bonus(row, cells, code):
    """8.2: blue rows pay orange 5 / yellow X / fox when their last cell is crossed."""
    p = Pos().blue(*cells[:-1])
    assert p.stack() == []
    p.blue(cells[-1])
    assert p.stack() == [code]


@pytest.mark.parametrize("col,cells,code", [
    (1, (5, 9), REROLL), (2, (2, 6, 10), GX), (3, (3, 7, 11), PU(6)), (4, (4, 8, 12), PLUS)])
def test_8_2_blue_column_bonus(col, cells, code):
    """8.2: blue columns {5,9} re-roll, {2,6,10} green X, {3,7,11} purple 6, {4,8,12} +1."""
    p = Pos().blue(*cells[:-1])
    assert p.stack() == []
    p.blue(cells[-1])
    assert p.stack() == [code]


def test_8_2_blue_points_table():
    """8.2: blue points by number of crosses 1..11 (7 crosses = 22, 11 = 56)."""
    table = [0, 1, 2, 4, 7, 11, 16, 22, 29, 37, 46, 56]
    p = Pos()
    assert p.scores()[BL] == 0
    for k, s in enumerate([5, 9, 2, 6, 12, 3, 8, 11, 4, 7, 10], start=1):
        p.blue(s)
        assert p.scores()[BL] == table[k], k
    assert p.f(L.S_BLUE) == (1 << 11) - 1
    assert p.scores() == [0, 56, 0, 0, 0]


def test_8_2_blue_x_any_open_sum():
    """9: a blue X crosses any open blue cell, whatever the dice show."""
    p = Pos().blue(2, 12)
    assert R.bonus_choices(p.sheet, BX) == ((1 << 11) - 1) & ~sums(2, 12)
    p.give(BX, 7)
    assert p.f(L.S_BLUE) == sums(2, 7, 12) and p.stack() == []


def test_11_blue_cell_completing_row_and_column_pushes_both():
    """11: blue 4 completing row 1 and column 4 earns orange 5 and +1 (order UNCONFIRMED)."""
    p = Pos().blue(2, 3, 8, 12)
    p.blue(4)
    assert sorted(p.stack()) == sorted([OR(5), PLUS])


# --- 8.3 green ------------------------------------------------------------------------------

GREEN_NEEDS = [1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6]


def test_8_3_green_thresholds_incl_slot_11_needs_6():
    """8.3: the next green slot needs a face >= 1 2 3 4 5 1 2 3 4 5 6; slots fill left to
    right; a full track takes nothing."""
    p = Pos()
    for slot, need in enumerate(GREEN_NEEDS):
        assert p.f(L.S_GREEN) == slot
        if need > 1:
            assert not R.can_enter(p.sheet, G, need - 1), slot
        assert R.can_enter(p.sheet, G, need) and R.can_enter(p.sheet, G, 6)
        p.track(G, need)
        p.n = 0  # the slot bonuses are checked in test_8_3_green_slot_bonuses
    assert p.f(L.S_GREEN) == 11
    assert not R.can_enter(p.sheet, G, 6)


def test_8_3_green_slot_11_rejects_5():
    """8.3: slot 11 is the only slot needing a 6."""
    p = Pos()
    for slot in range(10):
        p.sheet[L.S_GREEN] = slot
        assert R.can_enter(p.sheet, G, 5)
    p.sheet[L.S_GREEN] = 10
    assert not R.can_enter(p.sheet, G, 5) and R.can_enter(p.sheet, G, 6)


def test_8_3_green_slot_bonuses():
    """8.3: green slots 4 +1, 6 blue X, 7 fox, 9 purple 6, 10 re-roll (paid when filled)."""
    p = Pos()
    got = p.pushed_by_each(11, lambda: p.track(G, 6))
    assert got == [[], [], [], [PLUS], [], [BX], [FOX], [], [PU(6)], [REROLL], []]


def test_8_3_green_points_table():
    """8.3: green score by crossed slots 1 3 6 10 15 21 28 36 45 55 66."""
    table = [0, 1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 66]
    p = Pos()
    for k in range(1, 12):
        p.track(G, 6)
        assert p.scores() == [0, 0, table[k], 0, 0], k


def test_8_3_green_x_ignores_threshold():
    """8.3 / 9: a green X crosses the next slot regardless of its threshold (slot 5 needs 5,
    slot 11 needs 6)."""
    p = Pos().track(G, 1, 2, 3, 4)
    p.drain_unlocks()  # slot 4: +1
    assert not R.can_enter(p.sheet, G, 4)
    p.give(GX)
    assert p.f(L.S_GREEN) == 5 and p.stack() == []
    p.sheet[L.S_GREEN] = 10
    p.give(GX)
    assert p.f(L.S_GREEN) == 11 and p.scores()[G] == 66


# --- 8.4 orange -----------------------------------------------------------------------------

def test_8_4_orange_multipliers():
    """8.4: any face goes in the next orange slot; x2 on slots 4, 7, 9 and x3 on slot 11
    (a 4 on slot 4 is 8; a 6 on slot 11 is 18)."""
    p = Pos()
    for v in [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 6]:
        assert R.can_enter(p.sheet, ORA, v)
        p.track(ORA, v)
    assert p.orange() == [1, 2, 3, 8, 5, 6, 2, 2, 6, 4, 18]
    assert p.f(L.S_ORANGE) == 11 and p.scores()[ORA] == 57
    assert not R.can_enter(p.sheet, ORA, 1)


def test_8_4_orange_slot_bonuses():
    """8.4: orange slots 3 re-roll, 5 yellow X, 6 +1, 8 fox, 10 purple 6."""
    p = Pos()
    got = p.pushed_by_each(11, lambda: p.track(ORA, 1))
    assert got == [[], [], [REROLL], [], [YX], [PLUS], [], [FOX], [], [PU(6)], []]


def test_8_4_orange_number_bonus_is_multiplied():
    """8.4: yellow row 2's orange 4 landing on slot 4 (x2) is written as 8."""
    p = Pos().track(ORA, 1, 1, 1).drain_unlocks()  # slot 3: re-roll
    p.yellow(4, 5, 7)
    assert p.stack() == [OR(4)]
    p.pop()
    assert p.orange()[:4] == [1, 1, 1, 8] and p.f(L.S_ORANGE) == 4
    assert p.stack() == [] and p.scores()[ORA] == 11


def test_3_round4_black_six_in_orange_slot_11_is_18():
    """3 / 8.4: the round-4 black 6 written into orange slot 11 (x3) scores 18."""
    p = Pos()
    p.sheet[L.S_ORANGE] = 10
    p.give(L.ROUND4_OPTIONS[3])
    assert int(L.ROUND4_OPTIONS[3]) == OR(6)
    assert p.orange()[10] == 18 and p.f(L.S_ORANGE) == 11


# --- 8.5 purple -----------------------------------------------------------------------------

def test_8_5_purple_strictly_ascending():
    """8.5: the first slot takes any value; then each value must be strictly greater."""
    p = Pos()
    assert all(R.can_enter(p.sheet, P, v) for v in range(1, 7))
    p.track(P, 3)
    assert [R.can_enter(p.sheet, P, v) for v in range(1, 7)] == \
        [False, False, False, True, True, True]
    p.track(P, 4)
    assert [R.can_enter(p.sheet, P, v) for v in range(1, 7)] == \
        [False, False, False, False, True, True]


def test_8_5_purple_resets_after_6():
    """8.5: after a 6 any value (another 6 too) may follow; 2, 5, 6, 3 is a legal start."""
    p = Pos().track(P, 2, 5, 6)
    assert all(R.can_enter(p.sheet, P, v) for v in range(1, 7))
    p.track(P, 3)
    assert p.purple()[:4] == [2, 5, 6, 3] and p.f(L.S_PURPLE) == 4
    assert not R.can_enter(p.sheet, P, 3) and R.can_enter(p.sheet, P, 4)
    assert p.scores()[P] == 16


def test_8_5_purple_slot_bonuses():
    """8.5: purple slots 3 re-roll, 4 blue X, 5 +1, 6 yellow X, 7 fox, 8 re-roll,
    9 green X, 10 orange 6, 11 +1."""
    p = Pos()
    got = []
    for v in [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5]:
        before = p.n
        p.track(P, v)
        got.append(p.stack()[before:])
    assert got == [[], [], [REROLL], [BX], [PLUS], [YX], [FOX], [REROLL], [GX], [OR(6)],
                   [PLUS]]
    assert p.scores()[P] == 36
    assert not R.can_enter(p.sheet, P, 6)


def test_8_5_purple_6_bonus_legal_while_a_slot_is_free():
    """8.5: a purple 6 is always legal while a slot is free (after a 5, after a 6)."""
    p = Pos().track(P, 4, 5)
    assert R.can_enter(p.sheet, P, 6)
    p.give(PU(6))
    assert R.can_enter(p.sheet, P, 6)
    p.give(PU(6))
    assert p.purple()[:4] == [4, 5, 6, 6] and p.f(L.S_PURPLE) == 4
    assert p.stack() == [REROLL, BX]  # slots 3 and 4
    assert p.f(L.S_LOST) == 0


# --- 9 / 11 chains --------------------------------------------------------------------------

def test_11_chain_resolved_depth_first():
    """11: blue 11 completes row 3 (fox) and column 3 (purple 6); the purple 6 lands on
    purple slot 4 (blue X); the blue X on 4 completes blue row 1 (orange 5); the orange 5
    lands on orange slot 5 (yellow X); the yellow X completes yellow row 1 (blue X); that
    blue X on 8 completes blue column 4 (+1). Every new bonus is resolved before the older
    fox still waiting on the stack."""
    p = Pos().blue(2, 3, 7, 9, 10, 12)
    p.track(P, 1, 2, 3).drain_unlocks()        # purple slot 3: re-roll
    p.track(ORA, 1, 1, 1, 1).drain_unlocks()     # orange slot 3: re-roll
    p.yellow(0, 1)
    assert p.stack() == [] and p.f(L.S_REROLL_GOT) == 2

    p.blue(11)
    assert sorted(p.stack()) == sorted([FOX, PU(6)])
    if p.stack()[-1] == FOX:  # the order of simultaneous bonuses is the policy's (11)
        p.pending[0], p.pending[1] = p.pending[1], p.pending[0]
    assert p.pop() == PU(6)
    assert p.purple()[:4] == [1, 2, 3, 6] and p.stack() == [FOX, BX]
    assert R.bonus_choices(p.sheet, BX) == sums(4, 5, 6, 8)
    assert p.pop(choice=4) == BX
    assert p.stack() == [FOX, OR(5)]
    assert p.pop() == OR(5)
    assert p.orange()[:5] == [1, 1, 1, 2, 5] and p.stack() == [FOX, YX]
    assert p.pop(choice=2) == YX
    assert p.stack() == [FOX, BX]
    assert p.pop(choice=8) == BX
    assert p.stack() == [FOX, PLUS]
    assert p.pop() == PLUS
    assert p.pop() == FOX
    assert p.stack() == []

    assert p.f(L.S_BLUE) == sums(2, 3, 4, 7, 8, 9, 10, 11, 12)
    assert p.f(L.S_YELLOW) == PREPRINTED | bits(0, 1, 2)
    assert p.f(L.S_PURPLE) == 4 and p.f(L.S_ORANGE) == 5 and p.f(L.S_GREEN) == 0
    assert (p.f(L.S_REROLL_GOT), p.f(L.S_PLUS_GOT), p.f(L.S_FOXES), p.f(L.S_LOST)) == \
        (2, 1, 1, 0)
    assert p.scores() == [0, 37, 0, 10, 12]
    assert R.total_score(p.sheet) == 59  # a zero area: the fox is worth nothing


def test_11_green_x_from_blue_column_fills_green_slot_with_bonus():
    """9 / 11: blue column 2 (green X) lands on green slot 6 (blue X), which completes blue
    column 4 (+1): a bonus mark triggers further bonuses."""
    p = Pos().track(G, 1, 2, 3, 4, 5).drain_unlocks()  # slot 4: +1
    p.blue(2, 6, 4, 8)
    assert p.stack() == []
    p.blue(10)
    assert p.stack() == [GX]
    p.pop()
    assert p.f(L.S_GREEN) == 6 and p.stack() == [BX]
    p.pop(choice=12)
    assert p.stack() == [PLUS]
    p.pop()
    assert p.f(L.S_PLUS_GOT) == 2 and p.f(L.S_LOST) == 0


@pytest.mark.parametrize("code,fill", [
    (YX, lambda p: p.sheet.__setitem__(L.S_YELLOW, 0xFFFF)),
    (BX, lambda p: p.sheet.__setitem__(L.S_BLUE, (1 << 11) - 1)),
    (GX, lambda p: p.sheet.__setitem__(L.S_GREEN, 11)),
    (OR(5), lambda p: p.sheet.__setitem__(L.S_ORANGE, 11)),
    (PU(6), lambda p: p.sheet.__setitem__(L.S_PURPLE, 11)),
])
def test_9_bonus_lost_when_area_full(code, fill):
    """9 / 11: a mark bonus with no legal place left is lost (S_LOST counts it)."""
    p = Pos()
    fill(p)
    before = p.sheet.copy()
    if code in (YX, BX):
        assert R.bonus_choices(p.sheet, code) == 0
    p.give(code)
    assert p.stack() == [] and p.f(L.S_LOST) == 1
    before[L.S_LOST] = 1
    stats = slice(L.S_BONUSES, L.S_BONUSES + MAX_BONUS_KINDS)  # statistics, not the sheet
    before[stats] = p.sheet[stats]
    assert np.array_equal(p.sheet, before)


def test_9_orange_4_lost_when_orange_full():
    """9: yellow row 2 completed with a full orange track: the orange 4 is lost."""
    p = Pos().track(ORA, *[1] * 11)
    p.n = 0  # orange's own bonuses are not under test here
    p.yellow(4, 5, 7)
    assert p.pop() == OR(4)
    assert p.f(L.S_LOST) == 1 and p.f(L.S_ORANGE) == 11 and p.stack() == []
    assert p.scores()[ORA] == 16


def test_9_non_mark_bonuses_have_no_choice():
    """9 / 10: re-roll, +1, fox and the track marks offer no choice (bonus_choices -1)."""
    sheet = L.new_sheet()
    for code in (REROLL, PLUS, FOX, GX, OR(4), OR(5), OR(6), PU(6)):
        assert R.bonus_choices(sheet, code) == -1


# --- 3 / 10 actions -------------------------------------------------------------------------

def test_3_round_bonuses_rounds_1_to_3():
    """3: rounds 1-3 unlock re-roll, +1, re-roll."""
    p = Pos()
    for code in L.ROUND_BONUS[:3]:
        p.give(int(code))
    assert (p.f(L.S_REROLL_GOT), p.f(L.S_PLUS_GOT), p.f(L.S_LOST)) == (2, 1, 0)
    assert [int(x) for x in L.ROUND_BONUS[:3]] == [REROLL, PLUS, REROLL]


@pytest.mark.parametrize("code,field", [(REROLL, L.S_REROLL_GOT), (PLUS, L.S_PLUS_GOT)])
def test_10_action_track_holds_7_unlocks(code, field):
    """10 / 14.5: each action track has 7 circles; an 8th unlock is lost."""
    p = Pos()
    for k in range(1, 8):
        p.give(code)
        assert p.f(field) == k and p.f(L.S_LOST) == 0
    p.give(code)
    assert p.f(field) == 7 and p.f(L.S_LOST) == 1


def test_10_used_circles_stay_crossed():
    """10 / 14.5: with 7 unlocked and all used, a further unlock is still lost."""
    p = Pos()
    p.sheet[L.S_PLUS_GOT] = 7
    p.sheet[L.S_PLUS_USED] = 7
    p.give(PLUS)
    assert (p.f(L.S_PLUS_GOT), p.f(L.S_PLUS_USED), p.f(L.S_LOST)) == (7, 7, 1)


# --- 12 scoring -----------------------------------------------------------------------------

def _small_sheet():
    """yellow column 1 (10), blue 2 3 5 (4), green 3 slots (6), orange 5 (5), purple 1 2 (3)."""
    p = Pos().yellow(0, 4, 8).blue(2, 3, 5).track(G, 1, 2, 3).track(ORA, 5).track(P, 1, 2)
    assert p.stack() == []
    return p


def test_12_foxes_worth_lowest_area():
    """12: each fox is worth the lowest of the five area scores."""
    p = _small_sheet()
    assert p.scores() == [10, 4, 6, 5, 3]
    assert R.total_score(p.sheet) == 28
    p.give(FOX).give(FOX)
    assert p.f(L.S_FOXES) == 2
    assert R.total_score(p.sheet) == 28 + 2 * 3


def test_12_foxes_worth_nothing_with_a_zero_area():
    """12: if any area scores 0, foxes are worth nothing."""
    p = Pos().yellow(0, 4, 8).blue(2, 3, 5).track(G, 1, 2, 3).track(ORA, 5)
    p.give(FOX).give(FOX).give(FOX)
    assert p.scores() == [10, 4, 6, 5, 0]
    assert R.total_score(p.sheet) == 25


def test_15_full_sheet_maximum_scores():
    """12 / 15: a full sheet scores yellow 60, blue 56, green 66, orange 96
    (= 6 * (1+1+1+2+1+1+2+1+2+1+3)), purple 66 (all sixes); all 31 printed bonuses are
    earned: 5 foxes, 5 re-rolls, 6 +1s, and the 15 mark bonuses are lost (areas full);
    total = 344 + 5 foxes * 56 = 624."""
    p = Pos().yellow(0, 1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 15)
    p.blue(*range(2, 13)).track(G, *[6] * 11).track(ORA, *[6] * 11).track(P, *[6] * 11)
    assert p.n == 31
    while p.n:
        p.pop()
    assert p.orange() == [6, 6, 6, 12, 6, 6, 12, 6, 12, 6, 18]
    assert p.purple() == [6] * 11
    assert p.scores() == [60, 56, 66, 96, 66]
    assert (p.f(L.S_FOXES), p.f(L.S_REROLL_GOT), p.f(L.S_PLUS_GOT), p.f(L.S_LOST)) == \
        (5, 5, 6, 15)
    assert R.total_score(p.sheet) == 344 + 5 * 56 == 624


# --- 14: the open points as switches ---------------------------------------------------------

def test_14_4_bonus_order_latest_first_or_earliest_first():
    """11 / 14.4: bonuses waiting together resolve latest-first by default (depth-first),
    earliest-first with ``FLAG_EARLIEST_FIRST`` (a queue)."""
    pending = np.array([FOX, PLUS, REROLL] + [0] * (R.MAX_PENDING - 3), np.int64)
    sheet = L.new_sheet()
    assert R.pop_pending(sheet, pending, 3) == REROLL
    sheet[L.S_FLAGS] = L.FLAG_EARLIEST_FIRST
    assert R.pop_pending(sheet, pending, 3) == FOX
    assert list(pending[:2]) == [PLUS, REROLL]  # the queue moves up


def test_14_5_action_overflow_kept_with_the_switch():
    """14.5: with ``FLAG_KEEP_OVERFLOW`` an 8th unlock is kept instead of lost."""
    p = Pos()
    p.sheet[L.S_FLAGS] = L.FLAG_KEEP_OVERFLOW
    for _ in range(8):
        p.give(REROLL)
    assert (p.f(L.S_REROLL_GOT), p.f(L.S_LOST)) == (8, 0)
