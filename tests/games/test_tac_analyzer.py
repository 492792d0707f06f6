"""Twice As Clever's own analyzer pieces: the sheet file format and its scoring (rules page
sections 7-8), the open points of section 12 as parameters, advice with the silver chain,
the coach's black ? and return prompts, and the heuristic's strength target (what both
Clever games share: test_clever_analyzer.py)."""

import json
import re

import pytest
from click.testing import CliRunner

from analyzer.games.clever import simulation
from analyzer.games.clever.coach import Coach
from analyzer.games.clever.sheetfile import score_result
from analyzer.cli import cli
from analyzer.games.twice_as_clever import sheetfile
from analyzer.games.twice_as_clever.model import GAME, PARAMS
from analyzer.params import defaults
from kernels.clever_base.game_rules import RULE_GAME, RULE_RETURN_ON_REROLL, RULE_SHEET_FLAGS
from kernels.clever_base.sheet import FLAG_PLUS_PER_ROUND, FLAG_RETURN_EMPTY_POOL, TAC
from kernels.twice_as_clever import layout as L
from tests.games.sheet_files import sheet_file


@pytest.fixture(scope="module")
def values():
    return defaults(PARAMS)


def test_8_written_sheet_scores_by_the_rules():
    """Section 8: silver rows of 2, 1 and 1 marks (4 + 2 + 2), one yellow cross (3), three
    blue sums (6), green pair 10 - 4 and an open pair's 6 (6 + 0: 8.4), pink 3 + 5 + 2;
    no fox."""
    doc = sheetfile.blank()
    doc.update(silver={"yellow": [1, 3], "blue": [3], "green": [], "pink": [6]},
               yellow={"circled": [[2, 1], [4, 1]], "crossed": [[2, 1]]},
               blue=[11, 9, 9], green=[10, 4, 6], pink=[3, 5, 2])
    result = score_result(GAME, sheetfile.to_kernel(doc))
    assert result.headline["areas"] == {"silver": 8, "yellow": 3, "blue": 6, "green": 6,
                                        "pink": 10}
    assert result.headline["foxes"] == 0 and result.headline["total"] == 33


def test_7_foxes_follow_from_the_marks_and_an_empty_area_zeroes_them():
    """Section 7: silver column 3 complete, blue slot 9 written and the re-roll track's
    6th circle give three foxes; yellow scores 0, so they are worth nothing."""
    doc = sheetfile.blank()
    doc.update(silver={row: [3] for row in ("yellow", "blue", "green", "pink")},
               blue=[12] * 9, rerolls={"unlocked": 6, "used": 0})
    result = score_result(GAME, sheetfile.to_kernel(doc))
    assert result.headline["foxes"] == 3
    assert result.headline["total"] == 8 + 45


def test_12_3_negative_green_makes_foxes_negative_unless_floored():
    """12.3: green 2 - 12 = -10 is the lowest area and no area is at 0, so the one fox is
    worth -10 (the default reading, as literal); with fox_negative=zero it is worth 0."""
    doc = sheetfile.blank()
    doc.update(silver={"yellow": [1]}, yellow={"circled": [[2, 1]], "crossed": [[2, 1]]},
               blue=[12], green=[2, 12], pink=[4], rerolls={"unlocked": 6, "used": 0})
    sheet = sheetfile.to_kernel(doc)
    assert score_result(GAME, sheet).headline["total"] == 2 + 3 + 1 - 10 + 4 - 10
    sheet[L.S_FLAGS] = GAME.sheet_flags({**defaults(PARAMS), "fox_negative": "zero"})
    assert score_result(GAME, sheet).headline["total"] == 2 + 3 + 1 - 10 + 4


def test_12_3_an_area_at_0_makes_foxes_worthless_by_default():
    """12.3, the rulebook: "0 points in an area: foxes are worthless", even beside a
    negative green; fox_negative=literal counts the negative lowest instead."""
    doc = sheetfile.blank()
    doc.update(yellow={"circled": [[2, 1]], "crossed": [[2, 1]]}, green=[2, 12], pink=[4],
               rerolls={"unlocked": 6, "used": 0})  # silver 0, blue 0, one fox
    sheet = sheetfile.to_kernel(doc, flags=GAME.sheet_flags(defaults(PARAMS)))
    assert score_result(GAME, sheet).headline["total"] == 3 - 10 + 4
    sheet[L.S_FLAGS] = GAME.sheet_flags({**defaults(PARAMS), "fox_negative": "literal"})
    assert score_result(GAME, sheet).headline["total"] == 3 - 10 + 4 - 10


@pytest.mark.parametrize("name,value,check", [
    ("plus_one_scope", "turn", lambda r: not r[RULE_SHEET_FLAGS] & FLAG_PLUS_PER_ROUND),
    ("blue_question", "any", lambda r: r[RULE_SHEET_FLAGS] & L.FLAG_BLUE_Q_ANY),
    ("fox_negative", "zero", lambda r: r[RULE_SHEET_FLAGS] & L.FLAG_FOX_FLOOR_ZERO),
    ("chain_third_pick", "all", lambda r: r[RULE_SHEET_FLAGS] & L.FLAG_CHAIN_LEFTOVERS),
    ("return_timing", "rolls_only", lambda r: r[RULE_RETURN_ON_REROLL] == 0),
    ("return_empty_pool", "return_allowed",
     lambda r: r[RULE_SHEET_FLAGS] & FLAG_RETURN_EMPTY_POOL),
    ("bonus_order", "earliest_first", lambda r: r[RULE_SHEET_FLAGS] & L.FLAG_EARLIEST_FIRST),
    ("action_overflow", "kept", lambda r: r[RULE_SHEET_FLAGS] & L.FLAG_KEEP_OVERFLOW),
    ("round_3_bonus", False, lambda r: r[2] == 0),
    ("round_4_bonus", False, lambda r: r[3] == 0),
])
def test_12_open_points_switch_the_kernel_rules(values, name, value, check):
    """Section 12: every open point is a parameter, marked assumed, whose non-default value
    switches its flag or rules-vector entry (the defaults: +1 once per round, returns
    before re-rolls too, the black ? in round 4)."""
    default = GAME.game_rules(values)
    assert default[RULE_GAME] == TAC and default[RULE_SHEET_FLAGS] & FLAG_PLUS_PER_ROUND
    assert default[RULE_RETURN_ON_REROLL] == 1 and default[3] == L.Q_ANY
    assert not check(default)
    assert check(GAME.game_rules({**values, name: value}))
    param = next(p for p in PARAMS if p.name == name)
    assert param.assumed or name.startswith("round_")


def test_12_open_points_reach_the_cli():
    result = CliRunner().invoke(cli, [
        "twice-as-clever", "whatif", "--games", "300", "--quiet", "--policy", "greedy",
        "--vary", "plus_one_scope=turn", "--vary", "chain_third_pick=all",
        "--vary", "return_timing=rolls_only", "--format", "json"])
    assert result.exit_code == 0, result.output
    variants = {row["variant"] for row in json.loads(result.output)["tables"]["variants"]}
    assert len(variants) == 4
    rules = CliRunner().invoke(cli, ["rules", "twice-as-clever"])
    assert rules.exit_code == 0 and "return_timing" in rules.output


def test_round_3_return_is_used(values):
    """Sections 3 and 5: greedy spends returns before rolls 2 and 3, never before roll 1
    (the platter is empty); without the round-3 return the same games score less (paired
    what-if: the 95% interval of the difference lies below 0)."""
    run = simulation.simulate(GAME, values, ["greedy"], 2000, seed=3, progress=False)
    picks = run.tables["picks"].set_index("pick")
    assert picks.loc[1, "returns_per_game"] == 0
    assert picks["returns_per_game"].sum() > 0.5
    variants = [("all", values, ["greedy"]),
                ("no round 3", {**values, "round_3_bonus": False}, ["greedy"])]
    table = simulation.whatif(GAME, variants, 2000, 3, progress=False).tables["variants"]
    row = table[(table.metric == "mean_score") & table["diff"].notna()].iloc[0]
    assert row["diff_ci95_high"] < 0  # the return is worth points


def _sheet_file(tmp_path, **fields):
    return sheet_file(GAME, tmp_path, **fields)


def test_advise_ranks_choices_and_names_silver_rows(tmp_path):
    path = _sheet_file(tmp_path, silver={"yellow": [5]}, blue=[10], pink=[3])
    result = CliRunner().invoke(cli, ["twice-as-clever", "advise", "--sheet", str(path),
                                      "--roll", "W3 Y5 B2 G6 P4 S5", "--round", "2",
                                      "--rollouts", "200", "--format", "json"])
    assert result.exit_code == 0, result.output
    choices = json.loads(result.output)["tables"]["choices"]
    for played in {c["rollouts"] for c in choices}:  # raced: each group ranked by score
        scores = [c["expected_score"] for c in choices if c["rollouts"] == played]
        assert scores == sorted(scores, reverse=True)
    assert choices[0]["vs_best"] == 0 and choices[0]["rollouts"] == 200
    names = {c["choice"] for c in choices}
    assert "leave this roll unused" in names  # skip_roll=allowed (section 2)
    assert "silver 5 -> silver row blue" in names
    assert "silver 5 -> silver row yellow" not in names  # the yellow row's 5 is marked
    assert "blue 2 -> blue 2+3 = 5 (slot 2)" in names  # 4.: blue + white, 5 <= 10
    assert "pink 4 -> pink slot 2" in names


def test_coach_black_question_is_the_players(values):
    """Section 3: in round 4 the coach lists the five coloured ? for the black ?, ranked,
    and applies the one the player picks (here the first)."""
    out = []
    coach = Coach(GAME, values, "greedy", 10, 1, L.new_sheet(), iter(["1"]).__next__,
                  out.append)
    assert coach.round_choice(4, GAME.round_options(L.Q_ANY))
    listed = re.findall(r"  (\d)\. (\w+) \?: ([\d.]+)", "".join(out))
    assert len(listed) == 5
    assert sorted(x[1] for x in listed) == sorted(L.AREA_NAMES)
    estimates = [float(x[2]) for x in listed]
    assert estimates == sorted(estimates, reverse=True)
    assert (coach.sheet != L.new_sheet()).any()


def test_coach_ranks_returns_before_the_next_roll(values):
    """Section 5: with a return in hand and dice on the platter the coach ranks returning
    each platter die beside rolling without a return; returning the white die brings it
    back to the roll and spends the return."""
    sheet = L.new_sheet()
    sheet[L.S_RETURN_GOT] = 1
    out = []

    def answer():  # the number the coach gave "return white"
        return re.findall(r"  (\d)\. return white", "".join(out))[-1]

    coach = Coach(GAME, values, "greedy", 20, 1, sheet, answer, out.append)
    assert coach.returns(2, 2, "Y5", "W3 B2") == "B2"
    assert sheet[L.S_RETURN_USED] == 1
    shown = "".join(out)
    assert "return white" in shown and "return blue" in shown
    assert "roll without a return" in shown


def test_advise_ranks_returns_against_rolling(tmp_path):
    """Section 5 through the CLI: before the roll of pick 2, with a return in hand, each
    platter die's return and rolling without one are ranked; the return window needs a
    pick made and a platter, and That's Pretty Clever has none."""
    path = _sheet_file(tmp_path, returns={"unlocked": 1, "used": 0})
    args = ["twice-as-clever", "advise", "--sheet", str(path), "--phase", "return",
            "--fields", "Y5", "--platter", "W3 B2", "--rollouts", "100", "--format", "json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    choices = {c["choice"] for c in json.loads(result.output)["tables"]["choices"]}
    assert choices == {"return white", "return blue", "roll without a return"}
    early = CliRunner().invoke(cli, args[:6] + ["--platter", "W3", "--rollouts", "10"])
    assert early.exit_code == 2 and "--fields" in early.stderr
    given_roll = CliRunner().invoke(cli, args + ["--roll", "G3"])
    assert given_roll.exit_code == 2 and "not --roll" in given_roll.stderr


def test_12_9_advise_return_into_an_empty_pool(tmp_path):
    """12.9 through the CLI: white picked, the other five on the platter and a return in
    hand. By default (ends_turn) the turn's rolls are over: one line, exit 2. With
    return_allowed each platter die's return is ranked against rolling without one, by
    rollouts of the network, which was trained under both readings (a note names it)."""
    path = _sheet_file(tmp_path, returns={"unlocked": 1, "used": 0})
    args = ["twice-as-clever", "advise", "--sheet", str(path), "--phase", "return",
            "--fields", "W6", "--platter", "Y2 B3 G1 P5 S4", "--rollouts", "20",
            "--format", "json"]
    over = CliRunner().invoke(cli, args)
    assert over.exit_code == 2 and "return_empty_pool=ends_turn" in over.stderr
    assert len(over.stderr.strip().splitlines()) == 1
    allowed = CliRunner().invoke(cli, args + ["--set", "return_empty_pool=return_allowed"])
    assert allowed.exit_code == 0, allowed.output
    choices = {c["choice"] for c in json.loads(allowed.output)["tables"]["choices"]}
    assert choices == {f"return {die}" for die in ("yellow", "blue", "green", "pink",
                                                   "silver")} | {"roll without a return"}
    notes = json.loads(allowed.output)["notes"]
    assert [n for n in notes if n.startswith("learned, Twice As Clever network")]
    assert not [n for n in notes if "not trained on" in n]


@pytest.mark.parametrize("reading,returns_offered", [("ends_turn", False),
                                                     ("return_allowed", True)])
def test_12_9_coach_turn_ends_when_the_dice_run_out(values, reading, returns_offered):
    """12.9 in the coach: a first pick of a white 6 sends every other die (all lower) to
    the platter. With ends_turn the coach says the rolls are over and goes on to the +1
    window; with return_allowed it offers the return first."""
    sheet = L.new_sheet()
    sheet[L.S_RETURN_GOT] = 1
    out = []
    answers = iter([lambda: "W6 Y2 B3 G1 P5 S4",  # the roll, then the white 6's number
                    lambda: re.findall(r"  (\d)\. white 6", "".join(out))[0]])
    coach = Coach(GAME, {**values, "return_empty_pool": reading}, "greedy", 10, 1, sheet,
                  lambda: next(answers, lambda: "done")(), out.append)
    coach.run()
    shown = "".join(out)
    assert ("use a return before roll 2" in shown) == returns_offered
    assert ("the turn's rolls are over" in shown) != returns_offered


@pytest.mark.slow
def test_heuristic_beats_the_published_flat_monte_carlo(values):
    """The heuristic's strength target: over 10,000 solo games its 95% interval lies
    above 159.2, the flat Monte Carlo bot's published mean on the same rules."""
    run = simulation.simulate(GAME, values, ["heuristic"], 10_000, seed=2026,
                              progress=False)
    assert run.headline["policies"]["heuristic"]["ci95"][0] > 159.2


def test_sheet_score_follows_the_rules_in_force(tmp_path):
    """12.3 through the CLI: the same sheet scores 0 more with fox_negative=zero (one fox,
    of the yellow column circled whole; green -10 the lowest area); 12.2: a rising blue
    sum is refused, unless a blue ? may write any sum."""
    doc = sheetfile.blank()
    doc.update(silver={"yellow": [1]},
               yellow={"circled": [[2, 1], [1, 4], [3, 4], [5, 4]], "crossed": [[2, 1]]},
               blue=[9, 12], green=[2, 12], pink=[4], rerolls={"unlocked": 1, "used": 0},
               returns={"unlocked": 1, "used": 0})
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(doc))
    args = ["twice-as-clever", "sheet", "--score", str(path), "--format", "json"]
    refused = CliRunner().invoke(cli, args)
    assert refused.exit_code == 2 and "field 'blue[1]'" in refused.stderr
    literal = CliRunner().invoke(cli, args + ["--set", "blue_question=any"])
    floored = CliRunner().invoke(cli, args + ["--set", "blue_question=any",
                                              "--set", "fox_negative=zero"])
    assert json.loads(literal.output)["total"] == 2 + 3 + 3 - 10 + 4 - 10
    assert json.loads(floored.output)["total"] == 2 + 3 + 3 - 10 + 4


def test_coach_silver_pick_chains_the_dice_it_sends_down(values):
    """8.1 in the coach: picking the silver 5 marks it, and the lower dice of the roll mark
    their own silver rows (white: the row the policy prefers)."""
    sheet = L.new_sheet()
    coach = Coach(GAME, values, "greedy", 10, 1, sheet, iter([]).__next__, lambda t: None)
    coach.apply("silver 5 -> silver row green", "W2 Y1 B6 G3 P4 S5", "", "", "active1")
    marked = int(coach.sheet[L.S_SILVER])
    cells = {6 * row + value - 1 for row in range(4) for value in range(1, 7)
             if (marked >> (6 * row + value - 1)) & 1}
    assert {6 * 2 + 4, 6 * 0 + 0, 6 * 2 + 2, 6 * 3 + 3} <= cells  # S5, Y1, G3, P4
    assert len(cells) == 5  # and the white 2 in one row; the blue 6 was not lower


def test_advice_warns_when_the_sheet_does_not_fit_its_round(tmp_path):
    """A sheet with far more marks than its round allows gets a warning note (the advice
    depends on the rounds left)."""
    full = _sheet_file(tmp_path, silver={"yellow": [1, 2, 3, 4, 5, 6], "blue": [1, 2, 3]},
                       blue=[12, 11, 10, 9, 8], pink=[1, 2, 3],
                       rerolls={"unlocked": 1, "used": 0}, plus_ones={"unlocked": 1, "used": 0},
                       returns={"unlocked": 1, "used": 0})
    args = ["twice-as-clever", "advise", "--sheet", str(full), "--roll", "W3 Y5 B2 G6 P4 S1",
            "--rollouts", "20", "--format", "json"]
    notes = " ".join(json.loads(CliRunner().invoke(cli, args).output)["notes"])
    assert "WARNING: the sheet has 17 marks, more than round 1 allows" in notes
    later = CliRunner().invoke(cli, args + ["--round", "3"]).output
    assert "WARNING" not in " ".join(json.loads(later)["notes"])


def test_advise_and_coach_say_when_learned_is_off_its_training_rules(tmp_path, values):
    """Advice rolled out by learned on rules its network was not trained on (3 rounds) says
    so in a note, and the coach in its first line; on its own rules neither does."""
    own = dict(values)
    path = _sheet_file(tmp_path)
    args = ["twice-as-clever", "advise", "--sheet", str(path), "--roll", "W3 Y5 B2 G6 P4 S1",
            "--rollouts", "20", "--format", "json"]
    sets = [a for k, v in own.items() if k not in ("players", "rounds") and v != values[k]
            for a in ("--set", f"{k}={v}")]
    home = json.loads(CliRunner().invoke(cli, args + sets).output)["notes"]
    away = json.loads(CliRunner().invoke(cli, args + sets + ["--set", "rounds=3"]).output)
    assert not [n for n in home if "not trained on" in n]
    assert [n for n in away["notes"] if "not trained on" in n and "3 rounds" in n]
    out = []
    Coach(GAME, {**own, "rounds": 3}, "learned", 10, 1, L.new_sheet(), lambda: None,
          out.append).run()
    assert "not trained on" in out[0]
