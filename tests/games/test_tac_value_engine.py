"""The Twice As Clever value policy: its encoding of the sheet, the training curriculum
(yellow dice cap, fox spotlight) and self-play in parallel snapshots, bit for bit."""

import numba
import numpy as np
import pytest

from analyzer.games.clever import value_weights
from analyzer.games.twice_as_clever.model import GAME
from analyzer.params import defaults
from kernels.clever import play, selfplay, valued, value_net
from kernels.clever.policies import BEST_SHEET, BEST_TURN, TURN, WORK_LEN, sheet_value
from kernels.clever.sheets import start_sheet
from kernels.clever_base import sparse
from kernels.clever_base.turn import PH_ROLL, TS_LEN
from kernels.twice_as_clever import encode
from kernels.twice_as_clever import layout as L

RULES = GAME.game_rules(defaults(GAME.params))


def blank():
    sheet = np.zeros(play.SHEET_LEN, np.int64)
    start_sheet(sheet, GAME.kernel_game, 6, 0)
    return sheet


def fresh_row(seed=1, teacher=0.0, n_in=encode.N_BASE):
    w = value_weights.initial_weights(n_in, seed)
    return value_weights.policy_row([w], n_in, teacher, GAME.heuristic_row())


def inputs(sheet, ts, n_in=encode.N_BASE):
    idx = np.zeros(value_net.MAX_INPUTS, np.int64)
    val = np.zeros(value_net.MAX_INPUTS, np.float32)
    n = encode.encode(sheet, ts, idx, val, n_in)
    return dict(zip(idx[:n].tolist(), val[:n].tolist()))



def _passive_ones(sheet):
    """Six 1s, white, yellow and silver on the platter: ``(faces, where, moves, n)`` with
    the ``n`` passive picks of ``sheet`` in ``moves``."""
    faces = np.ones(6, np.int64)
    where = np.array([play.PLATTER, play.PLATTER, play.FIELD, play.FIELD, play.FIELD,
                      play.PLATTER], np.int64)
    moves = np.zeros((play.MAX_MOVES, 3), np.int64)
    return faces, where, moves, play.passive_candidates(sheet, faces, where, moves)

def test_encoding_sees_the_twice_as_clever_sheet():
    """Silver cells, row thermometers and column fractions; yellow circled and crossed;
    the blue floor; an open green pair; the pink threshold; the bars in hand and circled;
    the return window's dice masks. Every input here is in (0, 1], all below N_BASE."""
    sheet = blank()
    sheet[L.S_SILVER] = (1 << (6 * 0 + 4)) | (1 << (6 * 2 + 4)) | (1 << (6 * 2 + 0))
    sheet[L.S_YELLOW_CIRCLED] = 0b11
    sheet[L.S_YELLOW_CROSSED] = 0b1
    sheet[L.S_BLUE], sheet[L.S_BLUE_VALUES] = 1, 9
    sheet[L.S_GREEN], sheet[L.S_GREEN_VALUES] = 1, 12  # a 6 at x2, its pair open
    sheet[L.S_PINK] = 2
    sheet[L.S_PINK_VALUES:L.S_PINK_VALUES + 2] = (3, 5)
    sheet[L.S_RETURN_GOT], sheet[L.S_RETURN_USED] = 3, 1
    ts = np.array([PH_ROLL, 1, 0b1100, 0b10010, 0], np.int64)
    got = inputs(sheet, ts)
    assert all(0 < x <= 1 for x in got.values()) and max(got) < encode.N_BASE
    assert {encode.I_SILVER_CELL + 4, encode.I_SILVER_CELL + 12, encode.I_SILVER_CELL + 16,
            encode.I_SILVER_ROW, encode.I_SILVER_ROW + 12, encode.I_SILVER_ROW + 13} <= set(got)
    assert encode.I_SILVER_ROW + 1 not in got and encode.I_SILVER_ROW + 6 not in got
    assert got[encode.I_SILVER_COL + 4] == pytest.approx(0.5)  # two of four rows have a 5
    assert got[encode.I_YELLOW_CIRCLED] == got[encode.I_YELLOW_CIRCLED + 1] == 1
    assert got[encode.I_YELLOW_CROSSED] == 1 and encode.I_YELLOW_CROSSED + 1 not in got
    assert got[encode.I_YELLOW_GROUP] == 1  # the first row (cells 0, 1) is circled
    assert got[encode.I_BLUE_FLOOR + 9 - 2] == 1 and got[encode.I_BLUE] == 1
    assert got[encode.I_GREEN_OPEN] == 1 and got[encode.I_GREEN_FIRST] == pytest.approx(0.5)
    assert got[encode.I_GREEN_NEXT + L.GREEN_MULTIPLIER[1] - 1] == 1
    assert got[encode.I_PINK_NEXT + L.PINK_MIN[2] - 1] == 1  # the 3rd slot's bonus needs 2+
    assert got[encode.I_PINK_SUM] == pytest.approx(8 / 72)
    assert {encode.I_IN_HAND + 8, encode.I_IN_HAND + 9} <= set(got)  # 2 returns in hand
    assert encode.I_IN_HAND + 10 not in got
    assert {encode.I_CIRCLES + 12, encode.I_CIRCLES + 13, encode.I_CIRCLES + 14} <= set(got)
    turn = encode.I_ROUND  # the turn block (kernels.clever_base.sparse)
    assert got[turn + sparse.TURN_PHASE + PH_ROLL] == 1 and got[turn + sparse.TURN_PICKS + 1] == 1
    assert {turn + sparse.TURN_POOL + 2, turn + sparse.TURN_POOL + 3,
            turn + sparse.TURN_PLATTER + 1, turn + sparse.TURN_PLATTER + 4} <= set(got)


def test_encoding_bonus_block_and_signed_scores():
    """The bonus block comes only past N_BASE (a silver column one mark from its bonus is
    one away); a negative green score is the negative part's input."""
    sheet = blank()
    for row in range(3):  # the 3 (column bonus: fox) marked in three rows
        sheet[L.S_SILVER] |= 1 << (6 * row + 2)
    sheet[L.S_GREEN] = 2
    sheet[L.S_GREEN_VALUES:L.S_GREEN_VALUES + 2] = (2, 12)  # 2 - 12 = -10
    ts = np.array([PH_ROLL, 0, 63, 0, 0], np.int64)
    base = inputs(sheet, ts)
    full = inputs(sheet, ts, encode.N_INPUTS)
    assert {k: v for k, v in full.items() if k < encode.N_BASE} == base
    assert full[encode.I_ONE_AWAY + L.FOX - 1] == pytest.approx(0.5)
    assert base[encode.I_GREEN_MINUS] == pytest.approx(10 / 60)
    assert encode.I_GREEN_PLUS not in base
    assert value_net.n_inputs(L.TAC, 1) == encode.N_INPUTS <= value_net.MAX_INPUTS - 18


def training_scratch(cap_area=-1, cap=0, spotlight=0.0, spot_area=-1):
    scratch = np.zeros(WORK_LEN + valued.TRAIN_LEN, np.int64)
    head = scratch[WORK_LEN:WORK_LEN + valued.R_HEADER]
    head[valued.R_CAP_AREA], head[valued.R_CAP] = cap_area, cap
    head[valued.R_CHOSEN_AREA] = -1
    head[valued.R_SPOT_AREA] = spot_area
    head[valued.R_SPOTLIGHT:valued.R_SPOTLIGHT + 1].view(np.float64)[0] = spotlight
    return scratch


def test_spotlight_biases_the_choice_not_the_recorded_value():
    """A spotlight game chooses by value + bias x (lowest area + fox points) but records
    the chosen afterstate's unbiased value (the training targets stay unbiased)."""
    sheet = blank()
    sheet[L.S_SILVER] = 1  # every area above 0: silver 2, yellow 3, blue 1, green 2, pink 4
    sheet[L.S_YELLOW_CIRCLED] = sheet[L.S_YELLOW_CROSSED] = 1
    sheet[L.S_BLUE], sheet[L.S_BLUE_VALUES] = 1, 12
    sheet[L.S_GREEN] = 2
    sheet[L.S_GREEN_VALUES:L.S_GREEN_VALUES + 2] = (4, 2)
    sheet[L.S_PINK], sheet[L.S_PINK_VALUES] = 1, 4
    sheet[L.S_FOXES] = 1
    faces, where, moves, n = _passive_ones(sheet)
    row = fresh_row(2)
    for bias in (0.0, 50.0):
        scratch = training_scratch(spotlight=bias)
        valued.choose_passive(sheet, faces, where, moves, n, True, row, np.uint64(1), 0,
                              scratch)
        best = scratch[BEST_SHEET:BEST_SHEET + play.SHEET_LEN].copy()
        check = np.zeros(WORK_LEN, np.int64)
        check[TURN:TURN + TS_LEN] = scratch[BEST_TURN:BEST_TURN + TS_LEN]
        unbiased = sheet_value(best, row, check)
        rec = scratch[WORK_LEN + valued.R_HEADER:]
        assert scratch[WORK_LEN + valued.R_COUNT] == 1
        assert rec[valued.REC_VALUE:valued.REC_VALUE + 1].view(np.float64)[0] == unbiased


def test_area_spotlight_favours_its_area():
    """An area spotlight adds bias x the points of its area: with a large bias the passive
    pick scores in the spotlit area, whichever it is (yellow's 1 is circled, so a 1 crosses
    it). The area is drawn per game from the curriculum's bit mask (0: the fox
    spotlight)."""
    sheet = blank()
    sheet[L.S_YELLOW_CIRCLED] = 1 << 2
    faces, where, moves, n = _passive_ones(sheet)
    row = fresh_row(2)
    chosen = {}
    for area in (L.SILVER_AREA, L.YELLOW_AREA, L.BLUE_AREA, L.PINK_AREA):
        scratch = training_scratch(spotlight=1000.0, spot_area=area)
        valued.choose_passive(sheet, faces, where, moves, n, True, row, np.uint64(1), 0,
                              scratch)
        best = scratch[BEST_SHEET:BEST_SHEET + play.SHEET_LEN]
        scores = np.zeros(5, np.int64)
        play.area_scores(best, scores)
        chosen[area] = scores[area]
    assert all(points > 0 for points in chosen.values()), chosen
    assert selfplay.spot_area(0, 0.5) == -1
    mask = (1 << L.YELLOW_AREA) | (1 << L.BLUE_AREA)
    assert [selfplay.spot_area(mask, u) for u in (0.0, 0.49, 0.5, 0.999)] == \
        [L.YELLOW_AREA, L.YELLOW_AREA, L.BLUE_AREA, L.BLUE_AREA]


def test_cap_drops_moves_into_the_capped_area_while_others_are_left():
    """Curriculum: once the cap is reached, active picks into the capped area are dropped
    while another pick is left, and a kept pick into it is counted."""
    sheet = blank()
    faces = np.array([3, 3, 2, 5, 4, 6], np.int64)  # yellow 3 circles cell 0; others too
    where = np.full(6, play.POOL, np.int64)
    row = fresh_row(3)
    for cap, used, may_be_yellow in ((4, 4, False), (4, 3, True)):
        moves = np.zeros((play.MAX_MOVES, 3), np.int64)
        n = play.legal_moves(sheet, faces, 63, moves, False)
        assert (moves[:n, 1] == L.YELLOW_AREA).any()
        scratch = training_scratch(L.YELLOW_AREA, cap)
        scratch[WORK_LEN + valued.R_CAPPED_USED] = used
        valued.choose_active(sheet, faces, where, 0, moves, n, row, np.uint64(1), 0, scratch,
                             RULES)
        kept = scratch[WORK_LEN + valued.R_CHOSEN_AREA]
        if not may_be_yellow:
            assert kept != L.YELLOW_AREA
        valued.finish(scratch, row)
        assert scratch[WORK_LEN + valued.R_CAPPED_USED] == used + (kept == L.YELLOW_AREA)


def curriculum(cap_area=-1, cap=0, share=0.0, bias=0.0, spot_areas=0, players=()):
    shares = (list(players) + [0.0] * selfplay.MAX_PLAYERS)[:selfplay.MAX_PLAYERS]
    return np.array([cap_area, cap, share, bias, spot_areas] + shares + [0.0], np.float64)


def run(row, first, n, snapshot, cur, stats, m=None, v=None, step=0, lr=3e-4):
    w = value_weights.member(row)
    m = np.zeros_like(w) if m is None else m
    v = np.zeros_like(w) if v is None else v
    step = selfplay.train_block(np.uint64(21), first, n, row, L.ROUNDS_BY_PLAYERS,
                                RULES[None, :], m, v, step, lr, 0.1, 0.8, 32, stats,
                                snapshot, cur, np.zeros((2, value_net.N_SKIP)), False)
    return m, v, step


def test_capped_games_keep_yellow_dice_near_the_cap():
    """With yellow capped at 0, the heuristic's values (which pour dice into yellow) put
    only the dice with no other use there (about one a game); a cap of 2 allows at most 2
    more; with the cap at 12 they put many more."""
    per_game = {}
    for cap in (0, 2, 12):
        stats = np.zeros(selfplay.N_STATS)
        run(fresh_row(teacher=1.0), 0, 64, 16, curriculum(L.YELLOW_AREA, cap), stats, lr=0.0)
        per_game[cap] = stats[selfplay.STAT_CAPPED] / stats[selfplay.STAT_GAMES]
    assert per_game[0] < 1.5
    assert per_game[2] <= per_game[0] + 2 < per_game[12] - 2, per_game


@pytest.mark.parametrize("players,n_in", [((), encode.N_BASE),
                                           ((0.25, 0.25, 0.25, 0.25), encode.N_SEATED)])
def test_snapshot_training_is_bit_identical_across_cuts_and_threads(players, n_in):
    """Self-play in snapshots of 4 games played in parallel, with the cap and spotlight,
    solo or in games of 1-4 players (the network with the seat block in every seat): the
    same weights, Adam state and statistics for one block of 24 games, two blocks
    (8 + 16), and one thread instead of two."""
    cur = curriculum(L.YELLOW_AREA, 3, 0.5, 4.0, players=players)
    results = []
    threads = numba.get_num_threads()
    try:
        for cuts, n_threads in (((0, 24), threads), ((0, 8, 24), threads), ((0, 24), 1)):
            numba.set_num_threads(n_threads)
            row = fresh_row(4, n_in=n_in)
            stats = np.zeros(selfplay.N_STATS)
            m = v = None
            step = 0
            for a, b in zip(cuts[:-1], cuts[1:]):
                m, v, step = run(row, a, b - a, 4, cur, stats, m, v, step)
            results.append((row, m, v, step, stats))
    finally:
        numba.set_num_threads(threads)
    for other in results[1:]:
        for a, b in zip(results[0], other):
            np.testing.assert_array_equal(a, b)
    seat_games = results[0][4][selfplay.STAT_GAMES]  # each seat of a game learns
    assert seat_games == 24 if not players else 24 < seat_games < 24 * 4
    assert not np.array_equal(results[0][0], fresh_row(4, n_in=n_in))  # it learnt
