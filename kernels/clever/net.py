"""The value network of the Clever value policy: a float32 multilayer perceptron
``n_in -> h1 ReLU -> H2 ReLU -> 1`` over a sparse input (most inputs are 0), its gradient
and the Adam step that trains it (``kernels.clever.selfplay``). The first hidden layer's
width ``h1`` is one of ``WIDTHS`` (``H1`` unless a network was widened).

The weights are one flat float32 array ``w`` (``net_size(n_in, h1)`` numbers): the first
layer input-major (``W1[i, :]`` is input ``i``'s row of ``h1`` numbers, so a sparse input adds
only its nonzero rows), its biases, the second layer (``W2[j, :]``: hidden unit ``j``'s
row of ``H2``), its biases, the output weights (``H2``) and the output bias.

A sparse input is ``idx`` int64[k] (input numbers) with ``val`` float32[k], ``nnz`` of them
in use. Activations ``a1`` float32[h1 or more], ``a2`` float32[H2] are left as the
forward pass computed them (after the ReLU), for the backward pass. ``forward`` and
``add_gradient`` read ``h1`` from the weights' size.
"""

import numpy as np

from kernels.jit import njit

H1 = 128  # the first hidden layer's width, unless widened
H2 = 128
WIDTHS = (128, 256)  # the first hidden layer's widths a network may have
MAX_H1 = 256


@njit(cache=True, _nrt=False, inline="always")
def net_offsets(n_in, h1=H1):
    """``(b1, W2, b2, w3, b3, size)``: where each part of the flat weights starts."""
    b1 = n_in * h1
    w2 = b1 + h1
    b2 = w2 + h1 * H2
    w3 = b2 + H2
    b3 = w3 + H2
    return b1, w2, b2, w3, b3, b3 + 1


@njit(cache=True, _nrt=False)
def net_size(n_in, h1=H1):
    """How many float32 weights a network with ``n_in`` inputs and ``h1`` first-layer
    units has."""
    return net_offsets(n_in, h1)[5]


@njit(cache=True, _nrt=False)
def width_of(size, n_in):
    """The first hidden layer's width of a network of ``size`` weights and ``n_in``
    inputs."""
    return (size - 2 * H2 - 1) // (n_in + 1 + H2)


@njit(cache=True, _nrt=False)
def forward(w, n_in, idx, val, nnz, a1, a2):
    """The network's output (float32) for the sparse input (``idx``, ``val``, ``nnz``);
    fills ``a1`` and ``a2`` with the hidden activations."""
    if width_of(w.shape[0], n_in) == H1:
        return _forward(w, n_in, idx, val, nnz, a1, a2, H1)
    return _forward(w, n_in, idx, val, nnz, a1, a2, MAX_H1)


@njit(cache=True, _nrt=False, inline="always")
def _forward(w, n_in, idx, val, nnz, a1, a2, h1):
    """``forward`` at the width ``h1``, inlined where it is a constant (a loop of a
    constant count is vectorised whole: 10% faster). (Rows are taken as slices: an
    element ``w[row + j]`` with a computed index costs a negative-index check that keeps
    the loops from being vectorised, about 5 times slower.)"""
    b1 = net_offsets(n_in, h1)[0]
    bias = w[b1:b1 + h1]
    for j in range(h1):
        a1[j] = bias[j]
    for k in range(nnz):
        x = val[k]
        row = w[idx[k] * h1:(idx[k] + 1) * h1]
        for j in range(h1):
            a1[j] += x * row[j]
    return upper_layers(w, n_in, a1, a2, h1)


@njit(cache=True, _nrt=False, inline="always")
def upper_layers(w, n_in, a1, a2, h1):
    """The network's output from the first layer's sums ``a1`` (float32[h1], before the
    ReLU; left after it), with ``a2`` (float32[H2]) filled: the rest of ``forward``."""
    _, w2, b2, w3, b3, _ = net_offsets(n_in, h1)
    bias = w[b2:b2 + H2]
    for m in range(H2):
        a2[m] = bias[m]
    for j in range(h1):
        h = a1[j]
        if h > 0.0:
            row = w[w2 + j * H2:w2 + (j + 1) * H2]
            for m in range(H2):
                a2[m] += h * row[m]
        else:
            a1[j] = 0.0
    out_w = w[w3:w3 + H2]
    out = w[b3]
    for m in range(H2):
        if a2[m] > 0.0:
            out += a2[m] * out_w[m]
        else:
            a2[m] = 0.0
    return out


@njit(cache=True, _nrt=False)
def add_gradient(w, n_in, idx, val, nnz, a1, a2, err, grad, d2):
    """``grad += err * d(output)/d(w)`` (float32[w.size]) for the input ``forward`` last
    ran on (its activations in ``a1``, ``a2``; ``a1`` is left holding the error at each
    first-layer unit); ``d2`` float32[H2] is work space."""
    if width_of(w.shape[0], n_in) == H1:
        _add_gradient(w, n_in, idx, val, nnz, a1, a2, err, grad, d2, H1)
    else:
        _add_gradient(w, n_in, idx, val, nnz, a1, a2, err, grad, d2, MAX_H1)


@njit(cache=True, _nrt=False, inline="always")
def _add_gradient(w, n_in, idx, val, nnz, a1, a2, err, grad, d2, h1):
    """``add_gradient`` at the width ``h1``, inlined where it is a constant."""
    b1, w2, b2, w3, b3, _ = net_offsets(n_in, h1)
    grad[b3] += err
    out_w = w[w3:w3 + H2]
    for m in range(H2):
        if a2[m] > 0.0:
            grad[w3 + m] += err * a2[m]
            d2[m] = err * out_w[m]
            grad[b2 + m] += d2[m]
        else:
            d2[m] = 0.0
    for j in range(h1):  # a1 becomes the error at each first-layer unit
        h = a1[j]
        back = np.float32(0.0)
        if h > 0.0:
            row = w[w2 + j * H2:w2 + (j + 1) * H2]
            grad_row = grad[w2 + j * H2:w2 + (j + 1) * H2]
            for m in range(H2):
                grad_row[m] += h * d2[m]
                back += row[m] * d2[m]
        a1[j] = back
    bias = grad[b1:b1 + h1]
    for j in range(h1):
        bias[j] += a1[j]
    for k in range(nnz):  # input by input: each row's loop is vectorised
        x = val[k]
        grad_row = grad[idx[k] * h1:(idx[k] + 1) * h1]
        for j in range(h1):
            grad_row[j] += x * a1[j]


@njit(cache=True, _nrt=False)
def adam_step(w, grad, m, v, t, lr, beta1=0.9, beta2=0.999, eps=1e-8):
    """One Adam step of ``w`` along ``grad`` (all float32[net_size]; ``m``, ``v``: the
    moment estimates), the ``t``-th step (1-based); ``grad`` is left zeroed."""
    c1 = 1.0 - beta1 ** t
    c2 = 1.0 - beta2 ** t
    step = np.float32(lr * np.sqrt(c2) / c1)
    b1, b2 = np.float32(beta1), np.float32(beta2)
    one_b1, one_b2 = np.float32(1.0 - beta1), np.float32(1.0 - beta2)
    e = np.float32(eps * np.sqrt(c2))
    for i in range(w.shape[0]):  # no branch inside: the loop is vectorised
        g = grad[i]
        m[i] = b1 * m[i] + one_b1 * g
        v[i] = b2 * v[i] + one_b2 * g * g
        w[i] -= step * m[i] / (np.sqrt(v[i]) + e)
    grad[:] = 0.0
