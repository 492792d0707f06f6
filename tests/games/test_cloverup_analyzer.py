"""CloverUp analyses end to end: simulated figures against the exact solvers (5 standard
errors), game rules checked on degenerate dice (rules page, section *Game*), what-if
pairing and precision runs."""

import math

import numpy as np
import pytest

from analyzer.games.cloverup import simulation
from analyzer.games.cloverup.analyses import solve, solve_game
from analyzer.games.cloverup.model import get_model, parse_policy

K = 5  # tolerance in standard errors


def _policies(result):
    return result.headline["policies"]


@pytest.mark.parametrize("lineup", [["optimal", "threshold:4"], ["win", "optimal"],
                                    ["reach:18", "never"]])
def test_two_player_win_rates_match_exact_game_solver(cloverup_values, lineup):
    result = simulation.simulate(cloverup_values, lineup, 120_000, seed=3, progress=False)
    for name, entry in _policies(result).items():
        se = (entry["win_ci95"][1] - entry["win_ci95"][0]) / (2 * 1.959963984540054)
        assert abs(entry["win_rate"] - entry["exact_win_rate"]) <= K * se, (name, entry)


def test_turn_simulation_matches_exact_distribution(cloverup_values):
    result = simulation.turns(cloverup_values, "reach:15", 1_000_000, seed=9, progress=False)
    assert abs(result.headline["z"]) <= K
    assert (result.tables["outcomes"]["z"].abs() <= K).all()


def _game(values, **rules):
    vals = {**values, **rules}
    lineup = simulation.lineup_of(["optimal"], vals["players"])
    acc, n = simulation.play_games(vals, lineup, 4096, 1, rotate=False, progress=False)
    from kernels.cloverup import play

    seats = acc.sum(axis=0)
    return (seats[:, play.COL_SCORE_SUM] / n, seats[:, play.COL_WIN_UNITS] / (n * play.WIN_UNITS),
            seats[:, play.COL_TRIPLE_SIXES] / n, seats[:, play.COL_INSTANT_WINS] / n)


ONLY_SIX = (0, 0, 0, 0, 0, 1, 0)
ONLY_CLOVER = (0, 0, 0, 0, 0, 0, 1)
ONLY_ONE = (1, 0, 0, 0, 0, 0, 0)


def test_game_triple_six_effect_wipes_earlier_seats_and_ends_round(cloverup_values):
    """Game: the first seat rolls 6 6 6 every round; nobody else scores or plays."""
    score, wins, sixes, _ = _game(cloverup_values, weights=ONLY_SIX, players=3, rounds=5)
    np.testing.assert_array_equal(score, [90, 0, 0])
    np.testing.assert_array_equal(wins, [1, 0, 0])
    np.testing.assert_array_equal(sixes, [5, 0, 0])


def test_game_without_triple_six_effect_everyone_ties(cloverup_values):
    """Game: with the effect off every seat scores 18 a round and the win is shared."""
    score, wins, sixes, _ = _game(cloverup_values, weights=ONLY_SIX, players=3,
                                  triple_six_effect=False)
    np.testing.assert_array_equal(score, [90, 90, 90])
    np.testing.assert_allclose(wins, [1 / 3] * 3)
    np.testing.assert_array_equal(sixes, [5, 5, 5])


def test_game_instant_win_ends_game(cloverup_values):
    """Game: three clovers on the first turn win outright; nobody has scored."""
    score, wins, _, instant = _game(cloverup_values, weights=ONLY_CLOVER, players=4)
    np.testing.assert_array_equal(wins, [1, 0, 0, 0])
    np.testing.assert_array_equal(instant, [1, 0, 0, 0])
    np.testing.assert_array_equal(score, [0, 0, 0, 0])


def test_game_rounds_parameter(cloverup_values):
    """Game: every turn scores 3 (only ones), over `rounds` rounds; equal totals share."""
    score, wins, _, _ = _game(cloverup_values, weights=ONLY_ONE, players=2, rounds=7)
    np.testing.assert_array_equal(score, [21, 21])
    np.testing.assert_allclose(wins, [0.5, 0.5])


def test_game_solver_prefers_win_policy(cloverup_values):
    result = solve_game(cloverup_values)
    h = result.headline
    assert 0.5 < h["p_win_vs_optimal"] < 0.6
    model = get_model(cloverup_values)
    W = model.win_solution()[1]
    assert math.isclose(W[0, 0, model.max_diff, 0], h["p_first_seat_win_vs_itself"])


def test_reach_objective_dominates_other_policies(cloverup_values):
    model = get_model(cloverup_values)
    for target in (10, 15, 18):
        best = solve(cloverup_values, f"reach:{target}").headline["probability"]
        for other in ("optimal", "threshold:4", "never"):
            dist = model.outcome_distribution(parse_policy(other))
            reach = parse_policy(f"reach:{target}")
            assert dist @ model.utility(reach) <= best + 1e-12


def test_whatif_identical_variants_differ_by_exactly_zero(cloverup_values):
    variants = [("a", cloverup_values, "optimal"), ("b", dict(cloverup_values), "optimal")]
    result = simulation.whatif(variants, 8192, seed=4, progress=False)
    for metric, entry in result.headline["variants"]["b"].items():
        if isinstance(entry, dict) and metric != "rules":
            assert entry["diff"] == 0 and entry["diff_ci95"] == [0, 0], metric


def test_whatif_paired_interval_is_narrower_than_unpaired(cloverup_values):
    other = {**cloverup_values, "weights": (6, 5, 5, 3, 3, 2, 1)}
    variants = [("base", cloverup_values, "optimal"), ("more sixes", other, "optimal")]
    result = simulation.whatif(variants, 30_000, seed=4, progress=False)
    base = result.headline["variants"]["base"]["mean_score"]
    more = result.headline["variants"]["more sixes"]["mean_score"]
    paired = more["diff_ci95"][1] - more["diff_ci95"][0]
    unpaired = math.hypot(base["ci95"][1] - base["ci95"][0], more["ci95"][1] - more["ci95"][0])
    assert paired < unpaired
    exact = get_model(other).expected_points(parse_policy("optimal")) - \
        get_model(cloverup_values).expected_points(parse_policy("optimal"))
    assert math.isclose(result.headline["variants"]["more sixes"]["exact_turn_score"]["diff"],
                        exact)


def test_precision_run_stops_when_intervals_are_narrow(cloverup_values):
    result = simulation.simulate(cloverup_values, ["optimal"], 5_000_000, seed=2,
                                 precision=0.3, progress=False)
    entry = result.headline["policies"]["optimal"]
    assert result.headline["games"] < 5_000_000
    assert entry["ci95"][1] - entry["mean_score"] <= 0.3


def test_win_precision_decides_by_the_win_rates(cloverup_values):
    """--win-precision: the run stops once every win rate's half-width is at most that many
    percentage points (the mean scores do not decide), and the note says so."""
    from analyzer.seats import Precision

    result = simulation.simulate(cloverup_values, ["optimal", "threshold:3"], 5_000_000,
                                 seed=2, precision=Precision(win_points=1.0), progress=False)
    assert result.headline["games"] < 5_000_000
    for entry in result.headline["policies"].values():
        low, high = entry["win_ci95"]
        assert 50 * (high - low) <= 1.0
    assert any("win rates within +-1 percentage points" in n for n in result.notes)


@pytest.mark.slow
def test_large_two_player_check(cloverup_values):
    result = simulation.simulate(cloverup_values, ["win", "optimal"], 4_000_000, seed=17,
                                 progress=False)
    for entry in _policies(result).values():
        se = (entry["win_ci95"][1] - entry["win_ci95"][0]) / (2 * 1.959963984540054)
        assert abs(entry["win_rate"] - entry["exact_win_rate"]) <= K * se


def test_comeback_odds_fall_with_the_gap_and_rise_with_the_rounds_left(cloverup_values):
    """Rules page, *Game*: the report's comeback table is the game solver's own win chance;
    a larger deficit never helps, more rounds to catch up never hurt (for gaps both can
    have), and level scores keep the second seat's edge of the whole game."""
    from analyzer.games.cloverup.report import comeback_odds, first_seat

    table = comeback_odds(cloverup_values)
    assert table.win_chance.between(0, 1).all()
    for _, rows in table.groupby("rounds_left"):
        assert (np.diff(rows.sort_values("behind_by").win_chance) <= 1e-12).all()
    wide = table.pivot(index="behind_by", columns="rounds_left", values="win_chance").dropna()
    by_rounds_left = wide[sorted(wide.columns)]  # "1 round left", "2 rounds left", ...
    assert (np.diff(by_rounds_left.to_numpy(), axis=1) >= -1e-12).all()
    start = first_seat(cloverup_values).set_index("both_play").loc["win", "first_seat_win_rate"]
    assert start < 0.5 and (table[table.behind_by == 0].win_chance < 0.5).all()


def test_weight_sets_start_from_the_rules_in_force(cloverup_values):
    """The report's weight-set table: its first row is the exact solver's answer for the
    weights in force (turn value and the first seat's chance in a two-player game)."""
    from analyzer.games.cloverup.report import first_seat, weight_sets

    table = weight_sets(cloverup_values).set_index("weight_set")
    row = table.loc["rules in force"]
    assert row.expected_points == pytest.approx(get_model(cloverup_values).expected_points(
        parse_policy("optimal")), abs=1e-12)
    start = first_seat(cloverup_values).set_index("both_play").loc["win", "first_seat_win_rate"]
    assert row.first_seat_win_rate == pytest.approx(start, abs=1e-12)
    assert table.loc["fair dice", "weights"] == "1,1,1,1,1,1,1"


@pytest.mark.parametrize("players,six_effect", [(2, True), (4, True), (3, False)])
def test_game_length_matches_simulated_instant_wins(cloverup_values, players, six_effect):
    """Rules: Game (Instant win, Triple-six effect). The exact chance that an instant win
    ends a game (``length.game_lengths``) matches simulated games of the optimal policy
    to 5 standard errors: triple sixes cut rounds short, so fewer turns can end it."""
    from analyzer.games.cloverup.length import game_lengths
    from analyzer.games.cloverup.report import turn_summary
    from kernels.cloverup import play

    values = {**cloverup_values, "players": players, "triple_six_effect": six_effect}
    turn = turn_summary(get_model(values), "optimal")
    exact = game_lengths(values, turn["p_instant_win"], turn["p_triple_six"],
                         range(players, players + 1)).p_instant_win_ends_game.iloc[0]
    games = 60_000
    acc, n = simulation.play_games(values, [parse_policy("optimal")] * players, games, 11,
                                   progress=False)
    ended = acc[..., play.COL_INSTANT_WINS].sum() / n
    se = np.sqrt(exact * (1 - exact) / n)
    assert abs(ended - exact) < 5 * se, (ended, exact)
