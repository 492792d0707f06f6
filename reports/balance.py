"""The balance report: one folder with a PDF, PNG charts, CSV tables and a Markdown summary.

Layout of the folder written by :func:`write_report`::

    report.pdf            A4 portrait: title page, key findings (page 2), the list of
                          figures and tables, then every section
    summary.md            the same content as Markdown, linking the PNGs and CSVs
    figures/<name>.png    every chart at 150 dpi
    tables/<name>.csv     every table, all rows, machine column names and full precision,
                          plus the section's provenance columns (seed, rules)

Everything is produced in a temporary folder next to ``out_dir`` and moved in only
once complete, so a failure leaves ``out_dir`` untouched.
"""

from __future__ import annotations

import multiprocessing
import os
import re
import shutil
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure as MplFigure

from analyzer.files import process_alive
from analyzer.report_lanes import ctrl_c_held, end_workers, quiet_worker
from analyzer.sections import Figure, Finding, Section, Table
from analyzer.verdicts import THRESHOLDS
from reports.chart_fit import settle
from reports.figures import plot_into, save_pngs, validate_figure
from reports.layout import (column_chunks, fit_line, mono_chars, reader_table, wrap, transposed,
                            wrapped_rows, wrapped_widths)
from reports.markdown import summary_markdown
from reports.pdfflow import LEADING, PT, PageFlow
from reports.sheet_picture import aspect
from reports.style import TEXT_GREY, style_context

_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
PLOT_HEIGHT = 3.4  # inches of a chart on a report page
MIN_AXES = 1.8  # inches of a chart's axes at least, its slot made taller for long names
BODY_PT = 9.5
TABLE_PT = (7.5,)  # monospace sizes tried for tables, largest first (none under 7.5 pt)
TRANSPOSE_ROWS = 10  # a table too wide for the page with at most this many rows turns
FINDING_COLUMN = 1.65  # inches of the findings page's number column
FIRST_PAGE = "report-page-1.png"  # a picture of the report's first page, beside it
PREVIEW_DPI = 80
SECTION_ROOM = 4.5  # inches a page must have left for a section to start on it
TITLE_SHARE = 0.75  # of the text width a chart's title lines take at most (a legend beside
# the axes narrows them, and the title is centred on them)


def _check(sections: list[Section]) -> None:
    """Reject what would fail later or overwrite files: bad specs, unsafe or repeated names."""
    seen: dict[str, set[str]] = {"figure": set(), "table": set()}
    for sec in sections:
        items: list[tuple[str, Figure | Table]] = [("figure", f) for f in sec.figures]
        items += [("table", t) for t in sec.tables]
        for kind, item in items:
            if not _SAFE_NAME.match(item.name):
                raise ValueError(f"{kind} name {item.name!r} is not a safe file stem")
            if item.name in seen[kind]:
                raise ValueError(f"{kind} name {item.name!r} is used twice")
            seen[kind].add(item.name)
            if kind == "figure":
                validate_figure(item)  # type: ignore[arg-type]
            elif not isinstance(item.data, pd.DataFrame):
                raise ValueError(f"table {item.name!r}: data must be a pandas DataFrame")
        names = {item.name for _, item in items}
        for finding in sec.findings:
            if finding.source not in names:
                raise ValueError(f"finding {finding.text!r}: no figure or table "
                                 f"{finding.source!r} in section {sec.title!r}")


# --- PDF content ---------------------------------------------------------------------------
APPENDIX = "appendix.pdf"  # the tables, notes and secondary figures, beside the report


def _title(flow: PageFlow, title: str, rule_after: float) -> None:
    """A section's title and the rule under it."""
    flow.paragraph(title, 16, weight="bold", after=0.02)
    flow.rule(after=rule_after)


def _dashed(flow: PageFlow, heading: str, lines: list[str], heading_pt: float, pt: float,
            gap: float, **style) -> None:
    """A bold heading and one dashed, indented paragraph per line, ``gap`` inches apart."""
    flow.paragraph(heading, heading_pt, weight="bold", after=gap)
    for line in lines:
        flow.paragraph(f"\u2013 {line}", pt, indent=0.15, after=gap, **style)


def _section_intro(flow: PageFlow, sec: Section) -> None:
    """A section's opening in the report: its title, verdict and introduction."""
    _title(flow, sec.title, 0.12)
    if sec.verdict:
        _dashed(flow, "Verdict", sec.verdict, 11, BODY_PT, 0.04)
        flow.skip(0.08)
    if sec.intro.strip():
        flow.paragraph(sec.intro.strip(), 8.5, color=TEXT_GREY, after=0.1)
    flow.skip(0.15)


def _appendix_intro(flow: PageFlow, sec: Section) -> None:
    """A section's opening in the appendix: its title and notes (rules, samples, seeds)."""
    _title(flow, sec.title, 0.15)
    if sec.notes:
        _dashed(flow, "Notes", sec.notes, 10, 8.5, 0.03, color=TEXT_GREY)
    flow.skip(0.25)


def _chart(flow: PageFlow, spec: Figure, page: MplFigure,
           rect: tuple[float, float, float, float]) -> Axes:
    """Draw ``spec`` in the slot ``rect`` of ``page``, its names and legend fitted."""
    ax = page.add_axes((rect[0], rect[1], rect[2] - rect[0], rect[3] - rect[1]))
    plot_into(ax, spec, title_pt=TITLE_SHARE * (rect[2] - rect[0]) * flow.page_w * 72)
    settle(ax, lambda: flow.fit_axes(ax, rect))  # names and legend fitted to the axes' size
    return ax


def _around_axes(spec: Figure) -> float:
    """Inches a chart's title, category names, axis labels and legend take above and
    below its axes at the text width (measured on a scratch page)."""
    scratch = PageFlow()
    page, rect = scratch.slot(PLOT_HEIGHT)
    ax = _chart(scratch, spec, page, rect)
    tight = ax.get_tightbbox(page.canvas.get_renderer())
    return (tight.height - ax.bbox.height) / page.dpi


def _figure(flow: PageFlow, spec: Figure) -> int:
    """Place a chart and its reading; return its page number. The chart's slot is tall
    enough to leave its axes ``MIN_AXES`` inches beside long names (page allowing)."""
    reading = spec.reading.strip()
    text_h = len(wrap(reading, flow.width_pt, BODY_PT)) * BODY_PT * LEADING * PT if reading else 0.0
    usable = flow.bottom - flow.top
    wanted = flow.width_pt * PT * aspect(spec) + 0.45 if spec.kind == "sheet" else PLOT_HEIGHT
    wanted = max(wanted, _around_axes(spec) + MIN_AXES)
    plot_h = min(wanted, max(2.5, usable - text_h - 0.4))
    flow.ensure(min(plot_h + text_h + 0.4, usable))
    page, rect = flow.slot(plot_h)
    _chart(flow, spec, page, rect)
    number = flow.page_number
    flow.skip(0.1)
    if reading:
        flow.paragraph(reading, BODY_PT, after=0.0)
    flow.skip(0.35)
    return number


def _table_head(flow: PageFlow, tab: Table, first_rows: float) -> float:
    """Inches a table's title and note take with ``first_rows`` inches of its first rows
    (kept together, so that a title never ends a page alone)."""
    title = len(wrap(f"Table: {tab.title}", flow.width_pt, 10.5, weight="bold")) * 10.5
    note = len(wrap(tab.note.strip(), flow.width_pt, 8.5)) * 8.5 if tab.note.strip() else 0.0
    return (title + note) * LEADING * PT + 0.09 + first_rows


def _fits(widths: list[int], width_pt: float, size: float) -> bool:
    return sum(widths) + 2 * (len(widths) - 1) <= mono_chars(width_pt, size)


def _laid_out(tab: Table, width_pt: float) -> tuple[list[str], list[list[str]], list[bool],
                                                     list[int], float]:
    """The cells of a table as printed (its first ``max_rows`` rows), their column widths
    and the type size: the largest of ``TABLE_PT`` at which it fits the width; a table of
    at most ``TRANSPOSE_ROWS`` rows that fits no size is turned on its side if that fits
    (else its columns are split into groups, the first column repeated)."""
    printed = tab.data.drop(columns=[c for c in tab.hidden if c in tab.data.columns])
    headers, rows, right = reader_table(printed.head(max(tab.max_rows, 0)), tab.percent)
    for size in TABLE_PT:
        widths = wrapped_widths(headers, rows, room=mono_chars(width_pt, size))
        if _fits(widths, width_pt, size):
            return headers, rows, right, widths, size
    if rows and len(rows) <= TRANSPOSE_ROWS:
        t_headers, t_rows, t_right = transposed(headers, rows)
        for size in TABLE_PT:
            t_widths = wrapped_widths(t_headers, t_rows, room=mono_chars(width_pt, size))
            if _fits(t_widths, width_pt, size):
                return t_headers, t_rows, t_right, t_widths, size
    return headers, rows, right, wrapped_widths(headers, rows), TABLE_PT[-1]


def _table(flow: PageFlow, tab: Table) -> int:
    """Place a table as monospace text (first ``max_rows`` rows); return its first page."""
    headers, rows, right, widths, size = _laid_out(tab, flow.width_pt)
    flow.ensure(_table_head(flow, tab, min(len(rows) + 2, 6) * size * LEADING * PT))
    number = flow.page_number
    flow.paragraph(f"Table: {tab.title}", 10.5, weight="bold", after=0.03)
    if tab.note.strip():
        flow.paragraph(tab.note.strip(), 8.5, color=TEXT_GREY, style="italic", after=0.06)
    for cols in column_chunks(widths, mono_chars(flow.width_pt, size)):
        flow.mono_table(*wrapped_rows(headers, rows, right, widths, cols), size,
                        continued=f"Table: {tab.title} (continued)")
        flow.skip(0.08)
    n = len(tab.data)
    shown = min(n, max(tab.max_rows, 0))
    tail = (f"{shown} of {n} rows shown; all rows, with machine column names and full "
            f"precision, in tables/{tab.name}.csv")
    flow.paragraph(tail, 7.5, color=TEXT_GREY, after=0.35)
    return number


def _finding(flow: PageFlow, finding: Finding, source: tuple[str, str, int, str]) -> None:
    """A finding: its number and interval in a left column, beside the sentence and the
    figure or table that shows it, with that item's page (in the appendix, if there)."""
    kind, title, page, doc = source
    indent, size = FINDING_COLUMN, 9.0
    width = flow.width_pt - indent * 72
    lines = wrap(finding.text, width, size)
    place = f"page {page} of {doc}" if doc else f"page {page}"
    where = wrap(f"{kind} on {place}: {title}", width, 7.5)
    flow.ensure((len(lines) * size + len(where) * 7.5) * LEADING * PT + 0.08)
    top = flow.y
    for text in lines:
        flow.line(text, size, indent=indent)
    for text in where:
        flow.line(text, 7.5, indent=indent, color=TEXT_GREY, style="italic")
    column = (indent - 0.1) * 72
    flow.text_at(fit_line(finding.number(), column, 10, weight="bold"), 10, top, weight="bold")
    for k, text in enumerate(wrap(finding.interval(), column, 7.5)):
        flow.text_at(text, 7.5, top + (10 + k * 7.5) * LEADING * PT, color=TEXT_GREY)
    flow.skip(0.08)


Where = dict[str, tuple[str, str, int, str]]  # item name -> (kind, title, page, document)


def _findings(flow: PageFlow, sections: list[Section], where: Where) -> None:
    """The key findings of every section, each with the page of its figure or table."""
    flow.paragraph("Key findings", 16, weight="bold", after=0.02)
    flow.rule(after=0.1)
    flow.paragraph("The numbers this run produced, each with its 95% interval when it is "
                   "simulated (or marked exact), and the figure or table that shows it; pp "
                   "are percentage points.", 8.5, color=TEXT_GREY, after=0.06)
    flow.paragraph(THRESHOLDS, 8.5, color=TEXT_GREY, after=0.15)
    if not any(sec.findings for sec in sections):
        flow.paragraph("No section states findings.", BODY_PT)
    for sec in sections:
        if sec.findings:
            flow.paragraph(sec.title, 11.5, weight="bold", after=0.04)
            for finding in sec.findings:
                _finding(flow, finding, where[finding.source])
            flow.skip(0.06)


def _title_block(flow: PageFlow, title: str, meta_lines: list[str],
                 sections: list[Section] = ()) -> None:
    """A document's first page down to its contents heading; with ``sections``, their
    glossaries first (``_glossary``)."""
    flow.new_page()
    flow.skip(0.4)
    flow.paragraph(title, 22, weight="bold", after=0.2)
    for line in meta_lines:
        flow.paragraph(line, 10, color=TEXT_GREY, after=0.02)
    flow.skip(0.2)
    flow.rule(lw=0.8, after=0.2)
    _glossary(flow, sections)
    flow.paragraph("Contents", 13, weight="bold", after=0.1)


def _glossary(flow: PageFlow, sections: list[Section]) -> None:
    """The names the tables and notes still use (players, rules), each with its meaning,
    one paragraph per section."""
    named = [sec for sec in sections if sec.glossary]
    if not named:
        return
    flow.paragraph("Names used in the tables and notes", 13, weight="bold", after=0.06)
    for sec in named:
        entries = "; ".join(f"{name}: {words}" for name, words in sec.glossary.items())
        flow.paragraph(f"{sec.title}. {entries}.", 8.5, after=0.06)
    flow.skip(0.12)


def _contents(flow: PageFlow, contents: list[tuple[int, str, int]], offset: int) -> None:
    """Contents entries: sections (level 0) and their items (level 1), with pages."""
    for level, text, page in contents:
        if level == 0:
            flow.skip(0.06)
        size, indent = (10.5, 0.0) if level == 0 else (8.5, 0.3)
        _entry(flow, text, size, indent, "bold" if level == 0 else "normal",
               str(page + offset))


def _front_matter(title: str, meta_lines: list[str], sections: list[Section],
                  contents: list[tuple[int, str, int]], where: Where,
                  offset: int, findings_page: int) -> tuple[PageFlow, int]:
    """The report's title page (title, metadata, contents with every figure) and its key
    findings, with body page numbers + ``offset`` (the pages of this front matter) and the
    findings' page as ``findings_page`` (known from a first pass); returns the flow and
    that page."""
    flow = PageFlow()
    _title_block(flow, title, meta_lines)
    _entry(flow, "Key findings", 10.5, 0.0, "bold", str(findings_page))
    _contents(flow, contents, offset)
    flow.skip(0.1)
    flow.paragraph(f"Every table, the notes on rules and samples, and more figures are in "
                   f"{APPENDIX} beside this report; every table's rows are in tables/ as CSV.",
                   8.5, color=TEXT_GREY)
    flow.new_page()
    found = flow.page_number
    _findings(flow, sections, {k: (kind, t, p + offset * (not doc), doc)
                               for k, (kind, t, p, doc) in where.items()})
    return flow, found


def _entry(flow: PageFlow, text: str, size: float, indent: float, weight: str,
           page: str) -> None:
    """A contents entry wrapped to the text width less room for its page number, which
    stands at the right of its first line."""
    width = flow.width_pt - (indent + 0.5) * 72
    lines = wrap(text, width, size, weight=weight)
    flow.ensure(len(lines) * size * LEADING * PT)
    for i, line in enumerate(lines):
        flow.line(line, size, indent=indent, weight=weight, right=page if i == 0 else "")


def _body(sections: list[Section]) -> tuple[PageFlow, PageFlow, list, list, Where]:
    """The report's sections (verdict, introduction, figures) and the appendix's (notes,
    secondary figures, tables); their contents entries and where each item stands
    (``where`` pages count from each body's first page; the appendix's are final)."""
    report, appendix = PageFlow(), PageFlow()
    r_contents: list[tuple[int, str, int]] = []
    a_contents: list[tuple[int, str, int]] = []
    where: Where = {}
    for sec in sections:
        if report.space_left() < SECTION_ROOM:
            report.new_page()
        else:  # a section starts below the last one's end when most of a page is left
            report.skip(0.2)
        report.running_head = sec.title  # heads every page the section's content is on
        r_contents.append((0, sec.title, report.page_number))
        _section_intro(report, sec)
        appendix.new_page()
        appendix.running_head = f"Appendix \u2014 {sec.title}"
        a_contents.append((0, sec.title, appendix.page_number))
        _appendix_intro(appendix, sec)
        for fig in sec.figures:
            flow, listed = (appendix, a_contents) if fig.appendix else (report, r_contents)
            page = _figure(flow, fig)
            where[fig.name] = ("Figure", fig.title, page, APPENDIX * fig.appendix)
            listed.append((1, f"Figure: {fig.title}", page))
        for tab in sec.tables:
            page = _table(appendix, tab)
            where.setdefault(tab.name, ("Table", tab.title, page, APPENDIX))  # a figure wins
            a_contents.append((1, f"Table: {tab.title}", page))
    return report, appendix, r_contents, a_contents, where


def _appendix_front(title: str, contents: list[tuple[int, str, int]],
                    sections: list[Section]) -> PageFlow:
    """The appendix's first pages: the glossary and the contents (its body pages follow
    them)."""
    flow = PageFlow()
    _title_block(flow, f"{title}: appendix", ["notes on rules and samples, tables and "
                                              "more figures, section by section"], sections)
    _contents(flow, contents, 0)
    return flow


class Documents(NamedTuple):
    """The report's and the appendix's pages, each beginning with ``*_front`` pages of
    front matter (title, contents, key findings) before the sections' pages."""

    report: PageFlow
    appendix: PageFlow
    report_front: int
    appendix_front: int


def lay_out_documents(sections: list[Section], title: str,
                      meta_lines: list[str]) -> Documents:
    """Lay out every page of the report and of its appendix (nothing written yet; each
    flow's :meth:`~reports.pdfflow.PageFlow.finish` adds running heads and numbers)."""
    with style_context():
        report, appendix, r_contents, a_contents, where = _body(sections)
        front = len(_appendix_front(title, a_contents, sections).pages)
        a_front = _appendix_front(title, [(lv, t, p + front) for lv, t, p in a_contents],
                                  sections)
        where = {k: (kind, t, p + front * bool(doc), doc)
                 for k, (kind, t, p, doc) in where.items()}
        args = (title, meta_lines, sections, r_contents, where)
        first, found = _front_matter(*args, 0, 0)
        doc, _ = _front_matter(*args, len(first.pages), found)
    r_front, a_front_n = len(doc.pages), len(a_front.pages)
    doc.extend(report)
    a_front.extend(appendix)
    return Documents(doc, a_front, r_front, a_front_n)


def _write_pdfs(sections: list[Section], title: str, meta_lines: list[str],
                folder: Path) -> int:
    """Write report.pdf (and its first page as a PNG) and the appendix into ``folder``;
    return the report's number of pages."""
    docs = lay_out_documents(sections, title, meta_lines)
    meta = {"Title": title, "Creator": "dicelab reports"}
    n = docs.report.save(folder / "report.pdf", metadata=meta)
    docs.report.pages[0].savefig(folder / FIRST_PAGE, format="png", dpi=PREVIEW_DPI,
                                 facecolor="white")
    docs.appendix.save(folder / APPENDIX, metadata={**meta, "Title": f"{title}: appendix"})
    return n


# --- folder ------------------------------------------------------------------------------
def _produce(sections: list[Section], tmp: Path, title: str,
             meta_lines: list[str]) -> tuple[list[str], int]:
    """Write every file into ``tmp``; return their paths relative to ``tmp`` and the
    number of PDF pages."""
    figures = [fig for sec in sections for fig in sec.figures]
    rel = [f"figures/{fig.name}.png" for fig in figures]
    # the PNGs are drawn in a second process while this one writes the tables and the PDF
    with ProcessPoolExecutor(1, multiprocessing.get_context("spawn"), quiet_worker,
                             (os.getpid(),)) as pool:
        try:
            with ctrl_c_held():
                pngs = pool.submit(save_pngs, figures, tmp / "figures")
            rel += _write_tables(sections, tmp)
            with style_context():
                pages = _write_pdfs(sections, title, meta_lines, tmp)
            pngs.result()
        except BaseException:
            end_workers(pool)
            raise
    links_f = {f.name: f"figures/{f.name}.png" for s in sections for f in s.figures}
    links_t = {t.name: f"tables/{t.name}.csv" for s in sections for t in s.tables}
    text = summary_markdown(sections, title, meta_lines, links_f, links_t)
    (tmp / "summary.md").write_text(text, encoding="utf-8")
    return rel + [APPENDIX, "report.pdf", FIRST_PAGE, "summary.md"], pages


def _write_tables(sections: list[Section], tmp: Path) -> list[str]:
    """Write every table as ``tmp/tables/<name>.csv`` (with its section's provenance
    columns); returns their paths relative to ``tmp``."""
    rel = []
    for sec in sections:
        for tab in sec.tables:
            rel.append(f"tables/{tab.name}.csv")
            (tmp / "tables").mkdir(exist_ok=True)
            extra = {k: v for k, v in sec.provenance.items() if k not in tab.data.columns}
            tab.data.assign(**extra).to_csv(tmp / rel[-1], index=False)
    return rel


def remove_stale_folders(out_dir: Path, older_than: float = 3600.0) -> None:
    """Remove the hidden folders ``.NAME.PID.xxxxxxxx.tmp`` beside ``out_dir`` that runs
    stopped before they could (``kill -9``, a crash) left: those whose process is gone
    (and those of older versions without a process id, ``.NAME.xxxxxxxx.tmp``, once
    ``older_than`` seconds old)."""
    name = re.escape(out_dir.name)
    with_pid = re.compile(rf"\.{name}\.(\d+)\.[a-z0-9_]{{8}}\.tmp")
    without_pid = re.compile(rf"\.{name}\.[a-z0-9_]{{8}}\.tmp")
    for entry in out_dir.parent.iterdir():
        found = with_pid.fullmatch(entry.name)
        try:
            if entry.is_symlink() or not entry.is_dir():
                continue
            if found and process_alive(int(found.group(1))):
                continue
            if not found and not (without_pid.fullmatch(entry.name) and
                                  time.time() - entry.stat().st_mtime > older_than):
                continue
        except OSError:
            continue
        shutil.rmtree(entry, ignore_errors=True)


def write_report(sections: list[Section], out_dir: Path, title: str,
                 meta_lines: list[str]) -> dict[str, Any]:
    """Write the balance report folder.

    Parameters
    ----------
    sections : list of analyzer.sections.Section
        Report content, in order.
    out_dir : pathlib.Path
        Target folder, created if missing. Files of the same name are replaced; other
        files already there are left alone. A symbolic link to a folder writes that
        folder (the files are made beside it, so that moving them in stays on its disk).
    title : str
        Report title.
    meta_lines : list of str
        Run metadata printed under the title (seed, versions, date, ...).

    Returns
    -------
    dict
        ``{"out_dir": Path, "pdf": Path, "summary": Path, "figures": {name: Path},
        "tables": {name: Path}, "pages": int}`` -- the final paths written.

    Raises
    ------
    ValueError
        If a figure or table cannot be rendered (unknown kind, missing column,
        unsafe or repeated name). Nothing is written to ``out_dir`` then.
    """
    out_dir = Path(out_dir)
    _check(sections)
    folder = Path(os.path.realpath(out_dir))
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.{os.getpid()}.", suffix=".tmp",
                                dir=folder.parent))
    try:
        produced, pages = _produce(sections, tmp, title, meta_lines)
        folder.mkdir(exist_ok=True)
        for rel in produced:  # report.pdf and summary.md come last
            (folder / rel).parent.mkdir(parents=True, exist_ok=True)
            os.replace(tmp / rel, folder / rel)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    remove_stale_folders(folder)
    return {
        "out_dir": out_dir,
        "pdf": out_dir / "report.pdf",
        "appendix": out_dir / APPENDIX,
        "summary": out_dir / "summary.md",
        "figures": {f.name: out_dir / "figures" / f"{f.name}.png"
                    for s in sections for f in s.figures},
        "tables": {t.name: out_dir / "tables" / f"{t.name}.csv"
                   for s in sections for t in s.tables},
        "pages": pages,
    }
