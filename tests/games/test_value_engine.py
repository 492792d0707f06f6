"""The value policy's engine: the afterstate each decision kind leaves (sheet and
turn state, as the rules pages say), the network's gradient and Adam step, the encoding,
the bonus-block transplant, and self-play training (resumes bit for bit; a short run
improves on its start)."""

import json

import numpy as np
import pytest

from analyzer.games.clever import value_weights
from analyzer.games.clever.training import games as tgames
from analyzer.run.driver import BlockLoop
from analyzer.games.thats_pretty_clever.model import GAME as TPC_GAME
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.params import defaults
from kernels.clever import net, play, selfplay, valued, value_net
from kernels.clever_base.game_rules import RULE_FORFEIT_TO_PLATTER
from kernels.clever.policies import BEST_SHEET, BEST_TURN, TURN, WORK_LEN
from kernels.clever_base.sheet import H_PLUS_USED, H_REROLL_USED, H_RETURN_USED, TAC, TPC
from kernels.clever.sheets import start_sheet
from kernels.clever_base.turn import (
    PH_ACTIVE_PLUS,
    PH_OVER,
    PH_PASSIVE,
    PH_PASSIVE_PLUS,
    PH_ROLL,
    TS_LEN,
    TS_PHASE,
    TS_PICKS,
    TS_PLATTER,
    TS_POOL,
    TS_TAKEN,
)
from kernels.thats_pretty_clever import encode
from kernels.thats_pretty_clever import layout as TL
from kernels.twice_as_clever import layout as XL

W, Y, B, G, ORANGE, P = range(6)
POOL, FIELD, PLATTER = play.POOL, play.FIELD, play.PLATTER


def value_row(game, seed=1, teacher=0.0):
    """A value policy row: a fresh network, or the heuristic's values through the value
    policy's decisions (``teacher`` 1)."""
    n_in = int(value_net.n_inputs(game.kernel_game, False))
    w = value_weights.initial_weights(n_in, seed)
    return value_weights.policy_row([w], n_in, teacher, game.heuristic_row())


def blank(game):
    sheet = np.zeros(play.SHEET_LEN, np.int64)
    start_sheet(sheet, game.kernel_game, 6, 0)
    return sheet


def turn(scratch, at=BEST_TURN):
    return scratch[at:at + TS_LEN].copy()


def only(move):
    moves = np.zeros((play.MAX_MOVES, 3), np.int64)
    moves[0] = move
    return moves


def test_section_4_active_pick_afterstate_moves_lower_dice_to_the_platter():
    """TPC section 4: a pick of the orange 4 enters it, the dice in play showing less go
    to the platter; the afterstate is the next roll's (picks 1, the higher dice in the
    pool) with the pick's sheet."""
    sheet = blank(TPC_GAME)
    faces = np.array([5, 1, 3, 6, 4, 2], np.int64)
    where = np.full(6, POOL, np.int64)
    scratch = np.zeros(WORK_LEN, np.int64)
    rules = TPC_GAME.game_rules(defaults(TPC_GAME.params))
    i, v = valued.choose_active(sheet, faces, where, 0, only((ORANGE, TL.ORANGE_AREA, 0)), 1,
                                value_row(TPC_GAME), np.uint64(1), 0, scratch, rules)
    assert i == 0 and np.isfinite(v)
    best = scratch[BEST_SHEET:BEST_SHEET + play.SHEET_LEN]
    assert best[TL.S_ORANGE] == 1 and best[TL.S_ORANGE_VALUES] == 4
    ts = turn(scratch)
    assert ts[TS_PHASE] == PH_ROLL and ts[TS_PICKS] == 1
    assert ts[TS_POOL] == (1 << W) | (1 << G)  # 5 and 6 stay in play
    assert ts[TS_PLATTER] == (1 << Y) | (1 << B) | (1 << P)


def test_section_4_third_pick_ends_in_the_plus_one_window():
    """TPC section 4: after the third pick the dice left go to the platter and the turn's
    +1 window follows."""
    sheet = blank(TPC_GAME)
    faces = np.array([1, 6, 2, 3, 4, 5], np.int64)
    where = np.array([POOL, POOL, FIELD, FIELD, PLATTER, POOL], np.int64)
    scratch = np.zeros(WORK_LEN, np.int64)
    rules = TPC_GAME.game_rules(defaults(TPC_GAME.params))
    valued.choose_active(sheet, faces, where, 2, only((P, TL.PURPLE_AREA, 0)), 1,
                         value_row(TPC_GAME), np.uint64(1), 0, scratch, rules)
    ts = turn(scratch)
    assert ts[TS_PHASE] == PH_ACTIVE_PLUS and ts[TS_PICKS] == 3 and ts[TS_POOL] == 0
    assert ts[TS_PLATTER] == (1 << W) | (1 << Y) | (1 << ORANGE)


@pytest.mark.parametrize("to_platter", [0, 1])
def test_section_4_forfeit_uses_a_pick(to_platter):
    """TPC section 4 (open point: forfeited dice): a roll with no legal pick uses up the
    pick; the dice stay in play, or go to the platter with forfeited_dice=platter."""
    sheet = blank(TPC_GAME)
    faces = np.array([1, 2, 3, 4, 5, 6], np.int64)
    where = np.array([POOL, POOL, FIELD, PLATTER, PLATTER, PLATTER], np.int64)
    scratch = np.zeros(WORK_LEN, np.int64)
    rules = TPC_GAME.game_rules(defaults(TPC_GAME.params))
    rules[RULE_FORFEIT_TO_PLATTER] = to_platter
    i, _ = valued.choose_active(sheet, faces, where, 1, only((W, 0, 0)), 0,
                                value_row(TPC_GAME), np.uint64(1), 0, scratch, rules)
    ts = turn(scratch)
    assert i == -1 and ts[TS_PICKS] == 2
    pool = (1 << W) | (1 << Y)
    if to_platter:
        assert ts[TS_PHASE] == PH_ACTIVE_PLUS and ts[TS_POOL] == 0
        assert ts[TS_PLATTER] == pool | 0b111000
    else:
        assert ts[TS_PHASE] == PH_ROLL and ts[TS_POOL] == pool


def test_section_10_reroll_afterstate_spends_one_and_rolls_the_same_dice():
    """TPC section 10: a re-roll spends one unlocked re-roll and rolls the dice in play
    again (the picks made stay); with none unlocked there is no re-roll choice."""
    sheet = blank(TPC_GAME)
    where = np.array([POOL, POOL, FIELD, POOL, PLATTER, POOL], np.int64)
    scratch = np.zeros(WORK_LEN, np.int64)
    row = value_row(TPC_GAME)
    assert valued.reroll_instead(sheet, where, 1, 0.0, row, scratch) == (False, -np.inf)
    sheet[TL.S_REROLL_GOT] = 1
    again, v = valued.reroll_instead(sheet, where, 1, -1e9, row, scratch)
    assert again and np.isfinite(v)
    best = scratch[BEST_SHEET:BEST_SHEET + play.SHEET_LEN]
    assert best[H_REROLL_USED] == 1 and sheet[H_REROLL_USED] == 0
    ts = turn(scratch)
    assert ts[TS_PHASE] == PH_ROLL and ts[TS_PICKS] == 1
    assert ts[TS_POOL] == 0b101011 and ts[TS_PLATTER] == 1 << ORANGE
    again, _ = valued.reroll_instead(sheet, where, 1, 1e9, row, scratch)
    assert not again


def test_section_10_plus_one_afterstates_and_stopping():
    """TPC section 10: a +1 enters a die at its face, spends one +1 and takes the die for
    the rest of the turn (the same window goes on); stopping moves on to ``stop_phase``
    (the game's end is valued at the final score)."""
    sheet = blank(TPC_GAME)
    sheet[TL.S_PLUS_GOT] = 2
    faces = np.array([1, 2, 3, 4, 5, 6], np.int64)
    scratch = np.zeros(WORK_LEN, np.int64)
    row = value_row(TPC_GAME)
    training = np.zeros(WORK_LEN + valued.TRAIN_LEN, np.int64)
    head = training[WORK_LEN:WORK_LEN + valued.R_HEADER]
    head[valued.R_EPSILON:valued.R_EPSILON + 1].view(np.float64)[0] = 1.0  # always explore
    for seed in range(40):  # explored choices: the +1 (index 0) or stopping (-1)
        head[valued.R_STREAM] = seed
        i = valued.choose_plus(sheet, faces, only((P, TL.PURPLE_AREA, 0)), 1, 1 << G,
                               PH_ACTIVE_PLUS, PH_PASSIVE, row, np.uint64(1), 0, training)
        ts = turn(training)
        best = training[BEST_SHEET:BEST_SHEET + play.SHEET_LEN]
        if i == 0:
            assert ts[TS_PHASE] == PH_ACTIVE_PLUS and ts[TS_TAKEN] == (1 << G) | (1 << P)
            assert best[H_PLUS_USED] == 1 and best[TL.S_PURPLE_VALUES] == 6
        else:
            assert i == -1 and ts[TS_PHASE] == PH_PASSIVE and ts[TS_TAKEN] == 0
            assert best[H_PLUS_USED] == 0 and best[TL.S_PURPLE] == 0
        assert (turn(training, TURN) == ts).all()
    i = valued.choose_plus(sheet, faces, only((P, TL.PURPLE_AREA, 0)), 1, 0,
                           PH_PASSIVE_PLUS, PH_OVER, row, np.uint64(1), 0, scratch)
    assert i == 0  # on the last turn a +1 that scores beats the final score without it


def test_section_5_passive_pick_or_decline():
    """TPC section 5 (open point: the passive pick may be declined): the afterstate of a
    platter pick or of declining is the passive +1 window."""
    sheet = blank(TPC_GAME)
    faces = np.array([1, 2, 3, 4, 5, 6], np.int64)
    where = np.array([PLATTER, PLATTER, FIELD, FIELD, PLATTER, FIELD], np.int64)
    scratch = np.zeros(WORK_LEN, np.int64)
    row = value_row(TPC_GAME)
    i = valued.choose_passive(sheet, faces, where, only((ORANGE, TL.ORANGE_AREA, 0)), 1, False,
                              row, np.uint64(1), 0, scratch)
    assert i == 0 and scratch[BEST_SHEET + TL.S_ORANGE] == 1
    ts = turn(scratch)
    assert ts[TS_PHASE] == PH_PASSIVE_PLUS and ts[TS_PLATTER] == 0b10011
    assert valued.choose_passive(sheet, faces, where, only((ORANGE, TL.ORANGE_AREA, 0)), 0, True,
                                 row, np.uint64(1), 0, scratch) == -1


def test_tac_8_1_silver_pick_afterstate_includes_the_platter_chain():
    """TAC 8.1: a silver pick's afterstate carries the chain marks of the dice it sends to
    the platter (the same sheet as the pick followed by ``chain_marks``; the pick is the
    only choice: no leaving the roll unused)."""
    rules = TAC_GAME.game_rules({**defaults(TAC_GAME.params), "skip_roll": "never"})
    sheet = blank(TAC_GAME)
    faces = np.array([2, 1, 1, 3, 4, 5], np.int64)
    where = np.full(6, POOL, np.int64)
    scratch = np.zeros(WORK_LEN, np.int64)
    row = value_row(TAC_GAME, teacher=1.0)
    S = 5
    valued.choose_active(sheet, faces, where, 0, only((S, XL.SILVER_AREA, 0)), 1, row,
                         np.uint64(1), 0, scratch, rules)
    expected = sheet.copy()
    check = np.zeros(WORK_LEN, np.int64)
    check[TURN:TURN + TS_LEN] = scratch[BEST_TURN:BEST_TURN + TS_LEN]
    play.apply_move(expected, faces, S, XL.SILVER_AREA, 0, row, np.uint64(1), 0, check)
    play.chain_marks(expected, faces, where, S, False, row, np.uint64(1), 4096, check)
    best = scratch[BEST_SHEET:BEST_SHEET + play.SHEET_LEN]
    assert (best[:XL.USED_LEN] == expected[:XL.USED_LEN]).all()
    pick_only = sheet.copy()
    play.apply_move(pick_only, faces, S, XL.SILVER_AREA, 0, row, np.uint64(1), 0, check)
    assert bin(best[XL.S_SILVER]).count("1") > bin(pick_only[XL.S_SILVER]).count("1")
    assert turn(scratch)[TS_PLATTER] == 0b11111


def test_tac_5_return_afterstate_brings_a_platter_die_back():
    """TAC section 5: a return spends one return and moves a platter die into the pool
    before the roll; proceeding leaves everything as it is (the chosen one of each
    position, by the heuristic's values through the value policy)."""
    row = value_row(TAC_GAME, teacher=1.0)
    seen = set()
    for got, platter in ((1, 0b10010), (2, 0b10010), (1, 0b100), (3, 0b11010)):
        sheet = blank(TAC_GAME)
        sheet[XL.S_RETURN_GOT] = got
        pool = 0b1100 & ~platter
        where = np.array([POOL if (pool >> d) & 1 else (PLATTER if (platter >> d) & 1
                          else FIELD) for d in range(6)], np.int64)
        scratch = np.zeros(WORK_LEN, np.int64)
        d = valued.choose_return(sheet, where, 1, row, scratch)
        seen.add(d >= 0)
        ts = turn(scratch)
        best = scratch[BEST_SHEET:BEST_SHEET + play.SHEET_LEN]
        assert ts[TS_PHASE] == PH_ROLL and ts[TS_PICKS] == 1
        if d < 0:
            assert ts[TS_POOL] == pool and ts[TS_PLATTER] == platter
            assert best[H_RETURN_USED] == 0
        else:
            assert (platter >> d) & 1 and best[H_RETURN_USED] == 1
            assert ts[TS_POOL] == pool | (1 << d) and ts[TS_PLATTER] == platter & ~(1 << d)


def test_encoding_inputs_are_in_unit_range_and_match_the_turn_state():
    """Every input is in (0, 1]; the phase, picks and dice masks are where the encoding's
    table says; the bonus block adds inputs only past ``N_BASE``."""
    sheet = blank(TPC_GAME)
    sheet[TL.S_BLUE] = 0b101
    sheet[TL.S_FOXES] = 2
    ts = np.array([PH_PASSIVE, 2, 0b11, 0b1100, 0b100000], np.int64)
    idx = np.zeros(value_net.MAX_INPUTS, np.int64)
    val = np.zeros(value_net.MAX_INPUTS, np.float32)
    n = encode.encode(sheet, ts, idx, val, encode.N_BASE)
    got = dict(zip(idx[:n].tolist(), val[:n].tolist()))
    assert all(0 < x <= 1 for x in got.values()) and max(got) < encode.N_BASE
    assert got[encode.I_PHASE + PH_PASSIVE] == 1 and got[encode.I_PICKS + 2] == 1
    assert {encode.I_POOL, encode.I_POOL + 1, encode.I_PLATTER + 2, encode.I_PLATTER + 3,
            encode.I_TAKEN + 5} <= set(got)
    assert got[encode.I_BLUE_SUM] == 1 and got[encode.I_BLUE_SUM + 2] == 1
    assert encode.I_BLUE_COUNT + 1 in got and encode.I_BLUE_COUNT + 2 not in got
    assert got[encode.I_FOX_COUNT] == pytest.approx(0.2)
    m = encode.encode(sheet, ts, idx, val, encode.N_INPUTS)
    assert m > n and (idx[n:m] >= encode.N_BASE).all() and (val[n:m] <= 1).all()


@pytest.mark.parametrize("h1", net.WIDTHS)
def test_gradient_matches_finite_differences(h1):
    """``net.add_gradient`` is the derivative of ``net.forward``, weight by weight (a
    sample of each layer's weights, float64 differences of the float32 network), at every
    first-layer width."""
    n_in = encode.N_BASE
    w = value_weights.initial_weights(n_in, 3, h1)
    b1, w2, b2, w3, b3, size = net.net_offsets(n_in, h1)
    assert net.width_of(size, n_in) == h1
    rng = np.random.default_rng(2)
    w[w3:] = rng.normal(0, 0.3, size - w3).astype(np.float32)
    w[b1:w2] = 0.05
    w[b2:w3] = 0.05
    sheet = blank(TPC_GAME)
    sheet[TL.S_YELLOW] |= 0b10011
    ts = np.array([PH_ROLL, 1, 0b110011, 0b1100, 0], np.int64)
    idx = np.zeros(value_net.MAX_INPUTS, np.int64)
    val = np.zeros(value_net.MAX_INPUTS, np.float32)
    nnz = encode.encode(sheet, ts, idx, val, n_in)
    a1, a2, d2 = (np.zeros(net.MAX_H1, np.float32), np.zeros(net.H2, np.float32),
                  np.zeros(net.H2, np.float32))
    grad = np.zeros(size, np.float32)
    net.forward(w, n_in, idx, val, nnz, a1, a2)
    net.add_gradient(w, n_in, idx, val, nnz, a1, a2, np.float32(1.0), grad, d2)
    picks = np.concatenate([idx[:3] * h1 + np.arange(3), idx[:3] * h1 + h1 - 1,
                            rng.integers(b1, size, 60)])
    for k in picks:
        shifted = []
        for h in (-1e-2, 1e-2):
            ww = w.copy()
            ww[k] += h
            shifted.append(float(net.forward(ww, n_in, idx, val, nnz, a1.copy(), a2.copy())))
        numeric = (shifted[1] - shifted[0]) / 2e-2
        assert grad[k] == pytest.approx(numeric, abs=2e-3, rel=2e-2), k


def test_adam_step_matches_its_formula():
    w = np.array([0.5, -1.0, 2.0], np.float32)
    g = np.array([0.1, -0.2, 0.0], np.float32)
    m, v = np.zeros(3, np.float32), np.zeros(3, np.float32)
    expected = w - 0.01 * (g / 0.1 * 0.1) / (np.sqrt(g * g) + 1e-8)  # t = 1: m^ = g, v^ = g^2
    net.adam_step(w, g.copy(), m, v, 1, 0.01)
    np.testing.assert_allclose(w, expected, rtol=1e-5, atol=1e-6)


def test_bonus_block_transplant_plays_exactly_as_before():
    """Widening a network to the bonus block's inputs with zero first-layer rows leaves
    its values, so its play, unchanged (the same games, bit for bit)."""
    rules = TPC_GAME.game_rules(defaults(TPC_GAME.params))
    w = value_weights.initial_weights(encode.N_BASE, 5)
    wide = value_weights.widen(w, encode.N_BASE, encode.N_INPUTS)
    assert value_weights.inputs_of(wide) == encode.N_INPUTS
    out = []
    for weights, n_in in ((w, encode.N_BASE), (wide, encode.N_INPUTS)):
        row = value_weights.policy_row([weights], n_in)
        job_out = np.zeros((1, 1, 1, play.COL_HIST + play.HIST_BINS), np.int64)
        BlockLoop.of(play.games_block)(np.array([7], np.uint64), np.array([24]), job_out,
                             row[None, :], False, 6, rules)
        out.append(job_out)
    assert (out[0] == out[1]).all()


def test_a_wider_first_layer_plays_exactly_as_before():
    """Widening a network's first hidden layer (new units' second-layer rows zero) leaves
    its values, so its play, unchanged (the same games, bit for bit); its Adam moments
    widen with zeros; and the widened network learns in every new unit's row."""
    rules = TPC_GAME.game_rules(defaults(TPC_GAME.params))
    n_in = encode.N_INPUTS
    w = value_weights.initial_weights(n_in, 5)
    wide = value_weights.widen_hidden(w, n_in, net.H1, net.MAX_H1, seed=1)
    assert wide.size == net.net_size(n_in, net.MAX_H1)
    assert value_weights.inputs_of(wide, net.MAX_H1) == n_in
    moments = value_weights.widen_hidden(np.ones_like(w), n_in, net.H1, net.MAX_H1, 0,
                                         moments=True)
    assert moments.sum() == w.size
    out = []
    for weights in (w, wide):
        row = value_weights.policy_row([weights], n_in)
        assert value_net.hidden_of(row, play.W_NET) == net.width_of(weights.size, n_in)
        job_out = np.zeros((1, 1, 1, play.COL_HIST + play.HIST_BINS), np.int64)
        BlockLoop.of(play.games_block)(np.array([7], np.uint64), np.array([24]), job_out,
                                       row[None, :], False, 6, rules)
        out.append(job_out)
    assert (out[0] == out[1]).all()
    row = value_weights.policy_row([wide], n_in)
    learner = value_weights.member(row)
    m, v = np.zeros_like(learner), np.zeros_like(learner)
    train(row, m, v, 0, 8, np.zeros(selfplay.N_STATS))
    _, w2, b2, _, _, _ = net.net_offsets(n_in, net.MAX_H1)
    assert np.abs(learner[w2:b2].reshape(net.MAX_H1, net.H2)[net.H1:]).sum() > 0


def test_a_row_holds_one_network_of_the_widest_first_layer():
    n_in = value_net.MAX_INPUTS  # the most inputs a row is made for
    w = value_weights.initial_weights(n_in, 1, net.MAX_H1)
    value_weights.policy_row([w], n_in)
    with pytest.raises(ValueError, match="do not fit"):
        value_weights.policy_row([w, w], n_in)
    narrow = value_weights.initial_weights(n_in, 1)
    with pytest.raises(ValueError, match="one first-layer width"):  # only the last may differ
        value_weights.policy_row([narrow, w, narrow], n_in)
    value_weights.policy_row([w, narrow], n_in)  # a conditioned network and its partner fit


def train(row, m, v, first, n, stats, step=0, epsilon=0.1, lr=3e-4, lam=0.8,
          curriculum=None, win_bonus=0.0, trainable=(0, -1), skip=None, teacher=None,
          teach=0.0):
    """Self-play training of ``row`` (with ``skip``: float64[2, N_SKIP] moments, the skip
    head learns too; with ``teacher``, a policy row, it teaches every game with weight
    ``teach``)."""
    rules = TPC_GAME.game_rules(defaults(TPC_GAME.params))
    curriculum = selfplay.no_curriculum() if curriculum is None else curriculum
    moments = np.zeros((2, value_net.N_SKIP)) if skip is None else skip
    teachers = selfplay.no_teachers(1) if teacher is None else (
        teacher[None, :], np.zeros(1, np.int64), np.full(1, -1, np.int64))
    return selfplay.train_block(np.uint64(11), first, n, row, TL.ROUNDS_BY_PLAYERS,
                                rules[None, :], m, v, step, lr, epsilon, lam, 32, stats, 1, curriculum,
                                np.array(trainable), win_bonus, moments, skip is not None,
                                *teachers, teach, selfplay.no_sides(1))


def test_win_share_splits_a_tie():
    finals = np.array([50, 70, 70, 10])
    assert [selfplay.win_share(finals, 4, p) for p in range(4)] == [0.0, 0.5, 0.5, 0.0]
    assert [selfplay.win_share(finals, 2, p) for p in range(2)] == [0.0, 1.0]


@pytest.mark.parametrize("players,moves", [(1, False), (2, True)])
def test_a_win_bonus_teaches_games_of_several_players_alone(players, moves):
    """The win bonus changes what a network learns from two-player games, and nothing in
    solo games (the same weights, bit for bit)."""
    n_in = int(value_net.n_inputs(TPC, 2))
    curriculum = selfplay.no_curriculum()
    curriculum[selfplay.C_PLAYERS + players - 1] = 1.0
    weights = []
    for bonus in (0.0, 100.0):
        row = value_weights.policy_row([value_weights.initial_weights(n_in, 3)], n_in)
        w = value_weights.member(row)
        train(row, np.zeros_like(w), np.zeros_like(w), 0, 6, np.zeros(selfplay.N_STATS),
              curriculum=curriculum, win_bonus=bonus)
        weights.append(w.copy())
    assert (not np.array_equal(*weights)) == moves


@pytest.mark.parametrize("players,moves", [(1, False), (2, True)])
def test_weighing_every_game_the_same_changes_games_of_several_players_alone(players, moves):
    """``C_PER_GAME``: each seat of a game of n players learns with weight 1 / n, which
    changes what two-player games teach and nothing in solo games (bit for bit)."""
    n_in = int(value_net.n_inputs(TPC, 2))
    weights = []
    for per_game in (0.0, 1.0):
        curriculum = selfplay.no_curriculum()
        curriculum[selfplay.C_PLAYERS + players - 1] = 1.0
        curriculum[selfplay.C_PER_GAME] = per_game
        row = value_weights.policy_row([value_weights.initial_weights(n_in, 3)], n_in)
        w = value_weights.member(row)
        train(row, np.zeros_like(w), np.zeros_like(w), 0, 4, np.zeros(selfplay.N_STATS),
              curriculum=curriculum)
        weights.append(w.copy())
    assert (not np.array_equal(*weights)) == moves


def test_a_variant_row_sets_the_player_count_of_its_games():
    """A row of the variant table with ``RULE_PLAYERS`` set plays games of that many
    players whatever the curriculum's shares (solo here): every seat learns."""
    from kernels.clever_base.game_rules import RULE_PLAYERS

    n_in = int(value_net.n_inputs(TPC, 2))
    rules = TPC_GAME.game_rules(defaults(TPC_GAME.params))
    rules[RULE_PLAYERS] = 3
    row = value_weights.policy_row([value_weights.initial_weights(n_in, 3)], n_in)
    w = value_weights.member(row)
    stats = np.zeros(selfplay.N_STATS)
    selfplay.train_block(np.uint64(11), 0, 2, row, TL.ROUNDS_BY_PLAYERS, rules[None, :],
                         np.zeros_like(w), np.zeros_like(w), 0, 3e-4, 0.1, 0.8, 32, stats, 1,
                         selfplay.no_curriculum(), np.array((0, -1)), 0.0,
                         np.zeros((2, value_net.N_SKIP)), False, *selfplay.no_teachers(1),
                         0.0, selfplay.no_sides(1))
    assert stats[selfplay.STAT_GAMES] == 2 * 3  # two games, three seats each


def test_partners_stay_as_they_are_and_change_what_the_first_network_learns():
    """A row of two networks trained on two-player games: the second (a partner) keeps
    its weights bit for bit, the first learns, and learns otherwise than it does alone
    (it learns what it adds to the partner's values)."""
    n_in = int(value_net.n_inputs(TPC, 2))
    curriculum = selfplay.no_curriculum()
    curriculum[selfplay.C_PLAYERS + 1] = 1.0
    start, partner = (value_weights.initial_weights(n_in, seed) for seed in (3, 4))
    learnt = []
    for members in ([start], [start, partner]):
        row = value_weights.policy_row(members, n_in)
        w = value_weights.member(row)
        train(row, np.zeros_like(w), np.zeros_like(w), 0, 4, np.zeros(selfplay.N_STATS),
              curriculum=curriculum)
        assert not np.array_equal(w, start)
        if len(members) > 1:
            np.testing.assert_array_equal(value_weights.member(row, 1), partner)
        learnt.append(w.copy())
    assert not np.array_equal(*learnt)


def test_a_teacher_sets_the_targets_of_the_games_it_teaches():
    """Distillation (``selfplay._teach``): a network taught wholly by a copy of itself has
    nothing to learn (its weights stay bit for bit), while its own lambda-returns move it;
    taught by another network, it learns that network's values: after 200 solo games its
    estimates of the afterstates of fresh games lie closer to the teacher's than before,
    and far closer than those of the same games learnt from their own returns."""
    n_in = encode.N_BASE
    start = value_weights.initial_weights(n_in, 1)
    for teach, moves in ((1.0, False), (0.5, True), (0.0, True)):
        row = value_weights.policy_row([start], n_in)
        teacher = row.copy()
        w = value_weights.member(row)
        train(row, np.zeros_like(w), np.zeros_like(w), 0, 8, np.zeros(selfplay.N_STATS),
              teacher=teacher, teach=teach)
        assert (not np.array_equal(w, start)) == moves
    teacher = value_weights.policy_row([value_weights.initial_weights(n_in, 2)], n_in)
    after = {}
    for teach in (1.0, 0.0):
        row = value_weights.policy_row([start], n_in)
        w = value_weights.member(row)
        before = _distance_to(row, teacher)
        train(row, np.zeros_like(w), np.zeros_like(w), 0, 200, np.zeros(selfplay.N_STATS),
              lr=1e-3, teacher=teacher, teach=teach)
        after[teach] = _distance_to(row, teacher)
    assert after[1.0] < before and after[1.0] < 0.1 * after[0.0]


def _snapshot_run(row, actor, n=8):
    """One snapshot of ``n`` solo games of ``row`` learning at 1e-3, played by ``actor``
    (a policy row; none: ``row`` itself); the stats."""
    rules = TPC_GAME.game_rules(defaults(TPC_GAME.params))
    w = value_weights.member(row)
    stats = np.zeros(selfplay.N_STATS)
    teachers, teacher_of, actor_of = selfplay.no_teachers(1)
    if actor is not None:
        teachers, actor_of = actor[None, :], np.zeros(1, np.int64)
    selfplay.train_block(np.uint64(11), 0, n, row, TL.ROUNDS_BY_PLAYERS, rules[None, :],
                         np.zeros_like(w), np.zeros_like(w), 0, 1e-3, 0.1, 0.8, 32, stats, n,
                         selfplay.no_curriculum(), np.array((0, -1)), 0.0,
                         np.zeros((2, value_net.N_SKIP)), False, teachers, teacher_of,
                         actor_of, 0.0, selfplay.no_sides(1))
    return stats


def test_an_actor_plays_the_games_its_variant_names_and_the_network_learns_from_them():
    """``actor_of``: the row it names plays the variant's games in place of the learning
    row, whose targets stay their lambda-returns. A copy of the learning row as actor
    changes nothing (one snapshot: the same weights, bit for bit); another network as
    actor plays the games (their scores are its own) and the learning row learns from
    them (its weights differ from learning from its own play)."""
    n_in = encode.N_BASE
    start, other = (value_weights.initial_weights(n_in, seed) for seed in (1, 2))
    learnt = {}
    for name, actor in (("self", None), ("copy", start), ("other", other)):
        row = value_weights.policy_row([start], n_in)
        actor_row = None if actor is None else value_weights.policy_row([actor], n_in)
        stats = _snapshot_run(row, actor_row)
        learnt[name] = (value_weights.member(row).copy(), stats[selfplay.STAT_SCORE])
    own_play = _snapshot_run(value_weights.policy_row([other], n_in), None)
    np.testing.assert_array_equal(learnt["copy"][0], learnt["self"][0])
    assert learnt["copy"][1] == learnt["self"][1]
    assert learnt["other"][1] == own_play[selfplay.STAT_SCORE] != learnt["self"][1]
    assert not np.array_equal(learnt["other"][0], learnt["self"][0])
    assert not np.array_equal(learnt["other"][0], start)


def test_an_actor_must_read_the_learning_row_s_inputs():
    """An actor row of other inputs than the learning row's is refused."""
    row = value_weights.policy_row([value_weights.initial_weights(encode.N_BASE, 1)],
                                   encode.N_BASE)
    n_in = int(value_net.n_inputs(TPC, 2))
    actor = value_weights.policy_row([value_weights.initial_weights(n_in, 2)], n_in)
    with pytest.raises(ValueError, match="actor row"):
        _snapshot_run(row, actor)


def _distance_to(row, teacher, games=16):
    """The root mean square difference of ``row``'s and ``teacher``'s estimates over the
    afterstates ``row`` chooses in ``games`` solo games (its own records)."""
    rules = TPC_GAME.game_rules(defaults(TPC_GAME.params))
    n_in = int(row[play.W_NET + value_net.P_INPUTS])
    scratch = np.zeros((selfplay.MAX_PLAYERS, selfplay.GAME_LEN), np.int64)
    finals = np.zeros(selfplay.MAX_PLAYERS, np.int64)
    p1, p2 = np.zeros(net.H1, np.float32), np.zeros(net.H2, np.float32)
    squares = []
    for g in range(games):
        selfplay._play(np.uint64(99), 10_000 + g, row, TL.ROUNDS_BY_PLAYERS, rules[None, :],
                       0.0, selfplay.no_curriculum(), 0, scratch, finals)
        records = scratch[0, WORK_LEN + valued.R_HEADER:]
        for t in range(scratch[0, WORK_LEN + valued.R_COUNT]):
            rec = records[t * valued.REC_STRIDE:(t + 1) * valued.REC_STRIDE]
            idx, nnz = rec[valued.REC_IDX:valued.REC_VAL], rec[valued.REC_NNZ]
            val = rec[valued.REC_VAL:valued.REC_STRIDE].view(np.float32)
            squares.append((selfplay.teacher_value(row, n_in, 1, idx, val, nnz, p1, p2)
                            - selfplay.teacher_value(teacher, n_in, 1, idx, val, nnz, p1,
                                                     p2)) ** 2)
    return float(np.sqrt(np.mean(squares)))


def test_training_resumes_bit_for_bit():
    """Two blocks of self-play (the second continuing from the first's weights and Adam
    state) give the weights of one block over the same games."""
    n_in = encode.N_BASE
    rows, states = [], []
    for cuts in ((0, 30), (0, 12, 30)):
        row = value_weights.policy_row([value_weights.initial_weights(n_in, 1)], n_in)
        w = value_weights.member(row)
        m, v, step = np.zeros_like(w), np.zeros_like(w), 0
        stats = np.zeros(selfplay.N_STATS)
        for a, b in zip(cuts[:-1], cuts[1:]):
            step = train(row, m, v, a, b - a, stats, step)
        rows.append(row)
        states.append((m, v, step, stats))
    assert (rows[0] == rows[1]).all() and states[0][2] == states[1][2]
    assert (states[0][0] == states[1][0]).all() and (states[0][3] == states[1][3]).all()


def mean_score(row, games=256, seed=1_000_000_123):
    rules = TPC_GAME.game_rules(defaults(TPC_GAME.params))
    keys = np.random.SeedSequence(seed).generate_state(games // 64, np.uint64)
    out = np.zeros((len(keys), 1, 1, play.COL_HIST + play.HIST_BINS), np.int64)
    BlockLoop.of(play.games_block)(keys, np.full(len(keys), 64), out, row[None, :], False, 6, rules)
    total = out.sum(axis=0)[0, 0]
    return total[play.COL_SCORE_SUM] / total[play.COL_GAMES], total


def test_short_training_improves_on_its_start():
    """A short warm start (2,000 games played by the heuristic's values, the network
    learning their final scores) lifts a fresh network's own solo mean by more than five
    standard errors of the difference (256 games each)."""
    n_in = encode.N_BASE
    fresh = value_weights.initial_weights(n_in, 4)
    before, acc0 = mean_score(value_weights.policy_row([fresh], n_in))
    teacher = value_weights.policy_row([fresh], n_in, 1.0, TPC_GAME.heuristic_row())
    w = value_weights.member(teacher)
    train(teacher, np.zeros_like(w), np.zeros_like(w), 0, 2000, np.zeros(selfplay.N_STATS),
          epsilon=0.0, lr=1e-3, lam=1.0)
    assert not np.array_equal(w, fresh)
    after, acc1 = mean_score(value_weights.policy_row([w], n_in))
    sd = np.sqrt(acc0[play.COL_SCORE_SQ] / 256 - before ** 2
                 + acc1[play.COL_SCORE_SQ] / 256 - after ** 2)
    assert after - before > 5 * sd / np.sqrt(256), (before, after)


def test_game_over_is_valued_at_the_final_score():
    """The afterstate after the game's last decision is worth its exact final score."""
    sheet = blank(TPC_GAME)
    sheet[TL.S_GREEN] = 4
    scratch = np.zeros(WORK_LEN, np.int64)
    scratch[TURN + TS_PHASE] = PH_OVER
    assert play.sheet_value(sheet, value_row(TPC_GAME), scratch) == 10.0


def test_value_policy_rows_check_their_members():
    w = value_weights.initial_weights(encode.N_BASE, 1)
    with pytest.raises(ValueError):
        value_weights.policy_row([w] * (value_net.MAX_MEMBERS + 1), encode.N_BASE)
    with pytest.raises(ValueError):
        value_weights.policy_row([w, w], encode.N_BASE, solo_members=2)
    wide = value_weights.initial_weights(encode.N_BASE, 2, 256)
    with pytest.raises(ValueError, match="the last may differ"):  # only the last's width
        value_weights.policy_row([wide, w, wide], encode.N_BASE)
    most = value_net.MAX_INPUTS - 18  # the most inputs an encoding has
    big, big_wide = (value_weights.initial_weights(most, 3, h) for h in (128, 256))
    with pytest.raises(ValueError, match="do not fit"):  # 256 + 256 + 128 units
        value_weights.policy_row([big_wide, big_wide, big], most)
    row = value_weights.policy_row([wide, w], encode.N_BASE)  # a conditioned network's
    assert np.array_equal(value_weights.member(row, 0), wide)  # partner: the last member
    assert np.array_equal(value_weights.member(row, 1), w)  # of its own width


def run_trainer(tmp_path, name, game, stage, chunk, *extra):
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, str(root / "scripts" / "train_value.py"), "--game", game,
                    "--seed", "3", "--stage", stage, "--scale", "0.002", "--chunk",
                    str(chunk), "--eval-every", str(2 * chunk), "--eval-games", "64",
                    "--quiet", "--checkpoint", str(tmp_path / f"{name}.npz"), *extra],
                   check=True, cwd=tmp_path, capture_output=True)
    saved = np.load(tmp_path / f"{name}.npz", allow_pickle=False)
    return {key: saved[key] for key in saved.files}


@pytest.mark.parametrize("game,stage,chunk,stop,curve,after", [
    ("tpc", "main", 100, 400, [("warm", 8), ("main", 200), ("main", 400), ("main", 600)],
     "polish"),
    ("tac", "trap", 80, 320, [("warm", 16), ("trap", 160), ("trap", 320), ("trap", 480)],
     "main")])
def test_training_script_resumes_from_its_checkpoint_bit_for_bit(tmp_path, game, stage, chunk,
                                                                stop, curve, after):
    """scripts/train_value.py stopped after 300 games (--max-games) and run again ends with
    the weights, Adam state and learning curve of an uninterrupted run (warm start, then
    self-play; Twice As Clever's in snapshots of 16 games, its default curriculum)."""
    whole = run_trainer(tmp_path, "whole", game, stage, chunk)
    first = run_trainer(tmp_path, "split", game, stage, chunk, "--max-games", "300")
    assert (str(first["stage"]), int(first["done"])) == (stage, stop)
    split = run_trainer(tmp_path, "split", game, stage, chunk)
    for key in ("weights", "m", "v", "step", "stage", "done", "history", "best_weights"):
        np.testing.assert_array_equal(whole[key], split[key], err_msg=key)
    history = json.loads(str(whole["history"]))
    assert (str(whole["stage"]), int(whole["done"])) == (after, 0)  # next to run
    assert [(h["stage"], h["games"]) for h in history] == curve


def test_twice_as_clever_caps_curriculum_runs_its_own_stages(tmp_path):
    """--curriculum caps: a warm start and a stage with the yellow cap; its checkpoint
    refuses the default (selfplay) curriculum's stages."""
    import subprocess
    import sys
    from pathlib import Path

    saved = run_trainer(tmp_path, "caps", "tac", "cap4", 80, "--curriculum", "caps")
    history = json.loads(str(saved["history"]))
    assert [h["stage"] for h in history] == ["warm", "cap4", "cap4", "cap4"]
    root = Path(__file__).resolve().parents[2]
    other = subprocess.run([sys.executable, str(root / "scripts" / "train_value.py"),
                            "--game", "tac", "--seed", "3", "--stage", "trap", "--scale",
                            "0.002", "--chunk", "80", "--eval-every", "160", "--eval-games",
                            "64", "--quiet", "--checkpoint", str(tmp_path / "caps.npz")],
                           cwd=tmp_path, capture_output=True, text=True)
    assert other.returncode != 0 and "other settings" in other.stderr


def test_ends_turn_curriculum_starts_from_a_shipped_network(tmp_path):
    """--curriculum endsturn --start-from: the run starts from the given network's weights
    (its file and SHA-256 in the settings) and trains under return_empty_pool=ends_turn."""
    from analyzer.games.twice_as_clever.model import VALUE_FILE
    saved = run_trainer(tmp_path, "ends", "tac", "adapt", 80, "--curriculum", "endsturn",
                        "--start-from", str(VALUE_FILE), "--max-games", "160")
    settings = json.loads(str(saved["settings"]))
    assert settings["rules"] == {"return_empty_pool": "ends_turn"}
    assert settings["start_from"].startswith("value_net.npy sha256:")
    assert [h["stage"] for h in json.loads(str(saved["history"]))] == ["adapt"]
    shipped = np.load(VALUE_FILE)[0]  # the solo network, with the seat block's zero rows
    n_in = int(value_net.n_inputs(TAC, 1))  # which the stage, without that block, drops
    shipped = value_weights.narrow(shipped, value_weights.inputs_of(shipped), n_in)
    assert saved["weights"].shape == shipped.shape
    assert 0 < np.abs(saved["weights"] - shipped).max() < 0.1  # trained on, from there


@pytest.mark.parametrize("start", ["no/such/value_net.npy", "pyproject.toml"])
def test_bad_start_network_is_one_line(tmp_path, start):
    """--start-from a missing file or a file that is no network: one line, no traceback."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, str(root / "scripts" / "train_value.py"), "--game",
                          "tpc", "--curriculum", "seated", "--start-from", str(root / start),
                          "--checkpoint", str(tmp_path / "x.npz"), "--quiet"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode != 0 and "--start-from" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr


def test_a_multiplayer_network_ships_beside_the_solo_one(tmp_path):
    """--curriculum seatwin (games of 2-4 players, a win bonus) from the shipped network,
    then --ship-multi: a file of two networks, the shipped solo one (widened to the seat
    block) for the solo game and the run's for games of 2-4 players, trained on 1-4 (with
    --mixed 2, two-player games play the mean of both)."""
    import subprocess
    import sys
    from pathlib import Path

    from analyzer.games.thats_pretty_clever.model import VALUE_FILE
    saved = run_trainer(tmp_path, "win", "tpc", "win", 96, "--curriculum", "seatwin",
                        "--start-from", str(VALUE_FILE), "--max-games", "192")
    history = json.loads(str(saved["history"]))
    assert [h["stage"] for h in history] == ["win"] and "vs_solo_net_2p" in history[0]
    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "both.npy"
    subprocess.run([sys.executable, str(root / "scripts" / "train_value.py"), "--game", "tpc",
                    "--ship-multi", str(tmp_path / "win.npz"), "--ship-to", str(out)],
                   check=True, cwd=tmp_path, capture_output=True)
    members, info = value_weights.load(out, TPC)
    solo, _ = value_weights.load(VALUE_FILE, TPC)
    n_in = int(value_net.n_inputs(TPC, 2))
    assert info["inputs"] == n_in and value_weights.solo_members(info) == 1
    np.testing.assert_array_equal(
        members[0], value_weights.widen(solo[0], value_weights.inputs_of(solo[0]), n_in))
    np.testing.assert_array_equal(members[1], saved["best_weights"])
    assert info["trained_on"]["players"] == [1, 2, 3, 4] and info["mixed"] == []
    subprocess.run([sys.executable, str(root / "scripts" / "train_value.py"), "--game", "tpc",
                    "--ship-multi", str(tmp_path / "win.npz"), "--ship-to", str(out),
                    "--mixed", "2"], check=True, cwd=tmp_path, capture_output=True)
    assert value_weights.load(out, TPC)[1]["mixed"] == [2]  # two players: the mean
    subprocess.run([sys.executable, str(root / "scripts" / "train_value.py"), "--game", "tpc",
                    "--ship-multi", str(tmp_path / "win.npz"), "--ship-to", str(out),
                    "--mixed", "2", "--solo-share", "0.75"], check=True, cwd=tmp_path,
                   capture_output=True)
    assert value_weights.load(out, TPC)[1]["solo_share"] == 0.75  # weighted
    subprocess.run([sys.executable, str(root / "scripts" / "train_value.py"), "--game", "tpc",
                    "--ship-multi", str(tmp_path / "win.npz"), "--ship-to", str(out),
                    "--mixed", "2", "--second-seat", "--gift", "1.5", "--look", "2", "3",
                    "--look-samples", "8"], check=True, cwd=tmp_path, capture_output=True)
    info = value_weights.load(out, TPC)[1]
    assert info["second_seat"] is True and info["gift"] == 1.5
    assert info["look"] == {"players": [2, 3], "samples": 8, "branch": 3, "margin": 6.0}
    row = value_weights.file_row(*value_weights.load(out, TPC))
    assert row[play.W_GIFT] == 1.5 and row[play.W_NET + value_net.P_SEAT_SHIFT] == 1
    assert row[play.W_SAMPLES] == 8 and row[play.W_LOOK_PLAYERS] == 0b1100


def test_a_partnered_network_ships_beside_its_partner(tmp_path):
    """--curriculum partnered (Twice As Clever): the learner starts as the own solo network
    with the rules block and plays beside it; --ship-conditioned --alone writes both, every
    member playing every game, and the learner as trained; shipped with the own file it is
    one line and exit 2. --curriculum partneredfocused goes on from its latest weights
    beside the same partner."""
    import subprocess
    import sys
    from pathlib import Path

    from analyzer.games.twice_as_clever.model import VALUE_FILE
    saved = run_trainer(tmp_path, "pair", "tac", "head", 16, "--curriculum", "partnered",
                        "--start-from", str(VALUE_FILE))
    assert "partners" in json.loads(str(saved["settings"]))
    script = [sys.executable, str(Path(__file__).resolve().parents[2] / "scripts"
                                  / "train_value.py"), "--game", "tac", "--ship-conditioned",
              str(tmp_path / "pair.npz"), "--latest", "--ship-to", str(tmp_path / "pair.npy")]
    refused = subprocess.run(script, cwd=tmp_path, capture_output=True, text=True)
    assert refused.returncode == 2 and "ships --alone" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    subprocess.run(script + ["--alone"], check=True, cwd=tmp_path, capture_output=True)
    members, info = value_weights.load(tmp_path / "pair.npy", TAC)
    own, own_info = value_weights.load(VALUE_FILE, TAC)
    n_in = info["inputs"]
    assert len(members) == 2 and value_weights.solo_members(info) == 0
    np.testing.assert_array_equal(members[0], saved["weights"])
    np.testing.assert_array_equal(
        members[1], value_weights.widen(own[0], value_weights.inputs_of(own[0]), n_in))
    assert n_in > own_info["inputs"]
    focused = run_trainer(tmp_path, "refocused", "tac", "focused", 16, "--curriculum",
                          "partneredfocused", "--start-from", str(tmp_path / "pair.npz"),
                          "--start-latest", "--teacher-plays", "value_net.npy=0.5",
                          "--max-games", "32")
    settings = json.loads(str(focused["settings"]))
    assert settings["partners"] == json.loads(str(saved["settings"]))["partners"]
    assert json.loads(str(focused["history"]))[-1]["stage"] == "focused"
    assert not np.array_equal(focused["weights"], saved["weights"])


def test_a_partner_stage_refuses_a_learner_of_another_width(tmp_path):
    """--curriculum partnered from the 256-unit conditioned network beside the 128-unit own
    network: one line naming both widths, exit 2, no checkpoint written."""
    import subprocess
    import sys
    from pathlib import Path

    from analyzer.games.twice_as_clever.model import VALUE_FILE
    wide = VALUE_FILE.with_name("value_net.conditioned.npy")
    assert value_weights.hidden_of(value_weights.load(wide, TAC)[1]) == 256
    script = Path(__file__).resolve().parents[2] / "scripts" / "train_value.py"
    out = subprocess.run([sys.executable, str(script), "--game", "tac", "--curriculum",
                          "partnered", "--start-from", str(wide), "--checkpoint",
                          str(tmp_path / "wide.npz")], cwd=tmp_path, capture_output=True,
                         text=True)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    assert "256 first-layer units" in out.stderr and "128" in out.stderr
    assert not (tmp_path / "wide.npz").exists()


def test_a_partnered_learner_starts_by_playing_as_its_partner():
    """The pair of the own solo network and its copy plays what the network plays alone
    (the mean of two equal values is the value): a partnered run starts from the own
    network's play."""
    rules = TAC_GAME.game_rules(defaults(TAC_GAME.params))
    own = value_weights.load(TAC_GAME.learned_file, TAC)[0][0]
    n_in = value_weights.inputs_of(own)
    alone = value_weights.policy_row([own], n_in)
    pair = value_weights.policy_row([own.copy(), own], n_in)
    assert value_weights.member(pair, 1).size == own.size
    played = [tgames.mean_score(row, rules, 32, 5)[2] for row in (alone, pair)]
    np.testing.assert_array_equal(played[0], played[1])



def test_a_solo_ensemble_keeps_every_member_beside_the_multiplayer_network(tmp_path):
    """--ship-multi with --solo-from a file of two solo networks: three networks, the two
    (widened to the seat block) for the solo game, the checkpoint's for 2-4 players."""
    import subprocess
    import sys
    from pathlib import Path

    from analyzer.games.thats_pretty_clever.model import VALUE_FILE
    root = Path(__file__).resolve().parents[2]
    solo, info = value_weights.load(VALUE_FILE, TPC)
    second = solo[0] * np.float32(0.5)
    pair = tmp_path / "pair.npy"
    value_weights.save(pair, [solo[0], second],
                       {k: v for k, v in info.items() if k not in ("solo_members", "skip")}
                       | {"members": 2})
    checkpoint = root / "tests" / "data" / "tpc-seatwin.npz"
    out = tmp_path / "three.npy"
    subprocess.run([sys.executable, str(root / "scripts" / "train_value.py"), "--game", "tpc",
                    "--ship-multi", str(checkpoint), "--solo-from", str(pair), "--ship-to",
                    str(out)], check=True, cwd=tmp_path, capture_output=True)
    members, three = value_weights.load(out, TPC)
    n_in = int(value_net.n_inputs(TPC, 2))
    assert len(members) == 3 and value_weights.solo_members(three) == 2
    for got, want in zip(members[:2], (solo[0], second)):
        np.testing.assert_array_equal(
            got, value_weights.widen(want, value_weights.inputs_of(want), n_in))
    np.testing.assert_array_equal(members[2], np.load(checkpoint)["best_weights"])


def test_a_partner_network_ships_mixed_beside_its_partners(tmp_path):
    """--curriculum partner (the shipped solo network plays beside the learning one) then
    --ship-multi: the file plays the mean of both in games of 2-4 players (``mixed``, the
    counts it learnt in); shipping it beside other solo networks is one line, nothing
    written."""
    import subprocess
    import sys
    from pathlib import Path

    from analyzer.games.thats_pretty_clever.model import VALUE_FILE
    start = Path(__file__).resolve().parents[2] / "tests" / "data" / "tpc-seatwin.npz"
    run_trainer(tmp_path, "p", "tpc", "win", 96, "--curriculum", "partner", "--start-from",
                str(start), "--max-games", "96")
    script = Path(__file__).resolve().parents[2] / "scripts" / "train_value.py"
    ship = [sys.executable, str(script), "--game", "tpc", "--ship-multi",
            str(tmp_path / "p.npz"), "--ship-to"]
    subprocess.run([*ship, str(tmp_path / "v.npy")], check=True, cwd=tmp_path,
                   capture_output=True)
    members, info = value_weights.load(tmp_path / "v.npy", TPC)
    assert info["mixed"] == [2, 3, 4] and value_weights.solo_members(info) == 1
    solo, _ = value_weights.load(VALUE_FILE, TPC)
    np.testing.assert_array_equal(members[0], solo[0])
    other = tmp_path / "other.npy"
    value_weights.save(other, [solo[0] * np.float32(0.5)], {**info, "members": 1,
                                                            "solo_members": 0})
    out = subprocess.run([*ship, str(tmp_path / "w.npy"), "--solo-from", str(other)],
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "other solo networks" in out.stderr and not (tmp_path / "w.npy").exists()


def test_the_skip_head_learns_alone_and_never_moves_a_decision():
    """A skip-head-only stage (no network weight learns) on two-player games: the skip
    head moves (towards the higher level of points to come in a short game), the
    network's weights do not, and the games it plays are the games the row played before,
    bit for bit (its term is the same for every choice of a turn)."""
    n_in = int(value_net.n_inputs(TPC, 2))
    row = value_weights.policy_row([value_weights.initial_weights(n_in, 3)], n_in)
    before, games_before = row.copy(), two_player_games(row)
    curriculum = selfplay.no_curriculum()
    curriculum[selfplay.C_PLAYERS + 1] = 1.0
    w = value_weights.member(row)
    train(row, np.zeros_like(w), np.zeros_like(w), 0, 8, np.zeros(selfplay.N_STATS),
          lr=1e-2, curriculum=curriculum, trainable=(0, 0), skip=np.zeros((2, value_net.N_SKIP)))
    assert np.array_equal(value_weights.member(row), value_weights.member(before))
    assert np.abs(value_weights.skip_head(row)).max() > 0
    assert (two_player_games(row) == games_before).all()


def two_player_games(row):
    rules = TPC_GAME.game_rules(defaults(TPC_GAME.params))
    out = np.zeros((1, 2, 2, play.COL_HIST + play.HIST_BINS), np.int64)
    BlockLoop.of(play.games_block)(np.array([5], np.uint64), np.array([8]), out,
                                   np.stack([row, row]), False, 6, rules)
    return out


@pytest.mark.parametrize("checkpoint, solo_from", [
    ("no/such.npz", None), ("pyproject.toml", None),
    ("tests/data/tpc-seatwin.npz", "no/such.npy")])
def test_a_bad_multiplayer_checkpoint_is_one_line(tmp_path, checkpoint, solo_from):
    """--ship-multi a missing file or a file that is no checkpoint, or --solo-from a
    missing network: one line, nothing written."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    extra = ["--solo-from", str(root / solo_from)] if solo_from else []
    out = subprocess.run([sys.executable, str(root / "scripts" / "train_value.py"), "--game",
                          "tpc", "--ship-multi", str(root / checkpoint), *extra, "--ship-to",
                          str(tmp_path / "v.npy")], cwd=tmp_path, capture_output=True,
                         text=True)
    assert out.returncode == 2 and "--ship-multi" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert not list(tmp_path.iterdir())


def test_shipping_into_a_missing_folder_is_one_line(tmp_path):
    """--ship-multi --ship-to a folder that does not exist: one line naming it, status 2."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, str(root / "scripts" / "train_value.py"), "--game",
                          "tpc", "--ship-multi", str(root / "tests" / "data" / "tpc-seatwin.npz"),
                          "--ship-to", str(tmp_path / "no" / "v.npy")], cwd=tmp_path,
                         capture_output=True, text=True)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "does not exist" in out.stderr and not list(tmp_path.iterdir())


@pytest.mark.parametrize("args, named", [
    (["--ship-multi", "x.npz", "--mixed", "5"], "--mixed"),
    (["--mixed", "2"], "--mixed with --ship-multi"),
    (["--latest"], "--latest goes with --ship"),
    (["--ship-multi", "x.npz", "--solo-share", "0.5"], "--solo-share with --mixed"),
    (["--ship-multi", "x.npz", "--mixed", "2", "--solo-share", "2"], "--solo-share 2"),
    (["--ship-multi", "x.npz", "--second-seat"], "--second-seat with --mixed"),
    (["--gift", "1"], "--gift with --ship-multi"),
    (["--ship-multi", "x.npz", "--gift", "-1"], "--gift -1"),
    (["--look", "2"], "--look with --ship-multi or --ship-conditioned"),
    (["--hidden", "192"], "--hidden: invalid choice: 192"),
    (["--ship-multi", "x.npz", "--look", "2", "--look-samples", "0"], "--look: expected"),
    (["--ship-multi", "x.npz", "--look", "2", "--look-margin", "-1"], "--look: expected"),
    (["--ship-multi", "x.npz", "--look", "2", "--look-branch", "0"], "--look: expected"),
    (["--teachers", "value_net.rounds_4.npy"], "--own-teaches-rest with a distilled"),
    (["--own-teaches-rest"], "--own-teaches-rest with a distilled"),
    (["--own-plays-rest"], "--own-returns and --own-teaches-rest with"),
    (["--own-returns"], "--own-returns and --own-teaches-rest with a distilled"),
    (["--own-sides"], "--own-sides, --own-returns and --own-teaches-rest with a distilled"),
    (["--curriculum", "focused", "--own-returns", "--own-teaches-rest"],
     "(not the last two together)"),
    (["--teacher-weight", "value_net.rounds_4.npy=2"], "--teacher-weight, --teacher-plays"),
    (["--teacher-plays", "value_net.rounds_4.npy=0.5"], "--teacher-plays, --own-plays-rest"),
    (["--curriculum", "focused", "--teacher-plays", "value_net.rounds_4.npy=1.5"],
     "--teacher-plays value_net.rounds_4.npy=1.5: expected NAME=Q"),
    (["--curriculum", "focused", "--teacher-plays", "value_net.rounds_4.npy=x"],
     "and Q a share from 0 to 1"),
    (["--curriculum", "focused", "--teacher-weight", "value_net.rounds_4.npy=0"],
     "--teacher-weight value_net.rounds_4.npy=0: expected NAME=W"),
    (["--curriculum", "focused", "--teacher-weight", "nope=2"],
     "--teacher-weight nope=2: expected NAME=W"),
    (["--alone"], "--alone with --ship-conditioned"),
    (["--start-latest"], "--start-latest with --start-from a checkpoint"),
    (["--start-from", "value_net.npy", "--start-latest"], "--start-latest with"),
    (["--curriculum", "distilled", "--teachers", "x.npy"], "--teachers x.npy: not a solo"),
    (["--curriculum", "nope"], "--curriculum")])
def test_bad_trainer_options_are_one_line(tmp_path, args, named):
    """A bad option of scripts/train_value.py: one line naming it (no usage block),
    status 2, nothing written."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, str(root / "scripts" / "train_value.py"), "--game",
                          "tac", *args], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert named in out.stderr and not list(tmp_path.iterdir())



def test_a_narrower_width_than_the_start_network_s_is_one_line(tmp_path):
    """``--hidden`` below the start network's width: one line naming both, status 2, no
    checkpoint written."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    n_in = int(value_net.n_inputs(TAC_GAME.kernel_game, 3))
    start = tmp_path / "wide.npy"
    value_weights.save(start, [value_weights.initial_weights(n_in, 1, net.MAX_H1)],
                       {"inputs": n_in, "hidden": [net.MAX_H1, net.H2], "members": 1})
    out = subprocess.run([sys.executable, str(root / "scripts" / "train_value.py"), "--game",
                          "tac", "--start-from", str(start), "--hidden", str(net.H1),
                          "--checkpoint", str(tmp_path / "run.npz")],
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert f"--hidden {net.H1}: the start network has {net.MAX_H1}" in out.stderr
    assert not (tmp_path / "run.npz").exists()

def _side_run(row, teacher, side, n=8):
    """One snapshot of ``n`` solo games of ``row`` learning at 1e-3 without exploring,
    ``teacher`` (a policy row) the side records' teacher when ``side``; the stats."""
    rules = TPC_GAME.game_rules(defaults(TPC_GAME.params))
    w = value_weights.member(row)
    stats = np.zeros(selfplay.N_STATS)
    untaught = np.full(1, -1, np.int64)
    selfplay.train_block(np.uint64(11), 0, n, row, TL.ROUNDS_BY_PLAYERS, rules[None, :],
                         np.zeros_like(w), np.zeros_like(w), 0, 1e-3, 0.0, 0.8, 32, stats, n,
                         selfplay.no_curriculum(), np.array((0, -1)), 0.0,
                         np.zeros((2, value_net.N_SKIP)), False, teacher[None, :], untaught,
                         untaught, 0.0, np.full(1, 0 if side else -1, np.int64))
    return stats


def test_side_records_teach_their_teacher_s_values_and_leave_play_alone():
    """Side records (``selfplay``'s dense teacher): the games are played as without them
    (the same scores and chosen records), the network learns what the side teacher
    estimates (two teachers, two sets of weights), and without side records the teacher
    row is unused (the weights bit for bit)."""
    n_in = encode.N_BASE
    start = value_weights.initial_weights(n_in, 1)
    learnt, stats = {}, {}
    for name, seed, side in (("none", 2, False), ("unused", 3, False),
                             ("first", 2, True), ("second", 3, True)):
        row = value_weights.policy_row([start], n_in)
        teacher = value_weights.policy_row([value_weights.initial_weights(n_in, seed)], n_in)
        stats[name] = _side_run(row, teacher, side)
        learnt[name] = value_weights.member(row).copy()
    np.testing.assert_array_equal(learnt["none"], learnt["unused"])
    for name in ("first", "second"):
        assert stats[name][selfplay.STAT_SCORE] == stats["none"][selfplay.STAT_SCORE]
        assert stats[name][selfplay.STAT_SAMPLES] == stats["none"][selfplay.STAT_SAMPLES]
        assert not np.array_equal(learnt[name], learnt["none"])
    assert not np.array_equal(learnt["first"], learnt["second"])


@pytest.mark.parametrize("game", [TPC_GAME, TAC_GAME])
def test_side_records_are_candidates_the_decisions_valued(game):
    """Each side record holds the inputs and the value of an afterstate its decision
    valued (the network's value of the inputs is the value recorded), one for most
    decisions, and none where side records are off."""
    rules = game.game_rules(defaults(game.params))
    n_in = int(value_net.n_inputs(game.kernel_game, False))
    row = value_weights.policy_row([value_weights.initial_weights(n_in, 4)], n_in)
    scratch = np.zeros((selfplay.MAX_PLAYERS, selfplay.GAME_LEN), np.int64)
    finals = np.zeros(selfplay.MAX_PLAYERS, np.int64)
    p1, p2 = np.zeros(net.MAX_H1, np.float32), np.zeros(net.H2, np.float32)
    head = scratch[0, WORK_LEN:WORK_LEN + valued.R_HEADER]
    for side in (0, 1):
        selfplay._play(np.uint64(99), 7, row, game.layout.ROUNDS_BY_PLAYERS, rules[None, :],
                       0.0, selfplay.no_curriculum(), side, scratch, finals)
        count = head[valued.R_SIDE_COUNT]
        assert count == 0 if side == 0 else 0.5 * head[valued.R_COUNT] < count
    records = scratch[0, WORK_LEN + valued.R_HEADER:]
    for s in range(count):
        at = (valued.MAX_RECORDS + s) * valued.REC_STRIDE
        rec = records[at:at + valued.REC_STRIDE]
        estimate = selfplay.teacher_value(
            row, n_in, 1, rec[valued.REC_IDX:valued.REC_VAL],
            rec[valued.REC_VAL:valued.REC_STRIDE].view(np.float32), rec[valued.REC_NNZ], p1, p2)
        recorded = rec[valued.REC_VALUE:valued.REC_VALUE + 1].view(np.float64)[0]
        assert recorded == pytest.approx(rec[valued.REC_SCORE] + value_net.SCALE * estimate,
                                         rel=1e-5, abs=1e-3)
