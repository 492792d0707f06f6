"""The value network's rules block's inputs, resumable training runs,
a user's fine-tuned network, and the notes that say who played."""

import dataclasses
import json

import numpy as np
import pytest

from analyzer.games.clever import fine_tune, rule_inputs, simulation, trained_on
from analyzer.games.clever import value_weights, variants
from analyzer.games.clever.params import unread_at
from analyzer.games.clever.simulation import whatif
from analyzer.games.clever.training import run as training_run
from analyzer.games.clever.training import stages
from analyzer.games.clever.training import state as training_state
from analyzer.errors import UserError
from analyzer.games.thats_pretty_clever.model import GAME as TPC_GAME
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.param_words import sample_values
from analyzer.params import defaults
from kernels.clever import net, play, value_net
from kernels.clever_base.game_rules import RULE_INPUT_BITS, RULE_INPUT_BITS_MULTI, RULE_ROUNDS
from kernels.clever_base.sheet import H_PLAYERS, H_ROUNDS, H_RULE_BITS, NATURAL_ROUNDS
from kernels.clever.sheets import encode_afterstate, start_game_sheet
from kernels.clever_base.sparse import round_seen
from kernels.clever_base.turn import TS_LEN

GAMES = pytest.mark.parametrize("game", [TPC_GAME, TAC_GAME], ids=lambda g: g.id)
ON_THE_SHEET = ("start_rerolls", "start_plus_ones")  # a new sheet shows these actions


def _inputs(game, values: dict) -> dict[int, float]:
    """The encoded inputs (input number: value) of a new sheet under ``values``."""
    rules = game.game_rules(values)
    sheet = np.zeros(72, np.int64)
    start_game_sheet(sheet, rules, game.rounds_for(values), values["players"])
    sheet[H_PLAYERS] = values["players"]
    n_in = int(value_net.n_inputs(game.kernel_game, 3))
    idx = np.zeros(value_net.MAX_INPUTS, np.int64)
    val = np.zeros(value_net.MAX_INPUTS, np.float32)
    nnz = encode_afterstate(sheet, np.zeros(TS_LEN, np.int64), idx, val, n_in)
    return dict(zip(idx[:nnz].tolist(), val[:nnz].tolist()))


@GAMES
@pytest.mark.parametrize("players", [1, 2])
def test_a_variants_inputs_differ_from_the_defaults_in_exactly_its_parameters(game, players):
    """Every value of every named parameter but the player count sets its own rules-block
    input(s), and nothing else moves (but the sheet's inputs of the actions it starts
    with), where a game of the player count reads it; the rounds set the rounds inputs
    (rules: the game's rules page, every parameter)."""
    base = {**defaults(game.params), "players": players}
    home = _inputs(game, base)
    first = int(value_net.n_inputs(game.kernel_game, 2))
    assert all(i < first for i in home)  # the defaults leave the rules block empty
    seen = set()
    for param in [p for p in game.params if p.name != "players"]:
        for value in _other_values(param):
            changed = _inputs(game, {**base, param.name: value})
            moved = {i for i in set(home) | set(changed) if home.get(i) != changed.get(i)}
            block = {i for i in moved if i >= first}
            if param.name == "rounds":
                natural = game.layout.ROUNDS_BY_PLAYERS[players]
                expected = 0 if value == natural else 3  # the bit, the measure, the scaled
                assert len(block) == expected and block <= set(range(first + 28, first + 34))
                continue
            if param.name in unread_at(players):
                assert not moved, (param.name, value)
                continue
            assert len(block) == 2, (param.name, value)  # its bit, and scaled (5/6 left)
            assert sorted(changed[i] for i in block) == pytest.approx([5 / 6, 1.0])
            seen |= block
            assert param.name in ON_THE_SHEET or not moved - block
    read = [n for n in rule_inputs.input_names(game.params)
            if n.split("=")[0] not in unread_at(players)]
    assert len(seen) == 2 * len(read)


def _other_values(param) -> list:
    """A parameter's values other than its default: those training draws, or for one it
    leaves at its default (``variants.UNTRAINED``) those a person may read about."""
    if param.name in variants.UNTRAINED:
        return [v for v in sample_values(param) if v != param.default]
    return variants.other_values(param)


@GAMES
@pytest.mark.parametrize("players, name", [(1, "final_plus"), (1, "wasted_pick"), (1, "ties"),
                                           (2, "solo_ties"), (2, "solo_fallback")])
def test_a_rule_no_game_of_the_player_count_reads_changes_no_learned_game(game, players, name):
    """Where a player count's games never read a rule (``params.UNREAD_AT``: 14.9 / 12.10
    the final +1 window, 14.1 / 12.6 wasted picks, section 12 / 7 ties, 14.6-14.7 / 12.6
    and 12.10 the solo passive turn), ``learned`` plays the same games either way, on a
    shape other than the defaults' too (5 rounds)."""
    param = next(p for p in game.params if p.name == name)
    other = next(c for c in param.choices if c != param.default) if param.choices \
        else not param.default
    base = {**defaults(game.params), "players": players, "rounds": 5}
    slot = RULE_INPUT_BITS if players == 1 else RULE_INPUT_BITS_MULTI
    assert game.game_rules(base)[slot] == game.game_rules({**base, name: other})[slot]
    result = whatif(game, [("as is", base, ["learned"]), ("other", {**base, name: other},
                                                       ["learned"])],
                    16 if players == 1 else 4, seed=9, progress=False)
    rows = result.tables["variants"]
    diff = rows[(rows.metric == "mean_score") & rows["diff"].notna()].iloc[0]
    assert (diff["diff"], diff["diff_ci95_low"], diff["diff_ci95_high"]) == (0, 0, 0)
    assert [n for n in result.notes if f"{name} is read by no game of {players} player" in n]


def test_a_what_if_with_the_random_policy_has_no_unread_note():
    """The random policy wastes picks (14.1 / 12.6), so ``wasted_pick`` is read where it
    plays: no note says otherwise; with a valued policy one does."""
    base = {**defaults(TAC_GAME.params), "players": 1}
    other = {**base, "wasted_pick": True}
    assert simulation._unread_notes([("as is", base, ["random"]),
                                     ("other", other, ["random"])], 1) == []
    assert simulation._unread_notes([("as is", base, ["greedy"]),
                                     ("other", other, ["greedy"])], 1) == [
        "variant 'other': wasted_pick is read by no game of 1 player of these policies, as "
        "only the random policy ever picks a die it cannot enter"]


def test_the_rules_block_reads_the_round_count_against_the_player_counts_own():
    """Section 2: 6, 6, 5 and 4 rounds for 1-4 players; the rounds inputs measure the
    difference from those."""
    assert list(NATURAL_ROUNDS[1:]) == list(TPC_GAME.layout.ROUNDS_BY_PLAYERS[1:]) \
        == list(TAC_GAME.layout.ROUNDS_BY_PLAYERS[1:])
    base = {**defaults(TAC_GAME.params), "players": 4}
    first = int(value_net.n_inputs(TAC_GAME.kernel_game, 2))
    more = {i - first: v for i, v in _inputs(TAC_GAME, {**base, "rounds": 6}).items()
            if i >= first}
    assert more == pytest.approx({29: 1.0, 31: 0.5, 33: 0.5 * 5 / 6})  # two rounds more
    # than 4 players' own, and that scaled by the 5 rounds left after the first
    rules = TAC_GAME.game_rules({**base, "rounds": 6})
    assert rules[RULE_ROUNDS] == 6 and rules[RULE_INPUT_BITS] == 0


def _run(game, tmp_path, name: str, max_games: int = 0) -> training_run.Run:
    values = {**defaults(game.params), "players": 1, "rounds": 5}
    start = fine_tune.start_network(game)[0]
    n_in = int(value_net.n_inputs(game.kernel_game, 3))
    return training_run.Run(
        game=game.prefix, stages=fine_tune.stages(game, 96), seed=4, until="fine-tune",
        checkpoint=tmp_path / name, rules=game.game_rules(values),
        rounds_of=game.layout.ROUNDS_BY_PLAYERS, heuristic=game.heuristic_row(),
        eval_every=32, eval_games=8, chunk=32, max_games=max_games, start=start,
        hidden=int(net.width_of(start.size, n_in)))


def test_a_damaged_training_checkpoint_is_refused(tmp_path):
    """A checkpoint whose bytes changed since its digest was taken is refused in one line."""
    arrays = {"weights": np.arange(4096, dtype=np.float32), "settings": np.asarray("{}")}
    path = tmp_path / "run.npz"
    np.savez(path, digest=np.asarray(training_state._digest(arrays)), **arrays)
    np.testing.assert_array_equal(training_state.read_checkpoint(path)["weights"],
                                  arrays["weights"])
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    path.write_bytes(bytes(raw))
    with pytest.raises(UserError, match="checkpoint .*run.npz"):
        training_state.read_checkpoint(path)


@pytest.mark.slow  # the training scripts' own resume tests run by default
def test_a_training_run_resumes_bit_for_bit(tmp_path):
    """A run stopped after an evaluation and run again ends with the same weights, Adam
    state and curve as a run in one go; a damaged checkpoint is refused."""
    whole = training_run.train(_run(TPC_GAME, tmp_path, "whole.npz"))
    training_run.train(_run(TPC_GAME, tmp_path, "cut.npz", max_games=32))
    resumed = training_run.train(_run(TPC_GAME, tmp_path, "cut.npz"))
    for part in ("weights", "m", "v", "skip"):
        np.testing.assert_array_equal(whole[part], resumed[part])
    assert whole["history"] == resumed["history"]
    raw = bytearray((tmp_path / "cut.npz").read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    (tmp_path / "cut.npz").write_bytes(bytes(raw))
    with pytest.raises(UserError, match="checkpoint .*cut.npz"):
        training_run.train(_run(TPC_GAME, tmp_path, "cut.npz"))


def _stage_fields(path, **fields) -> None:
    """Rewrite checkpoint ``path`` with ``fields`` added to every stage of its settings
    (as a run saved them while stages had those fields), its digest made again."""
    arrays = training_state.read_checkpoint(path)
    settings = json.loads(str(arrays["settings"]))
    for spec in settings["stages"].values():
        spec.update(fields)
    arrays["settings"] = np.asarray(json.dumps(settings))
    np.savez(path, digest=np.asarray(training_state._digest(arrays)), **arrays)


def test_a_checkpoint_with_the_retired_stage_fields_resumes(tmp_path):
    """A checkpoint saved while stages had fields now retired (partners, teachers, the win
    bonus, rows that learn alone) resumes where they hold the values that left them out,
    and ends as a run in one go; one that set such a field is refused."""
    whole = training_run.train(_run(TPC_GAME, tmp_path, "whole.npz"))
    training_run.train(_run(TPC_GAME, tmp_path, "cut.npz", max_games=32))
    _stage_fields(tmp_path / "cut.npz", **stages.RETIRED)
    resumed = training_run.train(_run(TPC_GAME, tmp_path, "cut.npz"))
    for part in ("weights", "m", "v", "skip"):
        np.testing.assert_array_equal(whole[part], resumed[part])
    _stage_fields(tmp_path / "cut.npz", **{**stages.RETIRED, "win_bonus": 100.0})
    with pytest.raises(UserError, match="made with other settings"):
        training_run.train(_run(TPC_GAME, tmp_path, "cut.npz"))


def test_a_wider_network_trains_resumes_and_loads_with_its_width(tmp_path):
    """A run of a network of ``net.MAX_H1`` first-layer units resumes bit for bit
    and keeps its width in its settings (a run of another width does not resume it); a
    file of that width loads, one of a width not in ``net.WIDTHS`` does not."""
    n_in = int(value_net.n_inputs(TPC_GAME.kernel_game, 3))

    def wide_run(name, max_games=0, hidden=net.MAX_H1):
        run = _run(TPC_GAME, tmp_path, name, max_games)
        start = value_weights.initial_weights(n_in, 3, net.MAX_H1)
        return dataclasses.replace(run, start=start, hidden=hidden)

    whole = training_run.train(wide_run("whole.npz"))
    training_run.train(wide_run("cut.npz", max_games=32))
    resumed = training_run.train(wide_run("cut.npz"))
    assert whole["weights"].size == net.net_size(n_in, net.MAX_H1)
    for part in ("weights", "m", "v", "skip"):
        np.testing.assert_array_equal(whole[part], resumed[part])
    assert wide_run("x").all_settings()["hidden"] == [net.MAX_H1, net.H2]
    with pytest.raises(UserError, match="cut.npz"):
        training_run.train(dataclasses.replace(wide_run("cut.npz"), hidden=net.H1))
    path = tmp_path / "wide.npy"
    for hidden, loads in ((net.MAX_H1, True), (192, False)):
        value_weights.save(path, [whole["weights"]],
                           {"inputs": n_in, "hidden": [hidden, net.H2], "members": 1})
        if loads:
            members, info = value_weights.load(path, TPC_GAME.kernel_game)
            row = value_weights.file_row(members, info)
            assert value_net.hidden_of(row, play.W_NET) == net.MAX_H1
        else:
            with pytest.raises(UserError, match="hidden layers 128 x 128 or 256 x 128"):
                value_weights.load(path, TPC_GAME.kernel_game)


def test_a_run_started_with_moments_goes_on_from_that_adam_state(tmp_path):
    """``start_moments`` (``train_value.py --start-latest``): a new run starts from the
    weights and the Adam state a run ended with, its step count included; without them
    the moments start at zero."""
    cut = training_run.train(_run(TPC_GAME, tmp_path, "cut.npz", max_games=32))
    assert cut["step"] > 0 and np.abs(cut["v"]).sum() > 0
    moments = {k: cut[k] for k in ("m", "v", "step", "skip_moments")}
    for given, step in ((None, 0), (moments, cut["step"])):
        run = dataclasses.replace(_run(TPC_GAME, tmp_path, f"next-{step}.npz"),
                                  start=cut["weights"].copy(), start_moments=given)
        state = training_run.open_state(run)
        np.testing.assert_array_equal(state["weights"], cut["weights"])
        assert state["step"] == step
        assert (np.abs(state["v"]).sum() > 0) == (given is not None)


def test_a_users_network_plays_only_where_it_is_named(tmp_path, monkeypatch):
    """``dicelab GAME train --network FILE`` writes the fine-tuned network there; learned
    plays it only where a command names it (``with_network``): on every rules and player
    count then, and never by itself."""
    monkeypatch.setattr(fine_tune, "COMPARE_GAMES", 128)  # its gain is not asked here
    values = {**defaults(TPC_GAME.params), "players": 1, "rounds": 8,
              "solo_ties": "colour_order"}
    path = tmp_path / "mine.npy"
    done = fine_tune.train(TPC_GAME, values, path, 32, seed=2)
    assert done["file"] == path and path.exists() and path.with_suffix(".json").exists()
    assert not list(tmp_path.glob("*.npz"))  # the checkpoint goes once the run ends
    assert path not in {TPC_GAME.network_file(v) for v in
                        (values, {**values, "players": 2}, defaults(TPC_GAME.params))}
    mine = TPC_GAME.with_network(path)
    for v in (values, {**values, "players": 2}, {**defaults(TPC_GAME.params), "players": 1}):
        assert mine.network_file(v) == path
    own = simulation.simulate(TPC_GAME, values, ["learned"], 64, seed=3, progress=False)
    played = simulation.simulate(mine, values, ["learned"], 64, seed=3, progress=False)
    assert played.headline != own.headline
    assert [n for n in played.notes if "the network you named" in n]


def test_the_note_says_when_learned_plays_off_its_training_rules():
    """Inside the card's training ranges a line names the player; outside them (12
    rounds) one line more with the heuristic's figure beside learned's."""
    game = TPC_GAME
    base = {**defaults(game.params), "players": 1}
    inside = {**base, "rounds": 5, "round_4_bonus": False, "final_plus": "every_player"}
    assert trained_on.differences(game, inside) == []
    assert trained_on.differences(game, {**inside, "players": 3}) == []
    assert trained_on.differences(game, {**base, "rounds": 12}) == [
        "12 rounds (trained on 4-8)"]
    notes = simulation.simulate(game, {**base, "rounds": 12}, ["learned"], 16, seed=3,
                                progress=False).notes
    line = [n for n in notes if "not trained on" in n]
    assert len(line) == 1 and "12 rounds" in line[0] and "the heuristic" in line[0]
    notes = simulation.simulate(game, inside, ["learned"], 16, seed=3, progress=False).notes
    assert not [n for n in notes if "not trained on" in n]
    assert f"{trained_on.player_name(game)}: one value network for every game shape, " \
        "player count and seat" in notes


@GAMES
def test_the_report_names_who_played_the_assumed_rules(game):
    """The report's simulations note names the policy that played the open readings:
    learned where its network was trained on every reading (the defaults),
    the table policy where the rules lie outside its training (12 rounds)."""
    from analyzer.games.clever.report import player, rules_policy, table_words

    values = defaults(game.params)
    assert rules_policy(game, values) == "learned"
    assert table_words(game, values).startswith("the learned policy (")
    outside = {**values, "rounds": 12}
    assert rules_policy(game, outside) == game.table_policy
    assert table_words(game, outside).startswith(f"the {player(game.table_policy)} policy (")


def test_the_last_round_shows_as_the_last():
    """The turn block's round one-hot: a game of the player count's own length shows its
    own rounds; any other shows its last round as that length's last (the last of the games
    the networks learnt), the others as they are, up to the one before (rules section 2:
    6, 6, 5 and 4 rounds for 1-4 players)."""
    for players in (1, 2, 3, 4):
        own = NATURAL_ROUNDS[players]
        assert [round_seen(r, own, players) for r in range(own)] == list(range(own))
    assert [round_seen(r, 5, 1) for r in range(5)] == [0, 1, 2, 3, 5]
    assert [round_seen(r, 4, 2) for r in range(4)] == [0, 1, 2, 5]
    assert [round_seen(r, 8, 1) for r in range(8)] == [0, 1, 2, 3, 4, 4, 4, 5]
    assert [round_seen(r, 6, 4) for r in range(6)] == [0, 1, 2, 2, 2, 3]


def test_the_sheets_carry_the_rules_bits():
    """A game's sheets carry its rules-block bits from the first turn, and the round
    count."""
    values = {**defaults(TAC_GAME.params), "players": 1, "rounds": 7, "skip_roll": "never"}
    rules = TAC_GAME.game_rules(values)
    sheet = np.zeros(72, np.int64)
    start_game_sheet(sheet, rules, 7, 1)
    assert sheet[H_RULE_BITS] == rules[RULE_INPUT_BITS] != 0 and sheet[H_ROUNDS] == 7


def _train_command(network, *args: str):
    """``dicelab thats-pretty-clever train --network NETWORK ARGS`` in its own process
    (JSON output)."""
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "analyzer", "thats-pretty-clever", "train",
                           "--network", str(network), *args, "--quiet", "--format", "json"],
                          capture_output=True, text=True, timeout=900)


@pytest.mark.slow
def test_the_train_command_writes_the_network_it_is_given(tmp_path):
    """``dicelab GAME train`` end to end in its own process: the learning curve and the
    file it names, with its gain over the network it started from."""
    path = tmp_path / "seven.npy"
    done = _train_command(path, "--set", "rounds=7", "--games", "32")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["variant"] == "rounds=7" and result["games"] == 32
    assert [r["games"] for r in result["tables"]["learning_curve"]] == [32]
    assert result["file"] == str(path) and path.exists()
    assert f"--network {path}" in result["notes"][0]


def test_a_network_that_scores_below_its_start_says_so(tmp_path, monkeypatch):
    """A fine-tune whose paired games score below the network it started from is still
    written where the user asked, and the output says it scored below."""
    worse = {"diff": -3.0, "diff_ci95_low": -4.0, "diff_ci95_high": -2.0}
    monkeypatch.setattr(fine_tune.tgames, "compare", lambda *a: [{}, worse])
    values = {**defaults(TPC_GAME.params), "players": 1, "rounds": 8,
              "solo_ties": "colour_order"}
    path = tmp_path / "worse.npy"
    result = fine_tune.train_network(TPC_GAME, values, path, 32, 2, None, False)
    assert result.headline["gain_over_start"] == -3.0 and path.exists()
    assert result.notes[0].endswith("it scored below the network it started from on these "
                                    "rules")


@pytest.mark.parametrize("args, words", [
    (("--set", "rounds=7", "--games", "30"), "multiple of 16"),
    (("--games", "32"), "differ from the defaults"),
    (("--set", "rounds=99"), "rounds")])
def test_the_train_command_refuses_bad_input_in_one_line(tmp_path, args, words):
    """A bad game count, no variant (the defaults) or a bad rule value: one line on
    stderr, exit status 2, no file."""
    bad = _train_command(tmp_path / "net.npy", *args)
    assert bad.returncode == 2 and words in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1
    assert not list(tmp_path.iterdir())


def test_a_network_file_that_cannot_be_written_is_one_line(tmp_path):
    """``--network`` under a file: one line, exit status 2, nothing written."""
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    bad = _train_command(blocker / "net.npy", "--set", "rounds=7", "--games", "32")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == [blocker]


def test_the_network_option_plays_the_named_file_and_refuses_a_damaged_one(tmp_path,
                                                                          monkeypatch):
    """``--network FILE`` on a playing command: learned plays that file (a user's
    fine-tune scores otherwise than the game's network on the defaults); a file that
    cannot be read is one line, exit status 2."""
    monkeypatch.setattr(fine_tune, "COMPARE_GAMES", 128)  # its gain is not asked here
    from click.testing import CliRunner

    from analyzer.cli import cli

    values = {**defaults(TPC_GAME.params), "players": 1, "rounds": 4}
    fine_tune.train(TPC_GAME, values, tmp_path / "mine.npy", 32, seed=2)
    args = ["thats-pretty-clever", "simulate", "--games", "64", "--quiet", "--format", "json"]
    own = CliRunner().invoke(cli, args)
    mine = CliRunner().invoke(cli, [*args, "--network", str(tmp_path / "mine.npy")])
    assert own.exit_code == mine.exit_code == 0, mine.output
    assert json.loads(own.output)["policies"] != json.loads(mine.output)["policies"]
    (tmp_path / "bad.npy").write_bytes(b"not a network")
    (tmp_path / "bad.json").write_text("{}")
    bad = CliRunner().invoke(cli, [*args, "--network", str(tmp_path / "bad.npy")])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1, bad.output
    assert "bad.npy' (with bad.json): cannot be read" in bad.output
