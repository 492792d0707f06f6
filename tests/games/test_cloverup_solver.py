"""The exact turn solver (``kernels.cloverup.solve``) against the rules page's published
values and the independent Fraction oracle (``tests/oracles.py``)."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kernels.cloverup import layout, rules, solve
from kernels.cloverup.layout import CLOVER, INSTANT_WIN, MULTISET_INDEX, TRIPLE_SIX
from tests import oracles

DEFAULT_WEIGHTS = (6, 5, 5, 3, 3, 1, 1)  # rules page, *Dice*


class Turn:
    """Kernel tables for one rule variant."""

    def __init__(self, weights=DEFAULT_WEIGHTS, rerolls=2, clover_bonus=1, double_six_bonus=2,
                 double_six_rule=True, instant_win_points=18):
        w = np.asarray(weights, np.float64)
        self.probs = w / w.sum()
        self.rmax = rerolls + 2 * clover_bonus + double_six_bonus
        self.rules = np.array([rerolls, clover_bonus, double_six_bonus, self.rmax], np.int64)
        self.stop, self.end, self.start = rules.turn_tables(12, 5, double_six_rule)
        self.trans = solve.build_transitions(self.probs, self.rules, self.end, self.start,
                                             self.stop)
        self.points = points_utility(instant_win_points)

    def optimize(self, utility=None):
        return solve.optimize_turn(self.trans, self.stop,
                                   self.points if utility is None else utility)

    def s(self, dice, rerolls, ds):
        a, b, c = sorted(dice)
        return solve.position_index(int(MULTISET_INDEX[a - 1, b - 1, c - 1]), rerolls, ds,
                                    self.rmax)


def points_utility(instant_win_points=18):
    u = np.arange(layout.N_OUTCOMES, dtype=np.float64)
    u[TRIPLE_SIX] = 18.0
    u[INSTANT_WIN] = instant_win_points
    return u


def reach_utility(target, instant_win_points=18):
    return (points_utility(instant_win_points) >= target).astype(np.float64)


def kernel_policy_fn(turn, policy):
    """A flat kernel policy table as an oracle policy function."""
    def fn(dice, left, ds):
        mask = int(policy[turn.s(dice, left, int(ds))])
        return {i for i in range(3) if mask >> i & 1}
    return fn


def threshold_table(turn, k):
    """Reroll every sorted position whose face is below ``k`` and not a clover; in the
    double-six state only position 0 can qualify."""
    table = np.zeros((layout.N_MULTISETS, turn.rmax + 1, 2), np.int8)
    for m, dice in enumerate(layout.MULTISET_DICE):
        mask = sum(1 << i for i in range(3) if dice[i] < k and dice[i] != CLOVER)
        table[m, 1:, 0] = mask
        table[m, 1:, 1] = mask & 1
    return table.reshape(-1)


@pytest.fixture(scope="module")
def default():
    return Turn()


# --- (a) the rules page's published values ------------------------------------------------

def test_default_expected_score_matches_rules_page_and_oracle(default):
    """Rules page, *What the analyzer answers*: 12.4555764... with the default weights."""
    value, p_iw = oracles.best_turn(DEFAULT_WEIGHTS)
    assert Fraction("12.4555764") <= value < Fraction("12.4555765")  # page digits, truncated
    _, _, _, v0, w0 = default.optimize()
    assert 12.4555764 <= v0 < 12.4555765
    assert v0 == pytest.approx(float(value), abs=1e-12)
    assert w0 == pytest.approx(float(p_iw), abs=1e-12)


def test_uniform_expected_score_matches_rules_page_and_oracle():
    """Rules page, *What the analyzer answers*: 16.4244458... with equally likely faces."""
    value, p_iw = oracles.best_turn((1,) * 7)
    assert Fraction("16.4244458") <= value < Fraction("16.4244459")
    _, _, _, v0, w0 = Turn((1,) * 7).optimize()
    assert v0 == pytest.approx(float(value), abs=1e-12)
    assert w0 == pytest.approx(float(p_iw), abs=1e-12)


# --- (b) odd rule variants against the oracle -----------------------------------------------

def _compare_variant(weights, rerolls, clover_bonus, double_six_bonus, double_six_rule,
                     instant_win_points):
    turn = Turn(weights, rerolls, clover_bonus, double_six_bonus, double_six_rule,
                instant_win_points)
    _, _, _, v0, w0 = turn.optimize()
    value, p_iw = oracles.best_turn(weights, instant_win_points, rerolls, clover_bonus,
                                    double_six_bonus, double_six_rule)
    assert v0 == pytest.approx(float(value), abs=1e-9)
    assert w0 == pytest.approx(float(p_iw), abs=1e-9)


@settings(max_examples=15, deadline=None, derandomize=True, database=None)
@given(
    weights=st.lists(st.integers(0, 7), min_size=7, max_size=7).filter(lambda w: sum(w) > 0),
    rerolls=st.integers(0, 3),
    clover_bonus=st.integers(0, 2),
    double_six_bonus=st.integers(0, 3),
    double_six_rule=st.booleans(),
    instant_win_points=st.integers(0, 30),
)
def test_variants_match_oracle(weights, rerolls, clover_bonus, double_six_bonus,
                               double_six_rule, instant_win_points):
    """Every rule parameter at once: the kernel's best expected score and its instant-win
    chance equal the oracle's."""
    _compare_variant(tuple(weights), rerolls, clover_bonus, double_six_bonus, double_six_rule,
                     instant_win_points)


@pytest.mark.parametrize("case", [
    ((0, 0, 0, 0, 0, 0, 1), 2, 1, 2, True, 18),  # clovers only: an instant win for sure
    ((0, 0, 0, 0, 0, 1, 0), 2, 1, 2, True, 18),  # sixes only: a triple six for sure
    ((1, 0, 0, 0, 0, 1, 1), 3, 2, 3, True, 25),  # ones, sixes and clovers
    ((1, 1, 1, 1, 1, 1, 0), 1, 0, 3, True, 18),  # no clover; the double-six rule matters
    ((1, 1, 1, 1, 1, 1, 0), 1, 0, 3, False, 18),
    ((6, 5, 5, 3, 3, 1, 1), 0, 0, 0, True, 18),  # no rerolls at all
    ((6, 5, 5, 3, 3, 1, 1), 0, 2, 2, True, 30),  # rerolls only from clovers / double six
    ((2, 0, 3, 0, 1, 4, 2), 3, 2, 3, False, 0),
])
def test_edge_variants_match_oracle(case):
    """Degenerate weights and reroll counts: kernel equals oracle."""
    _compare_variant(*case)


def test_certain_outcomes():
    """Scoring the final dice: with only clovers the turn is an instant win; with only sixes
    a triple six."""
    t = Turn((0, 0, 0, 0, 0, 0, 1))
    dist = solve.outcome_distribution(t.trans, t.stop, t.optimize()[2])
    assert dist[INSTANT_WIN] == pytest.approx(1.0, abs=1e-15)
    t = Turn((0, 0, 0, 0, 0, 1, 0))
    dist = solve.outcome_distribution(t.trans, t.stop, t.optimize()[2])
    assert dist[TRIPLE_SIX] == pytest.approx(1.0, abs=1e-15)


# --- (c) reach:T -------------------------------------------------------------------------

@pytest.mark.parametrize("target", range(3, 19))
def test_reach_probability_matches_oracle(default, target):
    """What the analyzer answers: the best chance to reach at least T points, T = 3..18."""
    _, _, _, v0, _ = default.optimize(reach_utility(target))
    assert v0 == pytest.approx(float(oracles.best_reach_probability(DEFAULT_WEIGHTS, target)),
                               abs=1e-12)


# --- (d) outcome distributions -------------------------------------------------------------

def test_optimal_distribution_is_consistent(default):
    """The optimal policy's outcome distribution sums to 1 and its mean is the optimal
    value; the oracle, following the kernel's policy, finds the same distribution."""
    _, _, policy, v0, w0 = default.optimize()
    dist = solve.outcome_distribution(default.trans, default.stop, policy)
    assert dist.sum() == pytest.approx(1.0, abs=1e-13)
    assert dist @ default.points == pytest.approx(v0, abs=1e-12)
    assert dist[INSTANT_WIN] == pytest.approx(w0, abs=1e-13)
    exact = oracles.policy_outcome_distribution(DEFAULT_WEIGHTS,
                                                kernel_policy_fn(default, policy))
    for o in range(layout.N_OUTCOMES):
        assert dist[o] == pytest.approx(float(exact[o]), abs=1e-13), o
    # the independent evaluation of the kernel's policy reaches the oracle's optimum exactly
    mean = sum(p * (18 if o in (TRIPLE_SIX, INSTANT_WIN) else o) for o, p in exact.items())
    assert mean == oracles.best_expected_score(DEFAULT_WEIGHTS)


@pytest.mark.parametrize("name", ["never", "threshold:4", "threshold:6"])
def test_fixed_policy_distribution_matches_oracle(default, name):
    """A turn / Scoring: simple fixed policies evaluated by the kernel (outcome_distribution
    and evaluate_turn) equal the oracle's exact distribution."""
    if name == "never":
        table = np.zeros(default.trans[0].shape[0] - 1, np.int8)
        fn = oracles.never_reroll
    else:
        k = int(name.split(":")[1])
        table = threshold_table(default, k)
        fn = oracles.threshold_policy(k)
    exact = oracles.policy_outcome_distribution(DEFAULT_WEIGHTS, fn)
    dist = solve.outcome_distribution(default.trans, default.stop, table)
    for o in range(layout.N_OUTCOMES):
        assert dist[o] == pytest.approx(float(exact[o]), abs=1e-13), o
    mean = sum(p * default.points[o] for o, p in exact.items())
    _, v0 = solve.evaluate_turn(default.trans, default.stop, table, default.points)
    assert v0 == pytest.approx(float(mean), abs=1e-12)


def test_never_reroll_is_the_first_roll(default):
    """A turn step 1 / Scoring: never rerolling scores the first roll; a 1 1 1 scores 3."""
    table = np.zeros(default.trans[0].shape[0] - 1, np.int8)
    dist = solve.outcome_distribution(default.trans, default.stop, table)
    assert dist[:3].sum() == 0.0
    assert dist[3] == pytest.approx(default.probs[0] ** 3, abs=1e-16)
    assert dist[INSTANT_WIN] == pytest.approx(default.probs[6] ** 3, abs=1e-16)


# --- (e) ties go to the instant win ---------------------------------------------------------

def test_ties_go_to_the_instant_win(default):
    """Scoring the final dice: with two clovers (18 either way) and rerolls left the solver
    rerolls for the third clover; so does x 6 C, where any result still scores 18."""
    value, p_win, policy, _, _ = default.optimize()
    pc = default.probs[6]
    for x in range(1, 7):
        for r in range(1, default.rmax + 1):
            s = default.s((x, CLOVER, CLOVER), r, 0)
            assert policy[s] == 1, (x, r)
            assert value[s] == pytest.approx(18.0, abs=1e-12)
            assert p_win[s] == pytest.approx(1 - (1 - pc) ** r, abs=1e-14)
    for x in range(1, 6):
        assert policy[default.s((x, 6, CLOVER), 1, 0)] == 1, x


def test_no_tie_break_when_the_instant_win_is_worth_less():
    """Scoring the final dice: the tie-break never overrides value: with an instant win worth
    0 points the player stops on two clovers."""
    t = Turn(instant_win_points=0)
    policy = t.optimize()[2]
    for x in range(1, 7):
        assert policy[t.s((x, CLOVER, CLOVER), 2, 0)] == 0
