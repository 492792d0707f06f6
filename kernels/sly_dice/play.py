"""Sly Dice whole games with bot policies (rules page: *Rounds, claims and accusations*).
Only this module draws dice (through :mod:`kernels.rng`).

Policies are rows of ``policy`` (float64[n_players, N_POLICY]; columns in ``bots``).

The plausibility of a claim is the chance that it holds given the visible dice (common and
locked) with the hidden dice uniformly random: ``plaus[n_locked, visible_index, card, k]``.
Rolling follows the exact per-card action values ``q1``/``q2`` (``odds.q_tables``): at each
decision the bot takes the action whose best open card has the highest expected points.
"""

import numpy as np

from kernels.accumulate import (COMEBACK_LEN, CONTEST_DECISIONS, CONTEST_LEN, STANDING_ROUNDS,
                                add_comebacks, add_contest, add_products, put_seat_wins,
                                seat_lineup)
from kernels.jit import njit
from kernels.rng import turn_stream, uniform
from kernels.sly_dice.bots import (  # noqa: F401  (policy columns re-exported for callers)
    ACCUSE_BELOW,
    ACCUSE_MODE,
    ACTIONS_2,
    ACTIONS_3,
    BLUFF_BELOW,
    EQUILIBRIUM,
    EXPECTED,
    MS_COUNTS_6,
    N_POLICY,
    NEVER,
    THRESHOLD,
    accuses,
    best_action,
    choose_claim,
    claim_posterior,
    list_open_cards,
)
from kernels.sly_dice.equilibrium_play import equilibrium_accuse, equilibrium_claim
from kernels.sly_dice.layout import CODE_INDEX, DICE_CARDS, FACE_CODE, HIGHER_OR_LOWER, N_CARDS

# game accumulator columns per (lineup slot, seat), then scored-card counts, then histogram
COL_GAMES = 0
COL_SCORE_SUM = 1
COL_SCORE_SQ = 2
COL_WIN_UNITS = 3
COL_CLAIMS = 4
COL_BLUFFS = 5  # bluffs claimed
COL_BLUFFS_CAUGHT = 6
COL_BLUFF_CARDS = 7  # Successful Bluffing cards won
COL_ACCUSATIONS = 8
COL_ACCUSATIONS_RIGHT = 9
COL_FALSE_CARDS = 10  # False Accusation cards taken
COL_HOL_TRIES = 11
COL_HOL_WINS = 12
COL_ACCUSATIONS_SQ = 13  # sums of squares of the per-game counts, for standard errors
COL_BLUFF_CARDS_SQ = 14
COL_FALSE_CARDS_SQ = 15
COL_CARDS = 16  # + card id: times the card was scored
COL_STANDINGS = COL_CARDS + N_CARDS  # + round: the score at its end, bonus cards counted
COL_COMEBACK = COL_STANDINGS + STANDING_ROUNDS  # ``accumulate.add_comebacks``, 5-point gaps
COL_CONTEST = COL_COMEBACK + COMEBACK_LEN  # ``accumulate.add_contest``: margins, ties, decisions
COL_DECISIONS = COL_CONTEST + CONTEST_DECISIONS  # in ``play_game``'s tally: a game's re-roll
# choices, claims, Higher or Lower calls and accuse-or-not choices
COL_HIST = COL_CONTEST + CONTEST_LEN
COMEBACK_STEP = 5  # points per deficit bin of the comeback record
HIST_LOW = -200  # score of histogram bin 0
HIST_BINS = 701
WIN_UNITS = 12  # a game's win is split in 12ths so ties of 2, 3 or 4 players stay integers

DECK_TURN = 4095  # the turn index of the deck shuffle's random stream
SLOT_HOL = 16  # Higher or Lower rolls use slots from here
SLOT_CLAIM = 32  # the equilibrium claimant's draw of its claim, then its accusers' draws


@njit(cache=True, _nrt=False)
def _die(stream, slot):
    return np.int64(uniform(stream, slot) * 6.0) + 1


@njit(cache=True, _nrt=False)
def bonus_total(cards, base, step):
    """Worth of ``cards`` escalating bonus cards: base + (base+step) + ..."""
    return cards * base + step * cards * (cards - 1) // 2


@njit(cache=True, _nrt=False)
def roll_own(stream, c_idx, open_mask, weights, q1, q2, rerolls, open_cards):
    """Roll a player's dice with the action-value policy.

    ``q1``: float32[56, 56, 4, 17] and ``q2``: float32[56, 6, 21, 3, 17] (common set,
    position, action slot, card; see ``ACTIONS_3``/``ACTIONS_2``); ``open_cards``: int64[17]
    scratch. Returns
    ``(own_code, locked_code, n_locked)`` as multiset codes (``layout``)."""
    n_open = list_open_cards(open_mask, open_cards)
    hidden = (FACE_CODE[_die(stream, np.int64(0))] + FACE_CODE[_die(stream, np.int64(1))]
              + FACE_CODE[_die(stream, np.int64(2))])
    if rerolls < 1:
        return hidden, 0, 0
    h = CODE_INDEX[hidden]
    a = best_action(q1[c_idx, h], ACTIONS_3[h], open_cards, n_open, weights)
    if a == 0:
        return hidden, 0, 0
    hidden = FACE_CODE[_die(stream, np.int64(3))] + FACE_CODE[_die(stream, np.int64(4))]
    if rerolls < 2:
        return FACE_CODE[a] + hidden, FACE_CODE[a], 1
    h = CODE_INDEX[hidden]
    b = best_action(q2[c_idx, a - 1, h], ACTIONS_2[h], open_cards, n_open, weights)
    if b == 0:
        return FACE_CODE[a] + hidden, FACE_CODE[a], 1
    locked = FACE_CODE[a] + FACE_CODE[b]
    return locked + FACE_CODE[_die(stream, np.int64(5))], locked, 2


@njit(cache=True, _nrt=False)
def hol_challenge(stream, target, calls):
    """Play Higher or Lower from ``target`` with the best calls (int64[3, 19]); returns
    ``(won, calls_made)``: True if all three calls come right, and how many were made
    (the first wrong one ends it)."""
    for stage in range(3):
        total = _die(stream, SLOT_HOL + 3 * stage) + _die(stream, SLOT_HOL + 3 * stage + 1) \
            + _die(stream, SLOT_HOL + 3 * stage + 2)
        higher = calls[stage, target] == 1
        if (higher and total <= target) or (not higher and total >= target):
            return False, stage + 1
        target = total
    return True, 3


@njit(cache=True, _nrt=False)
def reroll_choices(n_locked, rerolls):
    """The keep-or-reroll choices ``roll_own`` made for a player who ended with
    ``n_locked`` dice locked, ``rerolls`` allowed: one after each roll with a reroll left,
    none after keeping all."""
    if rerolls < 1:
        return 0
    return 1 if n_locked == 0 or rerolls < 2 else 2


@njit(cache=True, _nrt=False)
def _shuffle_deck(key, game, deck):
    stream = turn_stream(key, game, np.int64(DECK_TURN))
    for i in range(DICE_CARDS):
        deck[i] = i
    for i in range(DICE_CARDS - 1, 0, -1):
        j = np.int64(uniform(stream, i) * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]


@njit(cache=True)
def _p_true(common, c_idx, locked, n_locked, card, k, open_mask, weights, q1, q2, rerolls,
            hol_ev, points, bluff_below, plaus, made, bluff_next, open_cards, naive):
    """The chance that a claim holds for an accuser who knows the claimant's rules
    (``bots.claim_posterior``); ``naive`` (the plausibility) if those rules never make it.
    A claimant that never bluffs by choice, with Higher or Lower open, is never forced to
    claim falsely: its claims hold."""
    if bluff_below < 0 and (open_mask >> HIGHER_OR_LOWER) & 1:
        return 1.0
    mass = claim_posterior(common, c_idx, locked, n_locked, card, k, open_mask, weights, q1,
                           q2, rerolls, hol_ev, points, bluff_below, plaus, made, bluff_next,
                           open_cards)
    total = mass[0] + mass[1]
    return mass[1] / total if total > 0.0 else naive


@njit(cache=True)
def play_game(key, game, rounds, policy, points, weights, q1, q2, rerolls, hol_success,
              hol_calls, plaus, made, bonus, total, tally, scratch):
    """Play one game of ``n = policy.shape[0]`` players.

    ``made``: int64[462] bit masks of the fixed cards each six-dice multiset makes.
    Fills ``total`` (int64[n], final scores with bonus cards) and ``tally``
    (int64[n, COL_HIST], per-seat counts in the accumulator's columns COL_CLAIMS.. and
    the game's decisions in ``COL_DECISIONS``);
    ``scratch``: int64[n + DICE_CARDS + 4 * n] work space.
    """
    n = policy.shape[0]
    deck = scratch[:DICE_CARDS]
    open_cards = scratch[DICE_CARDS:2 * DICE_CARDS]
    scored = scratch[2 * DICE_CARDS:2 * DICE_CARDS + n]
    own = scratch[2 * DICE_CARDS + n:2 * DICE_CARDS + 2 * n]
    locked = scratch[2 * DICE_CARDS + 2 * n:2 * DICE_CARDS + 3 * n]
    n_locked = scratch[2 * DICE_CARDS + 3 * n:2 * DICE_CARDS + 4 * n]
    _shuffle_deck(key, game, deck)
    available = (1 << HIGHER_OR_LOWER) | (1 << deck[0]) | (1 << deck[1]) | (1 << deck[2])
    scored[:] = 0
    tally[:] = 0
    total[:] = 0  # points from cards; bonus cards are added at the end
    for rnd in range(rounds):
        base_turn = rnd * (n + 1)
        stream = turn_stream(key, game, base_turn)
        dice = (_die(stream, np.int64(0)), _die(stream, np.int64(1)), _die(stream, np.int64(2)))
        common = FACE_CODE[dice[0]] + FACE_CODE[dice[1]] + FACE_CODE[dice[2]]
        c_idx = CODE_INDEX[common]
        c_sum = dice[0] + dice[1] + dice[2]
        for s in range(n):
            own[s], locked[s], n_locked[s] = roll_own(
                turn_stream(key, game, base_turn + 1 + s), c_idx, available & ~scored[s],
                weights, q1, q2, rerolls, open_cards)
            tally[s, COL_DECISIONS] += reroll_choices(n_locked[s], rerolls)
        first = rnd % n
        for i in range(n):
            s = (first + i) % n
            six = CODE_INDEX[common + own[s]]
            plaus_row = plaus[n_locked[s], CODE_INDEX[common + locked[s]]]
            hol_ev = hol_success[c_sum] * points[HIGHER_OR_LOWER]
            bluff_next = bonus[0] + bonus[1] * tally[s, COL_BLUFF_CARDS]
            claim_stream = turn_stream(key, game, base_turn + 1 + s)
            next_accuses = -1.0  # the equilibrium's chance the next player accuses, if solved
            if policy[s, ACCUSE_MODE] == EQUILIBRIUM:
                nxt = (s + 1) % n
                card, k, value, true, next_accuses = equilibrium_claim(
                    uniform(claim_stream, np.int64(SLOT_CLAIM)), c_idx, common, own[s], locked[s],
                    n_locked[s], available & ~scored[s], weights, q1, q2, rerolls,
                    open_cards, made, points, hol_ev, bluff_next,
                    bonus[2] + bonus[3] * tally[nxt, COL_FALSE_CARDS])
            else:
                card, k, value, true = choose_claim(
                    MS_COUNTS_6[six], made[six], available & ~scored[s], hol_ev, points,
                    policy[s, BLUFF_BELOW], plaus_row, bluff_next)
            if card < 0:
                continue
            tally[s, COL_CLAIMS] += 1
            tally[s, COL_DECISIONS] += 1
            if card == HIGHER_OR_LOWER:
                tally[s, COL_HOL_TRIES] += 1
                won, calls_made = hol_challenge(turn_stream(key, game, base_turn + 1 + s),
                                                c_sum, hol_calls)
                tally[s, COL_DECISIONS] += calls_made
                if won:
                    tally[s, COL_HOL_WINS] += 1
                    tally[s, COL_CARDS + card] += 1
                    total[s] += np.int64(value)
                    scored[s] |= 1 << card
                continue
            tally[s, COL_BLUFFS] += not true
            accuser = -1
            if plaus_row[card, k] < 1.0 - 1e-9:  # a claim the visible dice prove is safe
                p_true = -1.0  # the chance it holds for a claimant of known rules, if asked
                for j in range(1, n):
                    a = (s + j) % n
                    tally[a, COL_DECISIONS] += 1  # to accuse or not
                    p = plaus_row[card, k]
                    if policy[a, ACCUSE_MODE] == EXPECTED:
                        if p_true < 0.0:
                            p_true = _p_true(common, c_idx, locked[s], n_locked[s], card, k,
                                             available & ~scored[s], weights, q1, q2, rerolls,
                                             hol_ev, points, policy[s, BLUFF_BELOW], plaus,
                                             made, bluff_next, open_cards, p)
                        p = p_true
                    if policy[a, ACCUSE_MODE] == EQUILIBRIUM:
                        chance = next_accuses if j == 1 and next_accuses >= 0.0 else \
                            equilibrium_accuse(
                                card, k, c_idx, common, locked[s], n_locked[s],
                                available & ~scored[s], weights, q1, q2, rerolls,
                                open_cards, made, points, hol_ev, bluff_next,
                                bonus[2] + bonus[3] * tally[a, COL_FALSE_CARDS])
                        if uniform(claim_stream, SLOT_CLAIM + j) < chance:
                            accuser = a
                            break
                    elif accuses(policy[a, ACCUSE_MODE], policy[a, ACCUSE_BELOW], p, value,
                                 tally[s, COL_BLUFF_CARDS], tally[a, COL_FALSE_CARDS], bonus,
                                 n - 1):
                        accuser = a
                        break
            if accuser >= 0:
                tally[accuser, COL_ACCUSATIONS] += 1
                if true:
                    tally[accuser, COL_FALSE_CARDS] += 1
                else:
                    tally[accuser, COL_ACCUSATIONS_RIGHT] += 1
                    tally[s, COL_BLUFFS_CAUGHT] += 1
                    continue
            elif not true:
                tally[s, COL_BLUFF_CARDS] += 1
            total[s] += np.int64(value)
            scored[s] |= 1 << card
            tally[s, COL_CARDS + card] += 1
        if 3 + rnd < DICE_CARDS:
            available |= 1 << deck[3 + rnd]
        if rnd < STANDING_ROUNDS:
            for s in range(n):
                tally[s, COL_STANDINGS + rnd] = total[s] + _bonus_balance(tally[s], bonus)
    for s in range(n):
        total[s] += _bonus_balance(tally[s], bonus)


@njit(cache=True, _nrt=False)
def _bonus_balance(tally, bonus):
    """The points of a seat's Successful Bluffing cards less its False Accusation cards
    (``tally``: int64[COL_HIST], the seat's row; ``bonus``: float64[4])."""
    return bonus_total(tally[COL_BLUFF_CARDS], np.int64(bonus[0]), np.int64(bonus[1])) \
        - bonus_total(tally[COL_FALSE_CARDS], np.int64(bonus[2]), np.int64(bonus[3]))


@njit(cache=True, _nrt=False, inline="always")
def award_wins(total, bluff_cards, wins):
    """Split ``WIN_UNITS``: highest total, then most Successful Bluffing cards, then shared."""
    n = total.shape[0]
    best = -1 << 40
    for s in range(n):
        score = total[s] * 64 + bluff_cards[s]
        best = max(best, score)
    tied = 0
    for s in range(n):
        tied += total[s] * 64 + bluff_cards[s] == best
    for s in range(n):
        wins[s] = WIN_UNITS // tied if total[s] * 64 + bluff_cards[s] == best else 0


@njit(cache=True, nogil=True)
def games_block(key, first, end, out, lineup, rotate, rounds, points, weights, q1, q2, rerolls,
                hol_success, hol_calls, plaus, made, bonus):
    """Play games ``first`` to ``end - 1`` of block ``key`` into ``out`` (int64[n slots, n seats,
    COL_HIST + HIST_BINS]). ``lineup``: float64[n, N_POLICY], the policies of the lineup
    slots; with ``rotate`` they move one seat each game. The three block kernels run
    without the GIL, blocks or pieces of them side by side on threads
    (``analyzer.run.block_loop``: a numba parallel loop around each would compile the game
    again)."""
    n = lineup.shape[0]
    seated = np.empty_like(lineup)
    slot_of = np.empty(n, np.int64)
    total = np.empty(n, np.int64)
    wins = np.empty(n, np.int64)
    tally = np.zeros((n, COL_HIST), np.int64)
    scratch = np.zeros(2 * DICE_CARDS + 4 * n, np.int64)
    decisions = np.empty(n, np.int64)
    for g in range(first, end):
        seat_lineup(lineup, g, first, rotate, seated, slot_of)
        play_game(key, g, rounds, seated, points, weights, q1, q2, rerolls, hol_success,
                  hol_calls, plaus, made, bonus, total, tally, scratch)
        award_wins(total, tally[:, COL_BLUFF_CARDS], wins)
        for seat in range(n):
            decisions[seat] = tally[seat, COL_DECISIONS]
        add_contest(out, slot_of, total, decisions, np.int64(COL_CONTEST), np.int64(-1))
        for seat in range(n):
            row = out[slot_of[seat], seat]
            for c in range(COL_CLAIMS, COL_CONTEST):
                row[c] += tally[seat, c]
            row[COL_ACCUSATIONS_SQ] += tally[seat, COL_ACCUSATIONS] ** 2
            row[COL_BLUFF_CARDS_SQ] += tally[seat, COL_BLUFF_CARDS] ** 2
            row[COL_FALSE_CARDS_SQ] += tally[seat, COL_FALSE_CARDS] ** 2
            row[COL_GAMES] += 1
            row[COL_SCORE_SUM] += total[seat]
            row[COL_SCORE_SQ] += total[seat] * total[seat]
            row[COL_WIN_UNITS] += wins[seat]
            if n > 1:
                add_comebacks(row, np.int64(COL_COMEBACK), tally[:, COL_STANDINGS:], seat,
                              wins[seat],
                              rounds, np.int64(COMEBACK_STEP))
            b = min(max(total[seat] - HIST_LOW, 0), HIST_BINS - 1)
            row[COL_HIST + b] += 1



# metrics of one game compared across variants (paired_block)
PAIRED_SCORE_SUM = 0  # all players' final scores added up
PAIRED_FIRST_SEAT_WIN = 1  # win units of the first seat
PAIRED_BLUFFS = 2
PAIRED_BLUFFS_CAUGHT = 3
PAIRED_ACCUSATIONS = 4
N_PAIRED = 5  # then each seat's win units (``put_seat_wins``): out's last axis is
# N_PAIRED + the seats reported


@njit(cache=True, nogil=True)
def paired_block(key, first, end, out, lineups, rounds, points, weights, q1, q2, rerolls,
                 hol_success, hol_calls, plaus, made, bonus):
    """Play games ``first`` to ``end - 1`` of block ``key`` once under each of V variants on
    the same random numbers; accumulate sums and cross products of the game metrics.

    Variant arrays have a leading axis V: ``lineups`` float64[V, n, N_POLICY], ``rounds``,
    ``rerolls`` int64[V], ``points`` float64[V, N_CARDS], ``weights`` float64[V, 17],
    ``bonus`` float64[V, 4]; ``q1``/``q2`` int64-indexed stacks [V, ...] of the action
    values. ``out``: int64[V + 1, V, N_PAIRED]: row 0 sums, row 1 + v products with v.
    """
    n_var, n = lineups.shape[0], lineups.shape[1]
    total = np.empty(n, np.int64)
    wins = np.empty(n, np.int64)
    tally = np.zeros((n, COL_HIST), np.int64)
    scratch = np.zeros(2 * DICE_CARDS + 4 * n, np.int64)
    x = np.zeros((n_var, out.shape[2]), np.int64)
    for g in range(first, end):
        for v in range(n_var):
            play_game(key, g, rounds[v], lineups[v], points[v], weights[v], q1[v], q2[v],
                      rerolls[v], hol_success, hol_calls, plaus, made, bonus[v], total, tally,
                      scratch)
            award_wins(total, tally[:, COL_BLUFF_CARDS], wins)
            x[v, PAIRED_SCORE_SUM] = total.sum()
            x[v, PAIRED_FIRST_SEAT_WIN] = wins[0]
            x[v, PAIRED_BLUFFS] = tally[:, COL_BLUFFS].sum()
            x[v, PAIRED_BLUFFS_CAUGHT] = tally[:, COL_BLUFFS_CAUGHT].sum()
            x[v, PAIRED_ACCUSATIONS] = tally[:, COL_ACCUSATIONS].sum()
            put_seat_wins(x[v], np.int64(N_PAIRED), wins)
        add_products(out, x)



# the columns of duel_block's accumulator
DUEL_GAMES = 0
DUEL_UNITS = 1  # the candidate's win units over both seatings of a game, 0 .. 2 * WIN_UNITS
DUEL_UNITS_SQ = 2
N_DUEL = 3


@njit(cache=True, nogil=True)
def duel_block(key, first, end, out, candidates, opponent, rounds, points, weights, q1, q2,
               rerolls, hol_success, hol_calls, plaus, made, bonus):
    """Two-player duels of every candidate against one opponent: each game ``first`` to
    ``end - 1`` of block ``key`` is played once with the candidate in the first seat and
    once in the second, on the same random numbers, for every candidate.

    ``candidates``: float64[C, N_POLICY]; ``opponent``: float64[N_POLICY]; ``out``:
    int64[C, N_DUEL] (games, the candidate's win units summed over both seatings, and
    their squares); the rule arrays as in ``play_game``."""
    lineup = np.empty((2, candidates.shape[1]))
    total = np.empty(2, np.int64)
    wins = np.empty(2, np.int64)
    tally = np.zeros((2, COL_HIST), np.int64)
    scratch = np.zeros(2 * DICE_CARDS + 8, np.int64)
    for g in range(first, end):
        for c in range(candidates.shape[0]):
            units = 0
            for seat in range(2):
                lineup[seat] = candidates[c]
                lineup[1 - seat] = opponent
                play_game(key, g, rounds, lineup, points, weights, q1, q2, rerolls,
                          hol_success, hol_calls, plaus, made, bonus, total, tally, scratch)
                award_wins(total, tally[:, COL_BLUFF_CARDS], wins)
                units += wins[seat]
            out[c, DUEL_GAMES] += 1
            out[c, DUEL_UNITS] += units
            out[c, DUEL_UNITS_SQ] += units * units

