"""A small progress bar on stderr, shown only when stderr is a terminal; with
``DICELAB_PROGRESS=lines`` in the environment, lines a program reads instead (the web app:
``dicelab-progress DONE TOTAL SECONDS_LEFT STATUS``)."""

from __future__ import annotations

import os
import sys
import time

MACHINE_PROGRESS = "DICELAB_PROGRESS"  # the environment variable; "lines" turns them on
LINE_PREFIX = "dicelab-progress "


class Progress:
    """``with Progress(total, label) as bar: bar.advance(n)``; silent when disabled."""

    def __init__(self, total: int, label: str, enabled: bool = True, unit: str = "items"):
        self.total = max(int(total), 1)
        self.label = label
        self.unit = unit
        self.done = 0
        self.lines = enabled and os.environ.get(MACHINE_PROGRESS) == "lines"
        self.enabled = enabled and sys.stderr.isatty() and not self.lines
        self.start = time.perf_counter()
        self.status = ""  # shown after the time left, e.g. the precision reached

    def __enter__(self) -> "Progress":
        return self

    def advance(self, n: int) -> None:
        self.done += int(n)
        if not (self.enabled or self.lines):
            return
        frac = min(self.done / self.total, 1.0)
        rate = self.done / max(time.perf_counter() - self.start, 1e-9)
        bar = "#" * int(frac * 30)
        left = max(self.total - self.done, 0) / rate if self.done else 0.0
        if self.lines:
            sys.stderr.write(f"{LINE_PREFIX}{self.done} {self.total} {left:.1f} "
                             f"{self.status}\n")
            sys.stderr.flush()
            return
        sys.stderr.write(
            f"\r{self.label} [{bar:<30}] {frac:6.1%} {_si(self.done)} {self.unit}"
            f" ({_si(rate)}/s, {clock(left)} left{'; ' + self.status if self.status else ''}) "
        )
        sys.stderr.flush()

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


def clock(seconds: float) -> str:
    """``m:ss`` (or ``h:mm:ss``) of a duration in seconds."""
    seconds = int(round(seconds))
    h, m, s = seconds // 3600, seconds // 60 % 60, seconds % 60
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _si(x: float) -> str:
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= size:
            return f"{x / size:.1f}{unit}"
    return f"{x:.0f}"
