"""Independent brute-force reference for the Sly Dice rolling phase and Higher or Lower,
exact with ``fractions.Fraction``.

Written from the rules page (``docs/rules/sly-dice.md``), sections *Dice and the rolling
phase*, *Combination cards*, *Special powers* and *Higher or Lower*. It shares no code with
the kernels (not even the combination predicates): dice are plain tuples of values, rolls
are enumerated as ordered tuples (each die separately) and decision positions are memoised
on sorted tuples.

Card ids follow the order of the rules page's table (``CARDS``). Objectives and powers use
the kernels' numeric codes so results compare directly.
"""

from fractions import Fraction
from functools import cache
from itertools import combinations, product

CARDS = (
    "ones", "twos", "threes", "fours", "fives", "sixes",
    "three-of-a-kind", "four-of-a-kind", "five-of-a-kind", "full-house", "three-pairs",
    "small-straight", "large-straight", "sixteen-or-lower", "twenty-six-or-higher",
    "odds", "evens", "higher-or-lower",
)
FACES = range(1, 7)
PROBABILITY, EXPECTED_POINTS, BEST_OPEN = 0, 1, 2
NO_POWER, CHANGE_DIE, SUM_OF_TWO = 0, 1, 2
# rules page, *Combination cards*: the assumed points of the fixed cards
DEFAULT_POINTS = {
    "three-of-a-kind": 10, "four-of-a-kind": 20, "five-of-a-kind": 40, "full-house": 15,
    "three-pairs": 20, "small-straight": 20, "large-straight": 30, "sixteen-or-lower": 15,
    "twenty-six-or-higher": 15, "odds": 30, "evens": 30, "higher-or-lower": 20,
}


def _has_kind(dice, n):
    return any(dice.count(f) >= n for f in FACES)


def _full_house(dice):
    """A triple plus a further pair among the remaining dice (same face allowed)."""
    for f in FACES:
        if dice.count(f) >= 3:
            rest = list(dice)
            for _ in range(3):
                rest.remove(f)
            if any(rest.count(g) >= 2 for g in FACES):
                return True
    return False


def _three_pairs(dice):
    """Three disjoint pairs: pair off equal faces greedily."""
    rest = sorted(v for v in dice if v in FACES)
    pairs = 0
    i = 0
    while i + 1 < len(rest):
        if rest[i] == rest[i + 1]:
            pairs += 1
            i += 2
        else:
            i += 1
    return pairs >= 3


def holds(dice, card, k=1):
    """Rules page, *Combination cards*: do the dice values (a tuple; a merged die of the
    sum-of-two power may exceed 6) make ``card`` (number cards: at least ``k`` of the face)?"""
    name = CARDS[card]
    present = set(dice)
    if card < 6:
        return k >= 1 and dice.count(card + 1) >= k
    rules = {
        "three-of-a-kind": lambda: _has_kind(dice, 3),
        "four-of-a-kind": lambda: _has_kind(dice, 4),
        "five-of-a-kind": lambda: _has_kind(dice, 5),
        "full-house": lambda: _full_house(dice),
        "three-pairs": lambda: _three_pairs(dice),
        "small-straight": lambda: {1, 2, 3, 4, 5} <= present or {2, 3, 4, 5, 6} <= present,
        "large-straight": lambda: set(FACES) <= present,
        "sixteen-or-lower": lambda: sum(dice) <= 16,
        "twenty-six-or-higher": lambda: sum(dice) >= 26,
        "odds": lambda: all(v % 2 == 1 for v in dice),
        "evens": lambda: all(v % 2 == 0 for v in dice),
        "higher-or-lower": lambda: False,
    }
    return rules[name]()


def points_vector(points=None):
    """Points per card id as Fractions (number cards 0: they score face x count)."""
    points = DEFAULT_POINTS if points is None else points
    return tuple(Fraction(points.get(name, 0)) for name in CARDS)


def value(dice, objective, card, k, points):
    """Terminal value of all dice values ``dice`` for one objective."""
    if objective == PROBABILITY:
        return Fraction(int(holds(dice, card, k)))
    if objective == EXPECTED_POINTS:
        if card < 6:
            return Fraction((card + 1) * dice.count(card + 1))
        return points[card] if holds(dice, card) else Fraction(0)
    opened = [c for c in range(17) if (card >> c) & 1]
    return max([value(dice, EXPECTED_POINTS, c, 1, points) for c in opened], default=Fraction(0))


def terminal(own, common, objective, card, k, points, power):
    """Rules page, *Special powers*: best value of final own dice ``own`` with a power."""
    base = tuple(own) + tuple(common)
    options = [base]
    if power == CHANGE_DIE:  # ``ones``: turn one own die to any face
        for i in range(3):
            for g in FACES:
                options.append(tuple(own[:i]) + (g,) + tuple(own[i + 1:]) + tuple(common))
    if power == SUM_OF_TWO:  # ``threes``: two available dice used as one with their sum
        for i, j in combinations(range(6), 2):
            rest = tuple(v for t, v in enumerate(base) if t not in (i, j))
            options.append(rest + (base[i] + base[j],))
    return max(value(d, objective, card, k, points) for d in options)


def _rolls(n):
    """Every ordered roll of ``n`` fair dice, each with chance ``6**-n``."""
    return list(product(FACES, repeat=n)), Fraction(1, 6**n)


class Rolling:
    """Rules page, *Dice and the rolling phase*: optimal play for terminal values
    ``term(own_sorted_tuple)``, ``rerolls`` 0..2, optional restart value (``fours``)."""

    def __init__(self, term, rerolls, restart=None):
        self.term = cache(term)
        self.rerolls = rerolls
        self.restart = restart
        self.v1 = cache(self._v1)
        self.v2 = cache(self._v2)
        self.lock1 = cache(self._lock1)
        self.lock2 = cache(self._lock2)

    def _best(self, options):
        best = max(options)
        return best if self.restart is None else max(best, self.restart)

    def stop(self, dice):
        return self.term(tuple(sorted(dice)))

    def _lock2(self, a, b):
        """Locked a and b; roll the last die; then stop (or restart)."""
        rolls, p = _rolls(1)
        return sum(p * self._best([self.stop((a, b) + r)]) for r in rolls)

    def _v2(self, a, roll):
        """Locked a, hidden ``roll`` (sorted pair) just rolled."""
        options = [self.stop((a,) + roll)]
        if self.rerolls >= 2:
            options += [self.lock2(*sorted((a, b))) for b in set(roll)]
        return self._best(options)

    def _lock1(self, a):
        rolls, p = _rolls(2)
        return sum(p * self.v2(a, tuple(sorted(r))) for r in rolls)

    def _v1(self, roll):
        """Hidden ``roll`` (sorted triple) just rolled."""
        options = [self.stop(roll)]
        if self.rerolls >= 1:
            options += [self.lock1(a) for a in set(roll)]
        return self._best(options)

    def start(self):
        rolls, p = _rolls(3)
        return sum(p * self.v1(tuple(sorted(r))) for r in rolls)


def rolling(common, objective, card, rerolls, k=1, points=None, power=NO_POWER,
            restart=False):
    """The ``Rolling`` solution for one common set and objective. With ``restart`` the
    restart value is the start value of the same phase without the power."""
    pts = points_vector(points)

    def term(own):
        return terminal(own, tuple(common), objective, card, k, pts, power)

    value_restart = Rolling(term, rerolls).start() if restart else None
    return Rolling(term, rerolls, value_restart)


def higher_or_lower(target):
    """Rules page, *Higher or Lower*: best chance of three right calls from ``target``."""
    return higher_or_lower_stage(0, target)


def hol_call(stage, target):
    """1 when "higher" is the strictly better call at ``stage`` against ``target``."""
    rolls, p = _rolls(3)
    later = [higher_or_lower_stage(stage + 1, sum(r)) for r in rolls]
    higher = sum(p * v for r, v in zip(rolls, later) if sum(r) > target)
    lower = sum(p * v for r, v in zip(rolls, later) if sum(r) < target)
    return int(higher > lower)


@cache
def higher_or_lower_stage(stage, target):
    """Best chance of finishing from ``stage`` (0..3 calls made) against ``target``."""
    if stage == 3:
        return Fraction(1)
    rolls, p = _rolls(3)
    higher = sum(p * higher_or_lower_stage(stage + 1, sum(r)) for r in rolls if sum(r) > target)
    lower = sum(p * higher_or_lower_stage(stage + 1, sum(r)) for r in rolls if sum(r) < target)
    return max(higher, lower)
