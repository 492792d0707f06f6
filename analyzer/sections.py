"""What a game contributes to the balance report and to its cheat sheet, as plain data.

Game modules build these objects from their analyses; :mod:`reports` turns them into
PNG/PDF/CSV. Nothing here imports matplotlib.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Figure:
    """One chart, drawn from a long-format DataFrame.

    ``kind``: ``"bar"`` (grouped bars: one group per ``x`` value, one bar per ``series``),
    ``"line"`` (one line per ``series``) or ``"step"`` (a probability mass function drawn as
    steps, one per ``series``). ``err_low``/``err_high`` name columns holding the ends of a
    95% interval, drawn as error bars. ``reading`` is a short plain-language reading of the
    figure, printed under it.
    """

    name: str  # file stem of the PNG, e.g. "cloverup_turn_scores"
    title: str
    kind: str
    data: Any  # pandas.DataFrame
    x: str
    y: str
    series: str | None = None
    err_low: str | None = None
    err_high: str | None = None
    xlabel: str = ""
    ylabel: str = ""
    reading: str = ""


@dataclass
class Table:
    """A table written as CSV and printed in the report (first ``max_rows`` rows)."""

    name: str  # file stem of the CSV
    title: str
    data: Any  # pandas.DataFrame
    note: str = ""
    max_rows: int = 25


@dataclass
class Section:
    """A game's part of the balance report."""

    game_id: str
    title: str
    intro: str
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # assumed rules, sample sizes, seeds


@dataclass
class Block:
    """A box on a cheat sheet: a heading and either lines of text or a small table."""

    heading: str
    lines: list[str] = field(default_factory=list)
    table: Any = None  # pandas.DataFrame of short strings, or None


@dataclass
class CheatSheet:
    """A one-page printable A4 strategy card."""

    title: str
    subtitle: str
    blocks: list[Block] = field(default_factory=list)
    footer: str = ""
