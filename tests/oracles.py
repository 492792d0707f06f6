"""Independent brute-force reference for ONE CloverUp turn, exact with ``fractions.Fraction``.

Written from the rules page (``docs/rules/cloverup.md``), sections *Dice*, *A turn*,
*The double-six rule* and *Scoring the final dice*; it deliberately shares no code with
the numba kernels. Dice are enumerated as ordered tuples (each rerolled die separately),
and the decision positions ``(sorted dice, rerolls left, double-six active)`` are memoised.

Outcome codes are the kernels' so results compare directly: ``0..18`` points,
``TRIPLE_SIX`` (18 points plus the triple-six effect), ``INSTANT_WIN`` (three clovers).
"""

from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product

C = 7  # the clover face; numbers are 1..6
SIX = 6
TRIPLE_SIX = 19
INSTANT_WIN = 20
OUTCOMES = range(21)


def score_final(dice):
    """Rules page, *Scoring the final dice*: outcome code of stopping with ``dice``."""
    clovers = dice.count(C)
    numbers = [d for d in dice if d != C]
    if clovers == 3:
        return INSTANT_WIN
    if clovers == 2:
        return 18
    if clovers == 1:
        high = max(numbers)
        return 3 * high if high >= 5 else 12
    if numbers.count(SIX) == 3:
        return TRIPLE_SIX
    return sum(numbers)


def _solver(weights, rerolls, clover_bonus, double_six_bonus, double_six_rule, policy_fn,
            utility):
    """Build ``start()``: the value of a whole turn, for a policy or for the best play.

    With ``policy_fn`` a value is the outcome distribution (a tuple of 21 Fractions);
    without, it is ``(E[utility], P(instant win))`` under the best play, which maximises
    ``E[utility]`` and breaks exact ties toward the higher instant-win chance (rules page,
    *Scoring the final dice*).
    """
    total = sum(weights)
    face_weight = {f: w for f, w in zip(range(1, 8), weights) if w > 0}

    def terminal(outcome):
        if policy_fn is None:
            return (Fraction(utility[outcome]), Fraction(int(outcome == INSTANT_WIN)))
        return tuple(Fraction(int(o == outcome)) for o in OUTCOMES)

    def after_roll(dice, new_clovers, left, ds):
        """Rules page, *A turn* steps 2-4: what follows a roll showing ``dice``."""
        left += clover_bonus * new_clovers  # step 2: one extra reroll per new clover
        sixes, clovers = dice.count(SIX), dice.count(C)
        if clovers == 3:
            return terminal(INSTANT_WIN)
        if sixes == 3:
            return terminal(TRIPLE_SIX)
        if sixes == 2 and clovers == 1:
            return terminal(18)
        if sixes == 2 and double_six_rule and not ds:  # the third die is a number
            ds = True
            left += double_six_bonus
        if left == 0:  # step 4: no reroll left, the turn ends
            return terminal(score_final(dice))
        return position(dice, left, ds)

    def reroll(dice, positions, left, ds):
        """Expected value of spending a reroll on ``positions`` of ``dice``."""
        # every ordered tuple of new faces, grouped by the sorted result (integer weights)
        grouped = {}
        for new in product(face_weight, repeat=len(positions)):
            w = 1
            rolled = list(dice)
            for pos, face in zip(positions, new):
                rolled[pos] = face
                w *= face_weight[face]
            key = (tuple(sorted(rolled)), new.count(C))
            grouped[key] = grouped.get(key, 0) + w
        acc = None
        for (rolled, new_clovers), w in grouped.items():
            p = Fraction(w, total ** len(positions))
            v = after_roll(rolled, new_clovers, left - 1, ds)
            acc = [p * x for x in v] if acc is None else [a + p * x for a, x in zip(acc, v)]
        return tuple(acc)

    def choices(dice, ds):
        """Every legal reroll: a non-empty subset of the non-clover dice; in the double-six
        state only the third (non-six) die."""
        if ds:
            return [tuple(i for i, d in enumerate(dice) if d != SIX)]
        free = [i for i, d in enumerate(dice) if d != C]
        return [s for k in range(1, len(free) + 1) for s in combinations(free, k)]

    @lru_cache(maxsize=None)
    def position(dice, left, ds):
        stop = terminal(score_final(dice))
        legal = choices(dice, ds)
        if policy_fn is not None:
            chosen = tuple(sorted(policy_fn(dice, left, ds)))
            if not chosen:
                return stop
            if chosen not in legal:
                raise ValueError(f"illegal reroll {chosen} at {dice}, {left}, ds={ds}")
            return reroll(dice, chosen, left, ds)
        best = stop
        for positions in legal:
            v = reroll(dice, positions, left, ds)
            if v > best:  # lexicographic: expected utility, then instant-win chance
                best = v
        return best

    def start():
        # Rules page, *A turn* step 1: roll all three dice, holding the standard rerolls.
        return reroll((C, C, C), (0, 1, 2), rerolls + 1, False)

    return start


def _utility(instant_win_points, target=None):
    points = list(range(19)) + [18, instant_win_points]
    if target is None:
        return points
    return [1 if p >= target else 0 for p in points]


def best_expected_score(weights, instant_win_points=18, rerolls=2, clover_bonus=1,
                        double_six_bonus=2, double_six_rule=True) -> Fraction:
    """Exact expected turn score under the best play."""
    return best_turn(weights, instant_win_points, rerolls, clover_bonus, double_six_bonus,
                     double_six_rule)[0]


def best_turn(weights, instant_win_points=18, rerolls=2, clover_bonus=1, double_six_bonus=2,
              double_six_rule=True, target=None):
    """``(best expected utility, instant-win chance of the best play with exact ties broken
    toward the instant win)``; utility = points, or 1 for reaching ``target`` points (an
    instant win counts ``instant_win_points``) when ``target`` is given."""
    return _solver(weights, rerolls, clover_bonus, double_six_bonus, double_six_rule, None,
                   _utility(instant_win_points, target))()


def best_reach_probability(weights, target, instant_win_points=18, rerolls=2, clover_bonus=1,
                           double_six_bonus=2, double_six_rule=True) -> Fraction:
    """Exact best chance of a turn worth at least ``target`` points (triple six = 18,
    instant win = ``instant_win_points``)."""
    return best_turn(weights, instant_win_points, rerolls, clover_bonus, double_six_bonus,
                     double_six_rule, target)[0]


def policy_outcome_distribution(weights, policy_fn, rerolls=2, clover_bonus=1,
                                double_six_bonus=2, double_six_rule=True) -> dict:
    """Exact outcome distribution when following ``policy_fn(sorted dice, rerolls left,
    double_six) -> set of positions (in the sorted dice) to reroll``; empty set = stop."""
    v = _solver(weights, rerolls, clover_bonus, double_six_bonus, double_six_rule, policy_fn,
                _utility(18))()
    return dict(zip(OUTCOMES, v))


def never_reroll(dice, left, ds):
    return set()


def threshold_policy(k):
    """Reroll every number below ``k`` (in the double-six state that can only be the third
    die, since the other two are sixes)."""
    def policy(dice, left, ds):
        return {i for i, d in enumerate(dice) if d != C and d < k}
    return policy
