"""Luck and skill, measured the same way in every game: restricted play.

The strongest player meets players limited to weaker strategies (random choices, a greedy
rule, a heuristic) in two-player games; the share of games it wins against each says how
much a game punishes a player held to that strategy. Near 50% against a sensible player,
luck decides; near 100%, skill does.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from analyzer.sections import Figure, Table

COLUMNS = ("strongest", "weaker", "weaker_words", "win_rate", "ci95_low", "ci95_high",
           "games", "exact")
SKILL_DECIDES = 0.20  # an edge over a sensible player past this: skill decides most games
SKILL_SHOWS = 0.05  # past this: skill shows, though luck decides many games


def skill_row(strongest: str, weaker: str, words: str, win_rate: float,
              ci95: tuple[float, float] | None = None, games: int = 0) -> dict[str, Any]:
    """One duel: the strongest player's two-player win rate against ``weaker`` (``words``:
    what the weaker player does), with its 95% interval (None: exact)."""
    low, high = ci95 if ci95 is not None else (win_rate, win_rate)
    return {"strongest": strongest, "weaker": weaker, "weaker_words": words,
            "win_rate": float(win_rate), "ci95_low": float(low), "ci95_high": float(high),
            "games": int(games), "exact": ci95 is None}


def skill_table(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The duels, weakest opponent first (as given)."""
    return pd.DataFrame(rows, columns=list(COLUMNS))


def _reading(edge: float) -> str:
    """What an edge over the most sensible restricted player means, in words."""
    if edge >= SKILL_DECIDES:
        return "skill decides most games"
    if edge >= SKILL_SHOWS:
        return "skill shows, but luck decides many games"
    return "between sensible players luck decides nearly every game"


def _share(row: Any) -> str:
    interval = "exact" if row.exact else f"95% CI {row.ci95_low:.1%} to {row.ci95_high:.1%}"
    return f"{row.win_rate:.1%} against a player who {row.weaker_words} ({interval})"


def skill_verdict(table: pd.DataFrame, strongest_words: str) -> str:
    """The verdict line: the strongest player's win rate against each weaker one and a
    plain reading from the edge over the most sensible of them (the last row)."""
    duels = "; ".join(_share(row) for row in table.itertuples())
    edge = table.win_rate.iloc[-1] - 0.5
    return (f"Luck and skill (restricted play: how much a game punishes a player held to a "
            f"weaker strategy): {strongest_words} wins {duels}: {_reading(edge)}.")


def skill_parts(prefix: str, table: pd.DataFrame, strongest_words: str,
                who: str) -> tuple[Figure, Table]:
    """The appendix figure and table of the duels (``prefix``: the section's file
    prefix; ``who``: how the games were played, for the caption)."""
    reading = (f"Each bar is the share of two-player games {strongest_words} wins against "
               "a player held to a weaker strategy, seats alternating; 50% (the line) "
               f"would mean that strategy costs nothing. {who}")
    figure = Figure(f"{prefix}_skill", "Luck and skill: the strongest player against "
                    "players held to weaker strategies (two players, 95% intervals)", "bar",
                    table, "weaker_words", "win_rate", err_low="ci95_low",
                    err_high="ci95_high", xlabel="the weaker player",
                    ylabel="strongest player's win rate", reading=reading, ref_line=0.5,
                    percent=True, appendix=True)
    return figure, Table(f"{prefix}_skill", "Luck and skill: the strongest player against "
                         "weaker ones (two players)", table, percent=("win_rate", "ci95_low",
                                                                    "ci95_high"))
