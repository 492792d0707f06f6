"""Open points the engine audit made rule parameters, on either Clever game
(That's Pretty Clever rules page 14.8-14.9, Twice As Clever 12.10): +1 after a passive
player took no die, and who gets a +1 window after the game's last turn; and the open
points no solo game of a valued policy reads, which the report values at exactly 0."""

import numpy as np
import pandas as pd
import pytest

from analyzer.games.clever.params import SOLO_INERT, unread_at
from analyzer.games.clever.simulation import whatif
from analyzer.games.thats_pretty_clever.model import GAME as TPC_GAME
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.params import defaults
from kernels.clever import play
from kernels.clever_base.game_rules import RULE_SHEET_FLAGS
from kernels.clever_base.sheet import H_PLUS_GOT, H_PLUS_USED
from kernels.clever.sheets import start_sheet

GAMES = pytest.mark.parametrize("game", [TPC_GAME, TAC_GAME], ids=lambda g: g.id)


def policy(kind):
    row = np.zeros(play.N_POL)
    row[play.KIND] = kind
    return row


@GAMES
@pytest.mark.parametrize("after_decline", [True, False])
def test_14_8_12_10_plus_after_taking_no_die(game, after_decline):
    """14.8 / 12.10 (plus_after_decline): a passive player with nothing on the platter or
    the fields to take and a +1 in hand spends it (greedy: the last turn, any gain) by
    default, and not with plus_after_decline = false."""
    rules = game.game_rules({**defaults(game.params), "plus_after_decline": after_decline})
    sheet = np.zeros(play.SHEET_LEN, np.int64)
    start_sheet(sheet, game.kernel_game, 6, rules[RULE_SHEET_FLAGS])
    sheet[H_PLUS_GOT] = 1
    faces = np.array([3, 4, 5, 2, 6, 1], np.int64)
    where = np.full(6, play.POOL, np.int64)  # no die on the platter or the fields
    log = np.zeros(play.LOG_LEN, np.int64)
    play.passive_pick(sheet, faces, where, policy(play.GREEDY), np.uint64(3), 8,
                      np.zeros((play.MAX_MOVES, 3), np.int64),
                      np.zeros(play.WORK_LEN, np.int64), True, rules, log)
    assert sheet[H_PLUS_USED] == (1 if after_decline else 0)
    assert log[play.LOG_PLUS_PASSIVE] == sheet[H_PLUS_USED]


@GAMES
@pytest.mark.parametrize("final_plus,spenders", [("last_player", [1]),
                                                 ("every_player", [0, 1])])
def test_14_9_12_10_final_plus_window(game, final_plus, spenders):
    """14.9 / 12.10 (final_plus): after the last turn of a 2-player game, with a +1 in
    hand each and usable dice, only the last active player (seat 2) gets a +1 window by
    default; with every_player both do."""
    rules = game.game_rules({**defaults(game.params), "players": 2, "final_plus": final_plus})
    sheets = np.zeros((2, play.SHEET_LEN), np.int64)
    for sheet in sheets:
        start_sheet(sheet, game.kernel_game, 6, rules[RULE_SHEET_FLAGS])
        sheet[H_PLUS_GOT] = 1
    play.final_plus_ones(np.uint64(4), 0, policy(play.GREEDY)[None, :], 6, rules, sheets,
                         np.zeros((1, play.WORK_LEN), np.int64),
                         np.zeros((play.MAX_MOVES, 3), np.int64),
                         np.array([3, 4, 5, 2, 6, 1], np.int64),
                         np.zeros((2, play.LOG_LEN), np.int64))
    assert [p for p in (0, 1) if sheets[p, H_PLUS_USED]] == spenders


@GAMES
def test_5_field_die_is_a_may_even_when_passive_picks_are_compulsory(game):
    """5 / 14.8 / 12.10: with passive_may_decline = false a passive player with a usable
    platter die must pick (random never declines), but one with only the active player's
    field dice to fall back on may still take none (random declines about 1 in n + 1)."""
    rules = game.game_rules({**defaults(game.params), "passive_may_decline": False})
    faces = np.array([3, 4, 5, 2, 6, 1], np.int64)
    declined = {}
    for place in (play.PLATTER, play.FIELD):
        log = np.zeros(play.LOG_LEN, np.int64)
        for t in range(400):
            sheet = np.zeros(play.SHEET_LEN, np.int64)
            start_sheet(sheet, game.kernel_game, 6, rules[RULE_SHEET_FLAGS])
            play.passive_pick(sheet, faces, np.full(6, place, np.int64), policy(play.RANDOM),
                              np.uint64(t + 1), 8, np.zeros((play.MAX_MOVES, 3), np.int64),
                              np.zeros(play.WORK_LEN, np.int64), False, rules, log)
        declined[place] = log[play.LOG_DECLINED]
    assert declined[play.PLATTER] == 0 and 0 < declined[play.FIELD] < 100


@GAMES
@pytest.mark.parametrize("name", sorted(SOLO_INERT))
@pytest.mark.parametrize("bot", ["greedy", "heuristic"])
def test_14_9_12_10_solo_inert_open_points_change_no_solo_game(game, name, bot):
    """final_plus (14.9 / 12.10) and wasted_pick (14.1 / 12.6) never change a solo game of
    a valued policy: the same games, to the point, either way (``params.SOLO_INERT``)."""
    param = next(p for p in game.params if p.name == name)
    other = next(c for c in param.choices if c != param.default) if param.choices \
        else not param.default
    solo = {**defaults(game.params), "players": 1}
    result = whatif(game, [("as is", solo, [bot]), ("other", {**solo, name: other}, [bot])],
                    512, seed=9, progress=False)
    rows = result.tables["variants"]
    diff = rows[(rows.metric == "mean_score") & rows["diff"].notna()].iloc[0]
    assert (diff["diff"], diff["diff_ci95_low"], diff["diff_ci95_high"]) == (0, 0, 0)


def test_the_solo_inert_readings_take_no_rules_input_in_a_solo_game():
    """What the report values at exactly 0 solo, the value networks do not read there
    either (``params.UNREAD_AT``), so ``learned``'s games cannot tell the readings apart."""
    assert set(SOLO_INERT) <= set(unread_at(1))


@GAMES
def test_the_report_values_solo_inert_readings_at_exactly_0_without_playing_them(
        game, monkeypatch):
    """The report's table of open readings plays every other reading, and gives the
    solo-inert ones 0 with an interval of 0 to 0 and a note saying why."""
    from analyzer.games.clever import report

    played = []

    def paired(base, variants, games, precision, game_, seed, progress, bot):
        played.extend(label for label, _ in variants)
        table = pd.DataFrame({"variant": [label for label, _ in variants], "value": 1.0,
                              "ci95_low": 0.5, "ci95_high": 1.5})
        table.attrs["games"] = games
        return table

    monkeypatch.setattr(report, "_paired_diffs", paired)
    values = defaults(game.params)
    by_name = {p.name: p for p in game.params}
    flipped = {by_name[name].words(report._alternative(by_name[name])): name
               for name in by_name if by_name[name].assumed}
    _, rules = report.paired_rule_values(game, values, 1, report.QUICK, False)
    inert = rules[rules.variant.map(flipped).isin(list(SOLO_INERT))]
    assert sorted(inert.variant.map(flipped)) == sorted(SOLO_INERT)
    assert (inert[["value", "ci95_low", "ci95_high"]] == 0).all().all()
    assert not [label for label in played if flipped.get(label) in SOLO_INERT]
    assert by_name["passive_may_decline"].words(False) in played
    note = report.readings_note(game, values)
    assert all(f"{by_name[name].label} is worth exactly 0" in note for name in SOLO_INERT)
