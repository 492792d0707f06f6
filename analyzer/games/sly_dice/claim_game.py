"""The exact claim/accuse game of one Sly Dice round at one public state, solved as a
linear program (``kernels.sly_dice.claim_lp``).

The public state is what the next player sees: the common dice, the claimant's locked dice
and the cards the claimant may claim. The claimant's *type* is its hidden dice (a multiset
of ``3 - len(locked)`` dice) with a prior over types: fair dice (``"uniform"``) or the
hidden dice of a claimant that rolled by the shared rolling rule and ended with exactly
these locked dice (``"rolling"``). The claimant makes one claim, possibly false; the
accuser sees only the claim and accuses or not.

The game is one round, myopic and zero-sum in points of the claimant relative to the
accuser: the claim's points, the Successful Bluffing card (a false claim nobody accuses)
and the False Accusation card (an accusation of a true claim). Later rounds are not valued:
the card taken off the table and the escalation of the bonus cards do not change the
payoffs beyond the next card's worth.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from analyzer.errors import UserError
from analyzer.games.sly_dice.model import Policy, get_model, parse_policy
from kernels.sly_dice import layout, play
from kernels.sly_dice.bots import rolling_ends as rolling_ends_kernel
from kernels.sly_dice.claim_lp import OPTIMAL, solve_claim_lp

PRIORS = ("uniform", "rolling")
EQUILIBRIUM = "equilibrium"  # a policy name of exploitability_table: the solution itself


@dataclass
class ClaimGame:
    """One public state's claim/accuse game.

    ``types``: the hidden multisets (tuples of faces, ascending), in ``MS_COUNTS[h]`` order;
    ``prior``: float64[T]; ``claims``: (card, k) pairs; ``truth``: bool[T, C];
    ``claim_points``: float64[C] points of each claim (Higher or Lower: its expected
    points); ``accusable``: bool[C] (False for Higher or Lower and for claims the visible
    dice prove); ``pay_accused`` / ``pay_not``: float64[T, C] points of the claimant
    relative to the accuser when the claim is / is not accused; ``plausibility``:
    float64[C] chance each claim holds with fair hidden dice; ``six_index``: int64[T]
    index of the six dice of each type in ``MS_COUNTS[6]``.
    """

    values: dict[str, Any]
    common: list[int]
    locked: list[int]
    cards: list[int]
    types: list[tuple[int, ...]]
    prior: np.ndarray
    prior_fallback: bool
    claims: list[tuple[int, int]]
    claim_names: list[str]
    claim_points: np.ndarray
    truth: np.ndarray
    accusable: np.ndarray
    pay_accused: np.ndarray
    pay_not: np.ndarray
    plausibility: np.ndarray
    six_index: np.ndarray
    open_mask: int
    hol_ev: float
    bluff_next: float
    false_next: float


@dataclass
class ClaimGameSolution:
    """The equilibrium of a ``ClaimGame``.

    ``value``: the game value (points of the claimant relative to the accuser);
    ``bluff``: float64[T, C] the claimant's strategy per type (rows sum to 1; types with
    prior 0 get a best response to ``accuse``); ``accuse``: float64[C] the accuser's
    chance of accusing each claim (0 for unaccusable claims); ``p_claim``: float64[C];
    ``p_true_given_claim``: float64[C] (NaN for claims never made); ``bluff_rate``: the
    chance of a false claim; ``honest_value``: the value of the honest claimant against
    an accuser who best-responds per claim; ``game``: the game solved (its fields
    ``types``, ``prior``, ``claims``, ``claim_names``, ``claim_points``, ``truth`` and
    ``prior_fallback`` are repeated here).
    """

    game: ClaimGame
    value: float
    bluff: np.ndarray
    accuse: np.ndarray
    p_claim: np.ndarray
    p_true_given_claim: np.ndarray
    bluff_rate: float
    honest_value: float

    @property
    def types(self) -> list[tuple[int, ...]]:
        return self.game.types

    @property
    def prior(self) -> np.ndarray:
        return self.game.prior

    @property
    def claims(self) -> list[tuple[int, int]]:
        return self.game.claims

    @property
    def claim_names(self) -> list[str]:
        return self.game.claim_names

    @property
    def claim_points(self) -> np.ndarray:
        return self.game.claim_points

    @property
    def truth(self) -> np.ndarray:
        return self.game.truth

    @property
    def prior_fallback(self) -> bool:
        return self.game.prior_fallback


# --------------------------------------------------------------------------- inputs


def _check_faces(dice: Sequence[Any], what: str, sizes: range) -> list[int]:
    dice = list(dice)
    if len(dice) not in sizes:
        want = str(sizes[0]) if len(sizes) == 1 else f"{sizes[0]} to {sizes[-1]}"
        raise UserError(f"{what} must have {want} dice, got {len(dice)}")
    for f in dice:
        if isinstance(f, bool) or not isinstance(f, (int, np.integer)) or not 1 <= f <= 6:
            raise UserError(f"{what}: bad die face {f!r} (expected a whole number 1..6)")
    return sorted(int(f) for f in dice)


def _check_cards(cards: Sequence[Any]) -> list[int]:
    cards = list(cards)
    if not cards:
        raise UserError("cards: no open card to claim (give at least one card id 0..17)")
    for c in cards:
        if isinstance(c, bool) or not isinstance(c, (int, np.integer)) \
                or not 0 <= c < layout.N_CARDS:
            raise UserError(f"cards: bad card id {c!r} (expected 0..{layout.N_CARDS - 1})")
    return sorted({int(c) for c in cards})


def _check_count(n: Any, what: str) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
        raise UserError(f"{what}: expected a whole number >= 0, got {n!r}")
    return int(n)


# --------------------------------------------------------------------------- prior


def rolling_ends(values: dict[str, Any], common: list[int], open_mask: int
                 ) -> dict[tuple[int, ...], np.ndarray]:
    """Where a claimant rolling by the shared rolling rule for the cards of ``open_mask``
    ends, exactly: for each locked multiset (a sorted tuple of 0-2 faces) it can end with,
    the chance (float64[len(MS_CODE[h])], ``h = 3 - len(locked)``) that it ends with those
    locked dice and each hidden multiset (order of ``MS_COUNTS[h]``)."""
    model = get_model(values)
    c_idx = layout.CODE_INDEX[layout.code_of(common)]
    none, one, two = np.zeros(len(layout.MS_CODE[3])), np.zeros((6, len(layout.MS_CODE[2]))), \
        np.zeros((6, 6))
    rolling_ends_kernel(c_idx, open_mask, model.weights, model.q1, model.q2, values["rerolls"],
                        np.zeros(layout.DICE_CARDS, np.int64), none, one, two)
    out = {(): none}
    for a in range(1, 7):
        out[(a,)] = one[a - 1]
        for b in range(a, 7):
            out[(a, b)] = np.full(6, two[a - 1, b - 1])
    return {locked: mass for locked, mass in out.items() if mass.any() or not locked}


def rolling_mass(values: dict[str, Any], common: list[int], locked: list[int],
                 open_mask: int) -> np.ndarray:
    """Chance (float64[len(MS_CODE[h])], unnormalised) that a claimant rolling by the
    shared rolling rule ends with exactly ``locked`` dice and each hidden multiset of
    ``h = 3 - len(locked)`` dice (order of ``MS_COUNTS[h]``). Sums to the chance of
    ending with these locked dice."""
    ends = rolling_ends(values, common, open_mask)
    return ends.get(tuple(sorted(locked)), np.zeros(len(layout.MS_CODE[3 - len(locked)])))


def _prior(values, common, locked, open_mask, prior: str) -> tuple[np.ndarray, bool]:
    """(float64[T] prior over hidden multisets, fallback flag)."""
    uniform = layout.MS_PROB[3 - len(locked)].copy()
    if prior == "uniform":
        return uniform, False
    mass = rolling_mass(values, common, locked, open_mask)
    total = mass.sum()
    if total <= 0.0:
        return uniform, True
    return mass / total, False


# --------------------------------------------------------------------------- claims


def claim_name(card: int, k: int) -> str:
    """``threes x2`` for number cards, the card's name otherwise."""
    name = layout.CARD_NAMES[card]
    return f"{name} x{k}" if card < layout.N_NUMBER_CARDS else name


def _claims(cards: list[int], max_counts: np.ndarray) -> list[tuple[int, int]]:
    """Every claim on the open ``cards``; number card c with k = 1..max_counts[c]+1
    (capped at 6), where ``max_counts``: int64[7] is the most dice of each face any type
    can show."""
    out = []
    for card in cards:
        if card < layout.N_NUMBER_CARDS:
            top = min(6, int(max_counts[card + 1]) + 1)
            out += [(card, k) for k in range(1, top + 1)]
        else:
            out.append((card, 1))
    return out


def _truth(claims, counts6: np.ndarray, made6: np.ndarray) -> np.ndarray:
    """bool[T, C]: whether each type's six dice (``counts6`` int64[T, 7], ``made6``
    int64[T] fixed-card bit masks) make each claim; Higher or Lower is always true."""
    out = np.zeros((counts6.shape[0], len(claims)), bool)
    for j, (card, k) in enumerate(claims):
        if card < layout.N_NUMBER_CARDS:
            out[:, j] = counts6[:, card + 1] >= k
        elif card == layout.HIGHER_OR_LOWER:
            out[:, j] = True
        else:
            out[:, j] = (made6 >> card) & 1 == 1
    return out


def build_game(values: dict[str, Any], common: Sequence[int], locked: Sequence[int],
               cards: Sequence[int], prior: str = "rolling", bluffs_held: int = 0,
               falses_held: int = 0) -> ClaimGame:
    """The claim/accuse game of one public state (inputs as in ``solve_state``)."""
    common = _check_faces(common, "common", range(3, 4))
    locked = _check_faces(locked, "locked", range(3))
    cards = _check_cards(cards)
    bluffs_held = _check_count(bluffs_held, "bluffs_held")
    falses_held = _check_count(falses_held, "falses_held")
    if prior not in PRIORS:
        raise UserError(f"unknown prior {prior!r}; accepted: {', '.join(PRIORS)}")
    model = get_model(values)
    h = 3 - len(locked)
    open_mask = sum(1 << c for c in cards)
    prior_probs, fallback = _prior(values, common, locked, open_mask, prior)

    visible = layout.counts_of(common + locked)
    hidden = layout.MS_COUNTS[h]
    counts6 = visible[None, :] + hidden
    six_index = layout.CODE_INDEX[layout.code_of(common + locked) + layout.MS_CODE[h]]
    claims = _claims(cards, counts6.max(axis=0))
    truth = _truth(claims, counts6, model.made[six_index])

    hol_ev = float(model.hol_success[sum(common)] * model.points[layout.HIGHER_OR_LOWER])
    points = np.array([hol_ev if card == layout.HIGHER_OR_LOWER
                       else (card + 1) * k if card < layout.N_NUMBER_CARDS
                       else model.points[card] for card, k in claims], np.float64)
    accusable = np.array([card != layout.HIGHER_OR_LOWER for card, _ in claims]) \
        & ~truth.all(axis=0)  # true for every hidden roll: the visible dice prove it
    bluff_next = float(model.bonus[0] + model.bonus[1] * bluffs_held)
    false_next = float(model.bonus[2] + model.bonus[3] * falses_held)
    pay_not = points[None, :] + np.where(truth, 0.0, bluff_next)
    pay_accused = np.where(truth, points[None, :] + false_next, 0.0)
    pay_accused[:, ~accusable] = pay_not[:, ~accusable]

    plaus_row = model.plausibility[len(locked), layout.CODE_INDEX[layout.code_of(common
                                                                                 + locked)]]
    plausibility = np.array([plaus_row[card, k] for card, k in claims])
    types = [tuple(f for f in range(1, 7) for _ in range(int(row[f]))) for row in hidden]
    return ClaimGame(
        values=dict(values), common=common, locked=locked, cards=cards, types=types,
        prior=prior_probs, prior_fallback=fallback, claims=claims,
        claim_names=[claim_name(c, k) for c, k in claims], claim_points=points,
        truth=truth, accusable=accusable, pay_accused=pay_accused, pay_not=pay_not,
        plausibility=plausibility, six_index=six_index.astype(np.int64),
        open_mask=open_mask, hol_ev=hol_ev, bluff_next=bluff_next, false_next=false_next)


# --------------------------------------------------------------------------- values


def _as_game(game: ClaimGame | ClaimGameSolution) -> ClaimGame:
    return game.game if isinstance(game, ClaimGameSolution) else game


def claim_totals(game, bluff: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(A, N): float64[C] points of the claimant from each claim when it is always /
    never accused, for the claimant strategy ``bluff`` (float64[T, C], rows sum to 1)."""
    g = _as_game(game)
    joint = g.prior[:, None] * np.asarray(bluff, np.float64)
    return (joint * g.pay_accused).sum(axis=0), (joint * g.pay_not).sum(axis=0)


def strategy_value(game, bluff: np.ndarray, accuse: np.ndarray) -> float:
    """Points of the claimant when it plays ``bluff`` (float64[T, C]) and the accuser
    accuses each claim with chance ``accuse`` (float64[C])."""
    accused, not_accused = claim_totals(game, bluff)
    q = np.asarray(accuse, np.float64)
    return float((q * accused + (1.0 - q) * not_accused).sum())


def own_points(game: ClaimGame, accuse: np.ndarray) -> np.ndarray:
    """float64[T, C]: the claimant's own points from each claim of each type against
    ``accuse`` (float64[C]): the card's points when the claim stands (true, or not
    accused) and the Successful Bluffing card when a false claim passes."""
    q = np.where(game.accusable, np.asarray(accuse, np.float64), 0.0)
    return q * np.where(game.truth, game.claim_points[None, :], 0.0) + (1.0 - q) * game.pay_not


def _claimant_payoffs(game: ClaimGame, accuse: np.ndarray) -> np.ndarray:
    """float64[T, C]: each type's points from each claim against ``accuse``."""
    q = np.where(game.accusable, np.asarray(accuse, np.float64), 0.0)
    return q * game.pay_accused + (1.0 - q) * game.pay_not


def claimant_best_response(game, accuse_probs: np.ndarray) -> float:
    """Points of a claimant that best-responds, type by type, to the accuser's chances
    ``accuse_probs`` (float64[C])."""
    g = _as_game(game)
    return float(g.prior @ _claimant_payoffs(g, accuse_probs).max(axis=1))


def accuser_best_response(game, bluff_strategy: np.ndarray) -> float:
    """Points of the claimant playing ``bluff_strategy`` (float64[T, C]) when the accuser
    best-responds claim by claim."""
    accused, not_accused = claim_totals(game, bluff_strategy)
    return float(np.minimum(accused, not_accused).sum())


# --------------------------------------------------------------------------- LP


def equilibrium_lp(game: ClaimGame) -> tuple[float, np.ndarray, np.ndarray]:
    """Solve the LP over the types with prior > 0: max sum_c z_c with
    z_c <= A_c(x) (accusable claims only), z_c <= N_c(x), sum_c x[t, c] = prior[t], x >= 0
    (``kernels.sly_dice.claim_lp``). Returns (value, x float64[T, C] joint chances,
    accuse float64[C] from the duals of the A rows)."""
    support = np.flatnonzero(game.prior > 0)
    n_claims = len(game.claims)
    joint = np.zeros((len(support), n_claims))
    accuse = np.zeros(n_claims)
    status, value = solve_claim_lp(game.pay_accused[support], game.pay_not[support],
                                   game.prior[support], game.accusable, joint, accuse)
    if status != OPTIMAL:
        raise RuntimeError(f"claim game LP failed (simplex status {status})")
    x = np.zeros((len(game.types), n_claims))
    x[support] = joint
    return float(value), x, accuse


def _behaviour(game: ClaimGame, joint: np.ndarray, accuse: np.ndarray) -> np.ndarray:
    """float64[T, C] claimant strategy from joint chances; types with prior 0 play a
    best response to ``accuse``."""
    bluff = np.zeros_like(joint)
    has = game.prior > 0
    bluff[has] = joint[has] / joint[has].sum(axis=1, keepdims=True)
    best = _claimant_payoffs(game, accuse).argmax(axis=1)
    bluff[~has, best[~has]] = 1.0
    return bluff


def solve_game(game: ClaimGame) -> ClaimGameSolution:
    """The equilibrium of ``game`` (see ``ClaimGameSolution``)."""
    value, joint, accuse = equilibrium_lp(game)
    bluff = _behaviour(game, joint, accuse)
    p_claim = joint.sum(axis=0)
    true_mass = (joint * game.truth).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_true = np.where(p_claim > 1e-12, true_mass / p_claim, np.nan)
    honest = claimant_strategy(game, -1.0)
    return ClaimGameSolution(
        game=game, value=value, bluff=bluff, accuse=accuse, p_claim=p_claim,
        p_true_given_claim=p_true, bluff_rate=float((joint * ~game.truth).sum()),
        honest_value=accuser_best_response(game, honest))


def solve_state(values: dict[str, Any], common: Sequence[int], locked: Sequence[int],
                cards: Sequence[int], prior: str = "rolling", bluffs_held: int = 0,
                falses_held: int = 0) -> ClaimGameSolution:
    """The exact equilibrium of the one-round claim/accuse game at a public state.

    ``common``: 3 faces 1..6; ``locked``: 0..2 faces; ``cards``: open card ids the
    claimant may claim (``layout``; 17 = Higher or Lower); ``prior``: ``"rolling"`` (the
    hidden dice of a claimant that rolled by the shared rule and ended with these locked
    dice; fair dice if it never does, flagged ``prior_fallback``) or ``"uniform"`` (fair
    dice); ``bluffs_held`` / ``falses_held``: Successful Bluffing cards the claimant holds /
    False Accusation cards the accuser holds (they set the next card's worth).
    Myopic: one round, zero-sum in points; later rounds are not valued.
    A ``UserError`` for bad inputs."""
    return solve_game(build_game(values, common, locked, cards, prior, bluffs_held,
                                 falses_held))


# --------------------------------------------------------------------------- policies


def claimant_strategy(game, bluff_below: float) -> np.ndarray:
    """float64[T, C] pure strategy of the bot claimant (``play.choose_claim``) that bluffs
    when its best honest option is worth less than ``bluff_below`` (negative: honest,
    bluffing only when it has nothing to claim)."""
    g = _as_game(game)
    model = get_model(g.values)
    index = {claim: j for j, claim in enumerate(g.claims)}
    visible = layout.code_of(g.common + g.locked)
    plaus_row = model.plausibility[len(g.locked), layout.CODE_INDEX[visible]]
    out = np.zeros((len(g.types), len(g.claims)))
    for t, six in enumerate(g.six_index):
        card, k, _, _ = play.choose_claim(layout.MS_COUNTS[6][six], model.made[six],
                                          g.open_mask, g.hol_ev, model.points,
                                          float(bluff_below), plaus_row, g.bluff_next)
        # card -1: nothing to claim (possible only with 0-point cards): its best true claim
        j = index[(int(card), int(k))] if card >= 0 else int(
            np.argmax(np.where(g.truth[t], g.pay_not[t], -np.inf)))
        out[t, j] = 1.0
    return out


def _rational_accuse(game: ClaimGame) -> np.ndarray:
    """float64[C] (0/1) accusations that gain expected points against the honest claimant:
    accuse iff (1 - p) (points + bluff_next) > p false_next, p = P(true | claim) under the
    honest claimant and the prior (the fair-dice plausibility for claims it never makes)."""
    joint = game.prior[:, None] * claimant_strategy(game, -1.0)
    made = joint.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(made > 1e-12, (joint * game.truth).sum(axis=0) / made,
                     game.plausibility)
    gain = (1.0 - p) * (game.claim_points + game.bluff_next)
    return (game.accusable & (gain > p * game.false_next)).astype(np.float64)


def _accuser_strategy(game: ClaimGame, mode: int, below: float) -> np.ndarray:
    if mode == play.THRESHOLD:
        return (game.accusable & (game.plausibility < below)).astype(np.float64)
    if mode == play.EXPECTED:
        return _rational_accuse(game)
    return np.zeros(len(game.claims))


def policy_strategies(game, name: str | Policy) -> tuple[np.ndarray, np.ndarray]:
    """(bluff float64[T, C], accuse float64[C]) of a named policy at this state: its
    claiming and its accusing (every policy has both: ``honest`` and ``bluffer:B`` never
    accuse, ``accuser:A`` and ``rational`` claim honestly). Names as in
    ``model.parse_policy`` (``stable`` excepted), plus ``equilibrium`` for the solution
    itself (``game`` must then be a ``ClaimGameSolution``). ``rational`` judges a claim by
    the chance it holds under the honest claimant, also inside ``sly:B:rational``."""
    if isinstance(name, str) and name.strip().lower() == EQUILIBRIUM:
        if not isinstance(game, ClaimGameSolution):
            raise UserError("the equilibrium policy needs a solved game")
        return game.bluff, game.accuse
    g = _as_game(game)
    policy = name if isinstance(name, Policy) else parse_policy(name)
    return (claimant_strategy(g, policy.bluff_below),
            _accuser_strategy(g, policy.accuse_mode, policy.accuse_below))


def exploitability_table(solution: ClaimGameSolution, names: Sequence[str | Policy]
                         ) -> pd.DataFrame:
    """Exploitability (points, >= 0) of each named policy at the state: ``as_claimant`` =
    value - (its claiming against a best-responding accuser), ``as_accuser`` = (a
    best-responding claimant against its accusing) - value. Columns policy, as_claimant,
    as_accuser."""
    rows = []
    for name in names:
        bluff, accuse = policy_strategies(solution, name)
        rows.append({"policy": name if isinstance(name, str) else name.name,
                     "as_claimant": solution.value - accuser_best_response(solution, bluff),
                     "as_accuser": claimant_best_response(solution, accuse) - solution.value})
    return pd.DataFrame(rows, columns=["policy", "as_claimant", "as_accuser"])
