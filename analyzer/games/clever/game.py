"""The description of a Clever game the shared analyzer works from, and the policy rows
and rules vectors it builds for the kernels."""

from __future__ import annotations

import dataclasses
import functools
import json
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

import numpy as np

from analyzer.games.clever import card_rules, rule_inputs, rule_rows, value_weights
from analyzer.errors import UserError
from analyzer.params import Param
from kernels.clever import play, value_net
from kernels.clever_base.game_rules import (N_GAME_RULES, RULE_FINAL_PLUS_ALL,
                                            RULE_FORFEIT_TO_PLATTER, RULE_GAME, RULE_INPUT_BITS,
                                            RULE_INPUT_BITS_MULTI, RULE_PASSIVE_DECLINE,
                                            RULE_PLUS_AFTER_DECLINE, RULE_ROUNDS, RULE_SHEET_FLAGS,
                                            RULE_SOLO_FALLBACK, RULE_SOLO_TIES_BY_COLOUR,
                                            RULE_START_PLUS, RULE_START_REROLLS,
                                            RULE_TIES_SHARED, RULE_WASTED_PICK)
from kernels.clever_base.sheet import H_PLUS_GOT, H_REROLL_GOT

KNOBS = {"platter": play.W_PLATTER, "reroll_below": play.W_REROLL_BELOW,
         "plus_above": play.W_PLUS_ABOVE, "samples": play.W_SAMPLES, "branch": play.W_BRANCH,
         "gift": play.W_GIFT}
LOOKAHEAD_LIMITS = {"heuristic": 256, "learned": value_weights.LOOK_LIMITS["samples"]}  # N
# of heuristic:N and learned:N
ROUND_BONUS_ROUNDS = (1, 2, 3, 4)  # rounds whose round-track bonus is a rule parameter
POLICY_HELP = {
    "random": "a uniformly random legal choice everywhere",
    "greedy": "the choice with the best score right after it (bonuses placed the same way)",
    "heuristic": "the best fitted estimate of the final score (score so far plus a linear "
                 "value of the sheet's features, fitted to simulated games by "
                 "scripts/train_clever.py), looking one roll ahead at active picks",
    "heuristic:N": "the heuristic with N sampled rolls in its lookahead (heuristic:0 = no "
                   "lookahead, about 5 times faster)",
    "learned": "every choice (each pick with its bonus marks, re-roll or keep, each +1 or "
               "stop, the passive pick or declining it, returns) by the value of the "
               "position it leaves: the score so far plus a value network's estimate of "
               "the points to come, trained by self-play (scripts/train_value.py); no "
               "thresholds; with opponents, its last roll of a turn also weighs what the "
               "platter it leaves gives them",
    "learned:N": "learned looking one roll ahead at its first two picks of a turn with N "
                 "sampled rolls, in games of every player count (learned:0 = never looks; "
                 "solo, learned:16 scores 3 points more in That's Pretty Clever at 7 times "
                 "the time, and gains nothing in Twice As Clever)",
    "card": "the game's strategy card (`dicelab cheatsheet GAME` prints it), rule by rule: "
            "its count of each use (points now plus the card's points for the area), good "
            "uses, dice kept in play, re-rolls, +1s, passive picks and the platter left to "
            "opponents; greedy where the card is silent (free marks, the round-4 bonus, "
            "returns)",
    "card:-RULE": "the card without its rule RULE (each line's gain on the card is measured "
                  "against it)",
}


@dataclass(frozen=True)
class CleverGame:
    """What the shared Clever analyzer needs to know about one game.

    ``layout`` is the kernels' layout module (``AREA_NAMES``, ``BONUS_NAMES``,
    ``DIE_NAMES``, ``N_DICE``, ``ROUNDS_BY_PLAYERS``, ``ROUND_BONUS``, ``new_sheet``);
    ``letters`` the one-letter die names in die order; ``sheet_flags(values)`` and
    ``extra_rules(values, vector)`` turn the game's own rule parameters into the sheet's
    flag bits and rules-vector entries; ``describe(sheet, faces, move)`` names a move;
    ``open_bonuses(sheet)`` lists the bonuses one mark away; ``round_options(code)`` the
    codes (and labels) a player chooses between for a round-track bonus, or ``()``.
    """

    id: str
    title: str
    prefix: str  # file names of the game's figures and tables
    kernel_game: int  # kernels.clever_base.sheet.TPC or TAC
    params: tuple[Param, ...]
    layout: ModuleType
    letters: str
    folder: Path  # the game's analyzer package: its heuristic weights and network
    value_size: int  # value weights the game reads (stages x features)
    rating_bands: tuple[tuple[int, str], ...]  # (lowest score, label), best first
    rulings: tuple[str, ...]
    sheetfile: ModuleType  # ``blank()``, ``to_kernel(data, source)``, ``FORMAT``
    sheet_flags: Callable[[dict[str, Any]], int]
    extra_rules: Callable[[dict[str, Any], np.ndarray], None]
    describe: Callable[[np.ndarray, np.ndarray, np.ndarray], str]
    open_bonuses: Callable[[np.ndarray], str]
    round_options: Callable[[int], tuple[tuple[int, str], ...]]
    reference: str  # published bot scores on the same rules, for the report
    report_band: int  # the lowest score of the rating band the report quotes
    rollout_policy: str = "learned"  # advise and coach: the strongest policy that answers
    # in seconds
    fox_note: str = ""  # added to the note on fox scoring
    strongest_policy: str = "learned"  # the report's and cheat sheet's bot (evaluation)
    # the report's seats and rule values where the rules lie outside what the learned
    # network was trained on: the tuned heuristic, or a cheaper reading of it that plays
    # as strongly (a test checks it)
    table_policy: str = "heuristic"
    advice_rollouts: int = 800  # advise's default rollouts per choice
    advice_horizon: int | None = None  # ... and rounds played after this one (None: all)
    user_network: Path | None = None  # a network file the user named (``--network``):
    # learned plays it, and nothing else, whatever the rules (``with_network``)

    @property
    def weights_file(self) -> Path:
        """The tuned heuristic's value weights (``heuristic_weights.json``)."""
        return self.folder / "heuristic_weights.json"

    @property
    def learned_file(self) -> Path:
        """The learned policy's one value network (.npy, ``value_weights``; its settings
        and card in the .json twin: ``networks``)."""
        return self.folder / "value_net.npy"

    def with_network(self, path: str | Path | None) -> "CleverGame":
        """The game with ``learned`` playing the network file ``path`` alone (none: as it
        is); the file is read, and refused in one line where it is damaged, when
        ``learned`` first plays."""
        if path is None:
            return self
        return dataclasses.replace(self, user_network=Path(path))

    @property
    def policy_help(self) -> dict[str, str]:
        """The policy names this game accepts and what each one does."""
        return POLICY_HELP

    @property
    def has_returns(self) -> bool:
        """Does the sheet have the return action (Twice As Clever)?"""
        return hasattr(self.layout, "S_RETURN_GOT")

    def rounds_for(self, values: dict[str, Any]) -> int:
        return values["rounds"] or int(self.layout.ROUNDS_BY_PLAYERS[values["players"]])

    def game_rules(self, values: dict[str, Any]) -> np.ndarray:
        """The kernels' game-rules vector (int64[N_GAME_RULES]): the round-track bonuses
        in force (a switched-off one is 0), the switches for the open points, the sheet,
        the value network's rules-block bits (a solo game's and a game of 2-4 players'),
        the round count (0: by player count) and the actions every player starts with."""
        out = np.zeros(N_GAME_RULES, np.int64)
        out[:6] = self.layout.ROUND_BONUS
        for r in ROUND_BONUS_ROUNDS:
            if not values[f"round_{r}_bonus"]:
                out[r - 1] = 0
        out[RULE_WASTED_PICK] = values["wasted_pick"]
        out[RULE_FORFEIT_TO_PLATTER] = values["forfeited_dice"] == "platter"
        out[RULE_PASSIVE_DECLINE] = values["passive_may_decline"]
        out[RULE_TIES_SHARED] = values["ties"] == "shared"
        out[RULE_SOLO_TIES_BY_COLOUR] = values["solo_ties"] == "colour_order"
        out[RULE_SOLO_FALLBACK] = values["solo_fallback"] == "other_dice"
        out[RULE_PLUS_AFTER_DECLINE] = values["plus_after_decline"]
        out[RULE_FINAL_PLUS_ALL] = values["final_plus"] == "every_player"
        out[RULE_SHEET_FLAGS] = self.sheet_flags(values)
        out[RULE_GAME] = self.kernel_game
        out[RULE_INPUT_BITS] = self.rule_bits({**values, "players": 1})
        out[RULE_INPUT_BITS_MULTI] = self.rule_bits({**values, "players": 2})
        out[RULE_ROUNDS] = values["rounds"]
        out[RULE_START_REROLLS] = values["start_rerolls"]
        out[RULE_START_PLUS] = values["start_plus_ones"]
        self.extra_rules(values, out)
        return out

    def rule_bits(self, values: dict[str, Any]) -> int:
        """The value network's rules-block bits of the rule ``values``
        (``analyzer.games.clever.rule_inputs``; 0 on the defaults)."""
        return rule_inputs.input_bits(self.params, values)

    def heuristic_row(self, path: Path | None = None) -> np.ndarray:
        """The heuristic's kernel row (float64[N_POL]): its knobs and fitted value weights
        as stored by ``scripts/train_clever.py``."""
        path = path or self.weights_file
        data = json.loads(path.read_text())
        row = policy_row(play.HEURISTIC)
        for name, value in data["knobs"].items():
            row[KNOBS[name]] = float(value)
        weights = np.asarray(data["value_weights"], dtype=np.float64).ravel()
        if weights.shape != (self.value_size,):
            raise UserError(f"weights file {str(path)!r}: value_weights must hold "
                            f"{self.value_size} numbers, not {weights.size}")
        row[play.W_VALUE:play.W_VALUE + self.value_size] = weights
        return row

    def network_file(self, values: dict[str, Any] | None = None) -> Path:
        """The network file ``learned`` plays, whatever the rule ``values``: the user's
        network where one is named (``with_network``), else the game's one network."""
        return self.learned_file if self.user_network is None else self.user_network

    def learned_row(self, values: dict[str, Any] | None = None) -> np.ndarray:
        """The learned policy's kernel row (float64[N_POL]): the value policy over the
        networks of ``network_file(values)``."""
        return self.file_row(self.network_file(values))

    def file_row(self, path: Path) -> np.ndarray:
        """The value policy's kernel row of the network file ``path``."""
        members, info = self.file_networks(path)
        return value_weights.file_row(members, info)

    def gift(self, values: dict[str, Any] | None = None) -> float:
        """The weight ``learned`` gives, in games of 2-4 players, to what the platter its
        last roll leaves gives the opponents (its file's ``"gift"``; 0: none)."""
        return float(self._network_settings(values).get("gift", 0.0))

    def look(self, values: dict[str, Any] | None = None) -> dict[str, Any]:
        """Where and how ``learned`` looks one roll ahead (its file's ``"look"``: the
        player counts, sampled rolls, picks compared and margin; {}: nowhere)."""
        return dict(self._network_settings(values).get("look", {}))

    def _network_settings(self, values: dict[str, Any] | None) -> dict[str, Any]:
        """The settings (.json) of the network file ``learned`` plays on ``values``."""
        return self._networks(values)[1]

    def _networks(self, values: dict[str, Any] | None
                  ) -> tuple[list[np.ndarray], dict[str, Any]]:
        """The networks and settings of the file ``learned`` plays on ``values``."""
        return self.file_networks(self.network_file(values))

    def file_networks(self, path: Path) -> tuple[list[np.ndarray], dict[str, Any]]:
        """The networks and settings of the network file ``path``, its rules block given
        the game's rule inputs as they are now (``rule_rows``: a rule parameter added
        since it was trained gets zero rows); a ``UserError`` when it was trained with a
        rule input the game no longer has."""
        members, info = _value_networks(path, self.kernel_game)
        now = rule_inputs.input_names(self.params)
        if info["inputs"] != value_net.n_inputs(self.kernel_game, 3) \
                or info.get("rule_inputs") == now:
            return members, info
        if not isinstance(info.get("rule_inputs"), list):
            raise UserError(f"value network {str(path)!r}: its rules block's inputs are not "
                            "named (rule_inputs); train it again")
        return rule_rows.regrown(members, info, now,
                                 int(value_net.n_inputs(self.kernel_game, 2)), repr(str(path)))

    def parse_policy(self, name: str, values: dict[str, Any] | None = None) -> np.ndarray:
        """The kernel row of a policy name (``learned``: its network for the rule
        ``values``, see ``network_file``); a ``UserError`` listing the names otherwise."""
        text = name.strip().lower()
        base, _, samples = text.partition(":")
        if base == "card":
            return card_rules.parse(self, samples)
        if base not in play.POLICY_NAMES or (samples and base not in LOOKAHEAD_LIMITS):
            raise UserError(f"unknown policy {name!r}; accepted: "
                            f"{', '.join(self.policy_help)}")
        if samples and (not samples.isdigit() or int(samples) > LOOKAHEAD_LIMITS[base]):
            raise UserError(f"bad lookahead {samples!r} in {name!r}: expected "
                            f"{base}:N with N a whole number from 0 to "
                            f"{LOOKAHEAD_LIMITS[base]}")
        kind = play.POLICY_NAMES.index(base)
        if base == "learned":
            row = self.learned_row(values)
            if samples:
                value_weights.look_everywhere(row, int(samples))
            return row
        if kind != play.HEURISTIC:
            return policy_row(kind)
        row = self.heuristic_row()
        if samples:
            row[play.W_SAMPLES] = int(samples)
        return row

    def blank_sheet(self, values: dict[str, Any]) -> np.ndarray:
        """A blank kernel sheet carrying the flags of ``values`` and the actions every
        player starts with."""
        sheet = self.layout.new_sheet()
        sheet[self.layout.S_FLAGS] = self.sheet_flags(values)
        sheet[H_REROLL_GOT] = values["start_rerolls"]
        sheet[H_PLUS_GOT] = values["start_plus_ones"]
        return sheet


@functools.lru_cache(maxsize=None)
def _value_networks(path: Path, game: int) -> tuple[list[np.ndarray], dict[str, Any]]:
    """A game's value networks, read once per process."""
    return value_weights.load(path, game)


def policy_row(kind: int) -> np.ndarray:
    """A policy's kernel row (float64[N_POL]) with no weights set."""
    row = np.zeros(play.N_POL)
    row[play.KIND] = kind
    return row
