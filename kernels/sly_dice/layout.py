"""Encodings shared by the Sly Dice kernels.

Cards (index = card id, the order of the rules page)
    0-5 ``ones`` .. ``sixes`` (number cards: a claim names a count k >= 1), then the fixed
    cards, ``HIGHER_OR_LOWER`` last (a challenge, not a dice combination).

Dice
    A multiset of dice is a count vector ``counts[1..6]``; its *code* is
    ``sum(counts[f] * 7**(f-1))`` (counts never exceed 6, so codes of two disjoint multisets
    add up to the code of their union). ``MS_COUNTS[n]`` lists every multiset of ``n`` dice
    (n = 0..6) as counts (int64[m, 7], column 0 unused), ``MS_CODE[n]`` their codes and
    ``CODE_INDEX[code]`` the index of a multiset inside its size class. ``MS_PROB[n]`` is the
    chance of rolling each multiset of ``n`` fair dice.
"""

from itertools import combinations_with_replacement
from math import factorial

import numpy as np

CARD_NAMES = (
    "ones", "twos", "threes", "fours", "fives", "sixes",
    "three-of-a-kind", "four-of-a-kind", "five-of-a-kind", "full-house", "three-pairs",
    "small-straight", "large-straight", "sixteen-or-lower", "twenty-six-or-higher",
    "odds", "evens", "higher-or-lower",
)
N_CARDS = len(CARD_NAMES)  # 18
N_NUMBER_CARDS = 6
THREE_OF_A_KIND, FOUR_OF_A_KIND, FIVE_OF_A_KIND = 6, 7, 8
FULL_HOUSE, THREE_PAIRS = 9, 10
SMALL_STRAIGHT, LARGE_STRAIGHT = 11, 12
SIXTEEN_OR_LOWER, TWENTY_SIX_OR_HIGHER = 13, 14
ODDS, EVENS = 15, 16
HIGHER_OR_LOWER = 17
DICE_CARDS = N_CARDS - 1  # every card but Higher or Lower is a dice combination

N_FACES = 6
N_COMMON = 3
N_OWN = 3
CODE_BASE = 7
N_CODES = CODE_BASE**N_FACES  # 117649


def _tables():
    counts, codes, probs = [], [], []
    index = np.full(N_CODES, -1, np.int64)
    for n in range(7):
        rows = []
        for combo in combinations_with_replacement(range(1, N_FACES + 1), n):
            c = np.zeros(N_FACES + 1, np.int64)
            for f in combo:
                c[f] += 1
            rows.append(c)
        c_arr = np.array(rows, dtype=np.int64).reshape(-1, N_FACES + 1)
        code = (c_arr[:, 1:] * CODE_BASE ** np.arange(N_FACES)).sum(axis=1)
        ways = np.array([factorial(n) / np.prod([factorial(int(x)) for x in r[1:]])
                         for r in c_arr])
        index[code] = np.arange(len(code))
        counts.append(c_arr)
        codes.append(code.astype(np.int64))
        probs.append(ways / N_FACES**n)
    return tuple(counts), tuple(codes), tuple(probs), index


MS_COUNTS, MS_CODE, MS_PROB, CODE_INDEX = _tables()
N_COMMON_SETS = MS_COUNTS[N_COMMON].shape[0]  # 56
FACE_CODE = np.array([0] + [CODE_BASE ** (f - 1) for f in range(1, 7)], np.int64)


def card_id(name: str) -> int:
    """The id of a kebab-case card name; ``ValueError`` if unknown."""
    return CARD_NAMES.index(name)


def counts_of(dice) -> np.ndarray:
    """Count vector (int64[7]) of a sequence of faces 1..6."""
    c = np.zeros(N_FACES + 1, np.int64)
    for f in dice:
        c[int(f)] += 1
    return c


def code_of(dice) -> int:
    """Multiset code of a sequence of faces 1..6."""
    return int(sum(FACE_CODE[int(f)] for f in dice))
