"""The rules block of a Clever value network's input: the rules in force, so that one
network can play every variant of a game's named rules.

Every named rule parameter but the player count and the round count has one bit per value
other than its default (``analyzer.clever.rule_inputs`` numbers them from the game's
parameters and packs them into the game-rules vector's ``RULE_INPUT_BITS``; the play loops
copy them onto each sheet's ``H_RULE_BITS`` at the start of a game). The round count has
its own inputs: how many rounds fewer or more than the player count's own the game has
(each a bit and a measure, / 4). On the default rules every input of the block is 0, so a
network given the block with zero first-layer rows plays as it did, and the inputs of a
variant differ from the default's in exactly its parameters.
"""

import numpy as np

from kernels.clever.sheet import H_PLAYERS, H_ROUNDS, H_RULE_BITS
from kernels.clever.sparse import put
from kernels.jit import njit

N_RULE_BITS = 28  # the most rule-parameter bits a game may have
RULES_FEWER = N_RULE_BITS  # a bit: fewer rounds than the player count's own
RULES_MORE = N_RULE_BITS + 1  # a bit: more rounds
RULES_FEWER_BY = N_RULE_BITS + 2  # how many fewer / 4
RULES_MORE_BY = N_RULE_BITS + 3  # how many more / 4
N_RULES = N_RULE_BITS + 4
NATURAL_ROUNDS = np.array([6, 6, 6, 5, 4], np.int64)  # by player count (0 or 1: solo)


@njit(cache=True, borrowed=True)
def rules_block(idx, val, n, first, sheet):
    """The rules block from input ``first`` for the afterstate ``sheet``
    (int64[SHEET_LEN]); the new count of nonzero inputs."""
    bits = sheet[H_RULE_BITS]
    for b in range(N_RULE_BITS):
        if (bits >> b) & 1:
            n = put(idx, val, n, first + b, 1.0)
    players = min(max(sheet[H_PLAYERS], 1), 4)
    delta = sheet[H_ROUNDS] - NATURAL_ROUNDS[players]
    if delta < 0:
        n = put(idx, val, n, first + RULES_FEWER, 1.0)
        n = put(idx, val, n, first + RULES_FEWER_BY, np.float32(-delta / 4.0))
    elif delta > 0:
        n = put(idx, val, n, first + RULES_MORE, 1.0)
        n = put(idx, val, n, first + RULES_MORE_BY, np.float32(delta / 4.0))
    return n
