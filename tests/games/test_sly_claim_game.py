"""The exact one-round claim/accuse game of Sly Dice (analyzer.games.sly_dice.claim_game):
checked against brute force over pure strategies, its own duals, reasoned cases and the
rolling rule of the game kernels."""

import itertools

import numpy as np
import pytest
from scipy.optimize import linprog

from analyzer.errors import UserError
from analyzer.games.sly_dice import claim_game as cg
from analyzer.games.sly_dice.model import get_model
from analyzer.games.sly_dice.params import PARAMS
from analyzer.params import defaults
from kernels.sly_dice import layout
from kernels.sly_dice.claim_lp import OPTIMAL, solve_claim_lp
from kernels.sly_dice.combos import holds
from kernels.sly_dice.posterior import claim_distribution

HOL = layout.HIGHER_OR_LOWER
ALL_CARDS = list(range(layout.N_CARDS))
NAMED = ["equilibrium", "honest", "bluffer:10", "bluffer:25", "accuser:0.3",
         "accuser:0.7", "sly:15:0.5", "sly:15:rational", "rational"]


@pytest.fixture(scope="module")
def values():
    return defaults(PARAMS)


# small states with one hidden die: (common, locked, cards, prior, bluffs_held, falses_held)
SMALL = [
    ([1, 2, 3], [1, 4], [0, 9], "uniform", 0, 0),
    ([2, 6, 6], [3, 6], [5, 6, HOL], "rolling", 0, 0),
    ([1, 3, 5], [2, 4], [1, 12, 15], "uniform", 1, 2),
    ([4, 5, 5], [5, 6], [4, 14, 16], "rolling", 2, 0),
]


def _independent_payoffs(values, common, locked, claims, bluffs_held, falses_held):
    """(truth bool[6, C], accused float[6, C], not accused float[6, C]) for the 6 hidden
    faces, from the rules as stated (combos.holds), not from the solver."""
    model = get_model(values)
    bluff_next = values["bluff_bonus"] + values["bluff_bonus_step"] * bluffs_held
    false_next = values["false_accusation_penalty"] + values["false_accusation_step"] \
        * falses_held
    truth = np.zeros((6, len(claims)), bool)
    worth = np.zeros(len(claims))
    for j, (card, k) in enumerate(claims):
        worth[j] = ((card + 1) * k if card < 6 else
                    model.hol_success[sum(common)] * model.points[HOL] if card == HOL
                    else model.points[card])
        for t in range(6):
            truth[t, j] = card == HOL or holds(layout.counts_of(common + locked + [t + 1]),
                                               card, k)
    accusable = np.array([c != HOL for c, _ in claims]) & ~truth.all(axis=0)
    pay_not = worth + np.where(truth, 0.0, bluff_next)
    pay_acc = np.where(accusable, np.where(truth, worth + false_next, 0.0), pay_not)
    return truth, pay_acc, pay_not, accusable


def _pure_matrix(prior, pay_acc, pay_not, accusable):
    """Payoff matrix [claimant pure strategies, accuser pure strategies] (a claim per
    type; an accuse/not choice per accusable claim)."""
    n_types, n_claims = pay_acc.shape
    plans = np.array(list(itertools.product(range(n_claims), repeat=n_types)))
    acc_ids = np.flatnonzero(accusable)
    accusing = np.zeros((2 ** len(acc_ids), n_claims), bool)
    for a, bits in enumerate(itertools.product([False, True], repeat=len(acc_ids))):
        accusing[a, acc_ids] = bits
    matrix = np.zeros((len(plans), len(accusing)))
    for t in range(n_types):
        chosen = plans[:, t]
        pay = np.where(accusing[:, chosen], pay_acc[t, chosen], pay_not[t, chosen])
        matrix += prior[t] * pay.T
    return plans, accusing, matrix


def _matrix_game_value(matrix):
    """Value of the zero-sum matrix game (row player maximises), by a plain LP."""
    n_rows, n_cols = matrix.shape
    cost = np.zeros(n_rows + 1)
    cost[-1] = -1.0
    a_ub = np.hstack([-matrix.T, np.ones((n_cols, 1))])
    a_eq = np.zeros((1, n_rows + 1))
    a_eq[0, :n_rows] = 1.0
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(n_cols), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, None)] * n_rows + [(None, None)], method="highs")
    assert res.status == 0
    return -res.fun


@pytest.mark.parametrize("state", SMALL)
def test_value_matches_brute_force_over_pure_strategies(values, state):
    common, locked, cards, prior, bluffs, falses = state
    game = cg.solve_state(values, common, locked, cards, prior, bluffs, falses)
    truth, pay_acc, pay_not, accusable = _independent_payoffs(values, common, locked,
                                                              game.claims, bluffs, falses)
    np.testing.assert_array_equal(game.truth, truth)
    np.testing.assert_allclose(game.game.pay_accused, pay_acc)
    np.testing.assert_allclose(game.game.pay_not, pay_not)
    plans, accusing, matrix = _pure_matrix(game.prior, pay_acc, pay_not, accusable)
    assert _matrix_game_value(matrix) == pytest.approx(game.value, abs=1e-7)
    # each equilibrium strategy is a best response to the other, over all pure strategies
    x = game.prior[:, None] * game.bluff
    per_accuser = [np.where(a, x * pay_acc, x * pay_not).sum() for a in accusing]
    assert min(per_accuser) == pytest.approx(game.value, abs=1e-7)
    q = game.accuse
    per_type = q * pay_acc + (1 - q) * pay_not  # [type, claim]
    per_plan = (game.prior * per_type[np.arange(len(game.types)), plans]).sum(axis=1)
    assert per_plan.max() == pytest.approx(game.value, abs=1e-7)


def _accuser_side_value(prior, pay_acc, pay_not, accusable):
    """The game's value from the accuser's side, by HiGHS: min over accusing chances a
    (0 for claims not accusable) of sum_t prior[t] max_c (a_c A[t, c] + (1 - a_c) N[t, c])
    (the minimax dual of the claimant's LP the solver under test uses)."""
    n_types, n_claims = pay_acc.shape
    cost = np.concatenate([np.zeros(n_claims), prior])  # variables a (C), u (T)
    a_ub = np.zeros((n_types * n_claims, n_claims + n_types))
    b_ub = np.zeros(n_types * n_claims)
    for t in range(n_types):
        for c in range(n_claims):
            row = t * n_claims + c  # a_c (A - N)[t, c] - u_t <= -N[t, c]
            a_ub[row, c] = pay_acc[t, c] - pay_not[t, c]
            a_ub[row, n_claims + t] = -1.0
            b_ub[row] = -pay_not[t, c]
    bounds = [(0.0, 1.0 if accusable[c] else 0.0) for c in range(n_claims)] \
        + [(None, None)] * n_types
    res = linprog(cost, A_ub=a_ub, b_ub=b_ub, bounds=bounds, method="highs")
    assert res.status == 0
    # the most suspicious equilibrium accuser: the largest sum of accusing chances that
    # still holds the claimant to the value
    most = linprog(-np.concatenate([np.ones(n_claims), np.zeros(n_types)]),
                   A_ub=np.vstack([a_ub, cost]), b_ub=np.append(b_ub, res.fun + 1e-9),
                   bounds=bounds, method="highs")
    assert most.status == 0
    return res.fun, -most.fun


def _random_game(rng):
    """(prior, pay_acc, pay_not, accusable) of a random claim game: some with integer
    points (ties and degenerate programs), some with a claim nobody may accuse."""
    n_types, n_claims = rng.integers(1, 40), rng.integers(1, 20)
    prior = rng.dirichlet(np.ones(n_types))
    whole = rng.random() < 0.5
    pay_not = rng.integers(0, 12, (n_types, n_claims)) * 1.0 if whole else \
        rng.random((n_types, n_claims)) * 50
    pay_acc = np.where(rng.random((n_types, n_claims)) < 0.5, 0.0,
                       pay_not + rng.integers(0, 5, (n_types, n_claims)))
    accusable = rng.random(n_claims) < 0.85
    pay_acc[:, ~accusable] = pay_not[:, ~accusable]
    return prior, pay_acc, pay_not, accusable


def test_simplex_solves_random_games_as_highs_does():
    """kernels.sly_dice.claim_lp against HiGHS on the accuser's side of the minimax, on
    400 random games: the same value, a feasible claimant strategy that secures it and
    accusing chances that hold the claimant to it, the most suspicious such."""
    rng = np.random.default_rng(7)
    for _ in range(400):
        prior, pay_acc, pay_not, accusable = _random_game(rng)
        joint = np.zeros(pay_acc.shape)
        accuse = np.zeros(pay_acc.shape[1])
        status, value = solve_claim_lp(pay_acc, pay_not, prior, accusable, joint, accuse)
        assert status == OPTIMAL
        expected, most_suspicious = _accuser_side_value(prior, pay_acc, pay_not, accusable)
        assert value == pytest.approx(expected, abs=1e-7)
        assert accuse.sum() == pytest.approx(most_suspicious, abs=1e-3)
        assert (joint >= 0).all()
        np.testing.assert_allclose(joint.sum(axis=1), prior, atol=1e-9)
        secured = np.where(accusable, np.minimum((joint * pay_acc).sum(axis=0),
                                                 (joint * pay_not).sum(axis=0)),
                           (joint * pay_not).sum(axis=0)).sum()
        assert secured == pytest.approx(value, abs=1e-7)
        assert ((accuse >= 0) & (accuse <= 1)).all() and (accuse[~accusable] == 0).all()
        held = prior @ (accuse * pay_acc + (1 - accuse) * pay_not).max(axis=1)
        assert held == pytest.approx(value, abs=1e-7)


def test_simplex_solves_the_games_a_report_meets_as_highs_does(values):
    """The same on the claim games of sampled public states with the rolling prior (every
    locked set an aiming claimant can end with), the fair-values' workload."""
    from analyzer.games.sly_dice.fair_values import stratified_states

    states, _ = stratified_states(values, 8, 3)
    checked = 0
    for state in states:
        for locked in cg.rolling_ends(values, state["common"], (1 << 17) - 1):
            game = cg.build_game(values, state["common"], list(locked), state["cards"])
            value, joint, accuse = cg.equilibrium_lp(game)
            has = game.prior > 0
            expected, most_suspicious = _accuser_side_value(
                game.prior[has], game.pay_accused[has], game.pay_not[has], game.accusable)
            assert value == pytest.approx(expected, abs=1e-7)
            assert accuse.sum() == pytest.approx(most_suspicious, abs=1e-3)
            assert cg.claimant_best_response(game, accuse) == pytest.approx(value, abs=1e-7)
            checked += 1
    assert checked > 50


def test_number_claims_stop_one_above_the_largest_possible_count(values):
    game = cg.solve_state(values, [1, 2, 3], [1, 4], [0, 9], "uniform")
    assert game.claims == [(0, 1), (0, 2), (0, 3), (0, 4), (9, 1)]
    assert game.claim_names == ["ones x1", "ones x2", "ones x3", "ones x4", "full-house"]
    # ones x1 and x2 are proven by the visible dice: never accused
    np.testing.assert_array_equal(game.game.accusable, [False, False, True, True, True])
    assert game.accuse[0] == game.accuse[1] == 0.0


@pytest.mark.parametrize("state", [
    ([2, 3, 5], [], ALL_CARDS, "rolling", 0, 0),
    ([1, 1, 6], [6], [2, 5, 9, 12, 13, HOL], "rolling", 1, 1),
    ([3, 3, 4], [3, 4], [2, 3, 6, 7, 10, 16, HOL], "uniform", 0, 3),
] + SMALL)
def test_duals_and_strategies_are_mutual_best_responses(values, state):
    game = cg.solve_state(values, *state)
    assert cg.claimant_best_response(game, game.accuse) == pytest.approx(game.value,
                                                                         abs=1e-7)
    assert cg.accuser_best_response(game, game.bluff) == pytest.approx(game.value,
                                                                       abs=1e-7)
    assert np.all((game.accuse >= 0) & (game.accuse <= 1))
    assert np.all(game.accuse[~game.game.accusable] == 0)
    np.testing.assert_allclose(game.bluff.sum(axis=1), 1.0)
    assert game.p_claim.sum() == pytest.approx(1.0)
    assert game.value >= game.honest_value - 1e-9
    table = cg.exploitability_table(game, NAMED).set_index("policy")
    assert (table[["as_claimant", "as_accuser"]].to_numpy() >= -1e-9).all()
    assert table.loc["equilibrium"].abs().max() < 1e-7
    assert table.loc["honest", "as_claimant"] == pytest.approx(game.value
                                                               - game.honest_value)


def test_all_cards_open_three_hidden_dice_is_fast_and_bluffs(values):
    game = cg.solve_state(values, [2, 3, 5], [], ALL_CARDS)
    assert len(game.types) == 56 and not game.prior_fallback
    assert game.value > game.honest_value  # bluffing pays against a best-responding accuser
    assert 0 < game.bluff_rate < 1
    made = game.p_claim > 1e-9
    rate = game.p_claim @ np.where(made, 1 - game.p_true_given_claim, 0)
    assert rate == pytest.approx(game.bluff_rate)


def test_claims_proven_by_the_visible_dice(values):
    # five sixes visible: three/four/five-of-a-kind all hold whatever the hidden die is
    game = cg.solve_state(values, [6, 6, 6], [6, 6], [6, 7, 8], "uniform")
    points = get_model(values).points
    assert not game.game.accusable.any()
    assert game.value == pytest.approx(points[8])
    assert game.bluff_rate == 0 and game.honest_value == pytest.approx(game.value)
    np.testing.assert_array_equal(game.accuse, 0.0)
    table = cg.exploitability_table(game, ["honest", "bluffer:100", "accuser:1"])
    assert np.abs(table[["as_claimant", "as_accuser"]].to_numpy()).max() < 1e-9


def test_without_bonus_cards_honesty_is_optimal(values):
    # no Successful Bluffing or False Accusation cards: a bluff never beats the truth
    free = dict(values, bluff_bonus=0, bluff_bonus_step=0, false_accusation_penalty=0,
                false_accusation_step=0)
    common, locked, cards = [1, 4, 4], [2, 4], [0, 3, 9, HOL]
    game = cg.solve_state(free, common, locked, cards, "uniform")
    model = get_model(free)
    hol = model.hol_success[9] * model.points[HOL]
    best = []
    for h in range(1, 7):
        counts = layout.counts_of(common + locked + [h])
        best.append(max(counts[1], 4 * counts[4], hol,
                        model.points[9] if holds(counts, 9, 1) else 0))
    assert game.value == pytest.approx(np.mean(best))
    assert game.honest_value == pytest.approx(game.value)


def test_rolling_prior_matches_the_kernel_claim_distribution(values):
    # the honest claimant under the rolling prior claims as posterior.claim_distribution says
    model = get_model(values)
    common, cards = [1, 3, 6], [0, 2, 5, 6, 9, 11, 14, HOL]
    mask = sum(1 << c for c in cards)
    hol_ev = model.hol_success[10] * model.points[HOL]
    dist = claim_distribution(layout.code_of(common), layout.CODE_INDEX[layout.code_of(common)],
                              model.weights, model.q1, model.q2, values["rerolls"], mask,
                              hol_ev, model.points, -1.0, model.plausibility, model.made,
                              float(values["bluff_bonus"]))
    locked_total = 0.0
    for n_locked in range(3):
        for row in layout.MS_COUNTS[n_locked]:
            locked = [f for f in range(1, 7) for _ in range(row[f])]
            mass = cg.rolling_mass(values, common, locked, mask)
            locked_total += mass.sum()
            kernel = dist[n_locked, layout.CODE_INDEX[layout.code_of(locked)]].sum(axis=-1)
            assert mass.sum() == pytest.approx(kernel.sum(), abs=1e-12)
            if mass.sum() < 0.01:
                continue
            game = cg.build_game(values, common, locked, cards, "rolling")
            claimed = game.prior @ cg.claimant_strategy(game, -1.0)
            expected = np.array([kernel[c, k] for c, k in game.claims]) / kernel.sum()
            np.testing.assert_allclose(claimed, expected, atol=1e-12)
    assert locked_total == pytest.approx(1.0)


def test_prior_falls_back_to_fair_dice(values):
    no_rerolls = dict(values, rerolls=0)
    game = cg.solve_state(no_rerolls, [2, 2, 5], [5], [4, 9, HOL])
    assert game.prior_fallback
    np.testing.assert_allclose(game.prior, layout.MS_PROB[2])
    assert not cg.solve_state(no_rerolls, [2, 2, 5], [], [4, 9, HOL]).prior_fallback


def test_named_policies_at_a_state(values):
    game = cg.solve_state(values, [1, 2, 2], [2], [1, 4, 9, 13, HOL])
    honest, never = cg.policy_strategies(game, "honest")
    assert not never.any()
    np.testing.assert_array_equal(honest.sum(axis=1), 1.0)
    assert game.truth[honest == 1].all()  # Higher or Lower is open: never a forced bluff
    bluffer, _ = cg.policy_strategies(game, "bluffer:100")
    assert not game.truth[bluffer == 1].all()  # bluffing below 100 points: false claims
    _, threshold = cg.policy_strategies(game, "accuser:0.5")
    expected = game.game.accusable & (game.game.plausibility < 0.5)
    np.testing.assert_array_equal(threshold, expected.astype(float))
    with pytest.raises(UserError):
        cg.policy_strategies(game, "nonsense")


@pytest.mark.parametrize("args, match", [
    (([1, 2], [], [0]), "common"),
    (([1, 2, 7], [], [0]), "face"),
    (([1, 2, 3], [1, 2, 3], [0]), "locked"),
    (([1, 2, 3], [0], [0]), "face"),
    (([1, 2, 3], [], []), "cards"),
    (([1, 2, 3], [], [18]), "card id"),
])
def test_bad_inputs_are_user_errors(values, args, match):
    with pytest.raises(UserError, match=match):
        cg.solve_state(values, *args)


def test_bad_prior_and_counts_are_user_errors(values):
    with pytest.raises(UserError, match="prior"):
        cg.solve_state(values, [1, 2, 3], [], [0], prior="fair")
    with pytest.raises(UserError, match="bluffs_held"):
        cg.solve_state(values, [1, 2, 3], [], [0], bluffs_held=-1)


# ---------------------------------------------------------------- the command

def test_equilibrium_command_solves_a_state_and_an_overview(tmp_path):
    """`sly-dice equilibrium --common ...` solves one public state (value at least the
    honest value, accusation probabilities in [0, 1]); without --common it averages the
    equilibrium over sampled states, the same for the same seed."""
    import json

    from click.testing import CliRunner

    from analyzer.cli import cli

    runner = CliRunner()
    res = runner.invoke(cli, ["sly-dice", "equilibrium", "--common", "2,3,5", "--open",
                              "full-house,small-straight,sixteen-or-lower,higher-or-lower",
                              "--format", "json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["value"] >= out["honest_value"] - 1e-9
    assert all(0 <= row["accuse_probability"] <= 1 for row in out["tables"]["claims"])
    runs = [runner.invoke(cli, ["sly-dice", "equilibrium", "--states", "12", "--seed", "5",
                                "--format", "json"]) for _ in range(2)]
    assert runs[0].exit_code == 0, runs[0].output
    first, second = (json.loads(r.output) for r in runs)
    assert first["tables"] == second["tables"]
    policies = [row["policy"] for row in first["tables"]["exploitability"]]
    assert {"honest", "rational", "accuser:0.3", "sly:10:0.3"} <= set(policies)


@pytest.mark.parametrize("args,message", [
    (["--common", "2,3"], "bad common dice"),
    (["--common", "2,3,5", "--locked", "1,2,3"], "bad locked dice"),
    (["--common", "2,3,5", "--open", "fullhouse"], "unknown card"),
    (["--states", "1"], "--states"),
])
def test_equilibrium_command_refuses_bad_input(args, message):
    from click.testing import CliRunner

    from analyzer.cli import cli

    res = CliRunner().invoke(cli, ["sly-dice", "equilibrium", *args])
    assert res.exit_code == 2 and message in res.output, res.output
