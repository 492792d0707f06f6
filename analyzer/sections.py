"""What a game contributes to the balance report and to its cheat sheet, as plain data.

Game modules build these objects from their analyses; :mod:`reports` turns them into
PNG/PDF/CSV. Nothing here imports matplotlib.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from analyzer.seats import MIN_COMEBACK_GAMES
from analyzer.verdicts import MATTERS, imbalanced_seats, rests_on


@dataclass
class Figure:
    """One chart, drawn from a long-format DataFrame.

    ``kind``: ``"bar"`` (grouped bars: one group per ``x`` value, one bar per ``series``),
    ``"dot"`` (the same groups as points, for values around ``ref_line`` rather than 0),
    ``"line"`` (one line per ``series``), ``"step"`` (a probability mass function drawn as
    steps, one per ``series``) or ``"sheet"`` (a score sheet box by box: ``x`` and a ``row``
    column place each box, ``y`` shades it, ``series`` names its area, with ``label`` and
    ``mean_round`` columns; ``reports.sheet_picture``). ``err_low``/``err_high`` name
    columns holding the ends of a 95% interval, drawn as error bars. ``title`` is the
    caption; ``reading`` is a short plain-language reading of the figure, printed under
    it. ``labels`` explains code names (policies) in words in the legend and on the x axis.
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
    labels: dict[Any, str] = field(default_factory=dict)  # series/x value -> words (legend)
    ref_line: float | None = None  # a horizontal reference line (e.g. 0: a fair share)
    percent: bool = False  # y values are shares, shown as percentages
    appendix: bool = False  # drawn in the appendix PDF beside the report, not in the report


@dataclass
class Table:
    """A table written as CSV and printed in the appendix PDF (first ``max_rows`` rows)."""

    name: str  # file stem of the CSV
    title: str
    data: Any  # pandas.DataFrame
    note: str = ""
    max_rows: int = 25
    percent: tuple[str, ...] = ()  # columns shown as percentages besides those named so
    hidden: tuple[str, ...] = ()  # columns left out of the printed table (the CSV has them)


@dataclass
class Finding:
    """A key finding: one plain sentence, the number it rests on, that number's 95%
    interval (``None``: exact) and the name of the figure (or else the table) of its
    section that shows it. ``unit`` ``"%"`` prints shares as percentages, ``"pp"``
    differences of shares as percentage points; any other unit follows the number."""

    text: str
    value: float
    source: str
    ci95: tuple[float, float] | None = None
    unit: str = ""
    digits: int = 1

    def _show(self, x: float) -> str:
        if self.unit in ("%", "pp"):
            sign = "+" if self.unit == "pp" and x > 0 else ""
            return f"{sign}{100 * x:.{self.digits}f}{'%' if self.unit == '%' else ' pp'}"
        return f"{x:,.{self.digits}f}"

    def number(self) -> str:
        """The value as printed, with its unit."""
        unit = f" {self.unit}" if self.unit and self.unit not in ("%", "pp") else ""
        return self._show(self.value) + unit

    def interval(self) -> str:
        """``"exact"`` or ``"95% CI low to high"``."""
        if self.ci95 is None:
            return "exact"
        return f"95% CI {self._show(self.ci95[0])} to {self._show(self.ci95[1])}"


@dataclass
class Section:
    """A game's part of the balance report."""

    game_id: str
    title: str
    intro: str
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # assumed rules, sample sizes, seeds
    findings: list[Finding] = field(default_factory=list)  # 2-4, for the report's first pages
    provenance: dict[str, Any] = field(default_factory=dict)  # columns added to every CSV
    verdict: list[str] = field(default_factory=list)  # opens the section: what is balanced,
    # what is not, and the rule change that moves each headline figure most
    glossary: dict[str, str] = field(default_factory=dict)  # names the tables and notes
    # still use (players, rules) -> their meaning, for the appendix's first page


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
    figure: Any = None  # a Figure drawn across the page above the blocks (a sheet picture)


# --- helpers the game sections share -----------------------------------------------------
def policy_words(name: str, words: dict[str, str]) -> str:
    """A policy name in a few plain words, for legends: ``words`` is keyed like a game's
    ``POLICY_HELP`` (``"reach:T": "aims for T+"``); the name's arguments replace
    the key's capital letters, and other key parts must match (the first key that fits
    wins, so ``"sly:B:rational"`` may come before ``"sly:B:A"``). ``""`` if none fits."""
    parts = name.split(":")
    for key, text in words.items():
        keys = key.split(":")
        if len(keys) != len(parts) or keys[0] != parts[0]:
            continue
        if all(k == p or re.fullmatch("[A-Z]", k) for k, p in zip(keys[1:], parts[1:])):
            for k, p in zip(keys[1:], parts[1:]):
                text = re.sub(rf"\b{k}\b", p, text)
            return text
    return ""


def provenance(seed: int, params: Any, values: dict[str, Any]) -> dict[str, Any]:
    """The seed and the rules in force in plain words (``Param.words``, "; " between
    rules), for every CSV of a section (not the player count, which the section sets per
    figure and table)."""
    return {"seed": seed, "rules": "; ".join(p.words(values[p.name])
                                             for p in params if p.name != "players")}


def glossary(players: dict[str, str], params: Any, notes: list[str]) -> dict[str, str]:
    """A section's glossary: each player's name (``players``: name -> what it does; those
    without words left out) and each rule parameter named in ``notes``, with its plain
    label."""
    named = {name: words for name, words in players.items() if words and words != name}
    text = " ".join(notes)
    named.update({p.name: p.label for p in params
                  if re.search(rf"\b{re.escape(p.name)}\b", text)})
    return named


def fair_share(seats: Any) -> Any:
    """A seat table (``players``, ``win_rate``, ``ci95_low``, ``ci95_high``) with the fair
    share 1/players and each win rate's difference from it, with its 95% interval."""
    share = 1 / seats["players"].astype(int)
    return seats.assign(fair_share=share, vs_fair_share=seats.win_rate - share,
                        vs_fair_share_ci95_low=seats.ci95_low - share,
                        vs_fair_share_ci95_high=seats.ci95_high - share)


def seat_figure(name: str, title: str, seats: Any, reading: str) -> Figure:
    """Win rate by seat as the difference from a fair share, with intervals and a zero
    line (``seats`` from :func:`fair_share`)."""
    return Figure(name, title, "dot", seats, "players", "vs_fair_share", "seat",
                  "vs_fair_share_ci95_low", "vs_fair_share_ci95_high",
                  xlabel="players at the table",
                  ylabel="win rate minus a fair share (1/players)", reading=reading,
                  ref_line=0.0, percent=True)


def crossing_words(behind: Any) -> str:
    """Where a comeback curve with fewer rounds left lies above one with more at the same
    deficit (a later deficit should weigh more): whether the intervals separate them."""
    left = behind.assign(n=behind.rounds_left.str.extract(r"(\d+)", expand=False).astype(int))
    pairs = left.merge(left, on="behind_from", suffixes=("_late", "_early"))
    pairs = pairs[(pairs.n_late < pairs.n_early) & (pairs.win_chance_late
                                                     > pairs.win_chance_early)]
    if pairs.empty:
        return ""
    apart = pairs[pairs.ci95_low_late > pairs.ci95_high_early]
    if apart.empty:
        return (" Where a curve with fewer rounds left lies above one with more, their 95% "
                "intervals overlap: within the noise of the games that far behind.")
    row = apart.loc[(apart.win_chance_late - apart.win_chance_early).idxmax()]
    return (f" {row.behind_by_late[0].upper()}{row.behind_by_late[1:]} with "
            f"{row.rounds_left_late} wins {row.win_chance_late:.1%}, more than with "
            f"{row.rounds_left_early} ({row.win_chance_early:.1%}), beyond the intervals: "
            "here a deficit weighs less late in the game than earlier.")


def comebacks_shown(table: Any, name: str, title: str, who: str,
                    why: str = "") -> tuple[list[Figure], list[Finding]]:
    """The comeback figure (a player's chance to win by how far behind the leader after a
    round, one line per rounds left) and its key finding: the chance from the closest
    deficit in the latest round recorded (``table`` from ``seats.comebacks``; ``who``: the
    games, e.g. "two-player games of the heuristic policy"; ``why``: a sentence more for
    the reading). None of either when no player was behind often enough (one-round games,
    say)."""
    behind = table[table.behind_from > 0] if len(table) else table
    if behind.empty:
        return [], []
    latest = behind[behind.rounds_left == behind.rounds_left.iloc[-1]]
    earliest = behind[behind.rounds_left == behind.rounds_left.iloc[0]]
    near, far = latest.iloc[0], earliest.iloc[-1]
    level = table[(table.behind_from == 0) & (table.rounds_left == near.rounds_left)]
    reading = (f"With {near.rounds_left}, {near.behind_by} wins {near.win_chance:.1%} "
               f"(95% CI {near.ci95_low:.1%} to {near.ci95_high:.1%})"
               + ("" if len(latest) < 2 else f", {latest.iloc[1].behind_by} "
                  f"{latest.iloc[1].win_chance:.1%}")
               + ("" if level.empty else f", level or ahead {level.iloc[0].win_chance:.1%}")
               + f"; with {far.rounds_left}, even {far.behind_by} wins "
               f"{far.win_chance:.1%}. From {who}. A curve ends where fewer than "
               f"{MIN_COMEBACK_GAMES} player-games were that far behind." + why
               + crossing_words(behind))
    figure = Figure(name, title, "line", behind, "behind_mid", "win_chance", "rounds_left",
                    "ci95_low", "ci95_high",
                    xlabel="points behind the leader after the round (middle of each bin)",
                    ylabel="chance to win", reading=reading, percent=True)
    finding = Finding(f"Comebacks: with {near.rounds_left}, a player {near.behind_by} still "
                      f"wins {near.win_chance:.1%} of {who}.", near.win_chance, name,
                      (near.ci95_low, near.ci95_high), "%")
    return [figure], [finding]


def seat_finding(seats: Any, source: str, players_word: str, basis: str = "") -> Finding:
    """The seat furthest from a fair share, beside the seat furthest on the other side
    at that table, as a finding (``seats`` from :func:`fair_share`): a seat effect where
    some seat is beyond noise and ``verdicts.MATTERS`` from its share, else none that
    matters; ``basis``: the assumed rule values it rests on (``verdicts.rests_on``)."""
    row = seats.loc[seats.vs_fair_share.abs().idxmax()]
    table = seats[seats.players == row.players]
    other = table.loc[(table.vs_fair_share * (1 if row.vs_fair_share < 0 else -1)).idxmax()]
    head = ("Seat effect" if imbalanced_seats(seats).any() else
            f"No seat effect to act on (none beyond the noise and {100 * MATTERS:.0f} points "
            "from a fair share); the furthest")
    return Finding(rests_on(f"{head}: with {row.players} {players_word}, {row.seat} wins "
                            f"{row.win_rate:.1%} and {other.seat} {other.win_rate:.1%} "
                            f"(fair share {row.fair_share:.1%}).", basis), row.vs_fair_share,
                   source, (row.vs_fair_share_ci95_low, row.vs_fair_share_ci95_high), "pp")
