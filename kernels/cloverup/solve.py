"""Exact dynamic programming over the positions of one CloverUp turn.

A position is ``(multiset, rerolls_left, double_six)`` flattened to
``(multiset * (max_rerolls + 1) + rerolls_left) * 2 + double_six`` (see ``layout``).
``build_transitions`` lists, for every position, its distinct reroll choices and for each
choice every roll result with its probability; a result is either another position
(index >= 0) or a final outcome ``o`` (stored as ``-1 - o``). A reroll always lowers
``rerolls_left + clover_bonus * (3 - clovers) + double_six_bonus * (1 - double_six)`` by
one, so positions sorted by that potential can be solved in one pass (``order``).
"""

import numpy as np

from kernels.cloverup.layout import (CLOVER, INSTANT_WIN, MULTISET_DICE, MULTISET_INDEX, N_FACES,
                                     N_MULTISETS, N_OUTCOMES, RULE_BASE_REROLLS, RULE_CLOVER_BONUS,
                                     RULE_DOUBLE_SIX_BONUS, RULE_MAX_REROLLS)
from kernels.cloverup.rules import after_roll, rerollable_positions, sort3
from kernels.jit import njit

_TIE = 1e-12


@njit(cache=True, _nrt=False, inline="always")
def position_index(multiset, rerolls, double_six, max_rerolls):
    """Flat index of a position (all ints)."""
    return (multiset * (max_rerolls + 1) + rerolls) * 2 + double_six


@njit(cache=True)
def _roll_results(probs, k):
    """All sorted results of rolling ``k`` dice (0..3) with face probabilities ``probs``.

    Returns ``faces: int64[n, 3]`` (first ``k`` columns used) and ``prob: float64[n]``.
    """
    n = 1
    for i in range(k):
        n = n * (N_FACES + i) // (i + 1)
    faces = np.zeros((n, 3), np.int64)
    prob = np.zeros(n, np.float64)
    j = 0
    for a in range(1, N_FACES + 1):
        for b in range(a, N_FACES + 1):
            for c in range(b, N_FACES + 1):
                d = (a, b, c)
                # a sorted k-tuple is the head of the sorted triple padded with clovers
                ok = True
                for t in range(k, 3):
                    if d[t] != N_FACES:
                        ok = False
                if not ok:
                    continue
                p = 1.0
                ways = 1.0
                run = 0
                for t in range(k):
                    p *= probs[d[t] - 1]
                    run = run + 1 if t > 0 and d[t] == d[t - 1] else 1
                    ways = ways * (t + 1) / run
                    faces[j, t] = d[t]
                prob[j] = p * ways
                j += 1
    return faces, prob


@njit(cache=True, _nrt=False, inline="always")
def canonical_mask(mask, dice, double_six):
    """The choice a reroll mask makes on sorted ``dice`` (int64[3]): positions that may not
    be rerolled are dropped, and among equal faces the lower positions are rerolled first."""
    mask &= rerollable_positions(dice[0], dice[1], dice[2], double_six)
    out = 0
    i = 0
    while i < 3:
        j = i
        while j < 2 and dice[j + 1] == dice[i]:
            j += 1
        count = 0
        for t in range(i, j + 1):
            count += (mask >> t) & 1
        for t in range(i, i + count):
            out |= 1 << t
        i = j + 1
    return out


@njit(cache=True)
def _append_roll(kept, n_kept, rerolls, double_six, rules, tables, results, nxt, prb, e):
    """Append every result of rolling ``3 - n_kept`` dice beside ``kept`` to ``nxt/prb``."""
    roll_end, ds_start, stop_outcome = tables
    faces, prob = results[3 - n_kept]
    for j in range(prob.shape[0]):
        d = np.empty(3, np.int64)
        new_clovers = np.int64(0)
        for t in range(3):
            if t < n_kept:
                d[t] = kept[t]
            else:
                d[t] = faces[j, t - n_kept]
                new_clovers += d[t] == CLOVER
        a, b, c = sort3(d[0], d[1], d[2])
        m = np.int64(MULTISET_INDEX[a - 1, b - 1, c - 1])  # int16 in the table
        outcome, r, ds = after_roll(m, rerolls, double_six, new_clovers, rules, roll_end,
                                    ds_start, stop_outcome)
        nxt[e] = -1 - outcome if outcome >= 0 else position_index(m, r, ds,
                                                                   rules[RULE_MAX_REROLLS])
        prb[e] = prob[j]
        e += 1
    return e


@njit(cache=True)
def build_transitions(probs, rules, roll_end, ds_start, stop_outcome):
    """Every position's reroll choices and their results.

    Parameters: ``probs`` float64[7] face probabilities; ``rules`` int64[N_RULES];
    ``roll_end``, ``ds_start``, ``stop_outcome`` int64[84] from ``rules.turn_tables``.

    Returns ``(act_ptr int64[S+1], act_mask int64[A], res_ptr int64[A+1], res_next int64[E],
    res_prob float64[E], order int64[S'], start_next int64[84], start_prob float64[84])``:
    choices of position s are ``act_ptr[s]:act_ptr[s+1]``; results of choice a are
    ``res_ptr[a]:res_ptr[a+1]``; ``order`` lists the live positions in solving order;
    ``start_*`` are the results of the turn's first roll.
    """
    rmax = rules[RULE_MAX_REROLLS]
    n_pos = N_MULTISETS * (rmax + 1) * 2
    results = (_roll_results(probs, np.int64(0)), _roll_results(probs, np.int64(1)),
               _roll_results(probs, np.int64(2)), _roll_results(probs, np.int64(3)))
    tables = (roll_end, ds_start, stop_outcome)
    cap = n_pos * 7 * 84
    act_ptr = np.zeros(n_pos + 1, np.int64)
    act_mask = np.zeros(n_pos * 7, np.int64)
    res_ptr = np.zeros(n_pos * 7 + 1, np.int64)
    res_next = np.zeros(cap, np.int64)
    res_prob = np.zeros(cap, np.float64)
    potential = np.full(n_pos, -1, np.int64)
    kept = np.empty(3, np.int64)
    a = 0
    e = np.int64(0)
    for m in range(N_MULTISETS):
        dice = MULTISET_DICE[m]
        clovers = (dice[0] == CLOVER) + (dice[1] == CLOVER) + (dice[2] == CLOVER)
        for r in range(rmax + 1):
            for ds in range(2):
                s = position_index(m, r, ds, rmax)
                act_ptr[s] = a
                live = r >= 1 and roll_end[m] < 0 and ds_start[m] == ds
                if not live:
                    continue
                potential[s] = (r + rules[RULE_CLOVER_BONUS] * (3 - clovers)
                                + rules[RULE_DOUBLE_SIX_BONUS] * (1 - ds))
                for mask in range(1, 8):
                    if canonical_mask(mask, dice, ds) != mask:
                        continue  # forbidden, or the same choice as a canonical mask
                    n_kept = np.int64(0)
                    for t in range(3):
                        if not (mask >> t) & 1:
                            kept[n_kept] = dice[t]
                            n_kept += 1
                    act_mask[a] = mask
                    res_ptr[a] = e
                    e = _append_roll(kept, n_kept, r - 1, ds, rules, tables, results,
                                     res_next, res_prob, e)
                    a += 1
                    res_ptr[a] = e
    act_ptr[n_pos] = a
    order = np.argsort(potential, kind="mergesort")
    order = order[potential[order] >= 0]
    start_next = np.zeros(84, np.int64)
    start_prob = np.zeros(84, np.float64)
    n_start = _append_roll(kept, np.int64(0), rules[RULE_BASE_REROLLS], np.int64(0), rules,
                           tables, results,
                           start_next, start_prob, np.int64(0))
    return (act_ptr, act_mask[:a].copy(), res_ptr[:a + 1].copy(), res_next[:e].copy(),
            res_prob[:e].copy(), order, start_next[:n_start], start_prob[:n_start])


@njit(cache=True, _nrt=False)
def _expect(lo, hi, res_next, res_prob, value, utility):
    total = 0.0
    for i in range(lo, hi):
        n = res_next[i]
        total += res_prob[i] * (value[n] if n >= 0 else utility[-1 - n])
    return total


@njit(cache=True)
def optimize_turn(trans, stop_outcome, utility):
    """Best choice in every position for the terminal ``utility`` (float64[N_OUTCOMES]).

    Ties (within 1e-12, relative) go to the choice with the higher instant-win chance.
    Returns ``(value float64[S], p_instant_win float64[S], policy int8[S], start_value,
    start_p_instant_win)``; ``policy`` is the reroll mask, 0 = stop.
    """
    act_ptr, act_mask, res_ptr, res_next, res_prob, order, start_next, start_prob = trans
    n_pos = act_ptr.shape[0] - 1
    value = np.zeros(n_pos, np.float64)
    p_win = np.zeros(n_pos, np.float64)
    policy = np.zeros(n_pos, np.int8)
    iw = np.zeros(N_OUTCOMES, np.float64)
    iw[INSTANT_WIN] = 1.0
    for s in order:
        m = s // ((n_pos // N_MULTISETS))
        best = utility[stop_outcome[m]]
        best_iw = iw[stop_outcome[m]]
        best_mask = 0
        for a in range(act_ptr[s], act_ptr[s + 1]):
            v = _expect(res_ptr[a], res_ptr[a + 1], res_next, res_prob, value, utility)
            w = _expect(res_ptr[a], res_ptr[a + 1], res_next, res_prob, p_win, iw)
            tol = _TIE * max(1.0, abs(best))
            if v > best + tol or (v >= best - tol and w > best_iw + _TIE):
                best, best_iw, best_mask = v, w, act_mask[a]
        value[s] = best
        p_win[s] = best_iw
        policy[s] = best_mask
    n = start_next.shape[0]
    v0 = _expect(np.int64(0), n, start_next, start_prob, value, utility)
    w0 = _expect(np.int64(0), n, start_next, start_prob, p_win, iw)
    return value, p_win, policy, v0, w0


@njit(cache=True)
def evaluate_turn(trans, stop_outcome, policy, utility):
    """Expected ``utility`` of following ``policy`` (int8[S] reroll masks) from every position.

    Returns ``(value float64[S], start_value)``. Masks are read through ``canonical_mask``,
    as the play loops would play them; a mask with nothing left to reroll means stop.
    """
    act_ptr, act_mask, res_ptr, res_next, res_prob, order, start_next, start_prob = trans
    n_pos = act_ptr.shape[0] - 1
    per_multiset = n_pos // N_MULTISETS
    value = np.zeros(n_pos, np.float64)
    for s in order:
        m = s // per_multiset
        chosen = canonical_mask(policy[s], MULTISET_DICE[m], s % 2)
        v = utility[stop_outcome[m]]
        for a in range(act_ptr[s], act_ptr[s + 1]):
            if act_mask[a] == chosen:
                v = _expect(res_ptr[a], res_ptr[a + 1], res_next, res_prob, value, utility)
        value[s] = v
    return value, _expect(np.int64(0), start_next.shape[0], start_next, start_prob, value, utility)


@njit(cache=True)
def outcome_distribution(trans, stop_outcome, policy):
    """Exact probability of each turn outcome (float64[N_OUTCOMES]) under ``policy``."""
    dist = np.zeros(N_OUTCOMES, np.float64)
    unit = np.zeros(N_OUTCOMES, np.float64)
    for o in range(N_OUTCOMES):
        unit[o] = 1.0
        dist[o] = evaluate_turn(trans, stop_outcome, policy, unit)[1]
        unit[o] = 0.0
    return dist


@njit(cache=True)
def outcome_distributions(trans, stop_outcome, policies):
    """``outcome_distribution`` of each of the reroll-mask tables ``policies`` (int8[T,
    S]): float64[T, N_OUTCOMES]."""
    out = np.empty((policies.shape[0], N_OUTCOMES), np.float64)
    for t in range(policies.shape[0]):
        out[t] = outcome_distribution(trans, stop_outcome, policies[t])
    return out


@njit(cache=True)
def outcome_decisions(trans, stop_outcome, policy, n_counts):
    """Exact joint probability of each turn outcome and of the keep/reroll decisions made
    on the way (the times ``policy``, int8[S] reroll masks read through ``canonical_mask``,
    is asked: every roll that leaves the turn open, the last one answered by stopping or
    by a reroll whose result ends it): float64[N_OUTCOMES, n_counts], column k for k
    decisions (``n_counts`` > the most a turn can take, or the excess is lost). Forward
    over the positions, the latest first: a reroll lowers ``order``'s potential by one."""
    act_ptr, act_mask, res_ptr, res_next, res_prob, order, start_next, start_prob = trans
    n_pos = act_ptr.shape[0] - 1
    per_multiset = n_pos // N_MULTISETS
    mass = np.zeros((n_pos, n_counts), np.float64)  # reaching a position after k decisions
    joint = np.zeros((N_OUTCOMES, n_counts), np.float64)
    for e in range(start_next.shape[0]):
        _flow(start_next[e], start_prob[e], np.int64(0), mass, joint)
    for i in range(order.shape[0] - 1, -1, -1):
        s = order[i]
        m = s // per_multiset
        chosen = canonical_mask(policy[s], MULTISET_DICE[m], s % 2)
        hit = -1
        for a in range(act_ptr[s], act_ptr[s + 1]):
            if act_mask[a] == chosen:
                hit = a
        for k in range(n_counts - 1):
            p = mass[s, k]
            if p == 0.0:
                continue
            if hit < 0:
                joint[stop_outcome[m], k + 1] += p
                continue
            for e in range(res_ptr[hit], res_ptr[hit + 1]):
                _flow(res_next[e], p * res_prob[e], np.int64(k + 1), mass, joint)
    return joint


@njit(cache=True, _nrt=False)
def _flow(nxt, p, k, mass, joint):
    """Add probability ``p`` after ``k`` decisions to the result ``nxt`` of a roll: a
    position (``mass``) or an outcome (``joint``, stored as ``-1 - outcome``)."""
    if nxt >= 0:
        mass[nxt, k] += p
    else:
        joint[-1 - nxt, k] += p
