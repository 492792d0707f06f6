"""The rules block of a Clever value network's input: the rules in force, so that one
network can play every variant of a game's named rules.

Every named rule parameter but the player count and the round count has one bit per value
other than its default (``analyzer.games.clever.rule_inputs`` numbers them from the game's
parameters and packs them into the game-rules vector's ``RULE_INPUT_BITS`` for a solo game
and ``RULE_INPUT_BITS_MULTI`` for one of 2-4 players, leaving out a parameter that no game
of that player count reads; the play loops copy the game's onto each sheet's
``H_RULE_BITS`` at the start of a game). The block holds each
bit twice: as it is, and scaled by the rounds still to come after the current one (/ 6),
so that what a rule is worth can fade as the game ends (the skip head, ``value_net``,
reads the scaled ones: a constant offset would be wrong near the end, where the exact
final score takes over). The round count has inputs of its own: how many rounds fewer or
more than the player count's own the game has (each a bit, a measure / 4, and the measure
scaled the same way). On the
default rules every input of the block is 0, so a network given the block with zero
first-layer rows plays as it did, and the inputs of a variant differ from the default's in
exactly its parameters that the game reads.
"""

import numpy as np

from kernels.clever_base.seats import seat_block
from kernels.clever_base.sheet import H_PLAYERS, H_ROUND, H_ROUNDS, H_RULE_BITS, NATURAL_ROUNDS
from kernels.clever_base.sparse import put
from kernels.jit import njit

N_RULE_BITS = 28  # the most rule-parameter bits a game may have
RULES_FEWER = N_RULE_BITS  # a bit: fewer rounds than the player count's own
RULES_MORE = N_RULE_BITS + 1  # a bit: more rounds
RULES_FEWER_BY = N_RULE_BITS + 2  # how many fewer / 4
RULES_MORE_BY = N_RULE_BITS + 3  # how many more / 4
RULES_FEWER_LEFT = N_RULE_BITS + 4  # how many fewer / 4, times the rounds left after this
RULES_MORE_LEFT = N_RULE_BITS + 5  # one / 6; how many more, the same
RULES_SCALED = N_RULE_BITS + 6  # + bit: the bit times the rounds left after this one / 6
N_RULES = RULES_SCALED + N_RULE_BITS
N_HEAD = N_RULES - RULES_FEWER_LEFT  # the inputs the skip head reads: the scaled ones


@njit(cache=True, _nrt=False)
def rules_block(idx, val, n, first, sheet):
    """The rules block from input ``first`` for the afterstate ``sheet``
    (int64[SHEET_LEN]); the new count of nonzero inputs."""
    bits = sheet[H_RULE_BITS]
    left = np.float32(max(sheet[H_ROUNDS] - sheet[H_ROUND] - 1, 0) / 6.0)
    for b in range(N_RULE_BITS):
        if (bits >> b) & 1:
            n = put(idx, val, n, first + b, 1.0)
            n = put(idx, val, n, first + RULES_SCALED + b, left)
    players = min(max(sheet[H_PLAYERS], 1), 4)
    delta = sheet[H_ROUNDS] - NATURAL_ROUNDS[players]
    if delta < 0:
        n = put(idx, val, n, first + RULES_FEWER, 1.0)
        n = put(idx, val, n, first + RULES_FEWER_BY, np.float32(-delta / 4.0))
        n = put(idx, val, n, first + RULES_FEWER_LEFT, np.float32(-delta / 4.0) * left)
    elif delta > 0:
        n = put(idx, val, n, first + RULES_MORE, 1.0)
        n = put(idx, val, n, first + RULES_MORE_BY, np.float32(delta / 4.0))
        n = put(idx, val, n, first + RULES_MORE_LEFT, np.float32(delta / 4.0) * left)
    return n


@njit(cache=True, _nrt=False)
def seat_and_rules(idx, val, n, sheet, n_in, seat_first, rules_first):
    """The blocks a network of ``n_in`` inputs adds after its bonus block: the seat block
    from input ``seat_first`` when ``n_in`` reaches past it, then the rules block from
    ``rules_first`` likewise; the new count."""
    if n_in > seat_first:
        n = seat_block(idx, val, n, seat_first, sheet)
    if n_in > rules_first:
        n = rules_block(idx, val, n, rules_first, sheet)
    return n
