"""That's Pretty Clever's own analyzer pieces: the sheet file format, sheet scoring, advice
on a position, the round-4 choice and +1 prompts of the coach, open points as parameters,
and the strength target (what both Clever games share: test_clever_analyzer.py)."""

import json
import re

import pytest
from click.testing import CliRunner

from analyzer.games.clever import simulation
from analyzer.games.clever.coach import Coach
from analyzer.games.clever.sheetfile import score_result as score_sheet
from analyzer.cli import cli
from analyzer.games.thats_pretty_clever import sheetfile
from analyzer.games.thats_pretty_clever.model import GAME, PARAMS
from analyzer.params import defaults
from kernels.thats_pretty_clever import layout as L
from tests.games.sheet_files import sheet_file

K = 5


@pytest.fixture(scope="module")
def values():
    return defaults(PARAMS)


def test_written_sheet_scores_by_the_rules():
    """Section 12: yellow column 1 (10) + blue 3 crosses (4) + green 7 slots (28) + orange
    written numbers + purple numbers, and the green fox worth the lowest area."""
    doc = sheetfile.blank()
    doc.update(yellow=[[1, 1], [2, 1], [3, 1]], blue=[2, 3, 4], green=7,
               orange=[3, 5, 2, 8], purple=[2, 5, 6, 1])
    sheet = sheetfile.to_kernel(doc)
    result = score_sheet(GAME, sheet)
    areas = result.headline["areas"]
    assert areas == {"yellow": 10, "blue": 4, "green": 28, "orange": 18, "purple": 14}
    assert result.headline["foxes"] == 1
    assert result.headline["total"] == 10 + 4 + 28 + 18 + 14 + 4


def _sheet_file(tmp_path, **fields):
    return sheet_file(GAME, tmp_path, **fields)


def test_advise_ranks_every_legal_choice(tmp_path):
    path = _sheet_file(tmp_path, yellow=[[1, 1]], blue=[5], orange=[3, 4], purple=[2, 4])
    result = CliRunner().invoke(cli, ["thats-pretty-clever", "advise", "--sheet", str(path),
                                      "--roll", "W3 Y5 B2 G6 O4 P1", "--round", "3",
                                      "--rollouts", "200", "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    choices = doc["tables"]["choices"]
    scores = [c["expected_score"] for c in choices]
    assert scores == sorted(scores, reverse=True) and choices[0]["vs_best"] == 0
    assert not any("purple" in c["choice"] for c in choices)  # 1 after 4 is illegal
    assert len(choices) >= 5


def test_bad_sheet_file_is_one_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "dicelab-tpc-sheet/1", "blue": [13]}')
    result = CliRunner().invoke(cli, ["thats-pretty-clever", "sheet", "--score", str(path)])
    assert result.exit_code == 2 and "field 'blue[0]'" in result.stderr


def test_coach_round_4_choice_is_the_players(values):
    """3: in round 4 the coach lists the black X / black 6 options, ranked, and applies the
    one the player picks (here the second)."""

    out = []
    coach = Coach(GAME, values, "greedy", 10, 1, L.new_sheet(), iter(["2"]).__next__,
                  out.append)
    assert coach.round_choice(4, GAME.round_options(-1))
    text = "".join(out)
    listed = re.findall(r"  (\d)\. black (X|6) in (\w+): ([\d.]+)", text)
    assert len(listed) == 5 and [int(x[0]) for x in listed] == [1, 2, 3, 4, 5]
    estimates = [float(x[3]) for x in listed]
    assert estimates == sorted(estimates, reverse=True)
    kind, area = listed[1][1], listed[1][2]
    changed = {"yellow": bin(int(coach.sheet[L.S_YELLOW])).count("1") == 5,
               "blue": coach.sheet[L.S_BLUE] != 0, "green": coach.sheet[L.S_GREEN] == 1,
               "orange": coach.sheet[L.S_ORANGE_VALUES] == 6,
               "purple": coach.sheet[L.S_PURPLE_VALUES] == 6}
    assert changed[area] and sum(changed.values()) == 1, (kind, area, text)


def test_coach_offers_plus_ones_ranked_beside_stopping(values):
    """10: with a +1 in hand the coach ranks by rollouts the uses of any of the turn's dice
    beside stopping; choosing the first +1 spends it (the die then cannot be taken again),
    choosing stop keeps the rest."""

    sheet = L.new_sheet()
    sheet[L.S_PLUS_GOT] = 2
    out, answers = [], []

    def read():
        text = "".join(out)
        menu = text.split("spend a +1?")[-1]
        plus = re.search(r"  (\d+)\. \+1: ", menu)
        stop = re.search(r"  (\d+)\. stop: keep the \+1s", menu)
        answers.append(plus.group(1) if len(answers) == 0 else stop.group(1))
        return answers[-1]

    coach = Coach(GAME, values, "greedy", 10, 1, sheet, read, out.append)
    seen = {d: face for d, face in enumerate((3, 5, 2, 6, 4, 1))}  # W3 Y5 B2 G6 O4 P1
    assert coach.plus_ones(1, seen, "plus")
    text = "".join(out)
    assert text.count("stop: keep the +1s") == 2  # asked twice: spent one, kept the other
    menus = text.split("spend a +1?")
    first = re.search(r"  \d+\. \+1: (\w+) (\d) -> ([^:]+): ([\d.]+)", menus[1])
    assert first is not None
    assert (coach.sheet[L.S_PLUS_GOT], coach.sheet[L.S_PLUS_USED]) == (2, 1)
    assert f"+1: {first.group(1)} {first.group(2)} ->" not in menus[2]  # once per die


@pytest.mark.slow
def test_heuristic_beats_the_published_tuned_expectimax(values):
    """The heuristic's strength target: over 10,000 solo games its 95% interval lies
    above 183.8, the tuned expectimax bot's published mean on the same rules."""
    run = simulation.simulate(GAME, {**values, "players": 1}, ["heuristic"], 10_000, seed=2026,
                   progress=False)
    assert run.headline["policies"]["heuristic"]["ci95"][0] > 183.8


def test_open_points_reach_the_cli():
    """14.4-14.6 and the tie-break are rule parameters a what-if can vary."""
    result = CliRunner().invoke(cli, [
        "thats-pretty-clever", "whatif", "--players", "2", "--games", "200", "--quiet",
        "--policy", "greedy", "--vary", "ties=shared", "--vary", "bonus_order=earliest_first",
        "--vary", "action_overflow=kept", "--format", "json"])
    assert result.exit_code == 0, result.output
    variants = {row["variant"] for row in json.loads(result.output)["tables"]["variants"]}
    assert len(variants) == 4
    bad = CliRunner().invoke(cli, ["thats-pretty-clever", "simulate", "--set",
                                   "solo_ties=closest"])
    assert bad.exit_code == 2 and "one of random, colour_order" in bad.output
