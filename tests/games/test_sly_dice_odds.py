"""The Sly Dice rolling-phase solver (``kernels.sly_dice.odds``) and Higher or Lower
(``kernels.sly_dice.hol``) against the rules page's published values and the independent
Fraction oracle (``tests/sly_oracles.py``)."""

from fractions import Fraction
from itertools import combinations_with_replacement, pairwise
from math import factorial

import numpy as np
import pytest

from kernels.sly_dice import combos, layout, odds
from kernels.sly_dice.hol import HIGHER, hol_solve
from kernels.sly_dice.layout import CARD_NAMES, MS_COUNTS, MS_PROB, card_id, code_of
from kernels.sly_dice.odds import (BEST_OPEN, CHANGE_DIE, EXPECTED_POINTS, NO_POWER, PROBABILITY,
                                   SUM_OF_TWO)
from tests import sly_oracles as oracle

COMMONS = [(1, 2, 3), (6, 6, 6), (1, 1, 1), (2, 4, 5), (3, 3, 6)]
DICE_CARDS = range(layout.DICE_CARDS)
POINTS = np.array([float(p) for p in oracle.points_vector()])
OWN = [tuple(np.repeat(np.arange(7), row)) for row in MS_COUNTS[3]]
PAIRS = [tuple(np.repeat(np.arange(7), row)) for row in MS_COUNTS[2]]
TOL = {"rtol": 1e-12, "atol": 1e-12}
# shared/research/anchors-dice.md, section A: one throw of six dice, counts out of 6**6
SINGLE_THROW = {
    "three-of-a-kind": 17136, "full-house": 8136, "sixteen-or-lower": 6748,
    "twenty-six-or-higher": 6748, "small-straight": 4320, "four-of-a-kind": 2436,
    "three-pairs": 2256, "odds": 729, "evens": 729, "large-straight": 720,
    "five-of-a-kind": 186,
}


def common_index(common):
    return int(layout.CODE_INDEX[code_of(common)])


def kernel(common, objective, card, rerolls, k=1, power=NO_POWER, restart=False):
    """``solve_rolling`` for one common set; with ``restart`` the restart value is the
    kernel's own start value of the phase without the power."""
    t = odds.own_terminal(layout.counts_of(common), objective, card, k, POINTS, power)
    r = odds.solve_rolling(t, rerolls, -1.0)[0] if restart else -1.0
    return odds.solve_rolling(t, rerolls, r)


def assert_matches_oracle(common, objective, card, rerolls, k=1, power=NO_POWER,
                          restart=False):
    start, q1, q2, v1, v2 = kernel(common, objective, card, rerolls, k, power, restart)
    ref = oracle.rolling(common, objective, card, rerolls, k, power=power, restart=restart)
    assert start == pytest.approx(float(ref.start()), rel=1e-12, abs=1e-12)
    np.testing.assert_allclose(v1, [float(ref.v1(o)) for o in OWN], **TOL)
    want_v2 = [[float(ref.v2(a, p)) for p in PAIRS] for a in range(1, 7)]
    np.testing.assert_allclose(v2, want_v2, **TOL)
    if rerolls >= 1:
        locks = [float(ref.lock1(a)) for a in range(1, 7)]
        for m, own in enumerate(OWN):
            for a in set(own):
                assert q1[m, a] == pytest.approx(locks[a - 1], rel=1e-12, abs=1e-12)
    if rerolls >= 2:
        for a in range(1, 7):
            for m, pair in enumerate(PAIRS):
                for b in set(pair):
                    want = float(ref.lock2(*sorted((a, b))))
                    assert q2[a - 1, m, b] == pytest.approx(want, rel=1e-12, abs=1e-12)


# --- Combination cards -------------------------------------------------------------------

def _single_throw_counts(pred):
    """Ordered throws of six dice (out of 6**6) for which ``pred(sorted faces)`` holds."""
    total = 0
    for dice in combinations_with_replacement(range(1, 7), 6):
        ways = factorial(6)
        for f in set(dice):
            ways //= factorial(dice.count(f))
        total += ways * pred(dice)
    return total


@pytest.mark.parametrize("name", sorted(SINGLE_THROW))
def test_predicates_single_throw_counts(name):
    """Rules page, *Combination cards*: kernel and oracle predicates reproduce the
    exhaustive single-throw counts of shared/research/anchors-dice.md, section A."""
    card = card_id(name)
    assert _single_throw_counts(lambda d: oracle.holds(d, card)) == SINGLE_THROW[name]
    got = sum(round(p * 6**6) for c, p in zip(MS_COUNTS[6], MS_PROB[6])
              if combos.holds(c, card, 1))
    assert got == SINGLE_THROW[name]


def test_oracle_card_names_match_layout():
    """Rules page, *Combination cards*: both sides use the same card ids."""
    assert oracle.CARDS == CARD_NAMES


def test_no_rerolls_reproduces_single_throw():
    """Rules page, *Checks*: six dice thrown once, no rerolls, P(large straight) = 6!/6^6;
    rerolls=0 averaged over the common dice gives every card's single-throw chance."""
    table = odds.odds_table(POINTS, 0)
    mean = MS_PROB[3] @ table[:, :17, 0]
    assert mean[card_id("large-straight")] == pytest.approx(factorial(6) / 6**6, rel=1e-12)
    for name, count in SINGLE_THROW.items():
        assert mean[card_id(name)] == pytest.approx(count / 6**6, rel=1e-12)
    assert mean[:6] == pytest.approx([1 - (5 / 6) ** 6] * 6, rel=1e-12)


def test_rules_page_straights_from_common_123():
    """Rules page, *Checks*: common 1, 2, 3 with the best rolling policy: small straight
    0.41799554..., large straight 0.14544753..."""
    row = odds.odds_table(POINTS, 2)[common_index((1, 2, 3))]
    assert row[card_id("small-straight"), 0] == pytest.approx(0.41799554, abs=5e-9)
    assert row[card_id("large-straight"), 0] == pytest.approx(0.14544753, abs=5e-9)
    ref = oracle.rolling((1, 2, 3), PROBABILITY, card_id("small-straight"), 2)
    assert float(ref.start()) == pytest.approx(0.41799554, abs=5e-9)


# --- Dice and the rolling phase: kernel vs oracle -----------------------------------------

@pytest.mark.parametrize("rerolls", [0, 1, 2])
@pytest.mark.parametrize("common", COMMONS)
def test_probability_matches_oracle(common, rerolls):
    """Rules page, *Dice and the rolling phase* and *Combination cards*: best chance of
    every dice card (number cards k=1) at every position equals the oracle's."""
    for card in DICE_CARDS:
        assert_matches_oracle(common, PROBABILITY, card, rerolls)


@pytest.mark.parametrize("card,k", [(0, 3), (5, 4), (2, 2), (3, 6)])
def test_number_card_counts_match_oracle(card, k):
    """Rules page, *Combination cards* (number cards claim a count k): best chance of at
    least k dice of the face."""
    for common in COMMONS[:3]:
        assert_matches_oracle(common, PROBABILITY, card, 2, k=k)


@pytest.mark.parametrize("rerolls", [0, 1, 2])
@pytest.mark.parametrize("common", COMMONS)
def test_expected_points_match_oracle(common, rerolls):
    """Rules page, *Combination cards* (points): best expected points, number cards face x
    count, fixed cards their points if made."""
    for card in list(range(6)) + [6, 9, 11, 13, 15]:
        assert_matches_oracle(common, EXPECTED_POINTS, card, rerolls)


@pytest.mark.parametrize("power", [CHANGE_DIE, SUM_OF_TWO])
@pytest.mark.parametrize("common", COMMONS)
def test_powers_terminal_match_oracle(common, power):
    """Rules page, *Special powers* (``ones`` change a die, ``threes`` sum of two dice):
    terminal values of every own multiset, every card and objective."""
    pts = oracle.points_vector()
    cases = [(PROBABILITY, c, 1) for c in DICE_CARDS] + [(PROBABILITY, 5, 3)]
    cases += [(EXPECTED_POINTS, c, 1) for c in (0, 3, 5, 7, 12, 16)]
    cases += [(BEST_OPEN, (1 << 17) - 1, 1), (BEST_OPEN, 0b1001010000001, 1)]
    for objective, card, k in cases:
        got = odds.own_terminal(layout.counts_of(common), objective, card, k, POINTS, power)
        want = [float(oracle.terminal(o, common, objective, card, k, pts, power)) for o in OWN]
        np.testing.assert_allclose(got, want, **TOL, err_msg=f"{objective} {card} {k}")


@pytest.mark.parametrize("power", [NO_POWER, CHANGE_DIE, SUM_OF_TWO])
@pytest.mark.parametrize("rerolls", [0, 1, 2])
def test_powers_rolling_match_oracle(power, rerolls):
    """Rules page, *Special powers* with *Dice and the rolling phase*: best play when the
    ``ones`` or ``threes`` power will be used before claiming."""
    for common in [(1, 2, 3), (6, 6, 6), (1, 1, 1)]:
        for card in (card_id("small-straight"), card_id("large-straight"),
                     card_id("full-house"), card_id("odds"), 2):
            assert_matches_oracle(common, PROBABILITY, card, rerolls, power=power)
        assert_matches_oracle(common, EXPECTED_POINTS, 5, rerolls, power=power)
        assert_matches_oracle(common, BEST_OPEN, 0b1100000100011, rerolls, power=power)


@pytest.mark.parametrize("power", [NO_POWER, CHANGE_DIE, SUM_OF_TWO])
@pytest.mark.parametrize("rerolls", [0, 1, 2])
def test_restart_matches_oracle(power, rerolls):
    """Rules page, *Special powers* (``fours``: restart the rolling phase at any point):
    the restart is worth a fresh phase without the power."""
    for common in [(1, 2, 3), (6, 6, 6), (1, 1, 1), (2, 4, 5)]:
        for card in (card_id("large-straight"), card_id("five-of-a-kind"),
                     card_id("sixteen-or-lower")):
            assert_matches_oracle(common, PROBABILITY, card, rerolls, power=power,
                                  restart=True)
        assert_matches_oracle(common, EXPECTED_POINTS, 0, rerolls, power=power, restart=True)


def test_restart_never_hurts_and_helps_long_shots():
    """Rules page, *Special powers* (``fours``): holding the restart never lowers a value,
    and raises the chance of a long shot such as five of a kind."""
    for common in COMMONS:
        for card in DICE_CARDS:
            plain = kernel(common, PROBABILITY, card, 2)
            again = kernel(common, PROBABILITY, card, 2, restart=True)
            assert again[0] >= plain[0] - 1e-12
            assert np.all(again[3] >= plain[3] - 1e-12)
    five = card_id("five-of-a-kind")
    assert kernel((6, 6, 6), PROBABILITY, five, 2, restart=True)[0] > \
        kernel((6, 6, 6), PROBABILITY, five, 2)[0] + 1e-6


# --- Action tables -----------------------------------------------------------------------

@pytest.mark.parametrize("rerolls", [0, 1, 2])
def test_q_values_consistent(rerolls):
    """Rules page, *Dice and the rolling phase*: the best action value is the position's
    value; locks of faces not among the just-rolled dice, and locks beyond ``rerolls``,
    are -inf; stopping is worth the terminal value."""
    for common in COMMONS:
        for card in DICE_CARDS:
            t = odds.own_terminal(layout.counts_of(common), PROBABILITY, card, 1, POINTS,
                                  NO_POWER)
            start, q1, q2, v1, v2 = odds.solve_rolling(t, rerolls, -1.0)
            np.testing.assert_array_equal(q1.max(axis=1), v1)
            np.testing.assert_array_equal(q2.max(axis=2), v2)
            np.testing.assert_array_equal(q1[:, 0], t)
            assert start == pytest.approx(MS_PROB[3] @ v1, rel=1e-12)
            legal1 = (MS_COUNTS[3][:, 1:] > 0) & (rerolls >= 1)
            assert np.all(np.isfinite(q1[:, 1:]) == legal1)
            legal2 = (MS_COUNTS[2][:, 1:] > 0) & (rerolls >= 2)
            assert np.all(np.isfinite(q2[:, :, 1:]) == legal2[None])


def test_restart_values_are_best_of_q_and_restart():
    """Rules page, *Special powers* (``fours``): with the restart the position value is the
    better of the best action and the restart value."""
    t = odds.own_terminal(layout.counts_of((1, 2, 3)), PROBABILITY, 12, 1, POINTS, NO_POWER)
    r = odds.solve_rolling(t, 2, -1.0)[0]
    _, q1, q2, v1, v2 = odds.solve_rolling(t, 2, r)
    np.testing.assert_array_equal(v1, np.maximum(q1.max(axis=1), r))
    np.testing.assert_array_equal(v2, np.maximum(q2.max(axis=2), r))


@pytest.mark.parametrize("rerolls", [0, 1, 2])
def test_q_tables_match_solve_rolling(rerolls):
    """Rules page, *Dice and the rolling phase*: the bot tables are solve_rolling's action
    values (fixed cards: chance; number cards: expected count of the face)."""
    q1, q2 = odds.q_tables(rerolls)
    assert q1.shape == (56, 17, 56, 7) and q2.shape == (56, 17, 6, 21, 7)
    for common in COMMONS:
        ci = common_index(common)
        for card in DICE_CARDS:
            objective = EXPECTED_POINTS if card < 6 else PROBABILITY
            _, a1, a2, _, _ = kernel(common, objective, card, rerolls)
            scale = card + 1 if card < 6 else 1
            np.testing.assert_allclose(q1[ci, card], a1 / scale, **TOL)
            np.testing.assert_allclose(q2[ci, card], a2 / scale, **TOL)


def test_policy_rows():
    """Rules page, *Dice and the rolling phase*: one row per stage-1/2 position, the chosen
    action attains the value, and a lock names a face among the just-rolled dice."""
    res = kernel((1, 2, 3), PROBABILITY, card_id("large-straight"), 2)
    stage, locked, rolled, action, value = odds.policy_rows(*res[1:], -1.0)
    assert (stage == 1).sum() == 56 and (stage == 2).sum() == 126
    q_rows = np.concatenate([res[1], res[2].reshape(126, 7)])
    np.testing.assert_allclose(q_rows[np.arange(182), action], value, **TOL)
    np.testing.assert_array_equal(rolled[:56], OWN)
    np.testing.assert_array_equal(locked[56:, 0], np.repeat(np.arange(1, 7), 21))
    for i in np.flatnonzero(action > 0):
        assert action[i] in rolled[i]
    # holding 4, 5, 6 beside 1, 2, 3 is the straight: stop
    i = np.flatnonzero((stage == 1) & (rolled == [4, 5, 6]).all(axis=1))[0]
    assert action[i] == 0 and value[i] == 1.0
    # 6, 6, 6: lock a six and reroll
    i = np.flatnonzero((stage == 1) & (rolled == [6, 6, 6]).all(axis=1))[0]
    assert action[i] == 6


def test_policy_rows_restart():
    """Rules page, *Special powers* (``fours``): hopeless positions restart."""
    t = odds.own_terminal(layout.counts_of((1, 2, 3)), PROBABILITY, 12, 1, POINTS, NO_POWER)
    r = odds.solve_rolling(t, 2, -1.0)[0]
    stage, locked, rolled, action, value = odds.policy_rows(*odds.solve_rolling(t, 2, r)[1:], r)
    i = np.flatnonzero((stage == 2) & (locked[:, 0] == 1) & (rolled[:, :2] == [1, 1]).all(1))
    assert action[i[0]] == odds.RESTART and value[i[0]] == r


# --- Odds table --------------------------------------------------------------------------

def test_odds_table_shape_and_bounds():
    """Rules page, *Combination cards* and *Dice and the rolling phase*: chances in [0, 1],
    more rerolls never lower any entry, expected count = expected points / face, NaN
    where undefined, Higher or Lower from the common sum."""
    tables = [odds.odds_table(POINTS, r) for r in (0, 1, 2)]
    success, _ = hol_solve()
    sums = (MS_COUNTS[3] * np.arange(7)).sum(axis=1)
    for tab in tables:
        assert tab.shape == (56, 18, 3)
        assert np.all((tab[:, :, 0] >= 0) & (tab[:, :, 0] <= 1 + 1e-12))
        faces = np.arange(1, 7)
        np.testing.assert_allclose(tab[:, :6, 2], tab[:, :6, 1] / faces, **TOL)
        assert np.all(np.isnan(tab[:, 6:, 2]))
        np.testing.assert_allclose(tab[:, 6:17, 1], tab[:, 6:17, 0] * POINTS[6:17], **TOL)
        np.testing.assert_array_equal(tab[:, 17, 0], success[sums])
        np.testing.assert_allclose(tab[:, 17, 1], success[sums] * POINTS[17], **TOL)
    for lo, hi in pairwise(tables):
        assert np.all(hi[:, :, :2] >= lo[:, :, :2] - 1e-12)
    # made by the common dice alone: certain
    assert tables[0][common_index((6, 6, 6)), card_id("three-of-a-kind"), 0] == 1.0


def test_odds_table_matches_oracle():
    """Rules page, *Combination cards*: odds_table entries equal the oracle's start values."""
    tab = odds.odds_table(POINTS, 2)
    for common in COMMONS[:3]:
        ci = common_index(common)
        for card in (0, 5, 8, 10, 14, 16):
            p = oracle.rolling(common, PROBABILITY, card, 2).start()
            assert tab[ci, card, 0] == pytest.approx(float(p), rel=1e-12)
        e = oracle.rolling(common, EXPECTED_POINTS, 3, 2).start()
        assert tab[ci, 3, 2] == pytest.approx(float(e / 4), rel=1e-12)


# --- Higher or Lower ---------------------------------------------------------------------

def test_higher_or_lower_rules_page_values():
    """Rules page, *Higher or Lower*: from 9, 0.28161...; from 10 or 11, 0.23764..."""
    success, _ = hol_solve()
    assert success[9] == pytest.approx(0.28161, abs=1e-5)
    assert success[10] == pytest.approx(0.23764, abs=1e-5)
    assert success[11] == pytest.approx(0.23764, abs=1e-5)


def test_higher_or_lower_matches_oracle():
    """Rules page, *Higher or Lower*: success chance from every target and the calls at
    every stage equal the brute force's."""
    success, calls = hol_solve()
    for t in range(3, 19):
        assert success[t] == pytest.approx(float(oracle.higher_or_lower(t)), rel=1e-12)
        for stage in range(3):
            assert (calls[stage, t] == HIGHER) == bool(oracle.hol_call(stage, t))
    assert oracle.higher_or_lower(9) > Fraction(28161, 100000)
