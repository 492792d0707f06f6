"""kernels/rng.py: counter-based uniforms and the weighted (guide-table) die."""

import numpy as np
import pytest
from numba import njit
from scipy import stats

from kernels import rng
from kernels.rng import GUIDE_SIZE, draw, make_die, mix64, turn_stream, uniform

DEFAULT_WEIGHTS = np.array([6, 5, 5, 3, 3, 1, 1], np.float64)  # rules page, *Dice*
P_MIN = 1e-6  # chi-square p-value threshold
Z = 5.0


@njit(cache=True)
def _uniforms(key, n_games, n_slots):
    out = np.empty((n_games, n_slots), np.float64)
    for g in range(n_games):
        s = turn_stream(key, g, 0)
        for k in range(n_slots):
            out[g, k] = uniform(s, k)
    return out


@njit(cache=True)
def _draw_counts(key, n_games, n_slots, die, k):
    counts = np.zeros(k, np.int64)
    for g in range(n_games):
        s = turn_stream(key, g, 1)
        for j in range(n_slots):
            counts[draw(die, k, uniform(s, j))] += 1
    return counts


@njit(cache=True)
def _draw_many(die, k, us):
    out = np.empty(us.shape[0], np.int64)
    for i in range(us.shape[0]):
        out[i] = draw(die, k, us[i])
    return out


def _die(weights):
    w = np.asarray(weights, np.float64)
    cum = np.cumsum(w)
    return cum / cum[-1], make_die(cum / cum[-1])


@pytest.fixture(scope="module")
def sample():
    return _uniforms(np.uint64(12345), 100_000, 10)  # 1e6 uniforms


def test_mix64_is_splitmix64():
    """The mixer is splitmix64's finaliser: the reference generator seeded with 0 first
    outputs mix64(golden ratio) = 0xE220A8397B1DCDAF."""
    assert int(mix64(np.uint64(0x9E3779B97F4A7C15))) == 0xE220A8397B1DCDAF
    assert int(mix64(np.uint64(0))) == 0


def test_uniform_range_and_moments(sample):
    """uniform() lies in [0, 1), reaches both ends, and has mean 1/2 and variance 1/12."""
    u = sample.ravel()
    n = u.size
    assert u.min() >= 0.0 and u.max() < 1.0
    assert u.min() < 1e-4 and u.max() > 1 - 1e-4  # fails with probability ~2e-43
    assert abs(u.mean() - 0.5) <= Z * np.sqrt(1 / 12 / n)
    # SE of the sample variance: sqrt((mu4 - sigma^4) / n), mu4 = E(U - 1/2)^4 = 1/80
    assert abs(u.var() - 1 / 12) <= Z * np.sqrt((1 / 80 - (1 / 12) ** 2) / n)


def test_uniform_histogram(sample):
    """100 equal bins: chi-square goodness of fit to the uniform distribution."""
    counts = np.bincount((sample.ravel() * 100).astype(np.int64), minlength=100)
    assert stats.chisquare(counts).pvalue > P_MIN


def test_neighbouring_slots_are_independent(sample):
    """Pairs (slot k, slot k + 1) in a 10 x 10 grid: chi-square test of uniformity."""
    a = (sample[:, 0::2] * 10).astype(np.int64).ravel()
    b = (sample[:, 1::2] * 10).astype(np.int64).ravel()
    assert stats.chisquare(np.bincount(a * 10 + b, minlength=100)).pvalue > P_MIN


def test_neighbouring_games_and_keys_are_independent(sample):
    """Slot 0 of games g and g + 1, and of keys k and k + 1: 10 x 10 chi-square tests."""
    a = (sample[0::2, 0] * 10).astype(np.int64)
    b = (sample[1::2, 0] * 10).astype(np.int64)
    assert stats.chisquare(np.bincount(a * 10 + b, minlength=100)).pvalue > P_MIN
    other = _uniforms(np.uint64(12346), 100_000, 1)[:, 0]
    c = (other * 10).astype(np.int64)
    d = (sample[:, 0] * 10).astype(np.int64)
    assert stats.chisquare(np.bincount(c * 10 + d, minlength=100)).pvalue > P_MIN


def test_deterministic(sample):
    """Every number is a pure function of (key, game, turn, slot)."""
    np.testing.assert_array_equal(_uniforms(np.uint64(12345), 100_000, 10), sample)
    s = np.uint64(turn_stream(np.uint64(99), 7, 3))  # a stream, as the kernels hold it
    assert s == turn_stream(np.uint64(99), 7, 3)
    assert uniform(s, np.int64(5)) == uniform(s, np.int64(5))


def test_slots_turns_games_keys_differ():
    """Different keys, games, turns or slots give different streams and numbers (including
    the counter boundary game g, turn MAX_TURNS_PER_GAME - 1 vs game g + 1, turn 0)."""
    streams, values = set(), set()
    turns = [0, 1, 2, rng.MAX_TURNS_PER_GAME - 1]
    for key in (0, 1, 2, 2 ** 63 + 5):
        for game in range(4):
            for turn in turns:
                s = int(turn_stream(np.uint64(key), game, turn))
                streams.add(s)
                for slot in range(8):
                    values.add(float(uniform(np.uint64(s), slot)))
    assert len(streams) == 4 * 4 * len(turns)
    assert len(values) == 8 * len(streams)


def test_make_die_layout():
    """make_die: the cdf, then GUIDE_SIZE guide entries (first index whose cdf exceeds
    j / GUIDE_SIZE)."""
    cdf, die = _die(DEFAULT_WEIGHTS)
    assert die.shape == (7 + GUIDE_SIZE,)
    np.testing.assert_array_equal(die[:7], cdf)
    assert cdf[-1] == 1.0
    for j in range(GUIDE_SIZE):
        assert die[7 + j] == min(np.searchsorted(cdf, j / GUIDE_SIZE, side="right"), 6)


@pytest.mark.parametrize("weights", [
    DEFAULT_WEIGHTS,
    [1, 1, 1, 1, 1, 1, 1],
    [0, 5, 0, 3, 3, 0, 1],  # zero weights inside
    [6, 5, 5, 3, 3, 1, 0],  # zero weight last
    [0, 0, 0, 0, 0, 0, 1],
    [1, 0, 0, 0, 0, 0, 0],
    [1000, 1, 1, 1, 1, 1, 1],
])
def test_draw_is_the_first_cdf_entry_above_u(weights):
    """draw(die, 7, u) is the index of the first cdf entry above u, for random u and at every
    cdf and guide boundary; zero-weight faces are never drawn."""
    cdf, die = _die(weights)
    edges = np.concatenate([cdf[:-1], np.arange(GUIDE_SIZE) / GUIDE_SIZE, [0.0]])
    us = np.concatenate([
        np.random.default_rng(0).random(200_000),
        edges, np.nextafter(edges, 0.0).clip(0.0), np.nextafter(edges, 1.0),
        [np.nextafter(1.0, 0.0)],
    ])
    us = us[(us >= 0) & (us < 1)]
    got = _draw_many(die, 7, us)
    np.testing.assert_array_equal(got, np.searchsorted(cdf, us, side="right"))
    zero = np.flatnonzero(np.asarray(weights) == 0)
    assert not np.isin(got, zero).any()


def test_draw_chi_square_default_die():
    """1e6 draws of the default CloverUp die fit the weights 6,5,5,3,3,1,1 / 24."""
    cdf, die = _die(DEFAULT_WEIGHTS)
    counts = _draw_counts(np.uint64(777), 100_000, 10, die, 7)
    n = counts.sum()
    expected = n * DEFAULT_WEIGHTS / DEFAULT_WEIGHTS.sum()
    assert stats.chisquare(counts, expected).pvalue > P_MIN
    for f in range(7):  # and each face within 5 SE
        p = DEFAULT_WEIGHTS[f] / DEFAULT_WEIGHTS.sum()
        assert abs(counts[f] / n - p) <= Z * np.sqrt(p * (1 - p) / n)


@njit(cache=True)
def _roll_vs_draw(die, k, n):
    mismatches = 0
    for t in range(n):
        stream = rng.turn_stream(np.uint64(99), t, 3)
        for slot in range(12):
            if rng.roll(die, k, stream, slot) != rng.draw(die, k, rng.uniform(stream, slot)):
                mismatches += 1
    return mismatches


def test_roll_is_draw_of_uniform():
    die = rng.make_die(np.cumsum(np.array([6, 5, 5, 3, 3, 1, 1.0])) / 24)
    assert _roll_vs_draw(die, 7, 20_000) == 0
