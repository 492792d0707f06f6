"""Recorded whole games of That's Pretty Clever (``tests/data/tpc_games/*.json``): every
roll, re-roll, pick, free-mark target, +1 action and passive pick of a full game, replayed
through the kernels' rules and turn functions (``moves.take_die``, ``use_reroll``,
``use_plus_one``, ``legal_moves``, ``passive_candidates``; ``rules.resolve_bonus`` for the
round-track bonuses), never through a policy.

Each recorded choice is checked to be legal (among ``legal_moves`` or
``passive_candidates``), the dice places after each pick follow the platter rule, and the
sheet after selected steps, the area scores and the total match the values worked out by
hand from ``docs/rules/thats-pretty-clever.md`` (arithmetic in the JSON notes). The
files count rows, columns and slots from 1 as the rules page does. No recorded mark pays two
bonuses at once, so the games do not depend on the order of simultaneous bonuses (rules
section 11, UNCONFIRMED).
"""

import json
from pathlib import Path

import numpy as np
import pytest

from kernels.clever import moves as M
from kernels.thats_pretty_clever import layout as L
from kernels.thats_pretty_clever import rules as R
from analyzer.games.thats_pretty_clever.model import GAME
from tests.games import replayer
from tests.games.replayer import RecordedGame

DATA = Path(__file__).resolve().parents[1] / "data" / "tpc_games"
FORMAT = "dicelab-tpc-recorded-game/1"

DIE = {"white": L.WHITE, "yellow": L.YELLOW, "blue": L.BLUE, "green": L.GREEN,
       "orange": L.ORANGE, "purple": L.PURPLE}
DIE_NAME = {v: k for k, v in DIE.items()}
AREA = {"yellow": L.YELLOW_AREA, "blue": L.BLUE_AREA, "green": L.GREEN_AREA,
        "orange": L.ORANGE_AREA, "purple": L.PURPLE_AREA}
ALL_DICE = (1 << 6) - 1
# section 3: the round-track bonuses of rounds 1-6 ("choice" = black X or black 6)
ROUND_TRACK = {1: "re-roll", 2: "+1", 3: "re-roll", 4: "choice", 5: "none", 6: "none"}
BONUS = {"re-roll": L.bonus(L.REROLL), "+1": L.bonus(L.PLUS_ONE),
         "yellow X": L.bonus(L.CROSS_YELLOW), "blue X": L.bonus(L.CROSS_BLUE),
         "green X": L.bonus(L.CROSS_GREEN), "orange 6": L.bonus(L.WRITE_ORANGE, 6),
         "purple 6": L.bonus(L.WRITE_PURPLE, 6)}
# section 8.1: the pre-printed anti-diagonal, [row, column] from 1
PREPRINTED = [(1, 4), (2, 3), (3, 2), (4, 1)]


def cell_index(rc):
    row, col = rc
    return 4 * (row - 1) + col - 1


def move_of(spec):
    """A recorded use as the kernels' move row ``(die, area, cell)``."""
    area = AREA[spec["as"]]
    if area == L.YELLOW_AREA:
        cell = cell_index(spec["cell"])
    elif area == L.BLUE_AREA:
        cell = spec["sum"]
    else:
        cell = -1
    return DIE[spec["die"]], area, cell


def targets_of(spec):
    out = []
    for t in spec.get("targets", []):
        (kind, value), = t.items()
        out.append(cell_index(value) if kind == "yellow" else value)
    return np.array(out, np.int64)


def readable(sheet):
    """The sheet in the JSON's terms (the keys of an ``expect`` block)."""
    y = int(sheet[L.S_YELLOW])
    n_o, n_p = int(sheet[L.S_ORANGE]), int(sheet[L.S_PURPLE])
    return {
        "yellow": [[i // 4 + 1, i % 4 + 1] for i in range(16)
                   if (y >> i) & 1 and (i // 4 + 1, i % 4 + 1) not in PREPRINTED],
        "blue": [s for s in range(2, 13) if (int(sheet[L.S_BLUE]) >> (s - 2)) & 1],
        "green": int(sheet[L.S_GREEN]),
        "orange": [int(v) for v in sheet[L.S_ORANGE_VALUES:L.S_ORANGE_VALUES + n_o]],
        "purple": [int(v) for v in sheet[L.S_PURPLE_VALUES:L.S_PURPLE_VALUES + n_p]],
        "foxes": int(sheet[L.S_FOXES]),
        "rerolls": {"unlocked": int(sheet[L.S_REROLL_GOT]),
                    "used": int(sheet[L.S_REROLL_USED])},
        "plus_ones": {"unlocked": int(sheet[L.S_PLUS_GOT]), "used": int(sheet[L.S_PLUS_USED])},
        "lost": int(sheet[L.S_LOST]),
    }


class Replay(RecordedGame):
    """One recorded That's Pretty Clever game on the kernels' sheets and dice arrays."""

    FORMAT, DIE, DIE_NAME, AREA, GAME, layout, rules = FORMAT, DIE, DIE_NAME, AREA, GAME, L, R

    def check(self, player, expect, what):
        got = readable(self.sheets[player])
        assert int(self.sheets[player][L.S_YELLOW]) & sum(
            1 << cell_index(rc) for rc in PREPRINTED) == sum(
            1 << cell_index(rc) for rc in PREPRINTED), f"{self.at}: pre-printed crosses"
        for key, value in expect.items():
            if key == "yellow":
                assert sorted(got[key]) == sorted(value), f"{self.at} {what}: {player} {key}"
            else:
                assert got[key] == value, f"{self.at} {what}: {player} {key}"

    def resolve_chain(self, sheet, code, targets):
        """A bonus from outside the sheet (round track), resolved depth-first like
        ``take_die`` does, free marks to the recorded targets (checked to be open)."""
        pending = np.zeros(R.MAX_PENDING, np.int64)
        pending[0], n, used = code, 1, 0
        while n > 0:
            n -= 1
            c = pending[n]
            options = R.bonus_choices(sheet, c)
            target = 0
            if options > 0:
                target = int(targets[used])
                used += 1
                bit = target if c // 8 == L.CROSS_YELLOW else target - 2
                assert (options >> bit) & 1, f"{self.at}: free mark target is not open"
            n = R.resolve_bonus(sheet, c, target, pending, n)
        assert used == len(targets), f"{self.at}: unused targets"

    def take(self, sheet, where, move, spec):
        """``take_die`` of a recorded use, its free marks checked to be open."""
        try:
            return M.take_die(sheet, self.faces, where, *move, targets_of(spec))
        except ValueError as exc:
            raise AssertionError(f"{self.at}: {spec}: {exc}") from None

    def use(self, sheet, spec, candidates):
        """A pick outside the active player's pool (passive or solo passive): legal among
        ``candidates``, entered without moving any die."""
        move = move_of(spec)
        assert move in candidates, f"{self.at}: {spec} is not a candidate"
        used = self.take(sheet, self.where.copy(), move, spec)
        assert used == len(spec.get("targets", [])), f"{self.at}: targets"

    # --- steps --------------------------------------------------------------------------

    def round_bonus(self, player, rnd, spec):
        """Section 3."""
        sheet = self.sheets[player]
        assert spec["bonus"] == ROUND_TRACK[rnd]
        engine_code = int(self.round_track[rnd - 1])
        if spec["bonus"] == "none":
            assert engine_code == 0
            return
        if spec["bonus"] == "choice":
            assert engine_code == -1
            code = BONUS[spec["take"]]
            assert code in [int(c) for c in L.ROUND4_OPTIONS]
        else:
            code = BONUS[spec["bonus"]]
            assert engine_code == code
        self.resolve_chain(sheet, code, targets_of(spec))
        if "expect" in spec:
            self.check(player, spec["expect"], "after the round bonus")

    def plus_ones(self, player, specs):
        """Section 10: +1 actions at the end of a turn, each die at most once a turn."""
        sheet = self.sheets[player]
        taken = 0
        for k, spec in enumerate(specs):
            self.at = f"{self.at.split(' +1')[0]} +1 #{k + 1}"
            move = move_of(spec)
            free = self.legal(sheet, ALL_DICE & ~taken)
            if spec.get("refused"):
                before = sheet.copy()
                assert move not in free
                assert M.use_plus_one(sheet, self.faces, *move, targets_of(spec), taken) == -1
                assert (sheet == before).all()
                continue
            assert move in free, f"{self.at}: {spec} is not a legal +1"
            new = M.use_plus_one(sheet, self.faces, *move, targets_of(spec), taken)
            assert new == taken | (1 << move[0]), self.at
            taken = new
            if "expect" in spec:
                self.check(player, spec["expect"], "after the +1")

    def active_pick(self, sheet, pick):
        """Sections 4 and 7: a legal use of a die in play, with its bonuses' targets."""
        move = move_of(pick)
        assert move in self.legal(sheet, self.mask(M.POOL)), f"{self.at}: illegal {pick}"
        used = self.take(sheet, self.where, move, pick)
        assert used == len(pick.get("targets", [])), f"{self.at}: targets"

    @staticmethod
    def move_of(spec):
        return move_of(spec)



def load(name):
    return replayer.load(DATA, name)


def replay(name):
    return Replay.replay(DATA, name)


def test_solo_game():
    """Sections 2, 3, 4, 6, 7, 8.1-8.5, 9, 10, 11, 12: a whole solo game
    (``solo_game.json``): the six round-track bonuses (round 4: black 6 into orange on a x2
    slot), re-rolls (two in a row), three active picks a round with the platter rule, the
    blue die entered with white from the platter, six solo passive turns (three lowest,
    a tie for third place), +1 actions on non-platter and field dice with the
    once-per-die refusal, chains (yellow row -> orange -> re-roll; yellow row -> green X;
    orange slot 10 -> purple 6 -> +1), purple after a 6, orange filled to the x3 slot and
    a lost orange bonus once orange is full, and the final score with one fox."""
    replay("solo_game.json")


def test_two_player_game():
    """Sections 2, 3, 4, 5, 7, 8.1-8.5, 9, 10, 11, 12: a whole 2-player game
    (``two_player_game.json``): both players' round-track bonuses (round 4: black X on
    green and on yellow), turns ending early when high dice empty the pool, passive picks
    from the platter, a passive +1 taking a die from the active player's field, the
    field-die fallback when no platter die is usable, blue column / row bonuses, the
    diagonal, green slot 6 / 7 bonuses, chains, and the end scores: foxes times the lowest
    area, and worth nothing when an area (Ben's purple) scores 0."""
    replay("two_player_game.json")


@pytest.mark.parametrize("name", ["solo_game.json", "two_player_game.json"])
def test_recorded_games_cover_every_bonus_kind(name):
    """9: between them the recorded games pay every bonus kind (counted by the sheets'
    bonus statistics); the solo game also loses one (orange full)."""
    rp = replay(name)
    received = {k: sum(int(s[L.S_BONUSES + k]) for s in rp.sheets.values())
                for k in range(L.REROLL, L.WRITE_PURPLE + 1)}
    if name == "solo_game.json":
        assert all(received[k] > 0 for k in received), received
        assert int(rp.sheets["solo"][L.S_LOST]) == 1
    else:
        assert all(received[k] > 0 for k in (L.REROLL, L.PLUS_ONE, L.FOX, L.CROSS_YELLOW,
                                             L.CROSS_BLUE, L.CROSS_GREEN, L.WRITE_ORANGE))


def _solo_round6_unusable_passive_roll():
    """The solo game's sheet after the active turn of round 6, and an alternative solo
    passive roll (white 2, yellow 1, blue 1, green 1, orange 5, purple 6) with its three
    lowest dice on the platter, placed by ``moves.solo_platter`` as the solo passive turn
    places them."""
    game = load("solo_game.json")
    rp = Replay(game)
    for rnd in game["rounds"][:5]:
        rp.play_round(rnd)
    rp.active_turn(game["rounds"][5]["turns"][0])  # round 6 has no round-track bonus
    faces = np.array([2, 1, 1, 1, 5, 6], np.int64)  # white .. purple (layout dice order)
    where = np.full(6, M.POOL, np.int64)
    M.solo_platter(faces, where, 0, False)
    assert list(np.nonzero(where == M.PLATTER)[0]) == [L.YELLOW, L.BLUE, L.GREEN]
    return rp.sheets["solo"], faces, where


def test_6_solo_passive_roll_with_no_usable_platter_die():
    """6: the position of the next test. Yellow 1: [2,2] and [3,1] are crossed; blue 1 +
    white 2 = 3 is crossed; green slot 7 needs >= 2; so none of the three lowest dice
    (yellow 1, blue 1, green 1) can be used."""
    sheet, faces, where = _solo_round6_unusable_passive_roll()
    assert readable(sheet)["orange"] == [5, 1, 4, 12, 5, 3, 12, 2, 4, 5, 15]  # full
    assert readable(sheet)["blue"] == [3, 4, 6, 9, 12] and readable(sheet)["green"] == 6
    buf = np.zeros((M.MAX_MOVES, 3), np.int64)
    platter = (1 << L.YELLOW) | (1 << L.BLUE) | (1 << L.GREEN)
    assert M.legal_moves(sheet, faces, platter, buf, False) == 0
    assert M.legal_moves(sheet, faces, ALL_DICE & ~platter, buf, False) > 0  # e.g. purple 6


def test_6_14_7_solo_passive_fallback():
    """6 / 14.7: with none of the three lowest dice usable (previous test), the solo
    passive player has no candidate by default (solo_fallback = none: the white 2, orange
    5 and purple 6 are not on the platter); with other_dice they go to the fields and the
    pick falls back on them, as the multiplayer field-die fallback (5) does."""
    sheet, faces, where = _solo_round6_unusable_passive_roll()
    buf = np.zeros((M.MAX_MOVES, 3), np.int64)
    assert M.passive_candidates(sheet, faces, where, buf) == 0
    M.solo_platter(faces, where, 0, True)
    n = M.passive_candidates(sheet, faces, where, buf)
    others = (1 << L.WHITE) | (1 << L.ORANGE) | (1 << L.PURPLE)
    assert n > 0 and n == M.legal_moves(sheet, faces, others, np.zeros_like(buf), False)
    assert {int(d) for d in buf[:n, 0]} <= {L.WHITE, L.ORANGE, L.PURPLE}


def test_the_replayer_refuses_a_free_mark_that_is_not_open(tmp_path):
    """Sections 7-8: a recorded pick's free mark must be one of its bonus's choices: the
    yellow X of round 4 put on a pre-printed cross fails the replay there."""
    game = load("solo_game.json")
    game["rounds"][3]["turns"][0]["rolls"][2]["pick"]["targets"] = [{"yellow": [1, 4]}]
    (tmp_path / "solo_game.json").write_text(json.dumps(game))
    with pytest.raises(AssertionError, match="round 4 solo roll 3: .* not one of its bonus"):
        Replay.replay(tmp_path, "solo_game.json")
