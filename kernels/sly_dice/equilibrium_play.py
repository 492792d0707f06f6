"""The claim/accuse equilibrium of the public state a claim is made in, for whole games:
the ``equilibrium`` policy. The one-round game of ``analyzer.games.sly_dice.claim_game``
(rolling prior, every claim on the claimant's open cards, zero-sum in points with the next
bonus card and penalty) is built here from plain arrays and solved by ``claim_lp``; no
random numbers are drawn here (the play loop passes its uniforms in).

A game's arrays: ``prior`` float64[T] over the hidden multisets of ``h = 3 - locked``
dice (``MS_CODE[h]`` order), ``truth`` bool[T, C], ``cards``/``ks`` int64[C] (claim c is
card ``cards[c]`` with ``ks[c]`` dice; 1 for fixed cards and Higher or Lower),
``points`` float64[C] (Higher or Lower: its expected points), ``accusable`` bool[C].
"""

import numpy as np

from kernels.jit import njit
from kernels.sly_dice.bots import rolling_ends
from kernels.sly_dice.claim_lp import OPTIMAL, solve_claim_lp
from kernels.sly_dice.layout import (CODE_INDEX, DICE_CARDS, HIGHER_OR_LOWER, MS_CODE, MS_COUNTS,
                                     MS_PROB, N_NUMBER_CARDS)

MAX_CLAIMS = 6 * N_NUMBER_CARDS + (DICE_CARDS - N_NUMBER_CARDS) + 1  # 48


@njit(cache=True)
def hidden_sets(h):
    """(counts int64[T, 7], codes int64[T], chances float64[T]) of the multisets of ``h``
    dice (1 to 3)."""
    if h == 3:
        return MS_COUNTS[3], MS_CODE[3], MS_PROB[3]
    if h == 2:
        return MS_COUNTS[2], MS_CODE[2], MS_PROB[2]
    return MS_COUNTS[1], MS_CODE[1], MS_PROB[1]


@njit(cache=True)
def rolling_prior(c_idx, locked_code, n_locked, open_mask, weights, q1, q2, rerolls,
                  open_cards):
    """float64[T]: the chance of each hidden multiset of a claimant that rolled by the
    shared rule (``bots.rolling_ends``) and ended with ``locked_code`` (``n_locked`` dice),
    normalised; fair dice if it never ends there."""
    none, one, two = np.zeros(56), np.zeros((6, 21)), np.zeros((6, 6))
    rolling_ends(c_idx, open_mask, weights, q1, q2, rerolls, open_cards, none, one, two)
    _, codes, fair = hidden_sets(3 - n_locked)
    prior = np.zeros(codes.shape[0])
    if n_locked == 0:
        prior[:] = none
    else:
        faces = MS_COUNTS[1][CODE_INDEX[locked_code]] if n_locked == 1 else \
            MS_COUNTS[2][CODE_INDEX[locked_code]]
        low = 1
        while faces[low] == 0:
            low += 1
        if n_locked == 1:
            prior[:] = one[low - 1]
        else:
            high = low if faces[low] == 2 else low + 1
            while faces[high] == 0:
                high += 1
            prior[:] = two[low - 1, high - 1]
    total = prior.sum()
    return prior / total if total > 0.0 else fair.copy()


@njit(cache=True)
def claims_of(visible_code, n_locked, open_mask, made, points, hol_ev):
    """The claims of the game: ``(cards, ks, points, truth, accusable)`` for a claimant
    whose visible dice (common and locked) have ``visible_code`` and whose open cards are
    ``open_mask`` (Higher or Lower included); ``made``: int64[462] fixed-card bit masks
    of every six-dice multiset; ``points``: float64[18] card points."""
    counts, codes, _ = hidden_sets(3 - n_locked)
    n_types = codes.shape[0]
    six = np.empty(n_types, np.int64)
    for t in range(n_types):
        six[t] = CODE_INDEX[visible_code + codes[t]]
    cards = np.empty(MAX_CLAIMS, np.int64)
    ks = np.empty(MAX_CLAIMS, np.int64)
    worth = np.empty(MAX_CLAIMS)
    n = 0
    for card in range(DICE_CARDS + 1):
        if not (open_mask >> card) & 1:
            continue
        top = 1
        if card < N_NUMBER_CARDS:
            most = 0
            for t in range(n_types):
                most = max(most, MS_COUNTS[6][six[t], card + 1])
            top = min(6, most + 1)
        for k in range(1, top + 1):
            cards[n], ks[n] = card, k
            worth[n] = hol_ev if card == HIGHER_OR_LOWER else \
                (card + 1) * k if card < N_NUMBER_CARDS else points[card]
            n += 1
    truth = np.zeros((n_types, n), np.bool_)
    accusable = np.zeros(n, np.bool_)
    for c in range(n):
        always = True
        for t in range(n_types):
            if cards[c] == HIGHER_OR_LOWER:
                truth[t, c] = True
            elif cards[c] < N_NUMBER_CARDS:
                truth[t, c] = MS_COUNTS[6][six[t], cards[c] + 1] >= ks[c]
            else:
                truth[t, c] = (made[six[t]] >> cards[c]) & 1 == 1
            always = always and truth[t, c]
        accusable[c] = cards[c] != HIGHER_OR_LOWER and not always
    return cards[:n].copy(), ks[:n].copy(), worth[:n].copy(), truth, accusable


@njit(cache=True)
def payoffs(worth, truth, accusable, bluff_next, false_next):
    """(pay_accused, pay_not) float64[T, C]: the claimant's points relative to the accuser
    when a claim is / is not accused (a claim nobody may accuse: never accused)."""
    n_types, n = truth.shape
    pay_accused, pay_not = np.empty((n_types, n)), np.empty((n_types, n))
    for t in range(n_types):
        for c in range(n):
            pay_not[t, c] = worth[c] + (0.0 if truth[t, c] else bluff_next)
            pay_accused[t, c] = worth[c] + false_next if truth[t, c] else 0.0
            if not accusable[c]:
                pay_accused[t, c] = pay_not[t, c]
    return pay_accused, pay_not


@njit(cache=True)
def solve(prior, pay_accused, pay_not, accusable):
    """The game's equilibrium over the types with prior > 0: ``(ok, value, joint
    float64[T, C] (zero rows for the others), accuse float64[C])``."""
    n_types, n = pay_not.shape
    support = np.flatnonzero(prior > 0.0)
    m = support.shape[0]
    sub_a, sub_n = np.empty((m, n)), np.empty((m, n))
    for i in range(m):
        sub_a[i] = pay_accused[support[i]]
        sub_n[i] = pay_not[support[i]]
    part, accuse = np.zeros((m, n)), np.zeros(n)
    status, value = solve_claim_lp(sub_a, sub_n, prior[support], accusable, part, accuse)
    joint = np.zeros((n_types, n))
    for i in range(m):
        joint[support[i]] = part[i]
    return status == OPTIMAL, value, joint, accuse


@njit(cache=True)
def claim_for(t, u, prior, joint, accuse, pay_accused, pay_not):
    """The equilibrium claimant's claim (an index of the claims) for hidden type ``t``,
    drawn by the uniform ``u`` from its row of ``joint`` (a type of prior 0: its best
    reply to ``accuse``)."""
    n = joint.shape[1]
    if prior[t] > 0.0:
        run, last = 0.0, -1
        for c in range(n):
            if joint[t, c] > 0.0:
                last = c
                run += joint[t, c]
                if u * prior[t] < run:
                    return c
        if last >= 0:
            return last
    best, best_v = 0, -np.inf
    for c in range(n):
        v = accuse[c] * pay_accused[t, c] + (1.0 - accuse[c]) * pay_not[t, c]
        if v > best_v:
            best, best_v = c, v
    return best


@njit(cache=True)
def state_solution(c_idx, common_code, locked_code, n_locked, open_mask, weights, q1, q2,
                   rerolls, open_cards, made, points, hol_ev, bluff_next, false_next):
    """The public state's claim game and its equilibrium: ``(ok, prior, cards, ks, worth,
    truth, pay_accused, pay_not, joint, accuse)`` (arguments as in ``play.play_game``;
    ``bluff_next``/``false_next``: the next Successful Bluffing card's worth to the
    claimant, the next False Accusation card's penalty to the accuser)."""
    prior = rolling_prior(c_idx, locked_code, n_locked, open_mask, weights, q1, q2, rerolls,
                          open_cards)
    cards, ks, worth, truth, accusable = claims_of(common_code + locked_code, n_locked,
                                                   open_mask, made, points, hol_ev)
    pay_a, pay_n = payoffs(worth, truth, accusable, bluff_next, false_next)
    ok, _, joint, accuse = solve(prior, pay_a, pay_n, accusable)
    return ok, prior, cards, ks, worth, truth, pay_a, pay_n, joint, accuse


@njit(cache=True)
def equilibrium_claim(u, c_idx, common_code, own_code, locked_code, n_locked, open_mask,
                      weights, q1, q2, rerolls, open_cards, made, points, hol_ev, bluff_next,
                      false_next):
    """The equilibrium claimant's claim ``(card, k, value, true, accused)``: as
    ``bots.choose_claim`` returns it (card -1: nothing to claim), drawn by the uniform
    ``u``, and the equilibrium's chance that the next player accuses it (the same game:
    an equilibrium accuser there need not solve it again). The next player's False
    Accusation penalty is ``false_next``. Its own dice are ``own_code`` (locked and
    hidden); the state's LP failing (it should not), it claims honestly."""
    ok, prior, cards, ks, worth, truth, pay_a, pay_n, joint, accuse = state_solution(
        c_idx, common_code, locked_code, n_locked, open_mask, weights, q1, q2, rerolls,
        open_cards, made, points, hol_ev, bluff_next, false_next)
    if cards.shape[0] == 0:
        return -1, 0, 0.0, True, 0.0
    t = CODE_INDEX[own_code - locked_code]  # the hidden dice, in MS_CODE[h] order
    if ok:
        c = claim_for(t, u, prior, joint, accuse, pay_a, pay_n)
    else:  # the best true claim
        c, best = 0, -np.inf
        for j in range(cards.shape[0]):
            if truth[t, j] and pay_n[t, j] > best:
                c, best = j, pay_n[t, j]
    card = cards[c]
    value = points[HIGHER_OR_LOWER] if card == HIGHER_OR_LOWER else worth[c]
    return card, ks[c], value, truth[t, c], accuse[c] if ok else 0.0


@njit(cache=True)
def equilibrium_accuse(card, k, c_idx, common_code, locked_code, n_locked, open_mask,
                       weights, q1, q2, rerolls, open_cards, made, points, hol_ev,
                       bluff_next, false_next):
    """The equilibrium accuser's chance of accusing the claim ``card`` x ``k`` at the
    public state, its own next penalty ``false_next`` (0 when the LP fails)."""
    ok, _, cards, ks, _, _, _, _, _, accuse = state_solution(
        c_idx, common_code, locked_code, n_locked, open_mask, weights, q1, q2, rerolls,
        open_cards, made, points, hol_ev, bluff_next, false_next)
    if not ok:
        return 0.0
    for c in range(cards.shape[0]):
        if cards[c] == card and ks[c] == k:
            return accuse[c]
    return 0.0
