"""Writing a sparse network input: (input number, value) pairs appended to ``idx``
(int64) and ``val`` (float32), for the encodings of both Clever games."""

from numba import njit


@njit(cache=True, inline="always")
def put(idx, val, n, i, x):
    """Append input ``i`` = ``x`` (skipped when 0); the new count."""
    if x != 0.0:
        idx[n] = i
        val[n] = x
        n += 1
    return n


@njit(cache=True, inline="always")
def thermometer(idx, val, n, first, count, cap):
    """Inputs ``first .. first + min(count, cap) - 1`` = 1; the new count."""
    for k in range(min(count, cap)):
        idx[n] = first + k
        val[n] = 1.0
        n += 1
    return n
