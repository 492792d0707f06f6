"""Writing a sparse network input: (input number, value) pairs appended to ``idx``
(int64) and ``val`` (float32), for the encodings of both Clever games, and the inputs they
share:

* the turn block (``TURN_INPUTS``): the round (one-hot 6), the phase (one-hot
  ``N_PHASES``), active picks made (one-hot 4), rounds left / 6, and bit masks of the dice
  in the pool, on the platter and taken by +1 this round (18);
* the seat block (``N_SEAT`` inputs, for a network that has it): where the player stands
  in a game of 1-4 players (``kernels.clever_base.seats``);
* the rules block (``N_RULES`` inputs, for a network that has it): the rules in force
  where they differ from the defaults (``kernels.clever_base.rule_block``).

The dice's faces are not inputs: an afterstate comes before the next roll (or, in a +1
window, the faces matter only for the +1s themselves, which are candidates of their own).
"""

import numpy as np

from kernels.clever_base.blocks import block_starts
from kernels.clever_base.sheet import NATURAL_ROUNDS
from kernels.clever_base.turn import N_PHASES, TS_PHASE, TS_PICKS, TS_PLATTER, TS_POOL, TS_TAKEN
from kernels.jit import njit

# the turn block both encodings end their base inputs with, from its first input on: the
# round (one-hot 6), the phase (one-hot N_PHASES), active picks made (one-hot 4), rounds
# left / 6, then bit masks of the dice in the pool, on the platter and taken by +1 (6 each)
TURN_PHASE, TURN_PICKS, TURN_TIME_LEFT, TURN_POOL, TURN_PLATTER, TURN_TAKEN, TURN_INPUTS = \
    block_starts(6, N_PHASES, 4, 1, 6, 6, 6)


@njit(cache=True, _nrt=False)
def round_seen(rnd, rounds, players):
    """The round the turn block's one-hot shows for round ``rnd`` (0-based) of a game of
    ``rounds`` and ``players``: a game of the player count's own length (``NATURAL_ROUNDS``)
    shows its own rounds; any other shows its last round as that length's last and the
    others as they are, up to the one before it: the last round always shows as a last
    round (counted from the start alone, a 5-round solo game's last round would show as
    round 4, which a 6-round game follows with another)."""
    last = NATURAL_ROUNDS[min(max(players, 1), 4)] - 1
    if rounds == last + 1:
        return min(rnd, 5)
    return last if rnd >= rounds - 1 else min(rnd, last - 1)


@njit(cache=True, _nrt=False, inline="always")
def put(idx, val, n, i, x):
    """Append input ``i`` = ``x`` (skipped when 0); the new count. (Borrowed: with numba's
    reference counts, this branch cost half a learned game's time, ``kernels.jit``.)"""
    if x != 0.0:
        idx[n] = i
        val[n] = x
        n += 1
    return n


@njit(cache=True, _nrt=False)
def thermometer(idx, val, n, first, count, cap):
    """Inputs ``first .. first + min(count, cap) - 1`` = 1; the new count."""
    for k in range(min(count, cap)):
        idx[n] = first + k
        val[n] = 1.0
        n += 1
    return n


@njit(cache=True, _nrt=False)
def turn_block(idx, val, n, first, rnd, rounds, players, ts):
    """The turn block from input ``first`` (round ``rnd`` of ``rounds`` in a game of
    ``players``, turn state ``ts`` int64[TS_LEN]); the new count. The round's one-hot is
    ``round_seen``'s."""
    n = put(idx, val, n, first + round_seen(rnd, rounds, players), 1.0)
    n = put(idx, val, n, first + TURN_PHASE + ts[TS_PHASE], 1.0)
    n = put(idx, val, n, first + TURN_PICKS + min(ts[TS_PICKS], 3), 1.0)
    n = put(idx, val, n, first + TURN_TIME_LEFT, np.float32(max(rounds - rnd, 0) / 6.0))
    for d in range(6):
        n = put(idx, val, n, first + TURN_POOL + d, (ts[TS_POOL] >> d) & 1)
        n = put(idx, val, n, first + TURN_PLATTER + d, (ts[TS_PLATTER] >> d) & 1)
        n = put(idx, val, n, first + TURN_TAKEN + d, (ts[TS_TAKEN] >> d) & 1)
    return n


@njit(cache=True, _nrt=False)
def fox_inputs(idx, val, n, first, foxes):
    """The foxes from input ``first``: a thermometer to 6, then ``foxes`` / 10; the new
    count."""
    n = thermometer(idx, val, n, first, foxes, np.int64(6))
    return put(idx, val, n, first + 6, np.float32(foxes / 10.0))
