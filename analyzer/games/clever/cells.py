"""The Clever score sheets box by box: where each printed box sits on a picture of the
sheet, its label, and how often and how early a policy marks it (from the games' record of
the boxes marked by each round's end, ``kernels.clever.play.LOG_CELLS``).

Boxes are numbered as the kernels' ``layout.CELL_*`` arrays number them; the picture is
in box units, column ``x`` to the right and ``row`` downwards, each area under its name.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from analyzer import stats
from kernels.clever import play
from kernels.clever_base.sheet import TAC

PRINTED = "X"  # the label of a box printed crossed (That's Pretty Clever's yellow)


def _tpc_cells(layout) -> list[dict[str, Any]]:
    cells = []
    for i in range(16):
        value = int(layout.YELLOW_VALUES[i])
        cells.append({"area": "yellow", "x": i % 4, "row": i // 4,
                      "label": str(value) if value else PRINTED})
    blue_at = {s: (1 + k, 0) for k, s in enumerate((2, 3, 4))}
    blue_at.update({s: (k, r) for r, sums in ((1, (5, 6, 7, 8)), (2, (9, 10, 11, 12)))
                    for k, s in enumerate(sums)})
    for s in range(2, 13):
        x, r = blue_at[s]
        cells.append({"area": "blue", "x": 5 + x, "row": r, "label": str(s)})
    tracks = (("green", [f">={m}" for m in layout.GREEN_MIN]),
              ("orange", [f"x{m}" if m > 1 else "" for m in layout.ORANGE_MULTIPLIER]),
              ("purple", [""] * layout.TRACK))
    for k, (area, labels) in enumerate(tracks):
        cells += [{"area": area, "x": i, "row": 5 + 2 * k, "label": labels[i]}
                  for i in range(layout.TRACK)]
    return cells


def _tac_cells(layout) -> list[dict[str, Any]]:
    rows = ("yellow", "blue", "green", "pink")
    cells = [{"area": "silver", "x": v, "row": r, "label": f"{rows[r][0]}{v + 1}"}
             for r in range(4) for v in range(6)]
    for state, left in (("circled", 7), ("crossed", 12)):
        cells += [{"area": f"yellow {state}", "x": left + int(layout.YELLOW_CELL_COL[i]),
                   "row": int(layout.YELLOW_CELL_ROW[i]),
                   "label": str(int(layout.YELLOW_VALUES[i]))}
                  for i in range(layout.YELLOW_CELLS)]
    tracks = (("blue", [""] * layout.TRACK),
              ("green", [f"x{m}" for m in layout.GREEN_MULTIPLIER]),
              ("pink", [f">={m}" if m else "" for m in layout.PINK_MIN]))
    for k, (area, labels) in enumerate(tracks):
        cells += [{"area": area, "x": i, "row": 6 + 2 * k, "label": labels[i]}
                  for i in range(layout.TRACK)]
    return cells


def sheet_cells(game) -> pd.DataFrame:
    """The game's boxes in kernel order: area, x, row (picture position) and label."""
    layout = game.layout
    cells = _tac_cells(layout) if game.kernel_game == TAC else _tpc_cells(layout)
    assert len(cells) == layout.N_CELLS
    return pd.DataFrame(cells)


def cell_rows(game, name: str, row: np.ndarray, rounds: int) -> list[dict[str, Any]]:
    """How the policy ``name`` (accumulator ``row``) marks each box: the share of games
    with it marked at the end (95% interval), the mean round it was marked in (of the
    games that marked it) and the first round by whose end half the games have it (all
    NaN for a box printed crossed)."""
    games = float(row[play.COL_GAMES])
    logged = min(rounds, play.LOG_ROUNDS)
    start = play.COL_LOG + play.LOG_CELLS
    by_round = row[start:start + logged * play.MAX_CELLS].reshape(logged, play.MAX_CELLS)
    out = []
    for c, cell in sheet_cells(game).iterrows():
        if cell["label"] == PRINTED:  # not the player's to mark: no share, no round
            out.append({"policy": name, "cell": c, **cell.to_dict(), "marked": math.nan,
                        "ci95_low": math.nan, "ci95_high": math.nan,
                        "mean_round": math.nan, "half_by_round": None})
            continue
        counts = by_round[:, c].astype(np.float64)
        marked = counts[-1]
        new = np.diff(counts, prepend=0.0)
        mean_round = float((np.arange(1, logged + 1) * new).sum() / marked) if marked \
            else math.nan
        half = np.flatnonzero(counts >= games / 2)
        low, high = stats.proportion_ci95(games, marked)
        out.append({"policy": name, "cell": c, **cell.to_dict(),
                    "marked": marked / games, "ci95_low": low, "ci95_high": high,
                    "mean_round": mean_round,
                    "half_by_round": int(half[0]) + 1 if len(half) else None})
    return out
