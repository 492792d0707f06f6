"""``dicelab GAME take``: a choice marked on a sheet file as the coach enters it, the sheet
written back in the documented format (``docs/sheet-format.md``), and the sheet documents
read and written back unchanged."""

import json

import pytest
from click.testing import CliRunner

from analyzer.cli import cli
from analyzer.games.thats_pretty_clever.model import GAME as TPC
from analyzer.games.twice_as_clever.model import GAME as TAC
from tests.games.sheet_files import sheet_file

TPC_SHEET = {"format": "dicelab-tpc-sheet/1", "yellow": [[1, 1], [2, 2], [3, 3], [4, 4]],
             "blue": [5, 7, 9], "green": 4, "orange": [4, 5, 6, 10], "purple": [2, 4, 6, 3],
             "rerolls": {"unlocked": 5, "used": 2}, "plus_ones": {"unlocked": 3, "used": 1}}
TAC_SHEET = {"format": "dicelab-tac-sheet/1",
             "silver": {"yellow": [3], "blue": [1, 4], "green": [], "pink": [6]},
             "yellow": {"circled": [[1, 2], [2, 1]], "crossed": [[1, 2]]},
             "blue": [9, 7], "green": [4, 6], "pink": [5, 2],
             "rerolls": {"unlocked": 1, "used": 0}, "plus_ones": {"unlocked": 0, "used": 0},
             "returns": {"unlocked": 0, "used": 0}}


@pytest.mark.parametrize("game, doc", [(TPC, TPC_SHEET), (TAC, TAC_SHEET)],
                         ids=["tpc", "tac"])
def test_a_sheet_document_is_written_back_as_it_was_read(game, doc):
    assert game.sheetfile.to_document(game.sheetfile.to_kernel(doc)) == doc
    blank = game.sheetfile.blank()
    assert game.sheetfile.to_document(game.sheetfile.to_kernel(blank)) == blank


def _take(game, path, choice, *extra):
    return CliRunner().invoke(cli, [game.id, "take", "--sheet", str(path), "--roll",
                                    "W3 Y5 B2 G6 O4 P1", "--choice", choice, *extra])


def test_a_pick_is_entered_with_its_sum_and_nothing_else(tmp_path):
    """Section 'Blue': blue 2 with the white 3 writes the sum 5."""
    result = _take(TPC, sheet_file(TPC, tmp_path), "blue 2 -> blue 2+3 = 5")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {**TPC.sheetfile.blank(), "blue": [5]}


def test_a_re_roll_spends_one_from_the_track_and_marks_nothing(tmp_path):
    path = sheet_file(TPC, tmp_path, rerolls={"unlocked": 1, "used": 0})
    out = tmp_path / "after.json"
    result = _take(TPC, path, "re-roll", "-o", str(out), "--round", "2")
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["rerolls"] == {"unlocked": 1, "used": 1}
    assert json.loads(out.read_text())["blue"] == []


def test_a_choice_not_in_the_position_is_one_line_naming_those_that_are(tmp_path):
    result = _take(TPC, sheet_file(TPC, tmp_path), "blue 7")
    assert result.exit_code == 2
    assert "no choice 'blue 7' in this position; accepted: " in result.output
    assert "blue 2 -> blue 2+3 = 5" in result.output and len(result.output.splitlines()) == 1
