"""The value network's forward pass updated from the last input it ran on: the candidates
of a decision differ from one another in a few inputs, so only the first-layer rows of the
inputs that changed are added or taken away.

So that a value never depends on the inputs valued before it, the first layer is summed
exactly: each product ``x * W1[i, j]`` (below 2^15 in magnitude) is rounded to a multiple
of 2^-36 (``_add_row``) and summed in float64, where sums of such numbers are exact below
2^17, far beyond any unit's sum. The sum is then the same in any order, so an updated sum
equals the sum from scratch (``forward_exact``) to the bit, whatever came before.

A cache (int64[cache_len(max_inputs)], one per member network and work buffer) holds the
last input (its list and a dense copy), its first-layer sums, the identity of the weights
it was summed with (their address, input count and two of their numbers) and work space.
``reset`` makes a cache empty: at every game's start (``policies.new_game_work``), so
also after weights changed in place by training; a cache that was never reset is found by
its mark and emptied before use.
"""

import numpy as np

from kernels.clever.net import H1, MAX_H1, net_offsets, upper_layers, width_of
from kernels.jit import njit

_GRID = 1.5 * 2.0 ** 16  # x + _GRID - _GRID rounds x (|x| < 2^15) to a multiple of 2^-36
_MAGIC = 0x5EED_CAC4E  # K_MAGIC of a cache that ``reset`` made
K_MAGIC, K_ADDRESS, K_INPUTS, K_PROBE, K_NNZ = 0, 1, 2, 3, 4
K_SUMS = 5  # float64[MAX_H1]: the first layer's sums (no bias)
K_DENSE = K_SUMS + MAX_H1  # float32[max_inputs]: the last input, dense (0: not in it),
# then float32[max_inputs] work space (all 0 between calls: the input valued, dense), then
# int64[max_inputs]: the last input's numbers


def cache_len(max_inputs: int) -> int:
    """How many int64 numbers a cache for inputs of up to ``max_inputs`` (even) takes."""
    return K_DENSE + 2 * max_inputs


@njit(cache=True, _nrt=False)
def reset(cache, max_inputs):
    """Make ``cache`` (int64[cache_len(max_inputs)]) empty."""
    cache[:] = 0
    cache[K_MAGIC] = _MAGIC


@njit(cache=True, _nrt=False)
def forward_cached(w, n_in, idx, val, nnz, a1, a2, cache, max_inputs):
    """``forward_exact`` of the sparse input (``idx`` int64, ``val`` float32, ``nnz`` in
    use) for the weights ``w``, from the sums of the last input in ``cache`` where they
    serve (fewer than half as many inputs changed as the input has)."""
    if width_of(w.shape[0], n_in) == H1:
        return _forward_cached(w, n_in, idx, val, nnz, a1, a2, cache, max_inputs, H1)
    return _forward_cached(w, n_in, idx, val, nnz, a1, a2, cache, max_inputs, MAX_H1)


@njit(cache=True)
def forward_exact(w, n_in, idx, val, nnz, a1, a2):
    """The network's output for the sparse input, its first layer summed exactly (the
    module's docstring); fills ``a1`` and ``a2`` as ``net.forward`` does."""
    h1 = width_of(w.shape[0], n_in)
    sums = np.zeros(MAX_H1, np.float64)
    for k in range(nnz):
        _add_row(sums, w, idx[k], val[k], h1)
    return _finish(w, n_in, sums, a1, a2, h1)


@njit(cache=True, _nrt=False, inline="always")
def _forward_cached(w, n_in, idx, val, nnz, a1, a2, cache, max_inputs, h1):
    """``forward_cached`` at the width ``h1``, inlined where it is a constant."""
    if cache[K_MAGIC] != _MAGIC:
        reset(cache, max_inputs)
    sums = cache[K_SUMS:K_SUMS + h1].view(np.float64)
    half = max_inputs // 2
    dense = cache[K_DENSE:K_DENSE + half].view(np.float32)
    mark = cache[K_DENSE + half:K_DENSE + 2 * half].view(np.float32)
    last = cache[K_DENSE + max_inputs:K_DENSE + 2 * max_inputs]
    address, probe = w.ctypes.data, _probe(w, n_in, h1)
    last_nnz = cache[K_NNZ]
    same = cache[K_ADDRESS] == address and cache[K_INPUTS] == n_in and \
        cache[K_PROBE] == probe
    if same and 2 * _changes(idx, val, nnz, last_nnz, dense) < nnz:
        _update(w, idx, val, nnz, last, last_nnz, dense, mark, sums, h1)
    else:
        for k in range(last_nnz):
            dense[last[k]] = 0.0
        sums[:] = 0.0
        for k in range(nnz):
            _add_row(sums, w, idx[k], val[k], h1)
        cache[K_ADDRESS], cache[K_INPUTS], cache[K_PROBE] = address, n_in, probe
    for k in range(nnz):
        dense[idx[k]] = val[k]
        last[k] = idx[k]
        mark[idx[k]] = 0.0
    cache[K_NNZ] = nnz
    return _finish(w, n_in, sums, a1, a2, h1)


@njit(cache=True, _nrt=False, inline="always")
def _probe(w, n_in, h1):
    """Two of the weights' numbers (the first row's first and the output bias), as bits:
    weights changed in place by training show here."""
    b3 = net_offsets(n_in, h1)[4]
    first, bias = w[0:1].view(np.int32)[0], w[b3:b3 + 1].view(np.uint32)[0]
    return (np.int64(first) << 32) | np.int64(bias)


@njit(cache=True, _nrt=False)
def _changes(idx, val, nnz, last_nnz, dense):
    """How many inputs differ between the input (``idx``, ``val``) and the last one
    (``last_nnz`` inputs, ``dense``): those added, changed and taken away."""
    added, changed = 0, 0
    for k in range(nnz):
        old = dense[idx[k]]
        added += old == 0.0
        changed += old != 0.0 and old != val[k]
    return added + changed + last_nnz - (nnz - added)


@njit(cache=True, _nrt=False, inline="always")
def _update(w, idx, val, nnz, last, last_nnz, dense, mark, sums, h1):
    """Turn the last input's first-layer ``sums`` into this input's; the last input's
    ``dense`` copy is left all 0 and ``mark`` holds 1 at this input's numbers."""
    for k in range(nnz):
        i, old = idx[k], dense[idx[k]]
        mark[i] = 1.0
        if old == 0.0:
            _add_row(sums, w, i, val[k], h1)
        elif val[k] != old:
            _change_row(sums, w, i, old, val[k], h1)
    for k in range(last_nnz):
        i = last[k]
        if mark[i] == 0.0:
            _add_row(sums, w, i, -dense[i], h1)
        dense[i] = 0.0


@njit(cache=True, _nrt=False, inline="always")
def _change_row(sums, w, i, old, new, h1):
    """``sums`` with input ``i``'s terms at ``old`` taken away and at ``new`` added, in
    one pass over its row."""
    row = w[i * h1:(i + 1) * h1]
    xo, xn = np.float64(old), np.float64(new)
    for j in range(h1):
        sums[j] += ((xn * row[j] + _GRID) - _GRID) - ((xo * row[j] + _GRID) - _GRID)


@njit(cache=True, _nrt=False, inline="always")
def _add_row(sums, w, i, x, h1):
    """``sums += x * W1[i, :]``, each product rounded to the grid (an exact sum; taking
    a term away with ``-x`` removes exactly what adding it added)."""
    row = w[i * h1:(i + 1) * h1]
    xf = np.float64(x)
    for j in range(h1):
        sums[j] += (xf * row[j] + _GRID) - _GRID


@njit(cache=True, _nrt=False, inline="always")
def _finish(w, n_in, sums, a1, a2, h1):
    """The output from the first layer's exact ``sums``: each unit's sum plus its bias,
    rounded once to float32, then the upper layers."""
    b1 = net_offsets(n_in, h1)[0]
    bias = w[b1:b1 + h1]
    for j in range(h1):
        a1[j] = np.float32(sums[j] + bias[j])
    return upper_layers(w, n_in, a1, a2, h1)
