"""How plausible a claim looks to the other players: the chance that it holds given the
visible dice (the common ones and the claimant's locked ones) when the hidden dice are
uniformly random. A naive model (it ignores how the claimant rolled and claims); the
analyzer's posterior refines it."""

import numpy as np

from kernels.jit import njit
from kernels.sly_dice.combos import holds
from kernels.sly_dice.layout import DICE_CARDS, MS_COUNTS, MS_PROB, N_CARDS, N_NUMBER_CARDS


@njit(cache=True)
def _fill(visible_sets, hidden_sets, hidden_probs, out):
    six = np.zeros(7, np.int64)
    for v in range(visible_sets.shape[0]):
        for h in range(hidden_sets.shape[0]):
            six[:] = visible_sets[v] + hidden_sets[h]
            p = hidden_probs[h]
            for card in range(DICE_CARDS):
                if card < N_NUMBER_CARDS:
                    for k in range(1, 7):
                        if six[card + 1] >= k:
                            out[v, card, k] += p
                elif holds(six, card, np.int64(1)):
                    out[v, card, 1] += p


def plausibility_table() -> np.ndarray:
    """float64[3, 252, N_CARDS, 7]: ``[n_locked, visible_index, card, k]`` where the visible
    multiset has 3 + n_locked dice (index within ``MS_COUNTS[3 + n_locked]``) and ``k`` is the
    claimed count (number cards) or 1. Unused entries are 0."""
    out = np.zeros((3, MS_COUNTS[5].shape[0], N_CARDS, 7))
    for n_locked in range(3):
        vis, hid = MS_COUNTS[3 + n_locked], MS_COUNTS[3 - n_locked]
        _fill(vis, hid, MS_PROB[3 - n_locked], out[n_locked, :vis.shape[0]])
    return out
