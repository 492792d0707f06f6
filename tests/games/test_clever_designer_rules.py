"""The rules a designer varies that the rulebooks settle: the actions every player starts
with (That's Pretty Clever sections 10 and 14.10, Twice As Clever 5 and 12.11) and a fox
worth fixed points (12 and 14.11; 7 and 12.12). Each test names the sections it pins. On
their defaults the games are the rulebooks' (nothing circled at the start, a fox worth
the lowest area): the rules vector and the sheet flags are those of before, so the
recorded games and every other test pin them."""

import json

import numpy as np
import pandas as pd
import pytest

from analyzer.games.clever import rule_inputs, sheetfile, trained_on, variants
from analyzer.games.thats_pretty_clever.model import GAME as TPC_GAME
from analyzer.games.twice_as_clever import sheetfile as tac_sheetfile
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.games.clever.simulation import simulate
from analyzer.params import defaults
from kernels.clever import net, play, sheets, value_net
from kernels.clever_base.game_rules import RULE_START_PLUS, RULE_START_REROLLS
from kernels.clever_base.rule_block import RULES_SCALED
from kernels.clever_base.sheet import (FOX_FIXED_SHIFT, H_FLAGS, H_FOXES, H_LOST, H_PLUS_GOT,
                                       H_PLUS_USED, H_REROLL_GOT, H_REROLL_USED, SHEET_LEN)
from kernels.thats_pretty_clever import layout as TPC
from kernels.twice_as_clever import layout as TAC
from tests.games.test_clever_greedy_totals import random_sheets, trial_total

GAMES = pytest.mark.parametrize("game", [TPC_GAME, TAC_GAME], ids=lambda g: g.id)
NEW = ("start_rerolls", "start_plus_ones", "fox_value")
REROLL_BONUS = {TPC_GAME.id: TPC.bonus(TPC.REROLL), TAC_GAME.id: TAC.REROLL}


def _with(game, **changes):
    return {**defaults(game.params), **changes}


@GAMES
def test_10_14_10_and_5_12_11_the_defaults_are_the_rulebooks(game):
    """Sections 10 / 5 (nothing circled at the start) and 12 / 7 (a fox worth the lowest
    area): the defaults put nothing new in the rules vector or the sheet flags."""
    rules = game.game_rules(defaults(game.params))
    assert rules[RULE_START_REROLLS] == rules[RULE_START_PLUS] == 0
    assert game.sheet_flags(defaults(game.params)) < 1 << FOX_FIXED_SHIFT
    assert {p.name: p.default for p in game.params if p.name in NEW} == dict.fromkeys(NEW, 0)


@GAMES
def test_14_10_and_12_11_a_game_starts_with_the_actions_its_rules_give(game, tmp_path):
    """14.10 / 12.11: a game started with 2 re-rolls and 3 +1s has them circled, unused,
    on every sheet it starts (the play loops', a coach's, a blank sheet file's)."""
    values = _with(game, start_rerolls=2, start_plus_ones=3)
    sheet = np.zeros(SHEET_LEN, np.int64)
    for players in (1, 3):
        sheets.start_game_sheet(sheet, game.game_rules(values), 6, players)
        assert (sheet[H_REROLL_GOT], sheet[H_PLUS_GOT]) == (2, 3)
        assert sheet[H_REROLL_USED] == sheet[H_PLUS_USED] == 0
    blank = game.blank_sheet(values)
    assert (blank[H_REROLL_GOT], blank[H_PLUS_GOT]) == (2, 3)
    doc = sheetfile.blank_document(game, values)
    assert doc["rerolls"] == {"unlocked": 2, "used": 0}
    assert doc["plus_ones"] == {"unlocked": 3, "used": 0}
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(doc))
    read = sheetfile.read(game, path, values)  # the start's actions are legal on it
    assert (read[H_REROLL_GOT], read[H_PLUS_GOT]) == (2, 3)
    sheets.start_game_sheet(sheet, game.game_rules(defaults(game.params)), 6, 1)
    assert sheet[H_REROLL_GOT] == sheet[H_PLUS_GOT] == 0


@GAMES
def test_14_10_and_12_11_the_starting_circles_are_circles_of_the_track(game):
    """10 / 5 and 14.10 / 12.11: the circles of the start count among the track's (7 /
    6): unlocks beyond the last are lost (``action_overflow = lost``), and Twice As
    Clever's 6th circle pays its fox that much sooner."""
    sheet = game.blank_sheet(_with(game, start_rerolls=3))
    pending = np.zeros(sheets.MAX_PENDING, np.int64)
    slots = game.layout.ACTION_SLOTS
    n = 0
    for _ in range(slots - 3):
        n = sheets.resolve_bonus(sheet, REROLL_BONUS[game.id], 0, pending, n)
    assert sheet[H_REROLL_GOT] == slots and sheet[H_LOST] == 0
    assert list(pending[:n]) == ([TAC.FOX] if game is TAC_GAME else [])  # the 6th's fox
    n = sheets.resolve_bonus(sheet, REROLL_BONUS[game.id], 0, pending, n)
    assert sheet[H_REROLL_GOT] == slots and sheet[H_LOST] == 1


@GAMES
def test_14_10_and_12_11_learned_plays_the_actions_it_starts_with(game):
    """14.10 / 12.11: on the same dice, learned starting with 3 re-rolls and 3 +1s spends
    more of both in a solo game than on the rulebook's start (re-rolls: more than one
    more a game; its network, never trained with them, keeps many of the +1s)."""
    policies = {}
    for start in (0, 3):
        values = _with(game, start_rerolls=start, start_plus_ones=start)
        result = simulate(game, values, ["learned"], 32, seed=4, progress=False)
        policies[start] = result.tables["policies"].iloc[0]
    assert policies[3].rerolls_per_game > policies[0].rerolls_per_game + 1
    plus = [policies[s].plus_active_per_game + policies[s].plus_passive_per_game
            for s in (0, 3)]
    assert plus[1] > plus[0]


def test_12_and_14_11_a_fixed_fox_scores_foxes_times_its_points():
    """12: two foxes are worth the lowest area each (3, purple), nothing beside an area at
    0; 14.11: with ``fox_value = 10`` each is worth 10 points either way."""
    sheet = TPC.new_sheet()
    sheet[TPC.S_YELLOW] = 0xFFFF
    sheet[TPC.S_GREEN], sheet[TPC.S_FOXES], sheet[TPC.S_BLUE] = 7, 2, 0b111
    sheet[TPC.S_ORANGE], sheet[TPC.S_ORANGE_VALUES] = 1, 5
    sheet[TPC.S_PURPLE], sheet[TPC.S_PURPLE_VALUES] = 1, 3
    areas = 60 + 4 + 28 + 5 + 3
    for fox, total in ((0, areas + 2 * 3), (10, areas + 2 * 10)):
        sheet[TPC.S_FLAGS] = TPC_GAME.sheet_flags(_with(TPC_GAME, fox_value=fox))
        assert sheets.total_score(sheet) == total
        assert sheets.heuristic_value(sheet, np.zeros(0))[0] == total  # the heuristic's
    sheet[TPC.S_PURPLE], sheet[TPC.S_PURPLE_VALUES] = 0, 0  # purple at 0
    for fox, total in ((0, areas - 3), (10, areas - 3 + 2 * 10)):
        sheet[TPC.S_FLAGS] = TPC_GAME.sheet_flags(_with(TPC_GAME, fox_value=fox))
        assert sheets.total_score(sheet) == total
    note = sheetfile.score_result(TPC_GAME, sheet).notes[0]
    assert note.startswith("each fox is worth 10 points, whatever the areas score")


def test_7_and_12_12_a_fixed_fox_ignores_a_negative_or_zero_area():
    """7 / 12.3: a fox beside an area at 0 (silver, blue) and a negative green is worth 0
    (the rulebook), -10 (literal); 12.12: with ``fox_value = 7`` it is worth 7 under every
    reading of 12.3."""
    doc = tac_sheetfile.blank()
    doc.update(yellow={"circled": [[2, 1]], "crossed": [[2, 1]]}, green=[2, 12], pink=[4],
               rerolls={"unlocked": 6, "used": 0})  # silver 0, blue 0, one fox
    areas = 3 - 10 + 4
    for reading, worth in (("rulebook", 0), ("literal", -10), ("zero", 0)):
        for fox, total in ((0, areas + worth), (7, areas + 7)):
            flags = TAC_GAME.sheet_flags(_with(TAC_GAME, fox_negative=reading, fox_value=fox))
            sheet = tac_sheetfile.to_kernel(doc, flags=flags)
            assert sheets.total_score(sheet) == total, (reading, fox)
            assert sheets.heuristic_value(sheet, np.zeros(0))[0] == total


@GAMES
def test_14_11_and_12_12_the_policies_see_what_a_fixed_fox_scores(game):
    """14.11 / 12.12: the totals the greedy and valued policies read for a use of a die
    (``enter_total``) are the sheet's total after it, foxes worth their fixed points."""
    flags = game.sheet_flags(_with(game, fox_value=12))
    moves = np.zeros((play.MAX_MOVES, 3), np.int64)
    rng = np.random.default_rng(2)
    checked = 0
    for sheet in random_sheets(game, games=6):
        sheet[H_FLAGS] = flags
        sheet[H_FOXES] = max(sheet[H_FOXES], 1)
        scores = np.zeros(5, np.int64)
        sheets.area_scores(sheet, scores)
        faces = rng.integers(1, 7, 6).astype(np.int64)
        for die in range(6):
            n = sheets.die_uses(sheet, faces, die, moves, 0)
            for _, area, target in moves[:n]:
                total, _ = trial_total(sheet, lambda t, p: sheets.enter_die(
                    t, faces, die, area, target, p, 0))
                assert sheets.enter_total(sheet, scores, faces, die, area, target) == total
                checked += 1
    assert checked > 100


@GAMES
def test_learned_reads_a_rules_input_for_each_and_never_trained_with_them(game):
    """Rule inputs only grow: each new rule has one rules-block input (``NAME=changed``),
    set by any value off its default; the shipped network loads with zero rows for them,
    training leaves them at their defaults (``variants.UNTRAINED``), and outputs say the
    network never trained with them changed."""
    names = rule_inputs.input_names(game.params)
    members, info = game.file_networks(game.learned_file)
    assert info["rule_inputs"] == names
    assert not [n for n in info["trained_rule_inputs"] if n.split("=")[0] in NEW]
    n_in, first = int(info["inputs"]), int(value_net.n_inputs(game.kernel_game, 2))
    h1 = int(net.width_of(members[0].size, n_in))
    for name in NEW:
        for row in (first + names.index(f"{name}=changed") + o for o in (0, RULES_SCALED)):
            assert not members[0][row * h1:(row + 1) * h1].any(), name
    assert set(NEW) <= set(variants.UNTRAINED)
    assert not {p.name for p in variants.drawn_params(game)} & set(NEW)
    solo = {**defaults(game.params), "players": 1}
    for name, value in (("start_rerolls", 1), ("start_plus_ones", 3), ("fox_value", 20)):
        bit = 1 << names.index(f"{name}=changed")
        assert rule_inputs.input_bits(game.params, {**solo, name: value}) == bit
        assert trained_on.differences(game, {**solo, name: value}) == [
            f"{name}={value} (never trained with it changed)"]
        assert variants.changes(game, {**solo, name: value}) == {name: value}
        assert not variants.inside(game, {**solo, name: value})


@GAMES
def test_the_report_charts_every_rule_effect_in_words(game, monkeypatch):
    """The report's chart of every rule effect (section 3's round bonuses, section 2's
    rounds, 14.10 / 12.11, 14.11 / 12.12): played by the strongest player in the same
    paired games as its round bonuses, at most ``strong_paired`` of them; each change
    in words, signed, and the reading names the changes its network never trained with."""
    from analyzer.games.clever import report, rule_effects

    played = []

    def paired(base, variants, games, precision, game_, seed, progress, bot):
        played.append((bot, games, [label for label, _ in variants]))
        table = pd.DataFrame({"variant": [label for label, _ in variants], "value": -1.0,
                              "ci95_low": -2.0, "ci95_high": 0.5})
        table.attrs["games"] = games
        return table

    monkeypatch.setattr(report, "_paired_diffs", paired)
    values = defaults(game.params)
    table_bonus, _ = report.paired_rule_values(game, values, 1, report.QUICK, False, False)
    _, _, effects = report.round_bonus_values(game, values, 1, report.QUICK, False,
                                              table_bonus, True)
    designs = ["5 rounds (from 6)", "7 rounds (from 6)", "1 re-roll at the start",
               "1 +1 action at the start", "each fox worth 15 points",
               "each fox worth 30 points"]
    assert list(effects.change) == [f"no round-{r} bonus" for r in (1, 2, 3, 4)] + designs
    bot, games, labels = played[-1]
    assert bot == game.strongest_policy and games == report.QUICK.strong_paired
    assert set(designs) <= set(labels) and "without round 1" in labels
    assert (effects.value == -1.0).all() and (effects.ci95_low == -2.0).all()
    assert (effects.ci95_high == 0.5).all()
    assert list(effects.network_trained) == ["yes"] * 6 + ["no"] * 4
    figure = rule_effects.effects_figure(game.prefix, bot, effects)
    assert figure.ref_line == 0.0 and not figure.appendix
    assert "never trained with 1 re-roll at the start, 1 +1 action at the start, each fox " \
        "worth 15 points and each fox worth 30 points" in figure.reading
    assert "_" not in figure.reading + " ".join(effects.change)
