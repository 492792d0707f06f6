"""The turn state of a Clever afterstate: where a player stands in the round when a
decision has just been made and before the next chance event (int64[TS_LEN]).

An afterstate is a sheet plus this turn state; the value policy values every candidate of
a decision by the afterstate it leaves (``kernels.clever.valued``):

* ``TS_PHASE``: ``PH_ROLL`` (the active turn, before a roll: dice in ``TS_POOL`` will be
  rolled, returns may come first), ``PH_ACTIVE_PLUS`` (the active turn's picks are over:
  the +1 window), ``PH_PASSIVE`` (before a passive pick), ``PH_PASSIVE_PLUS`` (the +1
  window after it), ``PH_ROUND_END`` (the round's last decision is made) and ``PH_OVER``
  (the game is over: the value is the final score);
* ``TS_PICKS``: active picks made this turn (0-3);
* ``TS_POOL``, ``TS_PLATTER``: bit masks of the dice in the pool and on the platter;
* ``TS_TAKEN``: bit mask of the dice +1 has taken (this turn; Twice As Clever: round).
"""

from kernels.jit import njit

TS_PHASE, TS_PICKS, TS_POOL, TS_PLATTER, TS_TAKEN = range(5)
TS_LEN = 5
PH_ROLL, PH_ACTIVE_PLUS, PH_PASSIVE, PH_PASSIVE_PLUS, PH_ROUND_END, PH_OVER = range(6)
N_PHASES = 5  # the phases a value network sees (PH_OVER is valued exactly)
ALL_DICE = 63


@njit(cache=True, _nrt=False)
def set_turn(ts, phase, picks, pool, platter, taken):
    """Fill the turn state ``ts`` (int64[TS_LEN])."""
    ts[TS_PHASE] = phase
    ts[TS_PICKS] = picks
    ts[TS_POOL] = pool
    ts[TS_PLATTER] = platter
    ts[TS_TAKEN] = taken
