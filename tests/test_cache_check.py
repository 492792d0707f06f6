"""numba's on-disk cache is checked before it is used (``kernels.cache_check``): a damaged
compiled kernel is found, removed and compiled again, never loaded."""

import json
import os
import shutil
import subprocess
import sys

from kernels import cache_check


def _cache(folder):
    (folder / "m").mkdir()
    files = {"m/a.f-10.py311.nbi": b"index a", "m/a.f-10.py311.1.nbc": b"code a",
             "m/b.g-20.py311.nbi": b"index b", "m/b.g-20.py311.1.nbc": b"code b"}
    for name, data in files.items():
        (folder / name).write_bytes(data)
    cache_check.record(folder)
    return files


def test_a_changed_or_empty_file_marks_its_function_damaged(tmp_path):
    _cache(tmp_path)
    assert cache_check.damaged(tmp_path) == set()
    path = tmp_path / "m/a.f-10.py311.1.nbc"
    stat = path.stat()
    path.write_bytes(b"code B")  # rewritten since: judged when numba reads it
    assert cache_check.damaged(tmp_path) == set()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the content alone changed
    assert cache_check.damaged(tmp_path) == {"m/a.f-10"}
    (tmp_path / "m/b.g-20.py311.nbi").write_bytes(b"")
    assert cache_check.damaged(tmp_path) == {"m/a.f-10", "m/b.g-20"}


def test_removing_a_function_takes_all_its_files_and_no_others(tmp_path):
    _cache(tmp_path)
    cache_check.remove(tmp_path, {"m/a.f-10"})
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == [
        "b.g-20.py311.1.nbc", "b.g-20.py311.nbi"]


def test_files_not_yet_recorded_are_recorded_as_they_are(tmp_path):
    _cache(tmp_path)
    (tmp_path / "m/c.h-30.py311.nbi").write_bytes(b"index c")
    assert cache_check.damaged(tmp_path) == set()
    cache_check.record(tmp_path)
    manifest = json.loads((tmp_path / cache_check.MANIFEST).read_text())
    assert "m/c.h-30.py311.nbi" in manifest and len(manifest) == 5
    (tmp_path / cache_check.MANIFEST).write_text("{not json")
    assert cache_check.damaged(tmp_path) == set()  # an unreadable record vouches for nothing


def _simulate(cache):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    return subprocess.run([sys.executable, "-m", "analyzer", "cloverup", "simulate", "--games",
                           "500", "--seed", "3", "--format", "csv", "--quiet"], env=env,
                          capture_output=True, text=True)


def _flip(path):
    data = bytearray(path.read_bytes())
    for i in range(100, len(data), 997):
        data[i] ^= 0x5A
    path.write_bytes(bytes(data))


def _some(paths, preferred: str, suffix: str):
    """The file of ``preferred`` with ``suffix`` among ``paths``, else another with it: which
    of the callees a copied cache holds depends on what this test run compiled before."""
    fitting = [p for p in paths if p.suffix == suffix]
    return next((p for p in fitting if preferred in p.name), fitting[0])


def _damaged_notes(run) -> int:
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr
    return run.stderr.count("damaged compiled kernel(s) found in the kernel cache")


def test_a_damaged_compiled_kernel_is_compiled_again_not_loaded(tmp_path):
    """Bytes flipped in a play loop's code, an empty code file and a damaged index: the next
    run finds them (the empty file at once, the others as numba reads them), says so,
    compiles them again and answers as before; without the manifest, so it does for a code
    file cut short, which numba cannot read."""
    from kernels.jit import cache_folder

    for folder in cache_folder().glob("*_*"):  # what this test run compiled: fewer compiles
        if folder.is_dir() and folder.name.split("_")[0] in ("cloverup", "kernels"):
            shutil.copytree(folder, tmp_path / folder.name)
    first = _simulate(tmp_path)
    assert first.returncode == 0, first.stderr
    folder = next(tmp_path.glob("cloverup_*"))
    for path in folder.glob("play.games_block-*.nbc"):
        _flip(path)
    others = sorted(p for p in folder.glob("*.nb[ci]") if "games_block" not in p.name)
    _some(others, "play_game", ".nbc").write_bytes(b"")
    _flip(_some(others, "award_wins", ".nbi"))
    again = _simulate(tmp_path)
    assert _damaged_notes(again) >= 1 and again.stdout == first.stdout
    assert _damaged_notes(_simulate(tmp_path)) == 0
    (tmp_path / cache_check.MANIFEST).unlink()
    for path in folder.glob("play.games_block-*.nbc"):  # flipped machine code may load and
        path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])  # run: cut it short
    unrecorded = _simulate(tmp_path)
    assert _damaged_notes(unrecorded) >= 1 and unrecorded.stdout == first.stdout


_LOAD_PROGRAM = """
import sys
from pathlib import Path

import numpy as np

from kernels import cache_check
from kernels.rng import mix64

try:
    mix64(np.uint64(5))
except Exception as exc:
    print(sorted(cache_check.unreadable(exc, Path(sys.argv[1]))))
else:
    print("ran")
"""


def test_code_that_fails_to_load_is_traced_to_its_function(tmp_path):
    """Machine code whose LLVM part (bitcode) is damaged in a file written since its record
    fails as numba rebuilds it: ``unreadable`` names the function, so the command removes
    it and runs again."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    run = [sys.executable, "-c", _LOAD_PROGRAM, str(tmp_path)]
    assert subprocess.run(run, env=env, capture_output=True, text=True).stdout == "ran\n"
    code, = tmp_path.glob("kernels_*/rng.mix64-*.nbc")
    data = bytearray(code.read_bytes())
    start = data.find(b"BC\xc0\xde")  # LLVM's bitcode
    assert start > 0
    for i in range(start + 64, min(len(data), start + 4000), 37):
        data[i] ^= 0x5A
    code.write_bytes(bytes(data))
    out = subprocess.run(run, env=env, capture_output=True, text=True).stdout
    assert out == f"['{code.parent.name}/{code.name.split('.py')[0]}']\n"
