"""Bluffing and accusing in Sly Dice: what a claim tells the others (exact posterior under
a model of the claimant), when to accuse, when a bluff beats an honest claim, and stable
claim/accuse strategies by iterated best response on common random numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analyzer import driver, kept, seats
from analyzer.errors import UserError
from analyzer.games.sly_dice.model import Policy, card_notes, get_model, parse_policy, run_meta
from analyzer.games.sly_dice.runs import play_games, policy_stats
from analyzer.output import Result
from analyzer.progress import Progress
from kernels.sly_dice import layout, posterior

BLUFF_GRID = (-1.0, 5.0, 10.0, 15.0, 20.0, 30.0)
ACCUSE_GRID = (-1.0, 0.1, 0.2, 0.3, 0.4, 0.5, "rational")
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


# ---------------------------------------------------------------- stable strategies

def grid_policy(bluff: float, accuse: float | str) -> Policy:
    """A grid point by name: bluff below ``bluff`` points (-1: never), accuse below
    plausibility ``accuse`` (-1: never; 'rational': by expected points)."""
    rational = accuse == "rational"
    never_accuse = not rational and accuse < 0
    if bluff < 0:
        return parse_policy("rational" if rational else "honest" if never_accuse
                            else f"accuser:{accuse:g}")
    if never_accuse:
        return parse_policy(f"bluffer:{bluff:g}")
    return parse_policy(f"sly:{bluff:g}:{accuse if rational else format(accuse, 'g')}")


def _duel(values, policy: Policy, opponent: Policy, games: int, seed: int):
    vals = {**values, "players": 2}
    acc, _ = play_games(vals, [policy, opponent], games, seed, True, None, False)
    rows = seats.by_name(acc, [policy.name, opponent.name + " "])
    return policy_stats(rows[policy.name], 2)


def _grid() -> list[Policy]:
    return [grid_policy(b, a) for b in BLUFF_GRID for a in ACCUSE_GRID]


def fictitious_play(values, games: int = 10_000, seed: int = 1, steps: int = 20,
                    progress: bool = False):
    """Fictitious play over the grid: start from the honest strategy; at every step add the
    grid strategy with the best average two-player win rate against all strategies added so
    far (the empirical mixture). Every duel uses the same seed (common random numbers).

    Returns ``(history, rates, exploit)``: the strategies added, the win rate of each
    against the mixture before it, and the best grid reply to the last one (its win rate
    and name). ``progress``: a bar over the steps on stderr."""
    cache: dict[tuple[str, str], float] = {}

    def rate(p: Policy, q: Policy) -> float:
        if (p.name, q.name) not in cache:
            cache[p.name, q.name] = _duel(values, p, q, games, seed)["win_rate"]
        return cache[p.name, q.name]

    history = [parse_policy("honest")]
    rates = [float("nan")]
    grid = _grid()
    with Progress(steps + 1, "fictitious play", progress, "steps") as bar:
        for _ in range(steps):
            scores = [np.mean([rate(c, q) for q in history]) for c in grid]
            best = int(np.argmax(scores))
            history.append(grid[best])
            rates.append(float(scores[best]))
            bar.advance(1)
        last = history[-1]
        exploit = max(((rate(c, last), c.name) for c in grid), key=lambda r: r[0])
        bar.advance(1)
    return history, rates, exploit


def _kept_path(values, games: int, seed: int, steps: int) -> Path:
    key = [{**values, "players": 2}, games, seed, [BLUFF_GRID, ACCUSE_GRID, steps]]
    return kept.path_for("sly-fictitious-play", key)


def _read_kept(path: Path):
    """``(history, rates, exploit)`` kept at ``path``, or None (missing or broken)."""
    answer = kept.read(path)
    try:
        history = [Policy(*fields) for fields in answer["history"]]
        return history, answer["rates"], tuple(answer["exploit"])
    except (KeyError, TypeError):
        return None


def kept_fictitious_play(values, games: int = 10_000, seed: int = 1, steps: int = 20,
                         progress: bool = False):
    """``fictitious_play``'s result, computed once per rules, games, seed and grid and
    then read from disk (it plays hundreds of duels: minutes; the answer is the same)."""
    path = _kept_path(values, games, seed, steps)
    found = _read_kept(path)
    if found is not None:
        return found
    history, rates, exploit = fictitious_play(values, games, seed, steps, progress)
    kept.write(path, {"history": [[p.name, p.bluff_below, p.accuse_mode, p.accuse_below]
                                  for p in history], "rates": rates, "exploit": list(exploit)})
    return history, rates, exploit


def _stable(last: Policy) -> Policy:
    return Policy("stable", last.bluff_below, last.accuse_mode, last.accuse_below)


def cached_stable(values: dict[str, Any], games: int = 10_000, seed: int = 1
                  ) -> Policy | None:
    """The ``stable`` policy if fictitious play already ran for these rules."""
    kept = _read_kept(_kept_path(values, games, seed, 20))
    return None if kept is None else _stable(kept[0][-1])


def stable_strategy(values: dict[str, Any], games: int = 10_000, seed: int = 1) -> Policy:
    """The last best response of fictitious play (kept on disk per rules)."""
    return _stable(kept_fictitious_play(values, games, seed)[0][-1])


def equilibrium_result(values: dict[str, Any], games: int = 10_000, seed: int = 1,
                       threads: int | None = None) -> Result:
    """Fictitious play over bluff thresholds x accusation thresholds (two players, common
    random numbers), the mixture it reaches, and how its last strategy plays."""
    driver.set_threads(threads)
    history, rates, (exploit_rate, exploiter) = fictitious_play(values, games, seed)
    steps = [{"step": i, "strategy": p.name, "win_rate_vs_mixture_so_far": r}
             for i, (p, r) in enumerate(zip(history, rates))]
    names = [p.name for p in history]
    mixture = {n: names.count(n) / len(names) for n in dict.fromkeys(names)}
    last = history[-1]
    stable = _stable(last)
    rows = []
    for opponent in ("honest", "rational", "bluffer:10", "accuser:0.3"):
        s = _duel(values, stable, parse_policy(opponent), games, seed + 1)
        rows.append({"opponent": opponent, "win_rate": s["win_rate"],
                     "win_ci95_low": s["win_ci95"][0], "win_ci95_high": s["win_ci95"][1],
                     "bluff_rate": s["bluff_rate"], "bluffs_caught_rate":
                     s["bluffs_caught_rate"], "accusations_per_game":
                     s["accusations_per_game"], "mean_score": s["mean_score"]})
    return Result(
        "Sly Dice: stable claim/accuse strategies by fictitious play",
        headline={"stable": last.name, "mixture": mixture,
                  "best_reply_to_stable": exploiter,
                  "best_reply_win_rate": exploit_rate},
        tables={"iterations": pd.DataFrame(steps), "stable_vs_bots": pd.DataFrame(rows)},
        meta=run_meta(values, seed, games=games),
        notes=card_notes(values, list(range(layout.N_CARDS))) + [
            f"grid: bluff when the best honest option is below B in {BLUFF_GRID[1:]} (or never)"
            f" x accuse when plausibility is below A in {ACCUSE_GRID[1:]} (or never); each "
            f"step adds the best response (two-player win rate, {games} games per duel, one "
            "seed) to the mixture of the strategies added so far",
            "the 'stable' policy is the last best response; best_reply_win_rate is how well the "
            "best grid strategy does against it (0.5 = nothing on the grid exploits it); its "
            "win rates against the bots use another seed (held out)"])
