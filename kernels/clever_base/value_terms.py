"""What both Clever games' heuristic values share: the weight set (stage) of a sheet by the
rounds still to play, and one weighted, optionally recorded, feature term (or the one-hot
feature of a count)."""

from kernels.clever_base.sheet import H_ROUND, H_ROUNDS
from kernels.jit import njit

VALUE_STAGES = 6  # weight sets: rounds still to play after this one, 0..5 (more count as 5)


@njit(cache=True, _nrt=False)
def value_stage(sheet):
    """The weight set of a sheet: rounds still to play after the current one (at most 5)."""
    return min(max(sheet[H_ROUNDS] - sheet[H_ROUND] - 1, 0), VALUE_STAGES - 1)


@njit(cache=True, _nrt=False, inline="always")
def term(w, base, out, index, x):
    """Weight ``x`` of feature ``index`` (weights ``w[base:]``, float64; empty ``w``: 0);
    with a non-empty ``out`` (float64[n_features]) the feature is recorded there too.
    ``out`` may be ``None`` (record nothing): that compiles a value without the stores,
    about 5 times faster, as a store to ``out`` may alias the sheet and the weights."""
    if out is not None:
        if out.shape[0] > 0:
            out[index] += x
    return w[base + index] * x if w.shape[0] > 0 else 0.0


@njit(cache=True, _nrt=False, inline="always")
def count_term(w, base, out, first, count):
    """``term`` of the one-hot feature ``first + count - 1`` of a count (0 for none)."""
    if count < 1:
        return 0.0
    return term(w, base, out, first + count - 1, 1.0)
