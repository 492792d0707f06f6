"""The value policy's engine: the afterstate each decision kind leaves (sheet and
turn state, as the rules pages say), the network's gradient and Adam step, the encoding,
the bonus-block transplant, and self-play training (resumes bit for bit; a short run
improves on its start)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analyzer.games.clever import trained_on, value_weights
from analyzer.run.driver import BlockLoop
from analyzer.games.thats_pretty_clever.model import GAME as TPC_GAME
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.params import defaults
from kernels.clever import net, play, selfplay, valued, value_net
from kernels.clever_base import sparse
from kernels.clever_base.game_rules import RULE_FORFEIT_TO_PLATTER
from kernels.clever.policies import BEST_SHEET, BEST_TURN, TURN, WORK_LEN
from kernels.clever_base.sheet import H_PLUS_USED, H_REROLL_USED, H_RETURN_USED, TPC
from kernels.clever.sheets import start_sheet
from kernels.clever_base.turn import (PH_ACTIVE_PLUS, PH_OVER, PH_PASSIVE, PH_PASSIVE_PLUS, PH_ROLL,
                                      TS_LEN, TS_PHASE, TS_PICKS, TS_PLATTER, TS_POOL, TS_TAKEN)
from kernels.thats_pretty_clever import encode
from kernels.thats_pretty_clever import layout as TL
from kernels.twice_as_clever import layout as XL

W, Y, B, G, ORANGE, P = range(6)
POOL, FIELD, PLATTER = play.POOL, play.FIELD, play.PLATTER


def value_row(game, seed=1, teacher=0.0):
    """A value policy row: a fresh network, or the heuristic's values through the value
    policy's decisions (``teacher`` 1)."""
    n_in = int(value_net.n_inputs(game.kernel_game, 0))
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
    turn = encode.I_ROUND  # the turn block (kernels.clever_base.sparse)
    assert got[turn + sparse.TURN_PHASE + PH_PASSIVE] == 1
    assert got[turn + sparse.TURN_PICKS + 2] == 1
    assert {turn + sparse.TURN_POOL, turn + sparse.TURN_POOL + 1, turn + sparse.TURN_PLATTER + 2,
            turn + sparse.TURN_PLATTER + 3, turn + sparse.TURN_TAKEN + 5} <= set(got)
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


def test_a_network_of_the_widest_first_layer_learns_in_its_wider_units():
    """A network of ``MAX_H1`` first-layer units plays from its row (the row reads its
    width) and learns in the second-layer rows of the units past ``H1`` too."""
    n_in = encode.N_INPUTS
    wide = value_weights.initial_weights(n_in, 5, net.MAX_H1)
    row = value_weights.policy_row([wide], n_in)
    assert value_net.hidden_of(row, play.W_NET) == net.MAX_H1
    learner = value_weights.member(row)
    m, v = np.zeros_like(learner), np.zeros_like(learner)
    train(row, m, v, 0, 8, np.zeros(selfplay.N_STATS))
    _, w2, b2, _, _, _ = net.net_offsets(n_in, net.MAX_H1)
    second = (w[w2:b2].reshape(net.MAX_H1, net.H2)[net.H1:] for w in (learner, wide))
    assert not np.array_equal(*second)


def test_a_row_holds_one_network_of_the_widest_first_layer():
    n_in = value_net.MAX_INPUTS  # the most inputs a row is made for
    w = value_weights.initial_weights(n_in, 1, net.MAX_H1)
    value_weights.policy_row([w], n_in)
    with pytest.raises(ValueError, match="do not fit"):
        value_weights.policy_row([w, w], n_in)
    narrow = value_weights.initial_weights(n_in, 1)
    for members in ([narrow, w], [w, narrow], [narrow, w, narrow]):
        with pytest.raises(ValueError, match="one first-layer width"):
            value_weights.policy_row(members, n_in)


def train(row, m, v, first, n, stats, step=0, epsilon=0.1, lr=3e-4, lam=0.8,
          curriculum=None, skip=None):
    """Self-play training of ``row`` (with ``skip``: float64[2, N_SKIP] moments, the skip
    head learns too)."""
    rules = TPC_GAME.game_rules(defaults(TPC_GAME.params))
    curriculum = selfplay.no_curriculum() if curriculum is None else curriculum
    moments = np.zeros((2, value_net.N_SKIP)) if skip is None else skip
    return selfplay.train_block(np.uint64(11), first, n, row, TL.ROUNDS_BY_PLAYERS,
                                rules[None, :], m, v, step, lr, epsilon, lam, 32, stats, 1,
                                curriculum, moments, skip is not None)


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
                         selfplay.no_curriculum(), np.zeros((2, value_net.N_SKIP)), False)
    assert stats[selfplay.STAT_GAMES] == 2 * 3  # two games, three seats each


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


@pytest.mark.slow
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
    wide = value_weights.initial_weights(encode.N_BASE, 2, 256)
    with pytest.raises(ValueError, match="one first-layer width"):
        value_weights.policy_row([wide, w, wide], encode.N_BASE)
    most = value_net.MAX_INPUTS - 18  # the most inputs an encoding has
    big, big_wide = (value_weights.initial_weights(most, 3, h) for h in (128, 256))
    value_weights.policy_row([big] * value_net.MAX_MEMBERS, most)
    with pytest.raises(ValueError, match="do not fit"):  # 256 + 256 units
        value_weights.policy_row([big_wide, big_wide], most)
    row = value_weights.policy_row([wide, wide], encode.N_BASE)
    assert np.array_equal(value_weights.member(row, 1), wide)


SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_value.py"


def script(tmp_path, *args) -> subprocess.CompletedProcess:
    """``scripts/train_value.py`` with ``args``, run in ``tmp_path`` (a crash prints where
    it happened: Python's fault handler)."""
    return subprocess.run([sys.executable, "-X", "faulthandler", str(SCRIPT), *args],
                          cwd=tmp_path, capture_output=True, text=True)


def run_trainer(tmp_path, name, game, stage, chunk, *extra):
    """A short run of the fresh curriculum up to ``stage``; its checkpoint's arrays."""
    done = script(tmp_path, "--game", game, "--seed", "3", "--stage", stage, "--scale",
                  "0.001", "--chunk", str(chunk), "--eval-every", str(2 * chunk),
                  "--eval-games", "32", "--quiet", "--checkpoint",
                  str(tmp_path / f"{name}.npz"), *extra)
    assert done.returncode == 0, done.stderr
    saved = np.load(tmp_path / f"{name}.npz", allow_pickle=False)
    return {key: saved[key] for key in saved.files}


# the default run resumes training bit for bit from a config (tests/test_training_configs)
@pytest.mark.slow
@pytest.mark.parametrize("game", ["tpc", "tac"])
def test_training_script_resumes_from_its_checkpoint_bit_for_bit(tmp_path, game):
    """scripts/train_value.py stopped at an evaluation (--max-games) and run again ends
    with the weights, Adam state and learning curve of an uninterrupted run (the warm
    start, then self-play over the unified rows, games of 1-4 players)."""
    whole = run_trainer(tmp_path, "whole", game, "main", 96)
    first = run_trainer(tmp_path, "split", game, "main", 96, "--max-games", "200")
    assert (str(first["stage"]), int(first["done"])) == ("main", 192)
    split = run_trainer(tmp_path, "split", game, "main", 96)
    for key in ("weights", "m", "v", "step", "stage", "done", "history", "best_weights"):
        np.testing.assert_array_equal(whole[key], split[key], err_msg=key)
    history = json.loads(str(whole["history"]))
    assert [h["stage"] for h in history] == ["warm", "main", "main", "main", "main"]
    assert (str(whole["stage"]), int(whole["done"])) == ("polish", 0)  # next to run
    settings = json.loads(str(whole["settings"]))
    assert settings["unified"]["shares"] and settings["hidden"] == [net.H1, net.H2]


def test_a_trained_network_ships_with_its_card(tmp_path):
    """--ship writes the network file with the checkpoint's best weights (--latest: its
    latest) and its skip head, and the card naming the player, the config and what it
    was trained on; it plays as the game's network (--network)."""
    warm = run_trainer(tmp_path, "one", "tpc", "warm", 16)
    early = script(tmp_path, "--game", "tpc", "--ship", str(tmp_path / "one.npz"), "--name",
                   "x", "--ship-to", str(tmp_path / "early.npy"))
    assert early.returncode == 2 and "no best weights yet" in early.stderr
    assert warm["best"] == -np.inf and not (tmp_path / "early.npy").exists()
    saved = run_trainer(tmp_path, "one", "tpc", "main", 16, "--max-games", "32")
    out = tmp_path / "one.npy"
    for latest, key in (([], "best_weights"), (["--latest"], "weights")):
        done = script(tmp_path, "--game", "tpc", "--ship", str(tmp_path / "one.npz"),
                      "--name", "a test network", "--ship-config", "training/x.toml",
                      "--ship-to", str(out), *latest)
        assert done.returncode == 0, done.stderr
        members, info = value_weights.load(out, TPC)
        np.testing.assert_array_equal(members[0], saved[key])
    card = info["card"]
    assert card["name"] == "a test network" and card["config"] == "training/x.toml"
    assert card["trained"]["players"] == [1, 2, 3, 4]
    assert card["trained"]["rules"]["round_2_bonus"] == [True, False]
    assert info["skip"] == saved["skip"].tolist()
    mine = TPC_GAME.with_network(out)
    assert trained_on.network_note(mine, defaults(TPC_GAME.params)) == [
        "learned plays the network you named: a test network"]


@pytest.mark.parametrize("args, named", [
    (["--ship", "no/such.npz", "--name", "x"], "no/such.npz' cannot be read"),
    (["--ship", "pyproject.toml", "--name", "x"], "pyproject.toml' cannot be read"),
    (["--ship", "x.npz"], "which needs --name"),
    (["--start-from", "no/such/value_net.npy"], "--start-from"),
    (["--start-from", "pyproject.toml"], "--start-from"),
    (["--latest"], "--latest, --ship-to and --name go with --ship"),
    (["--name", "x"], "go with --ship"),
    (["--hidden", "192"], "--hidden: invalid choice: 192"),
    (["--start-latest"], "--start-latest with --start-from a checkpoint"),
    (["--stage", "bonus"], "--stage for --curriculum fresh: one of warm, main"),
    (["--chunk", "100"], "--chunk: a multiple of 16"),
    (["--curriculum", "nope"], "--curriculum")])
def test_bad_trainer_options_are_one_line(tmp_path, args, named):
    """A bad option or input file of scripts/train_value.py: one line naming it (no usage
    block), status 2, nothing written."""
    root = Path(__file__).resolve().parents[2]
    args = [str(root / a) if "/" in a or a.endswith(".toml") else a for a in args]
    out = script(tmp_path, "--game", "tac", *args)
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert named in out.stderr and not list(tmp_path.iterdir())


def test_shipping_into_a_missing_folder_is_one_line(tmp_path):
    """--ship --ship-to a folder that does not exist: one line naming it, status 2."""
    run_trainer(tmp_path, "one", "tpc", "warm", 16)
    out = script(tmp_path, "--game", "tpc", "--ship", str(tmp_path / "one.npz"), "--name",
                 "x", "--latest", "--ship-to", str(tmp_path / "no" / "v.npy"))
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert "does not exist" in out.stderr and not (tmp_path / "no").exists()


def test_a_narrower_width_than_the_start_network_s_is_one_line(tmp_path):
    """``--hidden`` other than the start network's width: one line naming both, status 2,
    no checkpoint written."""
    n_in = int(value_net.n_inputs(TAC_GAME.kernel_game, 3))
    start = tmp_path / "wide.npy"
    value_weights.save(start, [value_weights.initial_weights(n_in, 1, net.MAX_H1)],
                       {"inputs": n_in, "hidden": [net.MAX_H1, net.H2], "members": 1})
    out = script(tmp_path, "--game", "tac", "--start-from", str(start), "--hidden",
                 str(net.H1), "--checkpoint", str(tmp_path / "run.npz"))
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert f"--hidden {net.H1}: the start network has {net.MAX_H1}" in out.stderr
    assert not (tmp_path / "run.npz").exists()


def test_the_skip_head_learns_and_never_moves_a_decision():
    """The skip head learning with the network on two-player games moves (towards the
    higher level of points to come in a short game), and the games the trained row plays
    are the games it plays with its skip head zeroed, bit for bit (its term is the same
    for every choice of a turn)."""
    n_in = int(value_net.n_inputs(TPC, 2))
    row = value_weights.policy_row([value_weights.initial_weights(n_in, 3)], n_in)
    curriculum = selfplay.no_curriculum()
    curriculum[selfplay.C_PLAYERS + 1] = 1.0
    w = value_weights.member(row)
    train(row, np.zeros_like(w), np.zeros_like(w), 0, 8, np.zeros(selfplay.N_STATS),
          lr=1e-2, curriculum=curriculum, skip=np.zeros((2, value_net.N_SKIP)))
    assert np.abs(value_weights.skip_head(row)).max() > 0
    plain = row.copy()
    value_weights.skip_head(plain)[:] = 0.0
    assert (two_player_games(row) == two_player_games(plain)).all()


def two_player_games(row):
    rules = TPC_GAME.game_rules(defaults(TPC_GAME.params))
    out = np.zeros((1, 2, 2, play.COL_HIST + play.HIST_BINS), np.int64)
    BlockLoop.of(play.games_block)(np.array([5], np.uint64), np.array([8]), out,
                                   np.stack([row, row]), False, 6, rules)
    return out


@pytest.mark.parametrize("game", [TPC_GAME, TAC_GAME])
def test_records_hold_the_chosen_afterstates_inputs_and_values(game):
    """Each record of a training game holds the inputs and the value of the afterstate
    its decision chose (the network's value of the inputs is the value recorded)."""
    rules = game.game_rules(defaults(game.params))
    n_in = int(value_net.n_inputs(game.kernel_game, 0))
    row = value_weights.policy_row([value_weights.initial_weights(n_in, 4)], n_in)
    scratch = np.zeros((selfplay.MAX_PLAYERS, selfplay.GAME_LEN), np.int64)
    finals = np.zeros(selfplay.MAX_PLAYERS, np.int64)
    selfplay._play(np.uint64(99), 7, row, game.layout.ROUNDS_BY_PLAYERS, rules[None, :],
                   0.0, selfplay.no_curriculum(), scratch, finals)
    count = scratch[0, WORK_LEN + valued.R_COUNT]
    assert count > 0
    records = scratch[0, WORK_LEN + valued.R_HEADER:]
    buf = np.zeros(value_net.NET_BUF_LEN, np.int64)
    for t in range(count):
        rec = records[t * valued.REC_STRIDE:(t + 1) * valued.REC_STRIDE]
        estimate = value_net.network_output(
            row, play.W_NET, rec[valued.REC_IDX:valued.REC_VAL],
            rec[valued.REC_VAL:valued.REC_STRIDE].view(np.float32), rec[valued.REC_NNZ], buf,
            1)
        recorded = rec[valued.REC_VALUE:valued.REC_VALUE + 1].view(np.float64)[0]
        assert recorded == pytest.approx(rec[valued.REC_SCORE] + value_net.SCALE * estimate,
                                         rel=1e-5, abs=1e-3)


def test_a_focused_training_table_gives_its_share_to_the_solo_default_game():
    """``unified.sample``: with ``focus`` a share of the rows is the solo game on the
    default rules (the rest drawn as without it); without, the rows are those every
    shipped config drew."""
    from analyzer.games.clever.training import unified

    base = {**defaults(TAC_GAME.params), "players": 1}
    plain = unified.sample(TAC_GAME, 4000, 70)
    focused = unified.sample(TAC_GAME, 4000, 70, 0.5)
    share = np.mean([row == base for row in focused]) - np.mean([row == base for row in plain])
    assert share == pytest.approx(0.5 * (1 - np.mean([row == base for row in plain])), abs=0.03)
    assert unified.sample(TAC_GAME, 50, 70, 0.0) == plain[:50]


def test_a_solo_leaning_training_table_gives_its_share_to_solo_games():
    """``unified.sample``: with ``solo`` that share of the rows not given to ``focus`` is
    solo (the player shares otherwise), their rules still drawn over the game shapes."""
    from analyzer.games.clever.training import unified

    plain = unified.sample(TAC_GAME, 4000, 70)
    leaning = unified.sample(TAC_GAME, 4000, 70, 0.0, 0.8)
    solo_plain = np.mean([row["players"] == 1 for row in plain])
    solo_leaning = np.mean([row["players"] == 1 for row in leaning])
    assert solo_leaning == pytest.approx(0.8 + 0.2 * solo_plain, abs=0.03)
    shapes = {(row["rounds"], row["round_2_bonus"]) for row in leaning if row["players"] == 1}
    assert len(shapes) > 6  # rounds 4-8 and the player count's own, bonus on and off
