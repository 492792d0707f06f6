"""Answers at a stated precision: without ``--games``, ``simulate`` and ``whatif`` play
until every headline figure's 95% half-width is at most 1 point a player (scores and their
differences) and 2 percentage points (win rates), and stop at the first look where that
holds; ``--games N`` plays exactly N games; a cap reached first is named."""

import json

import pytest
from click.testing import CliRunner

from analyzer import seats
from analyzer.cli import cli
from analyzer.params import defaults


def _sly_duel():
    from analyzer.games.sly_dice import PARAMS
    from analyzer.games.sly_dice.model import parse_policy

    values = {**defaults(PARAMS), "players": 2}
    return values, [parse_policy("honest"), parse_policy("rational")]


def test_simulate_stops_at_the_first_look_where_every_width_holds():
    from analyzer.games.sly_dice.runs import COLUMNS, GAME_BLOCK, play_games

    values, lineup = _sly_duel()
    names = [p.name for p in lineup]
    acc, n = play_games(values, lineup, 400_000, 5, True, seats.DEFAULT, False, 1)
    points, win = seats.widest(acc, names, COLUMNS)
    assert n < 400_000 and points <= 1.0 and win <= 2.0
    before, m = play_games(values, lineup, n - GAME_BLOCK, 5, True, None, False)
    assert m == n - GAME_BLOCK  # the same first games, one look earlier
    points, win = seats.widest(before, names, COLUMNS)
    assert points > 1.0 or win > 2.0


def _half_widths(result) -> dict[str, float]:
    table = result.tables["variants"].dropna(subset=["diff"])
    unit = table.metric.str.contains("win_rate").map({True: 100.0, False: 1.0})
    widest = ((table.diff_ci95_high - table["diff"]) * unit).groupby(table.metric).max()
    return widest.to_dict()


def test_whatif_stops_at_the_first_look_where_every_difference_holds():
    from analyzer.games.clever.simulation import GAME_BLOCK, whatif
    from analyzer.games.thats_pretty_clever.model import GAME

    values = {**defaults(GAME.params), "players": 2}
    variants = [("baseline", values, ["greedy"]),
                ("round_4_bonus=false", {**values, "round_4_bonus": False}, ["greedy"])]
    result = whatif(GAME, variants, 200_000, 7, progress=False, precision=seats.DEFAULT,
                    batch_blocks=1)
    n = result.headline["games"]
    widths = _half_widths(result)
    assert n < 200_000 and widths["mean_score"] <= 1.0
    assert max(w for k, w in widths.items() if "win_rate" in k) <= 2.0
    earlier = _half_widths(whatif(GAME, variants, n - GAME_BLOCK, 7, progress=False))
    assert earlier["mean_score"] > 1.0 or \
        max(w for k, w in earlier.items() if "win_rate" in k) > 2.0


def _sly(*args: str) -> dict:
    out = CliRunner().invoke(cli, ["sly-dice", "simulate", "--policy", "honest,rational",
                                   "--quiet", "--format", "json", *args])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def test_the_default_runs_to_the_precision_and_games_fixes_the_count():
    default = _sly()
    assert any("ran until the 95% intervals had mean scores within +-1 points and win "
               "rates within +-2 percentage points" in note for note in default["notes"])
    fixed = _sly("--games", "3000")
    assert fixed["games"] == 3000
    assert not any("ran until" in note for note in fixed["notes"])


def test_a_cap_reached_before_the_precision_is_named():
    capped = _sly("--max-games", "2048", "--precision", "0.01")
    assert capped["games"] == 2048
    assert any("the cap came first, so the precision was NOT reached (raise --max-games, "
               "or --games where it is given)" in note for note in capped["notes"])


@pytest.mark.parametrize("args, needle", [
    (["--max-games", "0"], "bad --max-games 0"),
    (["--precision", "0"], "bad precision 0"),
    (["--win-precision", "-1"], "bad win precision -1"),
])
def test_bad_precision_options_are_one_line(args, needle):
    out = CliRunner().invoke(cli, ["sly-dice", "simulate", "--quiet", *args])
    assert out.exit_code == 2 and out.output.count("\n") == 1, out.output
    assert needle in out.output


def test_the_progress_bar_shows_the_widths_reached():
    from analyzer.games.sly_dice.runs import COLUMNS, play_games

    values, lineup = _sly_duel()
    names = [p.name for p in lineup]
    acc, _ = play_games(values, lineup, 4096, 5, True, None, False)
    stop = seats.stop_rule(names, COLUMNS, seats.DEFAULT)
    stop(acc, 4096)
    points, win = seats.widest(acc, names, COLUMNS)
    assert stop.last == f"+-{points:.2f} points, +-{win:.1f} pp"
