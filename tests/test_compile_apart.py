"""Kernels compiled in a child process before a long run (``analyzer.compile_apart``)."""

import subprocess
import sys
from types import SimpleNamespace

import pytest

from analyzer import compile_apart


class FakeChild:
    """A stand-in for ``subprocess.Popen``: records the command and its environment."""

    calls: list = []
    returncode, stderr = 0, ""

    def __init__(self, command, **kwargs):
        FakeChild.calls.append((command, kwargs["env"]))

    def communicate(self):
        return "", self.stderr


@pytest.fixture
def children(monkeypatch):
    FakeChild.calls = []
    monkeypatch.setattr(subprocess, "Popen", FakeChild)
    monkeypatch.delenv(compile_apart.CHILD, raising=False)
    return FakeChild.calls


def fake_game(monkeypatch, compiled: bool):
    module = SimpleNamespace(kernels_compiled=lambda: compiled, COMPILE_SECONDS=7)
    monkeypatch.setattr(compile_apart, "get_game",
                        lambda game_id: SimpleNamespace(load=lambda: module))


def test_uncached_kernels_compile_in_a_child_process(monkeypatch, capsys, children):
    """A game whose kernels are not cached has them compiled by ``python -m
    analyzer.compile_apart GAME`` (marked as the child, so it compiles in place), with a
    notice and its expected wait; cached kernels, a game without the hook and the child
    itself compile nothing here."""
    fake_game(monkeypatch, compiled=False)
    assert compile_apart.ensure_compiled("some-game", progress=True)
    (command, env), = children
    assert command == [sys.executable, "-m", "analyzer.compile_apart", "some-game"]
    assert env[compile_apart.CHILD] == "1"
    assert "about 7 s once" in capsys.readouterr().err
    monkeypatch.setenv(compile_apart.CHILD, "1")
    assert not compile_apart.ensure_compiled("some-game")
    monkeypatch.delenv(compile_apart.CHILD)
    fake_game(monkeypatch, compiled=True)
    assert not compile_apart.ensure_compiled("some-game")
    monkeypatch.setattr(compile_apart, "get_game",
                        lambda game_id: SimpleNamespace(load=lambda: SimpleNamespace()))
    assert not compile_apart.ensure_compiled("no-hook")
    assert len(children) == 1


def test_a_failed_compile_names_the_game_and_the_error(monkeypatch, children):
    monkeypatch.setattr(FakeChild, "returncode", 1)
    monkeypatch.setattr(FakeChild, "stderr", "Traceback ...\nnumba.TypingError: no luck\n")
    fake_game(monkeypatch, compiled=False)
    with pytest.raises(RuntimeError, match="some-game kernels failed: numba.TypingError"):
        compile_apart.ensure_compiled("some-game")


def test_side_by_side_compiles_each_uncached_kernel_family_once(monkeypatch, children):
    """The Clever games share one engine: one child for both, one for Sly Dice, none for
    CloverUp (no hook) or for kernels already cached."""
    from analyzer import registry

    modules = {"thats-pretty-clever": SimpleNamespace(kernels_compiled=lambda: False),
               "twice-as-clever": SimpleNamespace(kernels_compiled=lambda: False),
               "sly-dice": SimpleNamespace(kernels_compiled=lambda: False),
               "cloverup": SimpleNamespace()}
    monkeypatch.setattr(compile_apart, "get_game", lambda game_id: SimpleNamespace(
        load=lambda: modules[game_id], kernel_family=registry.GAMES[game_id].kernel_family))
    done = compile_apart.compile_side_by_side(list(registry.GAMES))
    assert sorted(done) == ["sly-dice", "thats-pretty-clever"]
    assert sorted(command[-1] for command, _ in children) == done
    modules["sly-dice"] = SimpleNamespace(kernels_compiled=lambda: True)
    assert compile_apart.compile_side_by_side(["sly-dice"]) == []


def test_the_games_with_long_runs_opt_in():
    from analyzer.registry import get_game

    for game_id in ("sly-dice", "thats-pretty-clever", "twice-as-clever"):
        module = get_game(game_id).load()
        assert callable(module.kernels_compiled) and callable(module.compile_kernels)
        assert module.COMPILE_SECONDS > 0
