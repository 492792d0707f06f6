"""The block loops' shared accumulators: the comeback record's deficit bins."""

import numpy as np

from kernels.accumulate import COMEBACK_LEN, GAP_BINS, STANDING_ROUNDS, add_comebacks


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
