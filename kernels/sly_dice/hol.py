"""Higher or Lower (rules page ``docs/rules/sly-dice.md``, *Higher or Lower*).

Three extra, visible rolls of the player's 3 dice. Before each roll the player calls
"higher" or "lower" than a target: first the sum of the common dice, then the sum of the
previous challenge roll. An equal sum fails; three right calls succeed.
"""

import numpy as np

from kernels.jit import njit
from kernels.sly_dice.layout import MS_COUNTS, MS_PROB

N_SUMS = 19  # sums of 3 dice are 3..18
N_CALLS = 3
HIGHER, LOWER = 1, 0
_TIE = 1e-12


def _sum_prob():
    """Chance (float64[19]) of each sum of 3 fair dice."""
    out = np.zeros(N_SUMS, np.float64)
    sums = (MS_COUNTS[3] * np.arange(7)).sum(axis=1)
    np.add.at(out, sums, MS_PROB[3])
    return out


SUM_PROB = _sum_prob()


@njit(cache=True, _nrt=False)
def _call_values(target, after):
    """Chance of success calling higher and lower against ``target``, given the chance
    ``after[s]`` (float64[19]) of finishing from a roll with sum ``s``."""
    hi = 0.0
    lo = 0.0
    for s in range(3, N_SUMS):
        if s > target:
            hi += SUM_PROB[s] * after[s]
        elif s < target:
            lo += SUM_PROB[s] * after[s]
    return hi, lo


@njit(cache=True)
def hol_solve():
    """Best calls and success chances of the Higher or Lower challenge.

    Returns
    -------
    success : float64[19]
        ``success[t]``: best chance of three right calls from a first target ``t`` (3..18);
        entries 0..2 are 0.
    calls : int64[3, 19]
        ``calls[stage, t]``: ``HIGHER`` (1) or ``LOWER`` (0) before challenge roll ``stage``
        (0, 1, 2) against target ``t``; -1 for ``t`` < 3. Exact ties (none occur with fair
        dice) call higher for ``t`` <= 10.
    """
    calls = np.full((N_CALLS, N_SUMS), -1, np.int64)
    after = np.ones(N_SUMS, np.float64)
    for stage in range(N_CALLS - 1, -1, -1):
        value = np.zeros(N_SUMS, np.float64)
        for t in range(3, N_SUMS):
            hi, lo = _call_values(t, after)
            tie = abs(hi - lo) <= _TIE
            higher = hi > lo if not tie else t <= 10
            calls[stage, t] = HIGHER if higher else LOWER
            value[t] = max(hi, lo)
        after = value
    return after, calls
