"""Sly Dice exact analyses: the odds of every card for given common dice, the best rolling
policy, Higher or Lower, and what the special powers are worth."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analyzer.errors import UserError
from analyzer.games.sly_dice.model import card_notes, card_points, run_meta
from analyzer.games.sly_dice.params import ASSUMED_POINTS
from analyzer.output import Result
from kernels.sly_dice import hol, layout, odds

POWERS = {"none": odds.NO_POWER, "change": odds.CHANGE_DIE, "sum": odds.SUM_OF_TWO,
          "restart": "restart"}


def parse_dice(text: str, count: int | None, what: str) -> list[int]:
    """Faces from ``'1,2,3'``; ``count`` of them exactly (None: 0 to 2 for locked dice)."""
    parts = [p.strip() for p in text.split(",") if p.strip()] if text.strip() else []
    example = ",".join("3142"[k] for k in range(count)) if count else ""
    expected = (f"{count} face{'s' if count > 1 else ''} 1..6 separated by commas, e.g. "
                f"{example}") if count else "0 to 2 faces 1..6 separated by commas"
    if not all(p.isdigit() and 1 <= int(p) <= 6 for p in parts):
        raise UserError(f"bad {what} {text!r}: expected {expected}")
    faces = [int(p) for p in parts]
    if (count is not None and len(faces) != count) or (count is None and len(faces) > 2):
        raise UserError(f"bad {what} {text!r}: expected {expected}")
    return faces


def parse_card(name: str, dice_only: bool = False) -> int:
    """Card id of a kebab-case card name; a ``UserError`` listing the names otherwise."""
    names = layout.CARD_NAMES[:layout.DICE_CARDS] if dice_only else layout.CARD_NAMES
    if name.strip().lower() not in names:
        raise UserError(f"unknown card {name!r}; accepted: {', '.join(names)}")
    return layout.card_id(name.strip().lower())


def parse_power(name: str) -> Any:
    if name not in POWERS:
        raise UserError(f"unknown power {name!r}; accepted: {', '.join(POWERS)}")
    return POWERS[name]


def solve_card(common: list[int], card: int, k: int, objective: int, points: np.ndarray,
               rerolls: int, power: Any = "none"):
    """Exact rolling DP for one card; returns ``solve_rolling``'s tuple and the restart
    value used (-1 without the restart power)."""
    counts = layout.counts_of(common)
    kernel_power = power if isinstance(power, int) else odds.NO_POWER
    terminal = odds.own_terminal(counts, objective, card, k, points, kernel_power)
    restart = -1.0
    if power == "restart":
        restart = odds.solve_rolling(terminal, rerolls, -1.0)[0]
    return odds.solve_rolling(terminal, rerolls, restart), restart


def policy_table(solution, restart: float) -> pd.DataFrame:
    _, q1, q2, v1, v2 = solution
    stage, locked, rolled, action, value = odds.policy_rows(q1, q2, v1, v2, restart)
    rows = []
    for i in range(stage.shape[0]):
        word = {0: "stop", odds.RESTART: "restart"}.get(int(action[i]), f"lock a {action[i]}")
        rows.append({"stage": int(stage[i]),
                     "locked": " ".join(str(f) for f in locked[i] if f) or "-",
                     "rolled": " ".join(str(f) for f in rolled[i] if f),
                     "choice": word, "value": float(value[i])})
    return pd.DataFrame(rows)


def all_commons_result(values: dict[str, Any], rerolls: int | None = None) -> Result:
    """Every card's best chance and expected points for all 56 sets of common dice."""
    rerolls = values["rerolls"] if rerolls is None else rerolls
    if rerolls not in (0, 1, 2):
        raise UserError(f"bad rerolls {rerolls}: expected 0, 1 or 2")
    table = odds.odds_table(card_points(values), rerolls)
    rows = []
    for ci, counts in enumerate(layout.MS_COUNTS[3]):
        dice = ",".join(str(f) for f in np.repeat(np.arange(7), counts))
        for card in range(layout.N_CARDS):
            rows.append({"common": dice, "p_common": layout.MS_PROB[3][ci],
                         "card": layout.CARD_NAMES[card], "probability": table[ci, card, 0],
                         "expected_points": table[ci, card, 1],
                         "expected_count": table[ci, card, 2]})
    return Result(f"Sly Dice odds for every set of common dice ({rerolls} rerolls)",
                  headline={"rerolls": rerolls}, tables={"odds": pd.DataFrame(rows)},
                  meta=run_meta(values, rerolls=rerolls),
                  notes=card_notes(values, list(range(layout.N_CARDS))))


def odds_result(values: dict[str, Any], common: list[int], combo: str | None = None,
                count: int | None = None, rerolls: int | None = None,
                power: str = "none") -> Result:
    """Exact chances for every card (or one card with its policy) after the common dice."""
    rerolls = values["rerolls"] if rerolls is None else rerolls
    if rerolls not in (0, 1, 2):
        raise UserError(f"bad rerolls {rerolls}: expected 0, 1 or 2")
    points = card_points(values)
    pw = parse_power(power)
    meta = run_meta(values, common=common, rerolls=rerolls, power=power)
    if combo is None:
        rows = [_card_row(common, card, points, rerolls, pw)
                for card in range(layout.N_CARDS)]
        return Result(f"Sly Dice odds after common dice {common} ({rerolls} rerolls)",
                      headline={"common": common, "rerolls": rerolls},
                      tables={"cards": pd.DataFrame(rows)}, meta=meta,
                      notes=card_notes(values, list(range(layout.N_CARDS))))
    card = parse_card(combo)
    if card == layout.HIGHER_OR_LOWER:
        row = _card_row(common, card, points, rerolls, pw)
        return Result("Sly Dice odds: higher-or-lower", headline={
            "card": combo, "probability": row["probability"],
            "expected_points": row["expected_points"]}, tables={"cards": pd.DataFrame([row])},
            meta=meta, notes=card_notes(values, [card]))
    number = card < layout.N_NUMBER_CARDS
    if count is not None and not (number and 1 <= count <= 6):
        raise UserError(f"bad count {count}: expected 1..6, and only for number cards")
    (p, *rest), restart = solve_card(common, card, count or 1, odds.PROBABILITY, points,
                                     rerolls, pw)
    headline: dict[str, Any] = {"card": combo, "common": common, "probability": p}
    if number:
        solution, restart = solve_card(common, card, 0, odds.EXPECTED_POINTS, points,
                                       rerolls, pw)
        headline["expected_points"] = solution[0]
        headline["expected_count"] = solution[0] / (card + 1)
        if count is not None:
            headline["count"] = count
            solution, restart = solve_card(common, card, count, odds.PROBABILITY, points,
                                           rerolls, pw)
    else:
        headline["expected_points"] = p * points[card]
        solution = (p, *rest)
    return Result(f"Sly Dice odds: {combo} after common dice {common}", headline=headline,
                  tables={"policy": policy_table(solution, restart)}, meta=meta,
                  notes=card_notes(values, [card]))


def _card_row(common, card, points, rerolls, power) -> dict[str, Any]:
    name = layout.CARD_NAMES[card]
    if card == layout.HIGHER_OR_LOWER:
        success = hol.hol_solve()[0][sum(common)]
        return {"card": name, "points": points[card], "probability": success,
                "expected_points": success * points[card], "expected_count": np.nan}
    (p, *_), _ = solve_card(common, card, 1, odds.PROBABILITY, points, rerolls, power)
    row = {"card": name, "points": points[card] if card >= 6 else f"{card + 1} x count",
           "probability": p, "expected_points": p * points[card], "expected_count": np.nan}
    if card < layout.N_NUMBER_CARDS:
        (e, *_), _ = solve_card(common, card, 0, odds.EXPECTED_POINTS, points, rerolls, power)
        row.update(expected_points=e, expected_count=e / (card + 1))
    for r in (0, 1, 2):
        (pr, *_), _ = solve_card(common, card, 1, odds.PROBABILITY, points, r, power)
        row[f"p_{r}_rerolls"] = pr
    return row


def open_policy_result(values: dict[str, Any], common: list[int], cards: list[int] | None,
                       rerolls: int | None = None, power: str = "none") -> Result:
    """The rolling policy for the highest expected points over the open dice cards (the
    best true claim at the end), with its exact value."""
    rerolls = values["rerolls"] if rerolls is None else rerolls
    if rerolls not in (0, 1, 2):
        raise UserError(f"bad rerolls {rerolls}: expected 0, 1 or 2")
    chosen = list(range(layout.DICE_CARDS)) if cards is None else \
        [c for c in cards if c != layout.HIGHER_OR_LOWER]
    if not chosen:
        raise UserError("no dice card is open: give at least one card other than "
                        "higher-or-lower")
    mask = sum(1 << c for c in chosen)
    points = card_points(values)
    solution, restart = solve_card(common, mask, 0, odds.BEST_OPEN, points, rerolls,
                                   parse_power(power))
    return Result(f"Sly Dice rolling policy after common dice {common}: best expected points",
                  headline={"common": common, "expected_points": solution[0],
                            "open": [layout.CARD_NAMES[c] for c in chosen]},
                  tables={"policy": policy_table(solution, restart)},
                  meta=run_meta(values, common=common, rerolls=rerolls, power=power),
                  notes=card_notes(values, chosen) + [
                      "value = points of the best true claim among the open cards at the end"])


def hol_result(values: dict[str, Any]) -> Result:
    """Best calls and the exact success chance of Higher or Lower from every target."""
    success, calls = hol.hol_solve()
    word = {1: "higher", 0: "lower"}
    rows = [{"target": t, "p_success": success[t], "first_call": word[int(calls[0, t])],
             "second_call": word[int(calls[1, t])], "third_call": word[int(calls[2, t])]}
            for t in range(3, 19)]
    points = card_points(values)[layout.HIGHER_OR_LOWER]
    return Result("Sly Dice: Higher or Lower with the best calls",
                  headline={"points": points},
                  tables={"targets": pd.DataFrame(rows)}, meta=run_meta(values),
                  notes=card_notes(values, [layout.HIGHER_OR_LOWER])
                  + ["the first target is the sum of the common dice; each later target is "
                     "the previous challenge roll; an equal sum fails"])


def powers_table(values: dict[str, Any], common: list[int] | None = None) -> pd.DataFrame:
    """What each special power adds to each card: the change in the best chance and in
    the best expected points, for given common dice or averaged over all of them."""
    points = card_points(values)
    rerolls = values["rerolls"]
    sets = [common] if common else [list(np.repeat(np.arange(7), c)) for c in
                                    layout.MS_COUNTS[3]]
    weights = [1.0] if common else list(layout.MS_PROB[3])
    rows = []
    for card in range(layout.DICE_CARDS):
        base_p = base_e = 0.0
        gains = {name: [0.0, 0.0] for name in ("change", "sum", "restart")}
        for dice, w in zip(sets, weights):
            objective_e = odds.EXPECTED_POINTS
            p0 = solve_card(dice, card, 1, odds.PROBABILITY, points, rerolls)[0][0]
            e0 = solve_card(dice, card, 0, objective_e, points, rerolls)[0][0]
            base_p += w * p0
            base_e += w * e0
            for name in gains:
                pw = POWERS[name]
                gains[name][0] += w * (solve_card(dice, card, 1, odds.PROBABILITY, points,
                                                  rerolls, pw)[0][0] - p0)
                gains[name][1] += w * (solve_card(dice, card, 0, objective_e, points,
                                                  rerolls, pw)[0][0] - e0)
        row = {"card": layout.CARD_NAMES[card], "probability": base_p,
               "expected_points": base_e}
        for name, (dp, de) in gains.items():
            row[f"{name}_probability_gain"] = dp
            row[f"{name}_points_gain"] = de
        rows.append(row)
    return pd.DataFrame(rows)


def repeat_table(values: dict[str, Any]) -> pd.DataFrame:
    """The *repeat a combination* power: how much the best expected points of a turn
    (all dice cards open) grow when a card already scored may be claimed again, per card,
    averaged over the common dice."""
    points = card_points(values)
    rerolls = values["rerolls"]
    every = (1 << layout.DICE_CARDS) - 1
    rows = []
    best_all = 0.0
    without = np.zeros(layout.DICE_CARDS)
    for ci, w in enumerate(layout.MS_PROB[3]):
        dice = list(np.repeat(np.arange(7), layout.MS_COUNTS[3][ci]))
        best_all += w * solve_card(dice, every, 0, odds.BEST_OPEN, points, rerolls)[0][0]
        for card in range(layout.DICE_CARDS):
            without[card] += w * solve_card(dice, every & ~(1 << card), 0, odds.BEST_OPEN,
                                            points, rerolls)[0][0]
    for card in range(layout.DICE_CARDS):
        rows.append({"card": layout.CARD_NAMES[card], "best_turn_points_without_card":
                     without[card], "repeat_gain": best_all - without[card]})
    return pd.DataFrame(rows)


def powers_result(values: dict[str, Any], common: list[int] | None = None) -> Result:
    where = f"after common dice {common}" if common else "averaged over all common dice"
    tables = {"powers": powers_table(values, common)}
    if common is None:
        tables["repeat"] = repeat_table(values)
    return Result(f"Sly Dice special powers: value added {where}",
                  headline={"common": common}, tables=tables, meta=run_meta(values),
                  notes=card_notes(values, list(range(layout.N_CARDS))) + [
                      "change = turn one own die to any face (ones); sum = use the sum of two "
                      "dice as one die (threes); restart = restart the rolling phase once "
                      "(fours); repeat = claim a scored card again (twos): the gain in the "
                      "best expected points of a turn when that card is claimable again"])


def assumed_point_names() -> list[str]:
    return list(ASSUMED_POINTS)
