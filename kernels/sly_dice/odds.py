"""Exact dynamic programming over one player's Sly Dice rolling phase.

Rules page (``docs/rules/sly-dice.md``), *Dice and the rolling phase*: the 3 common dice
are fixed; the player rolls 3 own dice hidden, may stop or lock exactly one hidden die and
reroll the other hidden dice, may then stop or lock one more and reroll the last die, and
must then stop. The combination is judged on all 6 dice.

Positions (own dice only; the common dice are a parameter of the terminal values)
    stage 1: the 3 freshly rolled dice, a row of ``MS_COUNTS[3]`` (56);
    stage 2: the locked face ``a`` (index ``a - 1``) and the 2 newly rolled dice, a row of
    ``MS_COUNTS[2]`` (21);
    stage 3: the locked pair and 1 new die (no choice: stop).
Actions: index 0 = stop, ``a`` in 1..6 = lock one just-rolled hidden die showing ``a`` and
reroll the other hidden dice. Illegal actions have value ``-inf``.

Terminal values (``own_terminal``) are indexed by the final own multiset (row of
``MS_COUNTS[3]``: locked dice + hidden dice). Objectives: ``PROBABILITY`` (1 if the card
holds), ``EXPECTED_POINTS`` (``combos.card_value``), ``BEST_OPEN`` (``card`` is a bitmask
of open dice cards; the best ``card_value`` among them). Powers (rules page, *Special
powers*): ``NO_POWER``, ``CHANGE_DIE`` (``ones``: turn one own die to any face),
``SUM_OF_TWO`` (``threes``: use the sum of two of the 6 dice as one die). The ``fours``
power (restart the rolling phase) is the ``restart_value`` argument of ``solve_rolling``.

Reading of the rules page (*Special powers*, "restarts their roll at any point during the
Rolling the Dice Phase"): the restart may be taken after any roll, including after the
last die of stage 3 is seen; it is worth the start value of a fresh phase without it.
"""

import numpy as np

from kernels.jit import njit
from kernels.sly_dice.combos import card_value, holds
from kernels.sly_dice.hol import hol_solve
from kernels.sly_dice.layout import (CODE_INDEX, DICE_CARDS, FACE_CODE, HIGHER_OR_LOWER, MS_CODE,
                                     MS_COUNTS, MS_PROB, N_CARDS, N_COMMON_SETS, N_NUMBER_CARDS)

PROBABILITY, EXPECTED_POINTS, BEST_OPEN = 0, 1, 2
NO_POWER, CHANGE_DIE, SUM_OF_TWO = 0, 1, 2
RESTART = -1  # ``policy_rows`` action code: restart the rolling phase

N_OWN_SETS = MS_COUNTS[3].shape[0]  # 56
N_PAIR_SETS = MS_COUNTS[2].shape[0]  # 21
N_ACTIONS = 7
MERGED_LEN = 13  # value counts 0..12 (a merged die of the sum-of-two power shows 2..12)
_TIE = 1e-12

_M3 = MS_COUNTS[3]
_M2 = MS_COUNTS[2]
# ways to roll each multiset (exact integers as float64): sums of ways x value divided by
# 6**n once keep certain outcomes exactly 1.0 and chances within [0, 1]
_W3 = np.round(MS_PROB[3] * 216.0)
_W2 = np.round(MS_PROB[2] * 36.0)


def _join_tables():
    """``with_one[a, m2]``: row of MS_COUNTS[3] for face ``a`` plus pair ``m2``;
    ``with_two[a, b, c]``: row of MS_COUNTS[3] for faces ``a, b, c`` (all int64)."""
    with_one = np.full((7, N_PAIR_SETS), -1, np.int64)
    with_two = np.full((7, 7, 7), -1, np.int64)
    for a in range(1, 7):
        with_one[a] = CODE_INDEX[MS_CODE[2] + FACE_CODE[a]]
        for b in range(1, 7):
            for c in range(1, 7):
                with_two[a, b, c] = CODE_INDEX[FACE_CODE[a] + FACE_CODE[b] + FACE_CODE[c]]
    return with_one, with_two


_WITH_ONE, _WITH_TWO = _join_tables()


def _faces(counts):
    """Ascending faces (int64[m, n]) of every count row (int64[m, 7]) of ``n`` dice."""
    n = int(counts[0, 1:].sum())
    out = np.zeros((counts.shape[0], n), np.int64)
    for i, row in enumerate(counts):
        out[i] = np.repeat(np.arange(7), row)
    return out


_F3 = _faces(_M3)
_F2 = _faces(_M2)


@njit(cache=True, _nrt=False)
def _value(counts, objective, card, k, points):
    """Terminal value of value counts ``counts`` (int64[>=7]) for one objective."""
    if objective == PROBABILITY:
        return 1.0 if holds(counts, card, k) else 0.0
    if objective == EXPECTED_POINTS:
        return card_value(counts, card, points)
    best = 0.0
    for c in range(DICE_CARDS):
        if (card >> c) & 1:
            best = max(best, card_value(counts, c, points))
    return best


@njit(cache=True, _nrt=False)
def _changed_value(counts, own, objective, card, k, points):
    """Best value when one own die (``own`` int64[7] counts) may turn to any face."""
    best = _value(counts, objective, card, k, points)
    for f in range(1, 7):
        if own[f] == 0:
            continue
        counts[f] -= 1
        for g in range(1, 7):
            if g != f:
                counts[g] += 1
                best = max(best, _value(counts, objective, card, k, points))
                counts[g] -= 1
        counts[f] += 1
    return best


@njit(cache=True, _nrt=False)
def _merged_value(counts, objective, card, k, points):
    """Best value when two of the 6 dice may be used as one die showing their sum."""
    best = _value(counts, objective, card, k, points)
    for a in range(1, 7):
        if counts[a] == 0:
            continue
        counts[a] -= 1
        for b in range(a, 7):
            if counts[b] == 0:
                continue
            counts[b] -= 1
            counts[a + b] += 1
            best = max(best, _value(counts, objective, card, k, points))
            counts[a + b] -= 1
            counts[b] += 1
        counts[a] += 1
    return best


@njit(cache=True)
def own_terminal(common_counts, objective, card, k, points, power):
    """Terminal value of every final multiset of the 3 own dice.

    Parameters
    ----------
    common_counts : int64[7]
        Face counts of the 3 common dice (column 0 unused).
    objective : int
        ``PROBABILITY``, ``EXPECTED_POINTS`` or ``BEST_OPEN``.
    card : int
        Card id (0..16); for ``BEST_OPEN`` a bitmask of the open dice cards.
    k : int
        Claimed count for number cards under ``PROBABILITY`` (ignored otherwise).
    points : float64[N_CARDS]
        Points of the fixed cards (number cards score face x count).
    power : int
        ``NO_POWER``, ``CHANGE_DIE`` or ``SUM_OF_TWO``.

    Returns
    -------
    float64[56]
        Value per row of ``MS_COUNTS[3]``.
    """
    out = np.empty(N_OWN_SETS, np.float64)
    counts = np.zeros(MERGED_LEN, np.int64)
    for m in range(N_OWN_SETS):
        for f in range(1, 7):
            counts[f] = common_counts[f] + _M3[m, f]
        if power == CHANGE_DIE:
            out[m] = _changed_value(counts, _M3[m], objective, card, k, points)
        elif power == SUM_OF_TWO:
            out[m] = _merged_value(counts, objective, card, k, points)
        else:
            out[m] = _value(counts, objective, card, k, points)
    return out


@njit(cache=True, _nrt=False)
def _or_restart(value, restart_value):
    """``value``, or the restart value when the restart power is held and worth more."""
    if restart_value >= 0.0 and restart_value > value:
        return restart_value
    return value


@njit(cache=True)
def _stage3(terminal, restart_value):
    """``w3[a, b]`` (float64[7, 7]): value of locking ``a, b`` before the last die."""
    w3 = np.zeros((7, 7), np.float64)
    for a in range(1, 7):
        for b in range(1, 7):
            total = 0.0
            for c in range(1, 7):
                total += _or_restart(terminal[_WITH_TWO[a, b, c]], restart_value)
            w3[a, b] = total / 6.0
    return w3


@njit(cache=True)
def _stage2(terminal, rerolls, restart_value):
    """Stage-2 action values ``q2`` (float64[6, 21, 7]) and best values ``v2``."""
    w3 = _stage3(terminal, restart_value)
    q2 = np.full((6, N_PAIR_SETS, N_ACTIONS), -np.inf)
    v2 = np.empty((6, N_PAIR_SETS), np.float64)
    for a in range(1, 7):
        for m in range(N_PAIR_SETS):
            q2[a - 1, m, 0] = terminal[_WITH_ONE[a, m]]
            for b in range(1, 7):
                if rerolls >= 2 and _M2[m, b] > 0:
                    q2[a - 1, m, b] = w3[a, b]
            v2[a - 1, m] = _or_restart(q2[a - 1, m].max(), restart_value)
    return q2, v2


@njit(cache=True)
def solve_rolling(terminal, rerolls, restart_value):
    """Best play of the rolling phase for the terminal values ``terminal``.

    Parameters
    ----------
    terminal : float64[56]
        Value of stopping with each final own multiset (row of ``MS_COUNTS[3]``).
    rerolls : int
        0, 1 or 2 rerolls allowed (locks beyond that have value ``-inf``).
    restart_value : float
        Start value of a fresh rolling phase without the restart power, which the player
        may take instead at every decision point (after each roll, the last one included);
        -1.0 when the player does not hold the power.

    Returns
    -------
    start_value : float
        Value before the first roll.
    q1 : float64[56, 7]
        Stage-1 action values (stop, lock 1..6) followed by best play.
    q2 : float64[6, 21, 7]
        Stage-2 action values, by locked face - 1 and newly rolled pair.
    v1 : float64[56]
        Stage-1 best values (the restart included: ``max(q1[m].max(), restart_value)``).
    v2 : float64[6, 21]
        Stage-2 best values, likewise.
    """
    q2, v2 = _stage2(terminal, rerolls, restart_value)
    after_lock = np.zeros(7, np.float64)
    for a in range(1, 7):
        after_lock[a] = (_W2 * v2[a - 1]).sum() / 36.0
    q1 = np.full((N_OWN_SETS, N_ACTIONS), -np.inf)
    v1 = np.empty(N_OWN_SETS, np.float64)
    for m in range(N_OWN_SETS):
        q1[m, 0] = terminal[m]
        for a in range(1, 7):
            if rerolls >= 1 and _M3[m, a] > 0:
                q1[m, a] = after_lock[a]
        v1[m] = _or_restart(q1[m].max(), restart_value)
    return (_W3 * v1).sum() / 216.0, q1, q2, v1, v2


@njit(cache=True)
def _start_value(common_counts, objective, card, points, rerolls):
    terminal = own_terminal(common_counts, objective, card, np.int64(1), points, np.int64(NO_POWER))
    return solve_rolling(terminal, rerolls, -1.0)[0]


@njit(cache=True)
def odds_table(points, rerolls):
    """Best chances and expected points of every card for every set of common dice.

    Parameters
    ----------
    points : float64[N_CARDS]
        Points of the fixed cards.
    rerolls : int
        0, 1 or 2.

    Returns
    -------
    float64[56, 18, 3]
        By common set (row of ``MS_COUNTS[3]``) and card: ``[0]`` best chance of making the
        card (number cards: at least one die of the face); ``[1]`` best expected points of
        the card alone (fixed cards: chance x points); ``[2]`` number cards: best expected
        count of the face, otherwise NaN. Higher or Lower (card 17) from ``hol_solve`` at
        the common sum: ``[0]`` success chance with the best calls, ``[1]`` that x points.
    """
    success, _ = hol_solve()
    out = np.full((N_COMMON_SETS, N_CARDS, 3), np.nan)
    for ci in range(N_COMMON_SETS):
        common = _M3[ci]
        for card in range(DICE_CARDS):
            p = _start_value(common, np.int64(PROBABILITY), card, points, rerolls)
            out[ci, card, 0] = p
            if card < N_NUMBER_CARDS:
                e = _start_value(common, np.int64(EXPECTED_POINTS), card, points, rerolls)
                out[ci, card, 1] = e
                out[ci, card, 2] = e / (card + 1)
            else:
                out[ci, card, 1] = p * points[card]
        total = 0
        for f in range(1, 7):
            total += f * common[f]
        out[ci, HIGHER_OR_LOWER, 0] = success[total]
        out[ci, HIGHER_OR_LOWER, 1] = success[total] * points[HIGHER_OR_LOWER]
    return out


@njit(cache=True)
def q_tables(rerolls):
    """Action values for a bot, per common set and dice card.

    Fixed cards use the ``PROBABILITY`` objective; number cards the expected count of
    their face among the 6 dice (``EXPECTED_POINTS`` / face). No powers, no restart.

    Parameters
    ----------
    rerolls : int
        0, 1 or 2.

    Returns
    -------
    q1 : float64[56, 17, 56, 7]
        ``q1[common, card]`` as returned by ``solve_rolling``.
    q2 : float64[56, 17, 6, 21, 7]
        ``q2[common, card]`` likewise.
    """
    q1 = np.empty((N_COMMON_SETS, DICE_CARDS, N_OWN_SETS, N_ACTIONS), np.float64)
    q2 = np.empty((N_COMMON_SETS, DICE_CARDS, 6, N_PAIR_SETS, N_ACTIONS), np.float64)
    points = np.zeros(N_CARDS, np.float64)
    for ci in range(N_COMMON_SETS):
        common = _M3[ci].copy()  # a writable row, as every other caller passes
        for card in range(DICE_CARDS):
            if card < N_NUMBER_CARDS:
                t = own_terminal(common, np.int64(EXPECTED_POINTS), card, np.int64(1), points,
                                 np.int64(NO_POWER))
                t = t / (card + 1)
            else:
                t = own_terminal(common, np.int64(PROBABILITY), card, np.int64(1), points,
                                 np.int64(NO_POWER))
            _, a1, a2, _, _ = solve_rolling(t, rerolls, -1.0)
            q1[ci, card] = a1
            q2[ci, card] = a2
    return q1, q2


@njit(cache=True, _nrt=False)
def _best_action(q, v, restart_value):
    """The action attaining ``v`` (within ``_TIE``): stop first, then ``RESTART`` (when
    held), then the lowest face to lock."""
    tol = _TIE * max(1.0, abs(v))
    if q[0] >= v - tol:
        return 0
    if restart_value >= 0.0 and restart_value >= v - tol:
        return RESTART
    for a in range(1, N_ACTIONS):
        if q[a] >= v - tol:
            return a
    return 0


@njit(cache=True)
def policy_rows(q1, q2, v1, v2, restart_value):
    """The best action at every stage-1 and stage-2 position, one row each.

    Parameters
    ----------
    q1, q2, v1, v2 :
        As returned by ``solve_rolling`` (for one common set and objective).
    restart_value : float
        The ``restart_value`` given to ``solve_rolling`` (-1.0: no restart power).

    Returns
    -------
    stage : int64[182]
        1 for the 56 stage-1 rows, then 2 for the 126 stage-2 rows (locked face major).
    locked : int64[182, 2]
        Locked faces, 0 = none (stage 2: ``locked[:, 0]`` is the locked face).
    rolled : int64[182, 3]
        Just-rolled hidden faces, ascending, 0-padded (3 at stage 1, 2 at stage 2).
    action : int64[182]
        0 = stop, ``a`` = lock a die showing ``a``, ``RESTART`` (-1) = restart the phase.
        Ties (within 1e-12) go to stop, then restart, then the lower face. Stage 3 always
        stops (or restarts when the final value is below the restart value).
    value : float64[182]
        The best value (``v1``/``v2``).
    """
    n = N_OWN_SETS + 6 * N_PAIR_SETS
    stage = np.empty(n, np.int64)
    locked = np.zeros((n, 2), np.int64)
    rolled = np.zeros((n, 3), np.int64)
    action = np.empty(n, np.int64)
    value = np.empty(n, np.float64)
    for m in range(N_OWN_SETS):
        stage[m] = 1
        rolled[m] = _F3[m]
        action[m] = _best_action(q1[m], v1[m], restart_value)
        value[m] = v1[m]
    r = N_OWN_SETS
    for a in range(6):
        for m in range(N_PAIR_SETS):
            stage[r] = 2
            locked[r, 0] = a + 1
            rolled[r, :2] = _F2[m]
            action[r] = _best_action(q2[a, m], v2[a, m], restart_value)
            value[r] = v2[a, m]
            r += 1
    return stage, locked, rolled, action, value
