"""Every player count of a game (``analyzer.player_counts``): the table from the contest
record, the recommended count and its rule, the report's parts, and ``dicelab GAME
players`` with its bad input."""

import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer import player_counts
from analyzer.cli import cli
from analyzer.games.cloverup.params import PARAMS as CLOVERUP
from analyzer.params import defaults


def _table(rows):
    """A synthetic player-count table: (players, win_margin, sd, tie_rate,
    seat_imbalance) a row, margins +-0.2 points."""
    frame = pd.DataFrame(rows, columns=["players", "win_margin", "sd", "tie_rate",
                                        "seat_imbalance"])
    return frame.assign(win_margin_ci95_low=frame.win_margin - 0.2,
                        win_margin_ci95_high=frame.win_margin + 0.2,
                        margin_per_sd=frame.win_margin / frame.sd)


def test_recommend_takes_the_closest_games_among_balanced_counts():
    """The smallest margin for the spread wins, not the smallest margin: 4 players' 6
    points over an sd of 30 are closer than 3 players' 5 points over 10."""
    table = _table([(2, 8.0, 10.0, 0.01, False), (3, 5.0, 10.0, 0.02, False),
                    (4, 6.0, 30.0, 0.03, False)])
    players, reason = player_counts.recommend(table)
    assert players == 4
    assert reason.startswith("the closest games among the counts without a seat imbalance")
    assert "0.20 of a player's score spread" in reason and "3.0% of games" in reason
    assert "against 0.50 at 3; 0.80 at 2 players" in reason and reason.endswith(".")


def test_a_count_with_a_seat_imbalance_is_passed_over():
    table = _table([(2, 8.0, 10.0, 0.01, False), (3, 5.0, 10.0, 0.02, True)])
    players, reason = player_counts.recommend(table)
    assert players == 2 and "(there is one at 3 players)" in reason


def test_every_count_imbalanced_gives_the_closest_and_says_so():
    table = _table([(2, 8.0, 10.0, 0.01, True), (3, 5.0, 10.0, 0.02, True)])
    players, reason = player_counts.recommend(table)
    assert players == 3 and "though every count has a seat imbalance" in reason


def test_counts_within_the_noise_are_named():
    """Margins per sd whose intervals overlap the recommended one's are named."""
    table = _table([(2, 5.1, 10.0, 0.01, False), (3, 5.0, 10.0, 0.02, False),
                    (4, 9.0, 10.0, 0.02, False)])
    players, reason = player_counts.recommend(table)
    assert players == 3 and "(2 players within the noise of it)" in reason


def test_solo_alone_has_no_recommendation():
    table = _table([(1, float("nan"), 30.0, float("nan"), False)])
    assert player_counts.recommend(table) == (None, "no count of two or more players to "
                                                    "compare")


def test_the_cloverup_table_from_its_games():
    """CloverUp, 2 to 6 players, 4,096 games each: a row a count with the winner's margin
    at least 0, ties and decisions from the contest record; reading the same games back
    (``runs``) gives the same table."""
    values = {**defaults(CLOVERUP), "players": 2}
    table = player_counts.player_count_table("cloverup", values, 3, None, 4096, False)
    assert table.players.tolist() == [2, 3, 4, 5, 6]
    assert (table.games == 4096).all() and table.precision_reached.all()
    assert (table.win_margin > 0).all() and (table.win_margin_ci95_low > 0).all()
    assert ((table.tie_rate > 0) & (table.tie_rate < 0.2)).all()
    assert (table.decisions > 5).all() and (table.sd > 0).all()
    assert table.win_margin.is_monotonic_decreasing  # more players, closer at the top
    plan = player_counts.plan_of("cloverup")
    runs = {n: plan.play(values, n, 4096, 3, None, False) for n in plan.counts}
    again = player_counts.player_count_table("cloverup", values, 3, None, 4096, False, runs)
    pd.testing.assert_frame_equal(table, again)


def test_the_report_parts():
    """A figure for the appendix, a table and the verdict sentence, quick."""
    figure, table, verdict = player_counts.player_count_section_parts(
        "cloverup", defaults(CLOVERUP), 3, quick=True, progress=False)
    assert figure.appendix and figure.name == "cloverup_player_counts"
    assert list(figure.data.players) == ["2", "3", "4", "5", "6"]
    assert table.name == "cloverup_player_counts" and len(table.data) == 5
    assert verdict.startswith("Player count: of 2-6 players, recommended ")
    assert verdict.endswith(".")
    assert "Recommended:" in figure.reading


def run(args):
    return CliRunner().invoke(cli, args)


def test_players_command_json():
    """``dicelab cloverup players``: the recommendation in the headline, the table with
    every count, the notes saying what was played."""
    result = run(["cloverup", "players", "--games", "2048", "--quiet", "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["recommended_players"] in range(2, 7) and doc["reason"]
    rows = doc["tables"]["player_counts"]
    assert [r["players"] for r in rows] == [2, 3, 4, 5, 6]
    assert {"mean_score", "sd", "sd_ci95_low", "win_margin", "win_margin_ci95_high",
            "tie_rate", "tie_ci95_low", "decisions", "games"} <= set(rows[0])
    assert any("optimal in every seat" in note for note in doc["notes"])


@pytest.mark.parametrize("game", ["sly-dice", "thats-pretty-clever"])
def test_players_command_in_other_games(game):
    result = run([game, "players", "--games", "64", "--quiet", "--format", "csv"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("# player_counts\nplayers,mean_score,")
    counts = [2, 3, 4] if game == "sly-dice" else [1, 2, 3, 4]
    body = result.output.split("\n\n")[0].splitlines()[2:]
    assert [int(line.split(",")[0]) for line in body] == counts


@pytest.mark.parametrize("args,needle", [
    (["cloverup", "players", "--games", "0"], "game count"),
    (["cloverup", "players", "--max-games", "0"], "--max-games"),
    (["cloverup", "players", "--precision", "0"], "precision"),
    (["cloverup", "players", "--set", "players=3"], "every player count"),
    (["sly-dice", "players", "--set", "rerolls=9"], "rerolls"),
    (["thats-pretty-clever", "players", "--win-precision", "-1"], "win precision"),
    (["twice-as-clever", "players", "--seed", "-2"], "seed"),
])
def test_players_bad_input_is_one_line_exit_2(args, needle):
    result = run(args)
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dicelab: error:"), result.stderr
    assert needle in lines[0], lines[0]


def test_solo_rows_have_no_margin():
    """A solo count (the Clever games) has decisions but no margin, tie or seat figures."""
    from analyzer.games.clever.simulation import COLUMNS

    acc = np.zeros((1, 1, COLUMNS.hist + 400), np.int64)
    acc[0, 0, [COLUMNS.games, COLUMNS.score_sum, COLUMNS.score_sq]] = [2, 400, 80_200]
    acc[0, 0, [COLUMNS.decisions_sum, COLUMNS.decisions_sq]] = [60, 1_802]
    acc[0, 0, COLUMNS.hist + 190] = acc[0, 0, COLUMNS.hist + 210] = 1
    row = player_counts.count_row(acc, 2, COLUMNS, 1)
    assert row["decisions"] == 30 and row["mean_score"] == 200
    assert np.isnan(row["win_margin"]) and np.isnan(row["tie_rate"])
    assert not row["seat_imbalance"] and row["worst_seat"] is None
