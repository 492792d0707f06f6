"""--checkpoint DIR: finished chunks are stored as they complete; a run interrupted with
Ctrl-C resumes from them and gives the result of an uninterrupted run."""

import json
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.run import execution
from analyzer.run.checkpoint import digest
from analyzer.cli import cli
from analyzer.games.cloverup.simulation import simulate_turns
from tests.conftest import dicelab_process

TURNS = 2_800_000  # in chunks of 4 blocks of 65,536 turns: 11 chunks, the last one short


def _turns(values, seed=3, policy="optimal", turns=TURNS):
    return simulate_turns(values, policy, turns, seed, None, False, batch_blocks=4)


def _chunk_files(folder):
    return sorted(p for p in folder.rglob("chunk-*.npy"))


def test_resume_reads_stored_chunks_and_changes_nothing(cloverup_values, tmp_path):
    plain = _turns(cloverup_values)
    with execution.session(checkpoint=str(tmp_path)) as run:
        first = _turns(cloverup_values)
        assert (run.computed, run.resumed) == (11, 0)
    files = _chunk_files(tmp_path)
    assert len(files) == 11 and (tmp_path / files[0].parent.name / "run.json").exists()
    for path in files[2:5]:  # as if the run had stopped with these chunks unfinished
        path.unlink()
    with execution.session(checkpoint=str(tmp_path)) as run:
        again = _turns(cloverup_values)
        assert (run.computed, run.resumed) == (3, 8)
    np.testing.assert_array_equal(first, plain)
    np.testing.assert_array_equal(again, plain)


def test_other_runs_do_not_share_chunks(cloverup_values, tmp_path):
    with execution.session(checkpoint=str(tmp_path)):
        a = _turns(cloverup_values, turns=200_000)
        b = _turns(cloverup_values, seed=4, turns=200_000)
        c = _turns(cloverup_values, policy="never", turns=200_000)
    assert len({p.parent for p in _chunk_files(tmp_path)}) == 3
    assert not np.array_equal(a, b) and not np.array_equal(a, c)


def test_digest_is_stable_and_sees_every_part():
    base = ("x", np.arange(4), {"k": 1.5, "j": [True, None]})
    assert digest(base) == digest(("x", np.arange(4), {"j": [True, None], "k": 1.5}))
    assert digest(base) != digest(("x", np.arange(4, dtype=np.int32), base[2]))
    assert digest(base) != digest(("x", np.arange(4), {"k": 1.5, "j": [False, None]}))
    with pytest.raises(TypeError):
        digest(object())


def test_digest_of_a_dataclass_sees_its_type_and_fields():
    from analyzer.run.driver import KernelRef

    assert digest(KernelRef("m", "f")) == digest(KernelRef("m", "f"))
    assert digest(KernelRef("m", "f")) != digest(KernelRef("m", "g"))
    assert digest(KernelRef("m", "f")) != digest(("m", "f"))


def _cli(*args):
    return CliRunner().invoke(cli, list(args))


def test_damaged_chunk_is_named_and_computed_again(tmp_path):
    """A chunk that is not an array is named in one line and computed again."""
    args = ["cloverup", "turns", "--turns", "200000", "--quiet", "--format", "json",
            "--checkpoint", str(tmp_path)]
    clean = _cli(*args)
    assert clean.exit_code == 0
    _chunk_files(tmp_path)[0].write_bytes(b"not an array")
    result = _cli(*args)
    assert result.exit_code == 0, result.output
    assert "damaged checkpoint chunk" in result.output and "computing it again" in result.output
    assert json.loads(result.output.split("\n", 1)[1])["tables"] == \
        json.loads(clean.output)["tables"]


def test_checkpoint_folder_that_is_a_file_is_one_line_exit_2(tmp_path):
    path = tmp_path / "file"
    path.write_text("x")
    result = _cli("cloverup", "turns", "--turns", "1000", "--checkpoint", str(path))
    assert result.exit_code == 2 and result.output.count("\n") == 1


def _command(checkpoint, output, one_thread=True):
    return [sys.executable, "-m", "analyzer", "cloverup", "turns", "--turns", "40000000",
            "--seed", "9", *(["--threads", "1"] if one_thread else []), "--quiet",
            "--format", "json", "-o", str(output),
            *(["--checkpoint", str(checkpoint)] if checkpoint else [])]


def test_interrupted_run_resumes_to_the_same_result(tmp_path):
    """Ctrl-C stores what finished; running again resumes."""
    folder, out = tmp_path / "ck", tmp_path / "resumed.json"
    with dicelab_process(*_command(folder, out)[3:], stderr=subprocess.PIPE,
                         text=True) as proc:
        deadline = time.monotonic() + 120
        while len(_chunk_files(folder)) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert proc.poll() is None, "the run ended before it could be interrupted"
        proc.send_signal(signal.SIGINT)
        err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "interrupted" in err and "run the same command again to resume" in err
    assert not out.exists()  # no partial output
    stored = len(_chunk_files(folder))
    assert 3 <= stored < 10  # 40 M turns are 10 chunks
    subprocess.run(_command(folder, out, one_thread=False), check=True, timeout=300)
    whole = tmp_path / "whole.json"
    subprocess.run(_command(None, whole, one_thread=False), check=True, timeout=300)
    resumed, reference = json.loads(out.read_text()), json.loads(whole.read_text())
    assert resumed["meta"]["chunks_from_checkpoint"] >= stored
    assert resumed["meta"]["chunks"] == reference["meta"]["chunks"] == 10
    assert resumed["tables"] == reference["tables"]
    assert {k: v for k, v in resumed.items() if k not in ("meta", "notes")} == \
        {k: v for k, v in reference.items() if k not in ("meta", "notes")}


def test_slow_policies_run_in_small_chunks_computed_together_locally(tmp_path):
    """A Clever lineup with a valued policy is cut into 4-block chunks (2,048 games), which
    local threads compute a batch at a time; any subset of them gives the same sums."""
    from analyzer.games.clever.simulation import play_games
    from analyzer.games.thats_pretty_clever.model import GAME
    from analyzer.params import defaults

    values = defaults(GAME.params)

    def games():
        return play_games(GAME, values, ["heuristic:0"], 6144, 5, progress=False)[0]

    plain = games()
    with execution.session(checkpoint=str(tmp_path)) as run:
        first = games()
        assert run.computed == 3
    files = _chunk_files(tmp_path)
    assert [f.name for f in files] == ["chunk-0-2048.npy", "chunk-2048-2048.npy",
                                       "chunk-4096-2048.npy"]
    files[0].unlink()
    files[2].unlink()
    with execution.session(checkpoint=str(tmp_path)) as run:
        again = games()
        assert (run.computed, run.resumed) == (2, 1)
    np.testing.assert_array_equal(first, plain)
    np.testing.assert_array_equal(again, plain)
