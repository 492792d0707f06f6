"""Whole-game statistics shared by every game: lineups, per-policy and per-seat estimates
with 95% intervals, score distributions and the ``--precision`` stopping rule.

A game's block kernel accumulates int64 rows ``acc[lineup_slot, seat, column]``; a
``Columns`` record says where the common columns are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from analyzer import stats
from analyzer.errors import UserError


@dataclass(frozen=True)
class Columns:
    games: int
    score_sum: int
    score_sq: int
    win_units: int  # a game's win is worth ``units_per_win`` (ties split it)
    hist: int  # first histogram column; bin i counts final score ``hist_low + i``
    units_per_win: int
    hist_low: int = 0
    # the contest record (``kernels.accumulate.add_contest``; -1: not kept): sums of each
    # game's margin to the best other player and its square, of the lead (the margin where
    # it is above 0: the top player's over the runner-up) and its square, games whose top
    # score is shared, and sums of the decisions made and their squares
    margin_sum: int = -1
    margin_sq: int = -1
    lead_sum: int = -1
    lead_sq: int = -1
    ties: int = -1
    decisions_sum: int = -1
    decisions_sq: int = -1


def cycle_lineup(parsed: Sequence[Any], players: int) -> list[Any]:
    """Seat i plays ``parsed[i % len(parsed)]``; at most one policy per player."""
    if not parsed:
        raise UserError("no policy given")
    if len(parsed) > players:
        raise UserError(f"{len(parsed)} policies for {players} players: give at most one "
                        "policy per player")
    return [parsed[i % len(parsed)] for i in range(players)]


def row_stats(row: np.ndarray, cols: Columns, players: int) -> dict[str, Any]:
    """Mean score and (with two or more players) win rate of one row, with 95% intervals."""
    n = float(row[cols.games])
    mean, se = stats.mean_se(n, float(row[cols.score_sum]), float(row[cols.score_sq]))
    out: dict[str, Any] = {"games": int(n), "mean_score": mean, "se": se,
                           "ci95": stats.ci95(mean, se)}
    if players > 1:
        wins = row[cols.win_units] / cols.units_per_win
        win, win_se = stats.proportion_se(n, wins)
        out.update(win_rate=win, win_se=win_se, win_ci95=stats.proportion_ci95(n, wins))
    return out


def contest_record(row: np.ndarray, cols: Columns, players: int) -> dict[str, Any]:
    """A row's (a seat's or a policy's) contest columns with their 95% intervals: with two
    or more players the mean ``margin`` (the final score minus the best other player's;
    below 0 when behind) and the ``tie_rate`` (games whose top score is shared), then the
    ``decisions`` made a game; empty where the columns are not kept."""
    if cols.decisions_sum < 0:
        return {}
    n = float(row[cols.games])
    out: dict[str, Any] = {}
    if players > 1:
        margin, se = stats.mean_se(n, float(row[cols.margin_sum]), float(row[cols.margin_sq]))
        low, high = stats.ci95(margin, se)
        ties = float(row[cols.ties])
        tie_low, tie_high = stats.proportion_ci95(n, ties)
        out.update(margin=margin, margin_ci95_low=low, margin_ci95_high=high,
                   tie_rate=stats.proportion_se(n, ties)[0], tie_ci95_low=tie_low,
                   tie_ci95_high=tie_high)
    mean, se = stats.mean_se(n, float(row[cols.decisions_sum]), float(row[cols.decisions_sq]))
    low, high = stats.ci95(mean, se)
    return {**out, "decisions": mean, "decisions_ci95_low": low, "decisions_ci95_high": high}


def game_contest(acc: np.ndarray, cols: Columns, players: int) -> dict[str, Any]:
    """A whole run's contest figures, each game counted once (``acc``: int64[slot, seat,
    column], every seat of every game): ``games``; with two or more players the mean
    ``win_margin`` (first place's score minus second's, 0 when the top is shared) with
    its 95% interval ``win_margin_ci95`` (exact sums: a game's margin sits in one row),
    the ``tie_rate`` with its ``tie_ci95``; and the ``decisions`` a player makes a game
    with ``decisions_ci95`` (over player-games)."""
    total = acc.reshape(-1, acc.shape[-1]).sum(axis=0)
    games = float(total[cols.games]) / players
    out: dict[str, Any] = {"games": int(games)}
    if players > 1:
        margin, se = stats.mean_se(games, float(total[cols.lead_sum]),
                                   float(total[cols.lead_sq]))
        tied = float(total[cols.ties]) / players
        out.update(win_margin=margin, win_margin_ci95=stats.ci95(margin, se),
                   tie_rate=stats.proportion_se(games, tied)[0],
                   tie_ci95=stats.proportion_ci95(games, tied))
    mean, se = stats.mean_se(float(total[cols.games]), float(total[cols.decisions_sum]),
                             float(total[cols.decisions_sq]))
    out.update(decisions=mean, decisions_ci95=stats.ci95(mean, se))
    return out


def rate(row: np.ndarray, cols: Columns, column: int) -> tuple[float, list[float]]:
    """Per-game rate of a 0/1-per-game column with its 95% interval."""
    n, hits = float(row[cols.games]), float(row[column])
    return stats.proportion_se(n, hits)[0], stats.proportion_ci95(n, hits)


def by_name(acc: np.ndarray, names: Sequence[str]) -> dict[str, np.ndarray]:
    """Rows summed over seats and over the lineup slots that play the same policy."""
    merged: dict[str, np.ndarray] = {}
    for slot, name in enumerate(names):
        merged[name] = merged.get(name, 0) + acc[slot].sum(axis=0)
    return merged


def score_distribution(row: np.ndarray, cols: Columns, **label: Any) -> list[dict[str, Any]]:
    """The final-score histogram of a row as probabilities with their standard errors;
    every row starts with the ``label`` columns."""
    hist = row[cols.hist:]
    n = float(hist.sum())
    rows = []
    for b in np.nonzero(hist)[0]:
        p, se = stats.proportion_se(n, float(hist[b]))
        rows.append({**label, "score": int(b) + cols.hist_low, "probability": p, "se": se})
    return rows


MIN_COMEBACK_GAMES = 30  # a (round, gap) cell with fewer player-games is left out


def comebacks(row: np.ndarray, cols: Columns, col: int, rounds: int, step: int,
              **label: Any) -> list[dict[str, Any]]:
    """A player's chance to win from each standing after each round but the last, from
    the comeback record at ``row[col:]`` (``kernels.accumulate.add_comebacks``, deficits
    binned by ``step`` points): rows of ``rounds_left``, ``behind_by`` (words),
    ``behind_from`` (the bin's fewest points behind; 0: level or ahead), ``behind_mid``
    (the bin's middle, for plotting; 0: level or ahead), ``games`` (player
    games in that spot), ``win_chance`` and its 95% interval. Cells with fewer than
    ``MIN_COMEBACK_GAMES`` player-games are left out; every row starts with ``label``."""
    from kernels.accumulate import COMEBACK_LEN, GAP_BINS, STANDING_ROUNDS  # numba: lazily

    record = row[col:col + COMEBACK_LEN].reshape(STANDING_ROUNDS, GAP_BINS, 2)
    rows = []
    for r in range(min(rounds, STANDING_ROUNDS) - 1):
        left = rounds - r - 1
        for b in range(GAP_BINS):
            n, wins = float(record[r, b, 0]), record[r, b, 1] / cols.units_per_win
            if n < MIN_COMEBACK_GAMES:
                continue
            low = 0 if b == 0 else 1 + (b - 1) * step
            words = ("level or ahead" if b == 0 else f"{low}+ behind" if b == GAP_BINS - 1
                     else f"{low}-{low + step - 1} behind")
            ci = stats.proportion_ci95(n, wins)
            rows.append({**label, "rounds_left": f"{left} round{'s' * (left > 1)} left",
                         "behind_by": words, "behind_from": low,
                         "behind_mid": 0.0 if b == 0 else low + (step - 1) / 2, "games": int(n),
                         "win_chance": wins / n, "ci95_low": ci[0], "ci95_high": ci[1]})
    return rows


SPREAD = (("p10", 0.1), ("median", 0.5), ("p90", 0.9))


def spread(row: np.ndarray, cols: Columns) -> dict[str, float]:
    """How widely final scores spread in a row: their standard deviation (from the exact
    sums) and the 10th, 50th and 90th percentiles (the lowest score whose share of games
    at or below it reaches 10%, 50%, 90%; from the score histogram)."""
    n = float(row[cols.games])
    mean, se = stats.mean_se(n, float(row[cols.score_sum]), float(row[cols.score_sq]))
    out = {"sd": se * np.sqrt(n) if n > 1 else float("nan")}
    hist = row[cols.hist:]
    cumulative = np.cumsum(hist) / max(hist.sum(), 1)
    for name, q in SPREAD:
        out[name] = float(np.searchsorted(cumulative, q - 1e-12) + cols.hist_low)
    return out


def sd_ci95(row: np.ndarray, cols: Columns) -> tuple[float, list[float]]:
    """The standard deviation of a row's final scores (``spread``'s) with its 95%
    interval: the normal approximation of its sampling error (``stats.sd_se``, the fourth
    central moment from the score histogram), the low end at least 0."""
    sd = spread(row, cols)["sd"]  # from the exact sums
    hist = row[cols.hist:].astype(np.float64)
    counted = hist.sum()
    if counted < 2 or not np.isfinite(sd):
        return sd, [float("nan"), float("nan")]
    scores = np.arange(len(hist)) + cols.hist_low
    mean = float(row[cols.score_sum]) / float(row[cols.games])
    m4 = float((hist * (scores - mean) ** 4).sum() / counted)
    low, high = stats.ci95(sd, stats.sd_se(float(row[cols.games]), sd, m4))
    return sd, [max(low, 0.0), high]


def summary_rows(acc: np.ndarray, cols: Columns, names: Sequence[str]) -> list[dict]:
    """The summary: each policy's mean score, spread (standard deviation) and, with two
    or more players, win rate, each with its 95% interval; over all its seats (seat
    "all"), then in each seat it played (a policy in one seat: that seat's row alone). A
    policy in every seat wins 1/players of its player-games exactly: no interval."""
    players = len(names)
    rows = []
    for name in dict.fromkeys(names):
        slots = [slot for slot, other in enumerate(names) if other == name]
        by_seat = acc[slots].sum(axis=0)
        played = [seat for seat in range(players) if by_seat[seat, cols.games] > 0]
        seat = "all" if len(played) > 1 else str(played[0] + 1)
        rows.append(summary_row(name, seat, by_seat.sum(axis=0), cols, players))
        if len(slots) == players > 1:
            rows[-1].update(win_rate=1 / players, win_ci95_low=1 / players,
                            win_ci95_high=1 / players)
        if len(played) > 1:
            rows += [summary_row(name, str(seat + 1), by_seat[seat], cols, players)
                     for seat in played]
    return rows


def summary_row(name: str, seat: str, row: np.ndarray, cols: Columns, players: int
                ) -> dict[str, Any]:
    """One row of the summary (``summary_rows``)."""
    s = row_stats(row, cols, players)
    sd, sd_ci = sd_ci95(row, cols)
    record = {"policy": name, "seat": seat, "seat_games": s["games"],
              "mean_score": s["mean_score"], "ci95_low": s["ci95"][0],
              "ci95_high": s["ci95"][1], "sd": sd, "sd_ci95_low": sd_ci[0],
              "sd_ci95_high": sd_ci[1]}
    if players > 1:
        record.update(win_rate=s["win_rate"], win_ci95_low=s["win_ci95"][0],
                      win_ci95_high=s["win_ci95"][1])
    return record


@dataclass(frozen=True)
class Precision:
    """When a run may stop early: every policy's mean-score 95% half-width at most
    ``points`` (``--precision``) and, with two or more players, every win rate's at most
    ``win_points`` percentage points (``--win-precision``); None: that interval does not
    decide. ``by_default``: the widths are the commands' defaults (``DEFAULT``, no
    ``--games``), so a solo game's win width is simply unused; ``by_seat``: every seat's
    intervals must be that narrow (a mirror match's seat effects), not every policy's."""

    points: float | None = None
    win_points: float | None = None
    by_default: bool = False
    by_seat: bool = False

    def describe(self, players: int = 2) -> str:
        parts = [f"mean scores within +-{self.points:g} points"] if self.points else []
        if self.win_points and players > 1:
            parts.append(f"win rates within +-{self.win_points:g} percentage points")
        return " and ".join(parts)


DEFAULT = Precision(points=1.0, win_points=2.0, by_default=True)  # the headline figures'
# 95% half-widths when no --games fixes the count


def as_precision(precision: Precision | float | None) -> Precision | None:
    """A ``Precision`` (a number: mean scores only), checked; None stays None."""
    if precision is None or isinstance(precision, Precision):
        value = precision
    else:
        value = Precision(points=float(precision))
    if value is None or (value.points is None and value.win_points is None):
        return None
    for name, x in (("precision", value.points), ("win precision", value.win_points)):
        if x is not None and not x > 0:
            raise UserError(f"bad {name} {x}: expected a number above 0")
    return value


def precise_enough(acc: np.ndarray, names: Sequence[str], cols: Columns,
                   precision: Precision | float) -> bool:
    """Every policy's intervals are as narrow as ``precision`` asks (half-widths: the mean
    score's in points, the win rate's in percentage points)."""
    precision = as_precision(precision)
    for row in _rows(acc, names, precision.by_seat):
        s = row_stats(row, cols, len(names))
        if precision.points is not None and \
                s["ci95"][1] - s["mean_score"] > precision.points:
            return False
        if precision.win_points is not None and "win_ci95" in s and \
                50 * (s["win_ci95"][1] - s["win_ci95"][0]) > precision.win_points:
            return False
    return True


def _rows(acc: np.ndarray, names: Sequence[str], by_seat: bool) -> list[np.ndarray]:
    """The accumulator's rows by seat (``by_seat``) or by policy (``by_name``)."""
    if by_seat:
        return [acc[:, seat].sum(axis=0) for seat in range(len(names))]
    return list(by_name(acc, names).values())


def widest(acc: np.ndarray, names: Sequence[str], cols: Columns, by_seat: bool = False
           ) -> tuple[float, float]:
    """The widest 95% half-widths of the policies' (``by_seat``: the seats') mean scores
    (points) and win rates (percentage points; nan solo)."""
    points, win = 0.0, float("nan")
    for row in _rows(acc, names, by_seat):
        s = row_stats(row, cols, len(names))
        points = max(points, s["ci95"][1] - s["mean_score"])
        if "win_ci95" in s:
            win = np.nanmax([win, 50 * (s["win_ci95"][1] - s["win_ci95"][0])])
    return points, float(win)


class StopRule:
    """The driver's stop callback: true once ``check(acc, done)`` is; ``last`` words the
    widths reached at the last call (``words(acc, done)``) for the progress bar."""

    def __init__(self, check: Callable[[np.ndarray, int], bool],
                 words: Callable[[np.ndarray, int], str]):
        self.check, self.words, self.last = check, words, ""

    def __call__(self, acc: np.ndarray, done: int) -> bool:
        self.last = self.words(acc, done)
        return self.check(acc, done)


def width_words(points: float, win: float, prefix: str = "") -> str:
    """Half-widths reached, in words for the progress bar: "+-0.84 points, +-1.9 pp"."""
    parts = [f"{prefix}+-{points:.2f} points"]
    if np.isfinite(win):
        parts.append(f"+-{win:.1f} pp")
    return ", ".join(parts)


def stop_rule(names: Sequence[str], cols: Columns,
              precision: Precision | float | StopRule | None) -> StopRule | None:
    """The driver's stop callback for ``--precision`` / ``--win-precision`` (None without
    them; a ``StopRule`` given is that rule)."""
    if isinstance(precision, StopRule):
        return precision
    precision = as_precision(precision)
    if precision is None:
        return None
    check_win_precision(precision, len(names))
    return StopRule(lambda acc, done: precise_enough(acc, names, cols, precision),
                    lambda acc, done: width_words(*widest(acc, names, cols,
                                                          precision.by_seat)))


SEAT_VERDICT = Precision(win_points=DEFAULT.win_points, by_seat=True)  # a report's mirror
# matches: every seat's win rate to the commands' default width


def check_win_precision(precision: Precision | float | None, players: int) -> None:
    """``--win-precision`` needs two or more players: a solo game has no win rates."""
    precision = as_precision(precision)
    if precision is not None and precision.win_points is not None and players < 2 \
            and not precision.by_default:
        raise UserError("--win-precision needs two or more players (a solo game has no "
                        "win rates); use --precision for the mean score")


def seat_rows(acc: np.ndarray, cols: Columns, names: Sequence[str], rotate: bool):
    """Per-seat rows (mean score, win rate, the contest columns of ``contest_record``,
    with intervals) and per-seat score distributions."""
    players = len(names)
    rows, dist = [], []
    for seat in range(players):
        row = acc[:, seat].sum(axis=0)
        dist += score_distribution(row, cols, by="seat", name=str(seat + 1))
        s = row_stats(row, cols, players)
        record = {"seat": seat + 1,
                  "policy": "rotating" if rotate and len(set(names)) > 1 else names[seat],
                  "mean_score": s["mean_score"], "ci95_low": s["ci95"][0],
                  "ci95_high": s["ci95"][1]}
        if players > 1:
            record.update(win_rate=s["win_rate"], win_ci95_low=s["win_ci95"][0],
                          win_ci95_high=s["win_ci95"][1])
        rows.append({**record, **contest_record(row, cols, players)})
    return rows, dist


def precision_note(precision: Precision | float | None, cap: int, played: int,
                   reached: bool, players: int = 2) -> list[str]:
    """The note on a run that stopped at a precision: the widths, the cap and the games
    played, and whether the cap came first."""
    precision = as_precision(precision)
    if precision is None:
        return []
    return [f"ran until the 95% intervals had {precision.describe(players)} (at most {cap:,} "
            f"games): {played:,} games" + ("" if reached else "; the cap came first, so the "
                                           f"precision was NOT reached (raise {CAP_OPTION})")]


CAP_OPTION = "--max-games, or --games where it is given"
