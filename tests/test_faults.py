"""Fault injection: each case is built in a temporary folder (private devices,
named pipes, symbolic links, small tmpfs disks, damaged checkpoints and kept answers,
deep JSON, signals), and each test checks the exit status, the lines on stderr and what
is left on disk. Nothing here touches the system's /dev."""

import errno
import json
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.run import kept
from analyzer.cli import cli
from tests.conftest import ctrl_c_reaches_child

REPO = Path(__file__).resolve().parents[1]
LONG_NAME = "x" * 300
TURNS = ["cloverup", "turns", "--turns", "200000", "--quiet", "--format", "json"]


def run(args, **kwargs):
    return CliRunner().invoke(cli, [str(a) for a in args], **kwargs)


def one_line_error(result, needle: str) -> str:
    """The single stderr line of a run that failed with exit status 2, containing
    ``needle``."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("dicelab: error: "), result.stderr
    assert needle in lines[0] and "Traceback" not in result.output, lines[0]
    return lines[0]


def dicelab(*args, **popen) -> subprocess.CompletedProcess:
    """``python -m analyzer ARGS`` to the end, output captured as text unless redirected."""
    popen.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "analyzer", *map(str, args)], cwd=REPO,
                          timeout=120, text=True, **popen)


def device(folder: Path, name: str, minor: int) -> Path:
    """A private character device of the memory driver (major 1) in ``folder``: minor 3
    is a null device, 7 a full one. Skips the test where mknod is not allowed."""
    path = folder / name
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    except PermissionError:
        pytest.skip("making a device needs root (CAP_MKNOD)")
    return path


# --- output paths: devices, pipes, symbolic links, modes ---------------------------------
def test_a_null_device_is_written_through_and_stays_a_device(tmp_path):
    null = device(tmp_path, "null", 3)
    result = run(["games", "-o", null])
    assert result.exit_code == 0, result.output
    assert stat.S_ISCHR(null.stat().st_mode) and sorted(tmp_path.iterdir()) == [null]


def test_a_full_device_is_one_line_and_stays_a_device(tmp_path):
    full = device(tmp_path, "full", 7)
    one_line_error(run(["games", "-o", full]), "no space left on device")
    assert stat.S_ISCHR(full.stat().st_mode) and sorted(tmp_path.iterdir()) == [full]


def test_standard_output_on_a_full_device_is_one_line(tmp_path):
    full = device(tmp_path, "full", 7)
    with open(full, "w") as out:
        done = dicelab("games", stdout=out)
    assert done.returncode == 2
    assert done.stderr == ("dicelab: error: cannot write standard output: no space left "
                           "on device (the disk is full)\n")


def test_a_reader_that_closed_standard_output_ends_the_run_quietly():
    """``dicelab ... | head``: as ``cat`` would, no message (exit status 1)."""
    read, write = os.pipe()
    os.close(read)
    try:
        for args in (["games"], ["games", "-o", "/dev/stdout"]):
            done = dicelab(*args, stdout=write)
            assert (done.returncode, done.stderr) == (1, "")
    finally:
        os.close(write)


def test_a_named_pipe_is_written_through_to_its_reader(tmp_path):
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_bytes()), daemon=True)
    reader.start()
    result = run(["games", "--format", "csv", "-o", pipe])
    reader.join(10)
    assert result.exit_code == 0, result.output
    assert got and got[0].decode().startswith("# games\ngame,title")
    assert stat.S_ISFIFO(pipe.stat().st_mode) and sorted(tmp_path.iterdir()) == [pipe]


def test_dev_stdout_is_written_through_the_open_descriptor(tmp_path):
    """``-o /dev/stdout >> log`` appends to the log, as the shell would (a file put in
    its place would lose what the log held); a descriptor not open for writing is one
    line."""
    log = tmp_path / "log"
    log.write_text("kept\n")
    with open(log, "a") as out:
        done = dicelab("games", "-o", "/dev/stdout", stdout=out)
    assert done.returncode == 0 and done.stderr == ""
    assert log.read_text().startswith("kept\ndicelab games\n")
    assert sorted(tmp_path.iterdir()) == [log]
    one_line_error(run(["games", "-o", "/dev/fd/97"]), "not open for writing")


def test_a_symbolic_link_writes_its_target_and_stays_a_link(tmp_path):
    target, link = tmp_path / "target.csv", tmp_path / "link.csv"
    target.write_text("old")
    link.symlink_to(target.name)
    assert run(["games", "-o", link]).exit_code == 0
    assert link.is_symlink() and os.readlink(link) == "target.csv"
    assert target.read_text().startswith("# games")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.csv", "target.csv"]


def test_a_dangling_symbolic_link_creates_its_target(tmp_path):
    link = tmp_path / "link.csv"
    link.symlink_to("made.csv")
    assert run(["games", "-o", link]).exit_code == 0
    assert link.is_symlink() and (tmp_path / "made.csv").read_text().startswith("# games")


def test_new_files_follow_the_umask_and_replaced_files_keep_their_mode(tmp_path):
    old = tmp_path / "old.csv"
    old.write_text("old")
    old.chmod(0o604)
    mask = os.umask(0o027)
    try:
        assert run(["games", "-o", tmp_path / "new.csv"]).exit_code == 0
        assert run(["games", "-o", old]).exit_code == 0
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "new.csv").stat().st_mode) == 0o640
    assert stat.S_IMODE(old.stat().st_mode) == 0o604 and old.read_text() != "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.csv", "old.csv"]


def test_an_existing_file_is_written_through_keeping_its_hard_links(tmp_path):
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    first.write_text("old")
    os.link(first, second)
    inode = first.stat().st_ino
    assert run(["games", "-o", first]).exit_code == 0
    assert first.stat().st_ino == inode and first.stat().st_nlink == 2
    assert second.read_text() == first.read_text() and first.read_text().startswith("# games")


def test_another_user_s_file_keeps_its_owner_and_mode(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("giving a file to another user needs root")
    theirs = tmp_path / "theirs.csv"
    theirs.write_text("old" * 1000)
    theirs.chmod(0o640)
    os.chown(theirs, 65534, 65534)
    assert run(["games", "-o", theirs]).exit_code == 0
    info = theirs.stat()
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (65534, 65534, 0o640)
    assert theirs.read_text().startswith("# games") and "old" not in theirs.read_text()


def test_an_existing_file_is_written_without_making_a_file_in_its_folder(tmp_path,
                                                                         monkeypatch):
    """As ``>``: a writable file in a folder that takes no new files is written (the
    folder stands for one without write permission, which root would not feel)."""
    import tempfile

    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    old = tmp_path / "old.csv"
    old.write_text("old")
    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    assert run(["games", "-o", old]).exit_code == 0
    assert old.read_text().startswith("# games")
    one_line_error(run(["games", "-o", tmp_path / "new.csv"]), "permission denied")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv"]


def test_a_symbolic_link_that_loops_is_one_line_and_stays(tmp_path):
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    first.symlink_to(second.name)
    second.symlink_to(first.name)
    one_line_error(run(["games", "-o", first]), "loops back to itself")
    assert first.is_symlink() and second.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "b.csv"]


def test_a_socket_is_refused_and_stays(tmp_path):
    import socket

    path = tmp_path / "sock"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        one_line_error(run(["games", "-o", path]), "is a socket")
        assert stat.S_ISSOCK(path.stat().st_mode)


def test_temporary_files_of_killed_runs_are_removed_by_the_next(tmp_path):
    """``.NAME.PID.xxxxxxxx.tmp``: removed when PID is gone, kept while it runs."""
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    stale = tmp_path / f".out.csv.{dead}.abcdefgh.tmp"
    running = tmp_path / f".out.csv.{os.getpid()}.abcdefgh.tmp"
    stale.write_text("partial")
    running.write_text("partial")
    assert run(["games", "-o", tmp_path / "out.csv"]).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["out.csv", running.name])
    running.unlink()
    assert run(TURNS + ["--checkpoint", tmp_path / "ck"]).exit_code == 0
    (folder,) = (tmp_path / "ck").iterdir()
    (folder / f".chunk-0-200000.npy.{dead}.abcdefgh.tmp").write_text("partial")
    assert run(TURNS + ["--checkpoint", tmp_path / "ck"]).exit_code == 0
    assert not list(folder.glob(".*"))


@pytest.mark.parametrize("args", [
    ["games", "-o", "{tmp}/" + LONG_NAME],
    ["games", "-o", "{tmp}/" + LONG_NAME + "/out.csv"],
    ["report", "--quick", "-o", "{tmp}/" + LONG_NAME],
    ["cloverup", "turns", "--turns", "1000", "--checkpoint", "{tmp}/" + LONG_NAME]])
def test_a_name_longer_than_the_system_allows_is_one_line(tmp_path, args):
    result = run([a.replace("{tmp}", str(tmp_path)) for a in args])
    line = one_line_error(result, "too long")
    assert len(line) < 250 and list(tmp_path.iterdir()) == []


# --- full and read-only disks (a small tmpfs; root only) ---------------------------------
def _mount(folder: Path, options: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)],
                          capture_output=True, text=True)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KiB tmpfs holding a 60 KiB file: one page (4 KiB) is free."""
    disk = tmp_path / "disk"
    _mount(disk, "size=64k")
    try:
        (disk / "filler").write_bytes(b"\0" * 60 * 1024)
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


@pytest.fixture
def read_only_disk(tmp_path):
    """A read-only tmpfs holding one file, ``old.csv``, and one folder, ``ck``."""
    disk = tmp_path / "ro"
    _mount(disk, "size=64k")
    try:
        (disk / "old.csv").write_text("old")
        (disk / "ck").mkdir()
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def test_a_disk_that_fills_while_writing_is_one_line_and_keeps_nothing(small_disk):
    one_line_error(run(["rules", "thats-pretty-clever", "--format", "json", "-o",
                        small_disk / "rules.json"]), "no space left on device")
    assert [p.name for p in small_disk.iterdir()] == ["filler"]


def test_a_disk_too_full_for_an_existing_file_s_new_text_keeps_the_old(small_disk):
    old = small_disk / "old.json"
    old.write_text("old")
    one_line_error(run(["rules", "thats-pretty-clever", "--format", "json", "-o", old]),
                   "no space left on device")
    assert old.read_text() == "old"
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "old.json"]


def test_a_full_disk_is_refused_before_any_work(small_disk):
    (small_disk / "more").write_bytes(b"\0" * 4096)
    for args in (["games", "-o", small_disk / "g.csv"],
                 ["cheatsheet", "cloverup", "-o", small_disk / "cs.pdf"],
                 ["report", "--quick", "-o", small_disk / "rep"]):
        one_line_error(run(args), "no space left on device")
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "more"]


def test_a_report_that_fills_the_disk_is_one_line_and_leaves_nothing(small_disk):
    from analyzer.errors import UserError
    from reports.build import write_checked
    from tests.test_reports import sections

    with pytest.raises(UserError, match="cannot write report folder .*no space left"):
        write_checked(sections(), small_disk / "rep", ["seed 1"])
    assert [p.name for p in small_disk.iterdir()] == ["filler"]


def test_a_report_folder_linked_to_another_disk_is_written_there(tmp_path):
    """A symbolic link to a folder on another file system: the files are made on that
    disk (moving them in across disks would fail) and the link stays."""
    from reports.balance import write_report
    from tests.test_reports import sections

    disk = tmp_path / "other"
    _mount(disk, "size=8m")
    try:
        link = tmp_path / "rep"
        link.symlink_to(disk / "real")
        write_report(sections(), link, "T", ["seed 1"])
        assert link.is_symlink() and (disk / "real" / "report.pdf").exists()
        assert sorted(p.name for p in disk.iterdir()) == ["real"]
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


@pytest.mark.parametrize("args,needle", [
    (["games", "-o", "{ro}/new.csv"], "read-only file system"),
    (["games", "-o", "{ro}/old.csv"], "read-only file system"),
    (["report", "-o", "{ro}/rep"], "read-only file system"),
    (["cloverup", "turns", "--turns", "1000", "--checkpoint", "{ro}/ck"],
     "read-only file system"),
    (["cloverup", "turns", "--turns", "1000", "--checkpoint", "{ro}/new"],
     "read-only file system")])
def test_a_read_only_file_system_is_named_so(read_only_disk, args, needle):
    line = one_line_error(run([str(a).replace("{ro}", str(read_only_disk)) for a in args]),
                          needle)
    assert "permission denied" not in line
    assert sorted(p.name for p in read_only_disk.iterdir()) == ["ck", "old.csv"]


# --- damaged checkpoints -----------------------------------------------------------------
def _flip_two_bytes(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[-3] ^= 0xFF
    data[-11] ^= 0x01
    path.write_bytes(bytes(data))


def _save(array):
    return lambda path: np.save(path, array(np.load(path)), allow_pickle=True)


DAMAGE = {
    "two bytes flipped": (_flip_two_bytes, "checksum"),
    "wrong shape": (_save(lambda a: a.reshape(-1)[:5]), "shape"),
    "wrong dtype": (_save(lambda a: a.astype(np.float32)), "type"),
    "pickled objects": (_save(lambda a: np.array([{"a": 1}], dtype=object)),
                        "not a readable array"),
    "truncated": (lambda p: p.write_bytes(p.read_bytes()[:100]), "not a readable array"),
    "record gone": (lambda p: p.with_suffix(".json").unlink(), "no checksum record"),
    "a named pipe": (lambda p: (p.unlink(), os.mkfifo(p)), "not a regular file"),
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_chunk_is_named_and_computed_again(tmp_path, damage):
    args = TURNS + ["--checkpoint", tmp_path]
    clean = run(args)
    assert clean.exit_code == 0 and clean.stderr == ""
    chunk = next(tmp_path.rglob("chunk-*.npy"))
    harm, words = DAMAGE[damage]
    harm(chunk)
    again = run(args)
    assert again.exit_code == 0, again.output
    lines = again.stderr.splitlines()
    assert len(lines) == 1 and chunk.name in lines[0] and words in lines[0], again.stderr
    assert "computing it again" in lines[0] and "allow_pickle" not in again.stderr
    assert json.loads(again.stdout)["tables"] == json.loads(clean.stdout)["tables"]
    third = run(args)  # stored again, whole
    assert third.stderr == "" and json.loads(third.stdout)["meta"]["chunks_from_checkpoint"]


def test_a_chunk_copied_over_another_is_computed_again(cloverup_values, tmp_path, capsys):
    """A whole chunk with its record, copied in place of another chunk, does not pass:
    the checksum is bound to the chunk's name."""
    import shutil

    from analyzer.run import execution
    from analyzer.games.cloverup.simulation import simulate_turns

    def turns():
        return simulate_turns(cloverup_values, "optimal", 800_000, 3, None, False,
                              batch_blocks=4)

    with execution.session(checkpoint=str(tmp_path)):
        clean = turns()
    first, second = sorted(tmp_path.rglob("chunk-*.npy"))[:2]
    for suffix in (".npy", ".json"):
        shutil.copyfile(first.with_suffix(suffix), second.with_suffix(suffix))
    capsys.readouterr()
    with execution.session(checkpoint=str(tmp_path)) as again:
        np.testing.assert_array_equal(turns(), clean)
        assert (again.computed, again.resumed) == (1, 3)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and second.name in err[0] and "checksum" in err[0]


# --- damaged kept answers ----------------------------------------------------------------
@pytest.fixture
def kept_folder(tmp_path, monkeypatch):
    monkeypatch.setattr(kept, "cache_dir", lambda: tmp_path)
    return tmp_path


def _edit_number(doc):
    doc["answer"]["json"] = doc["answer"]["json"].replace('"expected_score": 1',
                                                          '"expected_score": 9', 1)
    return doc


@pytest.mark.parametrize("edit", [_edit_number, lambda doc: {"table": 123},
                                  lambda doc: {**doc, "answer": {"table": 123}}])
def test_an_edited_kept_answer_is_computed_again(kept_folder, edit):
    args = ["cloverup", "solve", "--set", "rounds=3", "--format", "json"]
    clean = run(args)
    assert clean.exit_code == 0 and '"expected_score": 1' in clean.stdout
    (path,) = kept_folder.glob("kept-cloverup-solve-*.json")
    path.write_text(json.dumps(edit(json.loads(path.read_text()))))
    again = run(args)
    assert again.exit_code == 0 and again.stdout == clean.stdout
    assert again.stderr.count("\n") == 1 and "computing it again" in again.stderr


def test_a_kept_answer_that_is_a_pipe_is_computed_again(kept_folder):
    assert kept.answer("n", [1], lambda: 0.25) == 0.25
    (path,) = kept_folder.glob("kept-n-*.json")
    path.unlink()
    os.mkfifo(path)
    assert kept.answer("n", [1], lambda: 0.5) == 0.5
    assert kept.answer("n", [1], lambda: 0.75) == 0.5 and path.is_file()


def test_a_kept_answer_copied_from_other_inputs_is_computed_again(kept_folder):
    assert kept.answer("n", [1], lambda: 0.25) == 0.25
    assert kept.answer("n", [2], lambda: 0.5) == 0.5
    one, two = (kept.path_for("n", [k]) for k in (1, 2))
    two.write_bytes(one.read_bytes())
    assert kept.answer("n", [2], lambda: 0.5) == 0.5


def test_an_edited_kept_number_is_computed_again(kept_folder):
    calls = []

    def compute():
        calls.append(1)
        return 0.25

    assert kept.answer("n", [1], compute, kept.is_probability) == 0.25
    (path,) = kept_folder.glob("kept-n-*.json")
    for text in (path.read_text().replace("0.25", "0.75"),
                 json.dumps({"answer": 7.0, "sha256": "0"}), "123", "[" * 100_000):
        path.write_text(text)
        assert kept.answer("n", [1], compute, kept.is_probability) == 0.25
    assert len(calls) == 5


# --- bad input: one line, exit 2 ---------------------------------------------------------
@pytest.mark.parametrize("command", [["thats-pretty-clever", "sheet", "--score"],
                                     ["twice-as-clever", "advise", "--roll", "W3", "--sheet"]])
def test_a_deeply_nested_sheet_is_one_line(tmp_path, command):
    sheet = tmp_path / "deep.json"
    sheet.write_text("[" * 100_000)
    one_line_error(run(command + [sheet]), "nested too deeply")
    assert list(tmp_path.iterdir()) == [sheet]


@pytest.mark.parametrize("args,needle", [
    (["cloverup", "solve", "--weights", "1e308,1e308,1,1,1,1,1"], "each at most 1e+06"),
    (["cloverup", "simulate", "--policy", "never", "--set",
      "weights=1e308,1e308,1,1,1,1,1"], "each at most"),
    (["cloverup", "solve", "--weights", "inf,1,1,1,1,1,1"], "each at most"),
    (["thats-pretty-clever", "simulate", "--win-precision", "1"], "two or more players"),
    (["cloverup", "simulate", "--players", "1", "--win-precision", "1"],
     "two or more players"),
    (["cloverup", "whatif", "--vary", "rounds=7", "--games", "9" * 30], "bad game count"),
    (["cloverup", "simulate", "--max-games", "9" * 30], "bad --max-games"),
    (["cloverup", "turns", "--turns", str(10**19)], "bad turn count"),
    (["thats-pretty-clever", "train", "--network", "x.npy", "--games", "9" * 30],
     "bad game count"),
    (["cloverup", "simulate", "--seed", str(2**64)], "bad seed")])
def test_bad_numbers_are_one_line(args, needle):
    one_line_error(run(args), needle)


@pytest.mark.parametrize("command", [["thats-pretty-clever", "sheet", "--score"],
                                     ["cloverup", "solve", "--rules"],
                                     ["sly-dice", "odds", "--common", "2,3,5",
                                      "--points-file"]])
def test_an_endless_input_device_is_one_line(tmp_path, command):
    zero = device(tmp_path, "zero", 5)
    one_line_error(run(command + [zero]), "larger than 1024 KiB")
    assert sorted(tmp_path.iterdir()) == [zero]


def test_an_input_file_that_is_not_text_is_one_line(tmp_path):
    sheet = tmp_path / "sheet.json"
    sheet.write_bytes(b"\xff\xfe{}")
    one_line_error(run(["thats-pretty-clever", "sheet", "--score", sheet]),
                   "not UTF-8 text (byte 0)")


def test_an_output_name_ending_in_a_slash_is_one_line(tmp_path):
    one_line_error(run(["games", "-o", f"{tmp_path}/new/"]), "a folder's name")
    assert list(tmp_path.iterdir()) == []


def test_a_points_file_with_a_table_is_one_readable_line(tmp_path):
    points = tmp_path / "points.toml"
    points.write_text("[points]\nfull-house = 20\n")
    line = one_line_error(run(["sly-dice", "odds", "--common", "2,3,5", "--points-file",
                               points]), "table [points]")
    assert "{" not in line and "full-house = 20" in line


# --- signals: coach, report, kill -9 -----------------------------------------------------
def _read_until(stream, text: str, seconds: float = 120) -> str:
    seen, deadline = b"", time.monotonic() + seconds
    while text.encode() not in seen and time.monotonic() < deadline:
        chunk = os.read(stream.fileno(), 4096)
        if not chunk:
            break
        seen += chunk
    return seen.decode(errors="replace")


def test_ctrl_c_at_the_coach_prompt_is_one_line_exit_130():
    from tests.conftest import dicelab_process

    with dicelab_process("thats-pretty-clever", "coach", "--rollouts", "10",
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE) as proc:
        assert "done>" in _read_until(proc.stdout, "done>")
        proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=30)[1].decode()
    assert proc.returncode == 130
    assert err.splitlines() == ["dicelab: interrupted: the game ends here, nothing was "
                                "written"]


def test_bytes_typed_into_coach_are_shown_as_bytes():
    done = subprocess.run([sys.executable, "-m", "analyzer", "thats-pretty-clever", "coach",
                           "--rollouts", "10"], cwd=REPO, input=b"W3 \x9e\xff\ndone\n",
                          capture_output=True, timeout=120)
    out = done.stdout.decode()
    assert done.returncode == 0 and "'\\x9e\\xff'" in out and "\\udc" not in out


def test_ctrl_c_in_any_command_is_one_line_exit_130():
    code = ("import analyzer.output, analyzer.cli\n"
            "def stop(*args): raise KeyboardInterrupt\n"
            "analyzer.output.emit = stop\n"
            "analyzer.cli.cli.main(['games'])\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stderr) == (130, "dicelab: interrupted\n")


def _live_in_group(group: int) -> list[int]:
    """The processes of process group ``group`` that are alive (not zombies)."""
    live = []
    for entry in Path("/proc").iterdir():
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == group and fields[0] != "Z":
            live.append(int(entry.name))
    return live


def _wait(predicate, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _report(out: Path) -> subprocess.Popen:
    """A two-lane report in its own process group, once both lane processes run."""
    from analyzer.report_lanes import default_lanes

    if default_lanes() < 2:
        pytest.skip("a report builds in lanes on two or more cores only")
    proc = subprocess.Popen([sys.executable, "-m", "analyzer", "report", "--quick",
                             "--quiet", "--game", "cloverup", "--game", "sly-dice", "-o",
                             str(out)], cwd=REPO, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=ctrl_c_reaches_child)
    if not _wait(lambda: len(_live_in_group(proc.pid)) >= 4, 60):  # + resource tracker
        proc.kill()
        pytest.fail("the report's lane processes did not start")
    return proc


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_ctrl_c_of_a_report_is_one_line_and_ends_its_processes(tmp_path):
    proc = _report(tmp_path / "rep")
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C does
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130
    assert err.splitlines() == ["dicelab: interrupted; use --checkpoint DIR to make long "
                                "runs resumable"]
    assert _wait(lambda: not _live_in_group(proc.pid), 5)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_the_lanes_of_a_killed_report_end_soon_after(tmp_path):
    proc = _report(tmp_path / "rep")
    proc.kill()
    proc.wait()
    assert _wait(lambda: not _live_in_group(proc.pid), 5), _live_in_group(proc.pid)


STALLED_REPORT = """
import sys, time
from pathlib import Path
import reports.balance as balance
from tests.test_reports import sections

def stall(*args, **kwargs):
    print("writing", flush=True)
    time.sleep(300)

balance._write_pdfs = stall
balance.write_report(sections(), Path(sys.argv[1]), "T", [])
"""


def test_a_report_killed_while_writing_is_cleaned_up_by_the_next(tmp_path):
    """kill -9 while the files are written leaves a hidden folder (and the figure process
    ends with its parent); the next successful write removes the folder."""
    from reports.balance import write_report
    from tests.test_reports import sections

    out = tmp_path / "rep"
    proc = subprocess.Popen([sys.executable, "-c", STALLED_REPORT, str(out)], cwd=REPO,
                            stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert proc.stdout.readline() == "writing\n"
    finally:
        proc.kill()
        proc.wait()
    (stale,) = tmp_path.iterdir()
    assert stale.name.startswith(f".rep.{proc.pid}.") and stale.name.endswith(".tmp")
    assert _wait(lambda: not _live_in_group(proc.pid), 5)
    write_report(sections(), out, "T", ["seed 1"])
    assert [p.name for p in tmp_path.iterdir()] == ["rep"]
    assert (out / "report.pdf").exists()


def test_a_running_report_s_folder_is_left_alone(tmp_path):
    from reports.balance import remove_stale_folders

    mine = tmp_path / f".rep.{os.getpid()}.abcdefgh.tmp"
    other = tmp_path / ".rep.1.abcdefgh.tmp"  # pid 1 is alive
    fresh = tmp_path / ".rep.abcdefgh.tmp"  # an older version's, young
    neighbour = tmp_path / f".rep.2.{2 ** 22 + 1}.abcdefgh.tmp"  # folder rep.2's
    for folder in (mine, other, fresh, neighbour):
        folder.mkdir()
    remove_stale_folders(tmp_path / "rep")
    assert sorted(tmp_path.iterdir()) == sorted([mine, other, fresh, neighbour])
    os.utime(fresh, (0, 0))
    remove_stale_folders(tmp_path / "rep")
    assert not fresh.exists()


def test_os_errors_read_as_words():
    from analyzer.files import os_error_in, os_error_words

    full = OSError(errno.ENOSPC, "No space left on device")
    assert os_error_words(full) == "no space left on device (the disk is full)"
    assert os_error_words(OSError(errno.EROFS, "x")) == "read-only file system"
    try:
        try:
            raise full
        except OSError:
            raise AttributeError("'NoneType' object has no attribute 'write'")
    except AttributeError as exc:
        assert os_error_in(exc) is full


@pytest.mark.parametrize("args, needle", [
    (["cloverup", "simulate", "--games", "10", "-o", ""], "--output is empty"),
    (["cloverup", "simulate", "--games", "10", "--cluster", ""], "--cluster is empty"),
    (["cloverup", "simulate", "--games", "10", "--checkpoint", " "], "--checkpoint is empty"),
    (["cloverup", "whatif", "--games", "10", "--vary", ""], "--vary '' changes nothing"),
    (["cloverup", "whatif", "--games", "10", "--vary", ";"], "--vary ';' changes nothing"),
    (["thats-pretty-clever", "simulate", "--games", "8", "--network", ""],
     "--network is empty"),
    (["sly-dice", "claim", "--common", "1,2,3", "--locked", "6", "--hidden", "6,2", "--open",
      " "], "names no card"),
])
def test_an_empty_value_is_one_line_never_taken_as_absent(args, needle):
    one_line_error(run(args), needle)


@pytest.mark.parametrize("args, needle", [
    (["cloverup", "simulate", "--games", "10", "--set", "rerolls=3", "--set", "rerolls=4"],
     "--set rerolls is given twice ('rerolls=3' and 'rerolls=4'); give it once"),
    (["sly-dice", "odds", "--common", "1,2,3", "--points", "full-house=3", "--points",
      "full-house=4"], "--points full-house is given twice"),
    (["report", "--set", "cloverup.rerolls=3", "--set", "cloverup.rerolls=4"],
     "--set cloverup.rerolls is given twice"),
    (["cloverup", "whatif", "--games", "10", "--vary", "rerolls=3;rerolls=4"],
     "gives rerolls twice"),
])
def test_a_key_given_twice_is_one_line_not_the_last_one_winning(args, needle):
    one_line_error(run(args), needle)


@pytest.mark.parametrize("command, text, what", [
    (["cloverup", "simulate", "--games", "10", "--rules"], "rerolls = {}", "rules file"),
    (["sly-dice", "odds", "--common", "1,2,3", "--points-file"], "full-house = {}",
     "points file"),
    (["thats-pretty-clever", "sheet", "--score"],
     '{{"format": "dicelab-tpc-sheet/1", "green": {}}}', "sheet file")])
def test_a_number_too_long_to_read_is_one_line(tmp_path, command, text, what):
    """A whole number of more digits than Python converts (4,300) in a rules, points or
    sheet file: one line naming the file, no traceback."""
    path = tmp_path / "long.txt"
    path.write_text(text.format("9" * 5000))
    one_line_error(run(command + [path]), f"{what} '{path}' holds a number too long to read")


def test_a_claim_of_a_card_not_open_is_one_line():
    """``accuse`` on a claim of a card the claimant has not open: one line naming the open
    cards (was: posterior nan and 'accuse: True')."""
    one_line_error(run(["sly-dice", "accuse", "--common", "1,2,3", "--claim", "full-house",
                        "--open", "ones"]),
                   "full-house is not open to the claimant, so it cannot be claimed; open: ones")


def test_a_report_game_given_twice_is_one_line_before_any_work(tmp_path):
    one_line_error(run(["report", "--quick", "--game", "cloverup", "--game", "cloverup",
                        "-o", tmp_path / "r"]), "--game cloverup is given twice")
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("option", ["--seed", "--games"])
def test_a_value_echoed_in_a_message_is_cut_to_a_readable_length(option):
    """A 5,000-digit number given to an option: one line that names the option and shows
    the value's ends, not the whole value."""
    line = one_line_error(run(["cloverup", "simulate", option, "9" * 5000]), option)
    assert len(line) < 200 and "(4,960 more)" in line


def test_a_sheet_with_a_byte_order_mark_is_read(tmp_path):
    """Some editors write UTF-8 with a byte-order mark first: the sheet reads as it is."""
    sheet = tmp_path / "sheet.json"
    assert run(["thats-pretty-clever", "sheet", "--new", "-o", sheet]).exit_code == 0
    sheet.write_bytes(b"\xef\xbb\xbf" + sheet.read_bytes())
    out = run(["thats-pretty-clever", "sheet", "--score", sheet, "--format", "json"])
    assert out.exit_code == 0 and json.loads(out.output)["total"] == 0, out.output


def _shell(line: str) -> subprocess.CompletedProcess:
    """``python -m analyzer ...`` under bash, which can close a standard stream (``>&-``)."""
    return subprocess.run(["bash", "-c", f"{sys.executable} -m analyzer {line}"], cwd=REPO,
                          capture_output=True, text=True, timeout=120)


def test_closed_standard_streams_are_one_line_never_a_traceback(tmp_path):
    """A closed standard output is one line where output was asked for it, and no matter
    where the output goes to a file; a closed standard input is one line for coach."""
    out = _shell("cloverup solve >&-")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.strip() == ("dicelab: error: cannot write standard output: it is "
                                  "closed; give --output FILE")
    written = _shell(f"cloverup solve -o {tmp_path / 'x.csv'} >&-")
    assert written.returncode == 0 and (tmp_path / "x.csv").exists(), written.stderr
    coach = _shell("thats-pretty-clever coach <&-")
    assert coach.returncode == 2 and coach.stderr.strip() == (
        "dicelab: error: standard input is closed: coach reads your rolls from it")


def test_ctrl_c_before_the_command_line_runs_is_one_line():
    """Ctrl-C while the command line is still being imported or compiled (before it
    handles Ctrl-C itself): one line, exit status 130, no traceback."""
    code = ("import analyzer.cli\n"
            "def interrupted():\n"
            "    raise KeyboardInterrupt\n"
            "analyzer.cli.main = interrupted\n"
            "from analyzer.entry import main\n"
            "main()\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 130 and out.stderr == "dicelab: interrupted\n", out.stderr


def test_a_die_taken_twice_in_a_plus_one_window_is_refused():
    """``--taken 'Y Y'``: +1 takes each die once, so the position is impossible."""
    from analyzer.errors import UserError
    from analyzer.games.clever.advise import parse_dice_letters
    from analyzer.games.thats_pretty_clever.model import GAME

    assert parse_dice_letters(GAME, "Y B") == [1, 2]
    with pytest.raises(UserError, match="--taken names Y twice: \\+1 takes each die once"):
        parse_dice_letters(GAME, "Y y")
