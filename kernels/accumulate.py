"""Accumulators shared by the games' paired (what-if) play loops."""

from numba import njit


@njit(cache=True)
def add_products(out, x):
    """Add one game's metrics ``x`` (int64[V, M], V variants) to ``out`` (int64[V + 1, V, M]):
    row 0 gets the sums, row 1 + v the products of variant v's metrics with every variant's,
    from which paired differences and their standard errors follow."""
    n_var, n_metrics = x.shape
    for v in range(n_var):
        for k in range(n_metrics):
            out[0, v, k] += x[v, k]
            for w in range(n_var):
                out[1 + v, w, k] += x[v, k] * x[w, k]
