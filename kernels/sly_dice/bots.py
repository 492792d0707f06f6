"""The Sly Dice bots' rules, shared by the game loop and the exact analyses (no random
numbers here: ``play`` draws the dice): how a bot rolls (the action whose best open card
is worth most), what it claims, when it accuses, and what a claim tells an accuser who
knows the claimant's rules.

Policies are rows of ``policy`` (float64[n_players, N_POLICY]):
``BLUFF_BELOW``: bluff when the best honest option is worth less than this many points
(negative: never bluff unless no honest claim exists); ``ACCUSE_MODE``: ``NEVER``,
``THRESHOLD`` (accuse when the claim's plausibility is below ``ACCUSE_BELOW``) or
``EXPECTED`` (accuse when it gains expected points on the opponents' average, with the
chance that the claim is true from ``claim_posterior``) or ``EQUILIBRIUM`` (claim and
accuse as the one-round equilibrium of the public state does, ``equilibrium_play``).
"""

import numpy as np

from kernels.jit import njit
from kernels.sly_dice.layout import (CODE_INDEX, DICE_CARDS, FACE_CODE, HIGHER_OR_LOWER, MS_CODE,
                                     MS_COUNTS, MS_PROB, N_NUMBER_CARDS)

MS_COUNTS_6 = MS_COUNTS[6]  # face counts of every six-dice multiset


def _actions(n_dice, n_slots):
    """int64[m, n_slots]: the allowed actions of each rolled multiset of ``n_dice`` dice:
    0 (stop), then each distinct face it shows (lock one die of it); -1 pads."""
    sets = MS_COUNTS[n_dice]
    out = np.full((sets.shape[0], n_slots), -1, np.int64)
    for i in range(sets.shape[0]):
        faces = [0] + [f for f in range(1, 7) if sets[i, f] > 0]
        out[i, :len(faces)] = faces
    return out


ACTIONS_3 = _actions(3, 4)  # after the first roll
ACTIONS_2 = _actions(2, 3)  # after the second roll

BLUFF_BELOW = 0
ACCUSE_MODE = 1
ACCUSE_BELOW = 2
N_POLICY = 3
NEVER, THRESHOLD, EXPECTED, EQUILIBRIUM = 0, 1, 2, 3  # EQUILIBRIUM: claims and accuses by
# the claim/accuse equilibrium of each public state (``equilibrium_play``)


@njit(cache=True, _nrt=False)
def list_open_cards(open_mask, open_cards):
    """Write the open dice cards of ``open_mask`` first in ``open_cards`` (int64[DICE_CARDS]);
    returns how many."""
    n_open = 0
    for card in range(DICE_CARDS):
        if (open_mask >> card) & 1:
            open_cards[n_open] = card
            n_open += 1
    return n_open


@njit(cache=True, _nrt=False)
def best_action(q, actions, open_cards, n_open, weights):
    """Action (0 stop, a = lock face a) whose best open card is worth most.

    ``q``: float32[slots, 17] action values per card at this position; ``actions``:
    int64[slots] the action of each slot (-1: none); ``open_cards``: int64[17], the first
    ``n_open`` are the open dice cards."""
    best_a, best_v = 0, -1.0
    for j in range(actions.shape[0]):
        if actions[j] < 0:
            break
        v = -1.0
        for i in range(n_open):
            card = open_cards[i]
            v = max(v, weights[card] * q[j, card])
        if v > best_v + 1e-6:
            best_a, best_v = actions[j], v
    return best_a


@njit(cache=True, _nrt=False)
def rolling_ends(c_idx, open_mask, weights, q1, q2, rerolls, open_cards, none, one, two):
    """Where a bot rolling by the action values ``q1``/``q2`` (as ``play.roll_own``) for the
    cards of ``open_mask`` ends its rolling, exactly; the chances are added to the outputs
    (zeros to start): ``none`` float64[56] it locks nothing and holds each 3-dice multiset
    (``MS_CODE[3]`` order); ``one`` float64[6, 21] it locks face a (row a - 1) and holds each
    2-dice multiset; ``two`` float64[6, 6] (row: the lower face - 1, column: the higher
    - 1), divided by 6, it locks those two faces and its last die shows any given face
    (rolled once more). ``c_idx``: index of the common dice; ``open_cards``:
    int64[DICE_CARDS] work space; the rest as in ``play.play_game``."""
    n_open = list_open_cards(open_mask, open_cards)
    for h in range(MS_CODE[3].shape[0]):
        p1 = MS_PROB[3][h]
        a = best_action(q1[c_idx, h], ACTIONS_3[h], open_cards, n_open, weights) \
            if rerolls >= 1 else 0
        if a == 0:
            none[h] += p1
            continue
        for h2 in range(MS_CODE[2].shape[0]):
            p2 = MS_PROB[2][h2]
            b = best_action(q2[c_idx, a - 1, h2], ACTIONS_2[h2], open_cards, n_open,
                            weights) if rerolls >= 2 else 0
            if b == 0:
                one[a - 1, h2] += p1 * p2
            else:
                two[min(a, b) - 1, max(a, b) - 1] += p1 * p2 / 6.0


@njit(cache=True, _nrt=False)
def choose_claim(counts, made, open_mask, hol_ev, points, bluff_below, plaus_row, bluff_next):
    """The claim of a bot: ``(card, k, value, true)``; card -1 if it has nothing to claim.

    ``counts``: int64[7] face counts of all six dice; ``made``: bit mask of the fixed cards
    they make; ``open_mask``: cards the player may claim (Higher or Lower included);
    ``hol_ev``: expected points of Higher or Lower now; ``plaus_row``: float64[18, 7]
    plausibility of each claim as the others see it; ``bluff_next``: worth of the bonus card
    a successful bluff would bring.
    """
    best_card, best_k, best_value = -1, 0, 0.0
    for card in range(DICE_CARDS):
        if not (open_mask >> card) & 1:
            continue
        if card < N_NUMBER_CARDS:
            k = counts[card + 1]
            value = float((card + 1) * k)
        else:
            k = 1
            value = points[card] if (made >> card) & 1 else 0.0
        if value > best_value:
            best_card, best_k, best_value = card, k, value
    hol_open = (open_mask >> HIGHER_OR_LOWER) & 1
    honest = max(best_value, hol_ev if hol_open else 0.0)
    forced = best_card < 0 and not hol_open
    if forced or (bluff_below >= 0 and honest < bluff_below):
        bluff_card, bluff_k, bluff_value, bluff_score = -1, 0, 0.0, -1.0
        for card in range(DICE_CARDS):
            if not (open_mask >> card) & 1:
                continue
            if card < N_NUMBER_CARDS:
                k = counts[card + 1] + 1
                if k > 6:
                    continue
                value = float((card + 1) * k)
            else:
                k = 1
                if (made >> card) & 1:
                    continue
                value = points[card]
            score = (value + bluff_next) * plaus_row[card, k]
            if score > bluff_score:
                bluff_card, bluff_k, bluff_value, bluff_score = card, k, value, score
        if bluff_card >= 0:
            return bluff_card, bluff_k, bluff_value, False
    if hol_open and hol_ev >= best_value:
        return HIGHER_OR_LOWER, 1, points[HIGHER_OR_LOWER], True
    return best_card, best_k, best_value, True


@njit(cache=True, _nrt=False, inline="always")
def accuses(mode, below, plausibility, value, claimant_bluffs, accuser_falses, bonus,
            opponents):
    """Whether a bot accuses a claim of ``value`` points that holds with chance
    ``plausibility`` (the ``EXPECTED`` rule: the chance from ``claim_posterior``).

    ``bonus``: float64[4] = bluff base, bluff step, false-accusation base and step. The
    ``EXPECTED`` rule accuses when that gains the accuser expected points on the average of
    its ``opponents`` (the number of other players): catching a bluff keeps the claim and
    the bluff card from one of them, a wrong accusation costs the accuser the escalating
    penalty."""
    if mode == THRESHOLD:
        return plausibility < below
    if mode == EXPECTED:
        gain = (1.0 - plausibility) * (value + bonus[0] + bonus[1] * claimant_bluffs)
        loss = plausibility * (bonus[2] + bonus[3] * accuser_falses)
        return gain > loss * opponents
    return False


@njit(cache=True, _nrt=False)
def _claim_mass(out, prob, common, own, vis_code, n_locked, card, k, open_mask, hol_ev,
                points, bluff_below, plaus, made, bluff_next):
    """Add ``prob`` to ``out[1]`` (true) or ``out[0]`` (false) if a bot holding ``own``
    (multiset code of its three dice) claims ``(card, k)``."""
    six = CODE_INDEX[common + own]
    c, kk, _, true = choose_claim(MS_COUNTS_6[six], made[six], open_mask, hol_ev, points,
                                  bluff_below, plaus[n_locked, CODE_INDEX[vis_code]],
                                  bluff_next)
    if c == card and kk == k:
        out[1 if true else 0] += prob


@njit(cache=True)
def claim_posterior(common, c_idx, locked, n_locked, card, k, open_mask, weights, q1, q2,
                    rerolls, hol_ev, points, bluff_below, plaus, made, bluff_next,
                    open_cards):
    """What claim ``(card, k)`` tells an accuser who knows the claimant's rules: the exact
    chances (float64[2]: false, true) that a bot rolling by the action values ``q1``/``q2``
    (as ``play.roll_own``) ends with the locked dice ``locked`` (multiset code, ``n_locked``
    dice) and claims ``(card, k)`` by ``choose_claim`` with ``bluff_below``, with the claim
    false or true. Only the rolls that end with these locked dice are enumerated.

    ``common``/``c_idx``: code and index of the common dice; ``open_mask``: the cards the
    claimant may claim; ``open_cards``: int64[DICE_CARDS] work space; the rest as in
    ``play.play_game``."""
    out = np.zeros(2)
    n_open = list_open_cards(open_mask, open_cards)
    vis = common + locked
    args = (vis, n_locked, card, k, open_mask, hol_ev, points, bluff_below, plaus, made,
            bluff_next)
    for h in range(MS_CODE[3].shape[0]):
        p1 = MS_PROB[3][h]
        a = best_action(q1[c_idx, h], ACTIONS_3[h], open_cards, n_open, weights) \
            if rerolls >= 1 else 0
        if a == 0:
            if n_locked == 0:
                _claim_mass(out, p1, common, MS_CODE[3][h], *args)
            continue
        if n_locked == 0 or (locked // FACE_CODE[a]) % 7 == 0:
            continue  # the bot locks a face that is not among these locked dice
        for h2 in range(MS_CODE[2].shape[0]):
            p2 = p1 * MS_PROB[2][h2]
            b = best_action(q2[c_idx, a - 1, h2], ACTIONS_2[h2], open_cards, n_open,
                            weights) if rerolls >= 2 else 0
            if b == 0:
                if n_locked == 1:
                    _claim_mass(out, p2, common, FACE_CODE[a] + MS_CODE[2][h2], *args)
            elif n_locked == 2 and FACE_CODE[a] + FACE_CODE[b] == locked:
                for f in range(1, 7):
                    _claim_mass(out, p2 / 6.0, common, locked + FACE_CODE[f], *args)
    return out
