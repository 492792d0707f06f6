"""The replayer both Clever games' recorded whole games share (``test_tpc_recorded_games``,
``test_tac_recorded_games``): the dice arrays, the legal moves and dice places, the round
loop with its checks, and the final scores. Each game's subclass names its dice and areas
and plays its picks and round-track bonuses through its kernels.

A recorded game names the rule values it was played under (``rule_values``: the defaults
but for those it lists); the sheets carry them, and every recorded action is checked to
be legal under them with the engine's own move generator (``kernels.clever.moves``): an
illegal one fails with the round, the roll and the move (``at``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from analyzer.params import defaults
from kernels.clever import moves as M
from kernels.clever import sheets as SH


def load(folder: Path, name: str) -> dict:
    """A recorded game, as its JSON holds it."""
    return json.loads((folder / name).read_text(encoding="utf-8"))


class RecordedGame:
    """One recorded game on the kernels' sheets and dice arrays. A subclass gives
    ``FORMAT``, ``DIE`` (die name: number), ``DIE_NAME``, ``AREA`` (area name: number),
    ``GAME`` (the analyzer's game), ``layout`` and ``rules`` (its kernels' modules),
    ``check``, ``round_bonus``, ``active_pick``, ``plus_ones``, ``move_of(spec)`` (a
    recorded use as a move row) and ``use(sheet, spec, candidates)`` (enter a recorded use,
    one of the legal ``candidates``)."""

    FORMAT = ""
    DIE: dict[str, int] = {}
    DIE_NAME: dict[int, str] = {}
    AREA: dict[str, int] = {}
    GAME = None
    layout = None
    rules = None

    def __init__(self, game: dict):
        assert game["format"] == self.FORMAT
        self.players = game["players"]
        named = game["rule_values"]  # every recorded game names its rules
        assert set(named) <= {p.name for p in self.GAME.params}, sorted(named)
        self.values = {**defaults(self.GAME.params), "players": len(self.players), **named}
        self.round_track = self.GAME.game_rules(self.values)[:6]  # each round's bonus
        self.sheets = {p: self.new_sheet() for p in self.players}
        self.faces = np.zeros(6, np.int64)
        self.where = np.full(6, M.POOL, np.int64)
        self.buf = np.zeros((M.MAX_MOVES, 3), np.int64)
        self.at = ""

    def new_sheet(self):
        """A blank sheet of the game's length, with the sheet flags of its rules."""
        sheet = self.layout.new_sheet()
        self.rules.start_sheet(sheet, self.GAME.rounds_for(self.values),
                               self.GAME.sheet_flags(self.values))
        return sheet

    def legal(self, sheet, mask):
        n = M.legal_moves(sheet, self.faces, mask, self.buf, False)
        return {tuple(int(x) for x in self.buf[i]) for i in range(n)}

    def mask(self, place):
        return sum(1 << d for d in range(6) if self.where[d] == place)

    def names(self, place):
        return {self.DIE_NAME[d] for d in range(6) if self.where[d] == place}

    def roll(self, dice):
        """The dice in play show the recorded faces (exactly the dice in play are rolled)."""
        assert set(dice) == self.names(M.POOL), f"{self.at}: rolled dice are the pool"
        for name, face in dice.items():
            assert 1 <= face <= 6
            self.faces[self.DIE[name]] = face

    def start_round(self):
        """What a new round resets beside the dice (none here)."""

    def play_round(self, rnd):
        """One round: round-track bonuses, then every player active once in seat order
        (solo: the active turn, then the solo passive turn)."""
        r = rnd["round"]
        self.at = f"round {r}"
        self.start_round()
        assert set(rnd["bonus"]) == set(self.players)
        for player in self.players:
            self.round_bonus(player, r, rnd["bonus"][player])
        actives = [t["active"] for t in rnd["turns"] if "active" in t]
        assert actives == self.players
        if self.players == ["solo"]:
            assert ["active" in t for t in rnd["turns"]] == [True, False]
        for turn in rnd["turns"]:
            self.at = f"round {r}"
            if "active" in turn:
                others = {p["player"] for p in turn.get("passive", [])}
                assert others == set(self.players) - {turn["active"]}
                self.active_turn(turn)
            else:
                self.solo_passive(turn["solo_passive"], f"round {r}")
        self.at = f"end of round {r}"
        for player, expect in rnd["expect"].items():
            self.check(player, expect, "")

    def active_turn(self, turn):
        """An active turn: up to three rolls, each after ``before_roll`` and with its
        re-rolls, and one pick (``active_pick``); the dice left in play, the fields and the
        platter checked after each pick; then ``end_active_turn``."""
        player = turn["active"]
        sheet = self.sheets[player]
        head = self.at
        self.where[:] = M.POOL
        assert 1 <= len(turn["rolls"]) <= 3
        for k, step in enumerate(turn["rolls"]):
            self.at = f"{head} {player} roll {k + 1}"
            assert k == 0 or M.rolls_on(sheet, self.where), \
                f"{self.at}: the last pick left no die in play, so the turn's rolls end"
            self.before_roll(sheet, step, k)
            self.roll(step["dice"])
            for again in step.get("rerolls", []):
                assert M.use_reroll(sheet), f"{self.at}: no re-roll left"
                self.rerolled()
                self.roll(again)
            for bad in step.get("not_legal", []):
                assert self.move_of(bad) not in self.legal(sheet, self.mask(M.POOL)), \
                    f"{self.at}: {bad} should not be legal"
            self.active_pick(sheet, step["pick"])
            assert self.names(M.FIELD) == set(step["then"]["fields"]), self.at
            assert self.names(M.PLATTER) == set(step["then"]["platter"]), self.at
            if "expect" in step["pick"]:
                self.check(player, step["pick"]["expect"], "after the pick")
        self.end_active_turn(turn, head, player)

    def before_roll(self, sheet, step, k):
        """What a player may do before roll ``k`` (0-based) of a turn (nothing here)."""

    def rerolled(self):
        """A re-roll was used (nothing to note here)."""

    def end_active_turn(self, turn, head, player):
        """After the active picks: fewer than three only when nothing is left to roll; the
        dice still in play go to the platter; then the active player's +1s and every
        passive pick."""
        if len(turn["rolls"]) < 3:
            assert self.mask(M.POOL) == 0, f"{self.at}: dice left to roll"
        self.where[self.where == M.POOL] = M.PLATTER
        assert self.names(M.PLATTER) == set(turn["platter"]), f"{head} platter"
        self.at = f"{head} {player}"
        self.plus_ones(player, turn.get("plus_ones", []))
        for passive in turn.get("passive", []):
            self.passive_pick(passive, head)

    def passive_pick(self, entry, head):
        """A passive pick: a platter die; a field die only when no platter die is usable
        (``field_pick`` notes one)."""
        player = entry["player"]
        sheet = self.sheets[player]
        self.at = f"{head} passive {player}"
        if entry.get("declines"):
            assert self.values["passive_may_decline"], f"{self.at}: no decline allowed"
            assert self.values["plus_after_decline"] or not entry.get("plus_ones"), \
                f"{self.at}: no +1 after a decline"
            self.plus_ones(player, entry.get("plus_ones", []))
            return
        n = M.passive_candidates(sheet, self.faces, self.where, self.buf)
        candidates = {tuple(int(x) for x in self.buf[i]) for i in range(n)}
        from_platter = self.legal(sheet, self.mask(M.PLATTER))
        die = self.DIE[entry["pick"]["die"]]
        if entry["from"] == "platter":
            assert self.where[die] == M.PLATTER
            assert candidates == from_platter
        else:
            assert self.where[die] == M.FIELD
            assert from_platter == set(), f"{self.at}: a platter die is usable"
            assert candidates == self.legal(sheet, self.mask(M.FIELD))
            self.field_pick(entry)
        for spec in entry.get("not_candidates", []):
            assert self.move_of(spec) not in candidates, f"{self.at}: {spec}"
        self.use(sheet, entry["pick"], candidates)
        self.plus_ones(player, entry.get("plus_ones", []))

    def solo_passive(self, spec, head):
        """The solo passive turn: all six dice rolled, the three lowest to the platter
        (``place_solo_platter``), one of them used."""
        sheet = self.sheets["solo"]
        self.at = f"{head} solo passive"
        self.where[:] = M.POOL
        self.roll(spec["dice"])
        platter = [self.DIE[name] for name in spec["platter"]]
        others = [d for d in range(6) if d not in platter]
        assert len(set(platter)) == 3
        assert max(self.faces[platter]) <= min(self.faces[others]), "three lowest"
        self.place_solo_platter(platter, others)
        n = M.passive_candidates(sheet, self.faces, self.where, self.buf)
        candidates = {tuple(int(x) for x in self.buf[i]) for i in range(n)}
        assert candidates == self.legal(sheet, self.mask(M.PLATTER)), self.at
        for other in spec.get("not_candidates", []):
            assert self.move_of(other) not in candidates, f"{self.at}: {other}"
        self.use(sheet, spec["pick"], candidates)
        self.plus_ones("solo", spec.get("plus_ones", []))

    def place_solo_platter(self, platter, others):
        """The three lowest dice ``platter`` to the platter, the ``others`` to the field."""
        self.where[:] = M.FIELD
        self.where[platter] = M.PLATTER

    def field_pick(self, entry):
        """A passive pick from the field was replayed (nothing to note here)."""

    def play(self, game, rounds=6):
        """Rules section 2: six rounds for 1 or 2 players (the first ``rounds`` of them)."""
        assert [r["round"] for r in game["rounds"]] == [1, 2, 3, 4, 5, 6]
        for rnd in game["rounds"][:rounds]:
            self.play_round(rnd)

    def final(self, game):
        """The final scores: the area scores, the foxes, the total (the game's rules and
        the engine's dispatch agree)."""
        for player, want in game["final"].items():
            sheet = self.sheets[player]
            scores = np.zeros(5, np.int64)
            self.rules.area_scores(sheet, scores)
            names = {number: name for name, number in self.AREA.items()}
            assert {names[a]: int(scores[a]) for a in range(5)} == want["scores"], player
            assert int(sheet[self.layout.S_FOXES]) == want["foxes"], player
            assert int(self.rules.total_score(sheet)) == want["total"], player
            assert int(SH.total_score(sheet)) == want["total"], player

    @classmethod
    def replay(cls, folder: Path, name: str, rounds: int = 6) -> RecordedGame:
        """Replay the recorded game ``name`` (its first ``rounds`` rounds; the final
        scores after the sixth)."""
        game = load(folder, name)
        replayed = cls(game)
        replayed.play(game, rounds)
        if rounds == 6:
            replayed.final(game)
        return replayed
