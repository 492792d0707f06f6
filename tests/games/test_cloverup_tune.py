"""``dicelab cloverup tune`` (the inverse what-if, ``analyzer.tune``): every answer is
checked by solving again with the weights it found, and its side effects against the
solver and the what-if; targets out of reach, unknown names and impossible bounds are one
line and exit 2."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli import cli
from analyzer.errors import UserError
from analyzer.games.cloverup import analyses
from analyzer.games.cloverup.params import PARAMS
from analyzer.params import defaults
from analyzer.tune import Free, Target, solve


SIDE_GAMES = ["--games", "1024", "--quiet"]  # the side effects' games: few, to stay quick


def tune_json(*args):
    out = CliRunner().invoke(cli, ["cloverup", "tune", *args, *SIDE_GAMES, "--format", "json"])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def resolved(weights, objective="ev"):
    """The solver's headline for the found weights (``solve`` as a user would run it)."""
    return analyses.solve({**defaults(PARAMS), "weights": tuple(weights)}, objective).headline


def test_one_weight_for_an_expected_score_is_a_root():
    doc = tune_json("--target", "expected_score=13", "--free", "clover")
    weights = doc["weights"]
    assert weights[:6] == [float(w) for w in defaults(PARAMS)["weights"][:6]]  # the rest stay
    assert doc["met"] and abs(resolved(weights)["expected_score"] - 13) < 1e-6
    assert doc["free"] == {"clover": weights[6]}


def test_two_targets_two_weights_by_least_squares():
    """The issue's example: clover and six weights for 12.5 points and a 0.5% instant win."""
    doc = tune_json("--target", "expected_score=12.5", "--target", "p_instant_win=0.005",
                    "--free", "clover,six")
    head = resolved(doc["weights"])
    assert doc["met"]
    assert abs(head["expected_score"] - 12.5) < 1e-6
    assert abs(head["p_instant_win"] - 0.005) < 1e-6


def test_a_reach_chance_and_a_triple_six_chance():
    doc = tune_json("--target", "p_at_least_12=0.5", "--free", "1")
    assert abs(resolved(doc["weights"], "reach:12")["probability"] - 0.5) < 1e-6
    doc = tune_json("--target", "p_triple_six=0.002", "--free", "6")
    from analyzer.games.cloverup.model import Model, parse_policy
    from kernels.cloverup import layout

    model = Model({**defaults(PARAMS), "weights": tuple(doc["weights"])})
    dist = model.outcome_distribution(parse_policy("optimal"))
    assert abs(dist[layout.TRIPLE_SIX] - 0.002) < 1e-6


def test_first_seat_win_rate_under_win_play():
    doc = tune_json("--target", "first_seat_win=0.5", "--free", "clover", "--set", "rounds=1")
    from analyzer.games.cloverup.model import Model

    values = {**defaults(PARAMS), "rounds": 1, "weights": tuple(doc["weights"])}
    assert abs(Model(values).first_seat_win_chance() - 0.5) < 1e-6


def test_a_target_beyond_the_bounds_gives_the_nearest_values_and_says_so():
    doc = tune_json("--target", "expected_score=13", "--free", "clover",
                    "--bounds", "clover=0.5:1.2")
    assert not doc["met"] and doc["weights"][6] == pytest.approx(1.2)
    row, = doc["tables"]["targets"]
    assert row["residual"] < 0 and "not every target can be met" in doc["notes"][0]


@pytest.mark.parametrize("args, needle", [
    (["--target", "expected_score=40", "--free", "clover"], "out of reach"),
    (["--target", "mean=13", "--free", "clover"], "bad target 'mean=13'"),
    (["--target", "expected_score=x", "--free", "clover"], "expected a number"),
    (["--target", "p_at_least_40=0.1", "--free", "clover"], "bad target"),
    (["--target", "expected_score=13", "--free", "seven"], "unknown free parameter 'seven'"),
    (["--target", "expected_score=13"], "no --free parameter"),
    (["--free", "clover"], "no --target given"),
    (["--target", "expected_score=13", "--free", "clover", "--bounds", "clover=3:1"],
     "impossible bounds"),
    (["--target", "expected_score=13", "--free", "clover", "--bounds", "six=1:3"],
     "not free"),
    (["--target", "expected_score=13", "--free", "clover", "--policy", "best"],
     "unknown policy 'best'"),
    (["--target", "expected_score=13", "--free", "clover", "--policy", "win",
      "--players", "3"], "the win policy is solved for two players"),
    (["--target", "expected_score=13", "--free", "clover", "--games", "0"],
     "bad game count 0"),
])
def test_bad_targets_parameters_and_bounds_are_one_line(args, needle):
    out = CliRunner().invoke(cli, ["cloverup", "tune", *args])
    assert out.exit_code == 2 and out.output.count("\n") == 1, out.output
    assert needle in out.output


def test_the_search_finds_a_known_root_and_a_known_least_squares_point():
    """On figures with a known answer: sqrt(2) for x^2 = 2; (1, 2) for x + y = 3 and
    x - y = -1."""
    answer = solve(lambda x: [x[0] ** 2], [Free("x", 0.0, 10.0, 5.0)], [Target("sq", 2.0)],
                   1e-9)
    assert answer.met and abs(answer.values["x"] - np.sqrt(2)) < 1e-9
    answer = solve(lambda x: [x[0] + x[1], x[0] - x[1]],
                   [Free("x", -5, 5, 0.0), Free("y", -5, 5, 0.0)],
                   [Target("sum", 3.0), Target("diff", -1.0)], 1e-9)
    assert answer.met and np.allclose([answer.values["x"], answer.values["y"]], [1, 2])
    with pytest.raises(UserError, match="out of reach"):
        solve(lambda x: [x[0] ** 2], [Free("x", 0.0, 1.0, 0.5)], [Target("sq", 5.0)], 1e-9)


def test_the_report_examples_solve_again_to_their_targets():
    """The report's "what to change to hit a target" table: each row's weights, solved
    again, give its target."""
    from analyzer.games.cloverup.report import tuning_examples

    for row in tuning_examples(defaults(PARAMS)).itertuples():
        assert row.met, row
        name, value = row.target.split("=")
        weights = list(defaults(PARAMS)["weights"])
        weights[5] = weights[5] if np.isnan(row.six_weight) else row.six_weight
        weights[6] = row.clover_weight
        assert abs(resolved(weights)[name] - float(value)) < 1e-6


def test_side_effects_are_the_other_figures_against_the_rules_in_force():
    """The side effects of a clover weight for 13 points: every other exact figure at the
    found weights is the solver's, against its value under the rules in force; the game
    figures are the paired what-if's of the found weights against the baseline, on the
    same games and seed; every difference is found minus baseline, inside its interval."""
    from analyzer.games.cloverup.model import Model
    from analyzer.games.cloverup.simulation import whatif

    doc = tune_json("--target", "expected_score=13", "--free", "clover", "--seed", "5")
    table = {row["name"]: row for row in doc["tables"]["side_effects"]}
    assert "expected_score" not in table  # the target is the targets table's
    assert {"p_instant_win", "p_triple_six", "first_seat_win", "mean_score",
            "p_instant_win_game", "win_rate_seat_1", "win_rate_seat_2"} <= set(table)
    for row in table.values():
        assert row["difference"] == pytest.approx(row["found"] - row["baseline"], abs=1e-12)
        assert row["difference_ci95_low"] <= row["difference"] <= row["difference_ci95_high"]
        assert row["metric"] and row["source"] in ("exact", "simulated")
    before, after = resolved(defaults(PARAMS)["weights"]), resolved(doc["weights"])
    instant = table["p_instant_win"]
    assert instant["found"] == pytest.approx(after["p_instant_win"], abs=1e-12)
    assert instant["baseline"] == pytest.approx(before["p_instant_win"], abs=1e-12)
    assert instant["difference_ci95_low"] == instant["difference_ci95_high"]
    found_values = {**defaults(PARAMS), "weights": tuple(doc["weights"])}
    assert table["first_seat_win"]["found"] == pytest.approx(
        Model(found_values).first_seat_win_chance(), abs=1e-12)
    paired = whatif([("baseline", defaults(PARAMS), ["optimal"]),
                     ("found", found_values, ["optimal"])], 1024, 5, progress=False)
    rows = paired.tables["variants"].set_index(["variant", "metric"])
    score = table["mean_score"]
    assert score["source"] == "simulated" and doc["meta"]["side_effect_games"] == 1024
    assert score["baseline"] == pytest.approx(rows.loc[("baseline", "mean_score"), "value"])
    assert score["found"] == pytest.approx(rows.loc[("found", "mean_score"), "value"])
    assert score["difference_ci95_low"] == pytest.approx(
        rows.loc[("found", "mean_score"), "diff_ci95_low"])


def test_the_library_tune_plays_no_games_without_a_side_effect_run():
    """The report's worked examples call ``tune`` without a side-effect run: the answer
    alone, no games played."""
    from analyzer.games.cloverup.tune import tune

    result = tune(defaults(PARAMS), ["expected_score=13"], "clover")
    assert set(result.tables) == {"targets"} and "side_effect_games" not in result.meta


def test_side_effects_of_an_answer_that_is_the_baseline_are_zero():
    """``whatif_effects`` on a what-if whose answer is its first variant (the rules in
    force): no difference and an interval of zero; a metric without words is left out."""
    import pandas as pd

    from analyzer.output import Result
    from analyzer.tune import whatif_effects

    rows = pd.DataFrame([{"variant": "baseline", "metric": "mean_score", "value": 60.0,
                          "diff": float("nan"), "diff_ci95_low": float("nan"),
                          "diff_ci95_high": float("nan")},
                         {"variant": "baseline", "metric": "hidden", "value": 1.0,
                          "diff": float("nan"), "diff_ci95_low": float("nan"),
                          "diff_ci95_high": float("nan")}])
    out = whatif_effects(Result("x", tables={"variants": rows}), "baseline",
                         {"mean_score": "mean game score"}.get)
    assert out == [{"metric": "mean game score", "baseline": 60.0, "found": 60.0,
                    "difference": 0.0, "difference_ci95_low": 0.0,
                    "difference_ci95_high": 0.0, "source": "simulated",
                    "name": "mean_score"}]
