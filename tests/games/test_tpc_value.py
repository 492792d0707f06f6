"""The heuristic's value features (``kernels.thats_pretty_clever.value``), its training
samples (``kernels.clever.training``) and the policy names of the analyzer."""

import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.games.thats_pretty_clever.model import GAME
from analyzer.params import defaults
from kernels.clever import play
from kernels.thats_pretty_clever import layout as L
from kernels.thats_pretty_clever import value as V
from kernels.thats_pretty_clever.rules import total_score
from tests.games import value_samples
from tests.games.value_samples import training_samples


def features(sheet):
    return value_samples.features(V, total_score, sheet)


def test_blank_sheet_has_only_the_constant():
    """A blank sheet: one printed mark per yellow column and row (below the 2-mark
    features), nothing else; the constant feature is 1."""
    f = features(L.new_sheet())
    assert list(np.nonzero(f)[0]) == [V.F_CONSTANT] and f[V.F_CONSTANT] == 1.0


def test_features_of_a_recorded_position():
    """Yellow column 1 with 3 marks, rows 1 and 2 with 2, the diagonal with 1; blue 3
    marks (row 1: 2 of them, row 2: 1; column (3, 7, 11): 2, column (2, 6, 10): 1);
    green 4; purple 2 with a last value of 5; 2 re-rolls in hand; 1 fox."""
    sheet = L.new_sheet()
    sheet[L.S_YELLOW] |= (1 << 0) | (1 << 4)  # cells [1,1] and [2,1]: column 1 now 3 marks
    sheet[L.S_BLUE] |= (1 << 0) | (1 << 1) | (1 << 5)  # sums 2, 3, 7
    sheet[L.S_GREEN] = 4
    sheet[L.S_PURPLE] = 2
    sheet[L.S_PURPLE_VALUES:L.S_PURPLE_VALUES + 2] = (3, 5)
    sheet[L.S_REROLL_GOT], sheet[L.S_REROLL_USED] = 3, 1
    sheet[L.S_FOXES] = 1
    f = features(sheet)
    expected = {V.F_YELLOW_COL + 0 * 3 + 3 - 2, V.F_YELLOW_ROW + 0 * 3 + 2 - 2,
                V.F_YELLOW_ROW + 1 * 3 + 2 - 2, V.F_BLUE + 3 - 1,
                V.F_BLUE_ROW + 0 + 2 - 1, V.F_BLUE_ROW + 3 + 1 - 1,
                V.F_YELLOW_DIAGONAL + 1 - 1,  # [1,1] is on the main diagonal
                V.F_BLUE_COL + 2 + 1 - 1, V.F_BLUE_COL + 5 + 2 - 1,  # (2,6,10), (3,7,11)
                V.F_GREEN + 4 - 1, V.F_PURPLE + 2 - 1, V.F_PURPLE_LAST + 5 - 1,
                V.F_REROLLS + 2 - 1, V.F_FOXES + 1 - 1, V.F_CONSTANT}
    one_hot = {i for i in np.nonzero(f)[0] if i < V.F_AREAS}
    assert one_hot | {V.F_CONSTANT} == expected
    # linear: blue 3 marks = 4 points, green 4 = 10, purple 3 + 5 = 8, yellow 0, orange 0
    assert list(f[V.F_AREAS:V.F_AREAS + 5]) == [0.0, 0.4, 1.0, 0.0, 0.8]
    assert f[V.F_LOWEST] == 0.0 and f[V.F_FOX_POINTS] == 0.0


@pytest.mark.slow  # compiles the sample-recording kernels alone
def test_training_samples_are_consistent():
    """Samples after every turn: the score never falls, the final score is the game's,
    stages count down from 5 to 0 (two turns each)."""
    _, score, _, _ = training_samples(V, GAME.parse_policy("heuristic:2"),
                                      GAME.game_rules(defaults(GAME.params)))
    assert (np.diff(score.reshape(-1, 12), axis=1) >= 0).all()


@pytest.mark.parametrize("name,samples", [("heuristic", 16), ("heuristic:0", 0),
                                          ("Heuristic:4", 4)])
def test_heuristic_lookahead_sizes(name, samples):
    assert GAME.parse_policy(name)[play.W_SAMPLES] == samples


@pytest.mark.parametrize("name", ["greedy:4", "heuristic:x", "heuristic:999", "expert"])
def test_bad_policy_names(name):
    with pytest.raises(UserError, match="heuristic"):
        GAME.parse_policy(name)


def test_platter_gift_is_the_opponents_best_immediate_gain():
    """5 (passive picks): a last pick leaves the platter and every other die in play to the
    opponents; the gift is the best score one of them gets from it (mean over opponents)."""
    from kernels.clever.policies import WORK_LEN, platter_gift

    sheets = np.stack([L.new_sheet(), L.new_sheet()])
    faces = np.array([1, 1, 1, 6, 6, 6], np.int64)  # W1 Y1 B1 G6 O6 P6, all in play
    where = np.full(6, play.POOL, np.int64)
    scratch = np.empty(WORK_LEN, np.int64)
    assert platter_gift(sheets, 0, faces, where, L.ORANGE, scratch) == 6  # purple 6
    assert platter_gift(sheets, 0, faces, where, L.GREEN, scratch) == 6  # orange or purple
    sheets[1, L.S_ORANGE] = sheets[1, L.S_PURPLE] = L.TRACK  # both tracks full
    assert platter_gift(sheets, 0, faces, where, L.ORANGE, scratch) == 1  # green or blue 2
