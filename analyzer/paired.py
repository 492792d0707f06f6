"""What-if comparisons: estimates and paired differences from the sums and cross products
that the paired play loops accumulate (``kernels.accumulate.add_products``)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from analyzer import stats
from analyzer.errors import UserError
from analyzer.seeding import check_count


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


def _watched(metrics: tuple, precision, players: int) -> list[tuple]:
    """The metrics a precision watches, ``(name, column, scale, width, unit)``: the mean
    score's difference in points (``precision.points``) and, with two or more players,
    each win rate's in percentage points (``precision.win_points``)."""
    out = []
    for name, k, scale in metrics:
        if name == "mean_score" and precision.points:
            out.append((name, k, scale, precision.points, 1.0))
        elif "win_rate" in name and players > 1 and precision.win_points:
            out.append((name, k, scale, precision.win_points, 100.0))
    return out


def _half_widths(acc: np.ndarray, done: int, watched: list[tuple], players: int
                 ) -> list[tuple[float, float, float]]:
    """``(half-width, width asked, unit)`` of every watched metric's paired difference
    from the reference, every variant after it."""
    out = []
    for _, k, scale, width, unit in watched:
        c = 1.0 / (players if scale == "players" else scale)
        for v in range(1, acc.shape[1]):
            m = metric(acc, done, v, k, c)
            out.append(((m["diff_ci95_high"] - m["diff"]) * unit, width, unit))
    return out


def stop_rule(metrics: tuple, precision, players: int):
    """The driver's stop callback (``seats.StopRule``) for a what-if run that may end once
    every variant's paired difference from the reference is as narrow as ``precision``
    asks (a ``seats.Precision``, or a number: the mean score's half-width in points a
    player): the mean score's, and with two or more players each win rate's
    (``_watched``); None without ``precision``."""
    from analyzer.seats import StopRule, as_precision, width_words

    precision = as_precision(precision)
    if precision is None:
        return None
    watched = _watched(metrics, precision, players)

    def precise_enough(acc: np.ndarray, done: int) -> bool:
        return all(h <= w for h, w, _ in _half_widths(acc, done, watched, players))

    def words(acc: np.ndarray, done: int) -> str:
        widths = _half_widths(acc, done, watched, players)
        points = max((h for h, _, unit in widths if unit == 1.0), default=0.0)
        win = max((h for h, _, unit in widths if unit != 1.0), default=math.nan)
        return width_words(points, win, "differences ")

    return StopRule(precise_enough, words)


def precision_note(acc: np.ndarray, n: int, metrics: tuple, precision, players: int,
                   cap: int) -> list[str]:
    """The note on a what-if that ran to a precision: the widths asked, the cap and the
    games played, and whether the cap came first (none without ``precision``)."""
    from analyzer.seats import CAP_OPTION, as_precision

    precision = as_precision(precision)
    if precision is None:
        return []
    watched = _watched(metrics, precision, players)
    reached = all(h <= w for h, w, _ in _half_widths(acc, n, watched, players))
    asked = [f"+-{precision.points:g} points a player"] if precision.points else []
    if players > 1 and precision.win_points:
        asked.append(f"+-{precision.win_points:g} percentage points for win rates")
    return [f"ran until every paired difference was within {' and '.join(asked)} (95%), "
            f"at most {cap:,} games: {n:,}" + ("" if reached else "; the cap came first, "
                                              f"so the precision was NOT reached (raise "
                                              f"{CAP_OPTION})")]


BASELINE = "baseline"


def headline(rows: list[dict[str, Any]], n: int, players: int, reference: str,
             keep: tuple[str, ...] = (), details: dict[str, dict[str, Any]] | None = None
             ) -> dict[str, Any]:
    """The JSON headline: per variant, its ``details`` (rules and lineup in force, the
    changes from the reference) and per metric value/ci95/diff/diff_ci95 (plus the
    ``keep`` columns of the variant's first row)."""
    out: dict[str, Any] = {"games": n, "players": players, "reference": reference,
                           "variants": {}}
    for r in rows:
        entry = out["variants"].setdefault(
            r["variant"], {**(details or {}).get(r["variant"], {}), **{k: r[k] for k in keep}})
        entry[r["metric"]] = {"value": r["value"], "ci95": [r["ci95_low"], r["ci95_high"]],
                              "diff": r["diff"],
                              "diff_ci95": [r["diff_ci95_low"], r["diff_ci95_high"]]}
    return out


def variant_details(params, variants: list) -> dict[str, dict[str, Any]]:
    """Per variant ``(label, rule values, lineup)``: every rule in force, the lineup and
    what differs from the first variant (the reference)."""
    base_values, base_lineup = variants[0][1], _lineup(variants[0][2])
    out = {}
    for label, values, lineup in variants:
        changes = [f"{p.name}={p.show(values[p.name])}" for p in params
                   if values[p.name] != base_values[p.name]]
        if _lineup(lineup) != base_lineup:
            changes.append(f"lineup={','.join(_lineup(lineup))}")
        out[label] = {"rules": {p.name: p.show(values[p.name]) for p in params},
                      "lineup": _lineup(lineup), "changes": "; ".join(changes) or "none"}
    return out


def _lineup(lineup: Any) -> list[str]:
    return [lineup] if isinstance(lineup, str) else list(lineup)


def details_notes(details: dict[str, dict[str, Any]]) -> list[str]:
    """One note per variant: what it changes from the reference and its lineup."""
    labels = list(details)
    notes = [f"reference: {labels[0]} (the rules in force, lineup "
             f"{','.join(details[labels[0]]['lineup'])}); every other variant changes only "
             "what its line says, and its difference from the reference is paired (same "
             "games, same random numbers) with a 95% interval"]
    notes += [f"{label}: changes {d['changes']}; lineup {','.join(d['lineup'])}"
              for label, d in list(details.items())[1:]]
    return notes


def check_variants(variants: list, games: int) -> int:
    """Validate what-if variants ``(label, rule values, ...)``; returns the player count."""
    if len(variants) < 2:
        raise UserError("what-if needs at least two variants to compare")
    if len({v[1]["players"] for v in variants}) != 1:
        raise UserError("all what-if variants must have the same number of players")
    check_count(games)
    return variants[0][1]["players"]


SEAT_WIN = "win_rate_seat_"  # + seat number: a what-if's per-seat win rate
FIGURE_WORDS = {  # every game's what-if figures in words (a seat's win rate: ``SEAT_WIN``)
    "mean_score": "mean score a player",
    "exact_turn_score": "a turn's exact expected score",
    "first_seat_win_rate": "the first seat's share of wins",
    "foxes_per_player": "foxes a player",
    "p_instant_win_game": "instant-win chance a game",
    "triple_sixes_per_game": "triple sixes a game",
    "bluffs_per_game": "bluffs a game",
    "bluffs_caught_per_game": "bluffs caught a game",
    "accusations_per_game": "accusations a game",
}


def seat_metrics(start: int, players: int, win_units: float) -> tuple:
    """The per-seat win-rate metrics ``(name, column, scale)`` of a what-if whose play loop
    writes each seat's win units from column ``start`` (``put_seat_wins``); none solo."""
    if players < 2:
        return ()
    return tuple((f"{SEAT_WIN}{s + 1}", start + s, win_units) for s in range(players))


def seat_policy(policies: list[str], name: str) -> str:
    """The policy of the seat a ``SEAT_WIN`` metric names, the lineup cycled over the
    seats; "" for other metrics."""
    if not name.startswith(SEAT_WIN):
        return ""
    return policies[(int(name[len(SEAT_WIN):]) - 1) % len(policies)]


def lineup_rows(acc: np.ndarray, n: int, variants: list, metrics: tuple,
                players: int, first: int = 0) -> list[dict[str, Any]]:
    """Rows for variants ``(label, values, lineup)`` (the first of them the accumulator's
    variant ``first``) and ``metrics`` ``(name, column, scale)``; ``scale`` "players"
    divides by the player count, a number divides by it. Solo games have no win rates. A
    per-seat win rate (``seat_metrics``) names the seat's policy in ``seat_policy``."""
    rows = []
    for v, (label, _, policies) in enumerate(variants, first):
        for name, k, scale in metrics:
            if players == 1 and "win_rate" in name:
                continue
            c = 1.0 / (players if scale == "players" else scale)
            rows.append({"variant": label, "lineup": ",".join(policies), "metric": name,
                         "seat_policy": seat_policy(list(policies), name),
                         **metric(acc, n, v, k, c)})
    return rows


def variants_from_options(values_for, rule_variants, lineups, base_policy: str) -> list:
    """What-if variants from CLI options, the baseline first: the rules in force
    (``values_for([])``) played by the base lineup. Each ``--vary`` spec is the baseline
    with exactly its assignments changed (``lineup=P,Q`` among them changes the lineup
    too: a combined variant); each ``--lineup`` is the baseline with that lineup.
    ``values_for(extra_assignments)`` resolves rule values."""
    from analyzer.cli_options import split_specs
    from analyzer.params import parse_assignment

    base_lineup = split_specs((base_policy,))
    variants = [(BASELINE, values_for([]), base_lineup)]
    for spec in rule_variants:
        extra, lineup = [], base_lineup
        parts = [p for p in spec.split(";") if p.strip()]
        if not parts:
            raise UserError(f"--vary {spec!r} changes nothing: give KEY=VALUE[;KEY=VALUE]")
        keys = [parse_assignment(p)[0] for p in parts]
        if len(set(keys)) < len(keys):
            twice = next(k for k in keys if keys.count(k) > 1)
            raise UserError(f"--vary {spec!r} gives {twice} twice; give each once")
        for key, value in (parse_assignment(p) for p in parts):
            if key == "players":
                raise UserError("players cannot vary in a what-if; use --players")
            if key == "lineup":
                lineup = split_specs((value,))
            else:
                extra.append(f"{key}={value}")
        variants.append((spec, values_for(extra), lineup))
    for lineup in lineups:
        variants.append((f"lineup={lineup}", values_for([]), split_specs((lineup,))))
    if len(variants) < 2:
        raise UserError("a what-if compares variants with the baseline (the rules in force "
                        "and --policy): give --vary KEY=VALUE[;KEY=VALUE] or --lineup P[,P]")
    labels = [label for label, _, _ in variants]
    if len(set(labels)) < len(labels):
        raise UserError("the same what-if variant is given twice; give each once")
    return variants
