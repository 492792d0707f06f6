"""Bluffing and accusing in Sly Dice: what a claim tells the others (exact posterior under
a model of the claimant), when to accuse, and when a bluff beats an honest claim."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analyzer.errors import UserError
from analyzer.games.sly_dice.model import card_notes, get_model, parse_policy, run_meta
from analyzer.output import Result
from kernels.sly_dice import layout, posterior

EVERY_CARD = (1 << layout.N_CARDS) - 1


def open_mask(cards: list[int] | None) -> int:
    return EVERY_CARD if cards is None else sum(1 << c for c in cards)


def _bonus(model, held: int, which: int) -> float:
    return model.bonus[2 * which] + model.bonus[2 * which + 1] * held


def posterior_result(values: dict[str, Any], common: list[int], locked: list[int], card: int,
                     k: int, claimant: str = "honest", cards: list[int] | None = None,
                     bluffs_held: int = 0, falses_held: int = 0) -> Result:
    """The chance that a claim is true given what the others see, under a claimant model,
    and whether accusing it gains expected points on the opponents' average."""
    if card == layout.HIGHER_OR_LOWER:
        raise UserError("higher-or-lower cannot be accused: its rolls are made in the open")
    if card < layout.N_NUMBER_CARDS and not 1 <= k <= 6:
        raise UserError(f"bad count {k}: a number-card claim names a count 1..6")
    k = k if card < layout.N_NUMBER_CARDS else 1
    if cards is not None and card not in cards:
        open_names = ", ".join(layout.CARD_NAMES[c] for c in cards)
        raise UserError(f"{layout.CARD_NAMES[card]} is not open to the claimant, so it cannot "
                        f"be claimed; open: {open_names}")
    model = get_model(values)
    policy = parse_policy(claimant)
    c_code = layout.code_of(common)
    dist = posterior.claim_distribution(
        c_code, layout.CODE_INDEX[c_code], model.weights, model.q1, model.q2,
        values["rerolls"], open_mask(cards), model.hol_success[sum(common)]
        * model.points[layout.HIGHER_OR_LOWER], model.points, policy.bluff_below,
        model.plausibility, model.made, _bonus(model, bluffs_held, 0))
    li = layout.CODE_INDEX[layout.code_of(locked)]
    seen = dist[len(locked), li]
    p_locked = seen.sum()
    naive = model.plausibility[len(locked), layout.CODE_INDEX[c_code + layout.code_of(locked)],
                               card, k]
    claim_p = seen[card, k].sum()
    post = seen[card, k, 1] / claim_p if claim_p > 0 else float("nan")
    value = (card + 1) * k if card < layout.N_NUMBER_CARDS else model.points[card]
    use = naive if np.isnan(post) else post
    gain = (1 - use) * (value + _bonus(model, bluffs_held, 0))
    loss = use * _bonus(model, falses_held, 1) * (values["players"] - 1)
    rows = []
    for c in range(layout.DICE_CARDS):
        for kk in range(7):
            total = seen[c, kk].sum()
            if total > 0:
                rows.append({"claim": layout.CARD_NAMES[c] + (f" x{kk}" if c < 6 else ""),
                             "p_claim_given_locked": total / p_locked,
                             "p_true": seen[c, kk, 1] / total})
    notes = card_notes(values, [card]) + [
        f"claimant model: {policy.name}, rolling for the best expected points over the "
        f"{'open' if cards else 'all'} cards; the rational accuser's rule compares "
        "(1 - p) x (claim + bluff bonus), kept from the claimant, with p x the "
        "false-accusation penalty x the number of opponents (gains on their average)"]
    if np.isnan(post):
        notes.append("this claimant model never makes this claim with these locked dice; the "
                     "decision uses the naive plausibility")
    return Result(
        f"Sly Dice: is the claim '{layout.CARD_NAMES[card]}' true?",
        headline={"posterior_true": post, "naive_plausibility": naive,
                  "p_locked_dice": p_locked, "accuse": bool(gain > loss),
                  "accuse_gain": gain - loss},
        tables={"claims": pd.DataFrame(rows).sort_values("p_claim_given_locked",
                                                         ascending=False)
                if rows else pd.DataFrame(columns=["claim", "p_claim_given_locked", "p_true"])},
        meta=run_meta(values, common=common, locked=locked, claimant=policy.name),
        notes=notes)


def claim_options(values: dict[str, Any], common: list[int], locked: list[int],
                  hidden: list[int], cards: list[int] | None = None,
                  bluffs_held: int = 0) -> pd.DataFrame:
    """Every claim open to a player: honest claims, Higher or Lower, and bluffs with the
    accusation chance at which a bluff stops beating the best honest option."""
    model = get_model(values)
    mask = open_mask(cards)
    own = layout.counts_of(locked + hidden)
    six = layout.counts_of(common) + own
    vis = layout.CODE_INDEX[layout.code_of(common + locked)]
    plaus = model.plausibility[len(locked), vis]
    bonus_next = _bonus(model, bluffs_held, 0)
    rows = []
    for card in range(layout.DICE_CARDS):
        if not (mask >> card) & 1:
            continue
        if card < layout.N_NUMBER_CARDS:
            for k in range(1, 7):
                true = six[card + 1] >= k
                if true and k != six[card + 1] or (not true and k != six[card + 1] + 1):
                    continue  # the honest count, and the smallest bluff
                rows.append(_option(card, k, (card + 1) * k, true, plaus[card, k]))
        else:
            made = bool(model.made[layout.CODE_INDEX[layout.code_of(common + locked + hidden)]]
                        >> card & 1)
            rows.append(_option(card, 1, model.points[card], made, plaus[card, 1]))
    if mask >> layout.HIGHER_OR_LOWER & 1:
        p = model.hol_success[sum(common)]
        rows.append({"claim": "higher-or-lower", "true": True, "points": model.points[17],
                     "expected_points": p * model.points[17], "plausibility": np.nan})
    table = pd.DataFrame(rows)
    honest = table[table["true"]]["expected_points"].max() if table["true"].any() else 0.0
    bluff = ~table["true"]
    table.loc[bluff, "points"] = table.loc[bluff, "points"]
    table.loc[bluff, "if_unaccused"] = table.loc[bluff, "points"] + bonus_next
    table.loc[bluff, "break_even_accusation_chance"] = (
        1 - honest / table.loc[bluff, "if_unaccused"]).clip(lower=0)
    return table.sort_values("expected_points", ascending=False)


def _option(card, k, points, true, plaus) -> dict[str, Any]:
    name = layout.CARD_NAMES[card] + (f" x{k}" if card < layout.N_NUMBER_CARDS else "")
    return {"claim": name, "true": bool(true), "points": float(points),
            "expected_points": float(points) if true else np.nan, "plausibility": plaus}


def claim_result(values, common, locked, hidden, cards=None, bluffs_held=0) -> Result:
    table = claim_options(values, common, locked, hidden, cards, bluffs_held)
    return Result("Sly Dice: what to claim", headline={"common": common, "locked": locked,
                                                        "hidden": hidden},
                  tables={"options": table}, meta=run_meta(values),
                  notes=card_notes(values, list(range(layout.N_CARDS))) + [
                      "a bluff beats the best honest option when the chance of being accused "
                      "is below break_even_accusation_chance; plausibility is the chance the "
                      "claim holds given the visible dice, hidden dice random"])
