"""The exact claim/accuse equilibrium of Sly Dice (``claim_game``) as results: one public
state in full, or an overview over public states drawn as games reach them, with the
exploitability of every named policy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analyzer import stats
from analyzer.run import kept
from analyzer.games.sly_dice import claim_game
from analyzer.games.sly_dice.fictitious import cached_stable
from analyzer.games.sly_dice.model import Policy, card_notes, get_model, rounds_for, run_meta
from analyzer.output import Result
from analyzer.seeding import check_seed
from kernels.rng import turn_stream
from kernels.sly_dice import layout, play

NAMED = ("honest", "bluffer:10", "bluffer:20", "accuser:0.3", "sly:10:0.3", "rational")
STATE_STREAM = 7  # the seed stream of the sampled public states
MODEL_NOTE = ("one round between the claimant and the next player, zero-sum in points "
              "(claim, Successful Bluffing card, False Accusation card; later rounds not "
              "valued); the hidden dice follow the rolling rule given the locked dice")


def named_policies(values: dict[str, Any]) -> list[str | Policy]:
    """The policies whose exploitability is reported: ``NAMED``, and ``stable`` when
    fictitious play has found it for these rules (``sly-dice equilibrium --grid``)."""
    stable = cached_stable(values)
    return list(NAMED) + ([stable] if stable is not None else [])


def _faces(code: int) -> list[int]:
    """The faces of a multiset code, ascending."""
    return [f for f in range(1, 7) for _ in range((code // int(layout.FACE_CODE[f])) % 7)]


def sample_states(values: dict[str, Any], n: int, seed: int,
                  commons: list[list[int]] | None = None) -> list[dict[str, Any]]:
    """``n`` public states as a claimant meets them: a round drawn at random, the cards
    open by then (Higher or Lower plus 3 + round cards of a shuffled deck), the common dice
    (random, or ``commons[i]`` for state i), and the dice the claimant locked rolling by
    the shared rule for those cards."""
    model = get_model(values)
    rng = np.random.default_rng([check_seed(seed), STATE_STREAM])
    key = np.uint64(rng.integers(0, 2**63))
    work = np.zeros(layout.DICE_CARDS, np.int64)
    rounds = rounds_for(values)
    states = []
    for i in range(n):
        rnd = int(rng.integers(0, rounds))
        deck = rng.permutation(layout.DICE_CARDS)
        cards = sorted(int(c) for c in deck[:min(3 + rnd, layout.DICE_CARDS)])
        common = sorted(int(f) for f in rng.integers(1, 7, 3))
        common = common if commons is None else sorted(commons[i])
        mask = sum(1 << c for c in cards)
        c_idx = layout.CODE_INDEX[layout.code_of(common)]
        _, locked, _ = play.roll_own(np.uint64(turn_stream(key, i, 0)), c_idx, mask, model.weights,
                                     model.q1, model.q2, values["rerolls"], work)
        states.append({"common": common, "locked": _faces(int(locked)),
                       "cards": cards + [layout.HIGHER_OR_LOWER]})
    return states


def state_result(values: dict[str, Any], common: list[int], locked: list[int],
                 cards: list[int], prior: str = "rolling", bluffs_held: int = 0,
                 falses_held: int = 0) -> Result:
    """The equilibrium of one public state: its value, every claim's chance, truth and
    accusation probability, the claimant's mixed strategy per hidden roll, and the
    exploitability of the named policies there."""
    game = claim_game.solve_state(values, common, locked, cards, prior, bluffs_held,
                                  falses_held)
    claims = pd.DataFrame({"claim": game.claim_names, "p_claim": game.p_claim,
                           "p_true_given_claim": game.p_true_given_claim,
                           "accuse_probability": game.accuse})
    rows = []
    for t, hidden in enumerate(game.types):
        for c, name in enumerate(game.claim_names):
            if game.prior[t] > 0 and game.bluff[t, c] > 1e-9:
                rows.append({"hidden": " ".join(map(str, hidden)), "p_hidden": game.prior[t],
                             "claim": name, "true": bool(game.truth[t, c]),
                             "probability": game.bluff[t, c]})
    notes = card_notes(values, cards) + [MODEL_NOTE]
    if game.prior_fallback:
        notes.append("the rolling rule never ends with these locked dice: the hidden dice "
                     "are taken as fair dice")
    return Result(
        f"Sly Dice: the claim/accuse equilibrium, common {common}, locked {locked or '-'}",
        headline={"value": game.value, "honest_value": game.honest_value,
                  "bluff_rate": game.bluff_rate},
        tables={"claims": claims.sort_values("p_claim", ascending=False),
                "strategy": pd.DataFrame(rows),
                "exploitability": claim_game.exploitability_table(
                    game, named_policies(values))},
        meta=run_meta(values, common=common, locked=locked,
                      cards=[layout.CARD_NAMES[c] for c in cards], prior=prior),
        notes=notes)


def overview(values: dict[str, Any], states: int, seed: int) -> dict[str, Any]:
    """The equilibrium over ``states`` sampled public states: mean value, honest value,
    bluff rate and accusation rate with 95% intervals, the exploitability of every named
    policy, and the equilibrium's bluffing and accusing by claim worth. Exact per state,
    so kept on disk per rules, states and seed (``analyzer.run.kept``)."""
    tables = kept.answer("sly-equilibrium-overview", [values, states, seed],
                         lambda: {name: table.to_dict("split") for name, table in
                                  _overview(values, states, seed).items() if name != "states"},
                         lambda found: isinstance(found, dict)
                         and all(map(kept.is_split_table, found.values())))
    return {**{name: pd.DataFrame(t["data"], columns=t["columns"])
               for name, t in tables.items()}, "states": states}


def _overview(values: dict[str, Any], states: int, seed: int) -> dict[str, Any]:
    per_state, exploit, by_claim = [], [], []
    policies = named_policies(values)
    for state in sample_states(values, states, seed):
        game = claim_game.solve_state(values, state["common"], state["locked"],
                                      state["cards"])
        accused = float(np.dot(game.p_claim, game.accuse))
        per_state.append({"value": game.value, "honest_value": game.honest_value,
                          "bluff_rate": game.bluff_rate, "accusation_rate": accused})
        exploit.append(claim_game.exploitability_table(game, policies))
        for c, name in enumerate(game.claim_names):
            if game.p_claim[c] > 1e-9:
                by_claim.append({"claim_points": game.claim_points[c],
                                 "weight": game.p_claim[c],
                                 "false": game.p_claim[c] * (1 - game.p_true_given_claim[c]),
                                 "accused": game.p_claim[c] * game.accuse[c]})
    summary = _mean_table(pd.DataFrame(per_state))
    table = pd.concat(exploit)
    rows = []
    for name in table.policy.unique():
        row = {"policy": name}
        means = _mean_table(table[table.policy == name][["as_claimant", "as_accuser"]])
        for m in means.itertuples():
            row.update({m.measure: m.mean, f"{m.measure}_ci95_low": m.ci95_low,
                        f"{m.measure}_ci95_high": m.ci95_high})
        rows.append(row)
    exploitability = pd.DataFrame(rows)
    return {"summary": summary, "exploitability": exploitability,
            "by_worth": _by_worth(pd.DataFrame(by_claim)), "states": states}


def _mean_table(df: pd.DataFrame) -> pd.DataFrame:
    """Mean and 95% interval of each column of ``df`` (one row per sampled state)."""
    rows = []
    for col in df.columns:
        x = df[col].to_numpy(float)
        mean, se = float(x.mean()), float(x.std(ddof=1) / np.sqrt(len(x)))
        low, high = stats.ci95(mean, se)
        rows.append({"measure": col, "mean": mean, "ci95_low": low, "ci95_high": high})
    return pd.DataFrame(rows)


def _by_worth(claims: pd.DataFrame) -> pd.DataFrame:
    """The equilibrium's false-claim and accusation rates by what the claim is worth."""
    bins = [0, 5, 10, 15, 20, 30, 1000]
    labels = ["under 5", "5-9", "10-14", "15-19", "20-29", "30 and more"]
    claims["worth"] = pd.cut(claims["claim_points"], bins, right=False, labels=labels)
    grouped = claims.groupby("worth", observed=True)[["weight", "false", "accused"]].sum()
    return pd.DataFrame({"claim_worth": grouped.index.astype(str),
                         "share_of_claims": grouped["weight"] / grouped["weight"].sum(),
                         "false_given_claim": grouped["false"] / grouped["weight"],
                         "accused_given_claim": grouped["accused"] / grouped["weight"]})


def overview_result(values: dict[str, Any], states: int, seed: int) -> Result:
    out = overview(values, states, seed)
    summary = out["summary"].set_index("measure")["mean"]
    return Result(
        f"Sly Dice: the claim/accuse equilibrium over {states} public states",
        headline={"value": summary["value"], "honest_value": summary["honest_value"],
                  "bluff_rate": summary["bluff_rate"],
                  "accusation_rate": summary["accusation_rate"]},
        tables={"summary": out["summary"], "exploitability": out["exploitability"],
                "by_claim_worth": out["by_worth"]},
        meta=run_meta(values, seed, states=states),
        notes=card_notes(values, list(range(layout.N_CARDS))) + [
            MODEL_NOTE,
            "states: a round at random, the cards open by then, random common dice and the "
            "dice the claimant locked; exact LP per state (a claim the equilibrium never "
            "makes: the most suspicious accuser it allows), means over states with 95% "
            "intervals",
            "exploitability: how many points a best response gains per claim against the "
            "policy's claiming (as_claimant) or accusing (as_accuser), beyond the "
            "equilibrium value; rational trusts claims as an honest claimant makes them",
            "stable is listed once `sly-dice equilibrium --grid` has found it for these "
            "rules"])
