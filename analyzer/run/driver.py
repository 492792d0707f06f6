"""The shared parallel driver: cut a run into blocks, run them in chunks (on numba threads or a
cluster), add up the integer accumulators, report progress, and optionally stop at a
precision.

Every game uses it the same way: its kernels' parallel loop over blocks, the block size, and
the arrays that loop needs. Accumulators are integers, so sums are exact and the
result is bit-identical for any thread count, batch size or number of cluster workers.
"""

from __future__ import annotations

import functools
import math
import sys
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from analyzer.run import block_loop
from analyzer.run.block_loop import BlockLoop
from analyzer.run.kernel_ref import KernelRef
from analyzer.run.execution import current
from analyzer.run.plan import Chunks, Plan
from analyzer.run.progress import Progress
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


DEFAULT_BATCH_BLOCKS = 64  # fixed, so that --precision stops at the same place on any machine


@dataclass
class Job:
    """A run of ``n_items`` turns or games in blocks of ``block_size``.

    ``runner(keys, sizes, out, *args)`` is a game's parallel numba loop (or a ``BlockLoop``
    of its block kernel) that plays block b
    (``sizes[b]`` items, seeded by ``keys[b]``) into ``out[b]``, an int64 array of shape
    ``acc_shape``. ``chunk_blocks``: blocks per chunk of work, sized so that a chunk takes
    about a second on one core (slow policies ask for fewer blocks); ``check_blocks``:
    blocks between two looks at a precision, fixed for the job (never the machine's), so
    that a run stops at the same place anywhere.
    """

    runner: Callable
    args: Sequence
    acc_shape: tuple[int, ...]
    block_size: int
    seed: int
    stream: int
    label: str = "simulating"
    unit: str = "items"
    chunk_blocks: int = 64
    check_blocks: int = DEFAULT_BATCH_BLOCKS  # blocks between two looks at a precision


@dataclass(frozen=True)
class Batches:
    """A job as plain data, for chunks computed anywhere (``compute_chunks``)."""

    runner: KernelRef | BlockLoop
    args: tuple
    acc_shape: tuple[int, ...]
    block_size: int
    seed: int
    stream: int


def compute_chunks(batches: Batches, chunks: list[tuple[int, int]]) -> list[np.ndarray]:
    """The summed accumulator of each chunk ``(first item, count)`` (starting on a block
    boundary), all computed in one call of the runner so that its parallel loop spreads
    every block of every chunk over the threads; block b is seeded by its own key, whoever
    computes it and beside whatever other blocks."""
    size = batches.block_size
    keys, sizes, ends = [], [], []
    for first_item, count in chunks:
        starts = np.arange(first_item, first_item + count, size)
        sizes.append(np.minimum(starts + size, first_item + count) - starts)
        keys.append(block_keys(batches.seed, batches.stream, first_item // size, len(starts)))
        ends.append(sum(len(k) for k in keys))
    out = np.zeros((ends[-1], *batches.acc_shape), np.int64)
    batches.runner.resolve()(np.concatenate(keys), np.concatenate(sizes).astype(np.int64), out,
                             *batches.args)
    return [out[start:end].sum(axis=0) for start, end in zip([0, *ends[:-1]], ends)]


# about how long the first run of each game's play loops compiles on a 2-core machine
# (scripts/bench.py's cold rows measure it)
COLD_COMPILE_SECONDS = {"kernels.clever.play": 120, "kernels.sly_dice.play": 20,
                        "kernels.cloverup.play": 20}


def first_compile(kernel: Callable) -> bool:
    """Will calling ``kernel`` (a numba dispatcher) compile it: nothing compiled in this
    process and nothing in numba's on-disk cache (``kernels.jit.in_cache``)?"""
    from kernels.jit import in_cache

    if getattr(kernel, "signatures", None) or not getattr(kernel, "py_func", None):
        return False
    return not in_cache(kernel)


def all_cached(*kernels: Callable) -> bool:
    """Will none of ``kernels`` compile on its first call (``first_compile``)? A game's
    ``kernels_compiled`` (``analyzer.registry.GameModule``)."""
    return not any(first_compile(kernel) for kernel in kernels)


def compile_notice(seconds: int) -> None:
    """The one line on stderr that says a run starts by compiling, and the wait."""
    print(f"compiling the kernels for their first run (about {seconds} s once; later "
          "runs start at once) ...", file=sys.stderr, flush=True)


def notice_first_compile(kernel: Callable) -> None:
    """``compile_notice`` when calling ``kernel`` will compile it."""
    if isinstance(kernel, BlockLoop):
        kernel = kernel.block.resolve()
    if first_compile(kernel):
        module = getattr(kernel, "py_func", kernel).__module__
        compile_notice(COLD_COMPILE_SECONDS.get(module, 30))


def run(job: Job, n_items: int, progress: bool = True, batch_blocks: int | None = None,
        stop: Callable[[np.ndarray, int], bool] | None = None, first_item: int = 0
        ) -> tuple[np.ndarray, int]:
    """Run the first ``n_items`` items (from ``first_item`` on, a whole number of blocks:
    a run can be extended later with the items that follow); returns
    ``(accumulator, items_run)``.

    The items are cut into chunks (``job.chunk_blocks`` blocks, never across a batch of
    ``batch_blocks`` blocks), computed where the execution in force says (local threads or a
    cluster, see ``analyzer.run.execution``) and added up in order. With ``stop``, the run ends
    early after the first batch for which ``stop(accumulator, items_so_far)`` is true
    (batches end on block boundaries, so the items run are still the first ones of the
    stream); the progress bar shows the stop rule's ``last`` words (the widths reached).
    ``n_items`` must be a whole number of blocks or the run must not stop early for
    the result to be independent of batching.
    """
    if progress and current().cluster is None:  # a cluster's workers compile their own
        notice_first_compile(job.runner)
    if block_loop.thread_share is not None:
        set_threads(block_loop.thread_share.now())
    looks = job.check_blocks if stop is not None else DEFAULT_BATCH_BLOCKS
    batch = (batch_blocks or looks) * job.block_size
    per_chunk = math.gcd(job.chunk_blocks, batch // job.block_size) * job.block_size
    if first_item % job.block_size:
        raise ValueError(f"first_item {first_item} is not on a block boundary")
    chunks = Chunks(n_items, per_chunk, first_item)
    runner = job.runner if isinstance(job.runner, BlockLoop) else KernelRef.of(job.runner)
    batches = Batches(runner, tuple(job.args), tuple(job.acc_shape),
                      job.block_size, job.seed, job.stream)
    execution = current()
    plan = Plan(functools.partial(compute_chunks, batches), chunks, batches, job.label,
                batch // per_chunk)
    total = np.zeros(job.acc_shape, np.int64)
    done = 0
    with Progress(n_items, f"{job.label} on {execution.where()}", progress, job.unit) as bar:
        results = execution.results(plan)
        try:
            for (_, count), acc in zip(chunks, results):
                total += acc
                done += count
                bar.advance(count)
                at_check = done % batch == 0 or done == n_items
                if stop is not None and at_check:
                    reached = stop(total, done)
                    bar.status = getattr(stop, "last", "")
                    if reached:
                        break
        finally:
            results.close()
    return total, done
