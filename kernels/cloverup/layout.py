"""Encodings shared by the CloverUp kernels.

Dice
    A die shows a face 1..6 or ``CLOVER`` (7). Three dice are kept sorted, so a roll is a
    multiset of three faces, numbered ``0..N_MULTISETS-1`` by ``MULTISET_INDEX[a-1, b-1, c-1]``
    for ``a <= b <= c``; ``MULTISET_DICE[m]`` gives the three faces back. The clover, being
    the highest code, always sits at the end of the sorted dice, and in the double-six state
    ``x, 6, 6`` the die that may be rerolled is position 0.

Turn outcomes (index into a utility vector of length ``N_OUTCOMES``)
    ``0..18``: the turn ended with that many points; ``TRIPLE_SIX``: 18 points and the
    triple-six effect; ``INSTANT_WIN``: three clovers.

Decision positions
    ``(multiset, rerolls_left, double_six)`` with ``rerolls_left`` in ``0..max_rerolls`` and
    ``double_six`` 1 once the double-six rule has started. Policies are int8 tables of shape
    ``(N_MULTISETS, max_rerolls + 1, 2)`` holding a reroll mask over the sorted dice
    (bit i = reroll position i; 0 = stop).
"""

import numpy as np

N_DICE = 3
N_FACES = 7
CLOVER = 7
SIX = 6

TRIPLE_SIX = 19
INSTANT_WIN = 20
N_OUTCOMES = 21
MAX_POINTS = 18

# rule vector (int64[N_RULES]) handed to kernels; built by analyzer from the rule parameters
RULE_BASE_REROLLS = 0
RULE_CLOVER_BONUS = 1
RULE_DOUBLE_SIX_BONUS = 2
RULE_MAX_REROLLS = 3
N_RULES = 4


def _multisets():
    dice = []
    index = np.full((N_FACES, N_FACES, N_FACES), -1, dtype=np.int16)
    for a in range(1, N_FACES + 1):
        for b in range(a, N_FACES + 1):
            for c in range(b, N_FACES + 1):
                index[a - 1, b - 1, c - 1] = len(dice)
                dice.append((a, b, c))
    return np.array(dice, dtype=np.int64), index


MULTISET_DICE, MULTISET_INDEX = _multisets()
N_MULTISETS = MULTISET_DICE.shape[0]  # 84


def _unsorted_tables():
    """Lookups for dice in the order they lie, ``code = 49*(d0-1) + 7*(d1-1) + (d2-1)``:
    the multiset they show, and each reroll mask over sorted positions translated to a mask
    over the dice as they lie (equal faces keep their order)."""
    multiset = np.empty(N_FACES**3, np.int64)
    to_physical = np.empty((N_FACES**3, 8), np.int64)
    for code in range(N_FACES**3):
        dice = (code // 49 + 1, code // 7 % 7 + 1, code % 7 + 1)
        order = sorted(range(3), key=lambda i: (dice[i], i))  # sorted position -> die
        multiset[code] = MULTISET_INDEX[tuple(sorted(f - 1 for f in dice))]
        for mask in range(8):
            to_physical[code, mask] = sum(1 << order[p] for p in range(3) if mask >> p & 1)
    return multiset, to_physical


TRIPLE_MULTISET, SORTED_TO_PHYSICAL = _unsorted_tables()

FACE_LABELS = ("1", "2", "3", "4", "5", "6", "C")


def outcome_label(outcome: int) -> str:
    """Human-readable name of a turn outcome code."""
    if outcome == TRIPLE_SIX:
        return "triple six"
    if outcome == INSTANT_WIN:
        return "instant win"
    return str(outcome)


def dice_label(multiset: int) -> str:
    """The three faces of a multiset as text, e.g. ``'1 6 C'``."""
    return " ".join(FACE_LABELS[f - 1] for f in MULTISET_DICE[multiset])
