"""Which network file ``learned`` plays on a variant (``analyzer.games.clever.networks``): a
specialist trained on the rules in force, else the game's own file (Twice As
Clever's ``return_empty_pool=return_allowed``)."""

import json

import numpy as np
import pytest

from analyzer.games.clever import networks, simulation, trained_on
from analyzer.errors import UserError
from analyzer.games.twice_as_clever.model import GAME
from analyzer.params import defaults

ROUNDS = (0, 6, 6, 5, 4)  # rounds by player count


def _write(path, rules: dict, players: list[int]) -> None:
    path.touch()
    path.with_suffix(".json").write_text(
        json.dumps({"trained_on": {"rules": rules, "players": players}}))


def test_a_specialist_plays_only_the_variant_it_was_trained_on(tmp_path):
    own = tmp_path / "value_net.npy"
    _write(own, {"a": 1, "b": "x"}, [1, 2, 3, 4])
    special = tmp_path / "value_net.b_is_y.npy"
    _write(special, {"a": 1, "b": "y"}, [1])
    (tmp_path / "other.b_is_y.npy").touch()  # not beside-named: never a specialist
    values = {"a": 1, "b": "y", "players": 1, "rounds": 0}
    assert networks.specialists(own) == [special]
    assert networks.playing_file(own, values, ROUNDS) == special
    assert networks.playing_file(own, {**values, "players": 2}, ROUNDS) == own
    assert networks.playing_file(own, {**values, "b": "x"}, ROUNDS) == own
    assert networks.playing_file(own, {**values, "a": 2}, ROUNDS) == own
    assert networks.playing_file(own, {**values, "rounds": 5}, ROUNDS) == own
    assert networks.playing_file(own, None, ROUNDS) == own


def test_twice_as_clever_plays_its_return_allowed_specialist_solo():
    """Rules section 12.9 (target: 305 under return_allowed): solo games under
    return_empty_pool=return_allowed play the network trained on that reading, which counts
    as trained on them; games of 2 players play it in both seats too, measured stronger
    there than the game's own networks (``routes.json``), and say so; games of 3 players,
    where it was not, keep the own networks, and say they were trained under ends_turn."""
    values = defaults(GAME.params)
    allowed = {**values, "return_empty_pool": "return_allowed"}
    assert GAME.network_file(values) == GAME.learned_file
    assert GAME.network_file(allowed).name == "value_net.return_allowed.npy"
    assert trained_on.differences(GAME, allowed) == []
    assert not np.array_equal(GAME.learned_row(allowed), GAME.learned_row(values))
    assert np.array_equal(GAME.parse_policy("learned", allowed), GAME.learned_row(allowed))
    two = {**allowed, "players": 2}
    assert GAME.network_file(two).name == "value_net.return_allowed.npy"
    assert trained_on.differences(GAME, two) == ["2 players (trained on 1)"]
    assert trained_on.network_note(GAME, two)[0].startswith(
        "learned plays value_net.return_allowed.npy here: measured on games of 2 players")
    three = {**allowed, "players": 3}
    assert GAME.network_file(three) == GAME.learned_file
    assert trained_on.differences(GAME, three) == [
        "return_empty_pool=return_allowed (trained on ends_turn)"]


def test_outputs_name_the_specialist_that_played():
    """simulate and whatif say which network played a variant that a specialist plays; a
    whatif of the defaults against it plays the rule-conditioned network in both (trained
    on both sides), and says so."""
    values = defaults(GAME.params)
    allowed = {**values, "return_empty_pool": "return_allowed"}
    notes = simulation.simulate(GAME, allowed, ["learned"], 16, seed=3, progress=False).notes
    assert [n for n in notes if "learned plays value_net.return_allowed.npy" in n
            and "return_empty_pool=return_allowed" in n]
    assert not [n for n in notes if "not trained on" in n]
    home = simulation.simulate(GAME, values, ["learned"], 16, seed=3, progress=False).notes
    assert not [n for n in home if "value_net.return_allowed" in n]
    variants = [("bot", allowed, ["heuristic"]), ("restart", allowed, ["learned"])]
    notes = simulation.whatif(GAME, variants, 16, 3, progress=False).notes
    lines = [n for n in notes if "value_net.return_allowed.npy" in n]
    assert len(lines) == 1 and lines[0].startswith("variant 'restart'")
    variants = [("rulebook", values, ["learned"]), ("restart", allowed, ["learned"])]
    notes = simulation.whatif(GAME, variants, 16, 3, progress=False).notes
    assert notes[0].startswith("learned plays value_net.conditioned.npy in every variant")
    assert not [n for n in notes if "value_net.return_allowed.npy" in n]


@pytest.mark.parametrize("text", ["{not json", '{"trained_on": {"rules": 3, "players": [1]}}',
                                  '{"trained_on": []}'])
def test_a_damaged_specialist_record_is_one_clear_error(tmp_path, text):
    """A specialist whose .json is damaged is refused by name, never played."""
    own = tmp_path / "value_net.npy"
    _write(own, {"a": 1}, [1])
    bad = tmp_path / "value_net.broken.npy"
    bad.touch()
    bad.with_suffix(".json").write_text(text)
    with pytest.raises(UserError, match="value_net.broken.json"):
        networks.playing_file(own, {"a": 1, "players": 1, "rounds": 0}, ROUNDS)


@pytest.mark.slow
def test_the_return_allowed_specialist_outscores_the_ends_turn_network_there():
    """Rules section 12.9 (>= 305 under return_allowed): on the same 2,000 solo
    games under return_allowed, the specialist outscores the ends_turn network by more than
    3 points (measured: about 7) and averages at least 305."""
    from analyzer.games.clever import matches
    from kernels.clever import play
    allowed = {**defaults(GAME.params), "return_empty_pool": "return_allowed"}
    means = []
    for row in (GAME.learned_row(allowed), GAME.learned_row()):
        acc, n = matches.play_rows(GAME, allowed, [row], 2000, 20261203, False)
        means.append(acc[0, 0, play.COL_SCORE_SUM] / n)
    assert means[0] - means[1] > 3.0 and means[0] >= 305.0, means
