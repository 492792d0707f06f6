"""That's Pretty Clever: the sheet arrays of ``kernels.thats_pretty_clever.layout`` checked
cell by cell against ``docs/clever-layouts.json`` (key
``games.thats_pretty_clever``, index_base 0), the machine-readable form of
``docs/rules/thats-pretty-clever.md`` sections 2, 3, 8 and 10."""

import json
from pathlib import Path

import numpy as np
import pytest

from kernels.thats_pretty_clever import layout as L
from kernels.thats_pretty_clever.layout import bonus

JSON_PATH = Path(__file__).resolve().parents[2] / "docs/clever-layouts.json"

DOC = json.loads(JSON_PATH.read_text())
GAME = DOC["games"]["thats_pretty_clever"]
AREAS = GAME["areas"]


def code(b) -> int:
    """A JSON bonus object as a layout bonus code (``kind * 8 + value``)."""
    if b is None:
        return L.NO_BONUS
    t, area = b["type"], b.get("area")
    if t == "reroll":
        return bonus(L.REROLL)
    if t == "plus_one":
        return bonus(L.PLUS_ONE)
    if t == "fox":
        return bonus(L.FOX)
    if t == "cross_any" and area == "yellow":
        return bonus(L.CROSS_YELLOW)
    if t == "cross_any" and area == "blue":
        return bonus(L.CROSS_BLUE)
    if t == "cross_next" and area == "green":
        return bonus(L.CROSS_GREEN)
    if t == "write_next" and area == "orange":
        return bonus(L.WRITE_ORANGE, b["value"])
    if t == "write_next" and area == "purple":
        return bonus(L.WRITE_PURPLE, b["value"])
    raise ValueError(f"no layout code for bonus {b!r}")


def _ycell(rc) -> int:
    r, c = rc
    return r * 4 + c


def _ymask(cells) -> int:
    return sum(1 << _ycell(rc) for rc in cells)


def _bmask(values) -> int:
    return sum(1 << (v - 2) for v in values)


def _groups(area, kind):
    return [g for g in AREAS[area]["groups"] if g["kind"] == kind]


def _ints(a):
    return [int(x) for x in a]


# --- schema ---------------------------------------------------------------------------------

def test_json_is_zero_based_and_areas_present():
    assert DOC["index_base"] == 0
    assert list(AREAS) == list(L.AREA_NAMES)
    assert GAME["dice"] == list(L.DIE_NAMES)
    assert len(GAME["dice"]) == L.N_DICE
    assert GAME["wild_die"] == L.DIE_NAMES[L.WHITE]


def test_translator():
    assert code(None) == 0
    assert code({"type": "reroll"}) == 8 * L.REROLL
    assert code({"type": "write_next", "area": "orange", "value": 4}) == 8 * L.WRITE_ORANGE + 4
    with pytest.raises(ValueError):
        code({"type": "choice", "options": []})


# --- 8.1 yellow -----------------------------------------------------------------------------

def test_yellow_cells_cell_by_cell():
    y = AREAS["yellow"]
    assert (y["kind"], y["rows"], y["cols"]) == ("cross_grid", 4, 4)
    assert L.YELLOW_VALUES.shape == (16,)
    for r in range(4):
        for c in range(4):
            v = y["cells"][r][c]
            i = r * 4 + c
            if v is None:  # pre-printed cross: value 0 and marked on a new sheet
                assert L.YELLOW_VALUES[i] == 0, (r, c)
                assert (L.YELLOW_PREPRINTED >> i) & 1, (r, c)
            else:
                assert L.YELLOW_VALUES[i] == v, (r, c)
                assert not (L.YELLOW_PREPRINTED >> i) & 1, (r, c)
    assert L.new_sheet()[L.S_YELLOW] == L.YELLOW_PREPRINTED


def test_yellow_each_value_twice():
    vals = [v for row in AREAS["yellow"]["cells"] for v in row if v is not None]
    for v in range(1, 7):
        assert vals.count(v) == 2
        assert int((L.YELLOW_VALUES == v).sum()) == 2


def test_yellow_rows_and_bonuses():
    rows = _groups("yellow", "row")
    assert len(rows) == 4 and len(L.YELLOW_ROWS) == 4
    for r, g in enumerate(rows):
        assert L.YELLOW_ROWS[r] == _ymask(g["cells"]), r
        assert L.YELLOW_ROW_BONUS[r] == code(g["bonus"]), r
        assert "points" not in g


def test_yellow_columns_and_points():
    cols = _groups("yellow", "column")
    assert len(cols) == 4 and len(L.YELLOW_COLS) == 4
    for c, g in enumerate(cols):
        assert L.YELLOW_COLS[c] == _ymask(g["cells"]), c
        assert L.YELLOW_COL_POINTS[c] == g["points"], c
        assert "bonus" not in g
    assert int(L.YELLOW_COL_POINTS.sum()) == AREAS["yellow"]["max_points"] == 60


def test_yellow_diagonal():
    (diag,) = _groups("yellow", "diagonal")
    assert L.YELLOW_DIAGONAL == _ymask(diag["cells"])
    assert L.YELLOW_DIAGONAL_BONUS == code(diag["bonus"])
    assert [int(L.YELLOW_VALUES[_ycell(rc)]) for rc in diag["cells"]] == [3, 1, 2, 6]


def test_yellow_has_no_other_groups():
    assert sorted(g["kind"] for g in AREAS["yellow"]["groups"]) == \
        ["column"] * 4 + ["diagonal"] + ["row"] * 4
    assert AREAS["yellow"]["scoring"]["method"] == "sum_of_completed_group_points"


# --- 8.2 blue -------------------------------------------------------------------------------

def test_blue_cells_cell_by_cell():
    b = AREAS["blue"]
    assert (b["kind"], b["value_source"], b["rows"], b["cols"]) == \
        ("cross_grid", "blue_plus_white", 3, 4)
    sums = []
    for r in range(3):
        for c in range(4):
            v = b["cells"][r][c]
            if v is None:
                assert (r, c) == (0, 0)
            else:
                sums.append(v)
    assert sorted(sums) == list(range(2, 13))
    assert L.BLUE_CELLS == _bmask(sums) == (1 << 11) - 1


def test_blue_rows_and_bonuses():
    rows = _groups("blue", "row")
    assert len(rows) == 3 and len(L.BLUE_ROWS) == len(L.BLUE_ROW_BONUS) == 3
    for r, g in enumerate(rows):
        printed = [v for v in AREAS["blue"]["cells"][r] if v is not None]
        assert g["values"] == printed, r
        assert L.BLUE_ROWS[r] == _bmask(g["values"]), r
        assert L.BLUE_ROW_BONUS[r] == code(g["bonus"]), r


def test_blue_columns_and_bonuses():
    cols = _groups("blue", "column")
    assert len(cols) == 4 and len(L.BLUE_COLS) == len(L.BLUE_COL_BONUS) == 4
    for c, g in enumerate(cols):
        printed = [AREAS["blue"]["cells"][r][c] for r in range(3)
                   if AREAS["blue"]["cells"][r][c] is not None]
        assert g["values"] == printed, c
        assert L.BLUE_COLS[c] == _bmask(g["values"]), c
        assert L.BLUE_COL_BONUS[c] == code(g["bonus"]), c
    assert len(AREAS["blue"]["groups"]) == 7


def test_blue_points_table():
    s = AREAS["blue"]["scoring"]
    assert s["method"] == "count_table"
    assert _ints(L.BLUE_POINTS) == s["points_by_count"]
    assert L.BLUE_POINTS[-1] == AREAS["blue"]["max_points"] == 56


# --- 8.3 green ------------------------------------------------------------------------------

def test_green_thresholds_bonuses_points():
    g = AREAS["green"]
    assert g["kind"] == "threshold_track" and g["size"] == L.TRACK == 11
    assert _ints(L.GREEN_MIN) == g["min_value"]
    assert len(L.GREEN_BONUS) == len(g["cell_bonuses"]) == 11
    for i, b in enumerate(g["cell_bonuses"]):
        assert L.GREEN_BONUS[i] == code(b), i
    assert g["scoring"]["method"] == "count_table"
    assert _ints(L.GREEN_POINTS) == g["scoring"]["points_by_count"]
    assert L.GREEN_POINTS[-1] == g["max_points"] == 66


# --- 8.4 orange -----------------------------------------------------------------------------

def test_orange_multipliers_and_bonuses():
    o = AREAS["orange"]
    assert o["kind"] == "write_track" and o["size"] == L.TRACK
    assert _ints(L.ORANGE_MULTIPLIER) == o["multipliers"]
    assert len(L.ORANGE_BONUS) == len(o["cell_bonuses"]) == 11
    for i, b in enumerate(o["cell_bonuses"]):
        assert L.ORANGE_BONUS[i] == code(b), i
    assert o["scoring"]["method"] == "sum_of_written_values"
    assert 6 * int(L.ORANGE_MULTIPLIER.sum()) == o["max_points"] == 96


# --- 8.5 purple -----------------------------------------------------------------------------

def test_purple_bonuses():
    p = AREAS["purple"]
    assert p["kind"] == "ascending_track" and p["size"] == L.TRACK
    assert p["constraint"] == "strictly_greater_than_previous_unless_previous_is_6"
    assert p["reset_value"] == 6
    assert len(L.PURPLE_BONUS) == len(p["cell_bonuses"]) == 11
    for i, b in enumerate(p["cell_bonuses"]):
        assert L.PURPLE_BONUS[i] == code(b), i
    assert 6 * L.TRACK == p["max_points"] == 66


# --- 9 fox sources --------------------------------------------------------------------------

def test_five_fox_sources():
    fox = bonus(L.FOX)
    on_sheet = (int((L.YELLOW_ROW_BONUS == fox).sum()) + int((L.BLUE_ROW_BONUS == fox).sum())
                + int((L.BLUE_COL_BONUS == fox).sum()) + int((L.GREEN_BONUS == fox).sum())
                + int((L.ORANGE_BONUS == fox).sum()) + int((L.PURPLE_BONUS == fox).sum()))
    assert on_sheet == len(GAME["fox_sources"]) == 5
    assert L.YELLOW_ROW_BONUS[3] == fox and L.BLUE_ROW_BONUS[2] == fox
    assert L.GREEN_BONUS[6] == L.ORANGE_BONUS[7] == L.PURPLE_BONUS[6] == fox


# --- 2, 3 rounds; 10 action tracks ----------------------------------------------------------

def test_rounds_by_player_count():
    table = GAME["rounds_by_player_count"]
    assert sorted(int(k) for k in table) == [1, 2, 3, 4]
    assert len(L.ROUNDS_BY_PLAYERS) == 5
    for players, rounds in table.items():
        assert L.ROUNDS_BY_PLAYERS[int(players)] == rounds, players
    assert GAME["solo"]["rounds"] == L.ROUNDS_BY_PLAYERS[1]


def test_round_bonuses_and_round4_choice():
    rb = GAME["round_bonuses"]
    assert len(rb) == len(L.ROUND_BONUS) == 6
    for i, b in enumerate(rb):
        if b is not None and b["type"] == "choice":
            assert L.ROUND_BONUS[i] == -1, i
            assert _ints(L.ROUND4_OPTIONS) == [code(o) for o in b["options"]]
        else:
            assert L.ROUND_BONUS[i] == code(b), i
    assert rb[3]["type"] == "choice" and len(rb[3]["options"]) == 5


def test_action_tracks():
    tracks = GAME["action_tracks"]
    assert sorted(tracks) == ["plus_one", "reroll"]
    for t in tracks.values():
        assert t["slots"] == L.ACTION_SLOTS == 7
        assert t["last_slot_bonus"] is None


def test_new_sheet_is_blank_apart_from_preprinted_crosses():
    sheet = L.new_sheet()
    assert sheet.dtype == np.int64 and sheet.shape == (L.SHEET_LEN,)
    assert L.SHEET_LEN >= L.S_PURPLE_VALUES + L.TRACK
    expected = np.zeros(L.SHEET_LEN, np.int64)
    expected[L.S_YELLOW] = L.YELLOW_PREPRINTED
    assert np.array_equal(sheet, expected)
