"""The one parallel loop: run a game's block function over independent blocks of work.

A block is a fixed number of turns or games with its own uint64 key (see
:mod:`analyzer.seeding`). Each block accumulates into its own slice ``out[b]`` of integer
counters, and the caller adds the slices up, so the totals do not depend on how many
threads ran or in which order.
"""

from numba import njit, prange


@njit(cache=True, parallel=True)
def run_blocks(block_fn, keys, sizes, out, *args):
    """Call ``block_fn(keys[b], sizes[b], out[b], *args)`` for every block b in parallel.

    ``keys``: uint64[B]; ``sizes``: int64[B] items per block; ``out``: int64[B, ...]
    zero-initialised accumulators; ``args``: the block function's own arrays and numbers.
    """
    for b in prange(keys.shape[0]):
        block_fn(keys[b], sizes[b], out[b], *args)
