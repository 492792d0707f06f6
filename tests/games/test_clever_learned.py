"""The learned and search policies of Twice As Clever (issue 6; That's Pretty Clever's
learned policy is the value policy, ``test_value_policy``): the network's gradient, the
shipped weights, the policies in the analyzer, and the training script (resuming from a
checkpoint gives the same weights; a short run improves on its starting point)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.clever import learned_weights, simulation
from analyzer.cli import cli
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.params import defaults
from kernels.clever import learned, play, td
from kernels.clever.sheets import start_sheet
from kernels.clever.training import n_features
from kernels.rng import turn_stream

K = 5
GAMES = [TAC_GAME]
ids = [g.id for g in GAMES]
ROOT = Path(__file__).resolve().parents[2]


def mid_game_sheet(game, rounds=3, seed=5):
    """A sheet after ``rounds`` active turns of the heuristic."""
    rules = game.game_rules(defaults(game.params))
    sheet = np.zeros(play.SHEET_LEN, np.int64)
    start_sheet(sheet, game.kernel_game, 6, 0)
    scratch = np.zeros(play.WORK_LEN, np.int64)
    faces, where = np.zeros(6, np.int64), np.zeros(6, np.int64)
    moves = np.zeros((play.MAX_MOVES, 3), np.int64)
    log = np.zeros(play.LOG_LEN, np.int64)
    for r in range(rounds):
        sheet[play.H_ROUND] = r
        play.active_turn(sheet.reshape((1, -1)), 0, faces, where, game.heuristic_row(),
                         np.uint64(turn_stream(np.uint64(seed), 0, 4 * r + 1)), moves,
                         scratch, rules, log)
    return sheet


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_gradient_matches_finite_differences(game):
    """``add_gradient`` is the derivative of ``learned_value``'s estimate, weight by weight
    (every nonzero entry and a sample of the zero ones)."""
    nf = n_features(game.kernel_game)
    weights = learned_weights.initial_weights(nf, 3, scale=0.3)
    first, bias, out_w, _ = learned.layer_offsets(nf, 0)
    weights[out_w:] = np.random.default_rng(4).normal(0, 1.0, weights.size - out_w)
    row = learned_weights.policy_row(weights, {}, {})
    sheet = mid_game_sheet(game)
    buf = np.zeros(learned.BUF_LEN)
    _, v0 = learned.learned_value(sheet, row, play.W_VALUE, buf, 4)
    grad = np.zeros(weights.size)
    learned.add_gradient(sheet, row, play.W_VALUE, buf, 1.0, grad)
    nonzero = np.nonzero(grad)[0]
    assert nonzero.size > 100
    sample = np.concatenate([nonzero, np.arange(0, weights.size, 97)])
    for i in sample:
        shifted = row.copy()
        shifted[play.W_VALUE + i] += 1e-6
        v1 = learned.learned_value(sheet, shifted, play.W_VALUE,
                                   np.zeros(learned.BUF_LEN), 4)[1]
        assert (v1 - v0) / 1e-6 == pytest.approx(grad[i], abs=1e-4)


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_shipped_weights_load_with_their_settings(game):
    weights, info = learned_weights.load(game.learned_file, n_features(game.kernel_game))
    assert np.isfinite(weights).all() and np.abs(weights).max() > 0
    assert info["hidden"] == learned.HIDDEN and "scripts/train_learned.py" in info["source"]
    assert info["games_trained"] > 0 and info["knobs"]["platter"] >= 0
    row = game.parse_policy("learned")
    assert row[play.KIND] == play.LEARNED and row[play.W_SAMPLES] == 0
    np.testing.assert_array_equal(row[play.W_VALUE:play.W_VALUE + weights.size], weights)
    assert game.parse_policy("search")[play.W_SAMPLES] == 16
    assert game.parse_policy("search:3")[play.W_SAMPLES] == 3


@pytest.mark.xfail(strict=True, reason="issue 6 is open: the shipped learned policies score "
                   "below the tuned heuristic (see the strength table in the README); this "
                   "test turns into a failure (XPASS) once they beat it, to be unmarked")
@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_learned_beats_the_tuned_heuristic_paired(game):
    """On the same 2,000 solo games (same random numbers), the learned policy scores more
    than the tuned heuristic: the paired difference's 95% interval lies above 0."""
    values = defaults(game.params)
    variants = [("heuristic", values, ["heuristic"]), ("learned", values, ["learned"])]
    rows = simulation.whatif(game, variants, 2000, 7, progress=False).tables["variants"]
    learned_row = rows[(rows.variant == "learned") & (rows.metric == "mean_score")].iloc[0]
    assert learned_row["diff_ci95_low"] > 0


@pytest.mark.parametrize("game", GAMES, ids=ids)
@pytest.mark.parametrize("players", [2, 4])
def test_learned_and_search_play_multiplayer(game, players):
    values = {**defaults(game.params), "players": players}
    result = simulation.simulate(game, values, ["search:2", "learned"], 64, seed=3,
                                 progress=False)
    assert result.tables["seats"]["win_rate"].sum() == pytest.approx(1.0)
    assert set(result.tables["policies"]["policy"]) == {"search:2", "learned"}


def test_bad_learned_names_and_files_are_one_line_errors(tmp_path):
    runner = CliRunner()
    bad = runner.invoke(cli, ["twice-as-clever", "simulate", "--policy", "learned:4",
                              "--games", "10", "--quiet"])
    assert bad.exit_code == 2 and "unknown policy 'learned:4'" in bad.output
    assert bad.output.count("\n") == 1
    broken = tmp_path / "learned_weights.npy"
    broken.write_bytes(b"not an array")
    (tmp_path / "learned_weights.json").write_text("{}")
    with pytest.raises(Exception, match="cannot be read"):
        learned_weights.load(broken, 131)
    np.save(broken, np.zeros(5))
    with pytest.raises(Exception, match="expected .* finite float64"):
        learned_weights.load(broken, 131)


def run_training(tmp_path, name, games, *extra):
    out = tmp_path / f"{name}.npy"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "train_learned.py"), "--game",
                    "tac", "--games", str(games), "--chunk", "500", "--eval-every", "2",
                    "--eval-games", "256", "--checkpoint", str(tmp_path / f"{name}.npz"),
                    "--output", str(out), "--quiet", *extra], check=True, cwd=tmp_path,
                   capture_output=True)
    return np.load(out), json.loads(out.with_suffix(".json").read_text())


def test_training_resumes_from_its_checkpoint_bit_for_bit(tmp_path):
    whole, info = run_training(tmp_path, "whole", 2000)
    run_training(tmp_path, "split", 1000)
    split, split_info = run_training(tmp_path, "split", 2000)
    np.testing.assert_array_equal(whole, split)
    assert info["history"] == split_info["history"] and info["games_trained"] == 2000


def test_short_training_improves_on_its_start():
    """4,000 self-play games from the blank start (the score alone, the platter knob)
    raise the solo mean on 2,000 fresh paired games: the interval lies above 0."""
    game = TAC_GAME
    values = defaults(game.params)
    rules = game.game_rules(values)
    nf = n_features(game.kernel_game)
    start = learned_weights.initial_weights(nf, 1)
    knobs = {"platter": 6.0}
    row = learned_weights.policy_row(start, knobs, {"platter": play.W_PLATTER})
    trained = row.copy()
    td.td_block(np.uint64(99), 0, 4000, trained, 6, rules, 1e-4, 0.8, np.zeros(td.N_STATS))
    assert not np.array_equal(trained, row)
    lineups = np.stack([row[None, :], trained[None, :]])
    from analyzer import driver, paired
    from analyzer.seeding import STREAM_PAIRED
    job = driver.Job(play.run_paired_blocks, (lineups, np.array([6, 6]),
                                              np.stack([rules, rules])),
                     (3, 2, play.N_PAIRED), 1 << 9, 12, STREAM_PAIRED)
    acc, n = driver.run(job, 2000, progress=False)
    diff = paired.metric(acc, n, 1, play.PAIRED_SCORE_SUM, 1.0)
    assert diff["diff_ci95_low"] > 0, diff


@pytest.mark.parametrize("game", GAMES, ids=ids)
def test_advise_with_search_rolls_out_its_shortlist(game):
    """``advise --policy search``: the four best choices by the learned value, rolled out
    with the learned policy; the best of them is the one the learned value ranks first
    or close to it (paired intervals overlap)."""
    from analyzer.clever.advise import SEARCH_SHORTLIST, advise

    values = defaults(game.params)
    sheet = game.blank_sheet(values)
    roll = " ".join(f"{letter}{face}" for letter, face in zip(game.letters, "352641"))
    result = advise(game, values, sheet, roll, "active1", 1, "search", 200, 5)
    choices = result.tables["choices"]
    assert len(choices) == SEARCH_SHORTLIST
    assert any("rolled out" in note for note in result.notes)
    assert "learned policy" in result.notes[0]
    full = advise(game, values, sheet, roll, "active1", 1, "learned", 200, 5)
    assert len(full.tables["choices"]) > SEARCH_SHORTLIST
    assert set(choices["choice"]) <= set(full.tables["choices"]["choice"])
