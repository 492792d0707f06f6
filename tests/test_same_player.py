"""Every command plays the same player: on the same rules, seed and games, ``simulate``, a
``whatif`` baseline (beside a variant of another game shape), ``tune``'s evaluation of the
rules in force and the report's simulations give the same numbers, each with its default
player (CloverUp's exact ``optimal``, Sly Dice's ``equilibrium``, the Clever games'
``learned``)."""

import json

import pytest
from click.testing import CliRunner

from analyzer.cli import cli

SEED, GAMES = "11", "128"
OTHER_SHAPE = {"cloverup": "rounds=6", "sly-dice": "rounds=5",
               "thats-pretty-clever": "rounds=5", "twice-as-clever": "round_2_bonus=false"}


def _json(*args: str) -> dict:
    """A command's JSON result."""
    done = CliRunner().invoke(cli, [*args, "--seed", SEED, "--quiet", "--format", "json"])
    assert done.exit_code == 0, done.output
    return json.loads(done.output)


def _simulated(game: str, players: int) -> tuple[str, float]:
    """The default player's name and mean score in ``simulate``."""
    policies = _json(game, "simulate", "--players", str(players), "--games", GAMES)["policies"]
    (name, figures), = policies.items()
    return name, figures["mean_score"]


@pytest.mark.parametrize("game", list(OTHER_SHAPE))
def test_simulate_and_a_what_if_baseline_play_the_same_games(game):
    """Two players: the baseline of a what-if that spans two game shapes scores what
    ``simulate`` scores, game for game; and its lineup is the same default player."""
    name, mean = _simulated(game, 2)
    done = _json(game, "whatif", "--players", "2", "--games", GAMES, "--vary",
                 OTHER_SHAPE[game])
    baseline = done["variants"]["baseline"]
    assert baseline["lineup"] == [name]
    assert baseline["mean_score"]["value"] == pytest.approx(mean, abs=1e-9)


@pytest.mark.parametrize("game", ["thats-pretty-clever", "twice-as-clever"])
def test_tune_and_the_report_play_the_same_games_as_simulate(game):
    """Two players: ``tune``'s row for the rules in force (round_4_bonus true among the
    values it tries) scores what ``simulate`` scores; solo, the report's simulation of
    learned does too, at the report's seed and sample."""
    from analyzer.games.clever.report import QUICK, solo_runs
    from analyzer.params import defaults
    from analyzer.registry import get_game

    _, mean = _simulated(game, 2)
    done = _json(game, "tune", "--set", "players=2", "--target", f"mean_score={mean:.0f}",
                 "--free", "round_4_bonus", "--games", GAMES)
    row, = [r for r in done["tables"]["combinations"] if r["round_4_bonus"] is True]
    assert row["mean_score"] == pytest.approx(mean, abs=1e-9)
    model = get_game(game).load().GAME
    solo = {**defaults(model.params), "players": 1}
    report = solo_runs(model, solo, int(SEED), QUICK, ["learned"], progress=False)["learned"]
    cli_run = _json(game, "simulate", "--players", "1", "--max-games", str(QUICK.cap),
                    "--precision", str(QUICK.points))
    assert report.headline["policies"]["learned"]["mean_score"] == \
        cli_run["policies"]["learned"]["mean_score"]
    assert report.headline["games"] == cli_run["games"]
