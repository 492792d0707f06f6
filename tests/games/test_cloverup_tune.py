"""``dicelab cloverup tune`` (the inverse what-if, ``analyzer.tune``): every answer is
checked by solving again with the weights it found; targets out of reach, unknown names
and impossible bounds are one line and exit 2."""

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


def tune_json(*args):
    out = CliRunner().invoke(cli, ["cloverup", "tune", *args, "--format", "json"])
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
