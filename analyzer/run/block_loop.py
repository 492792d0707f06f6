"""Serial block kernels run side by side on Python threads (``BlockLoop``), and the share of
the machine's threads a process may use (``ThreadShare``, set by the report's lanes).

A block kernel ``block(key, first, end, out, *args)`` (numba, ``nogil=True``) plays items
``first`` to ``end - 1`` of block ``key`` into ``out``; item g's random numbers come from
``key`` and g alone, and ``out`` holds integer sums. A block may so be cut into pieces that
run on different threads, each into its own accumulator, and added up after: the result is
the same to the bit for any thread count or cut. Blocks are cut where a run has too few of
them to keep the threads busy (a 512-game run of a slow policy is one block), and a thread
that the process's share does not hold yet waits for it between pieces, so a run started
while other lanes were busy takes their cores as soon as they finish.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable

import numpy as np

from analyzer.run.kernel_ref import KernelRef

PIECES_PER_THREAD = 4  # pieces per thread a run's blocks are cut into when it has few blocks
WAIT_SECONDS = 0.05  # how often a thread outside the share looks again


@dataclass(frozen=True)
class ThreadShare:
    """A process sharing ``total`` threads with others: ``busy()`` processes (itself among
    them) are computing now, and each may use an equal share."""

    total: int
    busy: Callable[[], int]

    def now(self) -> int:
        return max(1, self.total // max(self.busy(), 1))


# Set by a process that shares the machine with others (the report's lanes); None: the
# numba thread count in force. Results never depend on it.
thread_share: ThreadShare | None = None


@dataclass(frozen=True)
class BlockLoop:
    """A job's runner made of a serial block kernel (the module's docstring): the blocks,
    cut into pieces where they are too few, are spread over Python threads, as many as
    numba's thread count in force (or the process's ``thread_share``). For a large engine
    this compiles far faster than a numba parallel loop around it, which compiles the engine
    again into the loop (the Clever engine's first run: about 40 s less)."""

    block: KernelRef

    @classmethod
    def of(cls, block: Callable) -> "BlockLoop":
        return cls(KernelRef.of(block))

    def resolve(self) -> "BlockLoop":
        return self

    def __call__(self, keys: np.ndarray, sizes: np.ndarray, out: np.ndarray, *args) -> None:
        block = self.block.resolve()
        pieces = block_pieces(sizes, most_threads())
        if len(pieces) == len(sizes):
            over_threads(lambda b: block(keys[b], 0, sizes[b], out[b], *args), len(sizes))
            return
        parts = np.zeros((len(pieces), *out.shape[1:]), out.dtype)
        over_threads(lambda i: block(keys[pieces[i][0]], pieces[i][1], pieces[i][2],
                                     parts[i], *args), len(pieces))
        for (b, _, _), part in zip(pieces, parts):
            out[b] += part


def block_pieces(sizes: np.ndarray, threads: int) -> list[tuple[int, int, int]]:
    """``(block, first, end)`` of each piece: every block whole where there are at least
    ``PIECES_PER_THREAD`` blocks per thread, else each cut into equal pieces so that there
    are about that many (none smaller than one item)."""
    n = len(sizes)
    want = PIECES_PER_THREAD * threads
    if threads <= 1 or n >= want:
        return [(b, 0, int(sizes[b])) for b in range(n)]
    cuts = -(-want // n)
    out = []
    for b, size in enumerate(int(s) for s in sizes):
        bounds = sorted({size * k // cuts for k in range(cuts + 1)})
        out += [(b, first, end) for first, end in zip(bounds, bounds[1:])]
    return out


def most_threads() -> int:
    """The most threads a run may use: the process's share of the machine when it has
    one (``thread_share``), else numba's thread count in force."""
    import numba

    return thread_share.total if thread_share is not None else numba.get_num_threads()


def allowed_threads() -> Callable[[], int]:
    """How many threads a run may use at each moment (read in the thread that starts it)."""
    import numba

    if thread_share is not None:
        return thread_share.now
    fixed = numba.get_num_threads()
    return lambda: fixed


def over_threads(work: Callable[[int], object], n: int) -> list:
    """``[work(0), ..., work(n - 1)]``, the calls spread over up to ``most_threads()``
    Python threads (``work`` calls ``nogil`` kernels), thread k taking calls only while
    ``allowed_threads()`` is more than k."""
    workers = min(most_threads(), n)
    if workers <= 1:
        return [work(i) for i in range(n)]
    allowed = allowed_threads()
    results: list = [None] * n
    state = {"next": 0}
    lock = threading.Lock()

    def take() -> int | None:
        with lock:
            i = state["next"]
            if i >= n:
                return None
            state["next"] = i + 1
            return i

    def worker(k: int) -> None:
        try:
            while state["next"] < n:
                if k >= allowed():
                    time.sleep(WAIT_SECONDS)
                    continue
                i = take()
                if i is None:
                    return
                results[i] = work(i)
        except BaseException:
            state["next"] = n  # the others stop at their next call
            raise

    with ThreadPoolExecutor(workers) as pool:
        for future in [pool.submit(worker, k) for k in range(workers)]:
            future.result()
    return results
