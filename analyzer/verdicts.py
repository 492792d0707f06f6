"""The words of the report's verdicts: when a figure reads as not balanced, what a verdict
rests on, and which rule changes bring an imbalance closest to fair.

A verdict is a decision: "Not balanced" only where an effect is beyond noise (its 95%
interval leaves out the fair value; exact figures have no noise) and at least as large as
a designer would act on (``MATTERS`` of a win share, ``UNEVEN`` between card worths).
"""

from __future__ import annotations

import re
from typing import Any, Callable

import pandas as pd

MATTERS = 0.02  # a win share this far from fair (2 percentage points) is worth acting on
UNEVEN = 1.25  # cards of one kind whose worths differ by this factor are worth acting on

THRESHOLDS = (
    "How to read the verdicts: \"not balanced\" means an effect beyond noise (its 95% "
    "interval leaves out the fair value) and at least as large as a designer would act "
    f"on: {100 * MATTERS:.0f} percentage points of a fair win share for seats, the richest "
    f"fixed card worth {UNEVEN:g} times the poorest for cards. A smaller or noisier "
    "effect reads as balanced. Where an imbalance is named, so are the rule changes "
    "that bring it closest to fair, with their measured effect.")


def imbalanced(diff: float, low: float | None = None, high: float | None = None,
               matters: float = MATTERS) -> bool:
    """Whether a difference from fair (``low``/``high``: its 95% interval; none: exact)
    is both beyond noise and at least ``matters``."""
    beyond_noise = low is None or low > 0 or high < 0
    return bool(beyond_noise and abs(diff) >= matters)


def imbalanced_seats(seats: Any) -> Any:
    """Which rows of a seat table (``sections.fair_share``) are ``imbalanced`` (a boolean
    Series on its index)."""
    return pd.Series([imbalanced(r.vs_fair_share, r.vs_fair_share_ci95_low,
                                 r.vs_fair_share_ci95_high) for r in seats.itertuples()],
                     index=seats.index, dtype=bool)


def rests_on(text: str, basis: str) -> str:
    """``text`` with ``", on {basis}"`` closing its first sentence (``basis`` empty: as
    it is), so a verdict says in the same sentence what assumed rule value it rests on."""
    if not basis:
        return text
    end = re.search(r"\.(?=\s|$)", text)
    cut = end.start() if end else len(text)
    return f"{text[:cut]}, on {basis}{text[cut:]}"


def assumed_in_force(params: Any, values: dict[str, Any], names: Any = None) -> list[Any]:
    """The assumed parameters at their assumed default (among ``names``; none: all): the
    placeholders a figure rests on. A value the user chose is theirs, not assumed."""
    return [p for p in params if p.assumed and values[p.name] == p.default
            and (names is None or p.name in names)]


def seat_verdict(seats: Any, who: str, basis: str = "") -> str:
    """A verdict on the seats (``seats`` from ``sections.fair_share``; ``who``: the players
    and their policy): not balanced where a seat is beyond noise and ``MATTERS`` from its
    fair share (the furthest such seat named), else balanced, with the furthest seat."""
    counts = seats.players.astype(int)
    span = f"{counts.min()}-{counts.max()}" if counts.nunique() > 1 else f"{counts.iloc[0]}"
    off = seats[imbalanced_seats(seats)]
    if off.empty:
        row = seats.loc[seats.vs_fair_share.abs().idxmax()]
        return rests_on(
            f"Balanced: the seats, {who}, at {span} players. The furthest from a fair share "
            f"is {row.seat} of {row.players} at {row.win_rate:.1%} against "
            f"{row.fair_share:.1%} (95% CI {row.ci95_low:.1%} to {row.ci95_high:.1%}), "
            f"within {100 * MATTERS:.0f} points or within the noise.", basis)
    row = off.loc[off.vs_fair_share.abs().idxmax()]
    return rests_on(
        f"Not balanced: the seats, {who}. With {row.players} players {row.seat} wins "
        f"{row.win_rate:.1%} against a fair share of {row.fair_share:.1%} (95% CI "
        f"{row.ci95_low:.1%} to {row.ci95_high:.1%}).", basis)


def closest_to_fair(changes: Any, base: float, fair: float, value: str,
                    show: Callable[[float], str], low: str = "", high: str = "",
                    label: str = "change", count: int = 2) -> str:
    """The ``count`` rule changes (rows of ``changes``, each moving a figure by ``value``
    from ``base``) that bring the figure closest to ``fair``, in words with their effect
    and its 95% interval (``low``/``high``; none: exact); "" when none brings it closer."""
    rows = changes[changes[value].notna()]
    rows = rows.assign(gap=(base + rows[value] - fair).abs())
    better = rows[rows.gap < abs(base - fair)].sort_values("gap").head(count)
    parts = []
    for _, row in better.iterrows():
        interval = f", 95% CI {show(row[low])} to {show(row[high])}" if low else ", exact"
        parts.append(f"{row[label]} ({show(row[value])}{interval})")
    return "; ".join(parts)


def lever_words(changes: Any, value: str, show: Callable[[float], str], low: str = "",
                high: str = "", label: str = "change") -> str:
    """The row of ``changes`` (one rule change each) whose ``value`` is furthest from 0,
    in words: its ``label``, its value by ``show`` and its 95% interval (columns
    ``low``/``high``; none: exact). "Most" only where its interval clears the next
    change's, in size; else the runner-up is named as about as large (and which way)."""
    rows = changes[changes[value].notna()]
    order = rows[value].abs().sort_values(ascending=False).index
    top = rows.loc[order[0]]
    interval = f"95% CI {show(top[low])} to {show(top[high])}" if low else "exact"
    text = f"{top[label]} ({show(top[value])}, {interval})"
    if len(order) < 2:
        return text
    second = rows.loc[order[1]]
    if low:
        apart = (min(abs(top[low]), abs(top[high])) > max(abs(second[low]), abs(second[high]))
                 and top[low] * top[high] > 0)
    else:
        apart = abs(top[value]) > abs(second[value])
    way = "" if top[value] * second[value] > 0 else ", the other way"
    return text if apart else (f"{text}, about as large as {second[label]} "
                               f"({show(second[value])}{way})")
