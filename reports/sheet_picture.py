"""A picture of a score sheet, box by box (figure kind ``"sheet"``): each box shaded by a
share (white: never, dark grey: always), with its printed label, the share as a percentage
and a second line of text (``"r2.4"``: the mean round it is marked in); a box without a
share (printed crossed) is hatched. Grey levels and text only, so it reads the same in
black and white print."""

from __future__ import annotations

import math

import pandas as pd
from matplotlib.axes import Axes  # noqa: E402  (after the backend is chosen)
from matplotlib.patches import Rectangle  # noqa: E402

from analyzer.sections import Figure

SHEET_COLUMNS = ("row", "label", "mean_round")  # besides the figure's x, y and series
DARKEST = 0.25  # grey level of a box marked in every game
ROUND_SHOWN_FROM = 0.005  # a box marked in fewer games prints "<1%" and no mean round


def check_sheet(spec: Figure) -> None:
    missing = [c for c in SHEET_COLUMNS if c not in spec.data.columns]
    if missing:
        raise ValueError(f"figure {spec.name!r}: a sheet picture needs the columns "
                         f"{', '.join(missing)}")


def shade(share: float) -> float:
    """The grey level (1 white .. ``DARKEST``) of a box marked in ``share`` of games."""
    return 1.0 - (1.0 - DARKEST) * min(max(share, 0.0), 1.0)


LABEL_WIDTH = 0.62  # a label's characters are at most this many font sizes wide
TEXT_HEIGHT = 1.05  # height of a line of text (a size, and a little room), in font sizes
LABEL_TOP, ROUND_BOTTOM = 0.1, 0.92  # where a box's label starts and its mean round ends


def stacked(box_pt: float, big: float, small: float, label: bool,
            mean_round: bool) -> tuple[float, bool, bool]:
    """Where a box's share (``big`` points) is centred, in box heights from its top,
    between its label above and its mean round below (``small`` points), and which of
    those two stay: the round goes first, then the label, where the share lacks room."""
    share, line = TEXT_HEIGHT * big / box_pt, TEXT_HEIGHT * small / box_pt
    for label_on, round_on in ((label, mean_round), (label, False), (False, False)):
        top = LABEL_TOP + line if label_on else 0.06
        bottom = ROUND_BOTTOM - line if round_on else 0.94
        if bottom - top >= share:
            return (top + bottom) / 2, label_on, round_on
    return 0.5, False, False


def label_fits(label: str, size: float, box_pt: float) -> bool:
    """Does the printed ``label`` (a number, a sum, a minimum) at ``size`` points fit
    across a box ``box_pt`` points wide, inside its edges?"""
    return bool(label) and len(label) * LABEL_WIDTH * size <= 0.8 * box_pt


def draw_sheet(ax: Axes, spec: Figure, rounds: bool = True, min_pt: float = 7.5) -> None:
    """Draw the boxes of ``spec.data`` (columns ``spec.x``, ``row``, ``spec.y`` the share,
    ``spec.series`` the area, ``label``, ``mean_round``) on ``ax``, with each box's mean
    round when ``rounds`` (label and round only where they leave the share room,
    :func:`stacked`); no text smaller than ``min_pt``."""
    check_sheet(spec)
    data = spec.data
    width = float(data[spec.x].max()) + 1
    height = float(data["row"].max()) + 1
    fig_w, fig_h = ax.figure.get_size_inches() * 72
    where = ax.get_position()
    box_pt = min(fig_w * where.width / (width + 0.2), fig_h * where.height / (height + 1.0))
    big, small = max(min(0.27 * box_pt, 10.0), min_pt), max(min(0.21 * box_pt, 7.5), min_pt)
    for _, cell in data.iterrows():
        x, y, share = float(cell[spec.x]), float(cell["row"]), float(cell[spec.y])
        if math.isnan(share):  # a box printed on the sheet, not marked in play
            ax.add_patch(Rectangle((x + 0.04, y + 0.04), 0.92, 0.92, facecolor="white",
                                   edgecolor="black", linewidth=0.6, hatch="xx"))
            continue
        grey = shade(share)
        ink = "white" if grey < 0.55 else "black"
        ax.add_patch(Rectangle((x + 0.04, y + 0.04), 0.92, 0.92, facecolor=str(grey),
                               edgecolor="black", linewidth=0.6))
        middle, label, mean_round = stacked(
            box_pt, big, small, label_fits(str(cell["label"]), small, box_pt),
            rounds and share >= ROUND_SHOWN_FROM and not math.isnan(float(cell["mean_round"])))
        if label:
            ax.text(x + 0.1, y + LABEL_TOP, str(cell["label"]), ha="left", va="top",
                    fontsize=small, color=ink)
        shown = "<1%" if 0 < share < ROUND_SHOWN_FROM else f"{share:.0%}"
        ax.text(x + 0.5, y + middle, shown, ha="center", va="center", fontsize=big,
                color=ink, weight="bold")
        if mean_round:
            ax.text(x + 0.5, y + ROUND_BOTTOM, f"r{float(cell['mean_round']):.1f}",
                    ha="center", va="bottom", fontsize=small, color=ink)
    for area, cells in data.groupby(spec.series, sort=False):
        ax.text(float(cells[spec.x].min()) + 0.04, float(cells["row"].min()) - 0.08,
                str(area), ha="left", va="bottom", fontsize=big, weight="bold")
    ax.set_xlim(-0.1, width + 0.1)
    ax.set_ylim(height + 0.1, -0.9)
    ax.set_aspect("equal")
    ax.axis("off")


def aspect(spec: Figure) -> float:
    """Height over width of the picture of ``spec``."""
    data: pd.DataFrame = spec.data
    return (float(data["row"].max()) + 2.0) / (float(data[spec.x].max()) + 1.2)
