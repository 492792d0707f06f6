"""Kernel families compiled side by side in child processes (``analyzer.run.compile_apart``)."""

import subprocess
import sys
from types import SimpleNamespace

import pytest

from analyzer.run import compile_apart


class FakeChild:
    """A stand-in for ``subprocess.Popen``: records the command."""

    calls: list = []
    returncode, stderr = 0, ""

    def __init__(self, command, **kwargs):
        FakeChild.calls.append(command)

    def communicate(self):
        return "", self.stderr


@pytest.fixture
def children(monkeypatch):
    FakeChild.calls = []
    monkeypatch.setattr(subprocess, "Popen", FakeChild)
    return FakeChild.calls


def test_side_by_side_compiles_each_uncached_kernel_family_once(monkeypatch, children):
    """The Clever games share one engine: one child for both, one for Sly Dice, none for
    kernels already cached (CloverUp's here)."""
    from analyzer import registry

    modules = {"thats-pretty-clever": SimpleNamespace(kernels_compiled=lambda: False),
               "twice-as-clever": SimpleNamespace(kernels_compiled=lambda: False),
               "sly-dice": SimpleNamespace(kernels_compiled=lambda: False),
               "cloverup": SimpleNamespace(kernels_compiled=lambda: True)}
    monkeypatch.setattr(compile_apart, "get_game", lambda game_id: SimpleNamespace(
        load=lambda: modules[game_id], kernel_family=registry.GAMES[game_id].kernel_family))
    done = sorted(compile_apart.start_side_by_side(list(registry.GAMES)))
    assert done == ["sly-dice", "thats-pretty-clever"]
    assert sorted(command[-1] for command in children) == done
    assert children[0][:3] == [sys.executable, "-m", "analyzer.run.compile_apart"]
    modules["sly-dice"] = SimpleNamespace(kernels_compiled=lambda: True)
    assert compile_apart.start_side_by_side(["sly-dice"]) == {}


def test_a_failed_compile_names_the_game_and_the_error(monkeypatch, children):
    monkeypatch.setattr(FakeChild, "returncode", 1)
    monkeypatch.setattr(FakeChild, "stderr", "Traceback ...\nnumba.TypingError: no luck\n")
    monkeypatch.setattr(compile_apart, "get_game", lambda game_id: SimpleNamespace(
        load=lambda: SimpleNamespace(kernels_compiled=lambda: False), kernel_family="x"))
    children = compile_apart.start_side_by_side(["some-game"])
    with pytest.raises(RuntimeError, match="some-game kernels failed: numba.TypingError"):
        compile_apart.finish("some-game", children["some-game"])
