"""A what-if reports each seat's win rate in a lineup, named by the
seat's policy; the seats' win rates add up to 1 (a shared win is split) and the first
seat's is the what-if's first-seat win rate."""

import pytest

from analyzer.params import defaults


def _check(result, players: int) -> None:
    table = result.tables["variants"]
    for _, part in table.groupby("variant"):
        seats = part[part.metric.str.startswith("win_rate_seat_")].reset_index()
        lineup = seats[[c for c in ("lineup", "policy") if c in seats][0]].iloc[0].split(",")
        assert list(seats.metric) == [f"win_rate_seat_{s + 1}" for s in range(players)]
        assert list(seats.seat_policy) == [lineup[s % len(lineup)] for s in range(players)]
        assert seats.value.sum() == pytest.approx(1.0)
        first = part[part.metric == "first_seat_win_rate"].value.iloc[0]
        assert seats.value.iloc[0] == pytest.approx(first)
    base = table[table.variant == "baseline"]
    assert base[base.metric.str.startswith("win_rate_seat_")]["diff"].isna().all()


def test_cloverup_whatif_reports_every_seat():
    from analyzer.games.cloverup import PARAMS
    from analyzer.games.cloverup.simulation import whatif

    values = {**defaults(PARAMS), "players": 3}
    lineup = ["optimal", "never"]
    result = whatif([("baseline", values, lineup), ("rerolls=3", {**values, "rerolls": 3},
                                                    lineup)], 2000, 1, progress=False)
    _check(result, 3)


def test_sly_dice_whatif_reports_every_seat():
    from analyzer.games.sly_dice import PARAMS
    from analyzer.games.sly_dice.simulation import whatif

    values = {**defaults(PARAMS), "players": 2}
    lineup = ["honest", "rational"]
    result = whatif([("baseline", values, lineup), ("other", values, ["rational", "honest"])],
                    1000, 1, progress=False)
    _check(result, 2)


def test_clever_whatif_reports_every_seat():
    from analyzer.games.clever.simulation import whatif
    from analyzer.registry import get_game

    game = get_game("thats-pretty-clever").load().GAME
    values = {**defaults(game.params), "players": 2}
    lineup = ["greedy", "random"]
    result = whatif(game, [("baseline", values, lineup), ("again", values, lineup)], 200, 1,
                    progress=False)
    _check(result, 2)


def test_solo_whatif_has_no_seat_win_rates():
    from analyzer.games.cloverup import PARAMS
    from analyzer.games.cloverup.simulation import whatif

    values = {**defaults(PARAMS), "players": 1}
    result = whatif([("baseline", values, "optimal"), ("r3", {**values, "rerolls": 3},
                                                       "optimal")], 500, 1, progress=False)
    assert not result.tables["variants"].metric.str.startswith("win_rate_seat_").any()


def test_cloverup_seat_win_rates_match_the_exact_game_solver():
    """Both players playing to win: the what-if's seat win rates match the game solver's
    exact first-seat chance to 5 standard errors (and the second seat its complement)."""
    import math

    from analyzer.games.cloverup import PARAMS
    from analyzer.games.cloverup.model import get_model
    from analyzer.games.cloverup.simulation import whatif

    values = {**defaults(PARAMS), "players": 2, "rounds": 3}
    exact = get_model(values).first_seat_win_chance()
    games = 40_000
    result = whatif([("baseline", values, ["win"]), ("again", values, ["win"])], games, 5,
                    progress=False)
    table = result.tables["variants"]
    base = table[table.variant == "baseline"].set_index("metric")["value"]
    se = math.sqrt(exact * (1 - exact) / games)
    assert abs(base["win_rate_seat_1"] - exact) < 5 * se
    assert abs(base["win_rate_seat_2"] - (1 - exact)) < 5 * se
