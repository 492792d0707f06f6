"""``simulate`` gives a summary by default (each policy's mean score, spread and win rate,
over all its seats and in each, with 95% intervals) and the other tables named by
``--tables``, the same in every format; a bad table name is one line and exit status 2."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli import cli
from analyzer.cli_options import chosen_tables
from analyzer.errors import UserError
from analyzer.games.cloverup import simulation as cloverup
from analyzer.games.sly_dice import simulation as sly
from analyzer.seats import Columns, sd_ci95

CLOVERUP = ["cloverup", "simulate", "--games", "2000", "--quiet"]
SLY = ["sly-dice", "simulate", "--games", "200", "--quiet", "--policy", "honest"]


def _run(*args):
    result = CliRunner().invoke(cli, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def _json(*args):
    return json.loads(_run(*args, "--format", "json"))


def test_the_default_is_the_summary_alone_in_every_format():
    text = _run(*CLOVERUP, "--policy", "optimal,never")
    assert "summary:" in text and "sd_ci95_low" in text and "win_ci95_high" in text
    assert not any(f"{name}:" in text for name in ("policies", "seats", "score_distribution"))
    doc = _json(*CLOVERUP, "--policy", "optimal,never")
    assert list(doc["tables"]) == ["summary"] and set(doc["policies"]) == {"optimal", "never"}
    rows = [(r["policy"], r["seat"]) for r in doc["tables"]["summary"]]
    assert rows == [("optimal", "all"), ("optimal", "1"), ("optimal", "2"),
                    ("never", "all"), ("never", "1"), ("never", "2")]
    csv = _run(*CLOVERUP, "--format", "csv")
    assert [line for line in csv.splitlines() if line.startswith("#")] == ["# summary",
                                                                            "# meta"]


def test_the_summary_reuses_the_policies_figures():
    """Over all seats, the summary's figures are the policies table's; each sd has an
    interval around it; a policy in every seat wins 1/players exactly; solo: no win rate."""
    doc = _json(*CLOVERUP, "--policy", "optimal,never", "--tables", "summary,policies")
    policies = {r["policy"]: r for r in doc["tables"]["policies"]}
    for row in doc["tables"]["summary"]:
        assert row["sd_ci95_low"] < row["sd"] < row["sd_ci95_high"]
        assert row["ci95_low"] < row["mean_score"] < row["ci95_high"]
        if row["seat"] == "all":
            same = policies[row["policy"]]
            for key in ("seat_games", "mean_score", "ci95_low", "sd", "win_rate",
                        "win_ci95_high"):
                assert row[key] == pytest.approx(same[key], abs=1e-12)
    mirror = _json(*CLOVERUP, "--players", "3")["tables"]["summary"]
    assert [r["seat"] for r in mirror] == ["all", "1", "2", "3"]
    assert mirror[0]["win_ci95_low"] == mirror[0]["win_rate"] == pytest.approx(1 / 3)
    solo, = _json(*CLOVERUP, "--players", "1")["tables"]["summary"]
    assert solo["seat"] == "1" and "win_rate" not in solo
    fixed = _json(*CLOVERUP, "--policy", "optimal,never", "--no-rotate")["tables"]["summary"]
    assert [(r["policy"], r["seat"]) for r in fixed] == [("optimal", "1"), ("never", "2")]


@pytest.mark.parametrize("args, module", [(CLOVERUP, cloverup), (SLY, sly)],
                         ids=["cloverup", "sly-dice"])
def test_tables_all_gives_every_table(args, module):
    assert list(_json(*args, "--tables", "all")["tables"]) == list(module.TABLES)
    text = _run(*args, "--tables", "all")
    assert all(f"\n{name}:\n" in text for name in module.TABLES)


def test_named_tables_are_given_in_the_order_named():
    doc = _json(*SLY, "--tables", "cards,Score-Distribution,cards")
    assert list(doc["tables"]) == ["cards", "score_distribution"]
    text = _run(*CLOVERUP, "--tables", "seats")
    assert "\nseats:\n" in text and "summary:" not in text


@pytest.mark.parametrize("value, needle", [
    ("summry", "bad --tables name 'summry'; accepted: summary, policies, seats, "
               "score_distribution, or all"),
    ("seats,cards", "bad --tables name 'cards'"),
    ("", "--tables is empty"),
    (" , ", "--tables names no table"),
])
def test_a_bad_table_name_is_one_line_exit_2(value, needle):
    result = CliRunner().invoke(cli, [*CLOVERUP, "--tables", value])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in result.output


def test_chosen_tables():
    accepted = ("summary", "policies", "score_distribution")
    assert chosen_tables("all", accepted) == accepted
    assert chosen_tables(" Policies , summary,policies", accepted) == ("policies", "summary")
    with pytest.raises(UserError, match="accepted: summary, policies, score_distribution"):
        chosen_tables("all,nosuch", accepted)


def test_the_sd_interval_covers_the_true_spread():
    """The sd's 95% interval covers the true standard deviation of a skewed score
    distribution (a spike at 0 beside a bell) in about 95% of 1,000 samples of 1,000."""
    cols = Columns(games=0, score_sum=1, score_sq=2, win_units=3, hist=4, units_per_win=1)
    scores = np.arange(101)
    p = np.exp(-0.5 * ((scores - 60) / 9) ** 2)
    p = 0.94 * p / p.sum()
    p[0] += 0.06
    true_sd = np.sqrt((p * (scores - (p * scores).sum()) ** 2).sum())
    covered = 0
    for hist in np.random.default_rng(1).multinomial(1000, p, size=1000):
        row = np.concatenate([[1000, hist @ scores, hist @ scores ** 2, 0], hist])
        low, high = sd_ci95(row, cols)[1]
        covered += low <= true_sd <= high
    assert 0.925 <= covered / 1000 <= 0.97
