"""Shared fixtures: small sample sizes and a fixed seed keep the default run fast."""

import contextlib
import signal
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def cloverup_values():
    from analyzer.games.cloverup.params import PARAMS
    from analyzer.params import defaults

    return defaults(PARAMS)


@contextlib.contextmanager
def dicelab_process(*args, **popen):
    """``python -m analyzer ARGS`` as a child process that Ctrl-C (SIGINT) reaches even
    when this run ignores it (a background job), killed at the end if still running."""
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", *args], cwd=REPO,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
                            **popen)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
