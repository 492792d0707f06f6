"""The ``card`` policy plays exactly its strategy card's rules: hand-made positions where a
rule decides, the kernel's choice checked with the rule and without it; the card's printed
lines and the kernel's numbers come from the same data (a number changed in the data
changes both); a card with every rule off plays greedy's games; and the card's solo score
lies between greedy's and the heuristic's."""

import json

import numpy as np
import pytest

from analyzer.errors import UserError
from analyzer.games.clever import card_rules
from analyzer.games.clever.card_measure import paired_scores
from analyzer.games.thats_pretty_clever.model import GAME as TPC
from analyzer.games.twice_as_clever.model import GAME as TAC
from analyzer.params import defaults
from kernels.clever import card as kc
from kernels.clever import play
from kernels.clever_base.sheet import H_PLUS_GOT, H_REROLL_GOT, H_ROUNDS
from kernels.rng import turn_stream
from kernels.thats_pretty_clever import layout as T
from kernels.twice_as_clever import layout as W

W_, Y_, B_, G_, O_, P_ = range(6)  # That's Pretty Clever's dice (Twice As Clever: pink 4,
# silver 5)
TEST_CARD = {"tuned": "by hand", "rules": [  # That's Pretty Clever, numbers fixed here
    {"name": "count", "block": "Choosing a die",
     "words": "Count a use as its points now, plus {points_blue} for blue, {points_green} "
              "for green, {points_yellow} for yellow, {points_purple} for purple.",
     "numbers": {"points_yellow": 1, "points_blue": 8, "points_green": 3, "points_purple": 1}},
    {"name": "keep", "block": "Choosing a die",
     "words": "Your 1st pick sends at most {keep_1} dice to the platter, your 2nd at most "
              "{keep_2}; each costs {platter} points.",
     "numbers": {"keep_1": 2, "keep_2": 1, "platter": 2}},
    {"name": "purple", "block": "Good uses",
     "words": "Purple: at most {purple_step} above the number before.",
     "numbers": {"purple_step": 3}},
    {"name": "reroll", "block": "Actions", "words": "Re-roll below {reroll_below}.",
     "numbers": {"reroll_below": 3}},
    {"name": "plus", "block": "Actions", "words": "Spend a +1 above {plus_above}.",
     "numbers": {"plus_above": 6}},
    {"name": "passive", "block": "Passive picks", "words": "Take the use that counts most.",
     "numbers": {"passive": 1}, "players": "both"},
    {"name": "gift", "block": "Leaving the platter", "players": "table",
     "words": "Take off {gift} x what the best die left counts for an opponent.",
     "numbers": {"gift": 2}},
]}


def card(data=None, game=TPC):
    return card_rules.from_data(game, data or TEST_CARD, "test card")


class Position:
    """A hand-made position of one solo sheet: dice faces and places, the kernel's work
    arrays, and the card's choice there."""

    def __init__(self, game, faces, where=None, round_=0):
        self.game = game
        self.sheet = game.blank_sheet(defaults(game.params))
        self.sheet[H_ROUNDS] = 6
        self.sheet[T.S_ROUND] = round_
        self.faces = np.array(faces, np.int64)
        self.where = np.array(where or [play.POOL] * 6, np.int64)
        self.moves = np.zeros((play.MAX_MOVES, 3), np.int64)
        self.scratch = np.zeros(play.WORK_LEN, np.int64)
        play.new_game_work(self.scratch)
        self.stream = np.uint64(turn_stream(np.uint64(1), 0, 0))

    def legal(self, place):
        mask = sum(1 << d for d in range(6) if self.where[d] == place)
        return play.legal_moves(self.sheet, self.faces, np.int64(mask), self.moves,
                                np.bool_(False))

    def pick(self, row, pick=0):
        """The card's active pick ``pick`` of the dice in play: ``(die, area)``."""
        n = self.legal(play.POOL)
        i, _ = kc.card_pick(self.sheet[None, :], np.int64(0), self.faces, self.where,
                            np.int64(pick), self.moves, n, row, self.stream, np.int64(0),
                            self.scratch)
        return tuple(self.moves[i, :2])

    def passive(self, row):
        """The area the passive pick enters (``play.passive_pick``), None if none."""
        log = np.zeros(play.LOG_LEN, np.int64)
        play.passive_pick(self.sheet, self.faces, self.where, row, self.stream, np.int64(0),
                          self.moves, self.scratch, np.bool_(False),
                          self.game.game_rules(defaults(self.game.params)), log)
        entered = np.flatnonzero(log[play.LOG_DICE:play.LOG_DICE + 5])
        return int(entered[0]) if len(entered) else None

    def rerolls(self, row):
        self.sheet[H_REROLL_GOT] = 1
        return kc.card_rerolls(self.sheet[None, :], np.int64(0), self.faces, self.where,
                               np.int64(0), np.int64(63), self.moves, row, self.stream,
                               np.int64(0), self.scratch)

    def plus(self, row, last_turn=False):
        self.sheet[H_PLUS_GOT] = 1
        n = play.legal_moves(self.sheet, self.faces, np.int64(63), self.moves, np.bool_(False))
        i = kc.card_plus(self.sheet, self.faces, self.moves, n, row, self.stream, np.int64(0),
                         self.scratch, np.bool_(last_turn))
        return tuple(self.moves[i, :2]) if i >= 0 else None


def cost(position, die):
    """Dice a pick of ``die`` sends to the platter."""
    return sum(1 for d in range(6) if position.where[d] == play.POOL
               and position.faces[d] < position.faces[die])


def keep_position():
    """Blue 1 (its sum 3 already crossed), white 2, yellow 3, green 4, purple 5, orange 6:
    the high dice score most at once but send most dice to the platter."""
    p = Position(TPC, [2, 3, 1, 4, 6, 5])
    p.sheet[T.S_BLUE] |= 1 << (3 - 2)
    return p


def test_keep_rule_decides_the_first_pick():
    c = card()
    die, area = keep_position().pick(c.row())
    assert (die, area) == (W_, T.GREEN_AREA)  # 1 point + 3 for green, 1 die sent (2 pts)
    assert cost(keep_position(), die) <= c.rule("keep").numbers["keep_1"]
    other, _ = keep_position().pick(c.row(("keep",)))
    assert cost(keep_position(), other) > c.rule("keep").numbers["keep_1"]


def test_good_use_rule_keeps_purple_climbing_slowly():
    """Purple holds a 1: a purple 5 rises 4, more than the card's step of 3."""
    def position():
        p = Position(TPC, [6, 2, 6, 6, 6, 5], [play.FIELD] * 6)
        p.where[Y_] = p.where[P_] = play.PLATTER
        p.sheet[T.S_PURPLE], p.sheet[T.S_PURPLE_VALUES] = 1, 1
        return p

    assert position().passive(card().row()) == T.YELLOW_AREA
    assert position().passive(card().row(("purple",))) == T.PURPLE_AREA


def test_passive_rule_counts_the_card_s_points():
    """A blue sum of 7 (1 point now, 8 more by the card) against an orange 6 (6 points)."""
    def position():
        p = Position(TPC, [3, 1, 4, 1, 6, 1], [play.FIELD] * 6)
        p.where[B_] = p.where[O_] = play.PLATTER
        return p

    assert position().passive(card().row()) == T.BLUE_AREA
    assert position().passive(card().row(("passive",))) == T.ORANGE_AREA  # greedy's pick
    assert position().passive(card().row(("count",))) == T.ORANGE_AREA


def test_reroll_rule_reads_its_threshold():
    """A roll whose best use counts exactly ``count``: re-rolled below, kept at it."""
    p = keep_position()
    _, count = kc.card_pick(p.sheet[None, :], np.int64(0), p.faces, p.where, np.int64(0),
                            p.moves, p.legal(play.POOL), card().row(), p.stream,
                            np.int64(0), p.scratch)
    above = card().with_numbers(reroll_below=count + 0.5)
    assert keep_position().rerolls(above.row())
    assert not keep_position().rerolls(card().with_numbers(reroll_below=count).row())
    assert not keep_position().rerolls(above.row(("reroll",)))


def test_plus_rule_waits_for_a_use_worth_it():
    """Dice worth at most a few points: the +1 is kept, but spent on the last turn."""
    p = Position(TPC, [1, 1, 1, 1, 1, 1], [play.FIELD] * 6)
    for area in (T.S_GREEN,):
        p.sheet[area] = T.TRACK  # green is full
    p.sheet[T.S_BLUE] = T.BLUE_CELLS  # so is blue
    assert p.plus(card().row()) is None
    assert p.plus(card().row(), last_turn=True) is not None
    assert p.plus(card().row(("plus",))) is not None  # greedy: any gain


def test_gift_rule_takes_the_die_an_opponent_needs_on_the_last_pick():
    """Two players; the last pick, a green 6 or an orange 5 in play. Orange counts 5 for
    me, green 1 + 3; but the opponent's green needs a 6 for 11 points (14 by the card),
    so the card takes the green die and leaves the orange one."""
    def position():
        p = Position(TPC, [1, 1, 1, 6, 5, 1], [play.FIELD] * 6)
        p.where[G_] = p.where[O_] = play.POOL
        p.sheets = np.stack([p.sheet, p.sheet])
        p.sheets[1, T.S_GREEN] = 10
        return p

    def last_pick(row):
        p = position()
        n = p.legal(play.POOL)
        i, _ = kc.card_pick(p.sheets, np.int64(0), p.faces, p.where, np.int64(2), p.moves, n,
                            row, p.stream, np.int64(0), p.scratch)
        return tuple(p.moves[i, :2])

    assert last_pick(card().row()) == (G_, T.GREEN_AREA)
    assert last_pick(card().row(("gift",))) == (O_, T.ORANGE_AREA)


def test_a_changed_number_changes_the_words_and_the_choice(tmp_path):
    """The printed line and the kernel's row come from the same data: a card file where
    a green cross counts 0 points more, not 3, reads so and picks white for purple (2
    points now, 1 more for purple), not for green."""
    data = json.loads(json.dumps(TEST_CARD))
    data["rules"][0]["numbers"]["points_green"] = 0
    path = tmp_path / "card_rules.json"
    path.write_text(json.dumps(data))
    changed = card_rules.load(TPC, path)
    assert "0 for green" in changed.rule("count").text()
    assert "3 for green" in card().rule("count").text()
    assert keep_position().pick(card().row()) == (W_, T.GREEN_AREA)
    assert keep_position().pick(changed.row()) == (W_, T.PURPLE_AREA)


def test_the_shipped_cards_load_and_read_as_words():
    for game in (TPC, TAC):
        shipped = card_rules.load(game)
        assert shipped.rules and shipped.tuned
        for rule in shipped.rules:
            text = rule.text()
            assert "{" not in text and "_" not in text, text
            assert (shipped.row()[[shipped.known[k][0] for k in rule.numbers]]
                    == list(rule.numbers.values())).all()
        assert (game.parse_policy("card") == shipped.row()).all()
        name = shipped.rules[0].name
        assert (game.parse_policy(f"card:-{name}") == shipped.row((name,))).all()
        with pytest.raises(UserError, match="has no rule"):
            game.parse_policy("card:-nothing")


@pytest.mark.parametrize("game", [TPC, TAC], ids=lambda g: g.id)
def test_a_card_with_every_rule_off_plays_greedy(game):
    """Every number at its value off: the same games as greedy, to the point."""
    off = card_rules.Card((), "", card_rules.numbers(game)).row()
    solo = {**defaults(game.params), "players": 1}
    (greedy, cardless), _ = paired_scores(game, solo, [game.parse_policy("greedy"), off],
                                          256, 5)
    assert cardless["diff"] == 0 and cardless["diff_ci95_high"] == 0


def tac_blue_position():
    """Twice As Clever, passive: a blue sum of 3 (white 1, blue 2) or a pink 2."""
    p = Position(TAC, [1, 6, 2, 6, 2, 6], [play.FIELD] * 6)
    p.where[B_] = p.where[W.PINK] = play.PLATTER
    return p


def test_tac_blue_waits_for_a_high_first_sum():
    data = {"tuned": "by hand", "rules": [
        {"name": "count", "block": "Choosing a die", "words": "Blue {points_blue} more.",
         "numbers": {"points_blue": 5}},
        {"name": "blue", "block": "Good uses", "words": "Blue: start at {blue_first}.",
         "numbers": {"blue_first": 5}},
        {"name": "passive", "block": "Passive picks", "words": "By the count.",
         "numbers": {"passive": 1}}]}
    tac = card(data, TAC)
    assert tac_blue_position().passive(tac.row()) == W.PINK_AREA
    assert tac_blue_position().passive(tac.row(("blue",))) == W.BLUE_AREA


@pytest.mark.parametrize("game", [TPC, TAC], ids=lambda g: g.id)
def test_card_scores_between_greedy_and_the_heuristic(game):
    """256 solo games on one seed: the card's interval above greedy's, below the
    heuristic's."""
    solo = {**defaults(game.params), "players": 1}
    rows = [game.parse_policy(p) for p in ("greedy", "card", "heuristic")]
    (greedy, played, heuristic), _ = paired_scores(game, solo, rows, 256, 3)
    assert greedy["ci95_high"] < played["ci95_low"]
    assert played["ci95_high"] < heuristic["ci95_low"]


@pytest.mark.slow
@pytest.mark.parametrize("game", [TPC, TAC], ids=lambda g: g.id)
def test_card_closes_half_the_gap_from_greedy_to_the_heuristic(game):
    """2,048 solo games each on one seed: the card's interval above the midpoint of
    greedy's and the heuristic's means."""
    solo = {**defaults(game.params), "players": 1}
    rows = [game.parse_policy(p) for p in ("greedy", "card", "heuristic")]
    (greedy, played, heuristic), _ = paired_scores(game, solo, rows, 2048, 3)
    assert played["ci95_low"] > (greedy["value"] + heuristic["value"]) / 2


def test_card_lines_are_the_rules_words_with_their_worth():
    from analyzer.games.clever.card import rule_line

    rule = card().rule("keep")
    line = rule_line(rule, {"gain": 2.25, "low": 1.5, "high": 3.0}, None)
    assert line == f"{rule.text()} [+2.2 points a game (95% CI +1.5 to +3.0)]"
    both = rule_line(card().rule("passive"), {"gain": 1.0, "low": 0.5, "high": 1.5},
                     {"win_rate": 0.53, "win_ci95": [0.52, 0.54]})
    assert both.endswith("wins 53.0% of two-player games against the card without it "
                         "(52.0% to 54.0%)]")


def test_a_cards_measured_worth_is_kept_and_measured_again_when_a_number_changes(
        tmp_path, monkeypatch):
    """The card's rule measurements are kept on disk under its policy rows: asked again,
    they are read back; with a number changed, or other rules, they are measured again."""
    from analyzer.games.clever.card import _kept

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    measured = []

    def measure():
        measured.append(1)
        return {"keep": {"gain": 2.0 + len(measured), "low": 1.0, "high": 3.0, "games": 8}}

    solo = {**defaults(TPC.params), "players": 1}
    first = _kept("card-solo-gains", TPC, card(), solo, measure)
    assert _kept("card-solo-gains", TPC, card(), solo, measure) == first
    assert len(measured) == 1 and first["keep"]["gain"] == 3.0
    _kept("card-solo-gains", TPC, card().with_numbers(keep_1=1), solo, measure)
    _kept("card-solo-gains", TPC, card(), {**solo, "round_4_bonus": False}, measure)
    assert len(measured) == 3
