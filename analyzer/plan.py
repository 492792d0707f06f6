"""A run as plain data: its chunks and the function that computes them (run by
``analyzer.execution`` on local threads or a cluster)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np


@dataclass
class Plan:
    """One run: ``compute(some_chunks)`` gives the results (arrays) of a list of chunks,
    each the same whichever others it is computed with.

    ``compute`` must be picklable (a ``functools.partial`` of a module-level function over
    plain arguments) to run on cluster workers, which compute one chunk at a time;
    ``identity`` is everything the results depend on (it names the run in a checkpoint
    folder); ``chunks`` are tuples of ints. Local threads compute ``group`` consecutive
    chunks at a time, so that one parallel loop spreads all their work over the threads.
    """

    compute: Callable[[list[tuple[int, ...]]], list[np.ndarray]]
    chunks: list[tuple[int, ...]]
    identity: Any
    label: str = "run"
    group: int = 1
