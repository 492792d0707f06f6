"""The command line as a new user meets it: help everywhere, the documented JSON keys,
every output format, and one clear line with exit status 2 for every kind of bad input."""

import io
import json

import pandas as pd
import pytest
from click.testing import CliRunner

from analyzer.cli import cli
from tests.conftest import dicelab_process

SMALL = ["--games", "4096", "--quiet"]


def run(args):
    return CliRunner().invoke(cli, args)


@pytest.mark.parametrize("args", [[], ["games"], ["rules"], ["report"], ["cheatsheet"],
                                  ["cloverup"], ["cloverup", "solve"], ["cloverup", "simulate"],
                                  ["cloverup", "whatif"], ["cloverup", "turns"]])
def test_help(args):
    result = run([*args, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.output


def test_games_and_rules_list_assumed_parameters():
    assert "cloverup" in run(["games"]).output
    out = run(["rules", "cloverup"]).output
    assert "weights" in out and "ASSUMED" in out and "6,5,5,3,3,1,1" in out


def test_solve_json_contract():
    doc = json.loads(run(["cloverup", "solve", "--format", "json"]).output)
    assert abs(doc["expected_score"] - 12.4555764174) < 1e-9
    assert 0 < doc["p_instant_win"] < 0.01
    assert doc["meta"]["rules"]["weights"] == [6, 5, 5, 3, 3, 1, 1]
    policy = doc["tables"]["policy"]
    assert {"dice", "rerolls_left", "double_six", "choice", "value"} <= set(policy[0])
    reach = json.loads(run(["cloverup", "solve", "--objective", "reach:15", "--format",
                            "json"]).output)
    assert 0 < reach["probability"] < 1 and "p_instant_win" in reach


def test_solve_one_position_is_its_row_of_the_policy_table():
    """``--dice``: the best play of one position, as the whole table has it; a position no
    turn reaches, or a position's option without ``--dice``, is one line."""
    table = json.loads(run(["cloverup", "solve", "--format", "json"]).output)["tables"]
    row = next(r for r in table["policy"] if r["dice"] == "2 6 C" and r["rerolls_left"] == 1
               and not r["double_six"])
    doc = json.loads(run(["cloverup", "solve", "--dice", "c,6,2", "--rerolls-left", "1",
                          "--format", "json"]).output)
    assert (doc["dice"], doc["best_choice"]) == ("2 6 C", row["choice"])
    assert doc["expected_score"] == row["value"]
    for args, words in ((["--dice", "C C C", "--rerolls-left", "1"], "no turn reaches"),
                        (["--dice", "1 2 9"], "bad dice"),
                        (["--rerolls-left", "1"], "give --dice too")):
        _assert_one_line_error(run(["cloverup", "solve", *args]), words)


def test_solve_uniform_weights_reproduce_rules_page():
    doc = json.loads(run(["cloverup", "solve", "--weights", "1,1,1,1,1,1,1", "--format",
                          "json"]).output)
    assert abs(doc["expected_score"] - 16.4244458) < 1e-7


def test_simulate_json_contract():
    result = run(["cloverup", "simulate", *SMALL, "--policy", "optimal,never", "--format",
                  "json"])
    doc = json.loads(result.output)
    assert set(doc["policies"]) == {"optimal", "never"}
    for entry in doc["policies"].values():
        assert len(entry["ci95"]) == 2 and entry["ci95"][0] <= entry["mean_score"]
        assert 0 <= entry["win_rate"] <= 1
    assert doc["meta"]["seed"] == 20261129 and doc["games"] == 4096


def test_solo_simulation_has_no_win_rate():
    doc = json.loads(run(["cloverup", "simulate", *SMALL, "--players", "1", "--format",
                          "json"]).output)
    assert "win_rate" not in doc["policies"]["optimal"]


@pytest.mark.parametrize("fmt", ["table", "csv", "json", "markdown"])
def test_every_format_to_file(tmp_path, fmt):
    path = tmp_path / f"out.{fmt}"
    result = run(["cloverup", "simulate", *SMALL, "--format", fmt, "-o", str(path)])
    assert result.exit_code == 0, result.output
    text = path.read_text()
    if fmt == "csv":
        first = text.split("\n\n")[0].split("\n", 1)[1]
        assert "mean_score" in pd.read_csv(io.StringIO(first)).columns
    elif fmt == "json":
        assert "policies" in json.loads(text)
    elif fmt == "markdown":
        assert "| policy |" in text
    else:
        assert "mean_score" in text


@pytest.mark.parametrize("suffix,check", [
    (".csv", lambda text: "mean_score" in pd.read_csv(io.StringIO(
        text.split("\n\n")[0].split("\n", 1)[1])).columns),
    (".json", lambda text: "policies" in json.loads(text)),
    (".md", lambda text: "| policy |" in text),
    (".txt", lambda text: "mean_score" in text and "| policy |" not in text)])
def test_output_suffix_chooses_the_format(tmp_path, suffix, check):
    """Without --format, -o x.csv / x.json / x.md writes that format (others: the table);
    an explicit --format wins."""
    path = tmp_path / f"out{suffix}"
    result = run(["cloverup", "simulate", *SMALL, "-o", str(path)])
    assert result.exit_code == 0, result.output
    assert check(path.read_text())
    explicit = tmp_path / "explicit.json"
    run(["cloverup", "simulate", *SMALL, "--format", "markdown", "-o", str(explicit)])
    assert "| policy |" in explicit.read_text()


def test_whatif_paired_table():
    doc = json.loads(run(["cloverup", "whatif", "--weights", "6,5,5,3,3,1,2", *SMALL,
                          "--format", "json"]).output)
    variants = doc["variants"]
    assert doc["reference"] == "baseline" and len(variants) == 2
    changed = variants["weights=6,5,5,3,3,1,2"]
    assert changed["exact_turn_score"]["diff"] > 0
    assert len(changed["mean_score"]["diff_ci95"]) == 2
    assert changed["changes"] == "weights=6,5,5,3,3,1,2"
    assert changed["rules"]["weights"] == "6,5,5,3,3,1,2"
    assert variants["baseline"]["rules"]["weights"] == "6,5,5,3,3,1,1"


def test_whatif_variants_each_change_only_their_own_part_of_the_baseline():
    """With --vary and --lineup together, each variant is the baseline (the
    rules in force, --policy) plus exactly its own change, and says so per variant; a
    combined change is one explicit variant."""
    doc = json.loads(run(["sly-dice", "whatif", "--games", "2048", "--quiet",
                          "--vary", "points_five_of_a_kind=60",
                          "--lineup", "bluffer:10,honest",
                          "--vary", "points_five_of_a_kind=60;lineup=bluffer:10,honest",
                          "--format", "json"]).output)
    variants = doc["variants"]
    assert list(variants) == ["baseline", "points_five_of_a_kind=60",
                              "points_five_of_a_kind=60;lineup=bluffer:10,honest",
                              "lineup=bluffer:10,honest"]
    points = {k: v["rules"]["points_five_of_a_kind"] for k, v in variants.items()}
    assert points == {"baseline": "40", "points_five_of_a_kind=60": "60",
                      "points_five_of_a_kind=60;lineup=bluffer:10,honest": "60",
                      "lineup=bluffer:10,honest": "40"}
    assert variants["lineup=bluffer:10,honest"]["lineup"] == ["bluffer:10", "honest"]
    assert variants["points_five_of_a_kind=60"]["lineup"] == ["equilibrium"]  # the default
    assert variants["lineup=bluffer:10,honest"]["changes"] == "lineup=bluffer:10,honest"
    assert doc["meta"]["rules"]["points_five_of_a_kind"] == 40  # the baseline's
    for name in list(variants)[1:]:
        assert len(variants[name]["mean_score"]["diff_ci95"]) == 2


def test_solo_whatif_has_no_win_rates():
    doc = json.loads(run(["cloverup", "whatif", "--players", "1", "--vary", "rerolls=3",
                          *SMALL, "--format", "json"]).output)
    assert all("first_seat_win_rate" not in v for v in doc["variants"].values())


def test_whatif_needs_a_variant():
    _assert_one_line_error(run(["cloverup", "whatif", *SMALL]), "--vary")


def test_cheatsheet_writes_pdf(tmp_path):
    path = tmp_path / "card.pdf"
    result = run(["cheatsheet", "cloverup", "-o", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_bytes().startswith(b"%PDF")


BAD_INPUTS = [
    (["nosuch"], "unknown command"),
    (["rules", "nosuch"], "unknown game"),
    (["cloverup", "nosuch"], "unknown command"),
    (["cloverup", "simulate", "--policy", "greedy"], "unknown policy"),
    (["cloverup", "simulate", "--policy", "reach:40"], "unknown policy"),
    (["cloverup", "solve", "--weights", "1,2"], "weights"),
    (["cloverup", "solve", "--weights", "a,b,c,d,e,f,g"], "weights"),
    (["cloverup", "solve", "--weights", "-1,1,1,1,1,1,1"], "weights"),
    (["cloverup", "solve", "--weights", "0,0,0,0,0,0,0"], "weights"),
    (["cloverup", "solve", "--objective", "fastest"], "objective"),
    (["cloverup", "simulate", "--games", "-5"], "game count"),
    (["cloverup", "simulate", "--games", "0"], "game count"),
    (["cloverup", "turns", "--turns", "0"], "turn count"),
    (["cloverup", "simulate", "--players", "9"], "players"),
    (["cloverup", "simulate", "--players", "3", "--policy", "win"], "two players"),
    (["cloverup", "simulate", "--seed", "-1"], "seed"),
    (["cloverup", "simulate", "--threads", "0"], "thread"),
    (["cloverup", "simulate", "--precision", "0"], "precision"),
    (["cloverup", "simulate", "--win-precision", "-1"], "win precision"),
    (["cloverup", "simulate", "--format", "xml"], "format"),
    (["cloverup", "solve", "--set", "rounds"], "key=value"),
    (["cloverup", "solve", "--set", "nosuch=1"], "unknown rule parameter"),
    (["cloverup", "solve", "--set", "rounds=0"], "rounds"),
    (["cloverup", "solve", "--rules", "/nonexistent/rules.toml"], "does not exist"),
    (["cloverup", "whatif", "--vary", "players=3"], "players"),
    (["sly-dice", "odds", "--common", "1,2,3", "--points-file", "/nonexistent/p.toml"],
     "points file '/nonexistent/p.toml' does not exist"),
    (["sly-dice", "claim", "--common", "1,2,3", "--locked", "5", "--hidden", "6,2,4"],
     "expected 2 faces 1..6 separated by commas, e.g. 3,1"),
]


def _assert_one_line_error(result, needle):
    assert result.exit_code == 2, (result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("dicelab: error:"), result.stderr
    assert needle in lines[0], lines[0]
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args,needle", BAD_INPUTS)
def test_bad_input_is_one_line_exit_2(args, needle):
    _assert_one_line_error(run(args), needle)


@pytest.mark.parametrize("body,needle", [("bogus = 1", "unknown rule parameter"),
                                         ("rounds = 'five'", "rounds"),
                                         ("rounds = [", "not valid TOML")])
def test_broken_rules_file(tmp_path, body, needle):
    path = tmp_path / "rules.toml"
    path.write_text(body)
    _assert_one_line_error(run(["cloverup", "solve", "--rules", str(path)]), needle)


@pytest.mark.parametrize("target", ["missing/out.json", "."])
def test_unwritable_output_leaves_nothing(tmp_path, monkeypatch, target):
    monkeypatch.chdir(tmp_path)
    result = run(["cloverup", "simulate", *SMALL, "-o", target])
    _assert_one_line_error(result, "")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ["cloverup", "solve", "-o", "/proc/version"],
    ["cloverup", "simulate", *SMALL, "-o", "/sys/out.json"],
    ["cheatsheet", "cloverup", "-o", "/proc/x.pdf"],
    ["report", "--quick", "-o", "/proc/rep"]])
def test_virtual_file_systems_are_refused_before_any_work(args):
    """Paths under /proc and /sys cannot take files: one line, exit 2, before the run
    starts (the report would otherwise compute everything first)."""
    _assert_one_line_error(run(args), "cannot write")


def test_an_output_folder_that_is_a_file_is_named_so(tmp_path):
    (tmp_path / "file").write_text("")
    _assert_one_line_error(run(["cloverup", "solve", "-o", str(tmp_path / "file" / "x.json")]),
                           "is a file, not a folder")


@pytest.mark.parametrize("group", [[], ["cloverup"], ["sly-dice"]])
def test_a_group_without_a_command_prints_its_help(group):
    result = run(group)
    assert result.exit_code == 0 and result.output.startswith("Usage: ")
    assert "Commands:" in result.output and "error" not in result.output


def test_failed_run_leaves_no_partial_output(tmp_path):
    path = tmp_path / "out.json"
    result = run(["cloverup", "simulate", "--policy", "nosuch", "-o", str(path)])
    assert result.exit_code == 2 and not path.exists()
    assert list(tmp_path.iterdir()) == []


def test_cheatsheet_needs_pdf_name(tmp_path):
    _assert_one_line_error(run(["cheatsheet", "cloverup", "-o", str(tmp_path / "a.txt")]),
                           ".pdf")


def test_report_folder_that_is_a_file(tmp_path):
    path = tmp_path / "file"
    path.write_text("x")
    _assert_one_line_error(run(["report", "-o", str(path)]), "is a file")


def test_report_with_changed_rules(tmp_path):
    rules = tmp_path / "rules.toml"
    rules.write_text("[cloverup]\nrounds = 3\n")
    out = tmp_path / "rep"
    result = run(["report", "--quick", "--quiet", "--game", "cloverup", "-o", str(out),
                  "--rules", str(rules),
                  "--set", "cloverup.weights=6,5,5,3,3,2,1"])
    assert result.exit_code == 0, result.output
    summary = (out / "summary.md").read_text()
    assert "rounds = 3 (default 5)" in summary and "weights = 6,5,5,3,3,2,1" in summary
    assert (out / "report.pdf").read_bytes().startswith(b"%PDF")
    assert (out / "appendix.pdf").read_bytes().startswith(b"%PDF")
    figures = {p.stem for p in (out / "figures").glob("*.png")}
    assert len(figures) == 13 and {"cloverup_comeback", "cloverup_rule_first_seat",
                                   "cloverup_game_length", "cloverup_skill",
                                   "cloverup_player_counts"} <= figures


@pytest.mark.parametrize("args,needle", [(["--set", "rounds=3"], "GAME.KEY=VALUE"),
                                         (["--set", "nosuch.rounds=3"], "GAME.KEY=VALUE"),
                                         (["--set", "cloverup.rounds=0"], "rounds")])
def test_report_bad_settings(tmp_path, args, needle):
    _assert_one_line_error(run(["report", "--quick", "-o", str(tmp_path / "r"), *args]), needle)
    assert not (tmp_path / "r").exists()


def test_chunks_are_computed_on_demand():
    """A run's chunks are a sequence computed on demand (flat memory for any count)."""
    from analyzer.run.plan import Chunks

    chunks = Chunks(10**18, 1 << 17)
    assert len(chunks) == -(-10**18 // (1 << 17))
    assert chunks[0] == (0, 1 << 17) and chunks[-1][0] + chunks[-1][1] == 10**18
    assert list(Chunks(5, 2)) == [(0, 2), (2, 2), (4, 1)] and Chunks(5, 2)[1:] == [(2, 2),
                                                                                    (4, 1)]


def test_a_huge_game_count_runs_in_flat_memory():
    """10^15 games: the run starts at once and its memory stays flat (no list of every
    chunk is built first: that would take tens of gigabytes); stopped after a few
    seconds."""
    import subprocess
    import time
    from pathlib import Path

    peak = 0
    with dicelab_process("cloverup", "simulate", "--games", str(10**15), "--quiet",
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as proc:
        for _ in range(10):
            time.sleep(0.4)
            status = Path(f"/proc/{proc.pid}/status").read_text()
            rss = int(next(line for line in status.splitlines()
                           if line.startswith("VmRSS")).split()[1])
            peak = max(peak, rss)
        assert proc.poll() is None  # still running: nothing refused it
    assert peak < 1_000_000, f"peak RSS {peak} kB"


@pytest.mark.parametrize("rollouts", ["-3", "0", "2000000"])
def test_rollout_counts_are_bounded(tmp_path, rollouts):
    sheet = tmp_path / "sheet.json"
    assert run(["thats-pretty-clever", "sheet", "--new", "-o", str(sheet)]).exit_code == 0
    for command in (["advise", "--roll", "W3 Y5 B2 G6 O4 P1"], ["coach"]):
        result = run(["thats-pretty-clever", *command, "--sheet", str(sheet),
                      "--rollouts", rollouts])
        _assert_one_line_error(result, "expected 1 to 1,000,000")


@pytest.mark.parametrize("horizon", ["-1", "two", "1.5"])
def test_a_bad_rollout_horizon_is_one_line(tmp_path, horizon):
    """``advise --horizon``: a whole number of rounds, 0 or more, or 'full'."""
    sheet = tmp_path / "sheet.json"
    assert run(["thats-pretty-clever", "sheet", "--new", "-o", str(sheet)]).exit_code == 0
    result = run(["thats-pretty-clever", "advise", "--roll", "W3 Y5 B2 G6 O4 P1",
                  "--sheet", str(sheet), "--horizon", horizon])
    _assert_one_line_error(result, "expected a whole number of rounds (0 or more) or 'full'")


def test_ctrl_c_stops_a_slow_simulation_at_once():
    """Ctrl-C during a heuristic simulation (chunks of seconds) ends the run within 2 s,
    with one line and exit status 130: the chunk runs on a helper thread."""
    import signal
    import subprocess
    import time

    with dicelab_process("thats-pretty-clever", "simulate", "--policy", "heuristic",
                         "--games", "1000000", "--quiet", stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True) as proc:
        time.sleep(5)
        assert proc.poll() is None
        start = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        assert time.perf_counter() - start < 2.0
    assert proc.returncode == 130 and err.strip().startswith("dicelab: interrupted")
    assert len(err.strip().splitlines()) == 1


def test_bad_what_if_and_return_window_inputs_are_one_line(tmp_path):
    """A what-if variant given twice, and That's Pretty Clever's (absent) return window."""
    _assert_one_line_error(run(["cloverup", "whatif", "--vary", "rerolls=3", "--vary",
                                "rerolls=3", *SMALL]), "given twice")
    sheet = tmp_path / "sheet.json"
    assert run(["thats-pretty-clever", "sheet", "--new", "-o", str(sheet)]).exit_code == 0
    _assert_one_line_error(run(["thats-pretty-clever", "advise", "--sheet", str(sheet),
                                "--phase", "return", "--fields", "Y5", "--platter", "W3"]),
                           "has no return action")
