"""The yardstick for CloverUp's whole-game speed (``scripts/bench.py``): a plain,
allocation-free numba loop that plays two-player CloverUp games of the same rules and
policy table as ``kernels.cloverup.play``, written the plain way, in one function: dice
from an inline xorshift64* generator and a linear search over the cumulative face
weights, each roll's rules inline (clover bonus rerolls, the rolls that end a turn, the
double-six rule), the optimal policy's reroll masks, the turn's points added to the
player's total. No counter-based streams, guide tables or rule helpers, and no
triple-six effect; its games are not the engine's games, only the same work.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from kernels.cloverup.layout import (CLOVER, INSTANT_WIN, RULE_BASE_REROLLS, RULE_CLOVER_BONUS,
                                     RULE_DOUBLE_SIX_BONUS, SORTED_TO_PHYSICAL, TRIPLE_MULTISET,
                                     TRIPLE_SIX)
from kernels.cloverup.rules import REROLLABLE



@njit(cache=True)
def _plain_roll(state, cumulative):
    """One xorshift64* step and the face (1-7) it draws: ``(new state, face)``."""
    state ^= state >> np.uint64(12)
    state ^= state << np.uint64(25)
    state ^= state >> np.uint64(27)
    u = float((state * np.uint64(2685821657736338717)) >> np.uint64(11)) / 9007199254740992.0
    face = 0
    while cumulative[face] <= u:
        face += 1
    return state, face + 1


@njit(cache=True)
def _plain_games(games, rounds, seed, cumulative, policy, rules, roll_end, ds_start,
                 stop_outcome):
    """Play ``games`` two-player games; returns a checksum of the totals."""
    state = np.uint64(seed) | np.uint64(1)
    checksum = 0
    for _ in range(games):
        total0, total1 = 0, 0
        for _r in range(rounds):
            ended = False
            for seat in range(2):
                state, d0 = _plain_roll(state, cumulative)
                state, d1 = _plain_roll(state, cumulative)
                state, d2 = _plain_roll(state, cumulative)
                new = (d0 == CLOVER) + (d1 == CLOVER) + (d2 == CLOVER)
                rerolls, double_six = rules[RULE_BASE_REROLLS], 0
                while True:
                    code = 49 * (d0 - 1) + 7 * (d1 - 1) + (d2 - 1)
                    m = TRIPLE_MULTISET[code]
                    rerolls += rules[RULE_CLOVER_BONUS] * new
                    if roll_end[m] >= 0:
                        outcome = roll_end[m]
                        break
                    if double_six == 0 and ds_start[m] == 1:
                        double_six = 1
                        rerolls += rules[RULE_DOUBLE_SIX_BONUS]
                    mask = policy[m, rerolls, double_six] & REROLLABLE[m, double_six] \
                        if rerolls > 0 else 0
                    if mask == 0:
                        outcome = stop_outcome[m]
                        break
                    mask = SORTED_TO_PHYSICAL[code, mask]
                    rerolls -= 1
                    new = 0
                    if mask & 1:
                        state, d0 = _plain_roll(state, cumulative)
                        new += d0 == CLOVER
                    if mask & 2:
                        state, d1 = _plain_roll(state, cumulative)
                        new += d1 == CLOVER
                    if mask & 4:
                        state, d2 = _plain_roll(state, cumulative)
                        new += d2 == CLOVER
                if outcome == INSTANT_WIN:
                    ended = True
                    break
                points = 18 if outcome == TRIPLE_SIX else outcome
                if seat == 0:
                    total0 += points
                else:
                    total1 += points
            if ended:
                break
        checksum += total0 - total1
    return checksum


def yardstick_turns_per_s(values: dict, games: int) -> float:
    """Turns a second of the yardstick on one thread (the best of three runs), under the
    rules ``values`` and the optimal (expected-score) policy: games x rounds x 2 turns
    (as for the engine's games: a game an instant win ends counts whole)."""
    from analyzer.games.cloverup.model import get_model, parse_policy

    model = get_model(values)
    cumulative = np.array(model.die[:7], np.float64)  # the faces' cumulative chances
    cumulative[-1] = 2.0  # u < 1 always stops at the last face
    policy = model.turn_policy(parse_policy("optimal")).reshape(model.table_shape)
    args = (values["rounds"], 12345, cumulative, policy, model.rules, model.roll_end,
            model.ds_start, model.stop_outcome)
    _plain_games(16, *args)  # compile / load the cache
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        _plain_games(games, *args)
        best = min(best, time.perf_counter() - start)
    return games * values["rounds"] * 2 / best
