"""Helpers of the heuristic value tests of both Clever games: a sheet's features, and the
training samples of a few games checked for what every game's samples hold."""

import numpy as np

from analyzer.games.clever.samples import sample_blocks


def features(value, total_score, sheet):
    """The features of ``sheet`` by the game's value module ``value``, whose score part
    must be the sheet's ``total_score``."""
    out = np.zeros(value.N_FEATURES)
    score, weighted = value.sheet_value(sheet, value.NO_FEATURES, out)
    assert weighted == 0.0 and score == total_score(sheet)
    return out


def training_samples(value, pol, rules, rounds=6, block=8, keys=(11, 12)):
    """``(features, score, stage, final)`` of the samples of ``block`` games of each key,
    played by the policy row ``pol``: after every turn of a game, its final score the
    game's, the stages counting down from 5 to 0 (two turns each), the constant feature
    set."""
    keys = np.array(keys, np.uint64)
    rows = len(keys) * block * 2 * rounds
    feats = np.zeros((rows, value.N_FEATURES))
    score, stage, final = (np.zeros(rows, np.int64) for _ in range(3))
    sample_blocks(keys, block, pol, rounds, rules, feats, score, stage, final)
    per_game = 2 * rounds
    for g in range(rows // per_game):
        s = slice(g * per_game, (g + 1) * per_game)
        assert score[s][-1] == final[s][0] and (final[s] == final[s][0]).all()
        assert list(stage[s]) == [5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 0, 0]
    assert (feats[:, value.F_CONSTANT] == 1).all()
    return feats, score, stage, final
