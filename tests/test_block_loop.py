"""Block kernels on threads (``analyzer.run.block_loop``): blocks cut into pieces where a run
has few, the pieces' sums equal to the whole blocks' to the bit, and a process's share of
the threads (the report's lanes) obeyed between pieces."""

import threading

import numpy as np
import pytest

from analyzer.params import defaults
from analyzer.run import block_loop
from analyzer.run.block_loop import ThreadShare, block_pieces, over_threads


@pytest.fixture
def share(monkeypatch):
    """Set the process's thread share for one test."""
    def set_share(total, busy):
        monkeypatch.setattr(block_loop, "thread_share", ThreadShare(total, busy))
    return set_share


@pytest.fixture
def threads(monkeypatch):
    """Let the block loops use ``n`` threads for one test, whatever the machine has
    (numba's own thread count stays as it is)."""
    def set_threads(n):
        monkeypatch.setattr(block_loop, "most_threads", lambda: n)
        monkeypatch.setattr(block_loop, "allowed_threads", lambda: lambda: n)
    return set_threads


def test_few_blocks_are_cut_into_pieces_that_cover_each_block_once():
    pieces = block_pieces(np.array([512]), 2)
    assert len(pieces) == block_loop.PIECES_PER_THREAD * 2
    assert pieces[0] == (0, 0, 64) and pieces[-1] == (0, 448, 512)
    sizes = np.array([7, 3, 1])
    pieces = block_pieces(sizes, 4)
    for b, size in enumerate(sizes):
        own = sorted((first, end) for block, first, end in pieces if block == b)
        starts, ends = [f for f, _ in own], [e for _, e in own]
        assert starts == [0] + ends[:-1] and ends[-1] == size  # end to end, no gap
        assert all(f < e for f, e in own)  # none empty


def test_many_blocks_or_one_thread_keep_blocks_whole():
    sizes = np.full(8, 512)
    assert block_pieces(sizes, 2) == [(b, 0, 512) for b in range(8)]
    assert block_pieces(np.array([512, 100]), 1) == [(0, 0, 512), (1, 0, 100)]


def test_a_thread_outside_the_share_takes_no_work(share):
    busy = [2]
    share(2, lambda: busy[0])  # two lanes busy: one thread each
    names = over_threads(lambda i: threading.current_thread().name, 12)
    assert len(set(names)) == 1
    busy[0] = 1  # the other lane done: both threads
    seen = set()
    gate = threading.Barrier(2, timeout=10)

    def work(i):
        seen.add(threading.current_thread().name)
        if i < 2:
            gate.wait()  # passes only when two threads work at once
        return i

    assert over_threads(work, 6) == list(range(6))
    assert len(seen) == 2


def test_a_fault_in_one_thread_stops_the_others(share):
    share(2, lambda: 1)

    def work(i):
        if i == 3:
            raise ValueError("bad block")
        return i

    with pytest.raises(ValueError, match="bad block"):
        over_threads(work, 50)


def _cloverup_games(values):
    from analyzer.games.cloverup.simulation import lineup_of, play_games

    return play_games({**values, "players": 2}, lineup_of(["optimal", "never"], 2), 700, 3,
                      progress=False)[0]


def _sly_games(_):
    from analyzer.games.sly_dice.model import parse_policy
    from analyzer.games.sly_dice.params import PARAMS
    from analyzer.games.sly_dice.runs import play_games

    values = {**{p.name: p.default for p in PARAMS}, "players": 2}
    lineup = [parse_policy("sly:10:0.3"), parse_policy("bluffer:15")]
    return play_games(values, lineup, 300, 3, rotate=False, progress=False)[0]


def _clever_paired(_):
    """That's Pretty Clever's what-if kernel (the report's round-bonus values)."""
    from analyzer.games.clever.training.games import compare_seats
    from analyzer.games.thats_pretty_clever.model import GAME

    values = {**defaults(GAME.params), "players": 1}
    rows = [GAME.parse_policy(p, values) for p in ("greedy", "random")]
    out = compare_seats(rows, GAME.game_rules(values), GAME.rounds_for(values), 1, 40, 3)
    return np.array([[r["value"], r["games"]] for r in out])


@pytest.mark.parametrize("run", [_cloverup_games, _sly_games, _clever_paired],
                         ids=["cloverup", "sly-dice", "clever-paired"])
def test_a_run_cut_into_pieces_is_the_same_to_the_bit(run, threads, cloverup_values):
    """A run of one block, its block cut into pieces on four threads, gives exactly what
    one thread gives on the whole block (CloverUp's and Sly Dice's whole games, That's
    Pretty Clever's paired what-if; ``test_clever_analyzer`` cuts its whole games). A
    seating copied once per block would leave the later pieces unseated."""
    threads(1)
    whole = run(cloverup_values)
    threads(4)
    np.testing.assert_array_equal(run(cloverup_values), whole)
