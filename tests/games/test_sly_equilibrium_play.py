"""The ``equilibrium`` policy's claim game, built in the kernels, is the exact one-round
game of ``claim_game`` (rules: Rounds, claims and accusations): the same prior, claims,
truths, payoffs and equilibrium value at public states drawn as games reach them."""

import numpy as np
import pytest

from analyzer.games.sly_dice import PARAMS, claim_game
from analyzer.games.sly_dice.equilibrium import sample_states
from analyzer.games.sly_dice.model import get_model
from analyzer.params import defaults
from kernels.sly_dice import equilibrium_play as eq
from kernels.sly_dice import layout


@pytest.mark.parametrize("held", [(0, 0), (1, 2)])
def test_kernel_claim_game_is_claim_games(held):
    values = {**defaults(PARAMS), "players": 2}
    model = get_model(values)
    bluffs, falses = held
    for state in sample_states(values, 40, 5):
        game = claim_game.build_game(values, state["common"], state["locked"], state["cards"],
                                     bluffs_held=bluffs, falses_held=falses)
        common = layout.code_of(state["common"])
        locked = layout.code_of(state["locked"])
        n_locked = len(state["locked"])
        open_mask = sum(1 << c for c in state["cards"])
        prior = eq.rolling_prior(layout.CODE_INDEX[common], locked, n_locked, open_mask,
                                 model.weights, model.q1, model.q2, values["rerolls"],
                                 np.zeros(layout.DICE_CARDS, np.int64))
        np.testing.assert_allclose(prior, game.prior, atol=1e-12)
        cards, ks, worth, truth, accusable = eq.claims_of(
            common + locked, n_locked, open_mask, model.made, model.points, game.hol_ev)
        assert list(zip(cards, ks)) == game.claims
        np.testing.assert_allclose(worth, game.claim_points)
        assert (truth == game.truth).all() and (accusable == game.accusable).all()
        pay_a, pay_n = eq.payoffs(worth, truth, accusable, game.bluff_next, game.false_next)
        np.testing.assert_allclose(pay_a, game.pay_accused)
        np.testing.assert_allclose(pay_n, game.pay_not)
        ok, value, joint, accuse = eq.solve(prior, pay_a, pay_n, accusable)
        expected = claim_game.solve_game(game)
        assert ok and value == pytest.approx(expected.value, abs=1e-9)
        np.testing.assert_allclose(accuse, expected.accuse, atol=1e-9)


def test_claims_follow_the_equilibrium_mix():
    """A type's claim, drawn by its uniform, follows its row of the joint chances."""
    prior = np.array([0.5, 0.5, 0.0])
    joint = np.array([[0.1, 0.4], [0.5, 0.0], [0.0, 0.0]])
    accuse = np.array([0.0, 1.0])
    pay_a = np.array([[1.0, 0.0], [1.0, 0.0], [1.0, 0.0]])
    pay_n = np.array([[1.0, 5.0], [1.0, 5.0], [1.0, 5.0]])
    picks = [eq.claim_for(0, u, prior, joint, accuse, pay_a, pay_n)
             for u in np.linspace(0.0, 0.999, 1000)]
    assert np.mean(np.array(picks) == 0) == pytest.approx(0.2, abs=0.002)
    assert eq.claim_for(1, 0.9, prior, joint, accuse, pay_a, pay_n) == 0
    assert eq.claim_for(2, 0.3, prior, joint, accuse, pay_a, pay_n) == 0  # best reply


def test_the_equilibrium_policy_plays_whole_games_reproducibly():
    """``--policy equilibrium`` claims and accuses in whole games (it bluffs and it
    accuses), and one seed gives the same games on any thread count."""
    from analyzer.games.sly_dice.simulation import simulate

    values = {**defaults(PARAMS), "players": 2}
    one = simulate(values, ["equilibrium", "honest"], 1024, 3, threads=1, progress=False)
    two = simulate(values, ["equilibrium", "honest"], 1024, 3, threads=2, progress=False)
    assert one.headline == two.headline
    rows = one.tables["policies"].set_index("policy")
    assert rows.loc["equilibrium", "bluff_rate"] > 0
    assert rows.loc["equilibrium", "accusations_per_game"] > 0
    assert rows.loc["honest", "accusations_per_game"] == 0


@pytest.mark.slow  # about a minute: 20,480 two-player games against each named policy
@pytest.mark.parametrize("opponent", ["honest", "bluffer:10", "bluffer:20", "accuser:0.3",
                                      "sly:10:0.3", "sly:10:rational", "rational"])
def test_the_equilibrium_policy_does_not_lose_to_a_named_policy(opponent):
    """In two-player games (seats rotating, a held-out seed) the
    equilibrium policy's win rate is not below one half: its 95% interval reaches 50%."""
    from analyzer.games.sly_dice.simulation import simulate

    values = {**defaults(PARAMS), "players": 2}
    result = simulate(values, ["equilibrium", opponent], 20_480, 31415926, progress=False)
    mine = result.headline["policies"]["equilibrium"]
    assert mine["win_ci95"][1] >= 0.5, (opponent, mine["win_rate"])
