"""The value network's forward pass from the last input (``kernels.clever.net_delta``): the
same output to the bit as the pass from scratch, whatever came before, and within float32
rounding of ``net.forward``."""

import numpy as np
import pytest

from kernels.clever import net, net_delta

MAX_INPUTS = 64
N_IN = 60


def _weights(h1, seed):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(net.net_size(N_IN, h1)) * 0.3).astype(np.float32)


def _inputs(rng, count):
    """``count`` sparse inputs, each a few changes from the one before (now and then a
    new one altogether), values 1 or fractions."""
    idx = np.sort(rng.choice(N_IN, 20, replace=False))
    val = np.where(rng.random(20) < 0.7, 1.0, rng.random(20)).astype(np.float32)
    out = []
    for _ in range(count):
        if rng.random() < 0.1:
            idx = np.sort(rng.choice(N_IN, rng.integers(1, 40), replace=False))
            val = rng.random(idx.size).astype(np.float32) + np.float32(0.01)
        else:
            dense = np.zeros(N_IN, np.float32)
            dense[idx] = val
            flip = rng.choice(N_IN, rng.integers(1, 5), replace=False)
            dense[flip] = np.where(dense[flip] == 0, rng.random(flip.size) + 0.01, 0)
            idx = np.flatnonzero(dense)
            val = dense[idx].astype(np.float32)
        order = rng.permutation(idx.size)  # an encoding's inputs come in any order
        out.append((idx[order].astype(np.int64), val[order]))
    return out


def _padded(idx, val):
    i = np.zeros(MAX_INPUTS, np.int64)
    v = np.zeros(MAX_INPUTS, np.float32)
    i[:idx.size], v[:val.size] = idx, val
    return i, v, idx.size


def _work():
    return np.zeros(net.MAX_H1, np.float32), np.zeros(net.H2, np.float32)


def _exact(w, idx, val):
    a1, a2 = _work()
    i, v, nnz = _padded(idx, val)
    return net_delta.forward_exact(w, N_IN, i, v, nnz, a1, a2), a1.copy(), a2.copy()


@pytest.mark.parametrize("h1", net.WIDTHS)
def test_the_pass_from_the_last_input_is_the_pass_from_scratch_to_the_bit(h1):
    rng = np.random.default_rng(h1)
    w = _weights(h1, 1)
    cache = np.zeros(net_delta.cache_len(MAX_INPUTS), np.int64)
    net_delta.reset(cache, MAX_INPUTS)
    a1, a2 = _work()
    for idx, val in _inputs(rng, 300):
        i, v, nnz = _padded(idx, val)
        got = net_delta.forward_cached(w, N_IN, i, v, nnz, a1, a2, cache, MAX_INPUTS)
        want, want_a1, want_a2 = _exact(w, idx, val)
        assert got == want
        assert np.array_equal(a1[:h1], want_a1[:h1]) and np.array_equal(a2, want_a2)


@pytest.mark.parametrize("h1", net.WIDTHS)
def test_the_exact_pass_is_the_float32_pass_within_rounding(h1):
    rng = np.random.default_rng(5)
    w = _weights(h1, 2)
    a1, a2 = _work()
    for idx, val in _inputs(rng, 50):
        i, v, nnz = _padded(idx, val)
        plain = net.forward(w, N_IN, i, v, nnz, a1, a2)
        assert _exact(w, idx, val)[0] == pytest.approx(plain, rel=1e-4, abs=1e-4)


def test_a_cache_tells_networks_apart_and_sees_weights_changed_in_place():
    rng = np.random.default_rng(3)
    nets = [_weights(net.H1, 10), _weights(net.MAX_H1, 11)]
    cache = np.zeros(net_delta.cache_len(MAX_INPUTS), np.int64)
    net_delta.reset(cache, MAX_INPUTS)
    a1, a2 = _work()
    for step, (idx, val) in enumerate(_inputs(rng, 60)):
        w = nets[step % 2]
        if step % 7 == 0:  # the output bias moves, as a training step moves it
            w[-1] += np.float32(0.25)
        i, v, nnz = _padded(idx, val)
        got = net_delta.forward_cached(w, N_IN, i, v, nnz, a1, a2, cache, MAX_INPUTS)
        assert got == _exact(w, idx, val)[0]


def test_a_cache_that_was_never_reset_is_emptied_before_use():
    rng = np.random.default_rng(4)
    w = _weights(net.H1, 12)
    idx, val = _inputs(rng, 1)[0]
    i, v, nnz = _padded(idx, val)
    garbage = rng.integers(-1 << 40, 1 << 40, net_delta.cache_len(MAX_INPUTS))
    a1, a2 = _work()
    got = net_delta.forward_cached(w, N_IN, i, v, nnz, a1, a2, garbage, MAX_INPUTS)
    assert got == _exact(w, idx, val)[0]
