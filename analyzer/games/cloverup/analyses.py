"""CloverUp analyses as Python functions returning :class:`analyzer.output.Result`:
the exact turn solver, turn and game simulation, and paired what-if comparisons."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analyzer import output
from analyzer.errors import UserError, shortened
from analyzer.games.cloverup.model import Model, Policy, get_model, parse_policy
from analyzer.games.cloverup.params import GAME_ONLY, PARAMS
from analyzer.output import Result
from analyzer.params import assumed_notes
from kernels.cloverup import layout

EV = Policy("optimal", "optimal")


def run_meta(values: dict[str, Any], seed: int | None = None, **extra: Any) -> dict[str, Any]:
    """Metadata of a cloverup result (``analyzer.output.run_meta``)."""
    return output.run_meta("cloverup", PARAMS, values, seed, **extra)


# ---------------------------------------------------------------- exact turn solver

def _reachable(model: Model) -> np.ndarray:
    """Positions reachable from the first roll under some choices (sorted flat indices)."""
    act_ptr, _, res_ptr, res_next, _, _, start_next, _ = model.trans
    seen = set(int(n) for n in start_next if n >= 0)
    stack = list(seen)
    while stack:
        s = stack.pop()
        for a in range(act_ptr[s], act_ptr[s + 1]):
            for n in res_next[res_ptr[a]:res_ptr[a + 1]]:
                if n >= 0 and int(n) not in seen:
                    seen.add(int(n))
                    stack.append(int(n))
    return np.array(sorted(seen), dtype=np.int64)


def action_label(multiset: int, mask: int) -> str:
    """Words for a reroll mask on sorted dice: 'stop', 'reroll all', or 'keep 5 6'."""
    if mask == 0:
        return "stop"
    kept = [layout.FACE_LABELS[f - 1] for i, f in enumerate(layout.MULTISET_DICE[multiset])
            if not (mask >> i) & 1]
    return "keep " + " ".join(kept) if kept else "reroll all"


def policy_table(model: Model, objective: Policy) -> pd.DataFrame:
    """Every reachable position with the best choice, its value and instant-win chance."""
    value, p_iw, policy, _, _ = model.optimize(objective)
    rows = []
    per_multiset = (model.max_rerolls + 1) * 2
    for s in _reachable(model):
        m, rest = divmod(int(s), per_multiset)
        r, ds = divmod(rest, 2)
        rows.append({"dice": layout.dice_label(m), "rerolls_left": r, "double_six": bool(ds),
                     "choice": action_label(m, int(policy[s])), "value": value[s],
                     "p_instant_win": p_iw[s]})
    return pd.DataFrame(rows)


def outcome_table(dist: np.ndarray) -> pd.DataFrame:
    rows = [{"outcome": layout.outcome_label(o), "probability": float(dist[o])}
            for o in range(layout.N_OUTCOMES) if dist[o] > 0]
    return pd.DataFrame(rows)


def reach_table(model: Model) -> pd.DataFrame:
    """Best chance of at least T points for T = 3..18, and the expected-score policy's."""
    ev_dist = model.outcome_distribution(EV)
    rows = []
    for target in range(3, 19):
        objective = Policy(f"reach:{target}", "reach", target)
        _, _, _, prob, p_iw = model.optimize(objective)
        ev_prob = float(ev_dist @ model.utility(objective))
        rows.append({"target": target, "best_probability": prob, "p_instant_win": p_iw,
                     "optimal_policy_probability": ev_prob})
    return pd.DataFrame(rows)


def _turn_objective(objective: str) -> Policy:
    """A turn's objective: ``ev`` (the expected score) or ``reach:T``."""
    try:
        obj = parse_policy(objective)
    except UserError:
        obj = None
    if obj is None or obj.kind not in ("optimal", "reach"):
        raise UserError(f"unknown objective {objective!r}; accepted: ev, reach:T (T = 3..18), "
                        "win")
    return obj


def _headline(obj: Policy, value: float, p_instant_win: float) -> dict[str, Any]:
    """A turn's value under ``obj``: the expected score, or the chance of reaching T."""
    headline: dict[str, Any] = {}
    if obj.kind == "optimal":
        headline["expected_score"] = value
    else:
        headline["probability"] = value
        headline["target"] = obj.arg
    headline["p_instant_win"] = p_instant_win
    return headline


def _label(obj: Policy) -> str:
    return ("highest expected turn score" if obj.kind == "optimal"
            else f"highest chance of at least {obj.arg} points")


def solve(values: dict[str, Any], objective: str = "ev") -> Result:
    """Exact best play of one turn for ``objective`` (``ev`` or ``reach:T``)."""
    obj = _turn_objective(objective)
    model = get_model(values)
    _, _, _, start_value, start_iw = model.optimize(obj)
    return Result(
        title=f"CloverUp exact turn solver: {_label(obj)}",
        headline=_headline(obj, start_value, start_iw),
        tables={"outcomes": outcome_table(model.outcome_distribution(obj)),
                "reach": reach_table(model),
                "policy": policy_table(model, obj)},
        meta=run_meta(values, objective=obj.name),
        notes=assumed_notes(PARAMS, values),
    )


def parse_dice(text: str) -> tuple[int, ...]:
    """Three dice as text ('2 6 C', '2,6,c'): their faces 1-7 (7 a clover), sorted."""
    parts = text.replace(",", " ").upper().split()
    faces = [layout.FACE_LABELS.index(p) + 1 for p in parts if p in layout.FACE_LABELS]
    if len(parts) != 3 or len(faces) != 3:
        raise UserError(f"bad dice {shortened(text)!r}: expected three of 1 to 6 and C "
                        "(a clover), e.g. '2 6 C'")
    return tuple(sorted(faces))


def position(values: dict[str, Any], objective: str, dice: str, rerolls_left: int,
             double_six: bool) -> Result:
    """The best choice at one position of a turn (``dice`` showing, ``rerolls_left``, the
    double-six rule started or not), with its value under ``objective``."""
    obj = _turn_objective(objective)
    model = get_model(values)
    multiset = layout.MULTISET_INDEX[tuple(f - 1 for f in parse_dice(dice))]
    label = layout.dice_label(multiset)
    where = f"{label} with {rerolls_left} re-roll{'s' if rerolls_left != 1 else ''} left" + (
        " and the double-six rule started" if double_six else "")
    state = (multiset * (model.max_rerolls + 1) + rerolls_left) * 2 + int(double_six)
    if not 0 <= rerolls_left <= model.max_rerolls or state not in set(_reachable(model)):
        raise UserError(f"no turn reaches {where} with a choice left under these rules")
    value, p_iw, policy, _, _ = model.optimize(obj)
    headline = {"dice": label, "rerolls_left": rerolls_left, "double_six": double_six,
                "best_choice": action_label(multiset, int(policy[state])),
                **_headline(obj, float(value[state]), float(p_iw[state]))}
    return Result(title=f"CloverUp, the {_label(obj)}: the best play of {where}",
                  headline=headline, meta=run_meta(values, objective=obj.name),
                  notes=assumed_notes(PARAMS, values))


def solve_game(values: dict[str, Any]) -> Result:
    """Exact two-player game values of the win policy against the expected-score policy."""
    model = get_model(values)
    pairs = [("win", "win"), ("win", "optimal"), ("optimal", "win"), ("optimal", "optimal")]
    rows = []
    for first, second in pairs:
        p = model.game_win_chance(parse_policy(first), parse_policy(second))
        rows.append({"first_seat": first, "second_seat": second, "p_first_seat_wins": p})
    table = pd.DataFrame(rows)
    p = table["p_first_seat_wins"].to_numpy()
    headline = {"p_win_vs_optimal": 0.5 * (p[1] + 1 - p[2]),
                "p_first_seat_win_vs_itself": p[0],
                "p_optimal_first_seat_win_vs_itself": p[3]}
    return Result(title="CloverUp exact two-player game solver (win policy)", headline=headline,
                  tables={"matchups": table}, meta=run_meta(values),
                  notes=assumed_notes(PARAMS, values, GAME_ONLY)
                  + ["a shared win counts one half; the win policy maximises the chance to win "
                     "against an opponent who does the same"])
