"""Kernels compiled in a child process before a long run (``analyzer.compile_apart``)."""

import subprocess
import sys
from types import SimpleNamespace

import pytest

from analyzer import compile_apart


def fake_game(monkeypatch, compiled: bool):
    module = SimpleNamespace(kernels_compiled=lambda: compiled, COMPILE_SECONDS=7)
    monkeypatch.setattr(compile_apart, "get_game",
                        lambda game_id: SimpleNamespace(load=lambda: module))


def test_uncached_kernels_compile_in_a_child_process(monkeypatch, capsys):
    """A game whose kernels are not cached has them compiled by ``python -m
    analyzer.compile_apart GAME`` (marked as the child, so it compiles in place), with a
    notice and its expected wait; cached kernels, a game without the hook and the child
    itself compile nothing here."""
    calls = []

    def run(command, **kwargs):
        calls.append((command, kwargs["env"]))
        return SimpleNamespace(returncode=0, stderr="")

    monkeypatch.setattr(subprocess, "run", run)
    monkeypatch.delenv(compile_apart.CHILD, raising=False)
    fake_game(monkeypatch, compiled=False)
    assert compile_apart.ensure_compiled("some-game", progress=True)
    (command, env), = calls
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
    assert len(calls) == 1


def test_a_failed_compile_names_the_game_and_the_error(monkeypatch):
    monkeypatch.setattr(subprocess, "run", lambda command, **kwargs: SimpleNamespace(
        returncode=1, stderr="Traceback ...\nnumba.TypingError: no luck\n"))
    monkeypatch.delenv(compile_apart.CHILD, raising=False)
    fake_game(monkeypatch, compiled=False)
    with pytest.raises(RuntimeError, match="some-game kernels failed: numba.TypingError"):
        compile_apart.ensure_compiled("some-game")


def test_the_games_with_long_runs_opt_in():
    from analyzer.registry import get_game

    for game_id in ("sly-dice", "thats-pretty-clever", "twice-as-clever"):
        module = get_game(game_id).load()
        assert callable(module.kernels_compiled) and callable(module.compile_kernels)
        assert module.COMPILE_SECONDS > 0
