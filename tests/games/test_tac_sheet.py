"""Twice As Clever: the sheet arrays of ``kernels.twice_as_clever.layout`` checked cell by
cell against ``docs/clever-layouts.json`` (key ``games.twice_as_clever``,
index_base 0), the machine-readable form of ``docs/rules/twice-as-clever.md`` sections
2, 3, 5 and 8."""

import json
from pathlib import Path

import numpy as np
import pytest

from kernels.twice_as_clever import layout as L

JSON_PATH = Path(__file__).resolve().parents[2] / "docs/clever-layouts.json"

GAME = json.loads(JSON_PATH.read_text())["games"]["twice_as_clever"]
AREAS = GAME["areas"]
KINDS = {"reroll": L.REROLL, "plus_one": L.PLUS_ONE, "return": L.RETURN, "fox": L.FOX,
         "question_any": L.Q_ANY}
QUESTIONS = {"silver": L.Q_SILVER, "yellow": L.Q_YELLOW, "blue": L.Q_BLUE,
             "green": L.Q_GREEN, "pink": L.Q_PINK}


def code(b) -> int:
    """A JSON bonus object as a layout bonus code."""
    if b is None:
        return L.NO_BONUS
    if b["type"] == "question":
        return QUESTIONS[b["area"]]
    return KINDS[b["type"]]


def codes(bonuses) -> list[int]:
    return [code(b) for b in bonuses]


def test_dice_areas_and_rounds():
    """1-3: the six dice, the five areas, rounds by player count and round bonuses."""
    assert list(L.DIE_NAMES) == GAME["dice"]
    assert set(L.AREA_NAMES) == set(AREAS)
    assert [int(x) for x in L.ROUNDS_BY_PLAYERS[1:]] == [
        GAME["rounds_by_player_count"][str(p)] for p in range(1, 5)]
    assert [int(x) for x in L.ROUND_BONUS] == codes(GAME["round_bonuses"])


def test_action_tracks():
    """5: three tracks of 6 circles; the 6th pays fox / pink ? / silver ?."""
    tracks = GAME["action_tracks"]
    assert {t["slots"] for t in tracks.values()} == {L.ACTION_SLOTS}
    assert [code(tracks[k]["last_slot_bonus"]) for k in ("reroll", "return", "plus_one")] \
        == [L.FOX, L.Q_PINK, L.Q_SILVER]


def test_silver_grid():
    """8.1: rows yellow, blue, green, pink; column bonuses by number; row scoring."""
    silver = AREAS["silver"]
    assert silver["rows"] == [L.DIE_NAMES[d] for d in range(1, 5)]
    assert [int(L.SILVER_ROW_OF_DIE[d]) for d in range(1, 5)] == [0, 1, 2, 3]
    assert [int(x) for x in L.SILVER_COLUMN_BONUS] == codes(silver["column_bonuses_by_value"])
    assert [int(x) for x in L.SILVER_POINTS] == silver["scoring"]["points_by_count"]
    assert L.SILVER_ROWS * int(L.SILVER_POINTS[-1]) == silver["max_points"]


def test_yellow_lattice_cell_by_cell():
    """8.2: the ten cells (value, row, column), the row and column groups with their
    bonuses, and the crossed-cell count table."""
    yellow = AREAS["yellow"]
    for cell in yellow["cells"]:
        i = cell["id"]
        assert (int(L.YELLOW_VALUES[i]), int(L.YELLOW_CELL_ROW[i]),
                int(L.YELLOW_CELL_COL[i])) == (cell["value"], cell["row"], cell["col"])
    assert len(yellow["cells"]) == L.YELLOW_CELLS
    groups = [(sum(1 << c for c in g["cells"]), code(g["bonus"])) for g in yellow["groups"]]
    assert sorted(groups) == sorted(zip(L.YELLOW_GROUPS.tolist(),
                                        L.YELLOW_GROUP_BONUS.tolist()))
    assert [int(x) for x in L.YELLOW_POINTS] == yellow["scoring"]["points_by_count"]


@pytest.mark.parametrize("area,bonus,extra", [
    ("blue", L.BLUE_BONUS, None), ("green", L.GREEN_BONUS, L.GREEN_MULTIPLIER),
    ("pink", L.PINK_BONUS, L.PINK_MIN)])
def test_tracks_slot_by_slot(area, bonus, extra):
    """8.3-8.5: 12 slots each; slot bonuses; green multipliers and pairs; pink minimums."""
    data = AREAS[area]
    assert data["size"] == L.TRACK
    assert [int(x) for x in bonus] == codes(data["cell_bonuses"])
    if area == "green":
        assert [int(x) for x in extra] == data["multipliers"]
        assert data["pairs"] == [[2 * i, 2 * i + 1] for i in range(6)]
    if area == "pink":
        assert [int(x) for x in extra] == [m or 0 for m in data["bonus_min_value"]]
    if area == "blue":
        assert [int(x) for x in L.BLUE_POINTS] == data["scoring"]["points_by_count"]


def test_fox_sources_count():
    """7: six foxes exist: silver 3, yellow column 4, blue 9, green 7, pink 8, re-roll 6th."""
    where = (int((L.SILVER_COLUMN_BONUS == L.FOX).sum()) + int((L.YELLOW_GROUP_BONUS == L.FOX)
             .sum()) + int((L.BLUE_BONUS == L.FOX).sum()) + int((L.GREEN_BONUS == L.FOX).sum())
             + int((L.PINK_BONUS == L.FOX).sum()) + 1)
    assert where == len(GAME["fox_sources"]) == 6
    assert np.nonzero(L.BLUE_BONUS == L.FOX)[0].tolist() == [8]


def test_both_clever_games_number_white_and_blue_alike():
    """4 (both games, section 7 of the base game): the blue sum is read from the same dice
    ids on either sheet (``kernels.clever_base.dice``)."""
    from kernels.clever_base import dice
    from kernels.thats_pretty_clever import layout as TPC

    assert (L.WHITE, L.BLUE) == (TPC.WHITE, TPC.BLUE) == (dice.WHITE, dice.BLUE)
