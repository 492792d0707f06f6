"""Exact two-player CloverUp games by backward induction (rules page, section *Game*).

``W[round, seat, diff, s]`` is the chance that the player about to move wins (a shared win
counts one half), where ``diff`` is their running total minus the opponent's (this round
included) and ``s`` is the opponent's score in this round if the opponent has already played
(the triple-six effect would wipe it). Each player either optimises (the game solver) or
follows a fixed table, so the same routine builds the ``win`` policy and measures it.
"""

import numpy as np

from kernels.cloverup.layout import INSTANT_WIN, MAX_POINTS, N_OUTCOMES, TRIPLE_SIX
from kernels.cloverup.play import situation_index
from kernels.cloverup.solve import evaluate_turn, optimize_turn
from kernels.jit import njit

OPTIMIZE = 0  # the player maximises their chance to win; the choices are recorded
FIXED = 1  # the player follows policies[table]
FIXED_SITUATIONAL = 2  # the player follows policies[table + situation_index(...)]


@njit(cache=True, _nrt=False)
def _final(diff):
    return 1.0 if diff > 0 else (0.5 if diff == 0 else 0.0)


@njit(cache=True, _nrt=False)
def _next_round(W, rnd, rounds, diff, max_diff):
    """Win chance of the first seat at the start of round ``rnd`` with ``diff``."""
    if rnd == rounds:
        return _final(diff)
    d = min(max(diff, -max_diff), max_diff) + max_diff
    return W[rnd, 0, d, 0]


@njit(cache=True)
def _turn_value(trans, stop_outcome, utility, mode, table, policies, record, sit):
    if mode == OPTIMIZE:
        _, _, policy, v0, _ = optimize_turn(trans, stop_outcome, utility)
        record[sit, :] = policy
        return v0
    row = table + sit if mode == FIXED_SITUATIONAL else table
    return evaluate_turn(trans, stop_outcome, policies[row], utility)[1]


@njit(cache=True)
def two_player_game(trans, stop_outcome, rounds, triple_six_effect, max_diff, modes, tables,
                    policies, record):
    """Backward induction over a two-player game.

    ``modes``, ``tables``: int64[2], how the first and second seat choose (``OPTIMIZE``,
    ``FIXED``, ``FIXED_SITUATIONAL``) and their first row in ``policies`` (int8[T, S], flat
    turn policies); ``record``: int8[rounds * 2 * (2 * max_diff + 1) * 19, S], filled with
    the optimising players' choices. Returns ``W`` float64[rounds, 2, 2 * max_diff + 1, 19];
    the first seat's chance to win the game is ``W[0, 0, max_diff, 0]``.
    """
    n_diff = 2 * max_diff + 1
    W = np.zeros((rounds, 2, n_diff, MAX_POINTS + 1), np.float64)
    u = np.zeros(N_OUTCOMES, np.float64)
    for rnd in range(rounds - 1, -1, -1):
        # second seat: the first seat has scored s this round and is `diff` behind the mover
        for diff in range(-MAX_POINTS * (rnd + 1), MAX_POINTS * rnd + 1):
            for s in range(MAX_POINTS + 1):
                for x in range(MAX_POINTS + 1):
                    u[x] = 1.0 - _next_round(W, rnd + 1, rounds, -(diff + x), max_diff)
                u[TRIPLE_SIX] = u[MAX_POINTS]
                if triple_six_effect:
                    u[TRIPLE_SIX] = 1.0 - _next_round(W, rnd + 1, rounds,
                                                      -(diff + MAX_POINTS + s), max_diff)
                u[INSTANT_WIN] = 1.0
                sit = situation_index(rnd, np.int64(1), diff, s, max_diff)
                W[rnd, 1, diff + max_diff, s] = _turn_value(
                    trans, stop_outcome, u, modes[1], tables[1], policies, record, sit)
        # first seat
        for diff in range(-MAX_POINTS * rnd, MAX_POINTS * rnd + 1):
            for x in range(MAX_POINTS + 1):
                u[x] = 1.0 - W[rnd, 1, -(diff + x) + max_diff, x]
            if triple_six_effect:
                u[TRIPLE_SIX] = _next_round(W, rnd + 1, rounds, diff + MAX_POINTS, max_diff)
            else:
                u[TRIPLE_SIX] = u[MAX_POINTS]
            u[INSTANT_WIN] = 1.0
            sit = situation_index(rnd, np.int64(0), diff, np.int64(0), max_diff)
            W[rnd, 0, diff + max_diff, 0] = _turn_value(
                trans, stop_outcome, u, modes[0], tables[0], policies, record, sit)
    return W
