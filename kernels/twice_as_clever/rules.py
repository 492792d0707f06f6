"""Twice As Clever sheet rules (rules page sections 5-8): where a value may go, marks and
the bonuses they trigger, free marks of the "?" bonuses, action tracks with their 6th-circle
bonuses, and scoring. Pure functions on the flat sheet; no random numbers.

Bonuses fired by a mark are pushed on a pending stack (int64[MAX_PENDING]) and resolved by
the caller one at a time (``pop_pending``, ``bonus_choices``, ``resolve_bonus``), so a
policy can place every free mark.
"""

import numpy as np

from kernels.clever_base.dice import die_value, enters
from kernels.clever_base.pending import pop, push
from kernels.clever_base.totals import fixed_fox, parts_with
from kernels.jit import njit
from kernels.twice_as_clever.layout import (ACTION_SLOTS, BLUE_AREA, BLUE_BONUS, BLUE_POINTS,
                                            DIE_AREA, FLAG_BLUE_Q_ANY, FLAG_EARLIEST_FIRST,
                                            FLAG_FOX_FLOOR_ZERO, FLAG_FOX_ZERO_AREA,
                                            FLAG_KEEP_OVERFLOW, FOX, GREEN_AREA, GREEN_BONUS,
                                            GREEN_MULTIPLIER, H_GAME, N_AREAS, PINK_AREA,
                                            PINK_BONUS, PINK_MIN, PLUS_ONE, Q_ANY, Q_BLUE, Q_GREEN,
                                            Q_OF_AREA, Q_PINK, Q_SILVER, Q_YELLOW, REROLL, RETURN,
                                            S_BLUE, S_BLUE_VALUES, S_BONUSES, S_FLAGS, S_FOXES,
                                            S_GREEN, S_GREEN_VALUES, S_LOST, S_PINK, S_PINK_VALUES,
                                            S_PLUS_GOT, S_REROLL_GOT, S_RETURN_GOT, S_ROUNDS,
                                            S_SILVER, S_YELLOW_CIRCLED, S_YELLOW_CROSSED, SILVER,
                                            SILVER_AREA, SILVER_COLUMN_BONUS, SILVER_POINTS,
                                            SILVER_ROW_OF_DIE, SILVER_ROWS, TAC, TRACK, WHITE,
                                            YELLOW_AREA, YELLOW_CELLS, YELLOW_GROUP_BONUS,
                                            YELLOW_GROUPS, YELLOW_POINTS, YELLOW_VALUES)

MAX_PENDING = 32
NO_TOTAL = -(1 << 40)  # below any total score
ALL_SILVER = (1 << (6 * SILVER_ROWS)) - 1
ALL_YELLOW = (1 << YELLOW_CELLS) - 1
# scores by bit mask (int64[64]: one silver row's marks; int64[1024]: the crossed yellow cells)
SILVER_ROW_SCORE = np.array([SILVER_POINTS[bin(m).count("1")] for m in range(64)], np.int64)
YELLOW_SCORE = np.array([YELLOW_POINTS[bin(m).count("1")] for m in range(1 << YELLOW_CELLS)],
                        np.int64)


@njit(cache=True, _nrt=False)
def silver_rows(sheet, value):
    """Bit mask of the silver rows (0-3) where ``value`` (1-6) is still open."""
    rows = 0
    for r in range(SILVER_ROWS):
        if not (sheet[S_SILVER] >> (6 * r + value - 1)) & 1:
            rows |= 1 << r
    return rows


@njit(cache=True, _nrt=False)
def yellow_cells(sheet, value):
    """Bit mask of the yellow cells a die of ``value`` may mark: uncircled cells showing it
    (to circle) and circled, uncrossed ones (to cross)."""
    cells = 0
    for c in range(YELLOW_CELLS):
        if YELLOW_VALUES[c] == value and not (sheet[S_YELLOW_CROSSED] >> c) & 1:
            cells |= 1 << c
    return cells


@njit(cache=True, _nrt=False)
def can_enter(sheet, area, value):
    """Can ``value`` (a face; the blue + white sum for blue) be entered in ``area``?"""
    if area == SILVER_AREA:
        return silver_rows(sheet, value) != 0
    if area == YELLOW_AREA:
        return yellow_cells(sheet, value) != 0
    if area == BLUE_AREA:
        n = sheet[S_BLUE]
        return n < TRACK and (n == 0 or value <= sheet[S_BLUE_VALUES + n - 1])
    if area == GREEN_AREA:
        return sheet[S_GREEN] < TRACK
    return sheet[S_PINK] < TRACK


@njit(cache=True, _nrt=False)
def mark_silver(sheet, cell, pending, n):
    """Mark silver ``cell`` (row * 6 + value - 1, must be open); a number marked in all
    four rows pays its column bonus."""
    sheet[S_SILVER] |= 1 << cell
    value = cell % 6 + 1
    if silver_rows(sheet, value) == 0:
        n = push(pending, n, SILVER_COLUMN_BONUS[value - 1])
    return n


@njit(cache=True, _nrt=False)
def mark_yellow(sheet, cell, pending, n):
    """Circle yellow ``cell``, or cross it if it is circled already (must not be crossed);
    a row or column with every cell circled pays its bonus once."""
    before = sheet[S_YELLOW_CIRCLED]
    if (before >> cell) & 1:
        sheet[S_YELLOW_CROSSED] |= 1 << cell
        return n
    after = before | (1 << cell)
    sheet[S_YELLOW_CIRCLED] = after
    for g in range(YELLOW_GROUPS.shape[0]):
        group = YELLOW_GROUPS[g]
        if (after & group) == group and (before & group) != group:
            n = push(pending, n, YELLOW_GROUP_BONUS[g])
    return n


@njit(cache=True, _nrt=False)
def write_track(sheet, area, value, pending, n):
    """Fill the next blue, green or pink slot (``can_enter`` must hold; bonuses skip the
    checks where the rules say so). Green writes ``value`` times the slot's multiplier;
    pink pays its bonus only for a value at least the slot's minimum."""
    if area == BLUE_AREA:
        slot = sheet[S_BLUE]
        sheet[S_BLUE_VALUES + slot] = value
        sheet[S_BLUE] += 1
        return push(pending, n, BLUE_BONUS[slot])
    if area == GREEN_AREA:
        slot = sheet[S_GREEN]
        sheet[S_GREEN_VALUES + slot] = value * GREEN_MULTIPLIER[slot]
        sheet[S_GREEN] += 1
        return push(pending, n, GREEN_BONUS[slot])
    slot = sheet[S_PINK]
    sheet[S_PINK_VALUES + slot] = value
    sheet[S_PINK] += 1
    return push(pending, n, PINK_BONUS[slot] if value >= PINK_MIN[slot] else 0)


@njit(cache=True, _nrt=False)
def enter(sheet, area, value, target, pending, n):
    """Enter a die in ``area`` (``can_enter`` must hold). Silver needs the row as
    ``target``, yellow the cell; tracks ignore it. Returns the stack size."""
    if area == SILVER_AREA:
        return mark_silver(sheet, 6 * target + value - 1, pending, n)
    if area == YELLOW_AREA:
        return mark_yellow(sheet, target, pending, n)
    return write_track(sheet, area, value, pending, n)


@njit(cache=True, _nrt=False)
def bonus_choices(sheet, code):
    """Where a "?" may go, as a bit mask: silver cells, yellow cells (circle or cross),
    blue sums (bit sum - 2), green or pink faces (bit face - 1), or for the black ? the
    areas whose ? could be used (bit area). -1 for bonuses with no choice; 0: it is lost."""
    if code == Q_SILVER:
        return ~sheet[S_SILVER] & ALL_SILVER
    if code == Q_YELLOW:
        return ~sheet[S_YELLOW_CROSSED] & ALL_YELLOW
    if code == Q_BLUE:
        n = sheet[S_BLUE]
        if n >= TRACK:
            return 0
        top = 12 if n == 0 or sheet[S_FLAGS] & FLAG_BLUE_Q_ANY else \
            sheet[S_BLUE_VALUES + n - 1]
        return (1 << (top - 1)) - 1  # sums 2..top
    if code == Q_GREEN:
        return 0b111111 if sheet[S_GREEN] < TRACK else 0
    if code == Q_PINK:
        return 0b111111 if sheet[S_PINK] < TRACK else 0
    if code == Q_ANY:
        areas = 0
        for area in range(N_AREAS):
            if bonus_choices(sheet, Q_OF_AREA[area]) > 0:
                areas |= 1 << area
        return areas
    return -1


@njit(cache=True, _nrt=False)
def _unlock(sheet, got, last_bonus, pending, n):
    """Circle the next circle of an action track; the 6th pays the track's bonus. Beyond
    the 6th the unlock is lost unless ``FLAG_KEEP_OVERFLOW``."""
    if sheet[got] < ACTION_SLOTS or sheet[S_FLAGS] & FLAG_KEEP_OVERFLOW:
        sheet[got] += 1
        if sheet[got] == ACTION_SLOTS:
            n = push(pending, n, last_bonus)
    else:
        sheet[S_LOST] += 1
    return n


@njit(cache=True, _nrt=False)
def resolve_bonus(sheet, code, choice, pending, n):
    """Pay bonus ``code``: unlock an action (re-roll track's 6th circle: fox; return's:
    pink ?; +1's: silver ?), add a fox, or make a "?" mark at ``choice`` (one of
    ``bonus_choices``: the silver cell, yellow cell, blue sum, green or pink face; for the
    black ? the area, whose ? is pushed). A "?" with no legal place is lost. Returns the
    stack size."""
    sheet[S_BONUSES + code] += 1
    if code == REROLL:
        return _unlock(sheet, np.int64(S_REROLL_GOT), np.int64(FOX), pending, n)
    if code == RETURN:
        return _unlock(sheet, np.int64(S_RETURN_GOT), np.int64(Q_PINK), pending, n)
    if code == PLUS_ONE:
        return _unlock(sheet, np.int64(S_PLUS_GOT), np.int64(Q_SILVER), pending, n)
    if code == FOX:
        sheet[S_FOXES] += 1
        return n
    if bonus_choices(sheet, code) == 0:
        sheet[S_LOST] += 1
        return n
    if code == Q_ANY:
        return push(pending, n, Q_OF_AREA[choice])
    if code == Q_SILVER:
        return mark_silver(sheet, choice, pending, n)
    if code == Q_YELLOW:
        return mark_yellow(sheet, choice, pending, n)
    if code == Q_BLUE:
        return write_track(sheet, np.int64(BLUE_AREA), choice, pending, n)
    return write_track(sheet, GREEN_AREA if code == Q_GREEN else PINK_AREA, choice,
                       pending, n)


@njit(cache=True, _nrt=False)
def pop_pending(sheet, pending, n):
    """The next of ``n`` pending bonuses to resolve (latest first, or earliest first with
    ``FLAG_EARLIEST_FIRST``); the caller's stack then holds n - 1."""
    return pop(pending, n, sheet[S_FLAGS] & FLAG_EARLIEST_FIRST)


@njit(cache=True, _nrt=False)
def area_score(sheet, area):
    """The score of one area (section 8); green may be negative."""
    if area == SILVER_AREA:
        silver = sheet[S_SILVER]
        return SILVER_ROW_SCORE[silver & 63] + SILVER_ROW_SCORE[(silver >> 6) & 63] + \
            SILVER_ROW_SCORE[(silver >> 12) & 63] + SILVER_ROW_SCORE[(silver >> 18) & 63]
    if area == YELLOW_AREA:
        return YELLOW_SCORE[sheet[S_YELLOW_CROSSED]]
    if area == BLUE_AREA:
        return BLUE_POINTS[sheet[S_BLUE]]
    if area == GREEN_AREA:
        total = 0
        for pair in range(sheet[S_GREEN] // 2):
            total += sheet[S_GREEN_VALUES + 2 * pair] - sheet[S_GREEN_VALUES + 2 * pair + 1]
        return total
    total = 0
    for i in range(sheet[S_PINK]):
        total += sheet[S_PINK_VALUES + i]
    return total


@njit(cache=True, _nrt=False)
def area_scores(sheet, out):
    """Fill ``out`` (int64[5]) with the silver, yellow, blue, green and pink scores."""
    for area in range(N_AREAS):
        out[area] = area_score(sheet, area)


@njit(cache=True, _nrt=False, inline="always")
def fox_worth(sheet, lowest, zero_area):
    """What each fox is worth (section 7), given the ``lowest`` area score and whether an
    area scores exactly 0: the lowest score, negative included; 0 when an area scores 0
    (``FLAG_FOX_ZERO_AREA``, the rulebook), or when the lowest is negative
    (``FLAG_FOX_FLOOR_ZERO``); the fixed points of ``fox_value`` (12.12) whatever the
    areas score."""
    fixed = fixed_fox(sheet)
    if fixed > 0:
        return fixed
    if zero_area and sheet[S_FLAGS] & FLAG_FOX_ZERO_AREA:
        return np.int64(0)
    if lowest < 0 and sheet[S_FLAGS] & FLAG_FOX_FLOOR_ZERO:
        return np.int64(0)
    return lowest


@njit(cache=True, _nrt=False)
def total_score(sheet):
    """Final score (section 7): the five areas plus the foxes (``fox_worth`` each)."""
    total, lowest, zero = 0, np.int64(1 << 30), np.bool_(False)
    for area in range(N_AREAS):
        a = area_score(sheet, area)
        total += a
        lowest = min(lowest, a)
        zero = zero or a == 0
    return total + sheet[S_FOXES] * fox_worth(sheet, lowest, zero)


@njit(cache=True, _nrt=False)
def _area_after(sheet, area, value, cell):
    """The score ``area`` would have after a mark there (the silver or yellow ``cell``, or a
    track ``value`` in the next slot), the sheet left unchanged."""
    if area == SILVER_AREA:
        silver = sheet[S_SILVER] | (1 << cell)
        return SILVER_ROW_SCORE[silver & 63] + SILVER_ROW_SCORE[(silver >> 6) & 63] + \
            SILVER_ROW_SCORE[(silver >> 12) & 63] + SILVER_ROW_SCORE[(silver >> 18) & 63]
    if area == YELLOW_AREA:
        crossed = sheet[S_YELLOW_CROSSED]
        if (sheet[S_YELLOW_CIRCLED] >> cell) & 1:
            crossed |= 1 << cell
        return YELLOW_SCORE[crossed]
    if area == BLUE_AREA:
        return BLUE_POINTS[sheet[S_BLUE] + 1]
    if area == GREEN_AREA:
        slot = sheet[S_GREEN]
        total = area_score(sheet, np.int64(GREEN_AREA))
        if slot % 2 == 1:  # the value completes a pair
            total += sheet[S_GREEN_VALUES + slot - 1] - value * GREEN_MULTIPLIER[slot]
        return total
    return area_score(sheet, np.int64(PINK_AREA)) + value


@njit(cache=True, _nrt=False)
def _total_with(sheet, scores, area, score):
    """``total_score`` of the sheet whose area scores are ``scores`` (int64[5]) but with
    ``score`` for ``area``."""
    total, lowest, zero = parts_with(scores, area, score)
    return total + sheet[S_FOXES] * fox_worth(sheet, lowest, zero)


@njit(cache=True, _nrt=False)
def mark_total(sheet, scores, code, choice):
    """``total_score`` after ``resolve_bonus(code, choice)`` of a coloured "?" (``choice``
    one of its ``bonus_choices``), its own bonuses unresolved; ``scores``: int64[5] the
    sheet's ``area_scores``. The sheet is left unchanged."""
    if code == Q_SILVER:
        area, value, cell = np.int64(SILVER_AREA), np.int64(0), choice
    elif code == Q_YELLOW:
        area, value, cell = np.int64(YELLOW_AREA), np.int64(0), choice
    else:
        area = BLUE_AREA if code == Q_BLUE else (GREEN_AREA if code == Q_GREEN else PINK_AREA)
        value, cell = choice, np.int64(0)
    return _total_with(sheet, scores, area, _area_after(sheet, area, value, cell))


@njit(cache=True, _nrt=False)
def enter_total(sheet, scores, area, value, target):
    """``total_score`` after ``enter(area, value, target)``, its bonuses unresolved;
    ``scores``: int64[5] the sheet's ``area_scores``. The sheet is left unchanged."""
    cell = 6 * target + value - 1 if area == SILVER_AREA else target
    return _total_with(sheet, scores, area, _area_after(sheet, area, value, cell))


@njit(cache=True, _nrt=False)
def best_enter_total(sheet, scores, faces, die):
    """The most ``enter_total`` of any legal use of ``die`` (a row of ``die_uses``), or
    ``NO_TOTAL`` when it has none; ``scores``: int64[5] the sheet's ``area_scores``.
    Walks the uses as ``die_uses`` does, without a move list (greedy returns call it for
    every face of every platter die): keep the two in step (test_clever_greedy_totals)."""
    best = np.int64(NO_TOTAL)
    for area in range(N_AREAS):
        if not enters(die, area, DIE_AREA):
            continue
        value = die_value(faces, die, area, np.int64(BLUE_AREA))
        # the total is not monotone in an area's score (an area leaving 0 may make the
        # foxes count a negative lowest area), so every distinct outcome is totalled
        if area == SILVER_AREA:
            rows = silver_rows(sheet, value)
            for r in range(SILVER_ROWS):
                if (rows >> r) & 1:
                    best = max(best, _total_with(sheet, scores, area, _area_after(
                        sheet, area, value, 6 * r + value - 1)))
        elif area == YELLOW_AREA:
            cells = yellow_cells(sheet, value)
            if cells & ~sheet[S_YELLOW_CIRCLED]:  # circling scores nothing
                best = max(best, _total_with(sheet, scores, area, scores[area]))
            crossable = cells & sheet[S_YELLOW_CIRCLED]
            if crossable:  # crossing any one scores the same
                best = max(best, _total_with(sheet, scores, area, YELLOW_SCORE[
                    sheet[S_YELLOW_CROSSED] | (crossable & -crossable)]))
        elif can_enter(sheet, area, value):
            best = max(best, _total_with(sheet, scores, area,
                                         _area_after(sheet, area, value, np.int64(0))))
    return best


@njit(cache=True, _nrt=False)
def enter_fires(sheet, area, value, target):
    """Would ``enter(area, value, target)`` push a bonus? (The sheet is left unchanged.)"""
    if area == SILVER_AREA:  # the last open cell of the value's column
        return silver_rows(sheet, value) == 1 << target
    if area == YELLOW_AREA:
        before = sheet[S_YELLOW_CIRCLED]
        if (before >> target) & 1:
            return False  # a cross fires nothing
        after = before | (1 << target)
        for g in range(YELLOW_GROUPS.shape[0]):
            group = YELLOW_GROUPS[g]
            if (after & group) == group and (before & group) != group:
                return True
        return False
    if area == BLUE_AREA:
        return BLUE_BONUS[sheet[S_BLUE]] != 0
    if area == GREEN_AREA:
        return GREEN_BONUS[sheet[S_GREEN]] != 0
    slot = sheet[S_PINK]
    return PINK_BONUS[slot] != 0 and value >= PINK_MIN[slot]


# --- the sheet interface of the shared Clever turn engine (kernels.clever.sheets) ----------

@njit(cache=True, _nrt=False)
def die_uses(sheet, faces, die, moves, n):
    """Append every legal use of ``die`` as rows ``(die, area, target)`` of ``moves``
    (int64[k, 3]) from row ``n``; ``target``: the silver row, the yellow cell, else -1.
    Returns the new row count."""
    for area in range(N_AREAS):
        if not enters(die, area, DIE_AREA):
            continue
        value = die_value(faces, die, area, np.int64(BLUE_AREA))
        if not can_enter(sheet, area, value):
            continue
        if area == SILVER_AREA or area == YELLOW_AREA:
            targets = silver_rows(sheet, value) if area == SILVER_AREA else \
                yellow_cells(sheet, value)
            for t in range(YELLOW_CELLS):
                if (targets >> t) & 1:
                    moves[n, 0], moves[n, 1], moves[n, 2] = die, area, t
                    n += 1
        else:
            moves[n, 0], moves[n, 1], moves[n, 2] = die, area, -1
            n += 1
    return n


@njit(cache=True, _nrt=False)
def chain_rows(sheet, faces, picked, die):
    """Section 8.1, the platter chain: the silver rows (bit mask) where ``die``, sent to the
    platter by a pick of ``picked`` into silver, may be marked at its face: a coloured die
    in its own row, the white die (or the silver die when white was the pick) in any."""
    rows = silver_rows(sheet, faces[die])
    if die == WHITE or (die == SILVER and picked == WHITE):
        return rows
    own = SILVER_ROW_OF_DIE[die]
    return rows & (1 << own) if own >= 0 else 0


@njit(cache=True, _nrt=False)
def choice_of_bit(code, bit):
    """The ``resolve_bonus`` choice of bit ``bit`` of ``bonus_choices``: a blue sum is
    bit + 2, a green or pink face bit + 1, else the bit (cell or area)."""
    if code == Q_BLUE:
        return bit + 2
    if code == Q_GREEN or code == Q_PINK:
        return bit + 1
    return bit


@njit(cache=True, _nrt=False)
def start_sheet(sheet, rounds, flags):
    """A blank sheet for a game of ``rounds`` rounds."""
    sheet[:] = 0
    sheet[H_GAME] = TAC
    sheet[S_ROUNDS] = rounds
    sheet[S_FLAGS] = flags
