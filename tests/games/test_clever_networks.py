"""The one network ``learned`` plays and its card (``analyzer.games.clever.networks``): it
plays every rule set, outputs name it as the card does, and a card that cannot be read is
one clear error."""

import dataclasses
import json

import pytest

from analyzer.errors import UserError
from analyzer.games.clever import networks, trained_on, value_weights
from analyzer.games.thats_pretty_clever.model import GAME as TPC_GAME
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.params import defaults

GAMES = pytest.mark.parametrize("game", [TPC_GAME, TAC_GAME], ids=lambda g: g.id)


@GAMES
def test_one_network_plays_every_rule_set_and_player_count(game):
    """Every shape, player count and rule reading plays the game's one file; its card
    names the player, and its training covers rounds 4-8 and 1-4 players."""
    base = defaults(game.params)
    shapes = [{**base, "players": n, "rounds": r, "round_2_bonus": bonus}
              for n in (1, 2, 3, 4) for r in (0, 4, 8) for bonus in (True, False)]
    assert {game.network_file(v) for v in [*shapes, None]} == {game.learned_file}
    assert {tuple(game.learned_row(v)) for v in shapes[:4]} == {tuple(game.learned_row())}
    card = networks.card(game.learned_file)
    assert card["name"].startswith(game.title)
    assert trained_on.player_name(game) == f"learned, {card['name']}"
    assert card["trained"]["rounds"] == [4, 5, 6, 7, 8]
    assert card["trained"]["players"] == [1, 2, 3, 4]
    assert not any(trained_on.differences(game, v) for v in shapes)


@GAMES
def test_rules_outside_the_cards_training_are_named(game):
    """A round count outside the card's, or a rule value it never played, is named with
    what it was trained on; a rule the card does not name counts as played at its
    default only."""
    base = {**defaults(game.params), "players": 1}
    assert trained_on.differences(game, {**base, "rounds": 12}) == [
        "12 rounds (trained on 4-8)"]
    trained = {"rounds": [6], "players": [1], "rules": {"wasted_pick": [False]}}
    assert networks.untrained(trained, {**base, "wasted_pick": True, "players": 2}, 6,
                              defaults(game.params)) == [
        "2 players (trained on 1)", "wasted_pick=True (trained on False)"]
    assert networks.untrained(trained, {**base, "solo_ties": "colour_order"}, 6,
                              defaults(game.params)) == [
        "solo_ties=colour_order (never trained with it changed)"]


@pytest.mark.parametrize("card", [None, {"name": 3}, {"name": "x", "trained": {}},
                                  {"name": "x", "trained": {"rounds": [], "players": [1],
                                                           "rules": {}}}])
def test_a_network_without_a_good_card_is_one_clear_error(tmp_path, card):
    """A network file whose settings lack a card, or hold a malformed one, is refused in
    one line naming what the card must hold."""
    members, info = value_weights.load(TPC_GAME.learned_file, TPC_GAME.kernel_game)
    path = tmp_path / "value_net.npy"
    info = {k: v for k, v in info.items() if k not in ("card", value_weights.DIGEST)}
    value_weights.save(path, members, info if card is None else {**info, "card": card})
    game = dataclasses.replace(TPC_GAME, folder=tmp_path)
    try:
        with pytest.raises(UserError, match="its card must name the player"):
            trained_on.player_name(game)
    finally:
        networks.forget()


def test_settings_that_cannot_be_read_are_one_clear_error(tmp_path):
    (tmp_path / "mine.json").write_text("{not json")
    with pytest.raises(UserError, match="cannot be read"):
        networks.card(tmp_path / "mine.npy")
    networks.forget()
    assert json.loads(TPC_GAME.learned_file.with_suffix(".json").read_text())["card"]
