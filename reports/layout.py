"""Text helpers shared by the PDF writers: measured wrapping and fixed-width tables."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from reports.style import MONO_ADVANCE, text_width_pt

ELLIPSIS = "\u2026"


def wrap(text: str, width_pt: float, size: float, *, weight: str = "normal",
         hang: str = "") -> list[str]:
    """Wrap ``text`` so that every line fits ``width_pt`` points at ``size`` points.

    Line breaks in ``text`` are kept (an empty line stays empty). Words are added to
    a line while its measured width fits (a greedy fill, like :mod:`textwrap` but
    with true glyph widths); a word longer than a line is split.

    Parameters
    ----------
    text : str
        Text, possibly with newlines.
    width_pt : float
        Available width in points.
    size : float
        Font size in points.
    weight : str
        ``"normal"`` or ``"bold"``.
    hang : str
        Prefix of continuation lines (a hanging indent, e.g. two spaces).

    Returns
    -------
    list of str
        The lines, without trailing newlines.
    """
    limit = 0.98 * width_pt

    def fits(line: str) -> bool:
        return text_width_pt(line, size, weight=weight) <= limit

    out: list[str] = []
    for para in str(text).splitlines() or [""]:
        words = para.split()
        if not words:
            out.append("")
            continue
        line = ""
        for word in words:
            candidate = f"{line} {word}" if line else word
            if fits(candidate):
                line = candidate
                continue
            if line:
                out.append(line)
                line = hang
            while not fits(line + word) and len(word) > 1:  # split an over-long word
                k = len(word) - 1
                while k > 1 and not fits(line + word[:k]):
                    k -= 1
                out.append(line + word[:k])
                line, word = hang, word[k:]
            line += word
        out.append(line)
    return out


def fit_line(text: str, width_pt: float, size: float, *, weight: str = "normal") -> str:
    """``text`` shortened with an ellipsis so that it fits on one line of ``width_pt``."""
    if text_width_pt(text, size, weight=weight) <= width_pt:
        return text
    while text and text_width_pt(text + ELLIPSIS, size, weight=weight) > width_pt:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


def fmt_cell(value: Any) -> str:
    """A table cell as short text: 4 significant digits for floats, blanks for missing."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (float, np.floating)):
        if not math.isfinite(value):
            return str(value)
        if float(value).is_integer() and abs(value) < 1e15:
            return str(int(value))
        if 1e4 <= abs(value) < 1e12:
            return f"{value:.0f}"
        return f"{value:.4g}"
    if value is pd.NA or value is pd.NaT:
        return ""
    return " ".join(str(value).split())


def cell_table(df: pd.DataFrame,
               max_cell: int = 28) -> tuple[list[str], list[list[str]], list[bool]]:
    """Headers, cell strings and right-alignment flags (numeric columns) of ``df``.

    Cells longer than ``max_cell`` characters are cut with an ellipsis.
    """

    def cut(s: str) -> str:
        return s if len(s) <= max_cell else s[: max_cell - 1] + ELLIPSIS

    headers = [cut(str(c)) for c in df.columns]
    rows = [[cut(fmt_cell(v)) for v in row] for row in df.itertuples(index=False)]
    right = [pd.api.types.is_numeric_dtype(df[c].dtype) for c in df.columns]
    return headers, rows, right


# --- tables for readers: column names in words, shares as percentages ---------------------
HEADINGS = {"ci95_low": "95% CI low", "ci95_high": "95% CI high", "sd": "SD",
            "p": "Probability", "p_hit": "Chance to make it", "per_game": "Per game",
            "diff": "Difference",
            "win_ci95_low": "Win rate 95% CI low", "win_ci95_high": "Win rate 95% CI high"}
WORDS = {"ci95": "95% CI", "p": "chance of"}
SHARE_WORDS = {"rate", "share", "probability", "chance", "win"}


def heading(name: object) -> str:
    """A machine column name in words: ``win_rate`` -> "Win rate", ``ci95_low`` ->
    "95% CI low", ``p_at_least_12`` -> "Chance of at least 12"."""
    name = str(name)
    if name in HEADINGS:
        return HEADINGS[name]
    text = " ".join(WORDS.get(w, w) for w in name.split("_") if w)
    return text[:1].upper() + text[1:]


def _is_share(name: str) -> bool:
    words = name.split("_")
    return bool(SHARE_WORDS.intersection(words)) or words[0] == "p"


def share_columns(df: pd.DataFrame, extra: tuple[str, ...] = ()) -> set[str]:
    """Numeric columns holding shares (0..1): ``extra`` and those named so (rate, share,
    probability, ``p_...``), with the 95% interval ends that follow them (``ci95_low``
    after ``win_rate``; ``win_ci95_low`` by its own name)."""
    out: set[str] = set()
    previous = False
    for col in df.columns:
        name = str(col)
        if not pd.api.types.is_numeric_dtype(df[col].dtype):
            previous = False
            continue
        if "ci95" in name.split("_") and col not in extra:
            prefix = name.split("ci95")[0].strip("_")
            share = _is_share(prefix) if prefix else previous
        else:
            share = previous = col in extra or _is_share(name)
        if share:
            out.add(col)
    return out


def reader_digits(values: pd.Series, share: bool = False) -> int | None:
    """Decimals of a numeric column for readers: shares (as percentages) 1, or 2 when
    some are under 1%; other numbers, from the largest magnitude, 0 from 1,000, 1 from
    100, 2 from 1, else 3; ``None`` (whole numbers) when every value is whole."""
    x = values.to_numpy(dtype=float)
    x = np.abs(x[np.isfinite(x)])
    top = float(x.max()) if x.size else 0.0
    if share:
        return 2 if np.any((x > 0) & (x < 0.01)) else 1
    if np.all(x == np.round(x)):
        return None
    return 0 if top >= 1000 else 1 if top >= 100 else 2 if top >= 1 else 3


def fmt_reader(value: Any, share: bool = False, digits: int | None = None) -> str:
    """A cell for readers: shares as percentages, other numbers with ``digits`` decimals
    (thousands separated; whole numbers when ``None``), never in exponent notation; a
    value that would round to 0 shows as ``<0.001`` (``<0.1%``)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.number)):
        return fmt_cell(value)
    value = float(value)
    if not math.isfinite(value):
        return fmt_cell(value)
    unit = "%" if share else ""
    if share:
        value, digits = 100 * value, 1 if digits is None else digits
    elif digits is None:
        return f"{round(value):,}"
    step = 10.0 ** -digits
    if 0 < abs(value) < step / 2:
        return f"<{step:.{digits}f}{unit}" if value > 0 else f">-{step:.{digits}f}{unit}"
    return f"{value:,.{digits}f}{unit}"


def reader_table(df: pd.DataFrame, extra_shares: tuple[str, ...] = ()
                 ) -> tuple[list[str], list[list[str]], list[bool]]:
    """Like :func:`cell_table`, for readers and uncut (:func:`wrapped_rows` wraps long
    cells): headings in words (:func:`heading`), shares (:func:`share_columns`) as
    percentages, numbers rounded alike down each column (:func:`reader_digits`)."""
    shares = share_columns(df, extra_shares)
    right = [pd.api.types.is_numeric_dtype(df[c].dtype) for c in df.columns]
    digits = [reader_digits(df[c], c in shares) if r else None
              for c, r in zip(df.columns, right)]
    rows = [[fmt_reader(v, c in shares, d) for c, v, d in zip(df.columns, row, digits)]
            for row in df.itertuples(index=False)]
    return _intervals_joined([heading(c) for c in df.columns], rows, right,
                             [str(c) for c in df.columns])


def _intervals_joined(headers: list[str], rows: list[list[str]], right: list[bool],
                      names: list[str]) -> tuple[list[str], list[list[str]], list[bool]]:
    """Each pair of adjacent columns ``X_ci95_low``, ``X_ci95_high`` as one column "X 95%
    CI" of cells "low to high" (narrower tables, the same figures)."""
    keep = list(range(len(names)))
    joined: dict[int, str] = {}
    for j in range(len(names) - 1):
        low, high = names[j], names[j + 1]
        if low.endswith("ci95_low") and high == low[:-3] + "high":
            joined[j] = heading(low[:-4])
            keep.remove(j + 1)
    out_rows = [[f"{r[j]} to {r[j + 1]}" if j in joined and (r[j] or r[j + 1]) else
                 "" if j in joined else r[j] for j in keep] for r in rows]
    return [joined.get(j, headers[j]) for j in keep], out_rows, [right[j] for j in keep]


CELL_WIDTH = 16  # characters a table column wraps at when the page is too narrow
HANG = "  "  # indent of a wrapped cell's further lines (so they read as one entry)


def wrap_chars(text: str, width: int, hang: str = "") -> list[str]:
    """``text`` broken at spaces into lines of at most ``width`` characters, lines after
    the first starting with ``hang`` (a longer word stands alone on its line, whole)."""
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(hang + word if lines else word)
    return lines or [""]


def wrapped_widths(headers: list[str], rows: list[list[str]], cap: int = CELL_WIDTH,
                   room: int | None = None) -> list[int]:
    """Each column's width: its longest cell, and room for its heading on two lines, at
    most ``cap`` characters unless a single word (indented, in a cell that wraps) is
    longer; then, within ``room`` characters in all, columns whose cells would wrap are
    widened to their longest cell, those that need least first."""
    widths, full = [], []
    for j, h in enumerate(headers):
        cells = [r[j] for r in rows]
        longest_word = max(len(w) for c in [h, *cells] for w in (c.split() or [""]))
        longest = max([len(c) for c in cells] + [math.ceil(len(h) / 2)])
        width = max(min(longest, cap), longest_word)
        if any(len(c) > width for c in cells):  # a further line starts indented
            width = max(width, max((len(w) for c in cells for w in c.split()[1:]),
                                   default=0) + len(HANG))
        widths.append(width)
        full.append(max(longest, width))
    if room is not None:
        _widen(widths, full, room)
    return widths


def _widen(widths: list[int], full: list[int], room: int, gap: int = 2) -> None:
    """Widen columns to ``full`` (least extra first) while the table fits ``room``."""
    spare = room - sum(widths) - gap * (len(widths) - 1)
    for j in sorted(range(len(widths)), key=lambda k: full[k] - widths[k]):
        extra = full[j] - widths[j]
        if 0 < extra <= spare:
            widths[j] = full[j]
            spare -= extra


def transposed(headers: list[str], rows: list[list[str]]
               ) -> tuple[list[str], list[list[str]], list[bool]]:
    """A table turned on its side: the first column's cells head the columns, and each
    other column becomes a row (its heading first, right-aligned figures after)."""
    heads = [headers[0]] + [r[0] for r in rows]
    body = [[headers[j]] + [r[j] for r in rows] for j in range(1, len(headers))]
    return heads, body, [False] + [True] * len(rows)


def wrapped_rows(headers: list[str], rows: list[list[str]], right: list[bool],
                 widths: list[int], cols: list[int], gap: int = 2
                 ) -> tuple[list[str], list[list[str]]]:
    """Monospace lines of the columns ``cols``: the heading's lines (ending with a rule)
    and, per row, its lines; a cell longer than its column's width wraps onto more
    lines of its row (indented by ``HANG``), nothing is cut."""
    sep = " " * gap

    def block(cells: list[str], hang: str = HANG) -> list[str]:
        parts = [wrap_chars(cells[j], widths[j], hang) if len(cells[j]) > widths[j]
                 else [cells[j]] for j in cols]
        height = max(len(p) for p in parts)
        out = []
        for k in range(height):
            texts = [(p[k] if k < len(p) else "") for p in parts]
            out.append(sep.join(t.rjust(widths[j]) if right[j] else t.ljust(widths[j])
                                for t, j in zip(texts, cols)).rstrip())
        return out

    head = block(headers, "") + [sep.join("-" * widths[j] for j in cols)]
    return head, [block(r) for r in rows]


def col_widths(headers: list[str], rows: list[list[str]]) -> list[int]:
    """Character width of every column (header included)."""
    return [max([len(h)] + [len(r[j]) for r in rows]) for j, h in enumerate(headers)]


def fixed_lines(headers: list[str], rows: list[list[str]], right: list[bool],
                cols: list[int] | None = None, gap: int = 2) -> list[str]:
    """Monospace lines ``[header, rule, row, ...]`` for the columns ``cols``."""
    cols = list(range(len(headers))) if cols is None else cols
    widths = col_widths(headers, rows)
    sep = " " * gap

    def line(cells: list[str]) -> str:
        parts = [cells[j].rjust(widths[j]) if right[j] else cells[j].ljust(widths[j]) for j in cols]
        return sep.join(parts).rstrip()

    rule = sep.join("-" * widths[j] for j in cols)
    return [line(headers), rule] + [line(r) for r in rows]


def column_chunks(widths: list[int], max_chars: int, gap: int = 2) -> list[list[int]]:
    """Split column indices into groups no wider than ``max_chars``.

    Every group after the first repeats column 0 (the row key) when that leaves room
    for at least one more column.
    """
    chunks: list[list[int]] = []
    current: list[int] = []
    used = 0
    for j, w in enumerate(widths):
        extra = w + (gap if current else 0)
        if current and used + extra > max_chars:
            chunks.append(current)
            key = widths[0] + gap
            current, used = ([0], widths[0]) if key + w <= max_chars and j > 0 else ([], 0)
            extra = w + (gap if current else 0)
        current.append(j)
        used += extra
    if current:
        chunks.append(current)
    return chunks


def mono_chars(width_pt: float, size: float) -> int:
    """How many monospace characters fit in ``width_pt`` points at ``size`` points."""
    return int(width_pt // (MONO_ADVANCE * size))
