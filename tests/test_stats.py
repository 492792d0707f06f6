"""Estimates from streamed sums equal the same estimates computed from the raw samples."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analyzer import stats

samples = st.lists(st.tuples(st.integers(0, 90), st.integers(0, 90)), min_size=2, max_size=60)


@settings(max_examples=60)
@given(samples)
def test_paired_difference_matches_direct_computation(pairs):
    a = np.array([p[0] for p in pairs], float)
    b = np.array([p[1] for p in pairs], float)
    mean, se = stats.paired_difference(len(a), a.sum(), b.sum(), (a * a).sum(), (b * b).sum(),
                                       (a * b).sum())
    d = b - a
    assert np.isclose(mean, d.mean())
    assert np.isclose(se, d.std(ddof=1) / np.sqrt(len(d)), atol=1e-9)


@settings(max_examples=60)
@given(st.lists(st.integers(0, 90), min_size=2, max_size=60))
def test_mean_se_matches_numpy(values):
    x = np.array(values, float)
    mean, se = stats.mean_se(len(x), x.sum(), (x * x).sum())
    assert np.isclose(mean, x.mean()) and np.isclose(se, x.std(ddof=1) / np.sqrt(len(x)),
                                                     atol=1e-9)


def test_ci95_is_symmetric_normal_interval():
    low, high = stats.ci95(10.0, 2.0)
    assert np.isclose(high - 10, 10 - low) and np.isclose(high - 10, 1.959963984540054 * 2)


def test_proportion_interval_is_wilson_and_inside_unit_range():
    """Wilson score intervals: inside [0, 1] for any count, not of width 0 at rates of 0 or
    1, and close to the normal interval for large samples (the textbook 0.5 of 10 case)."""
    for n, hits in ((1, 0), (1, 1), (1, 0.5), (3, 0), (3, 3), (10, 7)):
        low, high = stats.proportion_ci95(n, hits)
        assert 0.0 <= low < high <= 1.0
        assert low <= hits / n <= high
    low, high = stats.proportion_ci95(10, 5)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    p, se = stats.proportion_se(1e6, 3e5)
    normal = stats.ci95(p, se)
    assert abs(stats.proportion_ci95(1e6, 3e5)[0] - normal[0]) < 1e-5


def test_one_game_win_rate_interval_stays_in_unit_range():
    import json

    from click.testing import CliRunner

    from analyzer.cli import cli
    out = CliRunner().invoke(cli, ["cloverup", "simulate", "--games", "1", "--format",
                                   "json", "--quiet"])
    assert out.exit_code == 0, out.output
    for entry in json.loads(out.output)["policies"].values():
        low, high = entry["win_ci95"]
        assert 0.0 <= low <= entry["win_rate"] <= high <= 1.0 and high > low


@given(st.lists(st.integers(-5, 30), min_size=2, max_size=200))
@settings(max_examples=60, deadline=None)
def test_score_spread_matches_numpy(scores):
    """``seats.spread``: the sample standard deviation from the sums, and percentiles as
    the lowest score whose share of games at or below it reaches 10%, 50% and 90%."""
    from analyzer.seats import Columns, spread

    cols = Columns(games=0, score_sum=1, score_sq=2, win_units=3, hist=4, units_per_win=1,
                   hist_low=-5)
    row = np.zeros(4 + 36, np.int64)
    row[0], row[1], row[2] = len(scores), sum(scores), sum(s * s for s in scores)
    for s in scores:
        row[4 + s + 5] += 1
    got = spread(row, cols)
    assert np.isclose(got["sd"], np.std(scores, ddof=1))
    ordered = np.sort(scores)
    for name, q in (("p10", 0.1), ("median", 0.5), ("p90", 0.9)):
        k = int(np.ceil(q * len(scores) - 1e-9))  # games at or below must reach q
        assert got[name] == ordered[max(k, 1) - 1]
