"""What the learned policy leaves its opponents (rules pages, section 5: passive players
pick from the active player's platter, "after the third pick, all dice still in play go to
the platter"): ``kernels.clever.denial``."""

import numpy as np
import pytest

from analyzer.games.clever import value_weights
from analyzer.games.thats_pretty_clever.model import GAME as TPC_GAME
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.params import defaults
from kernels.clever import denial, play, value_net
from kernels.clever.moves import FIELD, MAX_MOVES, PLATTER, POOL, legal_moves
from kernels.clever.policies import TURN, WORK_LEN, apply_move, sheet_value
from kernels.clever_base.sheet import H_EVENT, H_PLAYERS, H_ROUND, H_SEAT
from kernels.clever.sheets import start_sheet
from kernels.clever_base.turn import PH_PASSIVE_PLUS, TS_LEN, set_turn
from tests.games.test_clever_seats import _games

GAMES = pytest.mark.parametrize("game", [TPC_GAME, TAC_GAME], ids=lambda g: g.id)


def seated(game, players, seat, event, rnd):
    sheet = np.zeros(play.SHEET_LEN, np.int64)
    start_sheet(sheet, game.kernel_game, 6, 0)
    sheet[H_PLAYERS], sheet[H_SEAT], sheet[H_EVENT], sheet[H_ROUND] = players, seat, event, rnd
    return sheet


def gift_row(game, weight, seed=3):
    n_in = int(value_net.n_inputs(game.kernel_game, 2))
    return value_weights.policy_row([value_weights.initial_weights(n_in, seed)], n_in,
                                    gift=weight)


def best_gain(row, opponent, faces, where, dice, scratch):
    """The oracle: the opponent's best value gain over every use of each die of ``dice``
    (a list), each tried on its own copy of the sheet, valued in the passive pick's +1
    window with the dice off the fields on the platter (None: no die has a use)."""
    moves = np.zeros((MAX_MOVES, 3), np.int64)
    set_turn(scratch[TURN:TURN + TS_LEN], PH_PASSIVE_PLUS, 0, 0,
             int(sum(1 << d for d in range(6) if where[d] != FIELD)), 0)
    base = sheet_value(opponent, row, scratch)
    gains = []
    for die in dice:
        for j in range(legal_moves(opponent, faces, 1 << die, moves, False)):
            trial = opponent.copy()
            apply_move(trial, faces, die, moves[j, 1], moves[j, 2], row, np.uint64(1), 0,
                       scratch)
            gains.append(sheet_value(trial, row, scratch) - base)
    return max(gains) if gains else None


@GAMES
@pytest.mark.parametrize("decline", [True, False])
def test_section_5_the_gift_is_the_opponents_best_platter_pick(game, decline):
    """After the last pick, the platter and the dice still in play are the passive pick's
    choices: the gift is the weight times the opponent's best value gain among them (the
    oracle tries every use of every die), floored at 0 where the pick may be declined; the
    same weighed twice as much is twice it."""
    sheets = np.stack([seated(game, 2, s, 0, 1) for s in range(2)])
    faces = np.array([6, 5, 4, 3, 2, 1], np.int64)
    where = np.full(6, PLATTER, np.int64)
    where[[2, 5]] = FIELD
    where[0] = POOL  # still in play: it goes to the platter too
    for weight in (1.0, 2.0):
        row = gift_row(game, weight)
        scratch = np.zeros(WORK_LEN, np.int64)
        denial.opponent_gains(sheets, 0, faces, where, row, np.uint64(1), scratch, decline)
        expected = best_gain(row, sheets[1], faces, where, [0, 1, 3, 4], scratch)
        expected = max(expected, 0.0) if decline else expected
        assert denial.gift(scratch, row, where) == pytest.approx(weight * expected)


@GAMES
def test_section_5_with_no_usable_platter_die_the_fields_count(game):
    """Section 5, special case: a passive player who cannot use any platter die may use a
    die of the active player's fields (which may be declined): the gift is then the best
    field die's gain, at least 0; with no usable die at all, 0."""
    sheets = np.stack([seated(game, 2, s, 0, 1) for s in range(2)])
    faces = np.array([6, 5, 4, 3, 2, 1], np.int64)
    where = np.full(6, FIELD, np.int64)
    row = gift_row(game, 1.0)
    scratch = np.zeros(WORK_LEN, np.int64)
    denial.opponent_gains(sheets, 0, faces, where, row, np.uint64(1), scratch, False)
    expected = best_gain(row, sheets[1], faces, where, list(range(6)), scratch)
    assert denial.gift(scratch, row, where) == pytest.approx(max(expected or 0.0, 0.0))


@GAMES
def test_no_gift_solo_or_unweighted(game):
    """The solo game has no opponent, and a row weighing no gift charges none."""
    faces = np.array([6, 5, 4, 3, 2, 1], np.int64)
    where = np.full(6, PLATTER, np.int64)
    scratch = np.zeros(WORK_LEN, np.int64)
    solo = np.stack([seated(game, 1, 0, 0, 1)])
    denial.opponent_gains(solo, 0, faces, where, gift_row(game, 1.0), np.uint64(1), scratch,
                          True)
    assert denial.gift(scratch, gift_row(game, 1.0), where) == 0.0
    pair = np.stack([seated(game, 2, s, 0, 1) for s in range(2)])
    denial.opponent_gains(pair, 0, faces, where, gift_row(game, 0.0), np.uint64(1), scratch,
                          True)
    assert denial.gift(scratch, gift_row(game, 0.0), where) == 0.0


@GAMES
@pytest.mark.parametrize("players", [1, 2])
def test_a_gift_changes_two_player_play_and_never_the_solo_game(game, players):
    """The shipped networks with and without a gift: the solo game bit for bit the same,
    two-player games not."""
    rules = game.game_rules(defaults(game.params))
    rows = [game.parse_policy("learned") for _ in range(2)]
    rows[0][play.W_GIFT], rows[1][play.W_GIFT] = 1.0, 0.0
    with_gift, without = (_games(row, players, game, rules) for row in rows)
    assert (with_gift == without).all() == (players == 1)
