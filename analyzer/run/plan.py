"""A run as plain data: its chunks and the function that computes them (run by
``analyzer.run.execution`` on local threads or a cluster)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np


class Chunks(Sequence):
    """The chunks ``(first item, count)`` of ``n_items`` items from item ``first`` on, cut
    every ``size`` items, as a sequence computed on demand: memory stays flat for any number
    of items."""

    def __init__(self, n_items: int, size: int, first: int = 0):
        self.n_items, self.size, self.first = int(n_items), int(size), int(first)

    def __len__(self) -> int:
        return -(-self.n_items // self.size)

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        start = i * self.size
        return self.first + start, min(self.size, self.n_items - start)

    def __repr__(self) -> str:  # the identity of a run in a checkpoint folder
        return (f"Chunks({self.n_items}, {self.size})" if not self.first
                else f"Chunks({self.n_items}, {self.size}, {self.first})")


@dataclass
class Plan:
    """One run: ``compute(some_chunks)`` gives the results (arrays) of a list of chunks,
    each the same whichever others it is computed with.

    ``compute`` must be picklable (a ``functools.partial`` of a module-level function over
    plain arguments) to run on cluster workers, which compute one chunk at a time;
    ``identity`` is everything the results depend on (it names the run in a checkpoint
    folder); ``chunks`` are tuples of ints (a list, or ``Chunks`` computed on demand).
    Local threads compute ``group`` consecutive chunks at a time, so that one parallel loop
    spreads all their work over the threads.
    """

    compute: Callable[[list[tuple[int, ...]]], list[np.ndarray]]
    chunks: Sequence[tuple[int, ...]]
    identity: Any
    label: str = "run"
    group: int = 1
