"""Where a Clever player stands in a game of 1-4 players, for the value network's seat
block: the turns still to come for this player and the score against the best opponent.

A round is a sequence of turns: in a game of ``n`` >= 2 players, the active turn of seat
0, 1, ..., n - 1 (a player's own seat is its active turn, every other one a passive pick
from that player's platter); in the solo game, the active turn then the passive turn. The
play loops keep the sheet's header up to date (``kernels.clever_base.sheet``: ``H_PLAYERS``,
``H_SEAT``, ``H_EVENT`` the turn under way, ``H_LEAD`` the lead over the best opponent
when it began), so an afterstate's sheet says where its player stands.

The seat block (``N_SEAT`` inputs, after an encoding's bonus block; all 0 in the solo
game, the game the base network learnt, so that what the block learns never moves solo
play): the player count (one-hot 4; the first is never set), this player's active turns
and passive picks still to come after the turn under way (/ 6 and / 12), whether the next
of them is an active turn or a passive pick (one-hot 2; neither once the game has no
more), and the lead over the best opponent when the turn under way began (positive and
negative parts / 100, capped at 1, and one bit each for ahead and behind). Every input is
the same for all the choices of a turn: a lead that counted a choice's own points would
reward or punish scoring now through the network's other inputs' account of points to
come (a trial that read the afterstate's total lost 35 points in two-player games within
20,000 training games).
"""

import numpy as np

from kernels.clever_base.sheet import H_EVENT, H_LEAD, H_PLAYERS, H_ROUND, H_ROUNDS, H_SEAT
from kernels.clever_base.sparse import put
from kernels.jit import njit

SEAT_PLAYERS = 0  # + players - 1
SEAT_ACTIVE_LEFT = 4
SEAT_PASSIVE_LEFT = 5
SEAT_NEXT_ACTIVE = 6
SEAT_NEXT_PASSIVE = 7
SEAT_LEAD = 8
SEAT_DEFICIT = 9
SEAT_AHEAD = 10
SEAT_BEHIND = 11
N_SEAT = 12
NEXT_NONE, NEXT_ACTIVE, NEXT_PASSIVE = 0, 1, 2


@njit(cache=True, _nrt=False)
def _is_active(players, seat, turn):
    """Is turn ``turn`` of a round this player's active turn?"""
    return turn == 0 if players <= 1 else turn == seat


@njit(cache=True, _nrt=False)
def turns_ahead(players, seat, event, rnd, rounds):
    """``(active turns, passive picks, next)`` still to come for the player in ``seat``
    after turn ``event`` of round ``rnd`` (0-based, of ``rounds``; ``event`` -1: before
    the round's first turn); ``next`` is ``NEXT_ACTIVE``, ``NEXT_PASSIVE`` or
    ``NEXT_NONE``."""
    per_round = 2 if players <= 1 else players
    active, passive, nxt = 0, 0, NEXT_NONE
    for turn in range(event + 1, per_round):
        mine = _is_active(players, seat, turn)
        active += mine
        passive += not mine
        if nxt == NEXT_NONE:
            nxt = NEXT_ACTIVE if mine else NEXT_PASSIVE
    later = max(rounds - rnd - 1, 0)
    active += later
    passive += later * (per_round - 1)
    if nxt == NEXT_NONE and later > 0:
        nxt = NEXT_ACTIVE if _is_active(players, seat, np.int64(0)) else NEXT_PASSIVE
    return active, passive, nxt


@njit(cache=True, _nrt=False)
def seat_block(idx, val, n, first, sheet):
    """The seat block from input ``first`` for the afterstate ``sheet`` (int64[SHEET_LEN]);
    the new count of nonzero inputs."""
    players = sheet[H_PLAYERS]
    if players <= 1:
        return n  # solo: no seat input, the game the base network learnt
    n = put(idx, val, n, first + SEAT_PLAYERS + min(players, 4) - 1, 1.0)
    active, passive, nxt = turns_ahead(players, sheet[H_SEAT], sheet[H_EVENT],
                                       sheet[H_ROUND], sheet[H_ROUNDS])
    n = put(idx, val, n, first + SEAT_ACTIVE_LEFT, np.float32(active / 6.0))
    n = put(idx, val, n, first + SEAT_PASSIVE_LEFT, np.float32(passive / 12.0))
    if nxt != NEXT_NONE:
        n = put(idx, val, n, first + (SEAT_NEXT_ACTIVE if nxt == NEXT_ACTIVE
                                      else SEAT_NEXT_PASSIVE), 1.0)
    lead = sheet[H_LEAD]
    n = put(idx, val, n, first + SEAT_LEAD, np.float32(min(max(lead, 0) / 100.0, 1.0)))
    n = put(idx, val, n, first + SEAT_DEFICIT, np.float32(min(max(-lead, 0) / 100.0, 1.0)))
    n = put(idx, val, n, first + SEAT_AHEAD, 1.0 if lead > 0 else 0.0)
    n = put(idx, val, n, first + SEAT_BEHIND, 1.0 if lead < 0 else 0.0)
    return n


@njit(cache=True, _nrt=False)
def seat_sheets(sheets):
    """Seat the players of a game (``sheets`` int64[n, SHEET_LEN]): player count and seat."""
    n = sheets.shape[0]
    for p in range(n):
        sheets[p, H_PLAYERS] = n
        sheets[p, H_SEAT] = p
