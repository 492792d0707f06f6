"""A one-page A4 strategy card from a :class:`analyzer.sections.CheatSheet`.

Blocks are laid out in two columns, in reading order (down the left column, then the
right); a block whose table is too wide for a column, or too long to sit comfortably
in one, spans the page width. Long tables are cut into row chunks placed side by
side. The body font size is the largest (9 pt down to ``MIN_PT``) at which everything
fits on the single page; no text on a card is smaller than ``MIN_PT``. A sheet picture
(``CheatSheet.figure``, ``reports.sheet_picture``) goes across the page above the
blocks, with its caption and reading.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass
from pathlib import Path

from matplotlib.figure import Figure as MplFigure  # noqa: E402  (after the Agg backend)
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from analyzer.files import write_output
from analyzer.sections import Block, CheatSheet, Figure
from reports.layout import cell_table, col_widths, fixed_lines, wrap
from reports.sheet_picture import aspect, draw_sheet
from reports.style import A4_PORTRAIT, MONO, MONO_ADVANCE, SANS, TEXT_GREY, style_context

PAGE_W, PAGE_H = A4_PORTRAIT[0] * 72.0, A4_PORTRAIT[1] * 72.0  # points
MARGIN, GUTTER, BLOCK_GAP, PAD = 32.0, 12.0, 8.0, 4.0  # points
MIN_PT = 7.5  # the smallest text on a card
SIZES = [9.0 - 0.25 * i for i in range(7)]  # body sizes tried, 9 pt down to MIN_PT
TEXT_LEAD, TABLE_LEAD = 1.25, 1.22
MIN_CHUNK_ROWS = 12
PICTURE_SHARE = 0.30  # the most of the page's height a sheet picture takes
_NUMBER = re.compile(r"^[-+]?[\d.,]+%?$")


@dataclass
class _Box:
    """A block measured at one font size for one width (all lengths in points)."""

    block: Block
    width: float
    size: float
    lines: list[str]
    table: list[str]  # monospace lines: header, rule, rows
    chunks: int  # side-by-side row chunks of the table
    chunk_w: float
    height: float


def _sizes(size: float) -> tuple[float, float]:
    """Heading and table font sizes for a body ``size``."""
    return size + 1.5, max(size - 0.5, MIN_PT)


def _measure(block: Block, width: float, size: float) -> _Box | None:
    """Lay ``block`` out in ``width`` points; None if its table cannot fit the width."""
    head, tsize = _sizes(size)
    inner = width - 2 * PAD
    lines = [ln for item in block.lines for ln in wrap(str(item), inner, size, hang="  ")]
    table: list[str] = []
    chunks, chunk_w, table_h = 0, 0.0, 0.0
    if block.table is not None and len(block.table.columns):
        headers, rows, _ = cell_table(block.table, max_cell=40)
        right = [all(_NUMBER.match(r[j]) for r in rows if r[j]) and bool(rows)
                 for j in range(len(headers))]
        table = fixed_lines(headers, rows, right)
        chunk_w = (sum(col_widths(headers, rows)) + 2 * (len(headers) - 1)) * MONO_ADVANCE * tsize
        gap = 2.5 * MONO_ADVANCE * tsize
        max_chunks = int((inner + gap) // (chunk_w + gap))
        if max_chunks < 1:
            return None
        chunks = max(1, min(max_chunks, math.ceil(len(rows) / MIN_CHUNK_ROWS)))
        per_chunk = math.ceil(len(rows) / chunks) if rows else 0
        table_h = (2 + per_chunk) * tsize * TABLE_LEAD + 2
    height = PAD + head * 1.45 + PAD + len(lines) * size * TEXT_LEAD + PAD
    if table:
        height += table_h + (PAD if lines else 0)
    return _Box(block, width, size, lines, table, chunks, chunk_w, height)


def _split(heights: list[float]) -> int:
    """Index splitting ``heights`` (in order) into two columns of least maximal height."""
    total = sum(heights)
    best, best_h, left = 0, total, 0.0
    for i in range(len(heights) + 1):
        taller = max(left, total - left)
        if taller <= best_h:
            best, best_h = i, taller
        if i < len(heights):
            left += heights[i]
    return best


@dataclass
class _Band:
    """One wide box (``right`` empty, ``wide`` True) or two columns of boxes."""

    left: list[_Box]
    right: list[_Box]
    wide: bool = False

    @property
    def height(self) -> float:
        return max(sum(b.height + BLOCK_GAP for b in col) for col in (self.left, self.right))


def _plan(blocks: list[Block], size: float, avail: float) -> list[_Band] | None:
    """Bands of boxes at body ``size``, or None when they do not fit ``avail`` points."""
    full = PAGE_W - 2 * MARGIN
    col = (full - GUTTER) / 2
    bands: list[_Band] = []
    pending: list[_Box] = []

    def close() -> None:
        if pending:
            i = _split([b.height + BLOCK_GAP for b in pending])
            bands.append(_Band(pending[:i], pending[i:]))
            pending.clear()

    for block in blocks:
        narrow = _measure(block, col, size)
        if narrow is None or (narrow.table and narrow.height > 0.45 * avail):
            wide = _measure(block, full, size)
            if wide is None:
                return None
            close()
            bands.append(_Band([wide], [], wide=True))
        else:
            pending.append(narrow)
    close()
    return bands if sum(b.height for b in bands) - BLOCK_GAP <= avail else None


def _frac(x: float, y: float) -> tuple[float, float]:
    """Points from the top-left corner to figure fractions."""
    return x / PAGE_W, 1 - y / PAGE_H


def _text(fig: MplFigure, x: float, y: float, s: str, size: float, **kw: object) -> None:
    fig.text(*_frac(x, y + size), s, fontsize=size, va="baseline", **kw)


def _rect(fig: MplFigure, x: float, y: float, w: float, h: float, **kw: object) -> None:
    x0, y1 = _frac(x, y + h)
    fig.add_artist(Rectangle((x0, y1), w / PAGE_W, h / PAGE_H, transform=fig.transFigure, **kw))


def _line(fig: MplFigure, x0: float, y0: float, x1: float, y1: float, lw: float) -> None:
    (a, b), (c, d) = _frac(x0, y0), _frac(x1, y1)
    fig.add_artist(Line2D([a, c], [b, d], linewidth=lw, color="black"))


def _draw_box(fig: MplFigure, box: _Box, x: float, y: float) -> None:
    head, tsize = _sizes(box.size)
    band = head * 1.45
    _rect(fig, x, y, box.width, box.height, facecolor="none", edgecolor="black", linewidth=0.7)
    _rect(fig, x, y, box.width, band + PAD, facecolor="0.85", edgecolor="black", linewidth=0.7)
    _text(fig, x + PAD, y + PAD + 0.12 * head, box.block.heading, head, weight="bold", family=SANS)
    cy = y + band + 2 * PAD
    for text_line in box.lines:
        _text(fig, x + PAD, cy, text_line, box.size, family=SANS)
        cy += box.size * TEXT_LEAD
    if not box.table:
        return
    cy += PAD if box.lines else 0
    lead = tsize * TABLE_LEAD
    header, body = box.table[0], box.table[2:]
    per = math.ceil(len(body) / box.chunks) if body else 0
    gap = 2.5 * MONO_ADVANCE * tsize
    for k in range(box.chunks):
        cx = x + PAD + k * (box.chunk_w + gap)
        if k:
            _line(fig, cx - gap / 2, cy, cx - gap / 2, cy + (2 + per) * lead, 0.4)
        _text(fig, cx, cy, header, tsize, family=MONO, weight="bold")
        _line(fig, cx, cy + 1.35 * lead, cx + box.chunk_w, cy + 1.35 * lead, 0.6)
        for i, row in enumerate(body[k * per:(k + 1) * per]):
            ry = cy + (1.6 + i) * lead
            if i % 2:
                _rect(fig, cx - 1, ry - 0.1 * lead, box.chunk_w + 2, lead, facecolor="0.9",
                      edgecolor="none", zorder=-1)
            _text(fig, cx, ry, row, tsize, family=MONO)


def _picture(fig: MplFigure, spec: Figure, y: float, width: float) -> float:
    """Draw the sheet picture ``spec`` across the page from ``y`` down, under its caption
    (at most ``PICTURE_SHARE`` of the page's height); returns the ``y`` below it."""
    for text_line in wrap(spec.title, width, 8.5, weight="bold"):
        _text(fig, MARGIN, y, text_line, 8.5, weight="bold", family=SANS)
        y += 8.5 * 1.25
    height = min(width * aspect(spec), PICTURE_SHARE * PAGE_H)
    ax = fig.add_axes((MARGIN / PAGE_W, 1 - (y + height) / PAGE_H, width / PAGE_W,
                       height / PAGE_H))
    draw_sheet(ax, spec, rounds=False, min_pt=MIN_PT)
    y += height + 2
    for text_line in wrap(spec.reading, width, MIN_PT):
        _text(fig, MARGIN, y, text_line, MIN_PT, color=TEXT_GREY, family=SANS)
        y += MIN_PT * 1.3
    return y + BLOCK_GAP


def _compose(sheet: CheatSheet) -> MplFigure:
    fig = MplFigure(figsize=A4_PORTRAIT)
    full = PAGE_W - 2 * MARGIN
    y = MARGIN
    for text_line in wrap(sheet.title, full, 20, weight="bold"):
        _text(fig, MARGIN, y, text_line, 20, weight="bold", family=SANS)
        y += 20 * 1.2
    for text_line in wrap(sheet.subtitle, full, 10) if sheet.subtitle.strip() else []:
        _text(fig, MARGIN, y + 2, text_line, 10, color=TEXT_GREY, family=SANS)
        y += 10 * 1.3
    y += 6
    _line(fig, MARGIN, y, PAGE_W - MARGIN, y, 1.0)
    y += 8
    if sheet.figure is not None:
        y = _picture(fig, sheet.figure, y, full)
    foot = wrap(sheet.footer, full, MIN_PT) if sheet.footer.strip() else []
    foot_top = PAGE_H - MARGIN - len(foot) * MIN_PT * 1.3
    for i, text_line in enumerate(foot):
        _text(fig, MARGIN, foot_top + i * MIN_PT * 1.3, text_line, MIN_PT, color=TEXT_GREY,
              family=SANS)
    avail = foot_top - 6 - y
    bands = next((p for s in SIZES if (p := _plan(sheet.blocks, s, avail)) is not None), None)
    if bands is None:
        raise ValueError(f"cheat sheet {sheet.title!r} does not fit on one A4 page "
                         f"even at {SIZES[-1]} pt; shorten its blocks")
    col_x = MARGIN + (full + GUTTER) / 2
    for band in bands:
        for x, column in ((MARGIN, band.left), (col_x, band.right)):
            cy = y
            for box in column:
                _draw_box(fig, box, x, cy)
                cy += box.height + BLOCK_GAP
        y += band.height
    return fig


PNG_DPI = 110  # a card written as a picture (a path ending in .png)


def render_cheatsheet(sheet: CheatSheet, path: Path) -> None:
    """Write ``sheet`` as a single A4 portrait PDF page (a PNG picture of it when ``path``
    ends in .png).

    Parameters
    ----------
    sheet : analyzer.sections.CheatSheet
        Title, subtitle, blocks (text lines and/or a small DataFrame of short
        strings) and footer.
    path : pathlib.Path
        Output PDF, written by :func:`analyzer.files.write_output` once it is whole, as
        shell redirection would (an existing file written through, a new one moved into
        place whole: a failure leaves no partial file).

    Raises
    ------
    ValueError
        If the content does not fit on one page even at the smallest font size.
    """
    path = Path(path)
    out = io.BytesIO()
    with style_context():
        if path.suffix.lower() == ".png":
            _compose(sheet).savefig(out, format="png", dpi=PNG_DPI, facecolor="white")
        else:
            _compose(sheet).savefig(out, format="pdf", metadata={
                "Title": sheet.title, "Creator": "dicelab reports"})
    path.parent.mkdir(parents=True, exist_ok=True)
    write_output(path, out.getvalue())
