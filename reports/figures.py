"""Charts of :class:`analyzer.sections.Figure` specifications.

:func:`plot_into` draws a specification on existing axes (the PDF report uses it to
keep charts as vector graphics on its pages), then :func:`reports.chart_fit.settle`
fits its category names, end labels and legend to the size the axes end up with;
:func:`draw_figure` does both for a stand-alone matplotlib figure and :func:`save_png`
writes it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes  # noqa: E402  (after the backend is chosen)
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.figure import Figure as MplFigure  # noqa: E402
from matplotlib.font_manager import FontProperties  # noqa: E402
from matplotlib.ticker import FuncFormatter, MaxNLocator  # noqa: E402

from analyzer.sections import Figure  # noqa: E402
from reports.chart_fit import (GUIDE, INSIDE, categories, end_label,  # noqa: E402
                               legend_beside, settle)
from reports.layout import wrap  # noqa: E402
from reports.sheet_picture import aspect, check_sheet, draw_sheet  # noqa: E402
from reports.style import PNG_DPI, PNG_SIZE, series_style, style_context  # Agg first

KINDS = ("bar", "dot", "line", "step", "sheet")
LEGEND_WRAP = 26  # characters per legend line
_SINGLE = "__single_series__"


def validate_figure(spec: Figure) -> None:
    """Check that ``spec`` can be drawn.

    Parameters
    ----------
    spec : analyzer.sections.Figure
        The chart specification.

    Raises
    ------
    ValueError
        Unknown ``kind``, data that is not a DataFrame, or a named column that is
        missing from the data.
    """
    if spec.kind not in KINDS:
        raise ValueError(f"figure {spec.name!r}: unknown kind {spec.kind!r}, "
                         f"expected one of {KINDS}")
    if not isinstance(spec.data, pd.DataFrame):
        raise ValueError(f"figure {spec.name!r}: data must be a pandas DataFrame")
    if (spec.err_low is None) != (spec.err_high is None):
        raise ValueError(f"figure {spec.name!r}: give both err_low and err_high, or neither")
    for col in (spec.x, spec.y, spec.series, spec.err_low, spec.err_high):
        if col is not None and col not in spec.data.columns:
            raise ValueError(f"figure {spec.name!r}: column {col!r} not in data")
    if spec.kind == "sheet":
        check_sheet(spec)


def _ordered(values: pd.Series) -> list[Any]:
    """Distinct values: category order, numeric order, or order of first appearance."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        present = set(values.dropna())
        return [c for c in values.cat.categories if c in present]
    uniq = list(pd.unique(values.dropna()))
    if pd.api.types.is_numeric_dtype(values.dtype) and not pd.api.types.is_bool_dtype(values.dtype):
        return sorted(uniq)
    return uniq


def _label(value: Any) -> str:
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return f"{value:g}"
    return str(value)


def _words(spec: Figure, value: Any) -> str:
    """The plain description of a code name (``spec.labels``), or ``""``."""
    return spec.labels.get(value, spec.labels.get(_label(value), ""))


def _shown(spec: Figure, value: Any) -> str:
    """What a person reads for a value: its plain description (``spec.labels``) where
    there is one, never beside the code name; else the value itself."""
    return _words(spec, value) or _label(value)


def _legend_label(spec: Figure, value: Any) -> str:
    """The value as a person reads it (``_shown``), wrapped for the legend."""
    text = _shown(spec, value)
    return "\n".join(textwrap.wrap(text, LEGEND_WRAP)) or text


def _groups(spec: Figure) -> list[tuple[str, pd.DataFrame]]:
    """(legend label, rows) per series; a single unnamed group when ``series`` is None."""
    df = spec.data
    if spec.series is None:
        return [(_SINGLE, df)]
    return [(_legend_label(spec, v), df[df[spec.series] == v])
            for v in _ordered(df[spec.series])]


def _yerr(rows: pd.DataFrame, spec: Figure) -> np.ndarray | None:
    """Error-bar lengths ``[y - low, high - y]`` from the interval ends, or None."""
    if spec.err_low is None or spec.err_high is None:
        return None
    y = rows[spec.y].to_numpy(dtype=float)
    low = rows[spec.err_low].to_numpy(dtype=float)
    high = rows[spec.err_high].to_numpy(dtype=float)
    # clip tiny negative lengths from rounding; NaN stays NaN (no bar drawn)
    return np.clip(np.vstack([y - low, high - y]), 0.0, None)


def _draw_groups(ax: Axes, spec: Figure) -> list[str]:
    """Grouped bars (``kind="bar"``) or points (``"dot"``): one group per x value."""
    cats = _ordered(spec.data[spec.x])
    pos = {c: i for i, c in enumerate(cats)}
    groups = _groups(spec)
    width = 0.8 / max(len(groups), 1)
    for i, (label, rows) in enumerate(groups):
        if rows[spec.x].duplicated().any():
            raise ValueError(f"figure {spec.name!r}: repeated {spec.x!r} value within a series")
        st = series_style(i)
        xs = rows[spec.x].map(pos).to_numpy(dtype=float) + (i - (len(groups) - 1) / 2) * width
        ys = rows[spec.y].to_numpy(dtype=float)
        yerr = _yerr(rows, spec)
        label = None if label == _SINGLE else label
        if spec.kind == "dot":
            ax.errorbar(xs, ys, yerr=yerr, fmt=st["marker"], color=st["color"],
                        markerfacecolor="white" if i % 2 else st["color"], markersize=5,
                        elinewidth=1.0, capsize=2.0, label=label, zorder=3)
            continue
        ax.bar(xs, ys, width=width, color=st["fill"], hatch=st["hatch"], edgecolor="black",
               linewidth=0.6, label=label, zorder=2)
        if yerr is not None:
            ax.errorbar(xs, ys, yerr=yerr, fmt="none", ecolor="black", elinewidth=0.8,
                        capsize=min(3.0, 40 * width / max(len(cats), 1) + 1), zorder=3)
    categories(ax, [_shown(spec, c) for c in cats])
    if spec.kind == "dot":
        for edge in range(1, len(cats)):  # thin separators between the groups
            ax.axvline(edge - 0.5, color="0.8", linewidth=0.5, zorder=0, gid=GUIDE)
        ax.set_xlim(-0.5, len(cats) - 0.5)
    return [g[0] for g in groups]


def _x_positions(spec: Figure) -> tuple[dict[Any, float] | None, list[str]]:
    """Mapping of non-numeric x values to positions (None when x is numeric)."""
    col = spec.data[spec.x]
    if pd.api.types.is_numeric_dtype(col.dtype) and not pd.api.types.is_bool_dtype(col.dtype):
        return None, []
    cats = _ordered(col)
    return {c: float(i) for i, c in enumerate(cats)}, [_label(c) for c in cats]


def _draw_lines(ax: Axes, spec: Figure) -> list[str]:
    mapping, labels = _x_positions(spec)
    groups = _groups(spec)
    ends: list[tuple[float, float, str]] = []  # (x, y, name) of each line's last point
    for i, (label, rows) in enumerate(groups):
        st = series_style(i)
        if mapping is None:
            rows = rows.sort_values(spec.x)
            xs = rows[spec.x].to_numpy(dtype=float)
        else:
            xs = rows[spec.x].map(mapping).to_numpy(dtype=float)
        ys = rows[spec.y].to_numpy(dtype=float)
        kwargs = {"color": st["color"], "linestyle": st["linestyle"], "marker": st["marker"],
                  "markevery": max(1, len(xs) // 15),
                  "markerfacecolor": "white" if i % 2 else st["color"],
                  "label": None if label == _SINGLE else label}
        if spec.kind == "step":
            ax.step(xs, ys, where="mid", linewidth=1.3, markersize=3.5, **kwargs)
        else:
            ax.plot(xs, ys, **kwargs)
            if len(xs) and spec.series is not None:
                ends.append((xs[-1], ys[-1], _label(rows[spec.series].iloc[0])))
        yerr = _yerr(rows, spec)
        if yerr is not None:
            ax.errorbar(xs, ys, yerr=yerr, fmt="none", ecolor=st["color"], elinewidth=0.7,
                        capsize=2.0 if len(xs) <= 30 else 0.0)
    if mapping is not None:
        categories(ax, labels)
    elif pd.api.types.is_integer_dtype(spec.data[spec.x].dtype):
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if spec.kind == "step":
        ax.set_ylim(bottom=0)
    if mapping is None and 1 < len(ends) <= 6:
        _end_labels(ax, ends)
    return [g[0] for g in groups]


def _end_labels(ax: Axes, ends: list[tuple[float, float, str]]) -> None:
    """Name every line just right of its last point, in room added at the right of the
    axes, when all lines end at the right edge (a name at an earlier end would stand on
    the lines that go on; the legend names those)."""
    last = max(x for x, _, _ in ends)
    if any(x < last for x, _, _ in ends):
        return
    left, right = ax.get_xlim()
    ax.set_xticks([t for t in ax.get_xticks() if left <= t <= right])  # none in the room
    ax.set_xlim(left, right + 0.15 * (right - left))
    for x, y, name in ends:
        end_label(ax, x, y, name)  # moved apart once the axes have their size (settle)


def _percent_tick(signed: bool) -> Any:
    """Tick text of a share: ``12.5%``; ``+1.5%`` on axes that go below zero."""
    def tick(value: float, _pos: Any) -> str:
        pct = round(100 * value, 6)
        return "0%" if pct == 0 else f"{pct:{'+' if signed else ''}g}%"
    return tick


def _title(spec: Figure, width: int, width_pt: float | None) -> str:
    """The chart's title wrapped to ``width`` characters, or to ``width_pt`` points at the
    title's size and weight."""
    if width_pt is None:
        lines = textwrap.wrap(spec.title, width)
    else:
        size = FontProperties(size=mpl.rcParams["axes.titlesize"]).get_size_in_points()
        lines = wrap(spec.title, width_pt, size, weight=mpl.rcParams["axes.titleweight"])
    return "\n".join(lines) or spec.name


def plot_into(ax: Axes, spec: Figure, *, title_width: int = 70,
              title_pt: float | None = None) -> None:
    """Draw ``spec`` on ``ax``: data, title, axis labels, legend and grid; once the axes
    are laid out, :func:`reports.chart_fit.settle` fits names and legend to their size.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
        Target axes, created inside :func:`reports.style.style_context`.
    spec : analyzer.sections.Figure
        The chart specification.
    title_width : int
        Wrap the title at this many characters.
    title_pt : float, optional
        Wrap the title to this many points instead, measured glyph by glyph (the width
        the title has on a page).

    Raises
    ------
    ValueError
        If the specification cannot be drawn (see :func:`validate_figure`).
    """
    validate_figure(spec)
    if spec.kind == "sheet" and not spec.data.empty:
        draw_sheet(ax, spec)
        ax.set_title(_title(spec, title_width, title_pt))
        return
    if spec.data.empty:
        ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes)
        labels: list[str] = []
    elif spec.kind in ("bar", "dot"):
        labels = _draw_groups(ax, spec)
    else:
        labels = _draw_lines(ax, spec)
    if spec.ref_line is not None:
        ax.axhline(spec.ref_line, color="black", linewidth=1.0, zorder=1.5, gid=GUIDE)
    if spec.percent:
        signed = bool((pd.to_numeric(spec.data[spec.y], errors="coerce") < 0).any())
        ax.yaxis.set_major_formatter(FuncFormatter(_percent_tick(signed)))
    ax.set_title(_title(spec, title_width, title_pt))
    ax.set_xlabel(spec.xlabel or spec.x)
    ax.set_ylabel(spec.ylabel or spec.y)
    title = (spec.series or "").replace("_", " ")
    if len(labels) > 4 or any("\n" in s or "(" in s for s in labels):
        legend_beside(ax, title)  # a big or wordy legend would hide data
    elif len(labels) > 1:  # inside for now: settle finds it a place clear of the data
        ax.legend(title=title, loc=INSIDE[0])


def draw_figure(fig: Figure) -> MplFigure:
    """A stand-alone matplotlib figure of one chart specification.

    Parameters
    ----------
    fig : analyzer.sections.Figure
        Chart specification: ``kind`` is ``"bar"``, ``"dot"``, ``"line"`` or ``"step"``.

    Returns
    -------
    matplotlib.figure.Figure
        A figure not registered with pyplot (nothing to close; it is freed when
        no longer referenced).

    Raises
    ------
    ValueError
        If the specification cannot be drawn.
    """
    validate_figure(fig)
    size = PNG_SIZE if fig.kind != "sheet" else (PNG_SIZE[0], PNG_SIZE[0] * aspect(fig) + 0.6)
    with style_context():
        out = MplFigure(figsize=size, layout="constrained")
        FigureCanvasAgg(out)  # a renderer for measuring text while settling
        ax = out.add_subplot()
        plot_into(ax, fig)
        settle(ax, out.draw_without_rendering)
    return out


def save_png(fig: MplFigure, path: Path) -> None:
    """Write ``fig`` as a PNG at :data:`reports.style.PNG_DPI` (150 dpi).

    Parameters
    ----------
    fig : matplotlib.figure.Figure
        The figure, e.g. from :func:`draw_figure`.
    path : pathlib.Path
        Output file; its folder is created if missing.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with style_context():
        fig.savefig(path, format="png", dpi=PNG_DPI, facecolor="white")


def save_pngs(figures: list[Figure], folder: Path) -> None:
    """Draw each figure and write it as ``folder/<name>.png`` (``save_png``)."""
    for fig in figures:
        save_png(draw_figure(fig), Path(folder) / f"{fig.name}.png")
