"""The value of a Clever afterstate (a sheet and its turn state, ``kernels.clever.turn``)
under the value policy: the score so far plus ``SCALE`` times the value network's estimate
of the points still to come (the mean over the ensemble's member networks), or the exact
final score once the game is over.

The policy's weights sit in its row (float64[N_POL]) from ``start``: ``P_INPUTS`` (the
game's input count), ``P_MEMBERS`` (networks averaged), ``P_TEACHER`` (a weight ``m`` that
mixes in the tuned heuristic's value: ``(1 - m) V_net + m V_heuristic``; 1 plays the
heuristic's values through the value policy's decisions, for the warm start), then each
member's float32 weights (``kernels.clever.net``), two per float64 of the row.

``buf`` is int64[NET_BUF_LEN] work space: the sparse input (indices, then float32 values)
and the hidden activations (float32).
"""

import numpy as np

from kernels.clever.net import H1, H2, forward, net_offsets, net_size
from kernels.clever.sheet import TAC
from kernels.clever.sheets import encode_afterstate, feature_value, total_score
from kernels.clever.turn import PH_OVER, TS_PHASE
from kernels.jit import njit
from kernels.thats_pretty_clever.encode import N_BASE as TPC_BASE
from kernels.thats_pretty_clever.encode import N_INPUTS as TPC_INPUTS
from kernels.thats_pretty_clever.encode import N_SEATED as TPC_SEATED
from kernels.twice_as_clever.encode import N_BASE as TAC_BASE
from kernels.twice_as_clever.encode import N_INPUTS as TAC_INPUTS
from kernels.twice_as_clever.encode import N_SEATED as TAC_SEATED

MAX_INPUTS = 304  # the most inputs any game's encoding has, and 18 numbers of work space
assert MAX_INPUTS >= max(TPC_SEATED, TAC_SEATED) + 18 and MAX_INPUTS % 2 == 0
BLOCKS_BASE, BLOCKS_BONUS, BLOCKS_SEAT = 0, 1, 2  # an encoding's blocks: see n_inputs
SCALE = 100.0  # points per unit of the network's output
P_INPUTS, P_MEMBERS, P_TEACHER = 0, 1, 2
P_WEIGHTS = 4
MAX_MEMBERS = 2
# The teacher's mix compiles in this process: a training device (``play.compile_policies``
# turns it off with self-play training; a policy row for play has a teacher weight of 0).
TRAINING_IN = True
_IDX = 0
_VAL = MAX_INPUTS  # float32[MAX_INPUTS]
_A1 = _VAL + MAX_INPUTS // 2  # float32[H1]
_A2 = _A1 + H1 // 2  # float32[H2]
NET_BUF_LEN = _A2 + H2 // 2
# ``row_size(MAX_INPUTS, MAX_MEMBERS)``, reckoned at import without compiling anything
MAX_ROW_SIZE = P_WEIGHTS + MAX_MEMBERS * ((net_offsets.py_func(MAX_INPUTS)[5] + 1) // 2)


@njit(cache=True)
def n_inputs(game, blocks):
    """The input count of a game's encoding (``kernels.clever.sheet.TPC`` or ``TAC``):
    ``blocks`` 0 (or False) the base inputs, 1 (or True) with the bonus block, 2 with the
    bonus and seat blocks."""
    if game == TAC:
        return TAC_SEATED if blocks >= 2 else TAC_INPUTS if blocks else TAC_BASE
    return TPC_SEATED if blocks >= 2 else TPC_INPUTS if blocks else TPC_BASE


@njit(cache=True)
def member_span(n_in):
    """How many float64 numbers of a policy row one member network's weights take."""
    return (net_size(n_in) + 1) // 2


@njit(cache=True)
def row_size(n_in, members):
    """How many numbers of a policy row, from ``start``, the value policy's weights take."""
    return P_WEIGHTS + members * member_span(n_in)


@njit(cache=True)
def input_views(buf):
    """``(idx int64[MAX_INPUTS], val float32[MAX_INPUTS])`` of the work space."""
    return buf[_IDX:_IDX + MAX_INPUTS], buf[_VAL:_VAL + MAX_INPUTS // 2].view(np.float32)


@njit(cache=True)
def network_output(pol, start, idx, val, nnz, buf):
    """The mean output of the row's member networks for the encoded input."""
    n_in = np.int64(pol[start + P_INPUTS])
    members = np.int64(pol[start + P_MEMBERS])
    span = member_span(n_in)
    size = net_size(n_in)
    a1 = buf[_A1:_A1 + H1 // 2].view(np.float32)
    a2 = buf[_A2:_A2 + H2 // 2].view(np.float32)
    total = 0.0
    for k in range(members):
        first = start + P_WEIGHTS + k * span
        w = pol[first:first + span].view(np.float32)[:size]
        total += forward(w, n_in, idx, val, nnz, a1, a2)
    return total / members


@njit(cache=True)
def afterstate_value(sheet, ts, pol, start, buf, heuristic_weights):
    """The value of the afterstate (``sheet`` int64[SHEET_LEN], ``ts`` int64[TS_LEN]) for
    the value policy in ``pol[start:]``; ``heuristic_weights``: the tuned heuristic's value
    weights (read only with a teacher weight, in training)."""
    score = float(total_score(sheet))
    if ts[TS_PHASE] == PH_OVER:
        return score
    teacher = pol[start + P_TEACHER]
    v = 0.0
    if teacher < 1.0:
        idx, val = input_views(buf)
        nnz = encode_afterstate(sheet, ts, idx, val, np.int64(pol[start + P_INPUTS]))
        v = (1.0 - teacher) * (score + SCALE * network_output(pol, start, idx, val, nnz, buf))
    if TRAINING_IN and teacher > 0.0:
        base, estimate = feature_value(sheet, heuristic_weights, None)
        v += teacher * (base + estimate)
    return v
