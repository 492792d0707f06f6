"""The shipped value policies of both Clever games in the analyzer: the
networks load with their settings, ``learned`` is the value policy and beats the tuned
heuristic, it plays every seat count, an unknown policy is refused in one line, and advice
ranks re-rolls, declining the passive pick and each +1 beside the picks."""

import importlib
import json

import numpy as np
import pytest
from click.testing import CliRunner

from analyzer.games.clever import simulation, value_weights
from analyzer.games.clever.variants import UNTRAINED
from analyzer.games.clever.advise import DECLINE, REROLL, STOP, advise
from analyzer.cli import cli
from analyzer.errors import UserError
from analyzer.games.thats_pretty_clever.model import GAME
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.params import defaults
from kernels.clever import net, play, sheets, value_net
from kernels.clever_base.sheet import TPC
from kernels.thats_pretty_clever import layout as L

VALUES = defaults(GAME.params)
GAMES = pytest.mark.parametrize("game", [GAME, TAC_GAME], ids=lambda g: g.id)


@GAMES
def test_shipped_networks_load_with_their_settings(game):
    """The game's one network reads every input block (the seat and rules blocks among
    them), names every rule that changes play on its card, and its settings reach the
    policy row."""
    members, info = value_weights.load(game.learned_file, game.kernel_game)
    assert info["inputs"] == value_net.n_inputs(game.kernel_game, 3)
    assert set(info["card"]["trained"]["rules"]) | {"players", "rounds"} | set(UNTRAINED) \
        == {p.name for p in game.params}  # every rule drawn in training but those added since
    assert not set(info["card"]["trained"]["rules"]) & set(UNTRAINED)
    assert info["hidden"] in ([h, net.H2] for h in net.WIDTHS)
    assert len(members) == info["members"] == 1
    assert all(np.isfinite(m).all() and np.abs(m).max() > 0 for m in members)
    row = game.parse_policy("learned")
    assert row[play.KIND] == play.VALUE
    assert row[play.W_NET + value_net.P_MEMBERS] == len(members)
    assert row[play.W_NET + value_net.P_HIDDEN] == info["hidden"][0]
    assert row[play.W_GIFT] == info.get("gift", 0.0)
    look = info.get("look", {})
    assert row[play.W_SAMPLES] == look.get("samples", 0)
    assert row[play.W_LOOK_PLAYERS] == sum(1 << n for n in look.get("players", []))
    assert row[play.W_BRANCH] == look.get("branch", 0)
    assert row[play.W_LOOK_MARGIN] == look.get("margin", 0)
    np.testing.assert_array_equal(value_weights.member(row, 0), members[0])


@GAMES
def test_learned_beats_the_tuned_heuristic_paired(game):
    """On the same 1,000 solo games (same random numbers), the learned policy scores more
    than the tuned heuristic: the paired difference's 95% interval lies above 0."""
    values = defaults(game.params)
    variants = [("heuristic", values, ["heuristic"]), ("learned", values, ["learned"])]
    rows = simulation.whatif(game, variants, 1000, 7, progress=False).tables["variants"]
    learned = rows[(rows.variant == "learned") & (rows.metric == "mean_score")].iloc[0]
    assert learned["diff_ci95_low"] > 0


@GAMES
@pytest.mark.parametrize("players", [2, 4])
def test_learned_plays_multiplayer(game, players):
    values = {**defaults(game.params), "players": players}
    result = simulation.simulate(game, values, ["learned", "heuristic"], 64, seed=3,
                                 progress=False)
    assert result.tables["seats"]["win_rate"].sum() == pytest.approx(1.0)
    assert set(result.tables["policies"]["policy"]) == {"learned", "heuristic"}


@GAMES
def test_an_unknown_policy_is_refused_in_one_line(game):
    out = CliRunner().invoke(cli, [game.id, "simulate", "--policy", "search", "--games", "10",
                                   "--quiet"])
    assert out.exit_code == 2 and out.output.count("\n") == 1
    assert "unknown policy 'search'" in out.output and "learned" in out.output


def test_broken_network_files_are_one_line_errors(tmp_path):
    broken = tmp_path / "value_net.npy"
    broken.write_bytes(b"not an array")
    (tmp_path / "value_net.json").write_text("{}")
    with pytest.raises(UserError, match="cannot be read"):
        value_weights.load(broken, TPC)
    broken.write_bytes(b"")  # an empty file: one line too (was taken for Ctrl-C)
    with pytest.raises(UserError, match="cannot be read"):
        value_weights.load(broken, TPC)
    np.save(broken, np.zeros((1, 5), np.float32))
    (tmp_path / "value_net.json").write_text(json.dumps({"inputs": 3}))
    with pytest.raises(UserError, match="is damaged: its weights do not match"):
        value_weights.load(broken, TPC)  # settings without the weights' digest
    value_weights.save(broken, [np.zeros(5, np.float32)], {"inputs": 3})
    with pytest.raises(UserError, match=f"expected 1 to {value_net.MAX_MEMBERS} networks"):
        value_weights.load(broken, TPC)
    members, info = value_weights.load(GAME.learned_file, TPC)
    for key, retired in (("solo_members", 0), ("mixed", [2]), ("solo_share", 0.5),
                         ("second_seat", True)):  # members split by player count
        value_weights.save(broken, members, {**info, key: retired})
        with pytest.raises(UserError, match="every network plays every game"):
            value_weights.load(broken, TPC)
    for gift in (-1, value_weights.MAX_GIFT + 1, "1", False):
        value_weights.save(broken, members, {**info, "gift": gift})
        with pytest.raises(UserError, match="the gift's weight: 0 to"):
            value_weights.load(broken, TPC)
    good = {"players": [2], "samples": 16, "branch": 3, "margin": 6.0}
    for bad in ({**good, "samples": 0}, {**good, "players": [5]}, {**good, "branch": 1.5},
                {**good, "margin": -1}, {"players": [2]}, [2], {**good, "extra": 1}):
        value_weights.save(broken, members, {**info, "look": bad})
        with pytest.raises(UserError, match="the look ahead: {} or players: a list of 1-4"):
            value_weights.load(broken, TPC)


def test_advice_ranks_a_reroll_beside_the_picks():
    """TPC section 10: with a re-roll in hand, re-rolling is one of an active pick's
    choices, rolled out like the picks."""
    sheet = GAME.blank_sheet(VALUES)
    sheet[L.S_REROLL_GOT] = 1
    result = advise(GAME, VALUES, sheet, "W1 Y1 B1 G1 O1 P1", "active1", 2, "learned", 100,
                    5)
    choices = list(result.tables["choices"]["choice"])
    assert REROLL in choices and len(choices) >= 2
    no_reroll = advise(GAME, VALUES, GAME.blank_sheet(VALUES), "W1 Y1 B1 G1 O1 P1",
                       "active1", 2, "learned", 20, 5)
    assert REROLL not in list(no_reroll.tables["choices"]["choice"])


def test_advice_on_the_passive_pick_offers_declining():
    """TPC section 5 (open point: the passive pick may be declined)."""
    sheet = GAME.blank_sheet(VALUES)
    result = advise(GAME, VALUES, sheet, "W3 Y5 B2 G6 O4 P1", "passive", 2, "greedy", 50, 5)
    assert DECLINE in list(result.tables["choices"]["choice"])
    strict = {**VALUES, "passive_may_decline": False}
    result = advise(GAME, strict, sheet, "W3 Y5 B2 G6 O4 P1", "passive", 2, "greedy", 50, 5)
    assert DECLINE not in list(result.tables["choices"]["choice"])


def test_advice_in_a_plus_one_window_ranks_each_plus_one_beside_stopping():
    """TPC section 10: in a +1 window every die not taken yet is a +1 choice, beside
    stopping; the dice taken already are not offered."""
    sheet = GAME.blank_sheet(VALUES)
    sheet[L.S_PLUS_GOT] = 1
    roll = "W3 Y5 B2 G6 O4 P1"
    result = advise(GAME, VALUES, sheet, roll, "plus", 2, "learned", 50, 5)
    choices = list(result.tables["choices"]["choice"])
    assert STOP in choices and any(c.startswith("+1: orange 4") for c in choices)
    sheet[L.S_PLUS_GOT], sheet[L.S_PLUS_USED] = 2, 1  # one used: on the orange die
    taken = advise(GAME, VALUES, sheet, roll, "passive-plus", 2, "learned", 20, 5,
                   taken="O")
    assert not any(c.startswith("+1: orange") for c in taken.tables["choices"]["choice"])
    with pytest.raises(UserError, match="names 2 dice, but the sheet shows 1"):
        advise(GAME, VALUES, sheet, roll, "plus", 2, "learned", 20, 5, taken="O Y")
    with pytest.raises(UserError, match="no \\+1 in hand"):
        advise(GAME, VALUES, GAME.blank_sheet(VALUES), roll, "plus", 2, "learned", 20, 5)


def test_advise_cli_bad_taken_is_one_line(tmp_path):
    sheet = tmp_path / "sheet.json"
    plus = {"unlocked": 1, "used": 0}
    sheet.write_text(json.dumps({**GAME.sheetfile.blank(), "plus_ones": plus}))
    out = CliRunner().invoke(cli, ["thats-pretty-clever", "advise", "--sheet", str(sheet),
                                   "--roll", "W3 Y5 B2 G6 O4 P1", "--phase", "plus",
                                   "--taken", "Q", "--rollouts", "10"])
    assert out.exit_code == 2 and out.output.count("\n") == 1 and "--taken" in out.output


ADVICE_SHEETS = {  # mid-game sheets with bonuses within reach (the sheet file format)
    "thats-pretty-clever": {"yellow": [[1, 1], [2, 2]], "blue": [5, 7], "green": 3,
                            "orange": [3, 4, 5], "purple": [2, 4],
                            "rerolls": {"unlocked": 1, "used": 0}},
    "twice-as-clever": {"silver": {"yellow": [2, 5], "blue": [4]},
                        "yellow": {"circled": [[2, 1], [3, 2]], "crossed": [[2, 1]]},
                        "blue": [11, 9], "green": [8, 2, 10], "pink": [4, 5],
                        "rerolls": {"unlocked": 1, "used": 0},
                        "returns": {"unlocked": 1, "used": 0}},
}


@pytest.mark.slow  # compiles the value policy's active chooser and an advised move: 40 s
@GAMES
def test_an_advised_move_fires_its_bonuses_as_the_learned_policy_plays_them(game, tmp_path):
    """TPC section 11: the free marks an advised active pick fires are placed as the
    learned policy places them in play (valued with the turn state after the pick),
    whatever its work buffer held before: on 40 rolls of a mid-game sheet, the advice's
    sheet after the policy's own pick is the policy's afterstate."""
    from analyzer.games.clever import sheetfile
    from kernels.clever import valued
    from kernels.clever.moves import MAX_MOVES, POOL, legal_moves

    values = defaults(game.params)
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps({**game.sheetfile.blank(), **ADVICE_SHEETS[game.id]}))
    sheet = sheetfile.read(game, str(path), values)
    pol, rules = game.learned_row(), game.game_rules(values)
    rng = np.random.default_rng(5)
    stream = np.uint64(20261202)
    bonus_picks = 0
    for _ in range(40):
        faces = rng.integers(1, 7, 6).astype(np.int64)
        where = np.full(6, POOL, np.int64)
        moves = np.zeros((MAX_MOVES, 3), np.int64)
        n = legal_moves(sheet, faces, 63, moves, False)
        scratch = np.zeros(play.WORK_LEN, np.int64)
        best, _ = valued.choose_active(sheet, faces, where, 0, moves, n, pol, stream, 0,
                                       scratch, rules)
        if best < 0:
            continue
        chosen = scratch[play.BEST_SHEET:play.BEST_SHEET + play.SHEET_LEN]
        advised, f, w = sheet.copy(), faces.copy(), where.copy()
        garbage = rng.integers(-2**40, 2**40, play.WORK_LEN)
        play.advice_choice(advised, f, w, moves[best, 0], moves[best, 1], moves[best, 2], pol,
                           stream, 0, False, garbage, np.zeros((MAX_MOVES, 3), np.int64),
                           np.zeros(play.LOG_LEN, np.int64), rules)
        assert np.array_equal(advised, chosen)
        bonus_picks += int(np.abs(advised - sheet).sum() > 2)  # more than the die's mark
    assert bonus_picks > 0


@GAMES
def test_learned_off_its_training_rules_says_so(game):
    """An output that plays learned on the rules its network was trained on has no note
    about it; on other rules (here 3 rounds solo) one note line names what differs and
    gives the heuristic's figure on the same rules; a what-if says it for the variant off
    the training rules only."""
    values = defaults(game.params)
    home = simulation.simulate(game, values, ["learned"], 64, seed=3, progress=False)
    assert not [n for n in home.notes if "not trained on" in n]
    away = simulation.simulate(game, {**values, "rounds": 3}, ["learned"], 64, seed=3,
                               progress=False)
    lines = [n for n in away.notes if "not trained on" in n]
    assert len(lines) == 1 and "3 rounds" in lines[0] and "the heuristic" in lines[0]
    variants = [("trained", values, ["learned"]), ("short", {**values, "rounds": 3},
                                                   ["learned"])]
    notes = simulation.whatif(game, variants, 64, 3, progress=False).notes
    lines = [n for n in notes if "not trained on" in n]
    assert len(lines) == 1 and "'short'" in lines[0]


@pytest.mark.slow
@GAMES
def test_learned_mirror_has_no_seat_effect(game):
    """Learned in both seats of 1,000 two-player games, seats fixed: the first
    seat wins 40-60% (the rules give it no real edge: the heuristic's mirror is 50-51%)."""
    from analyzer.games.clever import matches
    rows = matches.mirror(game, defaults(game.params), "learned", game.parse_policy("learned"),
                          2, 1000, 20261203)
    assert 0.40 <= rows[0]["win_rate"] <= 0.60, rows


@pytest.mark.parametrize("game", ["thats_pretty_clever", "twice_as_clever"])
def test_the_heuristic_weights_pick_the_stage_by_rounds_left(game):
    """The heuristic's weight set is the number of rounds still to play after the current
    one."""
    layout = importlib.import_module(f"kernels.{game}.layout")
    value = importlib.import_module(f"kernels.{game}.value")
    sheet = layout.new_sheet()
    sheet[layout.S_ROUNDS] = 6
    w = np.zeros(value.N_VALUE_WEIGHTS)
    w[np.arange(value.VALUE_STAGES) * value.N_FEATURES + value.F_CONSTANT] = \
        np.arange(value.VALUE_STAGES)
    for rnd in range(6):
        sheet[layout.S_ROUND] = rnd
        assert sheets.value_stage(sheet) == 5 - rnd
        assert value.sheet_value(sheet, w, w[:0])[1] == 5 - rnd
