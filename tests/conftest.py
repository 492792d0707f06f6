"""Shared fixtures: small sample sizes and a fixed seed keep the default run fast."""

import contextlib
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests import compiling

REPO = Path(__file__).resolve().parents[1]


def pytest_sessionstart(session):
    """Before a whole-suite run's workers start (``pytest -n``, set in pyproject.toml): the
    games' kernels start compiling, one child process per family, while the first tests run
    (``tests.compiling``). A run of chosen files or tests compiles what it uses."""
    if hasattr(session.config, "workerinput"):  # a worker: the controller has done it
        compiling.yield_to_compiles()
        return
    chosen = [a for a in session.config.invocation_params.args if not a.startswith("-")]
    if any(Path(a.split("::")[0]).exists() for a in chosen):
        return
    from analyzer.registry import GAMES

    compiling.start(list(GAMES))


def pytest_sessionfinish(session):
    """The controller ends any child still compiling (``tests.compiling.stop``)."""
    if not hasattr(session.config, "workerinput"):
        compiling.stop()


def pytest_collection_modifyitems(items):
    """The tests that play the Clever games last, as their engine compiles the longest
    (``tests.compiling.order``; every worker sorts alike, as ``pytest -n`` asks)."""
    items.sort(key=compiling.order)


@pytest.fixture(autouse=True)
def _compiled(request):
    """Each test starts once the kernels it needs are compiled (``tests.compiling``)."""
    compiling.wait_for_compiles(request.node)


@pytest.fixture
def cloverup_values():
    from analyzer.games.cloverup.params import PARAMS
    from analyzer.params import defaults

    return defaults(PARAMS)


def ctrl_c_reaches_child() -> None:
    """A child process's ``preexec_fn``: Ctrl-C (SIGINT) acts on it even when this run
    ignores it (a background job: its children would inherit the ignoring)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextlib.contextmanager
def dicelab_process(*args, **popen):
    """``python -m analyzer ARGS`` as a child process that Ctrl-C (SIGINT) reaches even
    when this run ignores it (a background job), killed at the end if still running."""
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", *args], cwd=REPO,
                            preexec_fn=ctrl_c_reaches_child, **popen)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def dicelab_json(*args):
    """The JSON answer of ``python -m analyzer ARGS --format json``."""
    import json

    run = subprocess.run([sys.executable, "-m", "analyzer", *args, "--format", "json"],
                         capture_output=True, text=True, check=True, cwd=REPO)
    return json.loads(run.stdout)


def dicelab_error(*args):
    """The one line ``python -m analyzer ARGS`` refuses with (exit status 2), without its
    "dicelab: error: "."""
    run = subprocess.run([sys.executable, "-m", "analyzer", *args], capture_output=True,
                         text=True, cwd=REPO)
    assert run.returncode == 2, run.stderr
    return run.stderr.strip().removeprefix("dicelab: error: ")
