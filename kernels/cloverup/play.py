"""CloverUp play loops: one turn, one whole game, the per-block accumulators, and the
parallel loops over blocks that the shared driver (:mod:`analyzer.run.driver`) calls. Only this
module draws dice.

Policies are int8 tables ``policy[multiset, rerolls_left, double_six]`` holding a reroll
mask over the sorted dice (0 = stop). A turn (``play_turn``) rolls the dice under one. A
game's turns are drawn from each table's exact outcome distribution instead (one draw a
turn: ``play_game``), stored once per distinct table: a policy's table number is looked up
in ``table_of`` (int32[T]: the row of ``outcome_dice`` that holds its table's). A seat's
policy is a row of ``seat_policy`` (int64[2]): ``(first_table, situational)``. A static
policy always uses ``first_table``; a situational one (the two-player game solver's) uses
``first_table + situation(...)``, see :func:`situation_index`. The solver's 41,230 tables
hold 893 distinct ones.
"""

import numpy as np
from numba import prange

from kernels.accumulate import CONTEST_LEN, add_contest, add_products, put_seat_wins, seat_lineup
from kernels.cloverup.layout import (CLOVER, INSTANT_WIN, MAX_POINTS, N_FACES, N_OUTCOMES,
                                     RULE_BASE_REROLLS, SORTED_TO_PHYSICAL, TRIPLE_MULTISET,
                                     TRIPLE_SIX)
from kernels.cloverup.rules import REROLLABLE, after_roll
from kernels.jit import njit
from kernels.rng import draw, roll, turn_stream, uniform

WIN_UNITS = 60  # a game's win is split in 60ths so that ties of up to 6 players stay integers

# columns of the game accumulator, then the score histogram
COL_GAMES = 0
COL_SCORE_SUM = 1
COL_SCORE_SQ = 2
COL_WIN_UNITS = 3
COL_INSTANT_WINS = 4
COL_TRIPLE_SIXES = 5
COL_TRIPLE_SIXES_SQ = 6
COL_CONTEST = 7  # ``accumulate.add_contest``: margins, ties and keep/reroll decisions
COL_HIST = COL_CONTEST + CONTEST_LEN


@njit(cache=True, _nrt=False)
def situation_index(rnd, seat, diff, opp_round_score, max_diff):
    """Index of a two-player game situation (all ints): round (0-based), seat in turn order,
    own running total minus the opponent's (clipped to +-max_diff), the opponent's score
    this round if they already played (else 0)."""
    d = min(max(diff, -max_diff), max_diff) + max_diff
    return ((rnd * 2 + seat) * (2 * max_diff + 1) + d) * (MAX_POINTS + 1) + opp_round_score


@njit(cache=True, _nrt=False)
def play_turn(stream, policy, die, rules, roll_end, ds_start, stop_outcome):
    """Play one turn; returns its outcome code (``layout``).

    ``stream``: uint64 turn stream; ``policy``: int8[84, R+1, 2]; ``die``:
    float64[7 + GUIDE_SIZE] from ``kernels.rng.make_die``; ``rules``: int64[N_RULES];
    ``roll_end``, ``ds_start``, ``stop_outcome``: int64[84]. Reroll bits on clovers (or, in
    the double-six state, on the sixes) are ignored. The dice stay where they lie; lookups
    translate between them and the sorted positions that policies speak of.
    """
    d0 = roll(die, np.int64(N_FACES), stream, np.int64(0)) + 1
    d1 = roll(die, np.int64(N_FACES), stream, np.int64(1)) + 1
    d2 = roll(die, np.int64(N_FACES), stream, np.int64(2)) + 1
    new_clovers = (d0 == CLOVER) + (d1 == CLOVER) + (d2 == CLOVER)
    rerolls = rules[RULE_BASE_REROLLS]
    double_six = np.int64(0)
    slot = np.int64(0)
    while True:
        code = 49 * (d0 - 1) + 7 * (d1 - 1) + (d2 - 1)
        m = TRIPLE_MULTISET[code]
        outcome, rerolls, double_six = after_roll(m, rerolls, double_six, new_clovers, rules,
                                                  roll_end, ds_start, stop_outcome)
        if outcome >= 0:
            return outcome
        mask = policy[m, rerolls, double_six] & REROLLABLE[m, double_six]
        if mask == 0:
            return stop_outcome[m]
        mask = SORTED_TO_PHYSICAL[code, mask]
        rerolls -= 1
        slot += 4
        # roll all three and keep the new faces only where the mask says (no branches)
        n0 = roll(die, np.int64(N_FACES), stream, slot) + 1
        n1 = roll(die, np.int64(N_FACES), stream, slot + 1) + 1
        n2 = roll(die, np.int64(N_FACES), stream, slot + 2) + 1
        r0, r1, r2 = mask & 1, (mask >> 1) & 1, (mask >> 2) & 1
        d0 = n0 * r0 + d0 * (1 - r0)
        d1 = n1 * r1 + d1 * (1 - r1)
        d2 = n2 * r2 + d2 * (1 - r2)
        new_clovers = (r0 & (n0 == CLOVER)) + (r1 & (n1 == CLOVER)) + (r2 & (n2 == CLOVER))


@njit(cache=True, _nrt=False)
def turns_block(key, n_turns, out, policy, die, rules, roll_end, ds_start, stop_outcome):
    """Play ``n_turns`` independent turns of block ``key``; add the outcome counts to
    ``out`` (int64[N_OUTCOMES])."""
    for t in range(n_turns):
        o = play_turn(turn_stream(key, t, np.int64(0)), policy, die, rules, roll_end, ds_start,
                      stop_outcome)
        out[o] += 1


@njit(cache=True, _nrt=False)
def _turn_points(outcome, instant_win_points):
    if outcome == TRIPLE_SIX:
        return 18
    if outcome == INSTANT_WIN:
        return instant_win_points
    return outcome


@njit(cache=True, _nrt=False)
def turn_decisions(die, decision_cdf, outcome, u):
    """The keep/reroll decisions of a turn whose outcome ``outcome`` was drawn by the
    uniform ``u`` from the weighted ``die`` (float64[N_OUTCOMES + GUIDE_SIZE]): drawn from
    their exact distribution given the outcome (``decision_cdf``: float64[N_OUTCOMES, K],
    each row a cdf over 0..K-1 decisions) by where ``u`` lies within the outcome's share
    of the unit interval, itself uniform given the outcome (no further random number)."""
    low = die[outcome - 1] if outcome > 0 else 0.0
    v = (u - low) / (die[outcome] - low)
    k = np.int64(0)
    while k < decision_cdf.shape[1] - 1 and v >= decision_cdf[outcome, k]:
        k += 1
    return k


@njit(cache=True, _nrt=False)
def play_game(key, game, lineup, rounds, triple_six_effect, outcome_dice, table_of, max_diff,
              totals, round_scores, triple_sixes, decision_cdf, decisions):
    """Play one game; fills ``totals``, ``triple_sixes`` and ``decisions`` (int64[n_players]
    each: final scores, triple sixes rolled and keep/reroll decisions made per seat) and
    returns the seat that won instantly, or -1.

    A turn is its outcome, drawn from the exact outcome distribution of the seat's policy
    table (``outcome_dice``: float64[D, N_OUTCOMES + GUIDE_SIZE], one ``make_die`` row a
    distinct table; row ``table_of[table]``): the game's rules act on outcomes alone, and a
    table's outcome distribution is exact (``kernels.cloverup.solve``), so one draw a turn
    plays the turn that the dice would (``play_turn``, checked against the same
    distributions). ``lineup``: int64[n_players, 2] seat policies in turn order;
    ``round_scores``: int64[n_players] scratch; ``decision_cdf``: float64[D, N_OUTCOMES, K],
    row ``table_of[table]`` the decisions' cdf given each outcome (``turn_decisions``; K 0:
    decisions are not drawn and stay 0). The outcomes drawn do not depend on it.
    """
    n = lineup.shape[0]
    totals[:] = 0
    triple_sixes[:] = 0
    decisions[:] = 0
    for rnd in range(rounds):
        round_scores[:] = 0
        for seat in range(n):
            table = lineup[seat, 0]
            if lineup[seat, 1]:
                opp = 1 - seat
                diff = totals[seat] - totals[opp] - round_scores[opp]
                table += situation_index(rnd, seat, diff, round_scores[opp], max_diff)
            row = table_of[table]
            u = uniform(turn_stream(key, game, rnd * n + seat), np.int64(0))
            o = draw(outcome_dice[row], np.int64(N_OUTCOMES), u)  # as ``roll`` slot 0 draws
            if decision_cdf.shape[2] > 0:
                decisions[seat] += turn_decisions(outcome_dice[row], decision_cdf[row], o, u)
            if o == INSTANT_WIN:
                for j in range(n):
                    totals[j] += round_scores[j]
                return seat
            round_scores[seat] = _turn_points(o, np.int64(0))
            if o == TRIPLE_SIX:
                triple_sixes[seat] += 1
                if triple_six_effect:
                    for j in range(seat):
                        round_scores[j] = 0
                    break
        for j in range(n):
            totals[j] += round_scores[j]
    return -1


@njit(cache=True)
def award_wins(totals, instant_winner, wins):
    """Split ``WIN_UNITS`` among the winners into ``wins`` (int64[n]); returns nothing."""
    wins[:] = 0
    if instant_winner >= 0:
        wins[instant_winner] = WIN_UNITS
        return
    best = totals.max()
    tied = 0
    for j in range(totals.shape[0]):
        tied += totals[j] == best
    for j in range(totals.shape[0]):
        if totals[j] == best:
            wins[j] = WIN_UNITS // tied


@njit(cache=True, nogil=True)
def games_block(key, first, end, out, lineup, rotate, rounds, triple_six_effect, outcome_dice,
                table_of, max_diff, decision_cdf):
    """Play games ``first`` to ``end - 1`` of block ``key`` and accumulate into ``out``
    (int64[n_players slots, n_players seats, COL_HIST + max_total + 1]). Without the GIL:
    blocks, or pieces of them, run side by side on threads (``analyzer.run.block_loop``; a
    numba parallel loop around it would compile the game again).

    ``lineup``: int64[n_players, 2], the policies of the lineup slots; with ``rotate`` the
    slots move one seat on every game so each policy sits in every seat equally often.
    ``decision_cdf``: float64[D, N_OUTCOMES, K] as ``play_game`` reads it.
    """
    n = lineup.shape[0]
    seated = np.empty_like(lineup)
    slot_of = np.empty(n, np.int64)
    totals = np.empty(n, np.int64)
    scratch = np.empty(n, np.int64)
    wins = np.empty(n, np.int64)
    t6 = np.empty(n, np.int64)
    decisions = np.empty(n, np.int64)
    for g in range(first, end):
        seat_lineup(lineup, g, first, rotate, seated, slot_of)
        winner = play_game(key, g, seated, rounds, triple_six_effect, outcome_dice, table_of,
                           max_diff, totals, scratch, t6, decision_cdf, decisions)
        award_wins(totals, winner, wins)
        add_contest(out, slot_of, totals, decisions, np.int64(COL_CONTEST), winner)
        for seat in range(n):
            row = out[slot_of[seat], seat]
            s = totals[seat]
            row[COL_GAMES] += 1
            row[COL_SCORE_SUM] += s
            row[COL_SCORE_SQ] += s * s
            row[COL_WIN_UNITS] += wins[seat]
            row[COL_INSTANT_WINS] += winner == seat
            row[COL_TRIPLE_SIXES] += t6[seat]
            row[COL_TRIPLE_SIXES_SQ] += t6[seat] * t6[seat]
            row[COL_HIST + s] += 1


# metrics of one game compared across rule variants (paired_block)
PAIRED_SCORE_SUM = 0  # all players' points added up
PAIRED_INSTANT_WIN = 1  # 1 if the game ended by three clovers
PAIRED_FIRST_SEAT_WIN = 2  # win units of the first seat
PAIRED_TRIPLE_SIXES = 3
N_PAIRED = 4  # then each seat's win units (``put_seat_wins``): out's last axis is
# N_PAIRED + the seats reported


@njit(cache=True, nogil=True)
def paired_block(key, first, end, out, lineups, rounds, triple_six_effect, outcome_dice,
                 table_of, max_diff):
    """Play games ``first`` to ``end - 1`` of block ``key`` once under each of V rule
    variants, on the same random numbers, and accumulate sums and cross products of the
    game metrics.

    Variant arrays carry a leading axis V: ``lineups`` int64[V, n, 2] (each variant's
    tables among ``outcome_dice``, as ``games_block`` reads them), ``rounds``,
    ``triple_six_effect``, ``max_diff`` int64[V].
    ``out``: int64[V + 1, V, N_PAIRED]; row 0 holds the sums, row 1 + v the products
    with variant v.
    """
    n_var, n = lineups.shape[0], lineups.shape[1]
    totals = np.empty(n, np.int64)
    scratch = np.empty(n, np.int64)
    wins = np.empty(n, np.int64)
    t6 = np.empty(n, np.int64)
    no_decisions = np.zeros((1, N_OUTCOMES, 0))  # not drawn by the paired loop
    decisions = np.empty(n, np.int64)
    x = np.zeros((n_var, out.shape[2]), np.int64)
    for g in range(first, end):
        for v in range(n_var):
            winner = play_game(key, g, lineups[v], rounds[v], triple_six_effect[v] != 0,
                               outcome_dice, table_of, max_diff[v], totals, scratch, t6,
                               no_decisions, decisions)
            award_wins(totals, winner, wins)
            x[v, PAIRED_SCORE_SUM] = totals.sum()
            x[v, PAIRED_INSTANT_WIN] = winner >= 0
            x[v, PAIRED_FIRST_SEAT_WIN] = wins[0]
            x[v, PAIRED_TRIPLE_SIXES] = t6.sum()
            put_seat_wins(x[v], np.int64(N_PAIRED), wins)
        add_products(out, x)


# The parallel loop over turn blocks (the game blocks run on threads instead, see
# ``games_block``; one loop per block function, so that numba can cache it: a jitted
# function passed as an argument would make the cache key change every process).


@njit(cache=True, parallel=True, nogil=True)
def run_turn_blocks(keys, sizes, out, *args):
    """``turns_block`` over every block in parallel: ``keys`` uint64[B], ``sizes`` int64[B],
    ``out`` int64[B, N_OUTCOMES]; ``args`` as for ``turns_block`` after ``out``."""
    for b in prange(keys.shape[0]):
        turns_block(keys[b], sizes[b], out[b], *args)
