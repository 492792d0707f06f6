"""The block loops' shared accumulators: the comeback record's deficit bins and the
contest record (margins, ties and decisions)."""

import numpy as np

from kernels.accumulate import (COMEBACK_LEN, CONTEST_DECISIONS, CONTEST_DECISIONS_SQ,
                                CONTEST_LEAD, CONTEST_LEAD_SQ, CONTEST_LEN, CONTEST_MARGIN,
                                CONTEST_MARGIN_SQ, CONTEST_TIES, GAP_BINS, STANDING_ROUNDS,
                                add_comebacks, add_contest)


def _record(row):
    return row.reshape(STANDING_ROUNDS, GAP_BINS, 2)


def test_comeback_bins_measure_the_gap_to_the_best_other_seat():
    """Seat 0 after each of three rounds: 5 behind (bin 1 of 5-point bins), 12 behind the
    third seat (bin 3), 10 behind (bin 2); its win units go with every bin it passed."""
    standings = np.array([[10, 30, 50], [15, 12, 60], [0, 42, 49]], np.int64)
    row = np.zeros(COMEBACK_LEN + 3, np.int64)
    add_comebacks(row, 3, standings, 0, 12, 3, 5)
    record = _record(row[3:])
    expected = np.zeros_like(record)
    for r, b in ((0, 1), (1, 3), (2, 2)):
        expected[r, b] = (1, 12)
    np.testing.assert_array_equal(record, expected)
    assert row[:3].tolist() == [0, 0, 0]


def test_leaders_and_level_seats_are_bin_0_and_wide_gaps_the_last_bin():
    standings = np.array([[20, 7], [20, 60]], np.int64)
    row = np.zeros(COMEBACK_LEN, np.int64)
    add_comebacks(row, 0, standings, 1, 0, 2, 1)  # seat 1: level, then 53 ahead
    add_comebacks(row, 0, standings, 0, 12, 2, 1)  # seat 0: level, then 53 behind
    record = _record(row)
    assert record[0, 0].tolist() == [2, 12]
    assert record[1, 0].tolist() == [1, 0] and record[1, GAP_BINS - 1].tolist() == [1, 12]
    assert record[2:].sum() == 0


def test_rounds_beyond_the_record_are_not_counted():
    standings = np.zeros((2, STANDING_ROUNDS + 3), np.int64)
    row = np.zeros(COMEBACK_LEN, np.int64)
    add_comebacks(row, 0, standings, 0, 1, STANDING_ROUNDS + 3, 10)
    assert _record(row)[:, 0, 0].tolist() == [1] * STANDING_ROUNDS


def test_comeback_figures_follow_the_rounds_recorded():
    """The comeback figure and finding quote the latest round recorded (a game longer than
    the record, or sparse spots, has no "1 round left" row); a record where nobody was
    behind often enough (one-round games) gives neither."""
    import pandas as pd

    from analyzer import seats
    from analyzer.sections import comebacks_shown

    cols = seats.Columns(0, 1, 2, 3, 4, 12)
    row = np.zeros(COMEBACK_LEN, np.int64)
    record = _record(row)
    record[0, 0] = (100, 600)  # after round 1 of 17: level or ahead, 50% of 12 units
    record[0, 2] = (50, 120)  # 6-10 behind: 20%
    record[1, 1] = (40, 120)  # after round 2: 1-5 behind, 25%
    table = pd.DataFrame(seats.comebacks(row, cols, 0, 17, 5))
    assert table.rounds_left.tolist() == ["16 rounds left"] * 2 + ["15 rounds left"]
    figures, findings = comebacks_shown(table, "x_comeback", "title", "some games")
    (finding,) = findings
    assert finding.value == 0.25 and "with 15 rounds left, a player 1-5 behind" in \
        finding.text
    assert figures[0].reading.startswith("With 15 rounds left, 1-5 behind wins 25.0%")
    assert (figures[0].data.behind_from > 0).all()  # no "level or ahead" point at x = 0
    assert "A curve ends where fewer than 30 player-games" in figures[0].reading
    assert comebacks_shown(pd.DataFrame(seats.comebacks(row, cols, 0, 1, 5)), "x", "t",
                           "w") == ([], [])


# --- the contest record: margins, ties and decisions -------------------------------------
def _contest(totals, decisions=None, decided=-1, slot_of=None, col=2):
    n = len(totals)
    out = np.zeros((n, n, col + CONTEST_LEN + 1), np.int64)
    slot_of = np.arange(n, dtype=np.int64) if slot_of is None else np.array(slot_of, np.int64)
    decisions = np.zeros(n, np.int64) if decisions is None else np.array(decisions, np.int64)
    add_contest(out, slot_of, np.array(totals, np.int64), decisions, np.int64(col),
                np.int64(decided))
    return out, slot_of


def _reference(totals, decided=-1):
    """Each seat's margin to the best other seat, lead and tie, written out directly."""
    n = len(totals)
    margins = [0 if n == 1 else t - max(totals[:s] + totals[s + 1:])
               for s, t in enumerate(totals)]
    tied = n > 1 and totals.count(max(totals)) > 1 and decided < 0
    return margins, [max(m, 0) for m in margins], tied


def test_the_contest_record_matches_a_direct_computation():
    """Random games of 1 to 6 seats, seated in a shuffled order: each seat's row holds its
    margin to the best other seat, the lead (the margin where above 0) and a tie when the
    top is shared, with their squares, and its decisions; the columns before and after
    are untouched; over all rows the leads add up to first place minus second."""
    rng = np.random.default_rng(5)
    for _ in range(300):
        n = int(rng.integers(1, 7))
        totals = [int(t) for t in rng.integers(0, 6, n)]
        decisions = [int(d) for d in rng.integers(0, 40, n)]
        out, slot_of = _contest(totals, decisions, slot_of=rng.permutation(n))
        margins, leads, tied = _reference(totals)
        for seat in range(n):
            row = out[slot_of[seat], seat, 2:2 + CONTEST_LEN]
            assert row[CONTEST_MARGIN] == margins[seat]
            assert row[CONTEST_MARGIN_SQ] == margins[seat] ** 2
            assert row[CONTEST_LEAD] == leads[seat] and row[CONTEST_LEAD_SQ] == leads[seat] ** 2
            assert row[CONTEST_TIES] == tied
            assert row[CONTEST_DECISIONS] == decisions[seat]
            assert row[CONTEST_DECISIONS_SQ] == decisions[seat] ** 2
        ordered = sorted(totals, reverse=True)
        gap = ordered[0] - ordered[1] if n > 1 else 0
        assert out[..., 2 + CONTEST_LEAD].sum() == gap
        assert out[..., :2].sum() == 0 and out[..., -1].sum() == 0


def test_a_game_decided_outside_the_scores_is_no_tie():
    """CloverUp's instant win: level totals are not a shared top; margins stay the
    scores'."""
    out, _ = _contest([0, 0, 0], decided=1, col=0)
    assert out[..., CONTEST_TIES].sum() == 0 and out[..., CONTEST_MARGIN].sum() == 0
    out, _ = _contest([0, 0, 0], col=0)
    assert out[..., CONTEST_TIES].sum() == 3


def test_a_solo_game_has_margin_0_and_no_tie():
    out, _ = _contest([57], [12], col=0)
    assert out[0, 0, :CONTEST_LEN].tolist() == [0, 0, 0, 0, 0, 12, 144]
