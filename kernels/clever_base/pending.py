"""The pending-bonus stack both Clever sheets resolve their chains with."""

from kernels.jit import njit


@njit(cache=True, _nrt=False)
def push(pending, n, code):
    """Add bonus ``code`` (0 = none) to ``pending`` (int64[k]) holding ``n``; the new size."""
    if code != 0 and n < pending.shape[0]:
        pending[n] = code
        n += 1
    return n


@njit(cache=True, _nrt=False)
def pop(pending, n, earliest_first):
    """The next of ``n`` pending bonuses to resolve (the caller's stack then holds n - 1):
    the latest triggered (depth-first), or with ``earliest_first`` the earliest (a queue)."""
    if earliest_first:
        code = pending[0]
        for i in range(n - 1):
            pending[i] = pending[i + 1]
        return code
    return pending[n - 1]
