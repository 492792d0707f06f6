"""Helpers shared by the games' block loops: seat rotation, the paired (what-if)
accumulators and the comeback record."""

from kernels.jit import njit


@njit(cache=True, _nrt=False)
def add_products(out, x):
    """Add one game's metrics ``x`` (int64[V, M], V variants) to ``out`` (int64[V + 1, V, M]):
    row 0 gets the sums, row 1 + v the products of variant v's metrics with every variant's,
    from which paired differences and their standard errors follow."""
    n_var, n_metrics = x.shape
    for v in range(n_var):
        for k in range(n_metrics):
            out[0, v, k] += x[v, k]
            for w in range(n_var):
                out[1 + v, w, k] += x[v, k] * x[w, k]


@njit(cache=True, _nrt=False)
def put_seat_wins(row, start, wins):
    """Write each seat's win units ``wins`` (int64[n]) to ``row[start:]`` (int64[M]), as
    far as ``row`` reaches: a what-if's per-seat win metrics, after its own."""
    for s in range(min(wins.shape[0], row.shape[0] - start)):
        row[start + s] = wins[s]


@njit(cache=True, _nrt=False, inline="always")
def seat_lineup(lineup, game, first, rotate, seated, slot_of, width=-1):
    """Seat the lineup for game ``game``: with ``rotate`` the slots move one seat a game, so
    each policy plays every seat equally often. ``lineup``, ``seated``: [n, k] policy rows;
    ``slot_of``: int64[n], filled with the lineup slot of each seat. The play loops call it
    for games ``first``, ``first + 1``, ... of a block with the same ``seated`` and
    ``slot_of``, so a seating that never changes (no rotation, or one player) is copied
    once, at game ``first``, and with ``width`` >= 0 only the rows' first ``width`` numbers
    (``used_width``): policy rows can be long (the Clever value policy's networks)."""
    n = lineup.shape[0]
    if game > first and (not rotate or n == 1):
        return
    shift = game % n if rotate else 0
    if width < 0:
        width = lineup.shape[1]
    for seat in range(n):
        slot_of[seat] = (seat + shift) % n
        for k in range(width):  # element by element: no shape check to compile
            seated[seat, k] = lineup[slot_of[seat], k]


@njit(cache=True, _nrt=False)
def used_width(lineup):
    """How many leading numbers of the policy rows ``lineup`` ([n, k]) are used: the rest
    of every row is zero."""
    width = 0
    for p in range(lineup.shape[0]):
        for k in range(lineup.shape[1] - 1, width - 1, -1):
            if lineup[p, k] != 0:
                width = k + 1
                break
    return width


# --- comebacks: how often a player behind after a round still wins -----------------------
STANDING_ROUNDS = 12  # rounds whose standings are recorded (the most a what-if allows)
GAP_BINS = 8  # bin 0: leading or level; bins 1..6: ``step`` points wide; bin 7: the rest
COMEBACK_LEN = STANDING_ROUNDS * GAP_BINS * 2  # per (round, bin): times, then win units


@njit(cache=True, _nrt=False, inline="always")
def add_comebacks(row, col, standings, seat, won, rounds, step):
    """Add one game of ``seat`` to the comeback record ``row[col:col + COMEBACK_LEN]``:
    after each round ``r < rounds`` (at most ``STANDING_ROUNDS``), the seat's deficit to
    the best other seat, binned by ``step`` points (``GAP_BINS``), counts once and adds
    ``won`` win units. ``standings``: int64[n seats, >= rounds], each seat's score at the
    end of each round."""
    n = standings.shape[0]
    for r in range(min(rounds, STANDING_ROUNDS)):
        best_other = standings[(seat + 1) % n, r]
        for other in range(n):
            if other != seat:
                best_other = max(best_other, standings[other, r])
        gap = best_other - standings[seat, r]
        b = 0 if gap <= 0 else min(1 + (gap - 1) // step, GAP_BINS - 1)
        at = col + 2 * (GAP_BINS * r + b)
        row[at] += 1
        row[at + 1] += won


# --- the contest record: margins, ties and decisions, common to every game ---------------
CONTEST_MARGIN = 0  # + the seat's score minus the best other seat's (0 solo), summed
CONTEST_MARGIN_SQ = 1  # its squares
CONTEST_LEAD = 2  # + max(margin, 0): the top seat's lead over the runner-up, 0 elsewhere
CONTEST_LEAD_SQ = 3  # its squares
CONTEST_TIES = 4  # + 1 in every seat's row for a game whose top score is shared
CONTEST_DECISIONS = 5  # + the decisions the seat made in the game
CONTEST_DECISIONS_SQ = 6  # their squares
CONTEST_LEN = 7
CONTEST_NAMES = ("margin_sum", "margin_sq", "lead_sum", "lead_sq", "ties", "decisions_sum",
                 "decisions_sq")  # ``analyzer.seats.Columns``' names of the columns above


def contest_columns(col):
    """The ``analyzer.seats.Columns`` fields of a contest record that starts at column
    ``col`` (a plain dict, for Python callers)."""
    return {name: col + k for k, name in enumerate(CONTEST_NAMES)}


@njit(cache=True, _nrt=False)
def add_contest(out, slot_of, totals, decisions, col, decided):
    """Add one game's contest record to every seat's row ``out[slot_of[seat], seat, col:]``
    (``CONTEST_*``; ``out``: int64[slots, seats, M]). ``totals``: int64[n] final scores;
    ``decisions``: int64[n] each seat's decisions in the game; ``col``: int64; ``decided``:
    int64, the seat that won outside the scores (CloverUp's instant win) or -1. Summed
    over every row, the leads give each game's gap between first and second place once
    (0 when the top is shared); a game is a tie when its top score is shared and no seat
    ``decided`` it. A solo game has margins 0 and no tie."""
    n = totals.shape[0]
    top = totals[0]
    for s in range(1, n):
        top = max(top, totals[s])
    at_top = 0
    for s in range(n):
        at_top += totals[s] == top
    tied = n > 1 and at_top > 1 and decided < 0
    for seat in range(n):
        best_other = top
        if at_top == 1 and totals[seat] == top:
            best_other = totals[(seat + 1) % n]
            for s in range(n):
                if s != seat:
                    best_other = max(best_other, totals[s])
        margin = totals[seat] - best_other if n > 1 else 0
        lead = max(margin, 0)
        slot, d = slot_of[seat], decisions[seat]
        out[slot, seat, col + CONTEST_MARGIN] += margin
        out[slot, seat, col + CONTEST_MARGIN_SQ] += margin * margin
        out[slot, seat, col + CONTEST_LEAD] += lead
        out[slot, seat, col + CONTEST_LEAD_SQ] += lead * lead
        out[slot, seat, col + CONTEST_TIES] += tied
        out[slot, seat, col + CONTEST_DECISIONS] += d
        out[slot, seat, col + CONTEST_DECISIONS_SQ] += d * d
