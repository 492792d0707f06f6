"""The learned value of a Clever sheet: a fixed linear prior (the game's feature value with
the tuned heuristic's weights, or none) plus a small neural network over the same features
and the stage, trained by self-play (``kernels.clever.td``, ``scripts/train_learned.py``).
The network sees each feature ``x`` squashed (``squash``: one-hot features stay 1, linear
ones such as foxes times the lowest area grow with its logarithm), so that one step size
suits every input.

Inside an active turn the network also sees the turn's context: a sheet valued right after
a pick that leaves more picks to make is worth more when more dice stay in play. The context
(``pick_context``) is one of ``CONTEXTS`` inputs, by picks still to make (1 or 2) and dice
left in play (0-5); 0 = none (the turn is over, a passive pick, a free mark).

The weights sit in a policy row (float64[N_POL]) from ``W_VALUE``, for a game with ``nf``
value features (``n_features``): the linear weights (``VALUE_STAGES * nf``), then the
network's first layer (``(nf + VALUE_STAGES + CONTEXTS) * HIDDEN``, input-major: the
features, one input per stage, one per context), its biases (``HIDDEN``), the output
weights (``HIDDEN``) and the output bias; ``learned_size(nf)`` numbers in all. Hidden units
are rectified (ReLU).

``buf`` is float64[BUF_LEN]: the squashed features (``MAX_FEATURES``), the hidden units'
inputs (``HIDDEN``) and the context, as the last call left them (training reads them).
"""

import numpy as np
from numba import njit

from kernels.clever.sheet import H_GAME, TAC
from kernels.clever.sheets import feature_value
from kernels.clever.value_terms import VALUE_STAGES, value_stage
from kernels.thats_pretty_clever.value import N_FEATURES as TPC_FEATURES
from kernels.twice_as_clever.value import N_FEATURES as TAC_FEATURES

HIDDEN = 64
CONTEXTS = 12  # (picks still to make: 1 or 2) x (dice left in play: 0-5)
MAX_FEATURES = max(TPC_FEATURES, TAC_FEATURES)
_CONTEXT = MAX_FEATURES + HIDDEN  # where ``buf`` keeps the context
BUF_LEN = _CONTEXT + 1


@njit(cache=True)
def learned_size(nf):
    """How many weights the learned value of a game with ``nf`` features has."""
    return VALUE_STAGES * nf + (nf + VALUE_STAGES + CONTEXTS) * HIDDEN + 2 * HIDDEN + 1


@njit(cache=True, inline="always")
def pick_context(picks_left, in_play):
    """The context input of a sheet valued after an active pick with ``picks_left`` picks
    still to make in the turn and ``in_play`` dice left to roll for them (0: none)."""
    if picks_left <= 0:
        return 0
    return 1 + 6 * (min(picks_left, 2) - 1) + min(in_play, 5)


@njit(cache=True, inline="always")
def n_features(sheet):
    """The number of value features of the sheet's game."""
    return TAC_FEATURES if sheet[H_GAME] == TAC else TPC_FEATURES


@njit(cache=True, inline="always")
def squash(x):
    """A feature as the network sees it: ``x`` within [-1, 1], else ``sign(x) (1 + ln|x|)``."""
    if x > 1.0:
        return 1.0 + np.log(x)
    if x < -1.0:
        return -1.0 - np.log(-x)
    return x


@njit(cache=True, inline="always")
def layer_offsets(nf, start):
    """Where, in the row, the first layer, its biases, the output weights and the output
    bias start (the linear weights start at ``start``)."""
    first = start + VALUE_STAGES * nf
    bias = first + (nf + VALUE_STAGES + CONTEXTS) * HIDDEN
    return first, bias, bias + HIDDEN, bias + 2 * HIDDEN


@njit(cache=True)
def learned_value(sheet, pol, start, buf, context):
    """``(score, estimate of the points still to come)`` of ``sheet`` (int64[SHEET_LEN])
    in turn ``context`` (``pick_context``) under the learned weights in ``pol[start:]``
    (float64); ``buf`` float64[BUF_LEN]."""
    nf = n_features(sheet)
    for i in range(nf):
        buf[i] = 0.0
    buf[_CONTEXT] = context
    score, linear = feature_value(sheet, pol[start:], buf[:nf])
    first, bias, out_w, out_b = layer_offsets(nf, start)
    stage_row = first + (nf + value_stage(sheet)) * HIDDEN
    h0 = MAX_FEATURES
    for j in range(HIDDEN):
        buf[h0 + j] = pol[bias + j] + pol[stage_row + j]
    if context > 0:
        context_row = first + (nf + VALUE_STAGES + context - 1) * HIDDEN
        for j in range(HIDDEN):
            buf[h0 + j] += pol[context_row + j]
    for i in range(nf):
        x = buf[i]
        if x != 0.0:
            x = squash(x)
            buf[i] = x
            row = first + i * HIDDEN
            for j in range(HIDDEN):
                buf[h0 + j] += x * pol[row + j]
    net = pol[out_b]
    for j in range(HIDDEN):
        if buf[h0 + j] > 0.0:
            net += buf[h0 + j] * pol[out_w + j]
    return score, linear + net


@njit(cache=True)
def add_gradient(sheet, pol, start, buf, scale, grad):
    """``grad += scale * d(estimate)/d(weights)`` (``grad`` float64[learned_size(nf)],
    indexed from ``start``; the linear prior's entries stay 0: it is not trained), for the
    sheet ``learned_value`` last valued into ``buf``."""
    nf = n_features(sheet)
    stage = value_stage(sheet)
    first, bias, out_w, out_b = layer_offsets(nf, start)
    h0 = MAX_FEATURES
    context = np.int64(buf[_CONTEXT])
    for j in range(HIDDEN):
        h = buf[h0 + j]
        if h <= 0.0:
            continue
        back = scale * pol[out_w + j]
        grad[out_w - start + j] += scale * h
        grad[bias - start + j] += back
        grad[first - start + (nf + stage) * HIDDEN + j] += back
        if context > 0:
            grad[first - start + (nf + VALUE_STAGES + context - 1) * HIDDEN + j] += back
        for i in range(nf):
            x = buf[i]
            if x != 0.0:
                grad[first - start + i * HIDDEN + j] += back * x
    grad[out_b - start] += scale


# Self-play training (``kernels.clever.td``) runs the learned policy on a longer row: after
# the policy's ``n_pol`` numbers come the TD state and the eligibility trace.
TD_ALPHA = 0  # step size
TD_LAMBDA = 1  # trace decay
TD_BEFORE = 2  # the value of the sheet last observed
TD_STARTED = 3  # 1 once a sheet was observed this game
TD_SQ = 4  # sum of squared TD errors
TD_STEPS = 5  # TD updates
TD_TRACE = 6  # the trace, one number per learned weight
TD_HEADER = TD_TRACE


@njit(cache=True)
def td_observe(sheet, pol, start, n_pol, buf, context, target):
    """One TD(lambda) step of self-play training towards the sheet just reached (in turn
    ``context``): with a
    training row (``pol`` longer than ``n_pol``), move the weights by the difference between
    the sheet's value (``target`` if not NaN: the final score) and the last one's, then decay
    the trace and add this sheet's gradient. Plain play (a row of ``n_pol``): nothing."""
    if pol.shape[0] <= n_pol:
        return
    td = n_pol
    size = learned_size(n_features(sheet))
    trace = pol[td + TD_TRACE:td + TD_TRACE + size]
    if np.isnan(target):
        score, estimate = learned_value(sheet, pol, start, buf, context)
        now = score + estimate
    else:
        now = target
    if pol[td + TD_STARTED] > 0:
        delta = now - pol[td + TD_BEFORE]
        step = pol[td + TD_ALPHA] * delta
        for i in range(size):
            pol[start + i] += step * trace[i]
        pol[td + TD_SQ] += delta * delta
        pol[td + TD_STEPS] += 1
    if np.isnan(target):
        lam = pol[td + TD_LAMBDA]
        for i in range(size):
            trace[i] *= lam
        add_gradient(sheet, pol, start, buf, 1.0, trace)
    pol[td + TD_BEFORE] = now
    pol[td + TD_STARTED] = 1.0
