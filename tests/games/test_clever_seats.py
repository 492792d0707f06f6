"""Where a Clever player stands in games of 1-4 players (rules pages, section 2: in a round
every player is the active player once, in seat order; the others make passive picks;
rounds by player count), as the value network's seat block sees it
(``kernels.clever_base.seats``), and the seat block's transplant."""

import numpy as np
import pytest

from analyzer.games.clever import value_weights
from analyzer.run.driver import BlockLoop
from analyzer.games.thats_pretty_clever.model import GAME as TPC_GAME
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.params import defaults
from kernels.clever import play, value_net
from kernels.clever_base import seats
from kernels.clever_base.sheet import H_EVENT, H_LEAD, H_PLAYERS, H_ROUND, H_ROUNDS, H_SEAT
from kernels.clever_base.turn import PH_ROLL, TS_LEN
from kernels.thats_pretty_clever import encode as tpc_encode
from kernels.twice_as_clever import encode as tac_encode

KIND = {True: seats.NEXT_ACTIVE, False: seats.NEXT_PASSIVE}


def game_turns(players, seat, rounds):
    """Every turn of the game for ``seat`` in order: ``(round, turn, active?)`` (the
    oracle: section 2 written out)."""
    per_round = 2 if players == 1 else players
    return [(r, t, (t == 0) if players == 1 else (t == seat))
            for r in range(rounds) for t in range(per_round)]


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_2_turns_to_come_for_every_seat(players):
    """2: at every point of a game of 1-4 players (before each round's first turn and
    during each turn), each seat's active turns and passive picks still to come and the
    kind of the next one are those of the game's turn order written out."""
    rounds = int(TPC_GAME.layout.ROUNDS_BY_PLAYERS[players])
    for seat in range(players):
        turns = game_turns(players, seat, rounds)
        for r in range(rounds):
            for event in range(-1, 2 if players == 1 else players):
                later = [t for t in turns if (t[0], t[1]) > (r, event)]
                expected = (sum(a for _, _, a in later), sum(not a for _, _, a in later),
                            KIND[later[0][2]] if later else seats.NEXT_NONE)
                assert seats.turns_ahead(players, seat, event, r, rounds) == expected


def seated_sheet(layout, players, seat, event, rnd, lead):
    sheet = layout.new_sheet()
    sheet[H_PLAYERS], sheet[H_SEAT], sheet[H_EVENT] = players, seat, event
    sheet[H_ROUND], sheet[H_ROUNDS], sheet[H_LEAD] = rnd, 4, lead
    return sheet


@pytest.mark.parametrize("encode", [tpc_encode, tac_encode], ids=["tpc", "tac"])
def test_2_seat_block_inputs(encode):
    """The seat block of a sheet with 3 players, seat 1, during seat 0's active turn of
    round 2 of 4: 3 players; active turns to come 2 (this round's and the last round's)
    / 6, passive picks 1 + 2 = 3 / 12; next: its active turn; 30 points behind the best
    opponent when the turn began. Solo: no seat input at all (the base network's game); a
    network without the block sees none of it."""
    def block(sheet, n_in):
        idx = np.zeros(value_net.MAX_INPUTS, np.int64)
        val = np.zeros(value_net.MAX_INPUTS, np.float32)
        ts = np.zeros(TS_LEN, np.int64)
        ts[0] = PH_ROLL
        n = encode.encode(sheet, ts, idx, val, n_in)
        return {int(i) - encode.N_INPUTS: float(v) for i, v in zip(idx[:n], val[:n])
                if i >= encode.N_INPUTS}

    layout = TPC_GAME.layout if encode is tpc_encode else TAC_GAME.layout
    sheet = seated_sheet(layout, 3, 1, 0, 2, -30)
    assert block(sheet, encode.N_SEATED) == pytest.approx({
        seats.SEAT_PLAYERS + 2: 1.0, seats.SEAT_ACTIVE_LEFT: 2 / 6,
        seats.SEAT_PASSIVE_LEFT: 3 / 12, seats.SEAT_NEXT_ACTIVE: 1.0,
        seats.SEAT_DEFICIT: 0.3, seats.SEAT_BEHIND: 1.0})
    solo = seated_sheet(layout, 1, 0, 1, 3, 0)  # the solo passive turn of the last round
    assert block(solo, encode.N_SEATED) == {}
    assert block(sheet, encode.N_INPUTS) == {}


@pytest.mark.parametrize("game", [TPC_GAME, TAC_GAME], ids=lambda g: g.id)
@pytest.mark.parametrize("players", [1, 3])
def test_seat_block_transplant_plays_exactly_as_before(game, players):
    """Widening a network to the seat block's inputs with zero first-layer rows leaves its
    values, so its play, unchanged: the same games, bit for bit, solo and in 3 players."""
    rules = game.game_rules(defaults(game.params))
    n_bonus = int(value_net.n_inputs(game.kernel_game, 1))
    n_seated = int(value_net.n_inputs(game.kernel_game, 2))
    w = value_weights.initial_weights(n_bonus, 5)
    wide = value_weights.widen(w, n_bonus, n_seated)
    rounds = int(game.layout.ROUNDS_BY_PLAYERS[players])
    out = []
    for weights, n_in in ((w, n_bonus), (wide, n_seated)):
        row = value_weights.policy_row([weights], n_in)
        job_out = np.zeros((1, players, players, play.COL_HIST + play.HIST_BINS), np.int64)
        BlockLoop.of(play.games_block)(np.array([7], np.uint64), np.array([6]), job_out,
                                       np.stack([row] * players), False, rounds, rules)
        out.append(job_out)
    assert (out[0] == out[1]).all()


def test_2_each_turn_records_the_lead_when_it_began():
    """The play loop's ``begin_turn``: each sheet's event and its total minus the best
    other total (solo: 0)."""
    sheets = np.stack([TPC_GAME.layout.new_sheet() for _ in range(3)])
    sheets[0, TPC_GAME.layout.S_GREEN] = 3  # green 1, 2, 3 crossed: 6 points
    sheets[2, TPC_GAME.layout.S_GREEN] = 1  # 1 point
    play.begin_turn(sheets, 2)
    assert list(sheets[:, H_EVENT]) == [2, 2, 2]
    assert list(sheets[:, H_LEAD]) == [6 - 1, 0 - 6, 1 - 6]
    play.begin_turn(sheets[:1], -1)
    assert sheets[0, H_LEAD] == 0 and sheets[0, H_EVENT] == -1


def _games(row, players, game, rules):
    rounds = int(game.layout.ROUNDS_BY_PLAYERS[players])
    job_out = np.zeros((1, players, players, play.COL_HIST + play.HIST_BINS), np.int64)
    BlockLoop.of(play.games_block)(np.array([9], np.uint64), np.array([6]), job_out,
                                   np.stack([row] * players), False, rounds, rules)
    return job_out


@pytest.mark.parametrize("players", [1, 2, 3])
def test_every_network_of_a_row_plays_every_player_count(players):
    """A row of two networks values a position of a game of any player count at the mean
    of the values each network gives it alone (the skip head's term added once)."""
    game = TPC_GAME
    n_in = int(value_net.n_inputs(game.kernel_game, 2))
    first, second = (value_weights.initial_weights(n_in, seed) for seed in (5, 6))
    skip = np.linspace(-0.2, 0.3, seats.N_SEAT)
    sheet = game.layout.new_sheet()
    sheet[H_PLAYERS], sheet[H_ROUND], sheet[H_ROUNDS] = players, 2, 6
    ts = np.zeros(TS_LEN, np.int64)

    def value(members):
        row = value_weights.policy_row(members, n_in, skip=skip)
        buf = np.zeros(value_net.NET_BUF_LEN, np.int64)
        return value_net.afterstate_value(sheet, ts, row, play.W_NET, buf, np.zeros(1))

    alone = [value([first]), value([second])]
    assert alone[0] != alone[1]
    assert value([first, second]) == pytest.approx(sum(alone) / 2)


def test_round_gains_add_up_to_the_mean_final_score():
    """The comeback reading's points per round come from the totals logged at each round's
    end: they add up to the mean final score of the same games."""
    from analyzer import seats as seat_stats
    from analyzer.games.clever import report
    from analyzer.games.clever.simulation import COLUMNS, play_games

    game = TPC_GAME
    values = {**defaults(game.params), "players": 2}
    acc, n = play_games(game, values, ["greedy", "greedy"], 512, 3, False, None, False)
    row = acc.sum(axis=(0, 1))
    gains = report.round_gains(row, game.rounds_for(values))
    assert len(gains) == game.rounds_for(values) and min(gains) > 0
    assert sum(gains) == pytest.approx(seat_stats.row_stats(row, COLUMNS, 2)["mean_score"])
