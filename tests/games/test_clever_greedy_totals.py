"""The greedy policy's shortcuts (``kernels.clever.sheets``: ``enter_total``,
``quiet_total``, ``best_enter_total``, ``mark_total``) give exactly the total a trial sheet
gives after ``enter_die`` or ``resolve_bonus`` (its bonuses unresolved), on sheets of
random games of both Clever games, for every legal use of random dice."""

import numpy as np
import pytest

from analyzer.games.thats_pretty_clever.model import GAME as TPC_GAME
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.params import defaults
from kernels.clever import play, sheets
from kernels.clever_base.sheet import H_ROUND, H_ROUNDS
from kernels.rng import turn_stream
from kernels.thats_pretty_clever import layout as TPC
from kernels.twice_as_clever import layout as TAC

FREE_MARKS = {  # free-mark bonuses with a choice of place, per game
    TPC_GAME.id: [TPC.bonus(TPC.CROSS_YELLOW), TPC.bonus(TPC.CROSS_BLUE),
                  TPC.bonus(TPC.CROSS_GREEN), TPC.bonus(TPC.WRITE_ORANGE, 6),
                  TPC.bonus(TPC.WRITE_PURPLE, 6)],
    TAC_GAME.id: [TAC.Q_SILVER, TAC.Q_YELLOW, TAC.Q_BLUE, TAC.Q_GREEN, TAC.Q_PINK],
}


def random_sheets(game, games=30):
    """Sheets after every active turn of random-policy solo games."""
    values = defaults(game.params)
    rules, pol = game.game_rules(values), game.parse_policy("random")
    faces, where = np.zeros(6, np.int64), np.zeros(6, np.int64)
    scratch = np.empty(play.WORK_LEN, np.int64)
    moves = np.zeros((play.MAX_MOVES, 3), np.int64)
    log = np.zeros(play.LOG_LEN, np.int64)
    out = []
    for g in range(games):
        sheet = game.blank_sheet(values)
        sheet[H_ROUNDS] = 6
        for r in range(6):
            sheet[H_ROUND] = r
            play.active_turn(sheet[None, :], 0, faces, where, pol,
                             np.uint64(turn_stream(np.uint64(3), g, r)), moves, scratch, rules, log,
                             0)
            out.append(sheet.copy())
    return out


def trial_total(sheet, apply):
    """``(total, bonuses fired)`` after ``apply(trial, pending)`` on a copy."""
    trial = sheet.copy()
    pending = np.zeros(sheets.MAX_PENDING, np.int64)
    fired = apply(trial, pending)
    return int(sheets.total_score(trial)), fired


@pytest.mark.parametrize("game", [TPC_GAME, TAC_GAME], ids=lambda g: g.id)
def test_greedy_totals_match_a_trial_sheet(game):
    rng = np.random.default_rng(5)
    moves = np.zeros((play.MAX_MOVES, 3), np.int64)
    checked = fired_seen = 0
    for sheet in random_sheets(game):
        scores = np.zeros(5, np.int64)
        sheets.area_scores(sheet, scores)
        faces = rng.integers(1, 7, 6).astype(np.int64)
        for die in range(6):
            n = play.legal_moves(sheet, faces, 1 << die, moves, False)
            best = sheets.NO_TOTAL
            for die_, area, target in moves[:n]:
                total, fired = trial_total(sheet, lambda t, p: sheets.enter_die(
                    t, faces, die_, area, target, p, 0))
                assert sheets.enter_total(sheet, scores, faces, die_, area, target) == total
                quiet = sheets.quiet_total(sheet, scores, faces, die_, area, target)
                assert quiet == (sheets.NO_TOTAL if fired else total)
                best = max(best, total)
                checked += 1
                fired_seen += fired > 0
            assert sheets.best_enter_total(sheet, scores, faces, die) == best
        for code in FREE_MARKS[game.id]:
            options = int(sheets.bonus_choices(sheet, code))
            for bit in range(32):
                if options > 0 and (options >> bit) & 1:
                    choice = sheets.choice_of_bit(sheet, code, bit)
                    total, _ = trial_total(sheet, lambda t, p: sheets.resolve_bonus(
                        t, code, choice, p, 0))
                    assert sheets.mark_total(sheet, scores, code, choice) == total
    assert checked > 1000 and fired_seen > 50  # both paths of quiet_total were exercised
