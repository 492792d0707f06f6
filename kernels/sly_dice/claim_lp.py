"""The claim/accuse game's linear program, solved by a dense two-phase simplex.

The claimant (types t with prior p_t > 0, claims c) picks joint chances x[t, c] >= 0 with
sum_c x[t, c] = p_t; the accuser sees the claim only. The claimant's equilibrium value is

    max  sum_c min(A_c(x), N_c(x)),  A_c(x) = sum_t A[t, c] x[t, c],  N_c likewise,

where A / N are the claimant's points when claim c is accused / not (the min only over
accusable claims; for the others N_c). With y_c = N_c(x) - z_c >= 0 this is, in standard
form, ``max sum N x - sum y`` subject to ``(N - A)_c . x - y_c <= 0`` for every
accusable claim and the types' equalities. The accuser's chance of accusing claim c is
the dual of its row (in [0, 1]). The programs are small (tens of rows, at most a few
thousand columns), so a dense tableau beats a general solver's per-call overhead (about
40 times faster on the fair values' programs).

The accuser's equilibrium chances are not unique where a claim is off the equilibrium
path (no type makes it): any chance high enough to keep every type from making it will
do. The solver picks the most suspicious accuser among the equilibrium ones (the largest
sum of accusing chances: a claim the equilibrium claimant never makes is accused as often
as the equilibrium allows), by tightening every accused row by ``SUSPICION`` points: the
perturbed program's basis is optimal for the exact one, and its duals are the equilibrium
duals with the largest sum. The claimant's chances and the value are then read at the
exact right-hand side.

Entering columns by the largest reduced cost, switching to Bland's rule (least index)
after a run of degenerate pivots, so that the method cannot cycle.
"""

import numpy as np

from kernels.jit import njit

TOL = 1e-9  # reduced costs and pivot elements smaller than this count as zero
BLAND_AFTER = 30  # degenerate pivots in a row before Bland's rule takes over
MAX_PIVOTS = 100_000
SUSPICION = 1e-7  # points: each accused row tightened by this much (module docstring)
OPTIMAL, INFEASIBLE, UNBOUNDED, TOO_LONG = 0, 1, 2, 3


@njit(cache=True, _nrt=False)
def _pivot(tab, basis, row, col):
    """Pivot the tableau ``tab`` (float64[m + 1, n + 1], objective last) on (row, col)."""
    m1, n1 = tab.shape
    p = tab[row, col]
    for j in range(n1):
        tab[row, j] /= p
    for i in range(m1):
        if i != row:
            f = tab[i, col]
            if f != 0.0:
                for j in range(n1):
                    tab[i, j] -= f * tab[row, j]
    basis[row] = col


@njit(cache=True, _nrt=False)
def _simplex(tab, basis, allowed):
    """Maximise from a feasible basis: the objective row holds the reduced costs
    (entering when > TOL) and minus the value in its last entry. Only columns with
    ``allowed`` (bool[n]) enter. Returns OPTIMAL, UNBOUNDED or TOO_LONG."""
    m = tab.shape[0] - 1
    n = tab.shape[1] - 1
    degenerate = 0
    for _ in range(MAX_PIVOTS):
        col = np.int64(-1)
        best = TOL
        for j in range(n):
            if allowed[j] and tab[m, j] > best:
                col = j
                if degenerate >= BLAND_AFTER:
                    break
                best = tab[m, j]
        if col < 0:
            return OPTIMAL
        row = np.int64(-1)
        ratio = 0.0
        for i in range(m):
            a = tab[i, col]
            if a > TOL:
                r = tab[i, n] / a
                if row < 0 or r < ratio - 1e-12 or (r <= ratio + 1e-12
                                                    and basis[i] < basis[row]):
                    row, ratio = i, r
        if row < 0:
            return UNBOUNDED
        degenerate = degenerate + 1 if ratio <= 1e-12 else 0
        _pivot(tab, basis, row, col)
    return TOO_LONG


@njit(cache=True)
def solve_claim_lp(pay_accused, pay_not, prior, accusable, joint, accuse):
    """Solve the claim/accuse game (module docstring); returns (status, value).

    ``pay_accused`` / ``pay_not``: float64[T, C] the claimant's points by type and claim,
    accused / not (rows: types with prior > 0 only); ``prior``: float64[T] (> 0);
    ``accusable``: bool[C]. Fills ``joint``: float64[T, C] the claimant's joint chances
    and ``accuse``: float64[C] the accuser's chance of accusing each claim (0 for claims
    not accusable). ``status``: OPTIMAL, else INFEASIBLE / UNBOUNDED / TOO_LONG (then
    the outputs are meaningless)."""
    n_types, n_claims = pay_not.shape
    acc = np.empty(n_claims, np.int64)  # accusable claims, in order
    k = 0
    for c in range(n_claims):
        if accusable[c]:
            acc[k] = c
            k += 1
    n_x = n_types * n_claims
    # columns: x (t * C + c), y (k), slacks (k), artificials (T); rows: k accused rows,
    # then the T type rows
    n = n_x + 2 * k + n_types
    m = k + n_types
    tab = np.zeros((m + 1, n + 1))
    basis = np.empty(m, np.int64)
    for r in range(k):  # -(N - A)_c . x + y_c - s_c = SUSPICION, y_c basic
        c = acc[r]
        for t in range(n_types):
            tab[r, t * n_claims + c] = pay_accused[t, c] - pay_not[t, c]
        tab[r, n_x + r] = 1.0
        tab[r, n_x + k + r] = -1.0
        tab[r, n] = SUSPICION
        basis[r] = n_x + r
    for t in range(n_types):
        row = k + t
        for c in range(n_claims):
            tab[row, t * n_claims + c] = 1.0
        tab[row, n_x + 2 * k + t] = 1.0
        tab[row, n] = prior[t]
        basis[row] = n_x + 2 * k + t
    # phase 1: maximise minus the artificials' sum, priced out over the type rows
    for t in range(n_types):
        for j in range(n + 1):
            tab[m, j] += tab[k + t, j]
    for t in range(n_types):
        tab[m, n_x + 2 * k + t] = 0.0
    allowed = np.ones(n, np.bool_)
    status = _simplex(tab, basis, allowed)
    if status != OPTIMAL:
        return status, np.nan
    if tab[m, n] > 1e-9:  # minus the artificials' least sum
        return INFEASIBLE, np.nan
    for j in range(n_x + 2 * k, n):
        allowed[j] = False
    for i in range(m):  # drive artificials left in the basis (at level 0) out of it
        if basis[i] >= n_x + 2 * k:
            for j in range(n_x + 2 * k):
                if abs(tab[i, j]) > TOL:
                    _pivot(tab, basis, i, j)
                    break
    # phase 2: the objective sum N x - sum y, priced out over the basis
    for j in range(n + 1):
        tab[m, j] = 0.0
    for t in range(n_types):
        for c in range(n_claims):
            tab[m, t * n_claims + c] = pay_not[t, c]
    for r in range(k):
        tab[m, n_x + r] = -1.0
    for i in range(m):
        f = tab[m, basis[i]]
        if f != 0.0:
            for j in range(n + 1):
                tab[m, j] -= f * tab[i, j]
    status = _simplex(tab, basis, allowed)
    if status != OPTIMAL:
        return status, np.nan
    for t in range(n_types):
        for c in range(n_claims):
            joint[t, c] = 0.0
    for i in range(m):  # the basis's solution without the perturbation:
        if basis[i] < n_x:  # B^-1 (b - SUSPICION on the accused rows)
            level = tab[i, n]
            for r in range(k):
                level += SUSPICION * tab[i, n_x + k + r]
            joint[basis[i] // n_claims, basis[i] % n_claims] = max(level, 0.0)
    value = 0.0
    for c in range(n_claims):
        accuse[c] = 0.0
        stands, accused = 0.0, 0.0
        for t in range(n_types):
            stands += joint[t, c] * pay_not[t, c]
            accused += joint[t, c] * pay_accused[t, c]
        value += min(stands, accused) if accusable[c] else stands
    for r in range(k):  # a row's dual: minus its slack's reduced cost
        accuse[acc[r]] = min(max(-tab[m, n_x + k + r], 0.0), 1.0)
    return OPTIMAL, value
