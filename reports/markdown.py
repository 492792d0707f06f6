"""The Markdown summary of a balance report (``summary.md``)."""

from __future__ import annotations

import pandas as pd

from analyzer.sections import Section
from analyzer.verdicts import THRESHOLDS
from reports.layout import fmt_cell


def md_cell(value: object) -> str:
    """A value as text safe inside a Markdown table cell (pipes escaped, one line)."""
    return fmt_cell(value).replace("\\", "\\\\").replace("|", "\\|")


def markdown_table(df: pd.DataFrame, max_rows: int | None = None) -> str:
    """A GitHub-flavoured Markdown table of (the first ``max_rows`` rows of) ``df``.

    Numeric columns are right-aligned.

    Parameters
    ----------
    df : pandas.DataFrame
        The data; the index is not printed.
    max_rows : int, optional
        Print only this many leading rows.

    Returns
    -------
    str
        The table, one row per line, without a trailing newline.
    """
    shown = df if max_rows is None else df.head(max_rows)
    header = "| " + " | ".join(md_cell(c) or " " for c in df.columns) + " |"
    align = "|" + "|".join("---:" if pd.api.types.is_numeric_dtype(df[c].dtype) else "---"
                           for c in df.columns) + "|"
    rows = ["| " + " | ".join(md_cell(v) for v in row) + " |"
            for row in shown.itertuples(index=False)]
    return "\n".join([header, align, *rows])


def _paragraph(text: str) -> str:
    return "\n".join(line.rstrip() for line in str(text).strip().splitlines())


def summary_markdown(sections: list[Section], title: str, meta_lines: list[str],
                     figure_links: dict[str, str], table_links: dict[str, str]) -> str:
    """The whole ``summary.md`` document.

    Parameters
    ----------
    sections : list of analyzer.sections.Section
        Report content.
    title : str
        Report title (level-1 heading).
    meta_lines : list of str
        Run metadata, printed as a bullet list.
    figure_links, table_links : dict
        Figure / table name -> relative path of its PNG / CSV file.

    Returns
    -------
    str
        Markdown text ending with a newline.
    """
    out = [f"# {title}", ""]
    out += [f"- {line}" for line in meta_lines]
    out += ["", "Full report: [report.pdf](report.pdf); tables, notes and more figures: "
            "[appendix.pdf](appendix.pdf)", ""]
    if any(sec.findings for sec in sections):
        out += ["## Key findings", "", THRESHOLDS, ""]
        links = {**table_links, **figure_links}  # a figure of the same name wins
        for sec in sections:
            out += [f"- **{sec.title}**: {f.text} ({f.number()}, {f.interval()}; "
                    f"[{f.source}]({links[f.source]}))" for f in sec.findings]
        out += [""]
    for sec in sections:
        out += [f"## {sec.title}", ""]
        if sec.verdict:
            out += ["**Verdict**", ""] + [f"- {line}" for line in sec.verdict] + [""]
        if sec.intro.strip():
            out += [_paragraph(sec.intro), ""]
        if sec.notes:
            out += ["**Notes**", ""] + [f"- {note}" for note in sec.notes] + [""]
        for fig in sec.figures:
            link = figure_links[fig.name]
            out += [f"### {fig.title}", "", f"![{fig.title}]({link})", ""]
            if fig.reading.strip():
                out += [_paragraph(fig.reading), ""]
        for tab in sec.tables:
            out += [f"### Table: {tab.title}", ""]
            if tab.note.strip():
                out += [_paragraph(tab.note), ""]
            n = len(tab.data)
            out += [markdown_table(tab.data, tab.max_rows), ""]
            shown = min(n, tab.max_rows)
            out += [f"*{shown} of {n} rows shown; full table: "
                    f"[{table_links[tab.name]}]({table_links[tab.name]})*", ""]
    return "\n".join(out).rstrip() + "\n"
