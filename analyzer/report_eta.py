"""How long the balance report still needs: each section's time on the last run of the same
kind on this machine (kept beside the compiled kernels, so new kernels start from the
built-in estimates again), or built-in estimates: a first run's, compiles included, or a
run's once the kernels are compiled."""

from __future__ import annotations

import json
import math
from typing import Iterable

from analyzer.files import write_atomic
from analyzer.run.progress import clock

# seconds per section in two lanes on a 2-core machine, by (quick, kernels compiled before
# the run): a first run from an empty numba cache (compiles included; scripts/bench.py's
# report rows) and a run once compiled; used until this machine has run the report so once
ESTIMATES = {
    (False, False): {"cloverup": 48, "sly-dice": 97, "thats-pretty-clever": 169,
                     "twice-as-clever": 91},
    (False, True): {"cloverup": 6, "sly-dice": 30, "thats-pretty-clever": 65,
                    "twice-as-clever": 96},
    (True, False): {"cloverup": 60, "sly-dice": 100, "thats-pretty-clever": 120,
                    "twice-as-clever": 90},
    (True, True): {"cloverup": 4, "sly-dice": 11, "thats-pretty-clever": 17,
                   "twice-as-clever": 8},
}
UNKNOWN_SECTION_SECONDS = 300
FILE_NAME = "report-section-times.json"


def _path():
    from kernels import cache_dir

    return cache_dir() / FILE_NAME


def _kind(quick: bool, compiled: bool) -> str:
    return ("quick" if quick else "full") + ("" if compiled else "-first")


def expected_seconds(game_ids: Iterable[str], quick: bool,
                     compiled: bool = True) -> dict[str, float]:
    """Each section's expected build time: the last run's of the same kind (``quick``,
    kernels ``compiled`` before it or not), else the built-in estimate."""
    last = _kept().get(_kind(quick, compiled), {})
    first = ESTIMATES[quick, compiled]
    return {g: last.get(g, float(first.get(g, UNKNOWN_SECTION_SECONDS))) for g in game_ids}


def _kept() -> dict[str, dict[str, float]]:
    """The times kept by earlier runs, by kind: only whole entries of a time in seconds
    (a finite number of at least 0) for a section; whatever else the file holds is
    passed over, and a file that cannot be read counts as none."""
    try:
        data = json.loads(_path().read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {kind: {g: float(t) for g, t in times.items() if _seconds(t)}
            for kind, times in data.items() if isinstance(times, dict)}


def _seconds(value: object) -> bool:
    """Is ``value`` a time in seconds: a finite number of at least 0?"""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(float(value)) and value >= 0
    except OverflowError:  # an integer too large for a float
        return False


def record(seconds: dict[str, float], quick: bool, compiled: bool = True) -> None:
    """Keep the sections' build times for the next run's estimate (best effort)."""
    path = _path()
    try:
        kept = _kept()
        kept.setdefault(_kind(quick, compiled), {}).update(
            {g: round(s, 1) for g, s in seconds.items()})
        write_atomic(path, json.dumps(kept, indent=1, sort_keys=True))
    except (OSError, ValueError, AttributeError):  # UserError is a ValueError
        pass


class Estimate:
    """The report's remaining time from the sections' expected times, their lanes, the
    sections done and how long the ones being built have been going."""

    def __init__(self, lanes: list[list[str]], expected: dict[str, float]):
        self.lanes, self.expected = lanes, expected
        self.started: dict[str, float] = {}
        self.finished: dict[str, float] = {}

    def start(self, game_id: str, now: float) -> None:
        self.started[game_id] = now

    def finish(self, game_id: str, now: float) -> None:
        self.finished[game_id] = now - self.started.get(game_id, now)

    def _left(self, game_id: str, now: float) -> float:
        if game_id in self.finished:
            return 0.0
        expected = self.expected[game_id]
        if game_id not in self.started:
            return expected
        return max(expected - (now - self.started[game_id]), 0.05 * expected)

    def seconds_left(self, now: float) -> float:
        return max((sum(self._left(g, now) for g in lane) for lane in self.lanes),
                   default=0.0)

    def fraction_done(self, now: float) -> float:
        total = sum(self.expected[g] for lane in self.lanes for g in lane)
        left = sum(self._left(g, now) for lane in self.lanes for g in lane)
        return 1.0 - left / total if total else 1.0

    def bar(self, now: float, width: int = 20) -> str:
        """``[#####.....] 25%, about 3:10 left``"""
        fraction = self.fraction_done(now)
        filled = int(round(fraction * width))
        return (f"[{'#' * filled}{'.' * (width - filled)}] {fraction:.0%}, about "
                f"{clock(self.seconds_left(now))} left")
