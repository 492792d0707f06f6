"""``dicelab sly-dice tune``: fair points for the fixed cards under the claim/accuse
equilibrium (rules page ``docs/rules/sly-dice.md``, Combination cards)."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli import cli
from analyzer.games.sly_dice import fair_values
from analyzer.games.sly_dice.params import PARAMS
from analyzer.params import defaults

VALUES = defaults(PARAMS)
STATES = 56  # one state per common-dice multiset: quick, and the same states every time
SIDE_GAMES = ["--policy", "honest", "--games", "512", "--quiet"]  # quick side effects


def tune_json(*args):
    out = CliRunner().invoke(cli, ["sly-dice", "tune", *args, "--states", str(STATES),
                                   *SIDE_GAMES, "--format", "json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


def test_fair_points_give_the_free_cards_the_level_when_re_solved():
    """The answer's points, re-solved from scratch at the same states, give every free card
    the worth reported, within the precision of the level; the cards left alone keep
    their points."""
    answer = tune_json("--target", "equal-expected-points=8", "--free",
                       "full-house,points_small_straight", "--precision", "1",
                       "--bounds", "points_small_straight=1:100")
    assert answer["met"] and answer["level"] == 8
    found = answer["values"]
    assert set(found) == {"points_full_house", "points_small_straight"}
    table = fair_values.worth_table({**VALUES, **found}, STATES, answer["meta"]["seed"])
    worth = table.set_index("card").worth
    for row in answer["tables"]["cards"]:
        assert worth[row["card"]] == pytest.approx(row["worth_fair"], abs=1e-9)
        assert abs(worth[row["card"]] - 8) <= 1
    assert answer["meta"]["rules"]["points_odds"] == VALUES["points_odds"]


def test_a_single_free_card_is_tuned_to_the_other_cards_level():
    """Without a level, the level is the median worth of every fixed card at the points in
    force, so one free card is moved to it (not kept at its own worth); a met card's
    answer is its points to the nearest point, with a range inside its bounds."""
    answer = tune_json("--target", "equal-expected-points", "--free", "full-house",
                       "--precision", "1")
    in_force = fair_values.worth_table(VALUES, STATES, answer["meta"]["seed"])
    assert answer["level"] == pytest.approx(float(np.median(in_force.worth)))
    row, = answer["tables"]["cards"]
    assert abs(row["worth_in_force"] - answer["level"]) > 1  # a real question
    assert row["met"] and abs(row["worth_fair"] - answer["level"]) <= 1
    assert row["answer"] == f"{row['fair_points']:.0f}"
    assert 1 <= row["fair_points_ci95_low"] <= row["fair_points"] \
        <= row["fair_points_ci95_high"] <= 200


def test_a_card_out_of_reach_has_no_fair_value():
    """A card whose worth cannot reach the level within its bounds: 'no fair value within'
    them, not met, and no range."""
    answer = tune_json("--target", "equal-expected-points=8", "--free", "full-house",
                       "--bounds", "full-house=1:2")
    row, = answer["tables"]["cards"]
    assert not answer["met"] and not row["met"]
    assert row["answer"] == "no fair value within 1-2"
    assert row["fair_points_ci95_low"] is None and row["fair_points_ci95_high"] is None


def test_a_card_is_worth_more_with_more_points():
    """The worth of aiming for a card grows with its points (the accuser accuses more, but
    a true claim still scores), at every state of eight where the full house is open."""
    from kernels.sly_dice import layout

    card = layout.card_id("full-house")
    states = [s for s in fair_values.sample_states(VALUES, 40, 3) if card in s["cards"]][:8]
    low = {**VALUES, "points_full_house": 10.0}
    high = {**VALUES, "points_full_house": 40.0}
    for state in states:
        worth_low = fair_values.aimed_worths(low, state)[card]
        assert fair_values.aimed_worths(high, state)[card] > worth_low > 0
    assert len(states) == 8


def test_worths_weight_each_common_multiset_by_its_chance():
    """The weighted mean of a column that is 1 wherever the card is open is 1, and the
    weights of the stratified states add up to 1."""
    states, weights = fair_values.stratified_states(VALUES, STATES, 1)
    assert len(states) == STATES and weights.sum() == pytest.approx(1.0)
    worth = np.where(np.random.default_rng(0).random((STATES, 18)) < 0.5, 1.0, np.nan)
    worth[0] = 1.0
    mean, se = fair_values.mean_worths(worth, weights)
    assert np.allclose(mean, 1.0) and np.allclose(se, 0.0)


def test_side_effects_are_the_other_figures_against_the_points_in_force():
    """The side effects of a fair full house: the claim/accuse equilibrium's figures over
    the tune's states (a claim's value re-solved state by state), and the paired
    what-if's game figures of the found points against the points in force, the same
    games and seed; every difference is found minus baseline, inside its interval."""
    from analyzer.games.sly_dice import claim_game, simulation

    answer = tune_json("--target", "equal-expected-points=8", "--free", "full-house",
                       "--precision", "1", "--seed", "9")
    table = {row["name"]: row for row in answer["tables"]["side_effects"]}
    assert {"claim_value", "bluff_rate", "accusation_rate", "mean_score",
            "win_rate_seat_1", "win_rate_seat_2"} <= set(table)
    for row in table.values():
        assert row["difference"] == pytest.approx(row["found"] - row["baseline"], abs=1e-12)
        assert row["difference_ci95_low"] <= row["difference"] <= row["difference_ci95_high"]
    found = {**VALUES, **answer["values"]}
    states, weights = fair_values.stratified_states(found, STATES, 9)
    claim = [claim_game.solve_state(found, s["common"], s["locked"], s["cards"]).value
             for s in states]
    assert table["claim_value"]["found"] == pytest.approx(float(np.dot(claim, weights)))
    paired = simulation.whatif([("baseline", VALUES, ["honest"]), ("found", found, ["honest"])],
                               512, 9, progress=False)
    rows = paired.tables["variants"].set_index(["variant", "metric"])
    for name in ("mean_score", "win_rate_seat_1"):
        assert table[name]["baseline"] == pytest.approx(rows.loc[("baseline", name), "value"])
        assert table[name]["found"] == pytest.approx(rows.loc[("found", name), "value"])
    assert answer["meta"]["side_effect_games"] == 512


@pytest.mark.parametrize("args,needle", [
    (["--target", "equal-points", "--free", "odds"], "bad target"),
    (["--free", "odds"], "bad target"),
    (["--target", "equal-expected-points=x", "--free", "odds"], "LEVEL must be a number"),
    (["--target", "equal-expected-points", "--free", "clover"], "unknown free parameter"),
    (["--target", "equal-expected-points", "--free", "odds", "--bounds", "odds=9:2"],
     "impossible bounds"),
    (["--target", "equal-expected-points", "--free", "odds", "--bounds", "evens=1:9"],
     "which is not free"),
    (["--target", "equal-expected-points", "--free", "odds", "--states", "0"],
     "bad state count"),
    (["--target", "equal-expected-points", "--free", "odds", "--policy", "liar"],
     "unknown policy"),
    (["--target", "equal-expected-points", "--free", "odds", "--games", "0"],
     "bad game count 0"),
])
def test_bad_tune_input_is_one_line_exit_2(args, needle):
    result = CliRunner().invoke(cli, ["sly-dice", "tune", *args])
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], result.stderr


def test_a_card_the_visible_dice_prove_is_worth_its_points():
    """Claiming: a claim the visible dice prove cannot be accused, so it always scores;
    Higher or Lower needs no dice and is worth its success chance times its points
    (rules page, Higher or Lower)."""
    from kernels.sly_dice import hol, layout

    three = layout.card_id("three-of-a-kind")
    state = {"common": [4, 4, 4], "locked": [], "cards": [three, layout.HIGHER_OR_LOWER]}
    worth = fair_values.aimed_worths(VALUES, state)
    assert worth[three] == pytest.approx(VALUES["points_three_of_a_kind"])
    hol_points = VALUES["points_higher_or_lower"]
    assert worth[layout.HIGHER_OR_LOWER] == pytest.approx(hol.hol_solve()[0][12] * hol_points)
    assert np.isnan(worth[layout.card_id("odds")])  # not open


def test_the_exact_ends_of_aimed_rolling_match_sampled_rolls():
    """Rolling (rules page, the rolling phase): the exact chance of every locked set and
    hidden roll a player aiming for one card ends with (``claim_game.rolling_ends``) is
    what ``play.roll_own`` draws, within 5 standard errors, for 40,000 rolls aiming for
    a full house over the common dice 2 3 5; the chances add up to 1."""
    from analyzer.games.sly_dice import claim_game
    from analyzer.games.sly_dice.model import get_model
    from kernels.rng import turn_stream
    from kernels.sly_dice import layout, play

    common, card, n = [2, 3, 5], layout.card_id("full-house"), 40_000
    ends = claim_game.rolling_ends(VALUES, common, 1 << card)
    assert sum(m.sum() for m in ends.values()) == pytest.approx(1.0)
    model, work = get_model(VALUES), np.zeros(layout.DICE_CARDS, np.int64)
    c_idx = layout.CODE_INDEX[layout.code_of(common)]
    counts: dict[tuple, int] = {}
    for i in range(n):
        own, locked, _ = play.roll_own(np.uint64(turn_stream(np.uint64(7), i, 0)), c_idx,
                                       1 << card, model.weights, model.q1, model.q2,
                                       VALUES["rerolls"], work)
        key = (int(own), int(locked))
        counts[key] = counts.get(key, 0) + 1
    exact = {}
    for locked, mass in ends.items():
        lock_code = layout.code_of(list(locked))
        for t, hidden in enumerate(layout.MS_CODE[3 - len(locked)]):
            exact[(int(lock_code + hidden), int(lock_code))] = float(mass[t])
    for key, p in exact.items():
        seen = counts.get(key, 0) / n
        assert abs(seen - p) <= 5 * np.sqrt(max(p * (1 - p), 1e-12) / n) + 1e-12
    assert all(exact.get(key, 0.0) > 0 for key in counts)  # nothing drawn that cannot end
