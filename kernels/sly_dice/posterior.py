"""What a claim tells the other players: the exact joint chance of (locked dice, claim,
truth) when a bot of known policy rolls and claims, by enumerating every roll of its
rolling phase (no sampling)."""

import numpy as np

from kernels.jit import njit
from kernels.sly_dice.bots import (ACTIONS_2, ACTIONS_3, MS_COUNTS_6, best_action, choose_claim,
                                   list_open_cards)
from kernels.sly_dice.layout import CODE_INDEX, DICE_CARDS, FACE_CODE, MS_CODE, MS_PROB, N_CARDS


@njit(cache=True, _nrt=False)
def _record(out, prob, common, own, locked, n_locked, args):
    (open_mask, hol_ev, points, bluff_below, plaus, made, bluff_next) = args
    six = CODE_INDEX[common + own]
    plaus_row = plaus[n_locked, CODE_INDEX[common + locked]]
    card, k, _, true = choose_claim(MS_COUNTS_6[six], made[six], open_mask, hol_ev, points,
                                    bluff_below, plaus_row, bluff_next)
    if card >= 0:
        out[n_locked, CODE_INDEX[locked], card, k, 1 if true else 0] += prob


@njit(cache=True)
def claim_distribution(common, c_idx, weights, q1, q2, rerolls, open_mask, hol_ev, points,
                       bluff_below, plaus, made, bluff_next):
    """Joint chance of every (locked dice, claim, truth) for a bot that rolls with the
    action values ``q1``/``q2`` (as in ``play.roll_own``) and claims with ``bluff_below``.

    ``common``: multiset code of the common dice; other arguments as in ``play.play_game``.
    Returns float64[3, 21, N_CARDS, 7, 2]: ``[n_locked, index of the locked multiset in
    MS_COUNTS[n_locked], card, k, true]``.
    """
    out = np.zeros((3, 21, N_CARDS, 7, 2))
    args = (open_mask, hol_ev, points, bluff_below, plaus, made, bluff_next)
    open_cards = np.zeros(DICE_CARDS, np.int64)
    n_open = list_open_cards(open_mask, open_cards)
    for h in range(MS_CODE[3].shape[0]):
        p1 = MS_PROB[3][h]
        first = MS_CODE[3][h]
        a = best_action(q1[c_idx, h], ACTIONS_3[h], open_cards, n_open, weights) \
            if rerolls >= 1 else 0
        if a == 0:
            _record(out, p1, common, first, np.int64(0), np.int64(0), args)
            continue
        for h2 in range(MS_CODE[2].shape[0]):
            p2 = p1 * MS_PROB[2][h2]
            second = MS_CODE[2][h2]
            b = best_action(q2[c_idx, a - 1, h2], ACTIONS_2[h2], open_cards, n_open,
                             weights) if rerolls >= 2 else 0
            if b == 0:
                _record(out, p2, common, FACE_CODE[a] + second, FACE_CODE[a], np.int64(1), args)
                continue
            locked = FACE_CODE[a] + FACE_CODE[b]
            for f in range(1, 7):
                _record(out, p2 / 6.0, common, locked + FACE_CODE[f], locked, np.int64(2), args)
    return out
