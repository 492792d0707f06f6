"""What-if comparisons: estimates and paired differences from the sums and cross products
that the paired play loops accumulate (``kernels.accumulate.add_products``)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from analyzer import stats


def metric(acc: np.ndarray, n: int, v: int, k: int, scale: float) -> dict[str, float]:
    """Variant ``v``'s mean of metric ``k`` (times ``scale``) with its 95% interval, and
    (after the reference, v > 0) the paired difference from variant 0 with its interval."""
    mean, se = stats.mean_se(n, acc[0, v, k] * scale, acc[1 + v, v, k] * scale**2)
    d = dse = math.nan
    if v > 0:
        d, dse = stats.paired_difference(n, acc[0, 0, k] * scale, acc[0, v, k] * scale,
                                         acc[1, 0, k] * scale**2, acc[1 + v, v, k] * scale**2,
                                         acc[1, v, k] * scale**2)
    lo, hi = stats.ci95(mean, se)
    dlo, dhi = stats.ci95(d, dse)
    return {"value": mean, "ci95_low": lo, "ci95_high": hi, "diff": d, "diff_ci95_low": dlo,
            "diff_ci95_high": dhi}


def headline(rows: list[dict[str, Any]], n: int, players: int, reference: str,
             keep: tuple[str, ...] = ()) -> dict[str, Any]:
    """The JSON headline: per variant, per metric value/ci95/diff/diff_ci95 (plus the
    ``keep`` columns of the variant's first row)."""
    out: dict[str, Any] = {"games": n, "players": players, "reference": reference,
                           "variants": {}}
    for r in rows:
        entry = out["variants"].setdefault(r["variant"], {k: r[k] for k in keep})
        entry[r["metric"]] = {"value": r["value"], "ci95": [r["ci95_low"], r["ci95_high"]],
                              "diff": r["diff"],
                              "diff_ci95": [r["diff_ci95_low"], r["diff_ci95_high"]]}
    return out
