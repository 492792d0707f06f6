"""The CloverUp model built from the rule values: probabilities, rule tables,
the turn's transition structure and every policy as a lookup table (rules page:
``docs/rules/cloverup.md``)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

from analyzer.run import kept
from analyzer.errors import UserError
from analyzer.games.cloverup.params import accepted_policies
from kernels.cloverup import game, layout, rules, solve
from kernels.rng import make_die

WIN_TABLE_LIMIT = 400_000_000  # bytes; the two-player solver's policy table


@dataclass(frozen=True)
class Policy:
    """A parsed policy name: ``kind`` is one of optimal, reach, win, threshold, never."""

    name: str
    kind: str
    arg: int = 0


def parse_policy(name: str) -> Policy:
    """Parse a policy name; a ``UserError`` listing the accepted names otherwise."""
    text = name.strip().lower()
    kind, _, arg = text.partition(":")
    bounds = {"reach": (3, 18), "threshold": (1, 7)}
    if kind in ("optimal", "ev", "win", "never") and not arg:
        return Policy(text if kind != "ev" else "optimal", "optimal" if kind == "ev" else kind)
    if kind in bounds and arg:
        lo, hi = bounds[kind]
        if arg.isdigit() and lo <= int(arg) <= hi:
            return Policy(text, kind, int(arg))
    raise UserError(f"unknown policy {name!r}; accepted: {accepted_policies()}")


class Model:
    """Everything the kernels need for one set of rule values, built once and cached."""

    def __init__(self, values: dict[str, Any]):
        self.values = dict(values)
        weights = np.asarray(values["weights"], dtype=np.float64)
        cumulative = np.cumsum(weights)
        self.probs = weights / cumulative[-1]
        self.die = make_die(cumulative / cumulative[-1])  # last cdf entry exactly 1.0
        cb = values["clover_bonus_rerolls"]
        dsb = values["double_six_bonus_rerolls"] if values["double_six_rule"] else 0
        self.max_rerolls = values["rerolls"] + 2 * cb + dsb
        self.rules = np.array([values["rerolls"], cb, dsb, self.max_rerolls], np.int64)
        self.stop_outcome, self.roll_end, self.ds_start = rules.turn_tables(
            values["one_clover_floor"], values["one_clover_triples_from"],
            values["double_six_rule"])
        self.trans = solve.build_transitions(self.probs, self.rules, self.roll_end,
                                             self.ds_start, self.stop_outcome)
        self.n_positions = self.trans[0].shape[0] - 1
        self.max_diff = layout.MAX_POINTS * (values["rounds"] + 1)

    @property
    def table_shape(self) -> tuple[int, int, int]:
        return (layout.N_MULTISETS, self.max_rerolls + 1, 2)

    def utility(self, objective: Policy) -> np.ndarray:
        """Terminal utility of each outcome: points for ``optimal``, 0/1 for ``reach``."""
        points = np.arange(layout.N_OUTCOMES, dtype=np.float64)
        points[layout.TRIPLE_SIX] = 18.0
        points[layout.INSTANT_WIN] = self.values["instant_win_points"]
        if objective.kind == "reach":
            return (points >= objective.arg).astype(np.float64)
        return points

    @functools.lru_cache(maxsize=32)
    def optimize(self, objective: Policy):
        """``(value[S], p_instant_win[S], policy int8[S], start_value, start_p_iw)``."""
        return solve.optimize_turn(self.trans, self.stop_outcome, self.utility(objective))

    @functools.lru_cache(maxsize=32)
    def turn_policy(self, policy: Policy) -> np.ndarray:
        """The flat int8[S] reroll-mask table of a single-turn policy."""
        if policy.kind in ("optimal", "reach"):
            return self.optimize(policy)[2]
        if policy.kind == "win":
            raise UserError("the win policy depends on the game situation; use it in games")
        table = np.zeros(self.table_shape, np.int8)
        if policy.kind == "threshold":
            for m in range(layout.N_MULTISETS):
                dice = layout.MULTISET_DICE[m]
                low = [i for i in range(3) if dice[i] < policy.arg and dice[i] != layout.CLOVER]
                table[m, 1:, 0] = sum(1 << i for i in low)
                table[m, 1:, 1] = 1 if 0 in low else 0
        return table.reshape(-1)

    def expected_points(self, policy: Policy) -> float:
        """Exact expected turn points under a single-turn policy."""
        points = self.utility(Policy("optimal", "optimal"))
        return solve.evaluate_turn(self.trans, self.stop_outcome, self.turn_policy(policy),
                                   points)[1]

    @functools.lru_cache(maxsize=32)
    def outcome_distribution(self, policy: Policy) -> np.ndarray:
        """Exact float64[N_OUTCOMES] outcome probabilities of one turn under ``policy``."""
        return solve.outcome_distribution(self.trans, self.stop_outcome,
                                          self.turn_policy(policy))

    def n_situations(self) -> int:
        rounds = self.values["rounds"]
        return rounds * 2 * (2 * self.max_diff + 1) * (layout.MAX_POINTS + 1)

    @functools.lru_cache(maxsize=2)
    def win_solution(self) -> tuple[np.ndarray, np.ndarray]:
        """The two-player game solver: ``(policy int8[situations, S], W)`` (see
        ``kernels.cloverup.game``); both players maximise their chance to win."""
        size = self.n_situations() * self.n_positions
        if size > WIN_TABLE_LIMIT:
            raise UserError(
                f"the win policy for {self.values['rounds']} rounds and "
                f"{self.max_rerolls} rerolls needs {size / 1e6:.0f} MB; "
                f"accepted: tables up to {WIN_TABLE_LIMIT / 1e6:.0f} MB (fewer rounds or rerolls)")
        record = np.zeros((self.n_situations(), self.n_positions), np.int8)
        dummy = np.zeros((1, self.n_positions), np.int8)
        W = game.two_player_game(self.trans, self.stop_outcome, self.values["rounds"],
                                 self.values["triple_six_effect"], self.max_diff,
                                 np.array([game.OPTIMIZE, game.OPTIMIZE]),
                                 np.zeros(2, np.int64), dummy, record)
        return record, W

    @functools.lru_cache(maxsize=32)
    def outcome_dice(self, policy: Policy) -> tuple[np.ndarray, np.ndarray]:
        """What a game draws a turn of ``policy`` from (``kernels.cloverup.play``): the
        exact outcome distribution of each of its distinct tables as a weighted die
        (float64[D, N_OUTCOMES + GUIDE_SIZE]), and the row of each of its tables
        (int32[T]: one for a static policy, the win policy's one a game situation)."""
        tables, row_of = self.distinct_tables(policy)
        dist = solve.outcome_distributions(self.trans, self.stop_outcome, tables)
        return np.stack([outcome_die(d) for d in dist]), row_of

    @functools.lru_cache(maxsize=32)
    def distinct_tables(self, policy: Policy) -> tuple[np.ndarray, np.ndarray]:
        """The distinct reroll-mask tables of ``policy`` (int8[D, S]) and the row of each
        of its tables among them (int32[T]; ``distinct_rows``)."""
        if policy.kind == "win":
            return distinct_rows(self.win_solution()[0])
        return distinct_rows(self.turn_policy(policy)[None, :])

    @property
    def decision_counts(self) -> int:
        """Columns of a turn's decision distribution: 0 to one more than the most
        decisions a turn can take (every reroll a turn can earn, and a stop)."""
        r = self.rules
        return int(r[0] + 3 * r[1] + r[2] + 2)

    @functools.lru_cache(maxsize=32)
    def decision_cdf(self, policy: Policy) -> np.ndarray:
        """The keep/reroll decisions of a turn given its outcome, for each distinct table
        of ``policy`` (rows as ``outcome_dice``'s): float64[D, N_OUTCOMES, K], each row a
        cdf over 0..K-1 decisions (exact, ``solve.outcome_decisions``; an outcome a table
        never ends in: all 1.0)."""
        tables, _ = self.distinct_tables(policy)
        return np.stack([decision_cdf(solve.outcome_decisions(
            self.trans, self.stop_outcome, t, np.int64(self.decision_counts)))
            for t in tables])

    def first_seat_win_chance(self) -> float:
        """Exact chance that the first seat wins a two-player game when both play to win
        (the game solver's own table; kept on disk per rules, ``analyzer.run.kept``)."""
        return kept.answer("cloverup-first-seat-win", self.values,
                           lambda: float(self.win_solution()[1][0, 0, self.max_diff, 0]),
                           kept.is_probability)

    def game_win_chance(self, first: Policy, second: Policy) -> float:
        """Exact chance that the first seat wins a two-player game (shared wins count 1/2;
        kept on disk per rules and policies, ``analyzer.run.kept``)."""
        return kept.answer("cloverup-win-chance", [self.values, first, second],
                           lambda: self._game_win_chance(first, second), kept.is_probability)

    def _game_win_chance(self, first: Policy, second: Policy) -> float:
        tables, modes, starts = [], [], []
        for policy in (first, second):
            starts.append(sum(t.shape[0] for t in tables))
            if policy.kind == "win":
                tables.append(self.win_solution()[0])
                modes.append(game.FIXED_SITUATIONAL)
            else:
                tables.append(self.turn_policy(policy)[None, :])
                modes.append(game.FIXED)
        stack = np.concatenate(tables)
        W = game.two_player_game(self.trans, self.stop_outcome, self.values["rounds"],
                                 self.values["triple_six_effect"], self.max_diff,
                                 np.array(modes, np.int64), np.array(starts, np.int64), stack,
                                 np.zeros((1, self.n_positions), np.int8))
        return float(W[0, 0, self.max_diff, 0])


def distinct_rows(stack: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``stack`` (int8[T, S]) and where each of its rows is among
    them (int32[T])."""
    rows = np.ascontiguousarray(stack.reshape(stack.shape[0], -1))
    keys = rows.view(np.dtype((np.void, rows.shape[1]))).ravel()
    _, first, index = np.unique(keys, return_index=True, return_inverse=True)
    return rows[first], index.astype(np.int32)


def outcome_die(dist: np.ndarray) -> np.ndarray:
    """The weighted die (``kernels.rng.make_die``) of one turn's outcome distribution
    (float64[N_OUTCOMES]): its cdf, 1.0 from the last outcome it can have on, so that an
    impossible outcome is never drawn."""
    cdf = np.cumsum(dist)
    cdf[np.flatnonzero(dist)[-1]:] = 1.0
    return make_die(cdf)


def decision_cdf(joint: np.ndarray) -> np.ndarray:
    """Each outcome's decisions as a cdf (``kernels.cloverup.play.turn_decisions``) from
    the joint probabilities ``joint`` (float64[N_OUTCOMES, K]): 1.0 from the last count
    it can have on; all 1.0 for an outcome of probability 0."""
    out = np.ones_like(joint)
    for o, row in enumerate(joint):
        if row.sum() > 0:
            out[o] = np.cumsum(row) / row.sum()
            out[o, np.flatnonzero(row)[-1]:] = 1.0
    return out


def _freeze(values: dict[str, Any]) -> tuple:
    return tuple(sorted(values.items()))


@functools.lru_cache(maxsize=16)
def _cached_model(frozen: tuple) -> Model:
    return Model(dict(frozen))


def get_model(values: dict[str, Any]) -> Model:
    """The (cached) model of a set of validated rule values."""
    return _cached_model(_freeze(values))
