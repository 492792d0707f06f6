"""Reading a Clever game's JSON score sheet (each game's ``sheetfile`` module defines its
format and ``to_kernel``), and the score of a kernel sheet by area."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analyzer.games.clever.game import CleverGame
from analyzer.errors import UserError
from analyzer.files import read_document
from analyzer.output import Result
from kernels.clever import sheets
from kernels.clever_base.sheet import FOX_FIXED_SHIFT, H_FLAGS, H_FOXES


class FieldReader:
    """Validation of a sheet document's fields, with errors naming the file and field."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, field: str, problem: str) -> UserError:
        return UserError(f"sheet {self.source}: field '{field}': {problem}")

    def whole(self, value: Any, field: str, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(field, f"{value!r} is not a whole number from {low} to {high}")
        return value

    def list(self, value: Any, field: str, most: int, what: str = "numbers") -> list:
        """A JSON list of at most ``most`` entries."""
        if not isinstance(value, list) or len(value) > most:
            raise self.fail(field, f"expected a list of at most {most} {what}")
        return value

    def document(self, data: Any, fmt: str, fields: dict[str, Any], layout: Any,
                 flags: int) -> np.ndarray:
        """A blank kernel sheet of ``layout`` with the rule ``flags`` (``S_FLAGS``), once
        the document is checked to be an object of ``fmt`` with only the ``fields``
        known."""
        if not isinstance(data, dict):
            raise UserError(f"sheet {self.source}: expected a JSON object with the field "
                            "'format'")
        if data.get("format") != fmt:
            raise self.fail("format", f"expected {fmt!r}")
        unknown = set(data) - set(fields)
        if unknown:
            raise self.fail(sorted(unknown)[0], f"unknown field; accepted: "
                                                f"{', '.join(fields)}")
        sheet = layout.new_sheet()
        sheet[layout.S_FLAGS] = flags
        return sheet

    def add(self, mask: int, bit: int, field: str, entry: Any) -> int:
        """``mask`` with ``bit`` set; a listed cell given twice is an error (it would
        silently count once)."""
        if (mask >> bit) & 1:
            raise self.fail(field, f"{entry!r} is listed twice")
        return mask | (1 << bit)

    def actions(self, data: dict[str, Any], key: str, most: int) -> tuple[int, int]:
        """An action track ``{"unlocked": n, "used": m}``: (unlocked, used)."""
        actions = data.get(key, {"unlocked": 0, "used": 0})
        if not isinstance(actions, dict) or set(actions) - {"unlocked", "used"}:
            raise self.fail(key, "expected {\"unlocked\": n, \"used\": m}")
        got = self.whole(actions.get("unlocked", 0), f"{key}.unlocked", 0, most)
        return got, self.whole(actions.get("used", 0), f"{key}.used", 0, got)


def read(game: CleverGame, path: str | Path, values: dict[str, Any]) -> np.ndarray:
    """The kernel sheet of a sheet file of ``game``, carrying the flags of the rule
    ``values``; a ``UserError`` naming the problem."""
    data = read_document(path, "sheet file", json.loads, json.JSONDecodeError, "JSON",
                         "small whole numbers (docs/sheet-format.md)",
                         "an object of lists (docs/sheet-format.md)")
    sheet = game.sheetfile.to_kernel(data, repr(str(path)), game.sheet_flags(values))
    check_actions(game, sheet, values, FieldReader(repr(str(path))))
    return sheet


START_OF_TRACK = {"rerolls": lambda values: values["start_rerolls"],  # circled at the start
                  "plus_ones": lambda values: values["start_plus_ones"]}


def check_actions(game: CleverGame, sheet: np.ndarray, values: dict[str, Any],
                  reader: FieldReader) -> None:
    """Each action track holds every action the marks earned and those circled at the
    start (a sheet is a position with every bonus resolved; beyond the printed circles
    they are lost) and no more than those and the round track in force give."""
    files = game.sheetfile
    slots = game.layout.ACTION_SLOTS
    played = min(game.rounds_for(values), len(game.layout.ROUND_BONUS))
    track = [files.kind_of(code) for code in game.game_rules(values)[:played] if code > 0]
    earned = [files.kind_of(code) for code in files.earned_bonuses(sheet)]
    for kind, (key, got, _) in files.ACTION_OF_KIND.items():
        count, start = earned.count(kind), START_OF_TRACK.get(key, lambda v: 0)(values)
        least, most = min(count + start, slots), count + start + track.count(kind)
        if not least <= sheet[got] <= most:
            what = {"rerolls": "re-roll", "plus_ones": "+1 action", "returns": "return"}[key]
            raise reader.fail(f"{key}.unlocked", f"{sheet[got]}, but the marks earned "
                                                 f"{count} {what}{'s' * (count != 1)}"
                                                 f"{f', the start {start},' if start else ''}"
                                                 " and the round track gives at most "
                                                 f"{track.count(kind)}: expected {least} to "
                                                 f"{most}")


def blank_document(game: CleverGame, values: dict[str, Any]) -> dict[str, Any]:
    """A blank sheet document of ``game`` under the rule ``values``: its action tracks
    hold the actions every player starts with."""
    doc = game.sheetfile.blank()
    for key, start in START_OF_TRACK.items():
        doc[key] = {"unlocked": start(values), "used": 0}
    return doc


def score_result(game: CleverGame, sheet: np.ndarray) -> Result:
    """Per-area scores, foxes and the total of a sheet (section 'Foxes and end scoring')."""
    names = game.layout.AREA_NAMES
    scores = np.zeros(len(names), np.int64)
    sheets.area_scores(sheet, scores)
    total = int(sheets.total_score(sheet))
    foxes = int(sheet[H_FOXES])
    rows = [{"area": name, "score": int(scores[a])} for a, name in enumerate(names)]
    fox_points = total - int(scores.sum())
    rows.append({"area": f"foxes ({foxes} x {fox_points // foxes if foxes else 0})",
                 "score": fox_points})
    return Result(f"{game.title} sheet score",
                  headline={"total": total, "foxes": foxes,
                            "areas": {n: int(scores[a]) for a, n in enumerate(names)}},
                  tables={"score": pd.DataFrame(rows)},
                  notes=[fox_words(game, sheet)])


def fox_words(game: CleverGame, sheet: np.ndarray) -> str:
    """What each fox of ``sheet`` is worth, in words: the lowest area's score, or the fixed
    points of ``fox_value`` its flags carry."""
    fixed = int(sheet[H_FLAGS]) >> FOX_FIXED_SHIFT
    if fixed:
        return f"each fox is worth {fixed} points, whatever the areas score (fox_value={fixed})"
    return "each fox is worth the lowest area score; nothing if any area is 0" + game.fox_note
