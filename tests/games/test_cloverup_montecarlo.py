"""Monte Carlo play loops (``kernels.cloverup.play``) against the exact solver.

Every tolerance is 5 standard errors computed from the exact distribution being tested:
``sqrt(p (1 - p) / n)`` for a frequency, ``sd / sqrt(n)`` for a mean. An outcome of exact
probability 0 must never occur.
"""

import numpy as np
import pytest

from analyzer.run.driver import BlockLoop
from kernels.cloverup import game, layout, play, rules, solve
from kernels.cloverup.layout import CLOVER, INSTANT_WIN, TRIPLE_SIX
from kernels.rng import make_die

WEIGHTS = np.array([6, 5, 5, 3, 3, 1, 1], np.float64)  # rules page, *Dice*
Z = 5.0


class Model:
    def __init__(self):
        self.probs = WEIGHTS / WEIGHTS.sum()
        cum = np.cumsum(WEIGHTS)
        self.die = make_die(cum / cum[-1])  # cdf (last entry exactly 1.0) + guide table
        self.rmax = 2 + 2 * 1 + 2
        self.rules = np.array([2, 1, 2, self.rmax], np.int64)
        self.stop, self.end, self.start = rules.turn_tables(12, 5, True)
        self.trans = solve.build_transitions(self.probs, self.rules, self.end, self.start,
                                             self.stop)
        self.n_pos = self.trans[0].shape[0] - 1
        self.points = np.arange(layout.N_OUTCOMES, dtype=np.float64)
        self.points[TRIPLE_SIX] = 18.0
        self.points[INSTANT_WIN] = 18.0
        self.shape3 = (layout.N_MULTISETS, self.rmax + 1, 2)

    def policy(self, name):
        """Flat int8[S] table of ``optimal``, ``never`` or ``threshold:K``."""
        if name == "optimal":
            return solve.optimize_turn(self.trans, self.stop, self.points)[2]
        table = np.zeros(self.shape3, np.int8)
        if name.startswith("threshold:"):
            k = int(name.split(":")[1])
            for m, dice in enumerate(layout.MULTISET_DICE):
                mask = sum(1 << i for i in range(3) if dice[i] < k and dice[i] != CLOVER)
                table[m, 1:, 0] = mask
                table[m, 1:, 1] = mask & 1
        return table.reshape(-1)

    def simulate_turns(self, policy, n_blocks, block_size, salt=0):
        keys = np.arange(n_blocks, dtype=np.uint64) * np.uint64(7919) + np.uint64(1 + salt)
        sizes = np.full(n_blocks, block_size, np.int64)
        out = np.zeros((n_blocks, layout.N_OUTCOMES), np.int64)
        play.run_turn_blocks(keys, sizes, out, policy.reshape(self.shape3), self.die,
                   self.rules, self.end, self.start, self.stop)
        return out.sum(axis=0)


@pytest.fixture(scope="module")
def model():
    return Model()


def check_turn_counts(model, name, n_blocks, block_size):
    policy = model.policy(name)
    exact = solve.outcome_distribution(model.trans, model.stop, policy)
    counts = model.simulate_turns(policy, n_blocks, block_size)
    n = counts.sum()
    assert n == n_blocks * block_size
    for o in range(layout.N_OUTCOMES):
        p = exact[o]
        se = np.sqrt(p * (1 - p) / n)
        assert abs(counts[o] / n - p) <= Z * se, (name, layout.outcome_label(o), counts[o], p * n)
    mean = exact @ model.points
    sd = np.sqrt(exact @ (model.points - mean) ** 2)
    sim_mean = counts @ model.points / n
    assert abs(sim_mean - mean) <= Z * sd / np.sqrt(n), (name, sim_mean, mean)


@pytest.mark.parametrize("name", ["optimal", "never", "threshold:4"])
def test_turn_outcomes_match_exact_distribution(model, name):
    """play.turns_block: every outcome's frequency and the mean score over 8e5 turns agree
    with solve.outcome_distribution within 5 standard errors."""
    check_turn_counts(model, name, 8, 100_000)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["optimal", "never", "threshold:4"])
def test_turn_outcomes_match_exact_distribution_slow(model, name):
    """As above with 2e7 turns per policy."""
    check_turn_counts(model, name, 200, 100_000)


def test_turns_are_reproducible(model):
    """Same keys -> same counts; other keys -> other counts (counter-based streams)."""
    policy = model.policy("optimal")
    a = model.simulate_turns(policy, 4, 20_000)
    assert np.array_equal(a, model.simulate_turns(policy, 4, 20_000))
    assert not np.array_equal(a, model.simulate_turns(policy, 4, 20_000, salt=12345))


# --- two-player games -----------------------------------------------------------------------

ROUNDS = 2


def static_game_oracle(dist0, dist1, rounds, triple_six_effect):
    """Rules page, *Game*, for two players with fixed turn policies (outcome distributions
    ``dist0`` for the first seat, ``dist1`` for the second): returns
    ``(P(first seat wins), P(tie), P(first seat wins instantly))``."""
    memo = {}

    def pts(o):
        return 18 if o == TRIPLE_SIX else o

    def rec(rnd, diff):  # diff = first seat's total minus the second's
        if rnd == rounds:
            return np.array([diff > 0, diff == 0, 0.0], float)
        if (rnd, diff) in memo:
            return memo[rnd, diff]
        acc = np.zeros(3)
        for o0, p0 in enumerate(dist0):
            if p0 == 0:
                continue
            if o0 == INSTANT_WIN:
                acc += p0 * np.array([1.0, 0.0, 1.0])
                continue
            if o0 == TRIPLE_SIX and triple_six_effect:  # the second seat skips the round
                acc += p0 * rec(rnd + 1, diff + 18)
                continue
            for o1, p1 in enumerate(dist1):
                if p1 == 0 or o1 == INSTANT_WIN:  # the second seat wins outright
                    continue
                mine = 0 if (o1 == TRIPLE_SIX and triple_six_effect) else pts(o0)
                acc += p0 * p1 * rec(rnd + 1, diff + mine - pts(o1))
        memo[rnd, diff] = acc
        return acc

    return tuple(rec(0, 0))


def simulate_games(model, lineup, policies, n_blocks, block_size, triple_six_effect=True):
    """Games of the reroll-mask tables ``policies`` (int8[T, S]), each turn drawn from its
    table's exact outcome distribution (``play.play_game``)."""
    from analyzer.games.cloverup.model import outcome_die

    max_diff = layout.MAX_POINTS * (ROUNDS + 1)
    keys = np.arange(n_blocks, dtype=np.uint64) * np.uint64(7919) + np.uint64(3)
    sizes = np.full(n_blocks, block_size, np.int64)
    out = np.zeros((n_blocks, 2, 2, play.COL_HIST + layout.MAX_POINTS * ROUNDS + 1), np.int64)
    dist = solve.outcome_distributions(model.trans, model.stop, policies)
    dice = np.stack([outcome_die(d) for d in dist])
    every = np.arange(policies.shape[0], dtype=np.int32)  # each table stored as it is
    no_decisions = np.zeros((dice.shape[0], layout.N_OUTCOMES, 0))  # not drawn
    BlockLoop.of(play.games_block)(keys, sizes, out, lineup, False, ROUNDS,
                                   triple_six_effect, dice, every, max_diff, no_decisions)
    return out.sum(axis=0)


def _game(model, modes, tables, policies, triple_six_effect=True):
    max_diff = layout.MAX_POINTS * (ROUNDS + 1)
    record = np.zeros((ROUNDS * 2 * (2 * max_diff + 1) * (layout.MAX_POINTS + 1), model.n_pos),
                      np.int8)
    W = game.two_player_game(model.trans, model.stop, ROUNDS, triple_six_effect, max_diff,
                             np.array(modes, np.int64), np.array(tables, np.int64), policies,
                             record)
    return W[0, 0, max_diff, 0], record


@pytest.mark.parametrize("effect", [True, False])
def test_two_player_game_fixed_policies_exact(model, effect):
    """Game: two_player_game with two fixed policies equals an independent enumeration of
    the rules (instant win, triple-six effect, shared wins)."""
    pols = np.stack([model.policy("optimal"), model.policy("threshold:4")])
    w0, _ = _game(model, [game.FIXED, game.FIXED], [0, 1], pols, effect)
    d0 = solve.outcome_distribution(model.trans, model.stop, pols[0])
    d1 = solve.outcome_distribution(model.trans, model.stop, pols[1])
    win, tie, _ = static_game_oracle(d0, d1, ROUNDS, effect)
    assert w0 == pytest.approx(win + tie / 2, abs=1e-12)


def test_two_player_game_fixed_policies_montecarlo(model):
    """Game: play.games_block with two fixed policies (first seat optimal, second seat
    threshold:4) matches the exact win share and instant-win rate within 5 SE."""
    pols = np.stack([model.policy("optimal"), model.policy("threshold:4")])
    d0 = solve.outcome_distribution(model.trans, model.stop, pols[0])
    d1 = solve.outcome_distribution(model.trans, model.stop, pols[1])
    win, tie, instant = static_game_oracle(d0, d1, ROUNDS, True)
    share = win + tie / 2
    lineup = np.array([[0, 0], [1, 0]], np.int64)
    tot = simulate_games(model, lineup, pols, 8, 50_000)
    n = tot[0, 0, play.COL_GAMES]
    assert n == 400_000 and tot[1, 1, play.COL_GAMES] == n
    var = win + tie / 4 - share ** 2  # per-game win share takes the values 1, 1/2, 0
    sim = tot[0, 0, play.COL_WIN_UNITS] / (play.WIN_UNITS * n)
    assert abs(sim - share) <= Z * np.sqrt(var / n), (sim, share)
    assert tot[0, 0, play.COL_WIN_UNITS] + tot[1, 1, play.COL_WIN_UNITS] == play.WIN_UNITS * n
    sim_iw = tot[0, 0, play.COL_INSTANT_WINS] / n
    assert abs(sim_iw - instant) <= Z * np.sqrt(instant * (1 - instant) / n), (sim_iw, instant)


def test_two_player_game_equilibrium_montecarlo(model):
    """Game: the backward-induction equilibrium (both seats optimise their win chance, the
    recorded situational tables) played by play.games_block wins for the first seat as
    often as two_player_game says, within 5 SE; replaying the record as FIXED_SITUATIONAL
    reproduces the exact value."""
    dummy = np.zeros((1, model.n_pos), np.int8)
    w0, record = _game(model, [game.OPTIMIZE, game.OPTIMIZE], [0, 0], dummy)
    assert 0.0 < w0 < 1.0
    replay, _ = _game(model, [game.FIXED_SITUATIONAL, game.FIXED_SITUATIONAL], [0, 0], record)
    assert replay == pytest.approx(w0, abs=1e-12)
    lineup = np.array([[0, 1], [0, 1]], np.int64)
    tot = simulate_games(model, lineup, record, 8, 50_000)
    n = tot[0, 0, play.COL_GAMES]
    sim = tot[0, 0, play.COL_WIN_UNITS] / (play.WIN_UNITS * n)
    # the share w in {0, 1/2, 1} has Var(w) = E[w^2] - p^2 <= E[w] - p^2 = p (1 - p); the
    # tie chance is not tracked, so the bound is used as the variance
    se = np.sqrt(w0 * (1 - w0) / n)
    assert abs(sim - w0) <= Z * se, (sim, w0)


def test_two_player_game_best_response_montecarlo(model):
    """Game: the first seat optimising its win chance (situational tables) against a fixed
    threshold:4 second seat does at least as well as the fixed expected-score policy, and
    play.games_block, mixing a situational and a static seat, agrees within 5 SE."""
    fixed = model.policy("threshold:4")[None, :]
    w_br, record = _game(model, [game.OPTIMIZE, game.FIXED], [0, 0], fixed)
    pols = np.stack([model.policy("optimal"), model.policy("threshold:4")])
    w_static, _ = _game(model, [game.FIXED, game.FIXED], [0, 1], pols)
    assert w_br >= w_static - 1e-12
    policies = np.concatenate([record, fixed])
    lineup = np.array([[0, 1], [record.shape[0], 0]], np.int64)
    tot = simulate_games(model, lineup, policies, 8, 50_000)
    n = tot[0, 0, play.COL_GAMES]
    sim = tot[0, 0, play.COL_WIN_UNITS] / (play.WIN_UNITS * n)
    se = np.sqrt(w_br * (1 - w_br) / n)  # upper bound of the share's SE, as above
    assert abs(sim - w_br) <= Z * se, (sim, w_br)


def test_a_game_draws_each_turn_from_its_table_s_exact_outcomes():
    """Rules page, *A turn*: a game's turn (``play.play_game``) is its policy table's
    outcome, drawn from the exact outcome distribution (``Model.outcome_dice``); each
    distinct table of the win policy is stored once (every table given back), each die
    gives its table's distribution, and an outcome of probability 0 (three clovers when
    the clover cannot come up) is never drawn, even at the top of the unit interval."""
    from analyzer.games.cloverup.model import distinct_rows, get_model, parse_policy
    from analyzer.games.cloverup.params import PARAMS
    from analyzer.params import defaults
    from kernels.rng import GUIDE_SIZE, draw

    values = {**defaults(PARAMS), "players": 2}
    model = get_model(values)
    stack = model.win_solution()[0]
    tables, row_of = distinct_rows(stack)
    assert tables.shape[0] < stack.shape[0] // 10
    np.testing.assert_array_equal(tables[row_of], stack)
    dice, rows = model.outcome_dice(parse_policy("win"))
    np.testing.assert_array_equal(rows, row_of)
    exact = solve.outcome_distributions(model.trans, model.stop_outcome, tables[:20])
    cdf = dice[:20, :layout.N_OUTCOMES]
    np.testing.assert_allclose(np.diff(cdf, prepend=0.0, axis=1), exact, atol=1e-12)
    no_clover = get_model({**values, "weights": (6, 5, 5, 3, 3, 1, 0)})
    die, _ = no_clover.outcome_dice(parse_policy("optimal"))
    assert die.shape == (1, layout.N_OUTCOMES + GUIDE_SIZE)
    for u in (0.0, 0.5, 1.0 - 2.0 ** -53):
        assert draw(die[0], layout.N_OUTCOMES, u) != INSTANT_WIN
