"""The Twice As Clever heuristic's value features (``kernels.twice_as_clever.value``),
their dispatch through the shared engine and the training samples
(``kernels.clever.training``) of Twice As Clever games."""

import numpy as np
import pytest

from kernels.clever import play, sheets, training
from kernels.clever_base.game_rules import N_GAME_RULES, RULE_GAME, RULE_SHEET_FLAGS
from kernels.clever_base.sheet import FLAG_PLUS_PER_ROUND, TAC
from kernels.twice_as_clever import layout as L
from kernels.twice_as_clever import value as V
from kernels.twice_as_clever.rules import total_score
from tests.games import value_samples
from tests.games.value_samples import training_samples


def features(sheet):
    return value_samples.features(V, total_score, sheet)


def tac_rules():
    rules = np.zeros(N_GAME_RULES, np.int64)
    rules[:6] = L.ROUND_BONUS
    rules[RULE_GAME] = TAC
    rules[RULE_SHEET_FLAGS] = FLAG_PLUS_PER_ROUND
    return rules


def a_position():
    """Silver: yellow row 1, 2, 3 marked, number 3 in the blue row too; yellow: cells 2
    (the 1) and 3 (the 2) circled (row 2 complete), cell 2 crossed; blue 3 slots 9, 7, 7;
    green 3 slots (4, 2 | 10): an open pair with face 5 (x2); pink 2 slots 4, 1; 2
    re-rolls in hand, 1 return; 2 foxes."""
    sheet = L.new_sheet()
    sheet[L.S_ROUNDS] = 6
    for cell in (0, 1, 2, 6 + 2):  # yellow row 1, 2, 3; blue row 3
        sheet[L.S_SILVER] |= 1 << cell
    sheet[L.S_YELLOW_CIRCLED] = (1 << 2) | (1 << 3)
    sheet[L.S_YELLOW_CROSSED] = 1 << 2
    sheet[L.S_BLUE] = 3
    sheet[L.S_BLUE_VALUES:L.S_BLUE_VALUES + 3] = (9, 7, 7)
    sheet[L.S_GREEN] = 3
    sheet[L.S_GREEN_VALUES:L.S_GREEN_VALUES + 3] = (4, 2, 10)
    sheet[L.S_PINK] = 2
    sheet[L.S_PINK_VALUES:L.S_PINK_VALUES + 2] = (4, 1)
    sheet[L.S_REROLL_GOT], sheet[L.S_REROLL_USED] = 3, 1
    sheet[L.S_RETURN_GOT] = 1
    sheet[L.S_FOXES] = 2
    return sheet


def test_blank_sheet_has_only_the_constant():
    f = features(L.new_sheet())
    assert list(np.nonzero(f)[0]) == [V.F_CONSTANT] and f[V.F_CONSTANT] == 1.0


def test_features_of_a_position():
    f = features(a_position())
    expected = {V.F_SILVER_ROW + 0 * 5 + 3 - 1, V.F_SILVER_ROW + 1 * 5 + 1 - 1,
                V.F_SILVER_COL + 2 * 2 + 2 - 2,  # number 3 in two rows
                # yellow: column 1 (cells 2, 6) has 1 of 2 circled, column 3 (cells 3, 7)
                # 1 of 2; row 2 is complete (no feature)
                V.F_YELLOW_GROUP + 5 + 1 - 1, V.F_YELLOW_GROUP + 8 + 1 - 1,
                V.F_YELLOW_CROSSED + 1 - 1, V.F_YELLOW_OPEN + 1 - 1,
                V.F_BLUE + 3 - 1, V.F_BLUE_LAST + 7 - 2,
                V.F_GREEN + 3 - 1, V.F_GREEN_OPEN + 5 - 1, V.F_PINK + 2 - 1,
                V.F_REROLLS + 2 - 1, V.F_RETURNS + 1 - 1, V.F_FOXES + 2 - 1, V.F_CONSTANT}
    one_hot = {int(i) for i in np.nonzero(f)[0] if i < V.F_GREEN_PENDING}
    assert one_hot | {V.F_CONSTANT} == expected
    assert f[V.F_GREEN_PENDING] == 1.0
    # silver 7 + 2 = 9, yellow 1 cross = 3, blue 3 slots = 6, green 4 - 2 = 2, pink 5
    assert list(f[V.F_AREAS:V.F_AREAS + 5]) == [0.9, 0.3, 0.6, 0.2, 0.5]
    assert f[V.F_LOWEST] == 0.2 and f[V.F_FOX_POINTS] == 0.4
    assert list(f[V.F_AREAS_CAPPED:V.F_AREAS_CAPPED + 5]) == [0.9, 0.3, 0.6, 0.2, 0.5]
    assert total_score(a_position()) == 9 + 3 + 6 + 2 + 5 + 2 * 2


def test_capped_area_scores_stop_at_the_cap():
    """Yellow 6 crosses score 75: linear 7.5, capped at AREA_CAP (30) 3.0."""
    sheet = a_position()
    sheet[L.S_YELLOW_CIRCLED] = sheet[L.S_YELLOW_CROSSED] = 0b111111
    f = features(sheet)
    assert f[V.F_AREAS + L.YELLOW_AREA] == 7.5
    assert f[V.F_AREAS_CAPPED + L.YELLOW_AREA] == V.AREA_CAP / 10


def test_fox_floor_zero_flag_matches_the_score():
    """A negative green with FLAG_FOX_FLOOR_ZERO: foxes count 0, as in the score."""
    sheet = a_position()
    sheet[L.S_GREEN_VALUES + 1] = 10  # pair A: 4 - 10 = -6
    assert V.sheet_value(sheet, V.NO_FEATURES, V.NO_FEATURES)[0] == total_score(sheet)
    assert total_score(sheet) == 9 + 3 + 6 - 6 + 5 + 2 * -6
    sheet[L.S_FLAGS] |= L.FLAG_FOX_FLOOR_ZERO
    f = features(sheet)
    assert f[V.F_LOWEST] == 0.0 and f[V.F_FOX_POINTS] == 0.0


def test_recorded_features_give_the_weighted_sum():
    """The weighted sum is the dot product of the recorded features with the stage's
    weights, also through the engine's dispatch and a policy row of either game's length."""
    rng = np.random.default_rng(3)
    w = rng.normal(size=V.N_VALUE_WEIGHTS)
    sheet = a_position()
    for rnd in (0, 3, 5):
        sheet[L.S_ROUND] = rnd
        f = features(sheet)
        stage = V.value_stage(sheet)
        expected = f @ w[stage * V.N_FEATURES:(stage + 1) * V.N_FEATURES]
        score, weighted = V.sheet_value(sheet, w, V.NO_FEATURES)
        assert np.isclose(weighted, expected)
        row = np.zeros(play.N_POL)
        row[play.KIND] = play.HEURISTIC
        row[play.W_VALUE:play.W_VALUE + V.N_VALUE_WEIGHTS] = w
        assert sheets.feature_value(sheet, row[play.W_VALUE:], V.NO_FEATURES)[1] == weighted
        assert np.isclose(play.sheet_value(sheet, row, np.zeros(play.WORK_LEN, np.int64)),
                          score + expected)
    assert play.N_POL >= play.W_VALUE + V.N_VALUE_WEIGHTS


@pytest.mark.slow
def test_training_samples_are_consistent():
    """Twice As Clever samples after every turn, recorded through the dispatch (unlike
    That's Pretty Clever the score may fall: a green pair's second value can exceed the
    first, and foxes follow the lowest area): the final score is the game's, stages count
    down from 5 to 0 (two turns each), the features are the TAC features of each sheet
    (constant 1; the area features and foxes x lowest add up to the score)."""
    assert training.n_features(TAC) == V.N_FEATURES
    pol = np.zeros(play.N_POL)
    pol[play.KIND], pol[play.W_SAMPLES], pol[play.W_BRANCH] = play.HEURISTIC, 2, 2
    feats, score, _, final = training_samples(V, pol, tac_rules())
    assert (score.reshape(-1, 12)[:, 0] < score.reshape(-1, 12)[:, -1]).all()
    areas = np.rint(10 * feats[:, V.F_AREAS:V.F_AREAS + 5].sum(axis=1))
    fox_points = np.rint(10 * feats[:, V.F_FOX_POINTS])
    assert (areas + fox_points == score).all()
    assert final.mean() > 60  # real games were played
