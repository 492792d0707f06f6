"""A Clever score sheet as the coach page draws it: every box where the strategy cards'
pictures put it (``analyzer.games.clever.cells``), what clicking it writes in the sheet
document (``docs/sheet-format.md``), the action tracks, the dice and the phases."""

from __future__ import annotations

import functools
from typing import Any

from analyzer.games.clever.advise import PHASES
from analyzer.games.clever.cells import PRINTED, sheet_cells
from analyzer.games.clever.sheetfile import blank_document
from analyzer.params import defaults
from analyzer.registry import get_game
from kernels.clever_base.sheet import TAC

TRACKS = {"rerolls": "re-rolls", "plus_ones": "+1 actions", "returns": "returns"}


def _tpc_edit(layout, area: str, k: int, label: str) -> dict[str, Any]:
    if area == "yellow":
        return ({"kind": "printed"} if label == PRINTED else
                {"kind": "toggle", "field": "yellow", "key": [k // 4 + 1, k % 4 + 1]})
    if area == "blue":
        return {"kind": "toggle", "field": "blue", "key": k + 2}
    if area == "green":
        return {"kind": "count", "field": "green", "slot": k}
    times = int(layout.ORANGE_MULTIPLIER[k]) if area == "orange" else 1
    return {"kind": "write", "field": area, "slot": k,
            "values": [face * times for face in range(1, 7)]}


def _tac_edit(layout, area: str, k: int, label: str) -> dict[str, Any]:
    from analyzer.games.twice_as_clever.text import SILVER_ROW_NAMES

    if area == "silver":
        return {"kind": "toggle", "field": f"silver.{SILVER_ROW_NAMES[k // 6]}",
                "key": k % 6 + 1}
    if area.startswith("yellow"):
        cell = [int(layout.YELLOW_CELL_ROW[k]) + 1, int(layout.YELLOW_CELL_COL[k]) + 1]
        return {"kind": "toggle", "field": "yellow." + area.split()[1], "key": cell}
    values = {"blue": list(range(2, 13)), "pink": list(range(1, 7))}.get(area) or [
        face * int(layout.GREEN_MULTIPLIER[k]) for face in range(1, 7)]
    return {"kind": "write", "field": area, "slot": k, "values": values}


@functools.cache
def sheet_layout(game_id: str) -> dict[str, Any]:
    """What the coach page needs to draw ``game_id``'s sheet and ask about a position."""
    game = get_game(game_id).load().GAME
    edit = _tac_edit if game.kernel_game == TAC else _tpc_edit
    seen: dict[str, int] = {}
    boxes = []
    for _, cell in sheet_cells(game).iterrows():
        k = seen[cell["area"]] = seen.get(cell["area"], -1) + 1
        boxes.append({"area": cell["area"], "x": int(cell["x"]), "row": int(cell["row"]),
                      "label": cell["label"],
                      **edit(game.layout, cell["area"], k, cell["label"])})
    keys = [key for key in TRACKS if key in game.sheetfile.blank()]
    values = defaults(game.params)
    return {"game": game.id, "title": game.title, "boxes": boxes,
            "tracks": [{"field": key, "label": TRACKS[key],
                        "slots": int(game.layout.ACTION_SLOTS)} for key in keys],
            "dice": [{"letter": letter, "name": name} for letter, name in
                     zip(game.letters, game.layout.DIE_NAMES)],
            "phases": [p for p in PHASES if p != "return" or game.has_returns],
            "rounds": {str(n): game.rounds_for({**values, "players": n}) for n in range(1, 5)},
            "blank": blank_document(game, values)}
