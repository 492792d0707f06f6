"""The value of a Clever afterstate (a sheet and its turn state, ``kernels.clever_base.turn``)
under the value policy: the score so far plus ``SCALE`` times the value network's estimate
of the points still to come (the mean over the ensemble's member networks, every one of
which plays every game), or the exact final score once the game is over.

The policy's weights sit in its row (float64[N_POL]) from ``start``: ``P_INPUTS`` (the
game's input count), ``P_MEMBERS`` (networks averaged), ``P_TEACHER`` (a weight ``m`` that
mixes in the tuned heuristic's value: ``(1 - m) V_net + m V_heuristic``; 1 plays the
heuristic's values through the value policy's decisions, for the warm start),
``P_HIDDEN`` (the members' first hidden layer's width, ``kernels.clever.net.WIDTHS``; 0
reads ``H1``), the skip head's ``N_SKIP`` weights from ``P_SKIP`` (float64), then each
member's float32 weights (``kernels.clever.net``), two per float64 of the row.

The skip head adds a linear term in the seat block's inputs (``kernels.clever_base.seats``; 0
in the solo game) and the rules block's scaled inputs (``kernels.clever_base.rule_block``) to
the members' mean output. Those inputs are the same for every choice of a turn, so the term never
changes a decision; it carries how the points still to come (and a win's worth) differ
with the player count, the turns left, the lead and the rules in force, which the
networks would otherwise have to learn through weights that every decision reads.

``buf`` is int64[NET_BUF_LEN] work space: the sparse input (indices, then float32 values),
the hidden activations (float32), each member network's cache of the last input it
valued and whether the members value from it (``forget_inputs``; ``kernels.clever.net_delta``:
the first layer is summed from that input's, exactly, so a value never depends on what was
valued before it).
"""

import numpy as np

from kernels.clever.net import H1, H2, MAX_H1, forward, net_offsets, net_size
from kernels.clever.net_delta import cache_len, forward_cached, reset
from kernels.clever_base.rule_block import N_HEAD
from kernels.clever_base.seats import N_SEAT
from kernels.clever_base.sheet import H_PLAYERS, TAC
from kernels.clever.sheets import encode_afterstate, heuristic_value, total_score
from kernels.clever_base.turn import PH_OVER, TS_PHASE
from kernels.jit import njit
from kernels.thats_pretty_clever.encode import N_BASE as TPC_BASE
from kernels.thats_pretty_clever.encode import N_INPUTS as TPC_INPUTS
from kernels.thats_pretty_clever.encode import N_RULED as TPC_RULED
from kernels.thats_pretty_clever.encode import N_SEATED as TPC_SEATED
from kernels.twice_as_clever.encode import N_BASE as TAC_BASE
from kernels.twice_as_clever.encode import N_INPUTS as TAC_INPUTS
from kernels.twice_as_clever.encode import N_RULED as TAC_RULED
from kernels.twice_as_clever.encode import N_SEATED as TAC_SEATED

MAX_INPUTS = 356  # the most inputs any game's encoding has, and 18 numbers of work space
assert MAX_INPUTS >= max(TPC_RULED, TAC_RULED) + 18 and MAX_INPUTS % 2 == 0
BLOCKS_BASE, BLOCKS_BONUS, BLOCKS_SEAT, BLOCKS_RULES = 0, 1, 2, 3  # an encoding's blocks:
# see n_inputs
SCALE = 100.0  # points per unit of the network's output
P_INPUTS, P_MEMBERS, P_TEACHER, P_HIDDEN, P_SKIP = 0, 1, 2, 3, 4
N_SKIP = N_SEAT + N_HEAD  # the skip head's weights: the seat block's inputs', the rules
# block's scaled ones'
P_WEIGHTS = P_SKIP + N_SKIP
MAX_MEMBERS = 3  # an ensemble's networks
_IDX = 0
_VAL = MAX_INPUTS  # float32[MAX_INPUTS]
_A1 = _VAL + MAX_INPUTS // 2  # float32[MAX_H1]
_A2 = _A1 + MAX_H1 // 2  # float32[H2]
_CACHES = _A2 + H2 // 2  # each member network's cache (``kernels.clever.net_delta``)
CACHE_LEN = cache_len(MAX_INPUTS)
_CACHED = _CACHES + MAX_MEMBERS * CACHE_LEN  # 1: the members value from their caches
NET_BUF_LEN = _CACHED + 1
# ``row_size(MAX_INPUTS, MAX_MEMBERS)``, reckoned at import without compiling anything (a
# row of wider members holds fewer of them: ``value_weights.policy_row``)
MAX_ROW_SIZE = P_WEIGHTS + MAX_MEMBERS * ((net_offsets.py_func(MAX_INPUTS)[5] + 1) // 2)


@njit(cache=True, _nrt=False)
def n_inputs(game, blocks):
    """The input count of a game's encoding (``kernels.clever_base.sheet.TPC`` or ``TAC``):
    ``blocks`` (an int, from every caller, so that it compiles once) 0 the base inputs, 1
    with the bonus block, 2 with the bonus and seat blocks, 3 with the rules block too."""
    if game == TAC:
        return TAC_RULED if blocks >= 3 else TAC_SEATED if blocks == 2 \
            else TAC_INPUTS if blocks else TAC_BASE
    return TPC_RULED if blocks >= 3 else TPC_SEATED if blocks == 2 \
        else TPC_INPUTS if blocks else TPC_BASE


@njit(cache=True, _nrt=False)
def member_span(n_in, h1=H1):
    """How many float64 numbers of a policy row one member network's weights take."""
    return (net_size(n_in, h1) + 1) // 2


@njit(cache=True, _nrt=False)
def row_size(n_in, members, h1=H1):
    """How many numbers of a policy row, from ``start``, the value policy's weights take."""
    return P_WEIGHTS + members * member_span(n_in, h1)


@njit(cache=True, _nrt=False)
def hidden_of(pol, start):
    """The first hidden layer's width of the row's member networks."""
    h1 = np.int64(pol[start + P_HIDDEN])
    return h1 if h1 > 0 else H1


@njit(cache=True, _nrt=False)
def member_place(pol, start, n_in, k):
    """``(first, span, size)``: member network ``k``'s weights in the row at ``start``
    begin at ``pol[first]`` and take ``span`` float64 numbers, ``size`` float32 weights."""
    h1 = hidden_of(pol, start)
    span = member_span(n_in, h1)
    return start + P_WEIGHTS + k * span, span, net_size(n_in, h1)


@njit(cache=True)
def member_weights(pol, start, n_in, k):
    """A view of member network ``k``'s float32 weights in the row at ``start`` (not
    for hot loops: a returned view costs reference counts; slice at ``member_place``)."""
    first, span, size = member_place(pol, start, n_in, k)
    return pol[first:first + span].view(np.float32)[:size]


@njit(cache=True, _nrt=False)
def forget_inputs(buf, cached):
    """Empty the work space's caches of the last input each member network valued (for
    a new game, and wherever the weights change in place); ``cached`` 1: the members
    value from them (``net_delta.forward_cached``), 0: from scratch (``net.forward``; a
    work space never set here does so too)."""
    for k in range(MAX_MEMBERS):
        reset(buf[_CACHES + k * CACHE_LEN:_CACHES + (k + 1) * CACHE_LEN], np.int64(MAX_INPUTS))
    buf[_CACHED] = cached


@njit(cache=True, _nrt=False)
def member_output(w, n_in, idx, val, nnz, a1, a2, buf, k):
    """Member network ``k``'s output (weights ``w``) for the sparse input: from its
    cache where the work space ``buf`` says so (``forget_inputs``)."""
    if buf[_CACHED] != 1:
        return forward(w, n_in, idx, val, nnz, a1, a2)
    cache = buf[_CACHES + k * CACHE_LEN:_CACHES + (k + 1) * CACHE_LEN]
    return forward_cached(w, n_in, idx, val, nnz, a1, a2, cache, np.int64(MAX_INPUTS))


@njit(cache=True)
def input_views(buf):
    """``(idx int64[MAX_INPUTS], val float32[MAX_INPUTS])`` of the work space."""
    return buf[_IDX:_IDX + MAX_INPUTS], buf[_VAL:_VAL + MAX_INPUTS // 2].view(np.float32)


@njit(cache=True, _nrt=False)
def seat_first(n_in):
    """The seat block's first input in an encoding of ``n_in`` inputs (``n_in``: the
    encoding has none)."""
    if n_in == TPC_SEATED or n_in == TAC_SEATED:
        return n_in - N_SEAT
    if n_in == TPC_RULED:
        return TPC_SEATED - N_SEAT
    if n_in == TAC_RULED:
        return TAC_SEATED - N_SEAT
    return n_in


@njit(cache=True, _nrt=False)
def skip_slot(n_in, i):
    """The skip head's weight of input ``i`` in an encoding of ``n_in`` inputs: the seat
    block's inputs take slots ``0 .. N_SEAT - 1``, the rules block's scaled inputs (its
    last ``N_HEAD``) the next; -1 for any other input."""
    first = seat_first(n_in)
    if first <= i < first + N_SEAT:
        return i - first
    if (n_in == TPC_RULED or n_in == TAC_RULED) and i >= n_in - N_HEAD:
        return N_SEAT + i - (n_in - N_HEAD)
    return -1


@njit(cache=True, _nrt=False)
def skip_output(pol, start, n_in, idx, val, nnz):
    """The skip head's term for the encoded input: its weights times the seat block's
    and the rules block's inputs."""
    total = 0.0
    for k in range(nnz):
        slot = skip_slot(n_in, idx[k])
        if slot >= 0:
            total += pol[start + P_SKIP + slot] * val[k]
    return total


@njit(cache=True)
def network_output(pol, start, idx, val, nnz, buf, players):
    """The mean output of the row's member networks for the encoded input (``idx``
    int64[MAX_INPUTS], ``val`` float32[MAX_INPUTS], ``nnz`` of them set) of an afterstate
    of a game of ``players``, plus the skip head's term where the input has seat or rules
    inputs to read."""
    n_in = np.int64(pol[start + P_INPUTS])
    members = np.int64(pol[start + P_MEMBERS])
    a1 = buf[_A1:_A1 + MAX_H1 // 2].view(np.float32)
    a2 = buf[_A2:_A2 + H2 // 2].view(np.float32)
    total = 0.0
    for k in range(members):
        first, span, size = member_place(pol, start, n_in, k)
        w = pol[first:first + span].view(np.float32)[:size]
        total += member_output(w, n_in, idx, val, nnz, a1, a2, buf, k)
    out = total / members
    if players > 1 or seat_first(n_in) + N_SEAT < n_in:  # seat or rules inputs to read
        out += skip_output(pol, start, n_in, idx, val, nnz)
    return out


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
        v = (1.0 - teacher) * (score + SCALE * network_output(
            pol, start, idx, val, nnz, buf, sheet[H_PLAYERS]))
    if teacher > 0.0:
        base, estimate = heuristic_value(sheet, heuristic_weights)
        v += teacher * (base + estimate)
    return v
