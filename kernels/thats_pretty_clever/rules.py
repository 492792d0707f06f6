"""That's Pretty Clever rules on the flat sheet (rules page sections 8-12): where a die
may go, marking it, the bonuses a mark triggers (pushed on a pending stack, so chains and
the order of simultaneous bonuses stay the policy's choice), and end scoring. Pure: no dice.

``pending``: int64[MAX_PENDING] stack of bonus codes; functions that mark return the new
stack size.
"""

import numpy as np

from kernels.clever_base.dice import die_value, enters
from kernels.clever_base.pending import pop, push
from kernels.clever_base.totals import fixed_fox, parts_with
from kernels.jit import njit
from kernels.thats_pretty_clever.layout import (ACTION_SLOTS, BLUE_AREA, BLUE_CELLS, BLUE_COL_BONUS,
                                                BLUE_COLS, BLUE_POINTS, BLUE_ROW_BONUS, BLUE_ROWS,
                                                CROSS_BLUE, CROSS_GREEN, CROSS_YELLOW,
                                                FLAG_EARLIEST_FIRST, FLAG_KEEP_OVERFLOW, FOX,
                                                GREEN_AREA, GREEN_BONUS, GREEN_MIN, GREEN_POINTS,
                                                N_AREAS, ORANGE_AREA, ORANGE_BONUS,
                                                ORANGE_MULTIPLIER, PLUS_ONE, PURPLE_AREA,
                                                PURPLE_BONUS, REROLL, S_BLUE, S_BONUSES, S_FLAGS,
                                                S_FOXES, S_GREEN, S_LOST, S_ORANGE, S_ORANGE_VALUES,
                                                S_PLUS_GOT, S_PURPLE, S_PURPLE_VALUES, S_REROLL_GOT,
                                                S_ROUNDS, S_YELLOW, TRACK, WRITE_ORANGE,
                                                WRITE_PURPLE, YELLOW_AREA, YELLOW_COL_POINTS,
                                                YELLOW_COLS, YELLOW_DIAGONAL, YELLOW_DIAGONAL_BONUS,
                                                YELLOW_PREPRINTED, YELLOW_ROW_BONUS, YELLOW_ROWS,
                                                YELLOW_VALUES)

MAX_PENDING = 32
NO_TOTAL = -(1 << 40)  # below any total score
# the blue score by bit mask of crossed sums (int64[2048])
BLUE_SCORE = np.array([BLUE_POINTS[bin(m).count("1")] for m in range(BLUE_CELLS + 1)],
                      np.int64)


@njit(cache=True, _nrt=False)
def yellow_cells(sheet, value):
    """Bit mask of the open yellow cells showing ``value`` (two per value, 0 if both are
    marked)."""
    mask = 0
    for i in range(16):
        if YELLOW_VALUES[i] == value and not (sheet[S_YELLOW] >> i) & 1:
            mask |= 1 << i
    return mask


@njit(cache=True, _nrt=False)
def can_enter(sheet, area, value):
    """Whether a die of ``value`` (blue: the blue + white sum) can be entered in ``area``."""
    if area == YELLOW_AREA:
        return yellow_cells(sheet, value) != 0
    if area == BLUE_AREA:
        return 2 <= value <= 12 and not (sheet[S_BLUE] >> (value - 2)) & 1
    if area == GREEN_AREA:
        return sheet[S_GREEN] < TRACK and value >= GREEN_MIN[sheet[S_GREEN]]
    if area == ORANGE_AREA:
        return sheet[S_ORANGE] < TRACK
    if area == PURPLE_AREA:
        n = sheet[S_PURPLE]
        if n >= TRACK:
            return False
        last = sheet[S_PURPLE_VALUES + n - 1] if n > 0 else 0
        return n == 0 or last == 6 or value > last
    return False


_push = push


@njit(cache=True, _nrt=False)
def _completed(before, after, groups, bonuses, pending, n):
    for g in range(groups.shape[0]):
        if (after & groups[g]) == groups[g] and (before & groups[g]) != groups[g]:
            n = _push(pending, n, bonuses[g])
    return n


@njit(cache=True, _nrt=False)
def mark_yellow(sheet, cell, pending, n):
    """Cross yellow ``cell`` (0..15, must be open); completed rows and the diagonal push
    their bonuses."""
    before = sheet[S_YELLOW]
    after = before | (1 << cell)
    sheet[S_YELLOW] = after
    n = _completed(before, after, YELLOW_ROWS, YELLOW_ROW_BONUS, pending, n)
    if (after & YELLOW_DIAGONAL) == YELLOW_DIAGONAL and (before & YELLOW_DIAGONAL) != \
            YELLOW_DIAGONAL:
        n = _push(pending, n, np.int64(YELLOW_DIAGONAL_BONUS))
    return n


@njit(cache=True, _nrt=False)
def mark_blue(sheet, total, pending, n):
    """Cross the blue cell of ``total`` (2..12, must be open); completed rows and columns
    push their bonuses."""
    before = sheet[S_BLUE]
    after = before | (1 << (total - 2))
    sheet[S_BLUE] = after
    n = _completed(before, after, BLUE_ROWS, BLUE_ROW_BONUS, pending, n)
    return _completed(before, after, BLUE_COLS, BLUE_COL_BONUS, pending, n)


@njit(cache=True, _nrt=False)
def write_track(sheet, area, value, pending, n):
    """Fill the next green, orange or purple slot with ``value`` (no checks: callers use
    ``can_enter``, bonuses skip the green threshold and the purple order); its bonus is
    pushed."""
    if area == GREEN_AREA:
        slot = sheet[S_GREEN]
        sheet[S_GREEN] += 1
        return _push(pending, n, GREEN_BONUS[slot])
    if area == ORANGE_AREA:
        slot = sheet[S_ORANGE]
        sheet[S_ORANGE_VALUES + slot] = value * ORANGE_MULTIPLIER[slot]
        sheet[S_ORANGE] += 1
        return _push(pending, n, ORANGE_BONUS[slot])
    slot = sheet[S_PURPLE]
    sheet[S_PURPLE_VALUES + slot] = value
    sheet[S_PURPLE] += 1
    return _push(pending, n, PURPLE_BONUS[slot])


@njit(cache=True, _nrt=False)
def enter(sheet, area, value, cell, pending, n):
    """Enter a die in ``area`` (``can_enter`` must hold). Yellow needs the ``cell``
    (one of ``yellow_cells``); blue takes the sum as ``value``. Returns the stack size."""
    if area == YELLOW_AREA:
        return mark_yellow(sheet, cell, pending, n)
    if area == BLUE_AREA:
        return mark_blue(sheet, value, pending, n)
    return write_track(sheet, area, value, pending, n)


@njit(cache=True, _nrt=False)
def bonus_choices(sheet, code):
    """Where a free-mark bonus may go: a bit mask of open yellow cells (yellow X) or of
    open blue sums (blue X); -1 for bonuses with no choice; 0 when it would be lost."""
    kind = code // 8
    if kind == CROSS_YELLOW:
        return ~sheet[S_YELLOW] & 0xFFFF
    if kind == CROSS_BLUE:
        return ~sheet[S_BLUE] & BLUE_CELLS
    return -1


@njit(cache=True, _nrt=False)
def pop_pending(sheet, pending, n):
    """The next of ``n`` pending bonuses to resolve (the caller's stack then holds n - 1):
    the latest triggered (depth-first), or with ``FLAG_EARLIEST_FIRST`` the earliest
    (breadth-first: a queue)."""
    return pop(pending, n, sheet[S_FLAGS] & FLAG_EARLIEST_FIRST)


@njit(cache=True, _nrt=False)
def _unlock(sheet, got):
    if sheet[got] < ACTION_SLOTS or sheet[S_FLAGS] & FLAG_KEEP_OVERFLOW:
        sheet[got] += 1
    else:
        sheet[S_LOST] += 1


@njit(cache=True, _nrt=False)
def resolve_bonus(sheet, code, choice, pending, n):
    """Pay bonus ``code``: unlock an action (at most 7 circles a track, more are lost
unless ``FLAG_KEEP_OVERFLOW``),
    add a fox, or make its mark (``choice``: the yellow cell or blue sum of a free X;
    ignored otherwise). A mark with no legal place left is lost. Returns the stack size."""
    kind, value = code // 8, code % 8
    sheet[S_BONUSES + kind] += 1
    if kind == REROLL:
        _unlock(sheet, np.int64(S_REROLL_GOT))
    elif kind == PLUS_ONE:
        _unlock(sheet, np.int64(S_PLUS_GOT))
    elif kind == FOX:
        sheet[S_FOXES] += 1
    elif kind == CROSS_YELLOW or kind == CROSS_BLUE:
        options = bonus_choices(sheet, code)
        if options == 0:
            sheet[S_LOST] += 1
        elif kind == CROSS_YELLOW:
            n = mark_yellow(sheet, choice, pending, n)
        else:
            n = mark_blue(sheet, choice, pending, n)
    elif kind == CROSS_GREEN or kind == WRITE_ORANGE or kind == WRITE_PURPLE:
        area = GREEN_AREA if kind == CROSS_GREEN else (
            ORANGE_AREA if kind == WRITE_ORANGE else PURPLE_AREA)
        count = sheet[S_GREEN + area - GREEN_AREA]
        if count >= TRACK:
            sheet[S_LOST] += 1
        else:
            n = write_track(sheet, area, value, pending, n)
    return n


@njit(cache=True, _nrt=False)
def area_score(sheet, area):
    """The score of one area (section 12)."""
    if area == YELLOW_AREA:
        y = 0
        for c in range(4):
            if (sheet[S_YELLOW] & YELLOW_COLS[c]) == YELLOW_COLS[c]:
                y += YELLOW_COL_POINTS[c]
        return y
    if area == BLUE_AREA:
        return BLUE_SCORE[sheet[S_BLUE] & BLUE_CELLS]
    if area == GREEN_AREA:
        return GREEN_POINTS[sheet[S_GREEN]]
    start = S_ORANGE_VALUES if area == ORANGE_AREA else S_PURPLE_VALUES
    total = 0
    for i in range(TRACK):
        total += sheet[start + i]
    return total


@njit(cache=True, _nrt=False)
def area_scores(sheet, out):
    """Fill ``out`` (int64[5]) with the yellow, blue, green, orange and purple scores."""
    for area in range(N_AREAS):
        out[area] = area_score(sheet, area)


@njit(cache=True, _nrt=False)
def score_parts(sheet):
    """``(sum of the five areas, lowest area)`` without allocating."""
    total, lowest = 0, 1 << 30
    for area in range(N_AREAS):
        a = area_score(sheet, area)
        total += a
        lowest = min(lowest, a)
    return total, lowest


@njit(cache=True, _nrt=False, inline="always")
def fox_worth(sheet, lowest):
    """What each fox is worth (section 12), given the ``lowest`` area score: that score (0
    when an area scores 0), or the fixed points of ``fox_value`` (14.11)."""
    fixed = fixed_fox(sheet)
    return fixed if fixed > 0 else lowest


@njit(cache=True, _nrt=False)
def total_score(sheet):
    """Final score: the five areas plus the foxes (``fox_worth`` each)."""
    total, lowest = score_parts(sheet)
    return total + sheet[S_FOXES] * fox_worth(sheet, lowest)


@njit(cache=True, _nrt=False)
def _area_after(sheet, area, value, cell):
    """The score ``area`` would have after a mark there (the yellow ``cell``, the blue sum
    ``value``, or a track ``value`` in the next slot), the sheet left unchanged."""
    if area == YELLOW_AREA:
        yellow = sheet[S_YELLOW] | (1 << cell)
        y = 0
        for c in range(4):
            if (yellow & YELLOW_COLS[c]) == YELLOW_COLS[c]:
                y += YELLOW_COL_POINTS[c]
        return y
    if area == BLUE_AREA:
        return BLUE_SCORE[(sheet[S_BLUE] | (1 << (value - 2))) & BLUE_CELLS]
    if area == GREEN_AREA:
        return GREEN_POINTS[sheet[S_GREEN] + 1]
    if area == ORANGE_AREA:
        return area_score(sheet, np.int64(ORANGE_AREA)) + value * ORANGE_MULTIPLIER[sheet[S_ORANGE]]
    return area_score(sheet, np.int64(PURPLE_AREA)) + value


@njit(cache=True, _nrt=False)
def _total_with(sheet, scores, area, score):
    """``total_score`` of the sheet whose area scores are ``scores`` (int64[5]) but with
    ``score`` for ``area``."""
    total, lowest, _ = parts_with(scores, area, score)
    return total + sheet[S_FOXES] * fox_worth(sheet, lowest)


@njit(cache=True, _nrt=False)
def mark_total(sheet, scores, code, choice):
    """``total_score`` after ``resolve_bonus(code, choice)`` of a free X (``choice`` one of
    its ``bonus_choices``: the yellow cell or blue sum), its own bonuses unresolved;
    ``scores``: int64[5] the sheet's ``area_scores``. The sheet is left unchanged."""
    yellow, blue, zero = np.int64(YELLOW_AREA), np.int64(BLUE_AREA), np.int64(0)
    if code // 8 == CROSS_YELLOW:
        return _total_with(sheet, scores, yellow, _area_after(sheet, yellow, zero, choice))
    return _total_with(sheet, scores, blue, _area_after(sheet, blue, choice, zero))


@njit(cache=True, _nrt=False)
def enter_total(sheet, scores, area, value, target):
    """``total_score`` after ``enter(area, value, target)``, its bonuses unresolved;
    ``scores``: int64[5] the sheet's ``area_scores``. The sheet is left unchanged."""
    return _total_with(sheet, scores, area, _area_after(sheet, area, value, target))


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
        if not can_enter(sheet, area, value):
            continue
        if area == YELLOW_AREA:
            cells = yellow_cells(sheet, value)
            for c in range(16):
                if (cells >> c) & 1:
                    best = max(best, enter_total(sheet, scores, area, value, c))
        else:
            best = max(best, enter_total(sheet, scores, area, value, value))
    return best


@njit(cache=True, _nrt=False)
def _completes(before, after, groups):
    for g in range(groups.shape[0]):
        if (after & groups[g]) == groups[g] and (before & groups[g]) != groups[g]:
            return True
    return False


@njit(cache=True, _nrt=False)
def enter_fires(sheet, area, value, target):
    """Would ``enter(area, value, target)`` push a bonus? (The sheet is left unchanged.)"""
    if area == YELLOW_AREA:
        before = sheet[S_YELLOW]
        after = before | (1 << target)
        return _completes(before, after, YELLOW_ROWS) or (
            (after & YELLOW_DIAGONAL) == YELLOW_DIAGONAL and
            (before & YELLOW_DIAGONAL) != YELLOW_DIAGONAL)
    if area == BLUE_AREA:
        before = sheet[S_BLUE]
        after = before | (1 << (value - 2))
        return _completes(before, after, BLUE_ROWS) or _completes(before, after, BLUE_COLS)
    if area == GREEN_AREA:
        return GREEN_BONUS[sheet[S_GREEN]] != 0
    if area == ORANGE_AREA:
        return ORANGE_BONUS[sheet[S_ORANGE]] != 0
    return PURPLE_BONUS[sheet[S_PURPLE]] != 0


# --- the sheet interface of the shared Clever turn engine (kernels.clever.sheets) ----------

DIE_AREA = np.array([-1, YELLOW_AREA, BLUE_AREA, GREEN_AREA, ORANGE_AREA, PURPLE_AREA],
                    np.int64)  # die colour -> its own area (white, -1, is wild)


@njit(cache=True, _nrt=False)
def die_uses(sheet, faces, die, moves, n):
    """Append every legal use of ``die`` as rows ``(die, area, target)`` of ``moves``
    (int64[k, 3]) from row ``n``; ``target``: the yellow cell, the blue sum, else -1.
    Returns the new row count."""
    for area in range(N_AREAS):
        if not enters(die, area, DIE_AREA):
            continue
        value = die_value(faces, die, area, np.int64(BLUE_AREA))
        if not can_enter(sheet, area, value):
            continue
        if area == YELLOW_AREA:
            cells = yellow_cells(sheet, value)
            for c in range(16):
                if (cells >> c) & 1:
                    moves[n, 0], moves[n, 1], moves[n, 2] = die, area, c
                    n += 1
        else:
            moves[n, 0], moves[n, 1], moves[n, 2] = die, area, value if area == BLUE_AREA \
                else -1
            n += 1
    return n


@njit(cache=True, _nrt=False)
def choice_of_bit(code, bit):
    """The ``resolve_bonus`` choice of bit ``bit`` of ``bonus_choices`` (blue: sum - 2)."""
    return bit + 2 if code // 8 == CROSS_BLUE else bit


@njit(cache=True, _nrt=False)
def start_sheet(sheet, rounds, flags):
    """A blank sheet (pre-printed yellow crosses) for a game of ``rounds`` rounds."""
    sheet[:] = 0
    sheet[S_YELLOW] = YELLOW_PREPRINTED
    sheet[S_ROUNDS] = rounds
    sheet[S_FLAGS] = flags
