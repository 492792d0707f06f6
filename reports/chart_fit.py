"""A drawn chart fitted to the size its axes end up with once laid out.

How category names fit under the x axis, where a legend can stand without covering data,
and how far apart the names at the lines' ends must be depend on the axes' final size,
known only after the page (or the PNG's constrained layout) has placed them. Charts
register these parts while they are drawn (:func:`categories`, :func:`end_label`); then
:func:`settle` lays the axes out, fits every part and lays out again until nothing moves.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

import numpy as np
from matplotlib.axes import Axes  # noqa: E402  (after the backend is chosen)
from matplotlib.cbook import STEP_LOOKUP_MAP  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.legend import Legend  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.text import Text  # noqa: E402
from matplotlib.transforms import Bbox, ScaledTranslation  # noqa: E402

from reports.layout import wrap
from reports.style import text_width_pt

GUIDE = "guide"  # gid of reference lines and separators, which a legend may cover
END_LABEL = "end-label"  # gid of the names at the lines' ends
BESIDE = "legend-beside"  # gid of a legend placed beside the axes
TICK_PT = (8.0, 7.5)  # sizes tried for category names, largest first (none under 7.5 pt)
TICK_GAP = 0.5  # em of space kept between neighbouring category names
TICK_LINES = 8  # lines an upright category name may take
TICK_ROOM = 1.2 * 72  # points a name turned on its side may run
LINE_HEIGHT = 1.2  # matplotlib's line height, in font sizes
INSIDE = ("upper right", "upper left", "lower right", "lower left", "center right",
          "center left", "upper center", "lower center")  # legend places tried, in order
LEGEND_CLEARANCE = 2.0  # points kept between a legend and the data


@dataclass
class _Ticks:
    names: list[str]
    stage: int = 0  # the first layout of _layouts still tried (layouts only get denser)
    pitch: float = math.inf  # the least room between categories met so far, in points
    shown: tuple = field(default_factory=tuple)  # (labels, size, rotation) applied


_TICKS: WeakKeyDictionary[Axes, _Ticks] = WeakKeyDictionary()


def categories(ax: Axes, names: list[str]) -> None:
    """Category ``names`` at x = 0, 1, ... under ``ax``; turned on their side for now,
    taking little width (:func:`settle` fits them)."""
    _TICKS[ax] = _Ticks(list(names))
    _apply(ax, _TICKS[ax], (list(names), TICK_PT[-1], 90.0))
    ax.grid(False, axis="x")


def end_label(ax: Axes, x: float, y: float, name: str) -> Text:
    """A line's ``name`` just right of its last point ``(x, y)``; :func:`settle` moves the
    names apart vertically so that none overlaps another."""
    return ax.text(x, y, name, transform=_nudged(ax, 0.0), va="center", ha="left",
                   fontsize=7.5, clip_on=False, gid=END_LABEL)


def settle(ax: Axes, relayout: Callable[[], None]) -> None:
    """Lay ``ax`` out with ``relayout`` (e.g. fit it to its slot, or draw its figure), then
    fit its category names, end labels and legend to its size, laying it out again
    after any change, until nothing changes."""
    relayout()
    for _ in range(5):
        changed = fit_ticks(ax)
        changed = _space_end_labels(ax) or changed
        if changed:
            relayout()
        moved = clear_legend(ax)
        if moved:
            relayout()
        if not (changed or moved):
            return


# --- category names --------------------------------------------------------------------
def _pitch_pt(ax: Axes) -> float:
    """Points between neighbouring categories on the x axis."""
    left, right = ax.get_xlim()
    width = ax.get_window_extent().width * 72.0 / ax.figure.dpi
    return width / max(abs(right - left), 1e-9)


def _whole(lines: list[str], text: str) -> bool:
    """Whether ``lines`` hold every word of ``text`` unbroken."""
    return " ".join(lines).split() == text.split()


def _upright(names: list[str], width: float, size: float) -> list[str] | None:
    """Each name wrapped within ``width`` points; None if a word is wider, or a label
    taller than ``TICK_LINES`` lines."""
    labels = []
    for name in names:
        lines = wrap(name, width, size)
        if not _whole(lines, name) or len(lines) > TICK_LINES:
            return None
        labels.append("\n".join(lines))
    return labels


def _shortened(name: str, size: float, most: int) -> list[str]:
    """A name longer than ``TICK_ROOM`` broken at spaces onto at most ``most`` lines of
    about equal length, when that shortens it by a quarter or more; else whole."""
    full = text_width_pt(name, size)
    if most < 2 or full <= TICK_ROOM:
        return [name]
    width = full / most
    while width < full:
        lines = wrap(name, width / 0.98, size)
        if len(lines) <= most and _whole(lines, name):
            widest = max(text_width_pt(line, size) for line in lines)
            return lines if widest <= 0.75 * full else [name]
        width *= 1.05
    return [name]


def _turned(names: list[str], size: float, most: int) -> list[str]:
    """Labels to turn on their side, of at most ``most`` lines where a long name can be
    shortened so."""
    return ["\n".join(_shortened(name, size, most)) for name in names]


def _layouts(ticks: _Ticks, pitch: float) -> list[Callable[[], tuple | None]]:
    """The layouts tried, sparest first: upright at each size of ``TICK_PT``, then turned;
    the last, every few names turned, always fits."""
    names = ticks.names

    def upright(size: float) -> Callable[[], tuple | None]:
        return lambda: _fitting(_upright(names, pitch - TICK_GAP * size, size), size, 0.0,
                                pitch)

    small = TICK_PT[-1]  # turned, the smallest size: more lines, so shorter names
    most = _lines_across(pitch, small)
    return ([upright(s) for s in TICK_PT]
            + [lambda: _fitting(_turned(names, small, most), small, 90.0, pitch)]
            + [lambda: _thinned(names, pitch)])


def _fitting(labels: list[str] | None, size: float, rotation: float,
             pitch: float) -> tuple | None:
    """``(labels, size, rotation)`` if labels turned by ``rotation`` stand apart at
    ``pitch`` points (upright ones are already fitted), else None."""
    if labels is None:
        return None
    lines = max((label.count("\n") + 1 for label in labels), default=1)
    if rotation and lines > _lines_across(pitch, size):
        return None
    return labels, size, rotation


def _lines_across(pitch: float, size: float) -> int:
    """How many lines a label turned on its side may have at ``pitch`` points between
    categories (a line is a size high, the next ``LINE_HEIGHT`` sizes further)."""
    return int(((pitch / size - TICK_GAP) - 1.0) // LINE_HEIGHT) + 1


def _thinned(names: list[str], pitch: float) -> tuple:
    """Every few names turned on their side, as many as stand apart at ``pitch``."""
    size = TICK_PT[-1]
    step = math.ceil((1.0 + TICK_GAP) * size / max(pitch, 1e-9))
    return [n if i % step == 0 else "" for i, n in enumerate(names)], size, 90.0


def _apply(ax: Axes, ticks: _Ticks, shown: tuple) -> bool:
    """Show ``(labels, size, rotation)``; whether that changed anything."""
    if shown == ticks.shown:
        return False
    labels, size, rotation = shown
    ax.set_xticks(range(len(labels)), labels)
    ax.tick_params(axis="x", labelsize=size, labelrotation=rotation)
    ticks.shown = shown
    return True


def fit_ticks(ax: Axes) -> bool:
    """Lay out the category names of ``ax`` for its current width: the sparest layout
    whose names do not collide (never one sparer than chosen before, nor for more room
    than met before, so that fitting settles); whether the names changed."""
    ticks = _TICKS.get(ax)
    if ticks is None:
        return False
    ticks.pitch = min(ticks.pitch, _pitch_pt(ax))
    layouts = _layouts(ticks, ticks.pitch)
    for stage in range(ticks.stage, len(layouts)):
        shown = layouts[stage]()
        if shown is not None:
            ticks.stage = stage
            return _apply(ax, ticks, shown)
    return False


# --- end labels ------------------------------------------------------------------------
def _nudged(ax: Axes, points: float) -> object:
    """Data coordinates moved 4 points right and ``points`` up."""
    return ax.transData + ScaledTranslation(4 / 72, points / 72, ax.figure.dpi_scale_trans)


def _spread(ys: list[float], gap: float, top: float) -> list[float]:
    """Ascending ``ys`` moved apart to at least ``gap``: upwards, then down from ``top``
    where that pushed them above it."""
    out: list[float] = []
    for y in ys:
        out.append(max(y, out[-1] + gap) if out else y)
    for i in range(len(out) - 1, -1, -1):
        ceiling = top if i == len(out) - 1 else out[i + 1] - gap
        out[i] = min(out[i], ceiling)
    return out


def _space_end_labels(ax: Axes) -> bool:
    """Move the end labels of ``ax`` apart by a line (in points, at the axes' current
    size); whether any moved."""
    texts = sorted((t for t in ax.texts if t.get_gid() == END_LABEL),
                   key=lambda t: t.get_position()[1])
    if len(texts) < 2:
        return False
    per_pt = ax.figure.dpi / 72.0
    ys = [ax.transData.transform(t.get_position())[1] / per_pt for t in texts]
    gap = max(LINE_HEIGHT * t.get_fontsize() for t in texts)
    top = ax.get_window_extent().y1 / per_pt - gap / 2  # the highest stays inside
    moved = False
    for text, y, placed in zip(texts, ys, _spread(ys, gap, top)):
        old = text.get_transform()
        new = _nudged(ax, placed - y)
        moved = moved or abs(_shift(old, ax) - _shift(new, ax)) > 0.25
        text.set_transform(new)
    return moved


def _shift(transform: object, ax: Axes) -> float:
    """Vertical display offset a transform adds to data coordinates."""
    return float(transform.transform((0.0, 0.0))[1] - ax.transData.transform((0.0, 0.0))[1])


# --- legends ---------------------------------------------------------------------------
def legend_beside(ax: Axes, title: str) -> Legend:
    """A legend to the right of the axes, its top level with theirs."""
    legend = ax.legend(title=title, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    legend.set_gid(BESIDE)
    return legend


def data_shapes(ax: Axes) -> tuple[list[np.ndarray], list[Bbox]]:
    """What a legend must not cover, in display units: line segments (lines, error bars,
    as ``(n, 2, 2)`` arrays) and boxes (markers, bars, texts)."""
    renderer = ax.figure.canvas.get_renderer()
    segments: list[np.ndarray] = []
    boxes: list[Bbox] = []
    for line in ax.lines:
        if line.get_visible() and line.get_gid() != GUIDE:
            more_segments, more_boxes = _line_shapes(line)
            segments += more_segments
            boxes += more_boxes
    for coll in ax.collections:
        if isinstance(coll, LineCollection) and coll.get_visible():
            transform = coll.get_transform()
            segments += [_pairs(transform.transform(s)) for s in coll.get_segments()]
    boxes += [p.get_window_extent(renderer) for p in ax.patches if p.get_visible()]
    boxes += [t.get_window_extent(renderer) for t in ax.texts
              if t.get_visible() and t.get_text().strip()]
    return segments, boxes


def _pairs(points: np.ndarray) -> np.ndarray:
    """Consecutive points as segments, those with a missing end left out."""
    seg = np.stack([points[:-1], points[1:]], axis=1)
    return seg[np.isfinite(seg).all(axis=(1, 2))]


def _line_shapes(line: Line2D) -> tuple[list[np.ndarray], list[Bbox]]:
    """A line's drawn segments (steps as drawn) and its markers' boxes, in display units."""
    xy = np.asarray(line.get_xydata(), dtype=float)
    transform = line.get_transform()
    segments, boxes = [], []
    if line.get_linestyle() not in ("None", "none", "", " ") and len(xy) > 1:
        stepped = STEP_LOOKUP_MAP[line.get_drawstyle()](*xy.T)
        segments.append(_pairs(transform.transform(np.column_stack(stepped))))
    if line.get_marker() not in (None, "None", "none", "", " "):
        r = line.get_markersize() * line.figure.dpi / 72.0 / 2 + line.get_markeredgewidth()
        points = transform.transform(xy)
        boxes = [Bbox([[x - r, y - r], [x + r, y + r]]) for x, y in points
                 if math.isfinite(x) and math.isfinite(y)]
    return segments, boxes


def covers(box: Bbox, segments: list[np.ndarray], boxes: list[Bbox]) -> bool:
    """Whether ``box`` overlaps any of ``boxes`` or crosses any segment."""
    if any(box.overlaps(b) for b in boxes):
        return True
    return any(_crosses(box, seg) for group in segments for seg in group)


def _crosses(box: Bbox, seg: np.ndarray) -> bool:
    """Whether segment ``seg`` (``[[x0, y0], [x1, y1]]``) passes through ``box``
    (Liang-Barsky clipping)."""
    (x0, y0), (x1, y1) = seg
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in ((-dx, x0 - box.x0), (dx, box.x1 - x0), (-dy, y0 - box.y0), (dy, box.y1 - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def clear_legend(ax: Axes) -> bool:
    """Put the legend of ``ax`` in the first place inside the axes (``INSIDE``) where it
    covers no data, or else beside the axes; whether it moved beside them."""
    legend = ax.get_legend()
    if legend is None or legend.get_gid() == BESIDE:
        return False
    renderer = ax.figure.canvas.get_renderer()
    shapes = data_shapes(ax)
    pad = LEGEND_CLEARANCE * ax.figure.dpi / 72.0
    for loc in INSIDE:
        legend.set_loc(loc)
        box = legend.get_window_extent(renderer)
        inside = ax.bbox.padded(0.5).contains(box.x0, box.y0) and \
            ax.bbox.padded(0.5).contains(box.x1, box.y1)
        if inside and not covers(box.padded(pad), *shapes):
            return False
    legend_beside(ax, legend.get_title().get_text())
    return True
