"""Fuzzing every command's options and the sheet format with generated values: each run
ends with exit status 0, or 2 and at most 3 lines on stderr, never a traceback. Each
example changes one or two options of a command (the rest at small sample sizes, so that
a valid run is quick); file options get names inside the test's folder or prepared files
(a folder, an empty file, a sheet, a rules file), never a path outside it. The default
run tries 20 examples of each quick command and 200 sheets of each game; ``-m slow``
tries 300 of each quick command, 10 of each slow one (``HEAVY``) and 3,000 sheets."""

from __future__ import annotations

import json
import string

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from analyzer.cli import cli

HEAVY = {"report", "cheatsheet", "train", "tune", "equilibrium"}  # minutes when valid
SMALL = {"--games": "8", "--turns": "2048", "--rollouts": "4", "--horizon": "0",
         "--max-games": "8"}  # set unless fuzzed: a valid run stays quick
NEVER = {"--cluster", "--help", "--version"}  # a cluster takes seconds to start
SMALL_VALUES = ["-1", "0", "1", "2", "7", "8", "", " ", "x", "1e3", "9" * 30, "3.5"]
FILES = ["out.csv", "out.json", "out.md", "out.pdf", "folder", "empty.txt", "sheet.json",
         "tac-sheet.json", "rules.toml", "missing/x.csv", "/dev/null", "", ".", "ck"]
TOKENS = ["", " ", "-1", "0", "1", "2", "3", "4", "6", "12", "nan", "inf", "-0", "1e9",
          "9" * 40, "x", "=", ";", ",", "a=b", "rounds=3", "rounds=5", "rounds=99",
          "rounds=5;rounds=6", "rounds=5;rounds=5", "round_4_bonus=false",
          "round_4_bonus=maybe", "players=2", "learned", "heuristic", "greedy", "random",
          "learned,heuristic", "learned:2", "heuristic:-1", "optimal", "win", "equilibrium",
          "honest", "reach:15", "reach:x", "expected_score=13", "mean_score=200",
          "win_rate_seat_1=0.5", "clover", "rounds", "clover=0:5", "1,1,1,1,1,1,1",
          "1,2,3", "1,2,3,4,5,6", "7,7", "full-house", "full-house=3", "ones", "W3 Y5",
          "W3 Y5 B2 G6 O4 P1", "W3 Y5 B2 G6 P4 S1", "W3 W3", "Y", "Y Y", "active2",
          "passive", "plus", "return", "table", "csv", "json", "markdown", "\x00", "é", "🎲"]


def _commands() -> list[tuple[str, ...]]:
    ctx = click.Context(cli)
    found = []

    def walk(command, path):
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                walk(command.get_command(ctx, name), (*path, name))
        else:
            found.append(path)

    walk(cli, ())
    return found


SERVERS = {("serve",)}  # runs until Ctrl-C when valid: tests/test_web.py tries its options
COMMANDS = [c for c in _commands() if c not in SERVERS]
QUICK = [c for c in COMMANDS if not HEAVY & set(c)]


def _command(path: tuple[str, ...]) -> click.Command:
    command = cli
    for name in path:
        command = command.get_command(click.Context(command), name)
    return command


TPC_ROLL, TAC_ROLL = "W3 Y5 B2 G6 O4 P1", "W3 Y5 B2 G6 P4 S1"
BASES = {  # a valid run of each command, whose options the examples change
    ("rules",): ["cloverup"], ("cheatsheet",): ["cloverup", "-o", "card.pdf"],
    ("report",): ["--quick", "--game", "cloverup", "-o", "report"],
    ("cloverup", "whatif"): ["--vary", "rounds=7"],
    ("cloverup", "tune"): ["--target", "expected_score=13", "--free", "clover"],
    ("sly-dice", "odds"): ["--common", "1,2,3"], ("sly-dice", "policy"): ["--common", "4,4,6"],
    ("sly-dice", "claim"): ["--common", "1,2,3", "--locked", "6", "--hidden", "6,2"],
    ("sly-dice", "accuse"): ["--common", "1,2,3", "--claim", "sixteen-or-lower"],
    ("sly-dice", "whatif"): ["--vary", "points_five_of_a_kind=60"],
    ("thats-pretty-clever", "advise"): ["--sheet", "sheet.json", "--roll", TPC_ROLL],
    ("twice-as-clever", "advise"): ["--sheet", "tac-sheet.json", "--roll", TAC_ROLL],
    ("thats-pretty-clever", "sheet"): ["--new"], ("twice-as-clever", "sheet"): ["--new"],
    ("thats-pretty-clever", "take"): ["--sheet", "sheet.json", "--roll", TPC_ROLL,
                                      "--choice", "blue 2 -> blue 2+3 = 5"],
    ("thats-pretty-clever", "whatif"): ["--vary", "round_4_bonus=false"],
    ("twice-as-clever", "whatif"): ["--vary", "round_4_bonus=false"],
    ("thats-pretty-clever", "train"): ["--network", "mine.npy", "--set", "rounds=5"],
    ("twice-as-clever", "train"): ["--network", "mine.npy", "--set", "rounds=5"],
}


def _value(option: str) -> st.SearchStrategy[str]:
    if option in SMALL:
        return st.sampled_from(SMALL_VALUES)
    if option in ("--output", "--output-dir", "--checkpoint", "--network", "--sheet",
                  "--score", "--rules", "--points-file"):
        return st.sampled_from(FILES) | st.text(string.ascii_letters + "._-", max_size=8)
    return st.sampled_from(TOKENS) | st.text(max_size=10) | st.integers(-10**6, 10**6).map(str)


@st.composite
def arguments(draw, path: tuple[str, ...]) -> list[str]:
    """The command's arguments: its valid base run (``BASES``) with one or two options
    (or its argument) changed, the small sample sizes beside them."""
    command = _command(path)
    params = [p for p in command.params if p.name != "help"
              and not (isinstance(p, click.Option) and p.opts[0] in NEVER)]
    base = list(BASES.get(path, []))
    fuzzed: dict[str, list[str]] = {}
    for param in draw(st.lists(st.sampled_from(params), min_size=1, max_size=2, unique=True)):
        if isinstance(param, click.Argument):
            base[:1] = [draw(st.sampled_from(["cloverup", "sly-dice", "thats-pretty-clever",
                                              "twice-as-clever", ""]) | st.text(max_size=6))]
        elif param.is_flag:
            fuzzed[param.opts[0]] = []
        else:
            fuzzed[param.opts[0]] = [draw(_value(param.opts[0]))]
    args = [a for i, a in enumerate(base) if not _replaced(base, i, fuzzed)]
    for option, value in fuzzed.items():
        args += [option, *value]
    names = {p.opts[0] for p in command.params if isinstance(p, click.Option)}
    for option, value in SMALL.items():
        if option in names and option not in fuzzed:
            args += [option, value]
    if "--quiet" in names:
        args.append("--quiet")
    return [*path, *args]


def _replaced(base: list[str], i: int, fuzzed: dict) -> bool:
    """Is ``base[i]`` an option the example changes, or that option's value?"""
    return base[i] in fuzzed or (i > 0 and base[i - 1] in fuzzed and
                                 not base[i].startswith("-"))


@pytest.fixture
def workspace(tmp_path, monkeypatch):
    """A folder to run in, with the files the file options may name."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "empty.txt").write_text("")
    (tmp_path / "rules.toml").write_text("rounds = 5\n")
    (tmp_path / "sheet.json").write_text(json.dumps({"format": "dicelab-tpc-sheet/1"}))
    (tmp_path / "tac-sheet.json").write_text(json.dumps({"format": "dicelab-tac-sheet/1"}))
    return tmp_path


def check_run(args: list[str]) -> None:
    """Exit status 0, or 2 with at most 3 lines on stderr; never an exception."""
    result = CliRunner().invoke(cli, args, input="done\n")
    shown = f"dicelab {' '.join(map(repr, args))}"
    assert result.exit_code in (0, 2), (shown, result.exit_code, result.exception)
    assert "Traceback" not in result.output, shown
    if result.exit_code == 2:
        lines = result.stderr.splitlines()
        assert 1 <= len(lines) <= 3 and lines[0].startswith("dicelab: error: "), \
            (shown, lines)


def _fuzz(path, examples):
    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow,
                                     HealthCheck.function_scoped_fixture])
    @given(args=arguments(path))
    def run(args):
        check_run(args)

    run()


@pytest.mark.parametrize("path", QUICK, ids=" ".join)
def test_generated_options_end_in_0_or_one_line(workspace, path):
    _fuzz(path, 20)


@pytest.mark.slow
@pytest.mark.parametrize("path", COMMANDS, ids=" ".join)
def test_many_generated_options_end_in_0_or_one_line(workspace, path):
    _fuzz(path, 10 if HEAVY & set(path) else 300)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.integers() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=3),
    max_leaves=12)


@st.composite
def sheets(draw, game_id: str) -> dict:
    """A sheet document: the game's format and some of its fields, each a generated
    JSON value (sometimes a field the format does not know)."""
    from analyzer.registry import get_game

    blank = get_game(game_id).load().GAME.sheetfile.blank()
    fields = draw(st.lists(st.sampled_from([k for k in blank if k != "format"] + ["x"]),
                           max_size=4, unique=True))
    return {"format": blank["format"], **{k: draw(JSON_VALUES) for k in fields}}


def _fuzz_sheets(game_id, examples, folder):
    @settings(max_examples=examples, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(document=sheets(game_id))
    def run(document):
        path = folder / "generated.json"
        path.write_text(json.dumps(document))
        check_run([game_id, "sheet", "--score", str(path)])

    run()


@pytest.mark.parametrize("game_id", ["thats-pretty-clever", "twice-as-clever"])
def test_generated_sheets_score_or_are_one_line(tmp_path, game_id):
    _fuzz_sheets(game_id, 200, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("game_id", ["thats-pretty-clever", "twice-as-clever"])
def test_many_generated_sheets_score_or_are_one_line(tmp_path, game_id):
    _fuzz_sheets(game_id, 3000, tmp_path)
