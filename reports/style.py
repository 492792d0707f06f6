"""Matplotlib setup shared by every report: backend, A4 geometry and a print style.

Everything drawn here must stay readable when printed in black and white and for
colour-blind readers: series take Okabe-Ito colours of distinct lightness and are told
apart by line style, marker and hatch as well; colour never carries meaning on its own.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless, before anything imports pyplot

from matplotlib import ft2font  # noqa: E402
from matplotlib.font_manager import FontProperties, findfont  # noqa: E402

# --- A4 geometry (inches) -------------------------------------------------------------
A4_PORTRAIT: tuple[float, float] = (8.27, 11.69)
A4_LANDSCAPE: tuple[float, float] = (11.69, 8.27)
PAGE_MARGIN_X = 0.75  # left and right margins of report pages
PAGE_MARGIN_TOP = 0.85
PAGE_MARGIN_BOTTOM = 0.85
PNG_SIZE: tuple[float, float] = (7.5, 4.6)  # stand-alone figure PNGs
PNG_DPI = 150

SANS = "DejaVu Sans"
MONO = "DejaVu Sans Mono"
MONO_ADVANCE = 0.602  # DejaVu Sans Mono glyph advance, in em

# --- per-series styles ------------------------------------------------------------------
# Okabe-Ito colours, safe for the common colour-vision deficiencies, ordered so that
# neighbouring series also differ in lightness (grey levels of the lines: 0, 0.64, 0.34,
# 0.62, 0.47, 0.59, 0.42).
OKABE_ITO = {"black": "#000000", "orange": "#E69F00", "sky blue": "#56B4E9",
             "bluish green": "#009E73", "yellow": "#F0E442", "blue": "#0072B2",
             "vermillion": "#D55E00", "reddish purple": "#CC79A7"}
LINE_COLORS = tuple(OKABE_ITO[c] for c in (  # yellow is too light for a line on white
    "black", "orange", "blue", "sky blue", "vermillion", "reddish purple", "bluish green"))
LINE_STYLES: tuple[Any, ...] = ("-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 3)))
MARKERS = ("o", "s", "^", "D", "v", "P", "X")
# (fill, hatch) of bar series: eight fills of grey level 0.34 to 1.0, each with its own
# hatch (the darkest, first, none: black lines would not show on it).
BAR_STYLES: tuple[tuple[str, str], ...] = (
    (OKABE_ITO["blue"], ""), (OKABE_ITO["orange"], "//"), ("white", ".."),
    (OKABE_ITO["vermillion"], "xx"), (OKABE_ITO["yellow"], "\\\\"),
    (OKABE_ITO["bluish green"], "||"), (OKABE_ITO["sky blue"], "--"),
    (OKABE_ITO["reddish purple"], "++"),
)
GRID_GREY = "0.88"
TEXT_GREY = "0.35"

RC: dict[str, Any] = {
    "font.family": "sans-serif",
    "font.sans-serif": [SANS],
    "font.monospace": [MONO],
    "font.size": 9.0,
    "axes.titlesize": 10.5,
    "axes.titleweight": "bold",
    "axes.labelsize": 9.0,
    "axes.edgecolor": "black",
    "axes.linewidth": 0.8,
    "axes.grid": True,
    "axes.axisbelow": True,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": matplotlib.cycler(color=list(LINE_COLORS)),
    "grid.color": GRID_GREY,
    "grid.linewidth": 0.6,
    "grid.linestyle": "-",
    "xtick.labelsize": 8.0,
    "ytick.labelsize": 8.0,
    "legend.fontsize": 8.0,
    "legend.title_fontsize": 8.0,
    "legend.frameon": True,
    "legend.framealpha": 0.9,
    "legend.edgecolor": "0.6",
    "lines.linewidth": 1.4,
    "lines.markersize": 4.5,
    "hatch.linewidth": 0.6,
    "hatch.color": "black",
    "errorbar.capsize": 2.0,
    "pdf.fonttype": 42,  # embed TrueType, keeps text selectable
    "savefig.facecolor": "white",
}


def style_context() -> Any:
    """A context manager applying :data:`RC` for the duration of a drawing.

    Returns
    -------
    contextlib.AbstractContextManager
        ``matplotlib.rc_context(RC)``; global settings are restored on exit.
    """
    return matplotlib.rc_context(RC)


def series_style(i: int) -> dict[str, Any]:
    """Line colour, line style, marker, bar fill and hatch of the ``i``-th series.

    Line colour, style and marker cycle with lengths 7, 6 and 7, so neighbouring
    series differ in several properties at once; bars take the next of
    :data:`BAR_STYLES` (fill and hatch). All stay distinct in greyscale.

    Parameters
    ----------
    i : int
        Zero-based series index.

    Returns
    -------
    dict
        Keys ``color``, ``linestyle``, ``marker``, ``fill`` and ``hatch``.
    """
    return {
        "color": LINE_COLORS[i % len(LINE_COLORS)],
        "linestyle": LINE_STYLES[i % len(LINE_STYLES)],
        "marker": MARKERS[i % len(MARKERS)],
        "fill": BAR_STYLES[i % len(BAR_STYLES)][0],
        "hatch": BAR_STYLES[i % len(BAR_STYLES)][1],
    }


_NO_HINTING = (ft2font.LoadFlags.NO_HINTING if hasattr(ft2font, "LoadFlags")
               else ft2font.LOAD_NO_HINTING)  # matplotlib < 3.10


@lru_cache(maxsize=4)
def _face(weight: str) -> ft2font.FT2Font:
    face = ft2font.FT2Font(findfont(FontProperties(family=SANS, weight=weight)))
    face.set_size(100.0, 72.0)  # 100 pt at 72 dpi: advances come out in 1/100 em
    return face


@lru_cache(maxsize=8192)
def _advance_em(char: str, weight: str) -> float:
    glyph = _face(weight).load_char(ord(char), flags=_NO_HINTING)
    return glyph.linearHoriAdvance / 65536.0 / 100.0


def text_width_pt(text: str, size: float, *, weight: str = "normal", mono: bool = False) -> float:
    """Width of ``text`` in points when drawn at ``size`` points.

    Sums the unhinted glyph advances of the font (as the PDF backend lays text out;
    kerning is ignored, which changes widths by well under 1%).

    Parameters
    ----------
    text : str
        One line of text.
    size : float
        Font size in points.
    weight : str
        ``"normal"`` or ``"bold"``.
    mono : bool
        Measure in the monospace font instead of the sans-serif one.

    Returns
    -------
    float
        Advance width in points.
    """
    if mono:
        return len(text) * MONO_ADVANCE * size
    return size * sum(_advance_em(ch, weight) for ch in text)
