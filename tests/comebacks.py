"""A check every game's comeback record must pass (``kernels.accumulate``)."""

from kernels.accumulate import COMEBACK_LEN, GAP_BINS, STANDING_ROUNDS


def check_comeback_record(row, first, rounds, players, games, win_units):
    """The comeback record in ``row[first:]`` (summed over slots and seats) of ``games``
    games of ``players`` and ``rounds``: each round counts every player once, nothing after
    the last round, and after the last round only the leader (gap bin 0) wins, every game
    once (``win_units`` a win)."""
    record = row[first:first + COMEBACK_LEN].reshape(STANDING_ROUNDS, GAP_BINS, 2)
    assert record[:rounds, :, 0].sum(axis=1).tolist() == [players * games] * rounds
    assert record[rounds:].sum() == 0
    assert record[rounds - 1, 1:, 1].sum() == 0
    assert record[rounds - 1, 0, 1] == games * win_units
