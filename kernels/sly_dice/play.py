"""Sly Dice whole games with bot policies (rules page: *Rounds, claims and accusations*).
Only this module draws dice (through :mod:`kernels.rng`).

Policies are rows of ``policy`` (float64[n_players, N_POLICY]):
``BLUFF_BELOW``: bluff when the best honest option is worth less than this many points
(negative: never bluff unless no honest claim exists); ``ACCUSE_MODE``: ``NEVER``,
``THRESHOLD`` (accuse when the claim's plausibility is below ``ACCUSE_BELOW``) or
``EXPECTED`` (accuse when it gains expected points relative to the claimant).

The plausibility of a claim is the chance that it holds given the visible dice (common and
locked) with the hidden dice uniformly random: ``plaus[n_locked, visible_index, card, k]``.
Rolling follows the exact per-card action values ``q1``/``q2`` (``odds.q_tables``): at each
decision the bot takes the action whose best open card has the highest expected points.
"""

import numpy as np
from numba import njit, prange

from kernels.rng import turn_stream, uniform
from kernels.sly_dice.combos import holds
from kernels.sly_dice.layout import (
    CODE_INDEX,
    DICE_CARDS,
    FACE_CODE,
    HIGHER_OR_LOWER,
    N_CARDS,
    N_NUMBER_CARDS,
)

BLUFF_BELOW = 0
ACCUSE_MODE = 1
ACCUSE_BELOW = 2
N_POLICY = 3
NEVER, THRESHOLD, EXPECTED = 0, 1, 2

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
COL_CARDS = 13  # + card id: times the card was scored
COL_HIST = COL_CARDS + N_CARDS
HIST_LOW = -200  # score of histogram bin 0
HIST_BINS = 701
WIN_UNITS = 12  # a game's win is split in 12ths so ties of 2, 3 or 4 players stay integers

DECK_TURN = 4095  # the turn index of the deck shuffle's random stream
SLOT_HOL = 16  # Higher or Lower rolls use slots from here


@njit(cache=True, inline="always")
def _die(stream, slot):
    return np.int64(uniform(stream, slot) * 6.0) + 1


@njit(cache=True)
def bonus_total(cards, base, step):
    """Worth of ``cards`` escalating bonus cards: base + (base+step) + ..."""
    return cards * base + step * cards * (cards - 1) // 2


@njit(cache=True)
def _best_action(q, open_mask, weights):
    """Action (0 stop, a = lock face a) whose best open card is worth most; ``q``:
    float64[17, 7] action values per card for this position."""
    best_a, best_v = 0, -1.0
    for a in range(7):
        v = -1.0
        for card in range(DICE_CARDS):
            if (open_mask >> card) & 1:
                v = max(v, weights[card] * q[card, a])
        if v > best_v + 1e-12:
            best_a, best_v = a, v
    return best_a


@njit(cache=True)
def roll_own(stream, c_idx, open_mask, weights, q1, q2, rerolls, own, locked):
    """Roll a player's dice with the action-value policy; fills ``own`` and ``locked``
    (int64[7] face counts) and returns the number of locked dice."""
    own[:] = 0
    locked[:] = 0
    hidden = np.zeros(7, np.int64)
    code = 0
    for i in range(3):
        f = _die(stream, i)
        hidden[f] += 1
        code += FACE_CODE[f]
    n_locked = 0
    if rerolls >= 1:
        a = _best_action(q1[c_idx, :, CODE_INDEX[code]], open_mask, weights)
        if a > 0:
            locked[a] += 1
            n_locked = 1
            hidden[:] = 0
            code = 0
            for i in range(2):
                f = _die(stream, 3 + i)
                hidden[f] += 1
                code += FACE_CODE[f]
            if rerolls >= 2:
                b = _best_action(q2[c_idx, :, a - 1, CODE_INDEX[code]], open_mask, weights)
                if b > 0:
                    locked[b] += 1
                    n_locked = 2
                    hidden[:] = 0
                    hidden[_die(stream, 5)] += 1
    for f in range(7):
        own[f] = locked[f] + hidden[f]
    return n_locked


@njit(cache=True)
def hol_challenge(stream, target, calls):
    """Play Higher or Lower from ``target`` with the best calls (int64[3, 19]); True if
    all three calls come right."""
    for stage in range(3):
        total = _die(stream, SLOT_HOL + 3 * stage) + _die(stream, SLOT_HOL + 3 * stage + 1) \
            + _die(stream, SLOT_HOL + 3 * stage + 2)
        higher = calls[stage, target] == 1
        if (higher and total <= target) or (not higher and total >= target):
            return False
        target = total
    return True


@njit(cache=True)
def choose_claim(six, open_mask, hol_ev, points, bluff_below, plaus_row, bluff_next):
    """The claim of a bot: ``(card, k, value, true)``; card -1 if it has nothing to claim.

    ``six``: int64[7] counts of all six dice; ``open_mask``: cards the player may claim
    (Higher or Lower included); ``hol_ev``: expected points of Higher or Lower now;
    ``plaus_row``: float64[18, 7] plausibility of each claim as the others see it;
    ``bluff_next``: what a successful bluff's bonus card would be worth.
    """
    best_card, best_k, best_value = -1, 0, 0.0
    for card in range(DICE_CARDS):
        if not (open_mask >> card) & 1:
            continue
        if card < N_NUMBER_CARDS:
            k = six[card + 1]
            value = float((card + 1) * k)
        else:
            k = 1
            value = points[card] if holds(six, card, 1) else 0.0
        if value > best_value:
            best_card, best_k, best_value = card, k, value
    hol_open = (open_mask >> HIGHER_OR_LOWER) & 1
    honest = max(best_value, hol_ev if hol_open else 0.0)
    forced = best_card < 0 and not hol_open
    if forced or (bluff_below >= 0 and honest < bluff_below):
        bluff_card, bluff_k, bluff_score = -1, 0, -1.0
        for card in range(DICE_CARDS):
            if not (open_mask >> card) & 1:
                continue
            if card < N_NUMBER_CARDS:
                k = six[card + 1] + 1
                if k > 6:
                    continue
                value = float((card + 1) * k)
            else:
                k = 1
                if holds(six, card, 1):
                    continue
                value = points[card]
            score = (value + bluff_next) * plaus_row[card, k]
            if score > bluff_score:
                bluff_card, bluff_k, bluff_score = card, k, score
        if bluff_card >= 0:
            value = float((bluff_card + 1) * bluff_k) if bluff_card < N_NUMBER_CARDS \
                else points[bluff_card]
            return bluff_card, bluff_k, value, False
    if hol_open and hol_ev >= best_value:
        return HIGHER_OR_LOWER, 1, points[HIGHER_OR_LOWER], True
    return best_card, best_k, best_value, True


@njit(cache=True)
def accuses(mode, below, plausibility, value, claimant_bluffs, accuser_falses, bonus):
    """Whether a bot accuses a claim of ``value`` points with this plausibility.

    ``bonus``: float64[4] = bluff base, bluff step, false-accusation base and step. The
    ``EXPECTED`` rule compares the claimant's gain kept from them by catching a bluff with
    the escalating penalty of a wrong accusation."""
    if mode == THRESHOLD:
        return plausibility < below
    if mode == EXPECTED:
        gain = (1.0 - plausibility) * (value + bonus[0] + bonus[1] * claimant_bluffs)
        loss = plausibility * (bonus[2] + bonus[3] * accuser_falses)
        return gain > loss
    return False


@njit(cache=True)
def _shuffle_deck(key, game, deck):
    stream = turn_stream(key, game, DECK_TURN)
    for i in range(DICE_CARDS):
        deck[i] = i
    for i in range(DICE_CARDS - 1, 0, -1):
        j = np.int64(uniform(stream, i) * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]


@njit(cache=True)
def play_game(key, game, rounds, policy, points, weights, q1, q2, rerolls, hol_success,
              hol_calls, plaus, bonus, total, tally):
    """Play one game of ``n = policy.shape[0]`` players.

    Fills ``total`` (int64[n], final scores with bonus cards) and ``tally``
    (int64[n, COL_HIST], per-seat counts in the accumulator's columns COL_CLAIMS..).
    Returns nothing; ``tally[:, COL_BLUFF_CARDS]`` breaks ties.
    """
    n = policy.shape[0]
    deck = np.empty(DICE_CARDS, np.int64)
    _shuffle_deck(key, game, deck)
    available = (1 << HIGHER_OR_LOWER) | (1 << deck[0]) | (1 << deck[1]) | (1 << deck[2])
    scored = np.zeros(n, np.int64)
    points_won = np.zeros(n, np.float64)
    common = np.zeros(7, np.int64)
    own = np.zeros((n, 7), np.int64)
    locked = np.zeros((n, 7), np.int64)
    n_locked = np.zeros(n, np.int64)
    six = np.zeros(7, np.int64)
    visible = np.zeros(7, np.int64)
    tally[:] = 0
    for rnd in range(rounds):
        base_turn = rnd * (n + 1)
        stream = turn_stream(key, game, base_turn)
        common[:] = 0
        code = 0
        for i in range(3):
            f = _die(stream, i)
            common[f] += 1
            code += FACE_CODE[f]
        c_idx = CODE_INDEX[code]
        c_sum = common[1] + 2 * common[2] + 3 * common[3] + 4 * common[4] + 5 * common[5] \
            + 6 * common[6]
        for s in range(n):
            n_locked[s] = roll_own(turn_stream(key, game, base_turn + 1 + s), c_idx,
                                   available & ~scored[s], weights, q1, q2, rerolls, own[s],
                                   locked[s])
        first = rnd % n
        for i in range(n):
            s = (first + i) % n
            open_mask = available & ~scored[s]
            six[:] = common + own[s]
            visible[:] = common + locked[s]
            vis_code = 0
            for f in range(1, 7):
                vis_code += visible[f] * FACE_CODE[f]
            plaus_row = plaus[n_locked[s], CODE_INDEX[vis_code]]
            hol_ev = hol_success[c_sum] * points[HIGHER_OR_LOWER]
            bluff_next = bonus[0] + bonus[1] * tally[s, COL_BLUFF_CARDS]
            card, k, value, true = choose_claim(six, open_mask, hol_ev, points,
                                                policy[s, BLUFF_BELOW], plaus_row, bluff_next)
            if card < 0:
                continue
            tally[s, COL_CLAIMS] += 1
            if card == HIGHER_OR_LOWER:
                tally[s, COL_HOL_TRIES] += 1
                if hol_challenge(turn_stream(key, game, base_turn + 1 + s), c_sum, hol_calls):
                    tally[s, COL_HOL_WINS] += 1
                    tally[s, COL_CARDS + card] += 1
                    points_won[s] += value
                    scored[s] |= 1 << card
                continue
            tally[s, COL_BLUFFS] += not true
            accuser = -1
            if not holds(visible, card, k):  # a claim the visible dice prove cannot be accused
                for j in range(1, n):
                    a = (s + j) % n
                    if accuses(policy[a, ACCUSE_MODE], policy[a, ACCUSE_BELOW],
                               plaus_row[card, k], value, tally[s, COL_BLUFF_CARDS],
                               tally[a, COL_FALSE_CARDS], bonus):
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
            points_won[s] += value
            scored[s] |= 1 << card
            tally[s, COL_CARDS + card] += 1
        if 3 + rnd < DICE_CARDS:
            available |= 1 << deck[3 + rnd]
    for s in range(n):
        total[s] = np.int64(np.round(points_won[s])) \
            + bonus_total(tally[s, COL_BLUFF_CARDS], np.int64(bonus[0]), np.int64(bonus[1])) \
            - bonus_total(tally[s, COL_FALSE_CARDS], np.int64(bonus[2]), np.int64(bonus[3]))


@njit(cache=True)
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


@njit(cache=True)
def games_block(key, n_games, out, lineup, rotate, rounds, points, weights, q1, q2, rerolls,
                hol_success, hol_calls, plaus, bonus):
    """Play ``n_games`` games of block ``key`` into ``out`` (int64[n slots, n seats,
    COL_HIST + HIST_BINS]). ``lineup``: float64[n, N_POLICY], the policies of the lineup
    slots; with ``rotate`` they move one seat each game."""
    n = lineup.shape[0]
    seated = np.empty_like(lineup)
    slot_of = np.empty(n, np.int64)
    total = np.empty(n, np.int64)
    wins = np.empty(n, np.int64)
    tally = np.zeros((n, COL_HIST), np.int64)
    for g in range(n_games):
        shift = g % n if rotate else 0
        for seat in range(n):
            slot_of[seat] = (seat + shift) % n
            seated[seat] = lineup[slot_of[seat]]
        play_game(key, g, rounds, seated, points, weights, q1, q2, rerolls, hol_success,
                  hol_calls, plaus, bonus, total, tally)
        award_wins(total, tally[:, COL_BLUFF_CARDS], wins)
        for seat in range(n):
            row = out[slot_of[seat], seat]
            for c in range(COL_CLAIMS, COL_HIST):
                row[c] += tally[seat, c]
            row[COL_GAMES] += 1
            row[COL_SCORE_SUM] += total[seat]
            row[COL_SCORE_SQ] += total[seat] * total[seat]
            row[COL_WIN_UNITS] += wins[seat]
            b = min(max(total[seat] - HIST_LOW, 0), HIST_BINS - 1)
            row[COL_HIST + b] += 1


@njit(cache=True, parallel=True)
def run_game_blocks(keys, sizes, out, *args):
    """``games_block`` over every block in parallel (``out`` int64[B, ...])."""
    for b in prange(keys.shape[0]):
        games_block(keys[b], sizes[b], out[b], *args)
