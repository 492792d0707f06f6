"""What an active player's last pick leaves the other players, for the value policy in
games of 2-4 players.

After the active player's last pick, every die not on a field is on the platter, and each
passive player uses the best of them (section 5). A policy that values only its own sheet
hands its opponents good dice for nothing. With ``W_GIFT`` > 0 in its row, the value
policy subtracts from each choice of its last roll (the third pick, the forfeit, a
re-roll) ``W_GIFT`` times the mean, over the opponents, of the gain of their best passive
pick from the platter that choice leaves: the best among the platter's dice (when none is
usable, among the dice on the fields, which a passive player may always decline; a gain
below 0 counts as 0 where the pick may be declined). An opponent's gain from a die is the
policy's own value of the opponent's sheet after its best use of the die less its value
without it, in the passive pick's turn state. (A re-roll is charged the platter its roll
would leave as it lies.)

Earlier picks weigh no gift: the dice they leave in play are rolled again, and charging
the expected best of them lost 3 points of win rate against the heuristic for under half a
point against the issue's solo network (That's Pretty Clever, 8,000 two-player games,
README).

The gains depend on the roll only, so ``opponent_gains`` reckons them once for each last
roll into the work buffer's ``GIFT`` region: its opponent count (0: no gift is weighed), whether the
pick may be declined, then float64[3, N_DICE] gains (-inf: no use on that opponent's
sheet).
"""

import numpy as np

from kernels.clever.moves import FIELD, MAX_MOVES, N_DICE, PLATTER, POOL, legal_moves
from kernels.clever.policies import (_LOOK_MOVES, _LOOK_SHEET, GIFT, TURN, W_GIFT, INNER,
                                     apply_move, sheet_value)
from kernels.clever_base.sheet import FLAG_PLUS_PER_ROUND, H_FLAGS, H_PLUS_TAKEN, SHEET_LEN
from kernels.clever.sheets import copy_sheet
from kernels.clever_base.turn import ALL_DICE, PH_PASSIVE_PLUS, TS_LEN, set_turn
from kernels.jit import njit

_COUNT, _DECLINE, _GAINS = 0, 1, 2
GIFT_LEN = _GAINS + 3 * N_DICE  # the work buffer's numbers from ``GIFT``
assert GIFT + GIFT_LEN == INNER  # the region ends the work buffer's own part (``policies``)
GIFT_SLOT = 1 << 21  # random slots of the opponents' trial bonus marks


@njit(cache=True, _nrt=False)
def no_gift(scratch):
    """Weigh no gift until the next ``opponent_gains``."""
    scratch[GIFT + _COUNT] = 0


@njit(cache=True)
def _gains(scratch):
    """The gains table (float64[3 * N_DICE]: opponent, die)."""
    return scratch[GIFT + _GAINS:GIFT + GIFT_LEN].view(np.float64)


@njit(cache=True, inline="always")
def opponent_gains(sheets, me, faces, where, pol, stream, scratch, may_decline):
    """Reckon, for each opponent of player ``me`` (``sheets`` int64[players, SHEET_LEN]),
    the value it gains by using each die of the roll (``faces``, ``where`` int64[N_DICE])
    as its passive pick (its best use, bonuses placed by ``pol``) into the work buffer's
    ``GIFT`` region, with ``may_decline`` (the passive pick may be declined). Nothing is
    weighed (count 0) in the solo game or with ``W_GIFT`` 0."""
    n = sheets.shape[0]
    scratch[GIFT + _COUNT] = 0
    if n <= 1 or pol[W_GIFT] == 0.0:
        return
    moves = scratch[_LOOK_MOVES:_LOOK_MOVES + 3 * MAX_MOVES].reshape((MAX_MOVES, 3))
    trial = scratch[_LOOK_SHEET:_LOOK_SHEET + SHEET_LEN]
    ts = scratch[TURN:TURN + TS_LEN]
    off_fields = np.int64(0)
    for d in range(N_DICE):
        if where[d] != FIELD:
            off_fields |= 1 << d
    gains = _gains(scratch)
    k = 0
    for p in range(n):
        if p == me:
            continue
        opp = sheets[p]
        taken = opp[H_PLUS_TAKEN] if opp[H_FLAGS] & FLAG_PLUS_PER_ROUND else 0
        set_turn(ts, np.int64(PH_PASSIVE_PLUS), np.int64(0), np.int64(0), off_fields, taken)
        base = sheet_value(opp, pol, scratch)
        row = gains[k * N_DICE:(k + 1) * N_DICE]
        row[:] = -np.inf
        for j in range(legal_moves(opp, faces, np.int64(ALL_DICE), moves, np.bool_(False))):
            copy_sheet(trial, opp)
            apply_move(trial, faces, moves[j, 0], moves[j, 1], moves[j, 2], pol, stream,
                       GIFT_SLOT + 64 * j, scratch)
            row[moves[j, 0]] = max(row[moves[j, 0]], sheet_value(trial, pol, scratch) - base)
        k += 1
    scratch[GIFT + _DECLINE] = may_decline
    scratch[GIFT + _COUNT] = k


@njit(cache=True)
def gift(scratch, pol, where):
    """``W_GIFT`` times the mean over the opponents of the gain of their best passive pick
    from the platter ``where`` (int64[N_DICE]) leaves once the picks are over (the dice in
    play go to the platter too), by the gains ``opponent_gains`` reckoned; 0 if none
    were."""
    k = scratch[GIFT + _COUNT]
    if k == 0:
        return 0.0
    platter, fields = np.int64(0), np.int64(0)
    for d in range(N_DICE):
        if where[d] == PLATTER or where[d] == POOL:
            platter |= 1 << d
        elif where[d] == FIELD:
            fields |= 1 << d
    gains = _gains(scratch)
    total = 0.0
    for o in range(k):
        row = gains[o * N_DICE:(o + 1) * N_DICE]
        best, floor = _best_of(row, platter), scratch[GIFT + _DECLINE] != 0
        if best == -np.inf:  # nothing on the platter usable: a field die, or nothing
            best, floor = _best_of(row, fields), True
        total += max(best, 0.0) if floor else best
    return pol[W_GIFT] * total / k


@njit(cache=True, _nrt=False)
def _best_of(row, dice):
    """The best gain in ``row`` over the dice of the bit mask ``dice`` (-inf: none)."""
    best = -np.inf
    for d in range(N_DICE):
        if (dice >> d) & 1:
            best = max(best, row[d])
    return best
