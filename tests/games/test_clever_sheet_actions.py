"""A sheet file is a position with every bonus resolved (docs/sheet-format.md): each
action track holds the actions its marks earned (rules pages: That's Pretty Clever
sections 3, 9 and 10; Twice As Clever sections 3, 5 and 9) and no more than those and the
round track in force give."""

import json

import pytest
from click.testing import CliRunner

from analyzer.cli import cli

TPC, TAC = "thats-pretty-clever", "twice-as-clever"
NONE = {"unlocked": 0, "used": 0}


def score(tmp_path, game_id, doc, *args):
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(doc))
    return CliRunner().invoke(cli, [game_id, "sheet", "--score", str(path), "--format",
                                    "json", *args])


def refused(result, field, needle):
    lines = result.stderr.splitlines()
    assert result.exit_code == 2 and len(lines) == 1, result.output
    assert f"field '{field}'" in lines[0] and needle in lines[0], lines[0]


def test_a_full_purple_track_holds_its_two_re_rolls_and_two_plus_ones(tmp_path):
    """TPC section 9: purple slots 3 and 8 give a re-roll, 5 and 11 a +1."""
    doc = {"format": "dicelab-tpc-sheet/1", "purple": [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5]}
    refused(score(tmp_path, TPC, doc), "rerolls.unlocked", "the marks earned 2 re-rolls")
    doc.update(rerolls={"unlocked": 2, "used": 2}, plus_ones={"unlocked": 2, "used": 0})
    result = score(tmp_path, TPC, doc)
    assert result.exit_code == 0 and json.loads(result.output)["foxes"] == 1


def test_no_more_actions_than_the_marks_and_the_round_track_give(tmp_path):
    """TPC section 3: the round track gives 2 re-rolls and a +1 at most; with its re-roll
    bonuses switched off, an empty sheet holds none."""
    doc = {"format": "dicelab-tpc-sheet/1", "rerolls": {"unlocked": 7, "used": 0}}
    refused(score(tmp_path, TPC, doc), "rerolls.unlocked", "expected 0 to 2")
    doc["rerolls"] = {"unlocked": 1, "used": 0}
    assert score(tmp_path, TPC, doc).exit_code == 0
    off = ["--set", "round_1_bonus=false", "--set", "round_3_bonus=false"]
    refused(score(tmp_path, TPC, doc, *off), "rerolls.unlocked", "expected 0 to 0")


def test_twice_as_clever_returns_follow_the_blue_track(tmp_path):
    """TAC section 9: blue slot 2 gives a return; section 3: round 3 another."""
    doc = {"format": "dicelab-tac-sheet/1", "blue": [9, 8], "returns": NONE}
    refused(score(tmp_path, TAC, doc), "returns.unlocked", "the marks earned 1 return and")
    doc["returns"] = {"unlocked": 2, "used": 1}
    assert score(tmp_path, TAC, doc).exit_code == 0
    doc["returns"] = {"unlocked": 3, "used": 1}
    refused(score(tmp_path, TAC, doc), "returns.unlocked", "expected 1 to 2")


@pytest.mark.parametrize("game_id", [TPC, TAC])
def test_a_blank_sheet_holds_no_action_it_did_not_earn(tmp_path, game_id):
    from analyzer.registry import get_game

    doc = get_game(game_id).load().GAME.sheetfile.blank()
    assert score(tmp_path, game_id, doc).exit_code == 0
    doc["plus_ones"] = {"unlocked": 2, "used": 0}
    refused(score(tmp_path, game_id, doc), "plus_ones.unlocked", "expected 0 to 1")
