"""Top-to-bottom placement of text, tables and chart slots on A4 portrait pages.

A :class:`PageFlow` keeps a cursor on the current page and opens a new page whenever
the next item does not fit. Pages are plain matplotlib figures (not registered with
pyplot), kept until :meth:`PageFlow.save` writes them, so that page numbers (and a
contents list built from them) are known before anything is written. Running heads and
page numbers are drawn last (:meth:`PageFlow.finish`): a page's head names every
running head in force while something was placed on it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from matplotlib.axes import Axes  # noqa: E402  (Agg chosen above)
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.figure import Figure as MplFigure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

from reports.layout import fit_line, wrap
from reports.style import (A4_PORTRAIT, MONO, MONO_ADVANCE, PAGE_MARGIN_BOTTOM, PAGE_MARGIN_TOP,
                           PAGE_MARGIN_X, SANS, TEXT_GREY, style_context)

LEADING = 1.3  # line height as a multiple of the font size
HEAD_JOIN = " \u00b7 "  # between the running heads of a page shared by sections
RUNNING_HEAD, PAGE_NUMBER = "running-head", "page-number"  # gids of a page's furniture
PT = 1.0 / 72.0  # inches per point


class PageFlow:
    """Content placed from the top of an A4 portrait page downwards.

    Parameters
    ----------
    running_head : str
        Small grey text at the top of the pages that content placed from now on lands on
        (change it where a section starts; a page shared by two sections names both).
    """

    page_w, page_h = A4_PORTRAIT
    left = PAGE_MARGIN_X
    top = PAGE_MARGIN_TOP
    bottom = A4_PORTRAIT[1] - PAGE_MARGIN_BOTTOM
    width = A4_PORTRAIT[0] - 2 * PAGE_MARGIN_X
    width_pt = width * 72.0

    def __init__(self, running_head: str = "") -> None:
        self.running_head = running_head
        self.pages: list[MplFigure] = []
        self.heads: list[list[str]] = []  # per page, the running heads of its content
        self.finished = 0  # pages whose running head and number are drawn
        self.y = self.bottom  # inches from the top edge; "full" until a page is opened

    # --- pages and space ---------------------------------------------------------------
    @property
    def page_number(self) -> int:
        """One-based number of the current page (0 before the first page)."""
        return len(self.pages)

    @property
    def fig(self) -> MplFigure:
        """The current page."""
        if not self.pages:
            self.new_page()
        return self.pages[-1]

    def new_page(self) -> MplFigure:
        """Open a fresh page and put the cursor at its top."""
        fig = MplFigure(figsize=A4_PORTRAIT)
        FigureCanvasAgg(fig)  # a renderer for measuring text while laying out charts
        self.pages.append(fig)
        self.heads.append([])
        self.y = self.top
        return fig

    def _mark_head(self) -> None:
        """Note the running head in force on the current page (content lands on it)."""
        if self.pages and self.running_head and self.running_head not in self.heads[-1]:
            self.heads[-1].append(self.running_head)

    def space_left(self) -> float:
        """Inches left between the cursor and the bottom margin."""
        return self.bottom - self.y

    def at_top(self) -> bool:
        """Whether nothing has been placed on the current page yet."""
        return bool(self.pages) and self.y <= self.top + 1e-9

    def ensure(self, height: float) -> None:
        """Start a new page unless ``height`` inches fit below the cursor."""
        if not self.pages or (height > self.space_left() and not self.at_top()):
            self.new_page()
        self._mark_head()

    def skip(self, height: float) -> None:
        """Move the cursor down (never past the bottom margin)."""
        self.y = min(self.y + height, self.bottom)

    def _rule(self, fig: MplFigure, y_in: float, lw: float, color: str) -> None:
        y = 1 - y_in / self.page_h
        x0, x1 = self.left / self.page_w, 1 - self.left / self.page_w
        fig.add_artist(Line2D([x0, x1], [y, y], linewidth=lw, color=color))

    def rule(self, lw: float = 0.6, color: str = "black", after: float = 0.12) -> None:
        """A horizontal rule across the text width at the cursor."""
        self.ensure(after)
        self._rule(self.fig, self.y, lw, color)
        self.skip(after)

    # --- text ----------------------------------------------------------------------------
    def line(self, text: str, size: float, *, weight: str = "normal", mono: bool = False,
             color: str = "black", indent: float = 0.0, right: str = "",
             style: str = "normal") -> float:
        """Place one line (no wrapping) and return its top in inches from the page top.

        ``right`` is placed right-aligned on the same line (e.g. a page number).
        """
        height = size * LEADING * PT
        self.ensure(height)
        top = self.y
        fig, x = self.fig, (self.left + indent) / self.page_w
        y = 1 - (top + size * PT) / self.page_h  # baseline one em below the line top
        kw: dict[str, Any] = {"fontsize": size, "color": color, "va": "baseline",
                              "family": MONO if mono else SANS, "style": style}
        fig.text(x, y, text, fontweight=weight, **kw)
        if right:
            fig.text(1 - self.left / self.page_w, y, right, ha="right", **kw)
        self.y += height
        return top

    def text_at(self, text: str, size: float, top: float, *, weight: str = "normal",
                color: str = "black", indent: float = 0.0) -> None:
        """One line whose top is ``top`` inches from the page top, on the current page,
        without moving the cursor (e.g. a left column beside text placed with :meth:`line`)."""
        y = 1 - (top + size * PT) / self.page_h
        self._mark_head()
        self.fig.text((self.left + indent) / self.page_w, y, text, fontsize=size, color=color,
                      va="baseline", family=SANS, fontweight=weight)

    def paragraph(self, text: str, size: float, *, weight: str = "normal",
                  color: str = "black", indent: float = 0.0, after: float = 0.08,
                  style: str = "normal") -> None:
        """Wrapped text (newlines kept), flowing onto new pages as needed."""
        width = self.width_pt - indent * 72.0
        lines = wrap(text, width, size, weight=weight)
        # keep a short paragraph together, and never leave a lone line at a page foot
        self.ensure(min(len(lines), 3) * size * LEADING * PT)
        for text_line in lines:
            self.line(text_line, size, weight=weight, color=color, indent=indent, style=style)
        self.skip(after)

    def mono_table(self, head: list[str], rows: list[list[str]], size: float, *,
                   shade: bool = True, continued: str = "") -> None:
        """A monospace table: ``head`` (the heading's lines and its rule), then ``rows``
        (each row's lines, kept on one page).

        The heading repeats on every continuation page, under ``continued`` (a caption
        such as "Table: X (continued)") when given; every other row gets a light grey
        band as wide as the table, so rows can be followed across in print.
        """
        height = size * LEADING * PT
        band_w = max(len(s) for s in head + [ln for r in rows for ln in r]) * MONO_ADVANCE
        band_w *= size * PT
        first = len(rows[0]) if rows else 0
        self.ensure(height * (len(head) + min(max(first, 4), 12)))
        for text_line in head:
            self.line(text_line, size, mono=True, weight="bold")
        for i, row in enumerate(rows):
            if height * len(row) > self.space_left():
                self.new_page()
                for text_line in wrap(continued, self.width_pt, size + 1) if continued else []:
                    self.line(text_line, size + 1, color=TEXT_GREY, style="italic")
                for h in head:
                    self.line(h, size, mono=True, weight="bold")
            if shade and i % 2 == 1:
                self._band(self.y, height * len(row), band_w)
            for text_line in row:
                self.line(text_line, size, mono=True)

    def _band(self, top: float, height: float, width: float) -> None:
        fig = self.fig
        corner = ((self.left - 0.03) / self.page_w, 1 - (top + height + 0.02) / self.page_h)
        rect = Rectangle(corner, (width + 0.06) / self.page_w, height / self.page_h,
                         transform=fig.transFigure, facecolor="0.92", edgecolor="none", zorder=-1)
        fig.add_artist(rect)

    # --- chart slots -----------------------------------------------------------------------
    def slot(self, height: float) -> tuple[MplFigure, tuple[float, float, float, float]]:
        """Reserve ``height`` inches across the text width.

        Returns
        -------
        tuple
            The page and the slot as ``(left, bottom, right, top)`` figure fractions.
        """
        self.ensure(height)
        height = min(height, self.space_left())
        top = self.y
        self.skip(height)
        w, h = self.page_w, self.page_h
        return self.fig, (self.left / w, 1 - (top + height) / h, 1 - self.left / w, 1 - top / h)

    def fit_axes(self, ax: Axes, rect: tuple[float, float, float, float]) -> None:
        """Size ``ax`` so that it, with its title, tick labels and axis labels, fills
        ``rect`` (``(left, bottom, right, top)`` figure fractions, e.g. from :meth:`slot`).
        """
        left, bottom, right, top = rect
        ax.set_position([left, bottom, right - left, top - bottom])
        renderer = ax.figure.canvas.get_renderer()
        to_fig = ax.figure.transFigure.inverted()
        for _ in range(3):  # tick labels can change as the axes shrink
            pos = ax.get_position()
            tight = ax.get_tightbbox(renderer).transformed(to_fig)
            x0 = left + (pos.x0 - tight.x0)
            y0 = bottom + (pos.y0 - tight.y0)
            x1 = right - (tight.x1 - pos.x1)
            y1 = top - (tight.y1 - pos.y1)
            if x1 - x0 < 0.2:
                break  # degenerate labels; keep the last usable size
            y0 = min(y0, y1 - 0.1)  # names too tall for the slot: keep some height
            if max(abs(x0 - pos.x0), abs(y0 - pos.y0), abs(x1 - pos.x1),
                   abs(y1 - pos.y1)) < 1e-4:
                break  # settled: the labels fit the slot (within 0.01% of the page)
            ax.set_position([x0, y0, x1 - x0, y1 - y0])

    # --- output ----------------------------------------------------------------------------
    def extend(self, other: PageFlow) -> None:
        """Append the pages of ``other`` (not yet finished) after this flow's pages."""
        self.pages.extend(other.pages)
        self.heads.extend(other.heads)

    def finish(self) -> list[MplFigure]:
        """Draw each page's running head (the heads of its content, in order) and its
        number ("page i of n"), once; return every page, ready to save."""
        n = len(self.pages)
        for i in range(self.finished, n):
            fig, heads = self.pages[i], self.heads[i]
            if heads:
                fig.text(self.left / self.page_w, 1 - 0.5 / self.page_h,
                         fit_line(HEAD_JOIN.join(heads), self.width_pt, 7.5), fontsize=7.5,
                         color=TEXT_GREY, va="baseline", family=SANS, gid=RUNNING_HEAD)
                self._rule(fig, 0.56, 0.4, "0.6")
            fig.text(0.5, 0.45 / self.page_h, f"page {i + 1} of {n}", ha="center",
                     fontsize=7.5, color=TEXT_GREY, family=SANS, gid=PAGE_NUMBER)
        self.finished = n
        return self.pages

    def save(self, path: Path, metadata: dict[str, Any] | None = None) -> int:
        """Finish every page (:meth:`finish`) and write all pages to one PDF.

        Returns
        -------
        int
            The number of pages written.
        """
        with style_context(), PdfPages(path, metadata=metadata) as pdf:
            for fig in self.finish():
                pdf.savefig(fig)
        return len(self.pages)

