"""Estimates with honest error bars, from the integer sums the kernels accumulate."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def mean_se(n: float, total: float, total_sq: float) -> tuple[float, float]:
    """Sample mean and its standard error from a count, a sum and a sum of squares."""
    if n <= 0:
        return math.nan, math.nan
    mean = total / n
    if n < 2:
        return mean, math.nan
    var = max(total_sq / n - mean * mean, 0.0) * n / (n - 1)
    return mean, math.sqrt(var / n)


def proportion_se(n: float, hits: float) -> tuple[float, float]:
    """A proportion and its standard error (hits may be fractional, e.g. shared wins)."""
    if n <= 0:
        return math.nan, math.nan
    p = hits / n
    return p, math.sqrt(max(p * (1 - p), 0.0) / max(n - 1, 1))


def proportion_ci95(n: float, hits: float) -> list[float]:
    """The Wilson score 95% interval of a proportion: inside [0, 1] for any count, and not
    of width 0 at rates of exactly 0 or 1 (hits may be fractional)."""
    if n <= 0:
        return [math.nan, math.nan]
    p = hits / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(max(p * (1 - p), 0.0) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    low = 0.0 if hits <= 0 else max(centre - half, 0.0)  # exact at the ends
    high = 1.0 if hits >= n else min(centre + half, 1.0)
    return [low, high]


def sd_se(n: float, sd: float, m4: float) -> float:
    """The standard error of a sample standard deviation ``sd`` of ``n`` values whose
    fourth central moment is ``m4``: the sample variance's large-sample variance,
    ``(m4 - sd**4 (n - 3) / (n - 1)) / n`` (no normal scores assumed), carried to the
    standard deviation by the delta method."""
    if n < 2 or not math.isfinite(sd):
        return math.nan
    if sd == 0:
        return 0.0
    var_of_variance = max(m4 - sd ** 4 * (n - 3) / (n - 1), 0.0) / n
    return math.sqrt(var_of_variance) / (2 * sd)


def ci95(mean: float, se: float) -> list[float]:
    """The normal-approximation 95% interval ``[mean - z*se, mean + z*se]``."""
    return [mean - Z95 * se, mean + Z95 * se]


def paired_difference(n: float, sum_a: float, sum_b: float, sq_a: float, sq_b: float,
                      cross: float) -> tuple[float, float]:
    """Mean and standard error of ``b - a`` from paired sums: ``sq_*`` are sums of squares
    and ``cross`` the sum of products ``a*b`` over the same ``n`` samples."""
    return mean_se(n, sum_b - sum_a, sq_a + sq_b - 2 * cross)


def z_score(estimate: float, se: float, exact: float) -> float:
    """How many standard errors an estimate is from an exact value."""
    if se == 0:
        return 0.0 if estimate == exact else math.inf
    return (estimate - exact) / se
