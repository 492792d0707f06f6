"""The inverse what-if (``dicelab GAME tune``): values of named free parameters that meet
targets, within bounds, by ``scipy.optimize``: a bracketing root finder for one target and
one free parameter, bounded least squares otherwise.

A game gives ``evaluate(x) -> achieved`` (float64[len(free)] -> float64[len(targets)]) and
the tolerance its figures allow (1e-6 for exact ones, the confidence interval for Monte
Carlo ones); this module parses ``NAME=VALUE`` targets and ``NAME=LOW:HIGH`` bounds, finds
the values and says when a target is out of reach. The answer's side effects are a table of
the game's other headline figures at the found values against the baseline (the rules in
force), each difference with its 95% interval (``whatif_effects``, ``effect_row``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from analyzer.errors import UserError

SCAN_POINTS = 33  # a first look along one free parameter, for a bracket or the nearest miss
CLOSE = 0.1  # a miss within 10% of the target (or 0.1 when the target is 0) is reported


@dataclass(frozen=True)
class Target:
    name: str
    value: float


@dataclass(frozen=True)
class Free:
    name: str
    low: float
    high: float
    start: float  # its value in the rules in force


@dataclass
class Answer:
    values: dict[str, float]  # free parameter -> value found
    achieved: dict[str, float]  # target name -> its value there
    targets: list[Target]
    met: bool
    evaluations: int

    def rows(self) -> list[dict]:
        """One row per target: wanted, achieved, residual."""
        return [{"target": t.name, "wanted": t.value, "achieved": self.achieved[t.name],
                 "residual": self.achieved[t.name] - t.value} for t in self.targets]


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UserError(f"bad {what}: expected a number") from None
    if not math.isfinite(value):
        raise UserError(f"bad {what}: expected a finite number")
    return value


def parse_targets(texts: Sequence[str], names: Callable[[str], bool],
                  accepted: str) -> list[Target]:
    """``NAME=VALUE`` texts as targets; ``names(name)`` says whether a name is known,
    ``accepted`` lists them for the error line."""
    if not texts:
        raise UserError(f"no --target given: expected NAME=VALUE with NAME one of {accepted}")
    out = []
    for text in texts:
        name, eq, value = text.partition("=")
        name = name.strip()
        if not eq or not names(name):
            raise UserError(f"bad target {text!r}: expected NAME=VALUE with NAME one of "
                            f"{accepted}")
        if name in {t.name for t in out}:
            raise UserError(f"target {name!r} given twice")
        out.append(Target(name, _number(value, f"target value in {text!r}")))
    return out


def parse_free(text: str, known: Sequence[str], start: Callable[[str], float],
               bounds: Sequence[str], default: tuple[float, float],
               limits: tuple[float, float]) -> list[Free]:
    """The ``--free a,b`` parameters with their bounds: ``default`` unless a ``--bounds
    NAME=LOW:HIGH`` says otherwise, always inside ``limits``."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    accepted = ", ".join(known)
    if not names:
        raise UserError(f"no --free parameter given: expected some of {accepted}")
    for name in names:
        if name not in known:
            raise UserError(f"unknown free parameter {name!r}: expected some of {accepted}")
    if len(set(names)) < len(names):
        raise UserError(f"a free parameter is named twice in {text!r}")
    ranges = {name: default for name in names}
    for spec in bounds:
        name, eq, span = spec.partition("=")
        low, colon, high = span.partition(":")
        if not eq or not colon:
            raise UserError(f"bad bounds {spec!r}: expected NAME=LOW:HIGH")
        if name.strip() not in ranges:
            raise UserError(f"bounds for {name.strip()!r}, which is not free (--free {text})")
        lo, hi = _number(low, f"low bound in {spec!r}"), _number(high, f"high bound in {spec!r}")
        if not limits[0] <= lo < hi <= limits[1]:
            raise UserError(f"impossible bounds {spec!r}: expected {limits[0]:g} <= LOW < HIGH "
                            f"<= {limits[1]:g}")
        ranges[name.strip()] = (lo, hi)
    return [Free(n, *ranges[n], min(max(start(n), ranges[n][0]), ranges[n][1]))
            for n in names]


def solve(evaluate: Callable[[np.ndarray], np.ndarray], free: list[Free],
          targets: list[Target], tolerance: float) -> Answer:
    """The free values that bring every target within ``tolerance``, or the nearest miss
    (``met`` False); a ``UserError`` when even that is far (more than ``CLOSE``)."""
    calls = [0]

    def achieved(x: np.ndarray) -> np.ndarray:
        calls[0] += 1
        return np.asarray(evaluate(np.asarray(x, np.float64)), np.float64)

    wanted = np.array([t.value for t in targets])
    if len(free) == 1 and len(targets) == 1:
        x = _one_root(achieved, free[0], wanted[0], tolerance)
    else:
        x = _least_squares(achieved, free, wanted)
    got = achieved(x)
    miss = np.abs(got - wanted)
    answer = Answer({f.name: float(v) for f, v in zip(free, x)},
                    {t.name: float(g) for t, g in zip(targets, got)}, targets,
                    bool(np.all(miss <= tolerance)), calls[0])
    far = miss > np.maximum(CLOSE * np.abs(wanted), CLOSE)
    if far.any():
        k = int(np.argmax(far))
        where = ", ".join(f"{f.name} in [{f.low:g}, {f.high:g}]" for f in free)
        raise UserError(f"target {targets[k].name}={targets[k].value:g} is out of reach with "
                        f"{where}: the nearest is {got[k]:.6g}")
    return answer


def _one_root(achieved, free: Free, wanted: float, tolerance: float) -> np.ndarray:
    """One target, one free parameter: scan (log-spaced for a positive range), then
    Brent's method inside the first bracket; without one, the nearest point of the scan,
    refined by a bounded scalar minimisation."""
    from scipy.optimize import brentq, minimize_scalar

    if free.low > 0:
        grid = np.geomspace(free.low, free.high, SCAN_POINTS)
    else:
        grid = np.linspace(free.low, free.high, SCAN_POINTS)
    grid = np.unique(np.append(grid, free.start))
    gaps = np.array([achieved([g])[0] - wanted for g in grid])
    if np.any(np.abs(gaps) <= tolerance):
        near = np.abs(gaps) <= tolerance
        return np.array([grid[near][np.argmin(np.abs(grid[near] - free.start))]])
    crossing = np.nonzero(np.sign(gaps[:-1]) != np.sign(gaps[1:]))[0]
    if crossing.size:  # the bracket nearest the rules in force
        k = crossing[np.argmin(np.abs(grid[crossing] - free.start))]
        root = brentq(lambda v: achieved([v])[0] - wanted, grid[k], grid[k + 1],
                      xtol=1e-12, rtol=4 * np.finfo(float).eps, maxiter=200)
        return np.array([root])
    k = int(np.argmin(np.abs(gaps)))
    lo, hi = grid[max(k - 1, 0)], grid[min(k + 1, len(grid) - 1)]
    best = minimize_scalar(lambda v: abs(achieved([v])[0] - wanted), bounds=(lo, hi),
                           method="bounded", options={"xatol": 1e-10})
    return np.array([best.x if best.fun < abs(gaps[k]) else grid[k]])


def _least_squares(achieved, free: list[Free], wanted: np.ndarray) -> np.ndarray:
    """Bounded least squares on the misses, each scaled by its target's size, from the
    rules in force."""
    from scipy.optimize import least_squares

    scale = np.maximum(np.abs(wanted), 1.0)
    low = np.array([f.low for f in free])
    high = np.array([f.high for f in free])
    start = np.clip(np.array([f.start for f in free]), low, high)
    fit = least_squares(lambda x: (achieved(x) - wanted) / scale, start, bounds=(low, high),
                        xtol=1e-14, ftol=1e-14, gtol=1e-14, max_nfev=200 * len(free))
    return fit.x


# ---------------------------------------------------------------- side effects

SIDE_EFFECTS = "side_effects"  # the result table of the found values' side effects


@dataclass(frozen=True)
class SideEffectRun:
    """How ``tune`` plays the simulated side effects: a paired what-if of the found values
    against the baseline (the rules in force), ``lineup`` cycled over the seats, at most
    ``games`` games (fewer once ``precision``, a ``seats.Precision``, holds), on ``seed``."""

    lineup: list[str]
    games: int
    seed: int
    precision: Any = None
    threads: int | None = None
    progress: bool = True


def effect_row(name: str, words: str, baseline: float, found: float,
               interval: tuple[float, float] | None = None,
               source: str = "exact") -> dict[str, Any]:
    """One row of the side-effects table: a figure at the baseline and at the found
    values, their difference and its 95% interval (an exact figure's: the difference)."""
    difference = float(found) - float(baseline)
    low, high = interval if interval is not None else (difference, difference)
    return {"metric": words, "baseline": float(baseline), "found": float(found),
            "difference": difference, "difference_ci95_low": float(low),
            "difference_ci95_high": float(high), "source": source, "name": name}


def whatif_effects(whatif: Any, found_label: str, words: Callable[[str], str | None],
                   exact: Sequence[str] = ()) -> list[dict[str, Any]]:
    """Side-effect rows from a what-if ``Result`` whose first variant is the baseline:
    every metric of the variant ``found_label`` that ``words`` names (None: left out),
    with its paired difference's 95% interval; ``exact`` names the exact metrics."""
    table = whatif.tables["variants"]
    base_label = table["variant"].iloc[0]
    base = table[table["variant"] == base_label].set_index("metric")
    rows = []
    for _, row in table[table["variant"] == found_label].iterrows():
        text = words(row["metric"])
        if text is None:
            continue
        same = found_label == base_label  # the answer is the baseline itself
        interval = (0.0, 0.0) if same else (row["diff_ci95_low"], row["diff_ci95_high"])
        source = "exact" if row["metric"] in exact else "simulated"
        rows.append(effect_row(row["metric"], text, base.loc[row["metric"], "value"],
                               row["value"], interval, source))
    return rows


def effects_table(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The side-effects table from ``effect_row`` rows (its columns even when empty)."""
    columns = ["metric", "baseline", "found", "difference", "difference_ci95_low",
               "difference_ci95_high", "source", "name"]
    return pd.DataFrame(rows, columns=columns)


def effects_note(games: int, seed: int, lineup: Sequence[str]) -> str:
    """The note that says what the side-effects table is."""
    return (f"{SIDE_EFFECTS}: the other headline figures at the found values against the "
            "baseline (the rules in force), each difference with its 95% interval; the "
            f"simulated ones from a paired what-if (the same {games:,} games for both, seed "
            f"{seed}, lineup {','.join(lineup)})")


def metric_words(name: str, lineup: Sequence[str], words: dict[str, str]) -> str | None:
    """A what-if metric in words: each seat's win rate with its policy, the others as
    ``words`` names them (None: left out, as ``first_seat_win_rate``: seat 1's)."""
    from analyzer.paired import SEAT_WIN, seat_policy

    if name.startswith(SEAT_WIN):
        return f"seat {name[len(SEAT_WIN):]}'s win rate ({seat_policy(list(lineup), name)})"
    return words.get(name)
