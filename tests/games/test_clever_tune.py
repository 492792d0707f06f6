"""``dicelab <clever game> tune`` (``analyzer.games.clever.tune``): a Monte Carlo inverse what-if
checked against a case with a known answer; bad targets and parameters are one line."""

import json
import math

import pytest
from click.testing import CliRunner

from analyzer.games.clever import simulation
from analyzer.cli import cli
from analyzer.games.thats_pretty_clever.model import GAME
from analyzer.params import defaults


def test_the_round_count_of_a_known_mean_score_is_found():
    """Greedy's solo mean over 4 rounds, from an independent run (other dice), is a
    target only 4 rounds meet: each round is worth far more than the intervals."""
    values = {**defaults(GAME.params), "players": 1, "rounds": 4}
    ref = simulation.simulate(GAME, values, ["greedy"], 4096, seed=11, progress=False)
    known = ref.headline["policies"]["greedy"]
    out = CliRunner().invoke(cli, [
        "thats-pretty-clever", "tune", "--target", f"mean_score={known['mean_score']}",
        "--free", "rounds", "--policy", "greedy", "--games", "4096", "--seed", "3",
        "--format", "json", "--quiet"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert doc["values"] == {"rounds": 4}
    best = doc["tables"]["combinations"][0]
    se = math.hypot((best["mean_score_ci95_high"] - best["mean_score_ci95_low"]) / 3.92,
                    (known["ci95"][1] - known["ci95"][0]) / 3.92)
    assert abs(best["mean_score"] - known["mean_score"]) < 5 * se
    assert "common random numbers" in " ".join(doc["notes"])
    effects, = doc["tables"]["side_effects"]  # solo: the foxes (the mean score is the target)
    assert effects["name"] == "foxes_per_player" and effects["source"] == "simulated"
    assert effects["found"] < effects["baseline"]  # 4 rounds against the 6 in force
    assert effects["difference"] == pytest.approx(effects["found"] - effects["baseline"])
    assert effects["difference_ci95_low"] <= effects["difference"] \
        <= effects["difference_ci95_high"] < 0


def test_tune_stays_inside_the_documented_range():
    """The round count is searched over its documented range, 4 to 8 (not 0, the player
    count's own, nor 9-12): every combination played lies inside it."""
    out = CliRunner().invoke(cli, [
        "thats-pretty-clever", "tune", "--target", "mean_score=150", "--free", "rounds",
        "--policy", "greedy", "--games", "512", "--format", "json", "--quiet"])
    assert out.exit_code == 0, out.output
    rounds = sorted(c["rounds"] for c in json.loads(out.output)["tables"]["combinations"])
    assert rounds == [4, 5, 6, 7, 8]


def test_side_effects_are_paired_with_the_rules_in_force_even_outside_the_search():
    """With a round count in force outside the searched 4 to 8, the rules in force are
    still played (first, on the same games) and are the side effects' baseline; with two
    players the side effects give each seat's win rate, found minus baseline."""
    out = CliRunner().invoke(cli, [
        "thats-pretty-clever", "tune", "--target", "mean_score=160", "--free", "rounds",
        "--policy", "greedy", "--players", "2", "--set", "rounds=3", "--games", "256",
        "--format", "json", "--quiet"])
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert sorted(c["rounds"] for c in doc["tables"]["combinations"]) == [4, 5, 6, 7, 8]
    table = {row["name"]: row for row in doc["tables"]["side_effects"]}
    assert set(table) == {"foxes_per_player", "win_rate_seat_1", "win_rate_seat_2"}
    for row in table.values():
        assert row["difference"] == pytest.approx(row["found"] - row["baseline"])
        assert row["difference_ci95_low"] <= row["difference"] <= row["difference_ci95_high"]
    assert table["foxes_per_player"]["found"] > table["foxes_per_player"]["baseline"]


@pytest.mark.parametrize("args, needle", [
    (["--target", "mean_score=150", "--free", "players"], "unknown free parameter 'players'"),
    (["--target", "mean=150", "--free", "rounds"], "bad target 'mean=150'"),
    (["--target", "mean_score=150"], "no --free parameter"),
    (["--target", "mean_score=150", "--free",
      "rounds,wasted_pick,passive_may_decline,round_1_bonus,round_2_bonus"],
     "accepted at most 64"),
    (["--target", "first_seat_win_rate=0.5", "--free", "rounds"], "2 or more players"),
    (["--target", "mean_score=150", "--free", "rounds", "--precision", "0"], "bad precision"),
    (["--target", "mean_score=900", "--free", "round_4_bonus", "--games", "256"],
     "out of reach"),
])
def test_bad_targets_and_parameters_are_one_line(args, needle):
    out = CliRunner().invoke(cli, ["thats-pretty-clever", "tune", *args, "--quiet"])
    assert out.exit_code == 2 and out.output.count("\n") == 1, out.output
    assert needle in out.output


def test_a_most_valuable_bonus_is_claimed_only_where_the_intervals_separate():
    """A 'most' or 'largest' claim only where the intervals separate."""
    import pandas as pd

    from analyzer.games.clever.report import most_words

    first = pd.Series({"variant": "without round 4", "value": 26.8, "ci95_low": 25.0,
                       "ci95_high": 28.6})
    near = pd.Series({"variant": "without round 2", "value": 25.1, "ci95_low": 23.5,
                      "ci95_high": 26.7})
    far = pd.Series({"variant": "without round 2", "value": 20.0, "ci95_low": 18.5,
                     "ci95_high": 21.5})
    assert most_words(first, far) == "the most"
    assert most_words(first, near) == ("the most on these games, within the interval of the "
                                       "bonus of round 2 (25.1)")


def test_tune_runs_to_the_precision_without_games():
    """Without --games, tune plays every combination until every paired difference is
    within 1 point a player (95%), and says so; --games N plays exactly N."""
    args = ["thats-pretty-clever", "tune", "--target", "mean_score=110", "--free",
            "round_4_bonus", "--policy", "greedy", "--format", "json", "--quiet"]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    doc = json.loads(out.output)
    assert any(note.startswith("ran until every paired difference was within +-1 points a "
                               "player (95%)") for note in doc["notes"])
    table = doc["tables"]["combinations"]
    assert max(r["mean_score_ci95_high"] - r["mean_score"] for r in table) < 3.0
    fixed = json.loads(CliRunner().invoke(cli, [*args, "--games", "1024"]).output)
    assert fixed["meta"]["games"] == 1024
