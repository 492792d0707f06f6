"""Recorded whole games of Twice As Clever (``tests/data/tac_games/*.json``): every roll,
re-roll, return, pick, platter-chain mark, free-mark target, +1 action and passive pick of a
full game, replayed through the kernels' rules and turn functions (``moves.take_die``,
``use_reroll``, ``use_plus_one``, ``legal_moves``, ``passive_candidates``, ``solo_platter``,
``to_field``; ``sheets.chain_rows`` and the Twice As Clever ``rules`` for the chain, the
round-track bonuses and the scores), never through a policy.

Each recorded choice is checked to be legal, the dice places after each pick follow the
platter rule (strictly lower dice to the platter), every free mark is checked to be open
(a dry run through ``rules.enter`` / ``bonus_choices`` / ``resolve_bonus`` must give the
same sheet as ``take_die``), and the sheet after selected steps, the area scores and the
total match the values worked out by hand from ``docs/rules/twice-as-clever.md`` and the
sheet in ``kernels/twice_as_clever/layout.py`` (arithmetic in the JSON notes). The files
count yellow rows and columns from 1 as the rules page's table does and name silver rows by
colour. The open points follow the defaults: +1 once per die per round (12.1), blue ?
descending (12.2), a silver third pick chains only lower dice (12.4), returns before a roll
(12.5). No recorded mark fires two bonuses at once, so the games do not depend on the order
of simultaneous bonuses (12.8, UNCONFIRMED).
"""

import json
import re
from pathlib import Path

import numpy as np
import pytest

from kernels.clever import moves as M
from kernels.clever import sheets as SH
from kernels.twice_as_clever import layout as L
from kernels.twice_as_clever import rules as R
from analyzer.games.twice_as_clever.model import GAME
from tests.games import replayer
from tests.games.replayer import RecordedGame

DATA = Path(__file__).resolve().parents[1] / "data" / "tac_games"
FORMAT = "dicelab-tac-recorded-game/1"
GAMES = ["solo.json", "two_players.json"]

DIE = {name: i for i, name in enumerate(L.DIE_NAMES)}
DIE_NAME = {i: name for name, i in DIE.items()}
AREA = {name: i for i, name in enumerate(L.AREA_NAMES)}
ROW = {"yellow": 0, "blue": 1, "green": 2, "pink": 3}  # 8.1: silver rows, top to bottom
ROW_NAME = {i: name for name, i in ROW.items()}
ALL_DICE = (1 << 6) - 1
# section 3: the round-track bonuses of rounds 1-6
ROUND_TRACK = {1: "re-roll", 2: "+1", 3: "return", 4: "black ?", 5: "none", 6: "none"}
BONUS = {"re-roll": L.REROLL, "+1": L.PLUS_ONE, "return": L.RETURN, "black ?": L.Q_ANY,
         "none": L.NO_BONUS}
# 8.2: the yellow table of the rules page, (row, column) from 1 -> printed number
YELLOW_PAGE = {(1, 2): 3, (1, 4): 6, (2, 1): 1, (2, 3): 2, (3, 2): 4, (3, 4): 3,
               (4, 1): 2, (4, 3): 5, (5, 2): 5, (5, 4): 4}


def yellow_cell(rc):
    """The sheet's cell id of yellow [row, column] (from 1), checked against the page."""
    row, col = rc
    ids = [i for i in range(L.YELLOW_CELLS)
           if L.YELLOW_CELL_ROW[i] == row - 1 and L.YELLOW_CELL_COL[i] == col - 1]
    assert len(ids) == 1 and L.YELLOW_VALUES[ids[0]] == YELLOW_PAGE[(row, col)], rc
    return ids[0]


def yellow_rc(cell):
    return [int(L.YELLOW_CELL_ROW[cell]) + 1, int(L.YELLOW_CELL_COL[cell]) + 1]


def move_of(spec, faces):
    """A recorded use as the kernels' move row ``(die, area, target)``."""
    die, area = DIE[spec["die"]], AREA[spec["as"]]
    target = -1
    if area == L.SILVER_AREA:
        target = ROW[spec["row"]]
    elif area == L.YELLOW_AREA:
        target = yellow_cell(spec["cell"])
    elif area == L.BLUE_AREA:  # section 4: blue always enters blue + white
        assert spec["sum"] == faces[L.BLUE] + faces[L.WHITE], spec
    return die, area, target


def value_of(faces, die, area):
    return faces[L.BLUE] + faces[L.WHITE] if area == L.BLUE_AREA else faces[die]


def targets_of(spec):
    """The free marks as ``resolve_bonus`` choices: silver cell, yellow cell, blue sum,
    green or pink face, or the black ?'s area."""
    out = []
    for t in spec.get("targets", []):
        (kind, value), = t.items()
        if kind == "silver":
            out.append(6 * ROW[value[0]] + value[1] - 1)
        elif kind == "yellow":
            out.append(yellow_cell(value))
        elif kind == "area":
            out.append(AREA[value])
        else:
            out.append(value)
    return np.array(out, np.int64)


def bit_of(code, choice):
    """The bit of ``bonus_choices`` standing for ``choice`` (inverse of choice_of_bit)."""
    for bit in range(24):
        if R.choice_of_bit(code, bit) == choice:
            return bit
    raise AssertionError(f"no bit for choice {choice} of bonus {code}")


def readable(sheet):
    """The sheet in the JSON's terms (the keys of an ``expect`` block)."""
    silver = int(sheet[L.S_SILVER])
    circled, crossed = int(sheet[L.S_YELLOW_CIRCLED]), int(sheet[L.S_YELLOW_CROSSED])

    def track(count, start):
        return [int(v) for v in sheet[start:start + int(sheet[count])]]

    def action(got, used):
        return {"unlocked": int(sheet[got]), "used": int(sheet[used])}

    return {
        "silver": {name: [v for v in range(1, 7) if (silver >> (6 * r + v - 1)) & 1]
                   for name, r in ROW.items()},
        "yellow": {"circled": sorted(yellow_rc(c) for c in range(L.YELLOW_CELLS)
                                     if (circled >> c) & 1 and not (crossed >> c) & 1),
                   "crossed": sorted(yellow_rc(c) for c in range(L.YELLOW_CELLS)
                                     if (crossed >> c) & 1)},
        "blue": track(L.S_BLUE, L.S_BLUE_VALUES),
        "green": track(L.S_GREEN, L.S_GREEN_VALUES),
        "pink": track(L.S_PINK, L.S_PINK_VALUES),
        "foxes": int(sheet[L.S_FOXES]),
        "rerolls": action(L.S_REROLL_GOT, L.S_REROLL_USED),
        "plus_ones": action(L.S_PLUS_GOT, L.S_PLUS_USED),
        "returns": action(L.S_RETURN_GOT, L.S_RETURN_USED),
        "lost": int(sheet[L.S_LOST]),
    }


class Replay(RecordedGame):
    """One recorded Twice As Clever game on the kernels' sheets and dice arrays. ``events``
    logs what the replay saw (chains, returns, refused +1s, field picks) for the focused
    tests."""

    FORMAT, DIE, DIE_NAME, AREA, GAME, layout, rules = FORMAT, DIE, DIE_NAME, AREA, GAME, L, R

    def __init__(self, game):
        super().__init__(game)
        self.taken = {p: 0 for p in self.players}  # dice taken by +1 this round (12.1)
        self.events = []

    def start_round(self):
        self.taken = {p: 0 for p in self.players}  # 12.1: a new round frees every die

    def check(self, player, expect, what):
        got = readable(self.sheets[player])
        for key, value in expect.items():
            if key == "silver":
                for row, numbers in value.items():
                    assert got["silver"][row] == sorted(numbers), \
                        f"{self.at} {what}: {player} silver {row} row"
            elif key == "yellow":
                for state in ("circled", "crossed"):
                    assert got["yellow"][state] == sorted(value[state]), \
                        f"{self.at} {what}: {player} yellow {state}"
            else:
                assert got[key] == value, f"{self.at} {what}: {player} {key}"

    def resolve(self, sheet, pending, n, targets):
        """Resolve pending bonuses depth-first (``pop_pending``), each free mark to the next
        recorded target, checked to be one of ``bonus_choices``."""
        used = 0
        while n > 0:
            code = R.pop_pending(sheet, pending, n)
            n -= 1
            options = R.bonus_choices(sheet, code)
            target = 0
            if options > 0:
                assert used < len(targets), f"{self.at}: a free mark has no target"
                target = int(targets[used])
                used += 1
                assert (options >> bit_of(code, target)) & 1, \
                    f"{self.at}: free mark {target} of bonus {L.BONUS_NAMES[code]} not open"
            n = R.resolve_bonus(sheet, code, target, pending, n)
        assert used == len(targets), f"{self.at}: unused targets"

    def dry_run(self, sheet, move, targets):
        """The sheet after entering ``move`` with checked free marks (on a copy)."""
        trial = sheet.copy()
        pending = np.zeros(R.MAX_PENDING, np.int64)
        die, area, target = move
        n = R.enter(trial, area, value_of(self.faces, die, area), target, pending, 0)
        self.resolve(trial, pending, n, targets)
        return trial

    def enter_elsewhere(self, sheet, spec, candidates):
        """A pick that moves no die (passive, solo passive): one of ``candidates``."""
        move = move_of(spec, self.faces)
        assert move in candidates, f"{self.at}: {spec} is not a candidate"
        assert "chain" not in spec, "8.1: a passive silver pick chains nothing"
        want = self.dry_run(sheet, move, targets_of(spec))
        scratch_where = self.where.copy()
        used = M.take_die(sheet, self.faces, scratch_where, *move, targets_of(spec))
        assert used == len(spec.get("targets", [])), f"{self.at}: targets"
        assert (sheet == want).all(), f"{self.at}: take_die differs from the rules"
        if "expect" in spec:
            self.check(self._player_of(sheet), spec["expect"], "after the pick")

    def _player_of(self, sheet):
        return next(p for p, s in self.sheets.items() if s is sheet)

    # --- steps --------------------------------------------------------------------------

    def round_bonus(self, player, rnd, spec):
        """Section 3: re-roll, +1, return, the black ?; nothing in rounds 5 and 6."""
        sheet = self.sheets[player]
        assert spec["bonus"] == ROUND_TRACK[rnd]
        code = BONUS[spec["bonus"]]
        assert int(self.round_track[rnd - 1]) == code, f"round {rnd}: the rules' round track"
        if code != L.NO_BONUS:
            pending = np.zeros(R.MAX_PENDING, np.int64)
            pending[0] = code
            self.resolve(sheet, pending, 1, targets_of(spec))
        if "expect" in spec:
            self.check(player, spec["expect"], "after the round bonus")

    def plus_ones(self, player, specs):
        """Section 5: +1 actions after a turn; each die once per round (12.1 default)."""
        sheet = self.sheets[player]
        head = self.at
        for k, spec in enumerate(specs):
            self.at = f"{head} +1 #{k + 1}"
            move = move_of(spec, self.faces)
            taken = self.taken[player]
            free = self.legal(sheet, ALL_DICE & ~taken)
            if spec.get("refused"):
                before = sheet.copy()
                assert sheet[L.S_PLUS_GOT] > sheet[L.S_PLUS_USED], f"{self.at}: a +1 is left"
                assert move in self.legal(sheet, ALL_DICE), f"{self.at}: legal as a use"
                assert (taken >> move[0]) & 1 and move not in free
                assert M.use_plus_one(sheet, self.faces, *move, targets_of(spec), taken) == -1
                assert (sheet == before).all()
                self.events.append((self.at, "refused +1", spec["die"]))
                continue
            assert move in free, f"{self.at}: {spec} is not a legal +1"
            want = self.dry_run(sheet, move, targets_of(spec))
            want[L.S_PLUS_USED] += 1
            new = M.use_plus_one(sheet, self.faces, *move, targets_of(spec), taken)
            assert new == taken | (1 << move[0]), self.at
            assert (sheet == want).all(), f"{self.at}: use_plus_one differs from the rules"
            self.taken[player] = new
            if "expect" in spec:
                self.check(player, spec["expect"], "after the +1")
        self.at = head

    def returns(self, sheet, names, k):
        """Section 5 (12.5 default): platter dice back into the pool before roll 2 or 3,
        one unlocked return each (as ``play._use_returns`` does)."""
        for name in names:
            die = DIE[name]
            assert k > 0, f"{self.at}: no return before roll 1 (the platter is empty)"
            assert M.may_return(sheet, self.where, die), \
                f"{self.at}: return of {name}: not on the platter, or no return in hand"
            sheet[L.S_RETURN_USED] += 1
            self.where[die] = M.POOL
            self.events.append((self.at, "return", k + 1))

    def active_pick(self, sheet, pick):
        """One pick: legal among the pool's moves, entered by ``take_die`` (checked against
        the rules' dry run); a silver pick then chains the dice it sends (8.1)."""
        move = move_of(pick, self.faces)
        assert move in self.legal(sheet, self.mask(M.POOL)), f"{self.at}: illegal {pick}"
        die = move[0]
        sent = [d for d in range(6)
                if self.where[d] == M.POOL and d != die and self.faces[d] < self.faces[die]]
        targets = targets_of(pick)
        want = self.dry_run(sheet, move, targets)
        used = M.take_die(sheet, self.faces, self.where, *move, targets)
        assert used == len(targets), f"{self.at}: targets"
        assert (sheet == want).all(), f"{self.at}: take_die differs from the rules"
        # the platter rule (to_field): the picked die to a field, strictly lower dice down
        for d in sent:
            assert self.where[d] == M.PLATTER, f"{self.at}: {DIE_NAME[d]} not on the platter"
        if move[1] != L.SILVER_AREA:
            assert "chain" not in pick
            return
        chain = pick["chain"]  # 8.1: every die this pick sent, in die order
        assert [DIE[c["die"]] for c in chain] == sent, f"{self.at}: the chained dice"
        for entry in chain:
            d = DIE[entry["die"]]
            rows = SH.chain_rows(sheet, self.faces, die, d)
            assert rows == R.chain_rows(sheet, self.faces, die, d)
            assert sorted(ROW_NAME[r] for r in range(4) if (rows >> r) & 1) == \
                sorted(entry["may"]), f"{self.at}: chain rows of {entry['die']}"
            if "row" not in entry:
                assert rows == 0
                self.events.append((self.at, "chain", entry["die"], None))
                continue
            assert (rows >> ROW[entry["row"]]) & 1, \
                f"{self.at}: {entry['die']} may not mark the {entry['row']} row"
            pending = np.zeros(R.MAX_PENDING, np.int64)
            n = R.enter(sheet, L.SILVER_AREA, self.faces[d], ROW[entry["row"]], pending, 0)
            self.resolve(sheet, pending, n, targets_of(entry))
            self.events.append((self.at, "chain", entry["die"], entry["row"]))

    def before_roll(self, sheet, step, k):
        """Section 5: returns before a roll."""
        self.returns(sheet, step.get("returns", []), k)

    def rerolled(self):
        self.events.append((self.at, "re-roll"))

    def move_of(self, spec):
        return move_of(spec, self.faces)

    def use(self, sheet, spec, candidates):
        self.enter_elsewhere(sheet, spec, candidates)

    def field_pick(self, entry):
        self.events.append((self.at, "field pick", entry["pick"]["die"]))

    def place_solo_platter(self, platter, others):
        """Section 2 (solo): the engine's own placement (``solo_platter``); the recorded
        games have no tie for the three lowest (``solo_ties``), and no field fallback."""
        assert max(self.faces[platter]) < min(self.faces[others]), f"{self.at}: a tie"
        M.solo_platter(self.faces, self.where, 0, False)
        assert set(np.flatnonzero(self.where == M.PLATTER)) == set(platter), self.at


def load(name):
    return replayer.load(DATA, name)


def replay(name, rounds=6):
    return Replay.replay(DATA, name, rounds)


def test_2_7_solo_game():
    """Sections 2, 3, 4, 5, 6, 7, 8.1-8.5: the whole solo game (``solo.json``): the four
    round-track bonuses (black ? as a pink ?), re-rolls, returns before rolls 2 and 3 (one
    revives an empty pool), the platter chain, blue + white from a field and from off the
    platter, green pairs incl. a negative one, pink bonuses paid and withheld, the silver die
    refused when its number is full, +1 once per round, and the final score with a fox."""
    replay("solo.json")


def test_2_7_two_player_game():
    """Sections 2, 3, 5, 6, 7, 8.1-8.5: the whole 2-player game (``two_players.json``):
    both players' active turns, passive picks from the platter (a silver one that chains
    nothing), a passive +1 on a field die, the field-die fallback when no platter die is
    usable, silver column 2 (yellow ?) by a chain, black ? as green ? and silver ?, and the
    end scores (foxes x the lowest area; no foxes)."""
    replay("two_players.json")


@pytest.mark.parametrize("name", GAMES)
def test_7_hand_totals_add_up(name):
    """7: the hand-worked totals in the JSON are the five areas plus foxes x the lowest
    area (checks the notes' arithmetic itself, independent of the engine)."""
    for player, want in load(name)["final"].items():
        scores = want["scores"]
        assert want["total"] == sum(scores.values()) + want["foxes"] * min(scores.values())


def test_3_round_track_bonuses_rounds_1_to_4():
    """3: after round 4 each sheet has received the re-roll (round 1), the +1 (round 2), the
    return (round 3) and the black ? (round 4), counted by the sheets' bonus statistics."""
    for name in GAMES:
        rp = replay(name, rounds=4)
        for sheet in rp.sheets.values():
            for code in (L.REROLL, L.PLUS_ONE, L.RETURN, L.Q_ANY):
                assert sheet[L.S_BONUSES + code] >= 1
            assert sheet[L.S_BONUSES + L.Q_ANY] == 1


def test_9_recorded_games_cover_every_bonus_kind():
    """6, 9: the solo game receives every bonus kind: re-roll, +1, return, fox and the
    silver, yellow, blue, green, pink and black ?; the 2-player game all but the pink ?.
    Nothing is lost."""
    solo = replay("solo.json").sheets["solo"]
    assert all(solo[L.S_BONUSES + k] > 0 for k in range(L.REROLL, L.Q_ANY + 1))
    two = replay("two_players.json").sheets
    for k in range(L.REROLL, L.Q_ANY + 1):
        got = sum(int(s[L.S_BONUSES + k]) for s in two.values())
        assert (got > 0) == (k != L.Q_PINK), L.BONUS_NAMES[k]
    assert all(s[L.S_LOST] == 0 for s in [solo, *two.values()])


def test_8_1_platter_chain_own_rows_white_any_row():
    """8.1: the chains of the solo game: round 1, Y1 B1 G1 P1 sent by the silver 3 mark
    their own rows (completing column 1: +1); round 3, the white 2 marks the pink row, the
    yellow 3 marks nothing (its own row has the 3); round 5, the white 2 the green row;
    silver picks that send nothing chain nothing."""
    rp = replay("solo.json")
    chains = [e[2:] for e in rp.events if e[1] == "chain"]
    assert chains == [("yellow", "yellow"), ("blue", "blue"), ("green", "green"),
                      ("pink", "pink"),
                      ("white", "pink"), ("yellow", None), ("blue", "blue"), ("pink", "pink"),
                      ("white", "green")]


def test_12_4_silver_third_pick_chains_only_lower_dice():
    """12.4 default: Ben's silver 3 on the third pick of round 6 leaves Y5 G6 P4, which go
    to the platter but, not being lower, mark nothing (the yellow row's 5 stays open)."""
    rp = replay("two_players.json")
    assert not any(e[0].startswith("round 6 ben roll 3") for e in rp.events
                   if e[1] == "chain")
    assert readable(rp.sheets["ben"])["silver"]["yellow"] == [1, 2, 3, 4]


def test_5_returns_before_roll_2_and_3():
    """5 / 12.5 default: returns are spent before roll 2 and before roll 3 (never before
    roll 1), in both games."""
    for name in GAMES:
        rolls = {e[2] for e in replay(name).events if e[1] == "return"}
        assert rolls == {2, 3}, name


def test_5_12_1_plus_one_once_per_round():
    """5 / 12.1 default: in the solo game a die taken by +1 after the active turn is refused
    after the passive turn of the same round (rounds 2 and 6), though a +1 is left."""
    refused = [(e[0].split()[1], e[2]) for e in replay("solo.json").events
               if e[1] == "refused +1"]
    assert refused == [("2", "green"), ("6", "white")]


def test_2_passive_takes_a_field_die_when_no_platter_die_is_usable():
    """2 (passive turn): in round 2 the platter holds Y1 (Ben's only 1 is crossed), B3
    (3 + white 5 = 8 > Ben's blue 3) and S2 (Ben's 2 is full in all rows): Ben takes the
    green 5 from Ann's field."""
    events = [e for e in replay("two_players.json").events if e[1] == "field pick"]
    assert [(e[0], e[2]) for e in events] == [("round 2 passive ben", "green")]


def _turn(game, rnd, k=0):
    return game["rounds"][rnd - 1]["turns"][k]


def _spoil_pick(game):  # the yellow die went to the platter in roll 1
    _turn(game, 1)["rolls"][1]["pick"] = {"die": "yellow", "as": "yellow", "cell": [2, 1]}


def _spoil_free_mark(game):  # the blue ? may not write more than the last sum, 9
    _turn(game, 3)["rolls"][1]["pick"]["targets"][0] = {"blue": 12}


def _spoil_reroll(game):  # round 1's one re-roll was spent on roll 1
    _turn(game, 1)["rolls"][1]["rerolls"] = [{"white": 3}]


def _spoil_plus_one(game):  # the yellow die shows 1, not the 4 of that cell
    _turn(game, 1)["plus_ones"] = [{"die": "yellow", "as": "yellow", "cell": [3, 2]}]


def _spoil_return(game):  # the silver die is on a field, not the platter
    _turn(game, 3)["rolls"][1]["returns"] = ["silver"]


def _spoil_chain(game):  # the yellow row holds the 3 already
    _turn(game, 3)["rolls"][0]["pick"]["chain"][1]["row"] = "yellow"


def _spoil_passive(game):  # white is usable on the platter, so no field die
    _turn(game, 1)["passive"][0].update(
        {"from": "field", "pick": {"die": "silver", "as": "silver", "row": "blue"}})


def _spoil_decline(game):  # declines are refused under passive_may_decline=false
    game["rule_values"]["passive_may_decline"] = False
    _turn(game, 1)["passive"][0] = {"player": "ben", "declines": True}


def _default_returns(game):  # its returns restart turns, legal only under return_allowed
    game["rule_values"] = {}


@pytest.mark.parametrize("name,spoil,words", [
    ("solo.json", _spoil_pick, "round 1 solo roll 2: illegal"),
    ("solo.json", _spoil_free_mark, "round 3 solo roll 2: free mark 12 of bonus"),
    ("solo.json", _spoil_reroll, "round 1 solo roll 2: no re-roll left"),
    ("solo.json", _spoil_plus_one, "round 1 solo +1 #1: {'die': 'yellow'"),
    ("solo.json", _spoil_return, "round 3 solo roll 2: return of silver"),
    ("solo.json", _spoil_chain, "round 3 solo roll 1: yellow may not mark the yellow row"),
    ("two_players.json", _spoil_passive, "round 1 passive ben: a platter die is usable"),
    ("two_players.json", _spoil_decline, "round 1 passive ben: no decline allowed"),
    ("solo.json", _default_returns, "the turn's rolls end"),
])
def test_the_replayer_refuses_an_illegal_move_of_each_kind(tmp_path, name, spoil, words):
    """Every recorded action is checked under the game's rules: a pick, a free mark, a
    re-roll, a +1, a return, a chain mark, a passive pick and a decline made illegal each
    fail the replay with the round, the roll and the move; so do the recorded games'
    returns after a pick that left no die in play, under the default
    return_empty_pool=ends_turn."""
    game = load(name)
    spoil(game)
    (tmp_path / name).write_text(json.dumps(game))
    with pytest.raises(AssertionError, match=re.escape(words)):
        Replay.replay(tmp_path, name)
