"""One test per rule of the CloverUp rules page (``docs/rules/cloverup.md``): the pure rule
functions of ``kernels.cloverup.rules`` and the turn transition structure built from them.
Each test names the section it checks."""

import numpy as np
import pytest

from kernels.cloverup import layout, rules, solve
from kernels.cloverup.layout import CLOVER, INSTANT_WIN, MULTISET_INDEX, TRIPLE_SIX
from tests import oracles

C = CLOVER
WEIGHTS = np.array([6, 5, 5, 3, 3, 1, 1], np.float64)  # rules page, *Dice*
PROBS = WEIGHTS / WEIGHTS.sum()
NUMBERS = range(1, 7)


def _m(*dice):
    a, b, c = sorted(dice)
    return int(MULTISET_INDEX[a - 1, b - 1, c - 1])


def _score(*dice):
    return rules.score_final_dice(*sorted(dice), 12, 5)


def _build(rerolls=2, clover_bonus=1, double_six_bonus=2, double_six_rule=True):
    rv = np.array([rerolls, clover_bonus, double_six_bonus,
                   rerolls + 2 * clover_bonus + double_six_bonus], np.int64)
    stop, end, start = rules.turn_tables(12, 5, double_six_rule)
    trans = solve.build_transitions(PROBS, rv, end, start, stop)
    return rv, stop, trans


def _choices(rv, trans, dice, rerolls, ds):
    """{reroll mask: {result: probability}} of a position; a result is ('pos', multiset,
    rerolls, ds) or ('end', outcome)."""
    act_ptr, act_mask, res_ptr, res_next, res_prob = trans[:5]
    rmax = rv[layout.RULE_MAX_REROLLS]
    s = solve.position_index(_m(*dice), rerolls, ds, rmax)
    out = {}
    for a in range(act_ptr[s], act_ptr[s + 1]):
        results = {}
        for i in range(res_ptr[a], res_ptr[a + 1]):
            n = res_next[i]
            if n >= 0:
                key = ("pos", n // (2 * (rmax + 1)), (n // 2) % (rmax + 1), n % 2)
            else:
                key = ("end", -1 - n)
            results[key] = results.get(key, 0.0) + res_prob[i]
        out[int(act_mask[a])] = results
    return out


def _pos(rerolls, ds, *dice):
    return ("pos", _m(*dice), rerolls, ds)


# --- Scoring the final dice ---------------------------------------------------------------

def test_scoring_no_clover_is_the_sum():
    """Scoring the final dice: no clover -> the sum of the three numbers."""
    for a in NUMBERS:
        for b in NUMBERS:
            for c in NUMBERS:
                if (a, b, c) != (6, 6, 6):
                    assert _score(a, b, c) == a + b + c


def test_scoring_one_clover():
    """Scoring the final dice: one clover -> 3 x the higher number if it is 5 or 6, else 12."""
    for a in NUMBERS:
        for b in NUMBERS:
            high = max(a, b)
            expected = 15 if high == 5 else 18 if high == 6 else 12
            assert _score(a, b, C) == expected, (a, b)
    assert _score(4, 4, C) == 12 and _score(1, 5, C) == 15 and _score(5, 6, C) == 18


def test_scoring_one_clover_parameters():
    """Scoring the final dice: the one-clover floor (12) and the 'from 5' threshold are the
    turn_tables parameters."""
    stop, _, _ = rules.turn_tables(10, 4, True)
    assert stop[_m(1, 3, C)] == 10
    assert stop[_m(1, 4, C)] == 12
    assert stop[_m(2, 5, C)] == 15


def test_scoring_two_clovers_is_18():
    """Scoring the final dice: two clovers -> 18."""
    for a in NUMBERS:
        assert _score(a, C, C) == 18


def test_scoring_three_clovers_is_an_instant_win():
    """Scoring the final dice / A turn step 3: three clovers -> instant win, ending the turn."""
    assert _score(C, C, C) == INSTANT_WIN
    assert rules.roll_ending(C, C, C) == INSTANT_WIN


def test_scoring_three_sixes_is_triple_six():
    """Scoring the final dice / A turn step 3: three natural sixes -> 18 plus the triple-six
    effect, ending the turn."""
    assert _score(6, 6, 6) == TRIPLE_SIX
    assert rules.roll_ending(6, 6, 6) == TRIPLE_SIX


def test_turn_tables_agree_with_independent_scoring():
    """Scoring the final dice: turn_tables' stop outcome equals the oracle's scoring for all
    84 multisets."""
    stop, _, _ = rules.turn_tables(12, 5, True)
    for m, dice in enumerate(layout.MULTISET_DICE):
        assert stop[m] == oracles.score_final(tuple(int(d) for d in dice)), dice


# --- A turn, step 3: the post-roll checks --------------------------------------------------

def test_two_sixes_and_a_clover_end_the_turn_with_18():
    """A turn step 3: two natural sixes and a clover end the turn with 18 points (also with
    the double-six rule off)."""
    assert rules.roll_ending(6, 6, C) == 18
    for rule_on in (True, False):
        _, end, start = rules.turn_tables(12, 5, rule_on)
        assert end[_m(6, 6, C)] == 18 and start[_m(6, 6, C)] == 0


def test_no_other_roll_ends_the_turn():
    """A turn step 3: only three clovers, three sixes and 6 6 C end the turn at once."""
    _, end, _ = rules.turn_tables(12, 5, True)
    enders = {_m(C, C, C): INSTANT_WIN, _m(6, 6, 6): TRIPLE_SIX, _m(6, 6, C): 18}
    for m in range(layout.N_MULTISETS):
        assert end[m] == enders.get(m, -1), layout.dice_label(m)


def test_two_sixes_and_a_number_start_the_double_six_rule():
    """A turn step 3 / The double-six rule: two natural sixes and a number (x 6 6, x < 6)
    start it; three sixes, 6 6 C and everything else do not."""
    for x in range(1, 6):
        assert rules.starts_double_six(x, 6, 6)
    assert not rules.starts_double_six(6, 6, 6)
    _, _, start = rules.turn_tables(12, 5, True)
    expected = {_m(x, 6, 6) for x in range(1, 6)}
    assert {m for m in range(layout.N_MULTISETS) if start[m]} == expected


def test_double_six_rule_off():
    """The double-six rule (parameter): with the rule off nothing starts it."""
    _, _, start = rules.turn_tables(12, 5, False)
    assert not start.any()


# --- A turn, steps 2 and 4: what may be rerolled -------------------------------------------

def test_clovers_are_never_rerollable():
    """A turn step 2: a clover is locked for the rest of the turn."""
    for dice in layout.MULTISET_DICE:
        mask = rules.rerollable_positions(*dice, 0)
        for i in range(3):
            assert bool(mask >> i & 1) == (dice[i] != C), dice


def test_only_the_third_die_in_double_six_mode():
    """The double-six rule: the two sixes are locked; only the third die (sorted position 0)
    may be rerolled."""
    for x in range(1, 6):
        assert rules.rerollable_positions(x, 6, 6, 1) == 1


def test_transitions_double_six_state_rerolls_only_position_0():
    """The double-six rule: from 6 6 3 in the double-six state the only choice rerolls the 3;
    a 6 gives the triple six, a clover ends with 18, a number stays in the double-six state
    with one reroll fewer and no new bonus."""
    rv, _, trans = _build()
    ch = _choices(rv, trans, (6, 6, 3), 3, 1)
    assert list(ch) == [1]
    expected = {("end", TRIPLE_SIX): PROBS[5], ("end", 18): PROBS[6]}
    for x in range(1, 6):
        expected[_pos(2, 1, x, 6, 6)] = PROBS[x - 1]
    assert ch[1].keys() == expected.keys()
    for k, p in expected.items():
        assert ch[1][k] == pytest.approx(p, abs=1e-15)


def test_transitions_clover_positions_cannot_be_rerolled():
    """A turn steps 2 and 4: with 1 2 C the choices are the non-empty subsets of {1, 2}."""
    rv, _, trans = _build()
    assert sorted(_choices(rv, trans, (1, 2, C), 2, 0)) == [1, 2, 3]
    assert sorted(_choices(rv, trans, (3, C, C), 2, 0)) == [1]


def test_transitions_all_nonempty_subsets_of_numbers():
    """A turn step 4: any non-empty subset of the number dice may be rerolled (one mask per
    distinct kept multiset)."""
    rv, _, trans = _build()
    assert sorted(_choices(rv, trans, (1, 3, 5), 1, 0)) == [1, 2, 3, 4, 5, 6, 7]
    assert sorted(_choices(rv, trans, (2, 2, 2), 1, 0)) == [1, 3, 7]


def test_transitions_new_clover_gives_an_extra_reroll():
    """A turn step 2: a die that comes up clover gives one extra reroll; otherwise the last
    reroll ends the turn (step 4) with the final dice scored."""
    rv, stop, trans = _build()
    res = _choices(rv, trans, (1, 2, C), 1, 0)[1]  # reroll the 1 with the last reroll
    assert res[_pos(1, 0, 2, C, C)] == pytest.approx(PROBS[6], abs=1e-15)
    for y in range(1, 7):
        assert ("end", int(stop[_m(y, 2, C)])) in res
    assert not any(k[0] == "pos" and k[2] == 0 for k in res)


def test_transitions_double_six_start_adds_two_bonus_rerolls():
    """The double-six rule: it starts the first time two sixes show with a number; the 2
    bonus rerolls are added to the rerolls left (here 0 left after paying -> 2)."""
    rv, _, trans = _build()
    res = _choices(rv, trans, (2, 4, 6), 1, 0)[2]  # reroll the 4 with the last reroll
    assert res[_pos(2, 1, 2, 6, 6)] == pytest.approx(PROBS[5], abs=1e-15)
    rv_off, stop_off, trans_off = _build(double_six_rule=False)
    res = _choices(rv_off, trans_off, (2, 4, 6), 1, 0)[2]
    assert res[("end", 14)] == pytest.approx(PROBS[5], abs=1e-15)


def test_transitions_double_six_rule_off_allows_any_subset():
    """The double-six rule (parameter off): 3 6 6 is an ordinary position."""
    rv, _, trans = _build(double_six_rule=False)
    assert sorted(_choices(rv, trans, (3, 6, 6), 2, 0)) == [1, 2, 3, 6, 7]


def test_transitions_first_roll():
    """A turn step 1: all three dice are rolled with 2 rerolls; two clovers on it give 2
    extra rerolls; three clovers win at once."""
    rv, _, trans = _build()
    start_next, start_prob = trans[6], trans[7]
    assert start_prob.sum() == pytest.approx(1.0, abs=1e-14)
    rmax = rv[layout.RULE_MAX_REROLLS]
    got = dict(zip(start_next.tolist(), start_prob.tolist()))
    assert got[-1 - INSTANT_WIN] == pytest.approx(PROBS[6] ** 3, abs=1e-16)
    s = solve.position_index(_m(1, C, C), 4, 0, rmax)
    assert got[s] == pytest.approx(3 * PROBS[0] * PROBS[6] ** 2, abs=1e-16)
    s = solve.position_index(_m(1, 2, 3), 2, 0, rmax)
    assert got[s] == pytest.approx(6 * PROBS[0] * PROBS[1] * PROBS[2], abs=1e-16)
    s = solve.position_index(_m(1, 6, 6), 4, 1, rmax)  # 2 standard + 2 bonus
    assert got[s] == pytest.approx(3 * PROBS[0] * PROBS[5] ** 2, abs=1e-16)


def test_transitions_probabilities_sum_to_one():
    """Dice: every reroll choice's results are a probability distribution."""
    for variant in (dict(), dict(double_six_rule=False), dict(rerolls=0, clover_bonus=2)):
        _, _, trans = _build(**variant)
        res_ptr, res_prob = trans[2], trans[4]
        sums = np.add.reduceat(res_prob, res_ptr[:-1])
        np.testing.assert_allclose(sums, 1.0, atol=1e-14)
