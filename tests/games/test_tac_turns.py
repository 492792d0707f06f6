"""Twice As Clever turns on the shared Clever engine (rules page sections 2, 5 and 8.1):
the silver platter chain, the return action, +1 once per round, and whole solo games."""

import numpy as np

from analyzer.run.driver import BlockLoop
from kernels.clever import moves, play
from kernels.clever_base.game_rules import (N_GAME_RULES, RULE_GAME, RULE_RETURN_ON_REROLL,
                                            RULE_SHEET_FLAGS, RULE_SKIP_ROLL)
from kernels.clever_base.sheet import FLAG_PLUS_PER_ROUND, FLAG_RETURN_EMPTY_POOL, H_PLUS_TAKEN, TAC
from kernels.rng import turn_stream
from kernels.twice_as_clever import layout as L
from kernels.twice_as_clever.rules import total_score

W, Y, B, G, PK, S = range(6)


def policy(kind):
    row = np.zeros(play.N_POL)
    row[play.KIND] = kind
    return row


def cell(row, value):
    return 6 * row + value - 1


def test_8_1_platter_chain_marks_the_dice_a_silver_pick_sends_down():
    """8.1: the silver 5 into silver sends W2 Y1 B1 G3 P4 to the platter; each coloured
    die marks its own row at its face, white any row (greedy: the row that scores most,
    the yellow row with two marks already)."""
    sheet = L.new_sheet()
    faces = np.array([2, 1, 1, 3, 4, 5], np.int64)
    where = np.full(6, play.POOL, np.int64)
    scratch = np.empty(play.WORK_LEN, np.int64)
    pol = policy(play.GREEDY)
    play.apply_move(sheet, faces, S, L.SILVER_AREA, 0, pol, np.uint64(1), 0, scratch)
    play.chain_marks(sheet, faces, where, S, False, pol, np.uint64(1), 0, scratch)
    marked = {cell(0, 5), cell(0, 1), cell(1, 1), cell(2, 3), cell(3, 4), cell(0, 2)}
    assert sheet[L.S_SILVER] == sum(1 << c for c in marked)
    play.to_field(faces, where, S)
    assert list(where) == [play.PLATTER] * 5 + [play.FIELD]


def test_8_1_chain_only_for_dice_this_pick_sends():
    """8.1: dice already on the platter, and dice not lower than the pick, do not chain;
    a coloured die whose own row is full at its face marks nothing."""
    sheet = L.new_sheet()
    sheet[L.S_SILVER] = 1 << cell(1, 1)  # blue row: the 1 is taken
    faces = np.array([6, 1, 1, 3, 5, 5], np.int64)
    where = np.array([play.POOL, play.PLATTER, play.POOL, play.POOL, play.POOL, play.POOL])
    scratch = np.empty(play.WORK_LEN, np.int64)
    play.chain_marks(sheet, faces, where, S, False, policy(play.GREEDY), np.uint64(1), 0,
                     scratch)
    assert sheet[L.S_SILVER] == (1 << cell(1, 1)) | (1 << cell(2, 3))  # only green 3


def test_5_return_brings_a_platter_die_back():
    """5: greedy brings back the platter die whose six faces are worth most right away
    (pink scores its face; a yellow circle scores nothing yet); no platter die, no
    return."""
    sheet = L.new_sheet()
    faces = np.array([1, 1, 1, 1, 1, 1], np.int64)
    where = np.array([play.FIELD, play.PLATTER, play.POOL, play.POOL, play.PLATTER, play.POOL])
    scratch = np.empty(play.WORK_LEN, np.int64)
    assert play.return_die(sheet, faces, where, policy(play.GREEDY), np.uint64(3), 0,
                           scratch) == PK
    where[Y] = where[PK] = play.FIELD
    assert play.return_die(sheet, faces, where, policy(play.GREEDY), np.uint64(3), 0,
                           scratch) == -1


def test_5_plus_one_once_per_round():
    """5 / 12.1: with FLAG_PLUS_PER_ROUND a die taken by +1 after the active turn cannot be
    taken again after the passive turn of the same round; without it (once per turn), or
    in the next round, it can."""
    faces = np.array([1, 1, 1, 1, 6, 1], np.int64)  # the pink 6 is the best +1 (6 points)
    moves = np.zeros((play.MAX_MOVES, 3), np.int64)
    scratch = np.empty(play.WORK_LEN, np.int64)
    pol = policy(play.GREEDY)
    stream = np.uint64(5)
    for flags, again in ((FLAG_PLUS_PER_ROUND, False), (0, True)):
        sheet = L.new_sheet()
        sheet[L.S_FLAGS] = flags
        sheet[L.S_PLUS_GOT] = 1
        assert play.plus_ones(sheet, faces, pol, stream, 0, moves, scratch, False, False,
                              np.zeros(play.LOG_LEN, np.int64)) == 1
        assert sheet[L.S_PINK_VALUES] == 6
        sheet[L.S_PLUS_GOT] = 2  # a second +1, used after the next turn of the round
        assert play.plus_ones(sheet, faces, pol, stream, 0, moves, scratch, False, False,
                              np.zeros(play.LOG_LEN, np.int64)) == 1
        assert (sheet[L.S_PINK_VALUES + 1] == 6) == again
        if flags:
            assert sheet[H_PLUS_TAKEN] & (1 << PK)
            play.round_bonus(sheet, 5, np.zeros(N_GAME_RULES, np.int64), pol,
                             np.uint64(turn_stream(np.uint64(1), 0, 0)), scratch)
            assert sheet[H_PLUS_TAKEN] == 0  # a new round frees every die


def test_2_whole_solo_games_run_on_the_shared_engine():
    """2, 7: solo games of Twice As Clever through the same play loop as That's Pretty
    Clever: every sheet ends with six rounds' worth of marks and a score within the
    sheet's bounds; greedy beats random."""
    rules = np.zeros(N_GAME_RULES, np.int64)
    rules[:6] = L.ROUND_BONUS
    rules[RULE_GAME] = TAC
    rules[RULE_SHEET_FLAGS] = FLAG_PLUS_PER_ROUND
    means = {}
    for kind in (play.RANDOM, play.GREEDY):
        keys = np.arange(1, 5, dtype=np.uint64)
        out = np.zeros((4, 1, 1, play.COL_HIST + play.HIST_BINS), np.int64)
        BlockLoop.of(play.games_block)(keys, np.full(4, 100, np.int64), out,
                             policy(kind)[None, :], False, 6, rules)
        acc = out.sum(axis=0)[0, 0]
        assert acc[play.COL_GAMES] == 400
        assert acc[play.COL_BONUSES + L.REROLL] >= 400  # the round-1 re-roll at least
        means[kind] = acc[play.COL_SCORE_SUM] / 400
    assert 0 < means[play.RANDOM] < means[play.GREEDY] < 88 + 165 + 78 + 92 + 72
    sheets = np.zeros((1, L.SHEET_LEN), np.int64)
    scratch = np.empty((1, play.WORK_LEN), np.int64)
    moves = np.zeros((play.MAX_MOVES, 3), np.int64)
    play.play_game(np.uint64(9), 0, policy(play.GREEDY)[None, :], 6, rules, sheets, scratch,
                   moves, np.zeros(6, np.int64), np.zeros(6, np.int64),
                   np.zeros((1, play.LOG_LEN), np.int64))
    assert sheets[0, L.H_GAME] == TAC and total_score(sheets[0]) > 0


def test_12_4_third_pick_chains_every_leftover_with_the_switch():
    """12.4: by default only dice lower than a silver third pick chain; with
    FLAG_CHAIN_LEFTOVERS every die left in play does (here the yellow 6 above the silver
    4), and only on the third pick."""
    faces = np.array([5, 6, 1, 1, 1, 4], np.int64)  # W5 Y6 B1 G1 P1 S4
    scratch = np.empty(play.WORK_LEN, np.int64)
    pol = policy(play.GREEDY)
    marked = {}
    for flags, last in ((0, True), (L.FLAG_CHAIN_LEFTOVERS, False), (L.FLAG_CHAIN_LEFTOVERS, True)):
        sheet = L.new_sheet()
        sheet[L.S_FLAGS] = flags
        where = np.full(6, play.POOL, np.int64)
        play.chain_marks(sheet, faces, where, S, last, pol, np.uint64(1), 0, scratch)
        marked[(flags, last)] = int(sheet[L.S_SILVER])
    lower = (1 << cell(1, 1)) | (1 << cell(2, 1)) | (1 << cell(3, 1))
    assert marked[(0, True)] == marked[(L.FLAG_CHAIN_LEFTOVERS, False)] == lower
    extra = marked[(L.FLAG_CHAIN_LEFTOVERS, True)] & ~lower
    assert extra & (1 << cell(0, 6))  # the yellow 6 in the yellow row
    assert bin(extra).count("1") == 2  # ... and the white 5 in some row


def _returns_used_from_pick_2(return_on_reroll, turns=4000):
    """Mean returns a random player spends in the rest of a turn from its 2nd pick, with
    one return and five re-rolls in hand and the green die on the platter."""
    rules = np.zeros(N_GAME_RULES, np.int64)
    rules[RULE_GAME], rules[RULE_SHEET_FLAGS] = TAC, FLAG_PLUS_PER_ROUND
    rules[RULE_RETURN_ON_REROLL] = return_on_reroll
    scratch = np.empty(play.WORK_LEN, np.int64)
    moves = np.zeros((play.MAX_MOVES, 3), np.int64)
    log = np.zeros(play.LOG_LEN, np.int64)
    used = np.zeros(turns)
    for t in range(turns):
        sheets = L.new_sheet()[None, :].copy()
        sheets[0, L.S_RETURN_GOT], sheets[0, L.S_REROLL_GOT] = 1, 5
        faces = np.array([4, 2, 3, 1, 5, 6], np.int64)
        where = np.array([play.POOL, play.FIELD, play.POOL, play.PLATTER, play.POOL,
                          play.POOL], np.int64)
        play.active_turn(sheets, 0, faces, where, policy(play.RANDOM),
                         np.uint64(turn_stream(np.uint64(7), t, 0)), moves, scratch, rules, log, 1)
        used[t] = sheets[0, L.S_RETURN_USED]
    return used.mean(), used.std(ddof=1) / np.sqrt(turns)


def test_12_5_return_timing_switch():
    """12.5: with returns only before a roll, the random player (a return half the time
    when offered) is offered its one return before rolls 2 and 3: it spends it with
    probability exactly 3/4. Allowed between a roll and its re-roll too, it gets more
    chances and spends it more often (both within 5 standard errors)."""
    only_rolls, se = _returns_used_from_pick_2(0)
    assert abs(only_rolls - 0.75) < 5 * se
    with_rerolls, se2 = _returns_used_from_pick_2(1)
    assert with_rerolls - only_rolls > 5 * np.hypot(se, se2)


def _turn_from_empty_pool(flags, kind):
    """A turn resumed before the roll of pick 2 with no die in play (white picked, the other
    five on the platter) and one return in hand: ``(returns used, picks made)``."""
    rules = np.zeros(N_GAME_RULES, np.int64)
    rules[RULE_GAME], rules[RULE_SHEET_FLAGS] = TAC, flags
    sheets = L.new_sheet()[None, :].copy()
    sheets[0, L.S_FLAGS] = flags
    sheets[0, L.S_RETURN_GOT] = 1
    faces = np.array([6, 2, 3, 1, 5, 4], np.int64)
    where = np.array([play.FIELD] + [play.PLATTER] * 5, np.int64)
    log = np.zeros(play.LOG_LEN, np.int64)
    play.active_turn(sheets, 0, faces, where, policy(kind), np.uint64(turn_stream(np.uint64(3), 0, 0)),
                     np.zeros((play.MAX_MOVES, 3), np.int64),
                     np.zeros(play.WORK_LEN, np.int64), rules, log, 1)
    return sheets[0, L.S_RETURN_USED], log[play.LOG_PICKS:play.LOG_PICKS + 3].sum()


def test_12_9_return_into_an_empty_pool():
    """2, 5, 12.9: a pick that leaves no die in play ends the turn's rolls by default
    (ends_turn): no return is offered and no pick follows (greedy, random). With
    FLAG_RETURN_EMPTY_POOL (return_allowed) greedy brings a platter die back, and the
    returned die is rolled and picked."""
    for kind in (play.GREEDY, play.RANDOM):
        assert _turn_from_empty_pool(FLAG_PLUS_PER_ROUND, kind) == (0, 0)
    assert _turn_from_empty_pool(FLAG_PLUS_PER_ROUND | FLAG_RETURN_EMPTY_POOL,
                                 play.GREEDY) == (1, 1)


def test_5_12_9_when_the_turn_rolls_on_and_a_return_may_be_used():
    """5 / 12.9, the predicates the engine's turn and the recorded games share: the turn
    rolls on while a die is in play, or with none when return_allowed lets a return bring
    one back; a return needs one in hand and the die on the platter."""
    sheet = L.new_sheet()
    where = np.full(6, play.FIELD, np.int64)
    where[Y] = play.PLATTER
    assert not moves.rolls_on(sheet, where)
    sheet[L.S_FLAGS] |= FLAG_RETURN_EMPTY_POOL
    assert moves.rolls_on(sheet, where)
    assert not moves.may_return(sheet, where, Y)  # no return in hand
    sheet[L.S_RETURN_GOT] = 1
    assert moves.may_return(sheet, where, Y) and not moves.may_return(sheet, where, B)
    where[B] = play.POOL
    sheet[L.S_FLAGS] &= ~FLAG_RETURN_EMPTY_POOL
    assert moves.rolls_on(sheet, where)


def _first_picks(skip_roll, turns=3000):
    """How many of ``turns`` random first rolls (a blank sheet: every roll usable) were
    used for a pick."""
    rules = np.zeros(N_GAME_RULES, np.int64)
    rules[RULE_GAME], rules[RULE_SHEET_FLAGS] = TAC, FLAG_PLUS_PER_ROUND
    rules[RULE_SKIP_ROLL] = skip_roll
    log = np.zeros(play.LOG_LEN, np.int64)
    for t in range(turns):
        sheets = L.new_sheet()[None, :].copy()
        play.active_turn(sheets, 0, np.zeros(6, np.int64), np.zeros(6, np.int64),
                         policy(play.RANDOM), np.uint64(turn_stream(np.uint64(8), t, 0)),
                         np.zeros((play.MAX_MOVES, 3), np.int64),
                         np.zeros(play.WORK_LEN, np.int64), rules, log, 0)
    return log[play.LOG_PICKS]


def test_2_skip_roll_random_leaves_usable_rolls_unused():
    """2 (skip_roll): on a blank sheet every first roll is usable; with skip_roll=never the
    random player picks from all of them, with allowed it leaves some unused (leaving the
    roll is one more of its choices, about 1 in 15 here)."""
    assert _first_picks(0) == 3000
    assert 3000 * 0.8 < _first_picks(1) < 3000 - 50


def test_2_skip_roll_is_valued_beside_the_picks():
    """2 (skip_roll), the value policy: with a usable roll left unused allowed, its best
    choice is worth the better of the best pick and the forfeit (index -1 when the
    forfeit wins); without, the best pick."""
    from analyzer.games.twice_as_clever.model import GAME
    from kernels.clever import valued
    pol = GAME.parse_policy("learned")
    rng = np.random.default_rng(5)
    skipped = 0
    for k in range(60):
        sheet = L.new_sheet()
        sheet[L.S_YELLOW_CIRCLED] = sheet[L.S_YELLOW_CROSSED] = int(rng.integers(0, 1 << 10))
        sheet[L.S_SILVER] = int(rng.integers(0, 1 << 24))
        faces = rng.integers(1, 7, 6).astype(np.int64)
        where = np.full(6, play.POOL, np.int64)
        moves = np.zeros((play.MAX_MOVES, 3), np.int64)
        n = play.legal_moves(sheet, faces, 63, moves, False)
        results = {}
        for skip, count in ((0, n), (1, n), (1, 0)):
            rules = np.zeros(N_GAME_RULES, np.int64)
            rules[RULE_GAME], rules[RULE_SKIP_ROLL] = TAC, skip
            results[skip, count] = valued.choose_active(
                sheet, faces, where, k % 3, moves.copy(), count, pol, np.uint64(1), 0,
                np.zeros(play.WORK_LEN, np.int64), rules)
        (pick, v_pick), (best, v_best), (_, v_skip) = \
            results[0, n], results[1, n], results[1, 0]
        assert pick >= 0 and v_best == max(v_pick, v_skip)
        assert (best == -1) == (v_skip > v_pick) and (best == pick or best == -1)
        skipped += best == -1
    assert skipped < 60
