"""One seed reproduces a run bit for bit for any thread count and any batching."""

import json

import numba
import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.cli import cli
from analyzer.games.cloverup.simulation import lineup_of, play_games, simulate_turns

THREADS = sorted({1, numba.config.NUMBA_NUM_THREADS})


def test_turns_identical_for_threads_and_batches(cloverup_values):
    runs = []
    for threads in THREADS:
        for batch in (1, 3, 64):
            runs.append(simulate_turns(cloverup_values, "optimal", 300_000, 7, threads, False,
                                       batch_blocks=batch))
    for counts in runs[1:]:
        np.testing.assert_array_equal(counts, runs[0])


def test_games_identical_for_threads_and_batches(cloverup_values):
    lineup = lineup_of(["optimal", "threshold:4", "never"], 3)
    values = {**cloverup_values, "players": 3}
    runs = []
    for threads in THREADS:
        numba.set_num_threads(threads)
        for batch in (1, 5):
            acc, n = play_games(values, lineup, 20_000, 11, progress=False, batch_blocks=batch)
            runs.append(acc)
    for acc in runs[1:]:
        np.testing.assert_array_equal(acc, runs[0])


def test_seeds_differ(cloverup_values):
    a = simulate_turns(cloverup_values, "optimal", 100_000, 1, None, False)
    b = simulate_turns(cloverup_values, "optimal", 100_000, 2, None, False)
    assert not np.array_equal(a, b)


@pytest.mark.parametrize("extra", [[], ["--precision", "0.4"]])
def test_cli_json_identical_across_threads(extra):
    docs = []
    for threads in THREADS:
        out = CliRunner().invoke(cli, ["cloverup", "simulate", "--games", "30000", "--seed",
                                       "5", "--threads", str(threads), "--quiet", "--format",
                                       "json", *extra]).output
        doc = json.loads(out)
        doc["meta"].pop("threads")
        assert doc["meta"].pop("execution") == f"{threads} numba thread(s)"
        docs.append(doc)
    assert all(d == docs[0] for d in docs)


def test_the_thread_count_reaches_the_chunks():
    """``--threads N`` holds where the chunks run (a helper thread: numba's thread count is
    per calling thread)."""
    from analyzer.run import driver
    from analyzer.run.execution import current
    from analyzer.run.plan import Plan

    seen = []

    def compute(chunks):
        seen.append(numba.get_num_threads())
        return [np.zeros(1) for _ in chunks]

    try:
        for threads in (1, numba.config.NUMBA_NUM_THREADS):
            driver.set_threads(threads)
            list(current().results(Plan(compute, [(0,)], "threads")))
            assert seen[-1] == threads
    finally:
        driver.set_threads(None)


def test_a_run_that_compiles_first_says_so(capsys, tmp_path, monkeypatch):
    """A run whose kernel is neither compiled nor in numba's cache starts with a one-line
    notice and the expected wait; a cached or compiled kernel starts silently."""
    from types import SimpleNamespace

    import kernels.jit
    from analyzer.run import driver

    def play():
        """A kernel's Python function, as numba names its cache files after it."""

    play.__module__, play.__qualname__ = "kernels.cloverup.play", "play"
    monkeypatch.setattr(kernels.jit, "cache_folder", lambda: tmp_path)
    index = tmp_path / "cloverup" / f"play.play-{play.__code__.co_firstlineno}.py311.nbi"
    for signatures, cached, says in (((), False, True), ((), True, False), (["sig"], False, False)):
        if cached:
            index.parent.mkdir()
            index.write_bytes(b"")
        driver.notice_first_compile(SimpleNamespace(signatures=list(signatures), py_func=play))
        err = capsys.readouterr().err
        wait = f"about {driver.COLD_COMPILE_SECONDS['kernels.cloverup.play']} s"
        assert ("compiling the kernels" in err and wait in err) == says, err
