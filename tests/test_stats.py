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
