"""The maintenance scripts' command lines (``analyzer.script_args``): bad input is one line
on stderr and exit status 2, no traceback, and nothing written."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(script: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / script), *args],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, words", [
    (["--solo-games", "0"], "--solo-games: '0': expected a whole number of at least 2"),
    (["--games", "x"], "--games: 'x': expected a whole number of at least 2"),
    (["--more-games", "-5"], "--more-games: '-5': expected a whole number of at least 2"),
    (["--players", "5"], "--players: invalid choice: 5")])
def test_measure_network_refuses_bad_counts_in_one_line(args, words):
    out = _run("measure_network.py", "--game", "tac", "--network", "x.npy", *args)
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    line, = out.stderr.strip().splitlines()
    assert line.startswith(f"measure_network.py: error: argument {words}")


def test_a_training_config_is_each_step_s_command_line(tmp_path):
    """``train_value.py --config FILE``: each ``[[step]]`` table is one command line, its
    options by their long names (a list: several values; true: a flag; false: left out)."""
    from analyzer.games.clever.training import config

    path = tmp_path / "net.toml"
    path.write_text('about = "a test"\n[[step]]\ngame = "tac"\nseed = 5\n'
                    'players = [2, 3]\nquiet = true\nlatest = false\nscale = 0.5\n'
                    '[[step]]\nship = "a.npz"\n')
    steps = config.read_steps(path)
    assert [config.step_arguments(step) for step in steps] == [
        ["--game", "tac", "--seed", "5", "--players", "2", "3", "--quiet", "--scale", "0.5"],
        ["--ship", "a.npz"]]


@pytest.mark.parametrize("text, args, words", [
    ("step = 3\n", [], "expected an optional 'about' text and one or more [[step]]"),
    ("[[step]\n", [], "cannot be read"),
    ('[[step]]\ngame = "tpc"\n', ["--seed", "2"], "unrecognized arguments: --seed 2"),
    ('[[step]]\ngame = "tpc"\n', ["--scale", "0.5"], "only for a trial run (--into DIR)"),
    ("[[step]]\nseed = {a = 1}\n", [], "config option 'seed': expected a string"),
])
def test_a_bad_training_config_is_one_line(tmp_path, text, args, words):
    path = tmp_path / "net.toml"
    path.write_text(text)
    out = _run("train_value.py", "--config", str(path), *args)
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    line, = out.stderr.strip().splitlines()
    assert line.startswith("train_value.py: error:") and words in line


def _script_module(name: str):
    """The script ``scripts/<name>.py`` loaded as a module (its folder importable while it
    loads, as when it runs)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    return module


def test_measure_network_writes_the_cards_table():
    """``measure_network.py --markdown``: one row per point, the network's mean, its paired
    difference with its interval, and the summary line."""
    module = _script_module("measure_network")
    records = [{"players": n, "rounds": r, "track": "no bonus", "games": 200,
                "learned": 150.0, "network": 150.0 + d, "heuristic": 120.0, "diff": d,
                "diff_ci95": [d - 1.5, d + 1.5]} for n, r, d in ((1, 5, -2.25), (1, 6, 4.25),
                                                                 (3, 5, 1.0))]
    text = module.markdown(records, module.summary(records))
    assert "| 1 | 5 | no bonus | 200 | 147.8 | -2.2 (-3.8 to -0.8) | 150.0 | 120.0 |" in text
    assert text.rstrip().endswith("Mean difference over the points: +1.00; worst: -2.25; "
                                  "solo, the margin over the heuristic: +31.00 on average, "
                                  "+27.75 at the smallest.")


def test_measure_network_refuses_an_unwritable_table_before_playing(tmp_path):
    """``--markdown`` into a folder that does not exist: one line, exit status 2, before
    any game is played (no progress bar), nothing written."""
    out = _run("measure_network.py", "--game", "tpc", "--network", "x.npy", "--markdown",
               str(tmp_path / "missing" / "card.md"))
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    line, = out.stderr.strip().splitlines()
    assert line.startswith("measure_network.py: error:") and "missing" in line
    assert not (tmp_path / "missing").exists()


def test_the_benchmark_page_is_one_table_of_a_run_against_its_targets(tmp_path):
    """``bench.py --results FILE --markdown PAGE``: the machine and date of the run, and a
    row per figure with its target and whether it is met; without --markdown, one line."""
    run = {"results": {"solve_warm_s": 0.09, "tac_learned_ms_per_solo_game_1_thread": 4.2,
                       "peak_rss_ratio_1e8_vs_1e6": 1.3, "games_per_s_2_players": 1234.5},
           "machine": {"date": "2026-12-07", "cpu": "AMD EPYC", "cores": "2",
                       "memory": "24 GiB", "python": "3.11.7", "numba": "0.60.0",
                       "numpy": "2.0.2"}}
    (tmp_path / "run.json").write_text(json.dumps(run))
    page = tmp_path / "benchmarks.md"
    out = _run("bench.py", "--results", str(tmp_path / "run.json"), "--markdown", str(page))
    assert out.returncode == 0, out.stderr
    text = page.read_text()
    assert "Measured on 2026-12-07: AMD EPYC, 2 cores, 24 GiB" in text
    rows = {line.split("|")[1].strip(" `"): [cell.strip() for cell in line.split("|")[3:6]]
            for line in text.splitlines() if line.startswith("| `")}
    assert rows == {"solve_warm_s": ["0.09", "<= 0.5", "yes"],
                    "tac_learned_ms_per_solo_game_1_thread": ["4.2", "<= 3.5", "**no**"],
                    "peak_rss_ratio_1e8_vs_1e6": ["1.3", "~ 1", "**no**"],
                    "games_per_s_2_players": ["1,234", "", ""]}
    out = _run("bench.py", "--results", str(tmp_path / "run.json"))
    assert out.returncode == 2 and out.stderr.strip().splitlines() == [
        "bench.py: error: --results goes with --markdown FILE"]


@pytest.mark.parametrize("option, value, accepted", [
    ("--focus", "2", "--focus from 0 to 0.9"), ("--focus", "-0.1", "--focus from 0 to 0.9"),
    ("--solo", "1.5", "--solo from 0 to 1"), ("--solo", "-0.1", "--solo from 0 to 1")])
def test_a_share_of_the_games_out_of_range_is_one_line(option, value, accepted):
    """``train_value.py --focus`` (0 to 0.9) and ``--solo`` (0 to 1): shares of the games,
    else one line naming what is accepted."""
    out = _run("train_value.py", "--game", "tac", option, value)
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    line, = out.stderr.strip().splitlines()
    assert line.startswith("train_value.py: error:") and accepted in line


def test_the_benchmark_advice_positions_are_possible_sheets(tmp_path):
    """``bench.py`` times ``advise`` on sheets the sheet check accepts (every earned
    action unlocked)."""
    from click.testing import CliRunner

    from analyzer.cli import cli

    bench = _script_module("bench")
    for game_id, (fields, _) in bench.ADVICE_POSITIONS.items():
        from analyzer.registry import get_game

        blank = get_game(game_id).load().GAME.sheetfile.blank()
        path = tmp_path / f"{game_id}.json"
        path.write_text(json.dumps({**blank, **fields}))
        result = CliRunner().invoke(cli, [game_id, "sheet", "--score", str(path)])
        assert result.exit_code == 0, result.output


def test_card_strength_summarises_the_measurements():
    """``card_strength.py``: the learned row of each solo table by seed, each multiplayer
    table's rows by seed, the shapes' summary with the mean solo margin, the cost."""
    module = _script_module("card_strength")
    solo = {"policy": "learned", "games": 10, "mean": 300.0, "ci95_low": 299.0,
            "ci95_high": 301.0, "foxes": 3.0}
    mirror = {"match": "learned mirror", "players": 2, "who": "seat 1", "games": 8,
              "win_rate": 0.5, "win_ci95_low": 0.4, "win_ci95_high": 0.6, "mean_score": 1.0}
    tables = {"twice-as-clever seed 7": [{**solo, "policy": "heuristic"}, solo],
              "twice-as-clever multiplayer seed 7": [mirror]}
    records = [{"players": 1, "network": 100.0 + m, "heuristic": 100.0} for m in (20, 30)]
    found = module.strength(tables, {"records": records, "summary": {"mean_diff": 1.5}}, 3.2)
    assert found == {
        "solo_defaults": {"7": {"games": 10, "mean": 300.0, "ci95_low": 299.0,
                                "ci95_high": 301.0}},
        "multiplayer_defaults": {"7": [{k: v for k, v in mirror.items() if k != "mean_score"}]},
        "shapes": {"points": 2, "mean_diff": 1.5, "solo_mean_margin_over_heuristic": 25.0},
        "ms_per_solo_game": 3.2}


def test_card_strength_refuses_unreadable_measurements_in_one_line(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    out = _run("card_strength.py", "--game", "tac", "--evaluation", str(bad), "--shapes",
               str(bad), "--ms", "3")
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "cannot be read" in out.stderr


@pytest.mark.parametrize("ms", ["0", "-1", "nan"])
def test_card_strength_refuses_a_cost_that_is_not_above_zero(ms):
    out = _run("card_strength.py", "--game", "tac", "--evaluation", "x.json", "--shapes",
               "x.json", "--ms", ms)
    assert out.returncode == 2 and out.stdout == "" and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "above 0" in out.stderr
