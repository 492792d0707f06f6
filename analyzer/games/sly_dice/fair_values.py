"""Fair points for Sly Dice's fixed cards in the real game (``dicelab sly-dice tune
--target equal-expected-points --free fixed-cards``).

A card's *worth* at a public state where it is open (its common dice and open cards) is
the expected points of a claimant that aims for it: it rolls by the shared rolling rule
with only that card open, then claims it (true, or a bluff), against the accuser's
accusations in the claim/accuse equilibrium (``claim_game``) of the public state its roll
leaves (the accuser expects the shared rolling rule, for all the open cards): the card's
points when the claim stands and the Successful Bluffing card when a bluff passes. The
worth is exact over the claimant's rolls (``claim_game.rolling_ends``: every locked set it
can end with, and its hidden dice); the public states are those a game reaches
(``equilibrium.sample_states``: a round at random, the cards open by then), the same
number for each common-dice multiset, weighted by its chance. Only some cards are open,
so what the accuser makes of a claim depends on the other cards a claimant could claim.
An aimed claim the equilibrium claimant never makes at that state meets the most suspicious
accuser the equilibrium allows (``kernels.sly_dice.claim_lp``): the LP alone leaves its
accusing chance anywhere high enough to deter the equilibrium claimant.

The fair points give every free card the same mean worth: the level asked for, or by
default the median worth of every fixed card under the rules in force (so a single free
card is tuned to the level the other cards' points give). They are found by
one secant step per card and evaluation in log space (a card's worth depends mostly on
its own points), every evaluation on the same states (common random numbers); the best
values evaluated are kept. A card whose worth cannot reach the level within its bounds
stays at the bound, and an equilibrium changes by jumps, so a worth can step over the
level: then the nearest values are given, with a note.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
import pandas as pd

from analyzer import stats
from analyzer.run import kept
from analyzer.run.block_loop import over_threads
from analyzer.errors import UserError
from analyzer.games.sly_dice import claim_game
from analyzer.games.sly_dice.equilibrium import MODEL_NOTE, sample_states
from analyzer.games.sly_dice.model import card_notes, run_meta
from analyzer.games.sly_dice.params import ASSUMED_POINTS, points_param
from analyzer.output import Result
from analyzer.seeding import DEFAULT_SEED
from analyzer.tune import SideEffectRun, parse_free
from kernels.sly_dice import layout

TARGET = "equal-expected-points"
FIXED_CARDS = tuple(ASSUMED_POINTS)  # the cards with points of their own, in card order
ALL_FIXED = "fixed-cards"
STATES = 56  # sampled public states per evaluation (one for each common-dice multiset;
# about 18 claim/accuse equilibria each, one per locked set an aimer can end with)
PRECISION = 0.25  # points: every free card's worth this close to the level
POINT_BOUNDS = (1.0, 200.0)  # a free card's range unless --bounds says otherwise
POINT_LIMITS = (0.5, 1000.0)
MAX_EVALUATIONS = 25


def aimed_worths(values: dict[str, Any], state: dict[str, Any]) -> np.ndarray:
    """float64[N_CARDS]: each open fixed card's worth at one public state (``sample_states``:
    its common dice and open cards): the expected points of a claimant that rolls aiming
    for the card alone (the shared rolling rule with only that card open) and claims it
    (true, or a bluff), exactly over its rolls, against the accuser's equilibrium
    accusations at the public state each roll leaves (the accuser expects the shared
    rolling rule); NaN for the other cards."""
    worth = np.full(layout.N_CARDS, np.nan)
    common, cards = state["common"], state["cards"]
    aims = [c for c in cards if c >= layout.N_NUMBER_CARDS]  # Higher or Lower: no aim
    ends = {c: claim_game.rolling_ends(values, common, 1 << c) for c in aims}
    worth[aims] = 0.0
    for locked in sorted({locked for aimed in ends.values() for locked in aimed}):
        game = claim_game.build_game(values, common, list(locked), cards)
        _, _, accuse = claim_game.equilibrium_lp(game)
        own = claim_game.own_points(game, accuse)
        claimed = np.array([card for card, _ in game.claims])
        for card in aims:
            if locked in ends[card]:
                worth[card] += ends[card][locked] @ own[:, claimed == card].max(axis=1)
    return worth


def card_worths(values: dict[str, Any], states: list[dict[str, Any]]) -> np.ndarray:
    """float64[len(states), N_CARDS]: ``aimed_worths`` of every state, the states spread
    over threads."""
    return np.array(over_threads(lambda i: aimed_worths(values, states[i]), len(states)))


def stratified_states(values: dict[str, Any], n_states: int, seed: int
                      ) -> tuple[list[dict[str, Any]], np.ndarray]:
    """About ``n_states`` public states (``sample_states``), the same number for each of
    the 56 common-dice multisets (a card's worth depends most on the common dice), and
    float64[states] their weights (the multiset's chance, shared among its states)."""
    per_common = _states_used(n_states) // layout.N_COMMON_SETS
    faces = [[f for f in range(1, 7) for _ in range(int(row[f]))]
             for row in layout.MS_COUNTS[3]]
    commons = [common for common in faces for _ in range(per_common)]
    weights = np.repeat(layout.MS_PROB[3], per_common) / per_common
    return sample_states(values, len(commons), seed, commons), weights


def _states_used(n_states: int) -> int:
    """The states ``stratified_states`` samples for ``n_states``."""
    return max(1, -(-n_states // layout.N_COMMON_SETS)) * layout.N_COMMON_SETS


def mean_worths(worth: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mean, standard error) float64[N_CARDS] of each card's worth over the states where
    it is open (``worth``: float64[states, N_CARDS], NaN where not open), weighted."""
    is_open = ~np.isnan(worth)
    w = weights[:, None] * is_open
    total = w.sum(axis=0)
    mean = np.where(is_open, worth, 0.0).T @ weights / np.maximum(total, 1e-300)
    deviation = np.where(is_open, worth - mean[None, :], 0.0)
    se = np.sqrt((w ** 2 * deviation ** 2).sum(axis=0)) / np.maximum(total, 1e-300)
    return mean, se


def worth_table(values: dict[str, Any], n_states: int, seed: int) -> pd.DataFrame:
    """Per fixed card: its worth (mean over the states where it is open) with the 95%
    interval, and the number of those states."""
    states, weights = stratified_states(values, n_states, seed)
    worth = card_worths(values, states)
    mean, se = mean_worths(worth, weights)
    rows = []
    for name in FIXED_CARDS:
        card = layout.card_id(name)
        low, high = stats.ci95(float(mean[card]), float(se[card]))
        rows.append({"card": name, "worth": float(mean[card]), "ci95_low": low,
                     "ci95_high": high, "open_states": int((~np.isnan(worth[:, card])).sum())})
    return pd.DataFrame(rows)


def parse_cards(text: str, bounds: Sequence[str], values: dict[str, Any]):
    """The ``--free`` cards (``fixed-cards``, or card names such as ``full-house``, or
    their parameter names such as ``points_full_house``) with their bounds
    (``analyzer.tune.Free``, named by card)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if names == [ALL_FIXED]:
        names = list(FIXED_CARDS)
    names = [_card_name(n) for n in names]
    for name in names:
        if name not in FIXED_CARDS:
            raise UserError(f"unknown free parameter {name!r}: expected {ALL_FIXED} or some "
                            f"of {', '.join(FIXED_CARDS)}")
    bounds = [_card_name(spec.partition("=")[0].strip()) + "".join(spec.partition("=")[1:])
              for spec in bounds]
    return parse_free(",".join(names), FIXED_CARDS, lambda name: values[points_param(name)],
                      bounds, POINT_BOUNDS, POINT_LIMITS)


def _card_name(name: str) -> str:
    """``points_full_house`` -> ``full-house``; other names as they are."""
    return name[len("points_"):].replace("_", "-") if name.startswith("points_") else name


def parse_target(texts: Sequence[str]) -> float | None:
    """``equal-expected-points`` (the level: every fixed card's median worth now) or
    ``equal-expected-points=LEVEL`` (points)."""
    if len(texts) != 1 or texts[0].partition("=")[0].strip() != TARGET:
        raise UserError(f"bad target {', '.join(texts) or 'none'}: Sly Dice's tune target is "
                        f"{TARGET} (or {TARGET}=LEVEL, the worth in points)")
    _, eq, level = texts[0].partition("=")
    if not eq:
        return None
    try:
        value = float(level)
    except ValueError:
        raise UserError(f"bad target {texts[0]!r}: LEVEL must be a number of points") from None
    if not 0 < value < 1000:
        raise UserError(f"bad target {texts[0]!r}: LEVEL must be between 0 and 1000 points")
    return value


def tune(values: dict[str, Any], targets: Sequence[str], free_text: str,
         bounds: Sequence[str], n_states: int = STATES, seed: int = DEFAULT_SEED,
         precision: float = PRECISION, side_effects: SideEffectRun | None = None) -> Result:
    """The free cards' points that give each the same worth (``TARGET``); with
    ``side_effects``, its lineup is checked before the search (``tune_effects`` then adds
    what those points do to the other headline figures)."""
    level = parse_target(targets)
    free = parse_cards(free_text, bounds, values)
    _check_run(values, n_states, precision, side_effects)
    low = np.array([f.low for f in free])
    high = np.array([f.high for f in free])
    names = [f.name for f in free]
    seen: dict[tuple, pd.DataFrame] = {}  # free points -> worth_table indexed by card

    def worths(points) -> pd.DataFrame:
        key = tuple(np.round(np.asarray(points, np.float64), 12))
        if key not in seen:
            points_now = {points_param(n): float(p) for n, p in zip(names, key)}
            seen[key] = worth_table({**values, **points_now}, n_states, seed).set_index("card")
        return seen[key]

    def free_worths(points) -> np.ndarray:
        return worths(points).loc[names, "worth"].to_numpy()

    start = np.array([f.start for f in free])
    level = level if level is not None else float(np.median(worths(start)["worth"]))
    _solve(free_worths, start, low, high, level, precision)
    best = min(seen, key=lambda key: float(np.max(np.abs(free_worths(key) - level))))
    in_force = worths([values[points_param(n)] for n in names])
    result = _result(values, free, np.array(best), in_force, seen[best], level, n_states,
                     seed, precision, len(seen))
    return result


def _check_run(values: dict[str, Any], n_states: int, precision: float,
               side_effects: SideEffectRun | None) -> None:
    """One line for a bad precision, state count or side effects' lineup, before the
    search."""
    if not precision > 0:
        raise UserError(f"bad precision {precision!r}: expected a number of points > 0")
    if not 1 <= n_states <= 100_000:
        raise UserError(f"bad state count {n_states}: expected 1 to 100,000 (rounded up to "
                        f"a multiple of {layout.N_COMMON_SETS})")
    if side_effects is not None:
        from analyzer.games.sly_dice.simulation import lineup_of

        lineup_of(side_effects.lineup, values)


def _solve(free_worths, start: np.ndarray, low: np.ndarray, high: np.ndarray, level: float,
           precision: float) -> None:
    """Give every free card the worth ``level``: one secant step per card in log space
    (a card's worth grows about in proportion to its points and little with the
    others'), from the proportional step ``points * level / worth`` until a card has two
    evaluations; a card whose worth stays off the level at a bound is left there. Stops
    when every card is within ``precision`` or pinned, or after ``MAX_EVALUATIONS``."""
    points, before = start.astype(np.float64), None
    for _ in range(MAX_EVALUATIONS):
        worth = np.maximum(free_worths(points), 1e-9)
        miss = worth - level
        pinned = ((points >= high) & (miss < 0)) | ((points <= low) & (miss > 0))
        if np.all((np.abs(miss) <= precision) | pinned):
            return
        step = np.log(level / worth)  # proportional: worth taken as points times a constant
        if before is not None:
            d_log_points = np.log(points) - np.log(before[0])
            d_log_worth = np.log(worth) - np.log(before[1])
            secant = np.abs(d_log_points) > 1e-9
            slope = np.where(secant, d_log_worth / np.where(secant, d_log_points, 1.0), 1.0)
            step = np.where(secant & (slope > 0.05), step / np.maximum(slope, 0.05), step)
        before = (points, worth)
        points = np.clip(points * np.exp(np.clip(step, -1.5, 1.5)), low, high)


def _points_range(points: float, fair: pd.Series, low: float, high: float,
                  met: bool) -> dict[str, float]:
    """The fair points' 95% range from the worth's interval, a worth taken as
    proportional to the points near the answer, within the card's bounds ``low``-``high``
    (an end at a bound: the range reaches past it); none where the card is not ``met``."""
    if not met:
        return {"fair_points_ci95_low": np.nan, "fair_points_ci95_high": np.nan}
    upper = points * fair.worth / fair.ci95_low if fair.ci95_low > 0 else high
    return {"fair_points_ci95_low": max(points * fair.worth / max(fair.ci95_high, 1e-9), low),
            "fair_points_ci95_high": min(upper, high)}


def _answer(points: float, low: float, high: float, met: bool) -> str:
    """A card's fair points as a designer reads them: to the nearest point, or that no
    value within its bounds gives it the level."""
    return f"{points:.0f}" if met else f"no fair value within {low:g}-{high:g}"


def _is_fair_points(found: Any) -> bool:
    """A kept answer of ``fair_points_table``."""
    return (isinstance(found, dict) and set(found) == {"table", "level", "met", "states"}
            and kept.is_split_table(found["table"]))


REPORT_PRECISION = 1.0  # points: the report's table (fewer evaluations than at 0.25)


def fair_points_table(values: dict[str, Any], seed: int, n_states: int = STATES,
                      precision: float = REPORT_PRECISION) -> pd.DataFrame:
    """Every fixed card's fair points (``tune`` of all of them to the median worth, to
    ``precision``), kept on disk per rules, states, precision and seed
    (``analyzer.run.kept``); ``attrs``: level, met, states, precision."""
    def compute() -> dict[str, Any]:
        result = tune(values, [TARGET], ALL_FIXED, [], n_states, seed, precision)
        return {"table": result.tables["cards"].to_dict("split"),
                "level": result.headline["level"], "met": result.headline["met"],
                "states": result.headline["states"]}

    kept_answer = kept.answer("sly-fair-points-3", [values, n_states, seed, precision], compute,
                              _is_fair_points)
    table = pd.DataFrame(kept_answer["table"]["data"], columns=kept_answer["table"]["columns"])
    table.attrs.update({k: kept_answer[k] for k in ("level", "met", "states")},
                       precision=precision)
    return table


def _result(values, free, found, before_table, after_table, level, n_states, seed, precision,
            evaluations) -> Result:
    """The answer: every free card's points and worth before and after (``worth_table``s
    indexed by card), with intervals."""
    rows = []
    for f, points in zip(free, found):
        now, fair = before_table.loc[f.name], after_table.loc[f.name]
        met_card = bool(abs(fair.worth - level) <= precision)
        rows.append({"card": f.name, "parameter": points_param(f.name),
                     "points_in_force": values[points_param(f.name)],
                     "answer": _answer(float(points), f.low, f.high, met_card),
                     "met": met_card,
                     "fair_points": float(points), "fair_points_rounded": 5 * round(points / 5),
                     **_points_range(float(points), fair, f.low, f.high, met_card),
                     "worth_in_force": now.worth, "worth_fair": fair.worth,
                     "worth_fair_ci95_low": fair.ci95_low, "worth_fair_ci95_high": fair.ci95_high,
                     "residual": fair.worth - level})
    table = pd.DataFrame(rows)
    misses = table.residual.abs()
    met = bool((misses <= precision).all())
    notes = [f"worth: the expected points of aiming for the card in a round where it is "
             "open (rolling by the shared rule with only that card open, then claiming it: "
             "its points when the claim stands, the Successful Bluffing card when a bluff "
             "passes) against the accuser of the claim/accuse equilibrium of the public "
             "state the roll leaves, exact over the rolls; mean over "
             f"{_states_used(n_states)} sampled public states (a round at random, the "
             "cards open by then; each common-dice multiset equally often, weighted by its "
             "chance), the same states for every evaluation",
             MODEL_NOTE,
             "answer: the fair points to the nearest point, or 'no fair value' where no "
             "points within the card's bounds give it the level (met: false; fair_points "
             "is then the nearest found); fair_points_rounded: the nearest multiple of 5, "
             "for a printed card; the worth "
             "intervals are over the sampled states; the fair points' range takes a worth "
             "as proportional to the points near the answer, within the bounds (an end at "
             "a bound: the range reaches past it)"]
    if not met:
        worst = table.iloc[int(np.argmax(misses))]
        notes.append(f"not met to {precision:g} points: {worst.card} is worth "
                     f"{worst.worth_fair:.3f} against the level {level:.3f} (at a bound, or "
                     f"the equilibrium jumps there); the nearest values found are given")
    notes += card_notes(values, [layout.card_id(f.name) for f in free])
    return Result(
        "Sly Dice: fair points for the fixed cards",
        headline={"target": TARGET, "level": level, "met": met, "evaluations": evaluations,
                  "states": _states_used(n_states),
                  "values": {points_param(f.name): float(p) for f, p in zip(free, found)}},
        tables={"cards": table},
        meta=run_meta(values, seed, states=n_states, precision=precision),
        notes=notes)
