"""The contest record every game's whole-game kernel keeps (``kernels.accumulate.add_contest``):
each seat's margin to the best other player, the lead of first place over second, ties
and the decisions a player makes, checked game by game against the final scores and the
decision logs, and CloverUp's keep/reroll decisions against an exact recursion."""

import numpy as np
import pytest

from analyzer.params import defaults
from kernels.accumulate import (CONTEST_DECISIONS, CONTEST_DECISIONS_SQ, CONTEST_LEAD,
                                CONTEST_MARGIN, CONTEST_TIES)

Z = 5  # Monte Carlo checks: within 5 standard errors


def _check_game(out, totals, col, decided=-1):
    """One game's contest columns (``out``: int64[n, n, M], seats in their own slots)
    against the final ``totals``: margins, leads and the tie, written out here."""
    n = len(totals)
    top = max(totals)
    tied = n > 1 and totals.count(top) > 1 and decided < 0
    for seat in range(n):
        others = totals[:seat] + totals[seat + 1:]
        margin = totals[seat] - max(others) if n > 1 else 0
        row = out[seat, seat, col:]
        assert row[CONTEST_MARGIN] == margin, (totals, seat)
        assert row[CONTEST_LEAD] == max(margin, 0)
        assert row[CONTEST_TIES] == tied
        assert row[CONTEST_DECISIONS_SQ] == row[CONTEST_DECISIONS] ** 2
    ordered = sorted(totals, reverse=True)
    assert out[..., col + CONTEST_LEAD].sum() == (ordered[0] - ordered[1] if n > 1 else 0)
    assert out[..., col + CONTEST_LEAD].sum() >= 0
    return [int(out[s, s, col + CONTEST_DECISIONS]) for s in range(n)]


# --- CloverUp --------------------------------------------------------------------------------

def _cloverup_model(**changes):
    from analyzer.games.cloverup.model import get_model
    from analyzer.games.cloverup.params import PARAMS

    values = {**defaults(PARAMS), "players": 2, **changes}
    return values, get_model(values)


def _expected_decisions(model, table):
    """The expected keep/reroll decisions of a turn under ``table``, by recursion back
    from every position the policy is asked in (independent of the forward sweep)."""
    from kernels.cloverup.layout import MULTISET_DICE, N_MULTISETS
    from kernels.cloverup.solve import canonical_mask

    act_ptr, act_mask, res_ptr, res_next, res_prob, _, start_next, start_prob = model.trans
    per_multiset = (act_ptr.shape[0] - 1) // N_MULTISETS
    memo = {}

    def asked(s):
        if s not in memo:
            m = s // per_multiset
            chosen = canonical_mask(np.int64(table[s]), MULTISET_DICE[m], np.int64(s % 2))
            later = 0.0
            for a in range(act_ptr[s], act_ptr[s + 1]):
                if act_mask[a] == chosen:
                    later = sum(res_prob[e] * asked(res_next[e])
                                for e in range(res_ptr[a], res_ptr[a + 1]) if res_next[e] >= 0)
            memo[s] = 1.0 + later
        return memo[s]

    return sum(p * asked(nxt) for nxt, p in zip(start_next, start_prob) if nxt >= 0)


@pytest.mark.parametrize("name", ["optimal", "never", "threshold:4", "reach:15"])
def test_cloverup_turn_decisions_are_exact(name):
    """``solve.outcome_decisions``: summed over the decisions it gives each outcome's exact
    chance, its mean is the recursion's, no turn takes more decisions than it has room
    for, and a policy that never rerolls is asked once or not at all."""
    from analyzer.games.cloverup.model import parse_policy
    from kernels.cloverup import solve

    _, model = _cloverup_model()
    policy = parse_policy(name)
    table = model.turn_policy(policy)
    joint = solve.outcome_decisions(model.trans, model.stop_outcome, table,
                                    np.int64(model.decision_counts))
    np.testing.assert_allclose(joint.sum(axis=1), model.outcome_distribution(policy),
                               atol=1e-12)
    assert joint[:, -1].sum() == 0
    mean = float((joint.sum(axis=0) * np.arange(joint.shape[1])).sum())
    assert mean == pytest.approx(_expected_decisions(model, table), abs=1e-12)
    if name == "never":
        assert joint[:, 2:].sum() == 0


def _cloverup_games(values, names, first, end, seed=3):
    """Games ``first`` to ``end - 1`` of one block of ``names`` (no seat rotation), one
    accumulator each."""
    from analyzer.games.cloverup import simulation
    from kernels.cloverup import play

    model = simulation.get_model(values)
    lineup = simulation.lineup_of(names, values["players"])
    dice, row_of, where = simulation.lineup_dice(model, lineup)
    seated = np.array([where[p] for p in lineup], np.int64)
    width = play.COL_HIST + 18 * values["rounds"] + 1
    for g in range(first, end):
        out = np.zeros((len(names), len(names), width), np.int64)
        play.games_block(np.uint64(seed), g, g + 1, out, seated, False, values["rounds"],
                         values["triple_six_effect"], dice, row_of, model.max_diff,
                         simulation.lineup_decisions(model, lineup))
        yield out


def test_cloverup_contest_columns_game_by_game():
    """Three seats, 300 single games: margins, leads and ties from the final scores; a
    game an instant win ended is no tie; each seat's decisions at most a turn's most
    in each round."""
    from kernels.cloverup import play

    values, model = _cloverup_model(players=3)
    ties = 0
    for out in _cloverup_games(values, ["optimal", "never", "reach:15"], 0, 300):
        totals = [int(out[s, s, play.COL_SCORE_SUM]) for s in range(3)]
        winner = next((s for s in range(3) if out[s, s, play.COL_INSTANT_WINS]), -1)
        decisions = _check_game(out, totals, play.COL_CONTEST, winner)
        assert all(0 <= d <= values["rounds"] * (model.decision_counts - 1) for d in decisions)
        ties += out[0, 0, play.COL_CONTEST + CONTEST_TIES]
    assert 0 < ties < 300


def test_cloverup_decisions_a_game_match_the_exact_turn():
    """With no clover and no triple-six effect every turn is played: a seat's decisions a
    game average ``rounds`` times the exact decisions of a turn (within 5 SE)."""
    from analyzer.games.cloverup import simulation
    from analyzer.games.cloverup.model import parse_policy

    values, model = _cloverup_model(weights=(6, 5, 5, 3, 3, 1, 0), triple_six_effect=False)
    acc, n = simulation.play_games(values, simulation.lineup_of(["optimal"], 2), 20_000, 5,
                                   progress=False)
    row = acc.sum(axis=(0, 1))
    cols = simulation.COLUMNS
    games = row[cols.games]
    mean = row[cols.decisions_sum] / games
    sd = np.sqrt(row[cols.decisions_sq] / games - mean ** 2)
    exact = values["rounds"] * _expected_decisions(
        model, model.turn_policy(parse_policy("optimal")))
    assert abs(mean - exact) <= Z * sd / np.sqrt(games), (mean, exact)


# --- Sly Dice --------------------------------------------------------------------------------

def test_sly_dice_contest_columns_game_by_game():
    """Three seats (the equilibrium, an honest player, an accuser), 40 single games:
    margins, leads and ties from the final scores; each seat's decisions at least its
    claims and accusations, at most two reroll choices, a claim, three Higher or Lower
    calls and a choice on each other player's claim a round."""
    from analyzer.games.sly_dice.model import get_model
    from analyzer.games.sly_dice.params import PARAMS
    from analyzer.games.sly_dice.simulation import lineup_of
    from kernels.sly_dice import play

    values = {**defaults(PARAMS), "players": 3}
    model = get_model(values)
    rows = np.stack([p.row() for p in lineup_of(["equilibrium", "honest", "accuser:0.5"],
                                                values)])
    for g in range(40):
        out = np.zeros((3, 3, play.COL_HIST + play.HIST_BINS), np.int64)
        play.games_block(np.uint64(11), g, g + 1, out, rows, False, *model.game_args())
        totals = [int(out[s, s, play.COL_SCORE_SUM]) for s in range(3)]
        decisions = _check_game(out, totals, play.COL_CONTEST)
        for s, d in enumerate(decisions):
            made = out[s, s, play.COL_CLAIMS] + out[s, s, play.COL_ACCUSATIONS]
            assert made + model.rounds <= d <= model.rounds * (2 + 1 + 3 + 2)


# --- the Clever games ------------------------------------------------------------------------

@pytest.mark.parametrize("players", [1, 2, 3])
def test_clever_contest_columns_match_the_decision_log(players):
    """That's Pretty Clever, greedy in every seat, single games: margins, leads and ties
    from the final scores; decisions as the game log gives them (picks, passive picks
    taken or declined, re-rolls, +1s and returns spent); every die a greedy player
    enters came from one of those picks or +1s; a passive pick each other player's turn
    at most."""
    from analyzer.games.thats_pretty_clever.model import GAME
    from kernels.clever import play

    values = {**defaults(GAME.params), "players": players}
    codes = np.stack([GAME.parse_policy("greedy", values)] * players)
    rounds = GAME.rounds_for(values)
    for g in range(12):
        out = np.zeros((players, players, play.COL_HIST + play.HIST_BINS), np.int64)
        play.games_block(np.uint64(13), g, g + 1, out, codes, False, rounds,
                         GAME.game_rules(values))
        totals = [int(out[s, s, play.COL_SCORE_SUM]) for s in range(players)]
        decisions = _check_game(out, totals, play.COL_CONTEST)
        for s in range(players):
            log = out[s, s, play.COL_LOG:play.COL_LOG + play.LOG_LEN]
            picks = log[play.LOG_PICKS:play.LOG_PICKS + 3].sum()
            actions = log[play.LOG_ACTION_ROUNDS:play.LOG_ACTION_ROUNDS + 3 * play.LOG_ROUNDS]
            passive = log[play.LOG_PASSIVE_PICKS]
            assert decisions[s] == (picks + passive + log[play.LOG_DECLINED]
                                    + actions.sum())
            plus = actions.reshape(-1, 3)[:, play.ACTION_PLUS].sum()
            assert log[play.LOG_DICE:play.LOG_DICE + play.N_AREAS].sum() == \
                picks + passive + plus
            assert passive + log[play.LOG_DECLINED] <= rounds * max(players - 1, 1)
