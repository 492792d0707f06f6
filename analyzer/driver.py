"""The shared parallel driver: cut a run into blocks, run them on numba threads in batches,
add up the integer accumulators, report progress, and optionally stop at a precision.

Every game uses it the same way: its kernels' parallel loop over blocks, the block size, and
the arrays that loop needs. Accumulators are integers, so sums are exact and the
result is bit-identical for any thread count and any batch size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from analyzer.progress import Progress
from analyzer.seeding import block_keys


def set_threads(threads: int | None) -> int:
    """Use ``threads`` numba threads (all cores when None); returns the number used."""
    import numba

    from analyzer.errors import UserError

    limit = numba.config.NUMBA_NUM_THREADS
    if threads is None:
        threads = limit
    if threads < 1 or threads > limit:
        raise UserError(f"bad thread count {threads}: expected 1 to {limit}")
    numba.set_num_threads(threads)
    return threads


@dataclass
class Job:
    """A run of ``n_items`` turns or games in blocks of ``block_size``.

    ``runner(keys, sizes, out, *args)`` is a game's parallel numba loop that plays block b
    (``sizes[b]`` items, seeded by ``keys[b]``) into ``out[b]``, an int64 array of shape
    ``acc_shape``.
    """

    runner: Callable
    args: Sequence
    acc_shape: tuple[int, ...]
    block_size: int
    seed: int
    stream: int
    label: str = "simulating"
    unit: str = "items"


def _sizes(job: Job, first_item: int, n_items: int) -> np.ndarray:
    first_block = first_item // job.block_size
    end = first_item + n_items
    n_blocks = -(-end // job.block_size) - first_block
    starts = (first_block + np.arange(n_blocks)) * job.block_size
    return np.minimum(starts + job.block_size, end) - starts


DEFAULT_BATCH_BLOCKS = 64  # fixed, so that --precision stops at the same place on any machine


def run(job: Job, n_items: int, progress: bool = True, batch_blocks: int | None = None,
        stop: Callable[[np.ndarray, int], bool] | None = None) -> tuple[np.ndarray, int]:
    """Run the first ``n_items`` items; returns ``(accumulator, items_run)``.

    With ``stop``, the run ends early after the first batch for which
    ``stop(accumulator, items_so_far)`` is true (batches end on block boundaries, so the
    items run are still the first ones of the stream). ``n_items`` must be a whole number of
    blocks or the run must not stop early for the result to be independent of batching.
    """
    batch_blocks = batch_blocks or DEFAULT_BATCH_BLOCKS
    total = np.zeros(job.acc_shape, np.int64)
    done = 0
    n_blocks = -(-n_items // job.block_size)
    with Progress(n_items, job.label, progress, job.unit) as bar:
        for first in range(0, n_blocks, batch_blocks):
            count = min(batch_blocks, n_blocks - first)
            first_item = first * job.block_size
            sizes = _sizes(job, first_item, min(count * job.block_size, n_items - first_item))
            keys = block_keys(job.seed, job.stream, first, len(sizes))
            out = np.zeros((len(sizes), *job.acc_shape), np.int64)
            job.runner(keys, sizes.astype(np.int64), out, *job.args)
            total += out.sum(axis=0)
            done += int(sizes.sum())
            bar.advance(int(sizes.sum()))
            if stop is not None and stop(total, done):
                break
    return total, done
