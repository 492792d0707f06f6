"""What-if comparisons: estimates and paired differences from the sums and cross products
that the paired play loops accumulate (``kernels.accumulate.add_products``)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from analyzer import stats
from analyzer.errors import UserError


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


def check_variants(variants: list, games: int) -> int:
    """Validate what-if variants ``(label, rule values, ...)``; returns the player count."""
    if len(variants) < 2:
        raise UserError("what-if needs at least two variants to compare")
    if len({v[1]["players"] for v in variants}) != 1:
        raise UserError("all what-if variants must have the same number of players")
    if games < 1:
        raise UserError(f"bad game count {games}: expected a whole number of at least 1")
    return variants[0][1]["players"]


def lineup_rows(acc: np.ndarray, n: int, variants: list, metrics: tuple,
                players: int) -> list[dict[str, Any]]:
    """Rows for variants ``(label, values, lineup)`` and ``metrics`` ``(name, column,
    scale)``; ``scale`` "players" divides by the player count, a number divides by it."""
    rows = []
    for v, (label, _, policies) in enumerate(variants):
        for name, k, scale in metrics:
            c = 1.0 / (players if scale == "players" else scale)
            rows.append({"variant": label, "lineup": ",".join(policies), "metric": name,
                         **metric(acc, n, v, k, c)})
    return rows


def variants_from_options(values_for, rule_variants, lineups, base_policy: str) -> list:
    """What-if variants from CLI options: ``--vary`` rule changes (each played by the base
    lineup), ``--lineup`` lineups (under the rules in force); the rules in force come first
    when fewer than two variants are given. ``values_for(extra_assignments)`` resolves rule
    values."""
    from analyzer.cli_options import split_specs
    from analyzer.params import parse_assignment

    base = values_for([])
    variants = []
    for spec in rule_variants:
        extra = [f"{k}={v}" for k, v in (parse_assignment(p) for p in spec.split(";")
                                          if p.strip())]
        if any(e.startswith("players=") for e in extra):
            raise UserError("players cannot vary in a what-if; use --players")
        variants.append((spec, values_for(extra), split_specs((base_policy,))))
    for lineup in lineups:
        variants.append((f"lineup {lineup}", base, split_specs((lineup,))))
    if len(variants) < 2:
        variants.insert(0, ("rules in force", base, split_specs((base_policy,))))
    return variants
