"""Counter-based random numbers for the play loops.

Every random number is a pure function of ``(key, game, turn, slot)``:

* ``key`` is a uint64 drawn by :mod:`analyzer.seeding` from ``numpy.random.SeedSequence`` for
  one fixed-size block of games, so blocks are independent streams;
* ``game`` is the game's index inside its block, ``turn`` the turn inside the game, ``slot``
  the draw inside the turn (roll number and die position).

Because nothing depends on which thread runs a game, results are bit-identical for any
thread count, and two policies (or two rule variants) that meet the same ``(game, turn, slot)``
see the same number: common random numbers. The mixer is splitmix64's finaliser.
"""

import numpy as np

from kernels.jit import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_TO_UNIT = 1.0 / 9007199254740992.0  # 2**-53


@njit(cache=True, _nrt=False)
def mix64(x):
    """splitmix64 finaliser. ``x``: uint64 -> uint64 (a bijection)."""
    x = (x ^ (x >> np.uint64(30))) * _M1
    x = (x ^ (x >> np.uint64(27))) * _M2
    return x ^ (x >> np.uint64(31))


MAX_TURNS_PER_GAME = 4096


@njit(cache=True, _nrt=False, inline="always")
def turn_stream(key, game, turn):
    """Seed of the private stream of one turn (``turn < MAX_TURNS_PER_GAME``).

    All arguments are integers; returns uint64. Distinct ``(game, turn)`` give distinct
    counters ``game * 4096 + turn``, and the mixer is a bijection, so streams never coincide.
    """
    counter = np.uint64(game) * np.uint64(MAX_TURNS_PER_GAME) + np.uint64(turn)
    return mix64(np.uint64(key) + (counter + np.uint64(1)) * _GOLDEN)


@njit(cache=True, _nrt=False)
def uniform(stream, slot):
    """The ``slot``-th uniform float64 in [0, 1) of a turn stream (53 random bits)."""
    h = mix64(stream + (np.uint64(slot) + np.uint64(1)) * _GOLDEN)
    return np.float64(h >> np.uint64(11)) * _TO_UNIT


GUIDE_BITS = 6
GUIDE_SIZE = 1 << GUIDE_BITS


def make_die(cdf):
    """A weighted die for ``draw``: float64[k + GUIDE_SIZE], the cdf then a guide table.

    ``cdf``: float64[k], non-decreasing, last entry exactly 1.0. Guide entry j is the first
    index whose cdf value exceeds j / GUIDE_SIZE, so a draw needs about one comparison.
    """
    cdf = np.asarray(cdf, dtype=np.float64)
    starts = np.searchsorted(cdf, np.arange(GUIDE_SIZE) / GUIDE_SIZE, side="right")
    guide = np.minimum(starts, cdf.shape[0] - 1).astype(np.float64)
    return np.concatenate([cdf, guide])


@njit(cache=True, _nrt=False)
def draw(die, k, u):
    """Index 0..k-1 of the first cdf entry above ``u``: one roll of a ``k``-sided weighted
    ``die`` (from ``make_die``) for a uniform ``u`` in [0, 1)."""
    i = np.int64(die[k + np.int64(u * GUIDE_SIZE)])
    while i < k - 1 and u >= die[i]:
        i += 1
    return i


@njit(cache=True, _nrt=False)
def roll(die, k, stream, slot):
    """``draw(die, k, uniform(stream, slot))``, the ``slot``-th roll of a turn stream, with
    the guide bin taken from the top bits directly (the same result, fewer operations)."""
    h = mix64(stream + (np.uint64(slot) + np.uint64(1)) * _GOLDEN)
    u = np.float64(h >> np.uint64(11)) * _TO_UNIT
    i = np.int64(die[k + np.int64(h >> np.uint64(64 - GUIDE_BITS))])
    while i < k - 1 and u >= die[i]:
        i += 1
    return i
