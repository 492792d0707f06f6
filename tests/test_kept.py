"""Exact answers kept on disk (``analyzer.run.kept``, ``output.emit_kept``): computed once per
inputs and code, then read back unchanged without loading the compiled kernels."""

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from analyzer.run import kept
from analyzer.output import FORMATS, Result, emit_kept, render

REPO = Path(__file__).resolve().parents[1]


def _result() -> Result:
    return Result("a title", {"value": 1.25}, {"odds": pd.DataFrame({"k": [1, 2],
                                                                      "p": [0.5, 0.25]})},
                  {"game": "test"}, ["a note"])


@pytest.fixture
def counted(tmp_path, monkeypatch):
    monkeypatch.setattr(kept, "cache_dir", lambda: tmp_path)
    calls = []

    def compute():
        calls.append(1)
        return _result()
    return compute, calls


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_kept_answer_is_computed_once_and_printed_the_same(counted, fmt, capsys):
    compute, calls = counted
    emit_kept("test", [1, "x"], compute, fmt, None)
    first = capsys.readouterr().out
    emit_kept("test", [1, "x"], compute, fmt, None)
    assert capsys.readouterr().out == first == render(_result(), fmt)
    assert len(calls) == 1


def test_other_inputs_or_a_broken_file_compute_anew(counted, tmp_path, capsys):
    compute, calls = counted
    emit_kept("test", [1], compute, "json", None)
    emit_kept("test", [2], compute, "json", None)
    assert len(calls) == 2
    for path in tmp_path.glob("kept-test-*.json"):
        path.write_text("{broken")
    emit_kept("test", [1], compute, "json", None)
    assert len(calls) == 3
    assert capsys.readouterr().out.count('"title": "a title"') == 3


def test_an_unwritable_cache_costs_only_the_keeping(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(kept, "cache_dir", lambda: tmp_path / "missing" / "folder")
    emit_kept("test", [1], _result, "table", None)
    emit_kept("test", [1], _result, "table", None)
    assert capsys.readouterr().out == 2 * render(_result(), "table")


def test_a_kept_answer_goes_to_the_output_file_in_its_suffix_format(counted, tmp_path):
    compute, _ = counted
    emit_kept("test", [1], compute, None, str(tmp_path / "odds.csv"))
    assert (tmp_path / "odds.csv").read_text() == render(_result(), "csv")


@pytest.mark.parametrize("command", [["cloverup", "solve", "--set", "rounds=3"],
                                     ["sly-dice", "odds", "--common", "2,3,5"]])
def test_a_repeated_exact_query_loads_no_kernels(command):
    """The second run of the same exact query prints the same text and never imports numba
    or pandas (what makes it answer in well under a second)."""
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print(sorted({'numba', 'pandas'} & set(sys.modules)),"
            " file=sys.stderr))\n"
            f"sys.argv = ['dicelab'] + {command!r}\n"
            "from analyzer.cli import main\nmain()\n")
    runs = [subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                           text=True, env=os.environ.copy()) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr
    assert runs[0].stdout == runs[1].stdout and "probability" in runs[1].stdout
    assert runs[1].stderr.strip().splitlines()[-1] == "[]"


def test_a_kept_number_is_computed_once(tmp_path, monkeypatch):
    """``kept.answer``: the first call computes and keeps, the next reads it back; other
    inputs compute anew; a broken file is computed again."""
    monkeypatch.setattr(kept, "cache_dir", lambda: tmp_path)
    calls = []

    def compute():
        calls.append(1)
        return 0.4877
    assert kept.answer("n", {"a": 1}, compute) == 0.4877
    assert kept.answer("n", {"a": 1}, compute) == 0.4877 and len(calls) == 1
    assert kept.answer("n", {"a": 2}, compute) == 0.4877 and len(calls) == 2
    for path in tmp_path.glob("kept-n-*.json"):
        path.write_text("{broken")
    assert kept.answer("n", {"a": 1}, compute) == 0.4877 and len(calls) == 3


def test_cloverup_keeps_its_exact_two_player_figures(tmp_path, monkeypatch):
    """The first seat's exact win chance (both playing to win) is the solver's table entry,
    and a second model reads it back without solving again."""
    from analyzer.games.cloverup import model as cloverup
    from analyzer.games.cloverup.params import PARAMS
    from analyzer.params import defaults

    monkeypatch.setattr(kept, "cache_dir", lambda: tmp_path)
    values = {**defaults(PARAMS), "players": 2, "rounds": 3}
    first = cloverup.Model(values)
    chance = first.first_seat_win_chance()
    assert chance == float(first.win_solution()[1][0, 0, first.max_diff, 0])
    again = cloverup.Model(values)
    monkeypatch.setattr(cloverup.Model, "win_solution", lambda self: 1 / 0)
    assert again.first_seat_win_chance() == chance
