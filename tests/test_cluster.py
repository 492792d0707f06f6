"""Runs on a Dask cluster give bit-identical results to local runs, whatever the
number of workers, survive a worker killed mid-run, and fail with one line on bad input."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from click.testing import CliRunner

distributed = pytest.importorskip("distributed")

from analyzer.run import cluster as cluster_module  # noqa: E402
from analyzer.run import execution  # noqa: E402
from analyzer.cli import cli  # noqa: E402
from analyzer.games.cloverup.simulation import simulate_turns  # noqa: E402
from tests.conftest import dicelab_process  # noqa: E402


@pytest.fixture(scope="module")
def scheduler():
    """A running two-worker cluster, reached by its address like a remote one."""
    import logging

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0", worker_dashboard_address=None,
                                  silence_logs=logging.ERROR) as local:
        yield local.scheduler_address


def _json(args):
    result = CliRunner().invoke(cli, [*args, "--quiet", "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _without_meta(doc):
    return {k: v for k, v in doc.items() if k != "meta"}


COMMANDS = [
    ["cloverup", "simulate", "--games", "300000", "--seed", "4"],
    ["cloverup", "whatif", "--games", "300000", "--vary", "rerolls=3"],
    ["sly-dice", "simulate", "--games", "300000", "--players", "3", "--policy", "honest"],
    pytest.param(["thats-pretty-clever", "simulate", "--games", "70000", "--players", "2",
                  "--policy", "greedy"], marks=pytest.mark.slow),
    ["twice-as-clever", "whatif", "--games", "70000", "--policy", "greedy", "--lineup",
     "random"],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: "-".join(a[:2]))
def test_cluster_results_are_identical_to_local(scheduler, args):
    local = _json(args)
    remote = _json([*args, "--cluster", scheduler])
    assert remote["meta"]["workers"] == 2 and remote["meta"]["chunks"] >= 2
    assert "Dask cluster tcp://" in remote["meta"]["execution"]
    assert _without_meta(remote) == _without_meta(local)


def test_advise_on_the_cluster_is_identical(scheduler, tmp_path):
    sheet = tmp_path / "sheet.json"
    assert CliRunner().invoke(cli, ["thats-pretty-clever", "sheet", "--new", "-o",
                                    str(sheet)]).exit_code == 0
    args = ["thats-pretty-clever", "advise", "--sheet", str(sheet), "--roll",
            "W3 Y5 B2 G6 O4 P1", "--rollouts", "600"]
    local, remote = _json(args), _json([*args, "--cluster", scheduler])
    assert remote["meta"]["chunks"] == 4  # 50 rollouts of every choice, then 550 raced in 250s
    assert _without_meta(remote) == _without_meta(local)


def test_any_number_of_workers_and_chunking_gives_the_same_counts(cloverup_values, scheduler):
    reference = simulate_turns(cloverup_values, "optimal", 5_000_000, 8, None, False)
    for where in ("local:1", scheduler):
        with execution.session(where) as run:
            counts = simulate_turns(cloverup_values, "optimal", 5_000_000, 8, None, False)
            assert run.computed == 2 and run.cluster.workers() == (1 if where == "local:1"
                                                                      else 2)
        np.testing.assert_array_equal(counts, reference)


def test_a_killed_worker_changes_nothing(cloverup_values, scheduler):
    """A worker process dies mid-run: its chunks are recomputed elsewhere, same result."""
    turns = 60_000_000  # 15 chunks of about 0.35 s
    reference = simulate_turns(cloverup_values, "optimal", turns, 12, None, False)
    with execution.session(scheduler) as run:
        pids = run.cluster.client.run(os.getpid)
        victim = sorted(pids.values())[0]
        killed = {}

        def kill_when_started():
            while run.computed < 3:
                time.sleep(0.01)
            killed["during_run"] = run.computed < 15
            os.kill(victim, signal.SIGKILL)

        killer = threading.Thread(target=kill_when_started, daemon=True)
        killer.start()
        counts = simulate_turns(cloverup_values, "optimal", turns, 12, None, False)
        killer.join(timeout=5)
        assert killed == {"during_run": True}
        assert victim not in run.cluster.client.run(os.getpid).values()
    np.testing.assert_array_equal(counts, reference)


def test_ctrl_c_on_a_local_cluster_is_one_line(tmp_path):
    out = tmp_path / "out.json"
    with dicelab_process("thats-pretty-clever", "simulate", "--games", "2000000",
                         "--policy", "greedy", "--cluster", "local:2", "--format", "json",
                         "-o", str(out),
                         stderr=subprocess.PIPE, text=True) as proc:
        time.sleep(8)
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130, err
    assert err.strip().splitlines() == [
        "dicelab: interrupted; use --checkpoint DIR to make long runs resumable"]
    assert not out.exists()


def _error(*args):
    result = CliRunner().invoke(cli, ["cloverup", "simulate", "--games", "1000", *args])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "Traceback" not in result.output
    return result.output


@pytest.mark.parametrize("spec", ["local:0", "local:x", "nowhere", "tcp://host"])
def test_bad_cluster_spec(spec):
    assert f"bad --cluster {spec!r}" in _error("--cluster", spec)


def test_unreachable_scheduler(monkeypatch):
    monkeypatch.setattr(cluster_module, "CONNECT_TIMEOUT", "1s")
    assert "cannot reach a Dask scheduler at tcp://127.0.0.1:9" in _error(
        "--cluster", "127.0.0.1:9")


def test_missing_dask_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    assert "pip install 'dicelab[cluster]'" in _error("--cluster", "local:2")


def test_workers_with_other_versions_are_refused(scheduler, monkeypatch):
    here = os.getpid()

    def versions():
        return {"dicelab": "0.1.0" if os.getpid() == here else "9.9.9"}

    monkeypatch.setattr(cluster_module, "versions", versions)
    assert "install the same versions on every worker" in _error("--cluster", scheduler)


def test_progress_on_stderr_counts_the_cluster_chunks(cloverup_values, scheduler, monkeypatch,
                                                      capsys):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with execution.session(scheduler):
        simulate_turns(cloverup_values, "optimal", 9_000_000, 8, None, True)
    updates = [line for line in capsys.readouterr().err.split("\r") if line.strip()]
    assert len(updates) == 3  # one per chunk of 4.2 M turns
    assert all("on Dask cluster tcp://" in line for line in updates)
    assert "100.0%" in updates[-1] and "100.0%" not in updates[0]


def test_chunks_stored_by_a_cluster_run_resume_locally(cloverup_values, scheduler, tmp_path):
    def run(where):
        with execution.session(where, str(tmp_path)) as ex:
            counts = simulate_turns(cloverup_values, "optimal", 9_000_000, 8, None, False)
            return counts, (ex.computed, ex.resumed)

    on_cluster, done = run(scheduler)
    assert done == (3, 0)
    files = sorted(tmp_path.rglob("chunk-*.npy"))
    assert len(files) == 3
    files[1].unlink()  # as if the cluster run had been interrupted before it
    here, done = run(None)
    assert done == (1, 2)
    np.testing.assert_array_equal(here, on_cluster)
    np.testing.assert_array_equal(here, simulate_turns(cloverup_values, "optimal", 9_000_000,
                                                       8, None, False))
