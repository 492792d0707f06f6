"""Luck and skill by restricted play: the strongest player's two-player win rate against
players held to weaker strategies, and its reading, the same way in every game."""

from analyzer.games.cloverup import report as cloverup_report
from analyzer.games.cloverup.model import get_model, parse_policy
from analyzer.games.cloverup.params import PARAMS
from analyzer.params import defaults
from analyzer.skill import skill_parts, skill_row, skill_table, skill_verdict
from reports.figures import validate_figure


def duels(*rates: float):
    return skill_table([skill_row("best", f"p{k}", f"plays p{k}", r, (r - 0.01, r + 0.01), 100)
                        for k, r in enumerate(rates)])


def test_the_reading_follows_the_edge_over_the_most_sensible_player():
    assert skill_verdict(duels(0.99, 0.86), "the best").endswith("skill decides most games.")
    assert "skill shows, but luck decides many games" in skill_verdict(duels(0.9, 0.57), "x")
    assert "luck decides nearly every game" in skill_verdict(duels(0.97, 0.515), "x")
    words = skill_verdict(duels(0.97, 0.515), "the best")
    assert "the best wins 97.0% against a player who plays p0 (95% CI 96.0% to 98.0%)" in words


def test_cloverup_duels_are_the_exact_solver_s_from_both_seats():
    """A player playing to win against one who never re-rolls: the mean of the exact
    chances from the first and the second seat."""
    values = defaults(PARAMS)
    table = cloverup_report.skill_duels(values)
    assert list(table.weaker) == ["never", "threshold:4", "optimal"]
    model = get_model({**values, "players": 2})
    win, never = parse_policy("win"), parse_policy("never")
    exact = 0.5 * (model.game_win_chance(win, never) + 1 - model.game_win_chance(never, win))
    assert table.win_rate.iloc[0] == exact and table.exact.all()
    assert table.win_rate.iloc[0] > table.win_rate.iloc[1] > table.win_rate.iloc[2] > 0.5
    figure, tab = skill_parts("cloverup", table, "a player playing to win", "Exact.")
    validate_figure(figure)
    assert figure.appendix and tab.name == "cloverup_skill"
