"""The next bonus on each numbered track of a Clever sheet, in words (both games' advice
and coaching)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np


def next_track_bonuses(sheet: np.ndarray, tracks: Iterable[tuple[str, int, np.ndarray]],
                       length: int, label: Callable[[int], str],
                       need: Callable[[str, int], str] = lambda area, slot: "") -> list[str]:
    """For each track ``(area, sheet field, bonus code per slot)`` with a bonus ahead: the
    nearest, e.g. ``green slot 4 (2 to go) -> a re-roll``; ``label`` names a bonus code,
    ``need`` adds what its slot asks (``", needs 4+"``)."""
    near = []
    for area, field, track in tracks:
        done = int(sheet[field])
        ahead = [k for k in range(done, length) if track[k]]
        if ahead:
            k = ahead[0]
            near.append(f"{area} slot {k + 1} ({k - done + 1} to go{need(area, k)}) -> "
                        f"{label(int(track[k]))}")
    return near
