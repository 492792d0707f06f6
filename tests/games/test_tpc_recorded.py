"""Recorded That's Pretty Clever turns: dice and choices in, the sheet and dice places
after every step out, replayed through the kernels' turn functions (``take_die``,
``use_plus_one``, ``use_reroll``, ``passive_candidates``). Each test names the rules
section it pins."""

import numpy as np
import pytest

from kernels.clever import play
from kernels.thats_pretty_clever import layout as L
from kernels.thats_pretty_clever.rules import area_scores, total_score

W, Y, B, G, ORA, P = range(6)
NONE = np.zeros(0, np.int64)


def dice(**faces):
    """Faces by colour letter (w=, y=, ...), all in play."""
    order = "wybgop"
    f = np.zeros(6, np.int64)
    for letter, face in faces.items():
        f[order.index(letter)] = face
    return f, np.full(6, play.POOL, np.int64)


def test_4_platter_rule_and_early_end():
    """4: the picked die goes to a field, strictly lower dice to the platter, equal ones
    stay; with no dice left the turn has fewer than three picks."""
    faces, where = dice(w=3, y=5, b=2, g=6, o=4, p=5)
    sheet = L.new_sheet()
    play.take_die(sheet, faces, where, Y, L.YELLOW_AREA, 2, NONE)  # yellow 5, row 1 col 3
    assert list(where) == [play.PLATTER, play.FIELD, play.PLATTER, play.POOL, play.PLATTER,
                           play.POOL]  # the purple 5 stays: equal, not lower
    assert (sheet[L.S_YELLOW] >> 2) & 1
    faces[G], faces[P] = 1, 6  # second roll of the two dice in play
    play.take_die(sheet, faces, where, P, L.PURPLE_AREA, -1, NONE)
    assert where[G] == play.PLATTER and sheet[L.S_PURPLE_VALUES] == 6
    assert (where == play.POOL).sum() == 0  # nothing left to roll: the turn ends early


def test_7_blue_is_blue_plus_white_wherever_white_is():
    """7: blue enters blue + white, white may be used as blue too, one sum once."""
    faces, where = dice(w=4, y=1, b=2, g=1, o=1, p=1)
    sheet = L.new_sheet()
    play.take_die(sheet, faces, where, B, L.BLUE_AREA, 6, NONE)
    assert sheet[L.S_BLUE] == 1 << (6 - 2)
    moves = np.zeros((play.MAX_MOVES, 3), np.int64)
    n = play.legal_moves(sheet, faces, 1 << W, moves, False)
    areas = {int(moves[i, 1]) for i in range(n)}
    assert L.BLUE_AREA not in areas  # 2 + 4 is already crossed
    assert {L.GREEN_AREA, L.ORANGE_AREA, L.PURPLE_AREA} <= areas


def test_8_1_and_11_yellow_row_chain_through_blue_into_orange():
    """8.1 + 11: yellow row 1 pays a blue X; the blue X completes blue row 1, which writes
    an orange 5; the chain resolves at once and the turn goes on."""
    sheet = L.new_sheet()
    sheet[L.S_YELLOW] |= 0b11  # row 1: 3 and 6 crossed
    sheet[L.S_BLUE] |= (1 << (3 - 2)) | (1 << (4 - 2))
    faces, where = dice(w=1, y=5, b=1, g=1, o=1, p=1)
    used = play.take_die(sheet, faces, where, Y, L.YELLOW_AREA, 2, np.array([2]))
    assert used == 1
    assert (sheet[L.S_BLUE] & L.BLUE_ROWS[0]) == L.BLUE_ROWS[0]
    assert sheet[L.S_ORANGE] == 1 and sheet[L.S_ORANGE_VALUES] == 5
    assert sheet[L.S_BONUSES + L.CROSS_BLUE] == 1 and sheet[L.S_BONUSES + L.WRITE_ORANGE] == 1


def test_8_3_green_threshold_and_plus_one_bonus():
    """8.3: green slot 4 needs a 4 and unlocks a +1."""
    sheet = L.new_sheet()
    sheet[L.S_GREEN] = 3
    faces, where = dice(w=1, y=1, b=1, g=3, o=1, p=1)
    moves = np.zeros((play.MAX_MOVES, 3), np.int64)
    n = play.legal_moves(sheet, faces, 1 << G, moves, False)
    assert n == 0  # a 3 cannot fill a slot that needs 4
    faces[G] = 4
    play.take_die(sheet, faces, where, G, L.GREEN_AREA, -1, NONE)
    assert sheet[L.S_GREEN] == 4 and sheet[L.S_PLUS_GOT] == 1


def test_8_4_orange_multiplier_and_reroll_bonus():
    """8.4: the third orange slot unlocks a re-roll; the fourth doubles the face."""
    sheet = L.new_sheet()
    faces, where = dice(w=1, y=1, b=1, g=1, o=6, p=1)
    for _ in range(4):
        where[:] = play.POOL
        play.take_die(sheet, faces, where, ORA, L.ORANGE_AREA, -1, NONE)
    assert list(sheet[L.S_ORANGE_VALUES:L.S_ORANGE_VALUES + 4]) == [6, 6, 6, 12]
    assert sheet[L.S_REROLL_GOT] == 1


def test_8_5_purple_ascending_with_reset_after_six():
    """8.5: each purple value above the last, anything after a 6."""
    sheet = L.new_sheet()
    faces, where = dice(w=1, y=1, b=1, g=1, o=1, p=2)
    moves = np.zeros((play.MAX_MOVES, 3), np.int64)
    for face, legal in ((2, True), (2, False), (5, True), (6, True), (3, True), (3, False)):
        faces[P] = face
        n = play.legal_moves(sheet, faces, 1 << P, moves, False)
        assert (n > 0) == legal, face
        if legal:
            where[:] = play.POOL
            play.take_die(sheet, faces, where, P, L.PURPLE_AREA, -1, np.array([12]))
    assert list(sheet[L.S_PURPLE_VALUES:L.S_PURPLE_VALUES + 4]) == [2, 5, 6, 3]
    assert sheet[L.S_REROLL_GOT] == 1  # slot 3 pays a re-roll
    assert sheet[L.S_BLUE] == 1 << (12 - 2)  # slot 4 pays a blue X, recorded on 12


def test_recorded_free_mark_needs_a_target():
    """11: a replay must say where every free mark goes."""
    sheet = L.new_sheet()
    sheet[L.S_YELLOW] |= 0b11
    faces, where = dice(w=1, y=5, b=1, g=1, o=1, p=1)
    with pytest.raises(ValueError, match="no recorded target"):
        play.take_die(sheet, faces, where, Y, L.YELLOW_AREA, 2, NONE)


def test_10_plus_one_takes_any_die_once_per_turn():
    """10: +1 takes any die at its face, even a field or platter die, each die once."""
    sheet = L.new_sheet()
    sheet[L.S_PLUS_GOT] = 2
    faces, _ = dice(w=3, y=1, b=2, g=5, o=4, p=6)
    taken = play.use_plus_one(sheet, faces, W, L.ORANGE_AREA, -1, NONE, 0)
    assert taken == 1 << W and sheet[L.S_ORANGE_VALUES] == 3
    assert play.use_plus_one(sheet, faces, W, L.GREEN_AREA, -1, NONE, taken) == -1
    taken = play.use_plus_one(sheet, faces, B, L.BLUE_AREA, 5, NONE, taken)
    assert taken == (1 << W) | (1 << B) and (sheet[L.S_BLUE] >> 3) & 1
    assert play.use_plus_one(sheet, faces, G, L.GREEN_AREA, -1, NONE, taken) == -1  # none
    assert sheet[L.S_PLUS_USED] == 2


def test_10_reroll_only_when_unlocked():
    """10: a re-roll must be unlocked first and is used up."""
    sheet = L.new_sheet()
    assert not play.use_reroll(sheet)
    sheet[L.S_REROLL_GOT] = 1
    assert play.use_reroll(sheet) and not play.use_reroll(sheet)


def test_5_passive_player_falls_back_to_field_dice_only_when_needed():
    """5: platter dice first; a field die only when no platter die can be used."""
    sheet = L.new_sheet()
    sheet[L.S_GREEN] = 10  # green needs a 6 now
    sheet[L.S_ORANGE] = L.TRACK  # orange full
    faces, where = dice(w=1, y=1, b=1, g=5, o=2, p=1)
    where[:] = play.FIELD
    where[G] = where[ORA] = play.PLATTER
    moves = np.zeros((play.MAX_MOVES, 3), np.int64)
    n = play.passive_candidates(sheet, faces, where, moves)
    assert n > 0 and {int(moves[i, 0]) for i in range(n)} <= {W, Y, B, P}
    faces[G] = 6
    n = play.passive_candidates(sheet, faces, where, moves)
    assert {int(moves[i, 0]) for i in range(n)} == {G}


def test_12_foxes_count_the_lowest_area():
    """12: a sheet recorded to the end: area scores, foxes x lowest area."""
    sheet = L.new_sheet()
    sheet[L.S_YELLOW] = 0xFFFF
    sheet[L.S_GREEN] = 7  # 28 points, a fox at slot 7 (set by hand here)
    sheet[L.S_FOXES] = 2
    sheet[L.S_BLUE] = 0b111  # 3 crosses: 4 points
    sheet[L.S_ORANGE], sheet[L.S_ORANGE_VALUES] = 1, 5
    sheet[L.S_PURPLE], sheet[L.S_PURPLE_VALUES] = 1, 3
    scores = np.zeros(5, np.int64)
    area_scores(sheet, scores)
    assert list(scores) == [60, 4, 28, 5, 3]
    assert total_score(sheet) == 60 + 4 + 28 + 5 + 3 + 2 * 3


def test_6_and_14_6_solo_platter_three_lowest_ties_by_dice_order():
    """6 / 14.6: the three lowest dice go to the platter; a tie for the last places goes by
    the dice order drawn (``solo_ties = random``: each of the 720 orders equally likely, so
    each of three tied 2s gets one of the two places in exactly 2/3 of them; white first
    with ``colour_order``, order 0). The rest stay out of the passive pick's reach, or go
    to the fields where ``solo_fallback`` lets the pick fall back on them."""
    faces = np.array([2, 1, 4, 2, 6, 2], np.int64)  # W2 Y1 B4 G2 O6 P2: three 2s tie
    where = np.full(6, play.POOL, np.int64)
    play.solo_platter(faces, where, 0, False)
    assert list(np.nonzero(where == play.PLATTER)[0]) == [W, Y, G]
    assert (where == play.FIELD).sum() == 0
    places = {play.order_places(k) for k in range(play.N_ORDERS)}
    assert len(places) == play.N_ORDERS  # every order of the six dice once
    chosen = np.zeros(6, np.int64)
    for k in range(play.N_ORDERS):
        play.solo_platter(faces, where, k, False)
        chosen += where == play.PLATTER
    assert list(chosen) == [480, 720, 0, 480, 0, 480]
    play.solo_platter(faces, where, 0, True)
    assert list(np.nonzero(where == play.FIELD)[0]) == [B, ORA, P]


def test_12_tie_break_best_area_or_shared():
    """12: tied totals go to the best single area; with ``ties = shared`` they share."""
    wins = np.zeros(2, np.int64)
    play.award_wins(np.array([150, 150]), np.array([40, 50]), wins, False)
    assert list(wins) == [0, play.WIN_UNITS]
    play.award_wins(np.array([150, 150]), np.array([40, 50]), wins, True)
    assert list(wins) == [play.WIN_UNITS // 2, play.WIN_UNITS // 2]
