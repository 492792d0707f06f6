"""Seeds: one root seed, one independent uint64 key per fixed-size block of work.

Block ``b`` of a run with root seed ``seed`` and purpose ``stream`` gets the key from
``SeedSequence(seed, spawn_key=(stream, b))`` (the b-th child of the stream's sequence).
Block sizes are constants, never derived from the thread count or batch size, so the
first N items of a run are the same whatever the machine, threads or batching.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

DEFAULT_SEED = 20261129

# purposes: independent streams for different kinds of work under one seed. Whole games
# (simulate, and every variant of a what-if: game g of a seed is dealt the same random
# numbers in both, so a what-if's baseline is the simulation of its rules and lineup)
STREAM_TURNS = 1
STREAM_GAMES = 2
STREAM_PAIRED = 3  # the training's paired evaluations


def block_keys(seed: int, stream: int, first_block: int, n_blocks: int) -> np.ndarray:
    """uint64[n_blocks] keys of blocks ``first_block ..`` of a stream."""
    import numpy as np  # here: the command line reads DEFAULT_SEED without numpy

    keys = np.empty(n_blocks, np.uint64)
    for i in range(n_blocks):
        seq = np.random.SeedSequence(seed, spawn_key=(stream, first_block + i))
        keys[i] = seq.generate_state(1, np.uint64)[0]
    return keys


MAX_COUNT = 10**18  # the most games or turns one run may ask for (a count the run's plan
# can index; far beyond any run that ends)


def check_count(count: int, what: str = "game") -> int:
    """A count of games (or turns, ``what``) from 1 to ``MAX_COUNT``; a one-line error
    otherwise."""
    from analyzer.errors import UserError

    if not 1 <= count <= MAX_COUNT:
        raise UserError(f"bad {what} count {count}: expected a whole number from 1 to "
                        f"{MAX_COUNT:,}")
    return count


MAX_SEED = 2**64 - 1  # seeds fit 64 bits (the coach's streams take one as it is)


def check_seed(seed: int) -> int:
    """Seeds are whole numbers from 0 to ``MAX_SEED``."""
    from analyzer.errors import UserError

    if not 0 <= seed <= MAX_SEED:
        raise UserError(f"bad seed {seed}: expected a whole number from 0 to {MAX_SEED}")
    return seed
