"""The shapes a rule-conditioned network leaves to the game's own network (issue 37,
``analyzer.games.clever.training.shapes``): measured on paired solo games when it ships,
recorded in its ``trained_on`` record, and where ``learned`` then plays the own network,
with a note saying why (rules sections "Rounds" and "Round-track bonuses" make a shape)."""

import dataclasses
import json

import pytest

from analyzer.games.clever import networks, simulation, trained_on, variants
from analyzer.games.clever.training import shapes
from analyzer.games.thats_pretty_clever.model import GAME as TPC_GAME
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.params import defaults

SEVEN = {"shape": [7, True, True, True, True], "games": 400, "own": 407.0,
         "conditioned": 378.0, "diff": -29.0, "diff_ci95": [-31.0, -27.0]}


def test_every_shape_of_the_distribution_is_measured_once():
    """Each round count of the distribution with each set of round-track bonuses, every
    other rule at its default; the solo game's own shape among them."""
    found = shapes.solo_shapes(TAC_GAME)
    keys = [networks.shape_key(v, TAC_GAME.layout.ROUNDS_BY_PLAYERS) for v in found]
    low, high = variants.ROUNDS_RANGE
    assert len(found) == (high - low + 1) * 16 == len({tuple(k) for k in keys})
    assert [6, True, True, True, True] in keys
    base = {**defaults(TAC_GAME.params), "players": 1}
    assert all({k: v for k, v in values.items() if k not in networks.SHAPE} ==
               {k: v for k, v in base.items() if k not in networks.SHAPE} for values in found)


@pytest.mark.parametrize("game", [TPC_GAME, TAC_GAME], ids=lambda g: g.id)
def test_a_network_against_itself_leaves_no_shape_and_the_weaker_leaves_them(game,
                                                                            monkeypatch):
    """The same row on both sides: every paired difference is 0 and no shape is left to
    the own network. The heuristic as the "conditioned" row: the own network, trained on
    6 rounds, outscores it with 7 (left to it) and falls below it with 4 (not left)."""
    few = [v for v in shapes.solo_shapes(game) if v["rounds"] in (4, 7)
           and v["round_2_bonus"] and v["round_3_bonus"]]
    monkeypatch.setattr(shapes, "solo_shapes", lambda g: few)
    learned = game.learned_row()
    same = shapes.measure(game, learned, learned, 32)
    assert [m["diff"] for m in same] == [0.0] * len(few) and shapes.own_plays(same) == []
    weaker = shapes.measure(game, learned, game.parse_policy("heuristic"), 32)
    left = shapes.own_plays(weaker)
    assert all(m["own"] > m["conditioned"] for m in left)
    keys = [m["shape"] for m in left]
    assert [7, True, True, True, True] in keys and [4, True, True, True, True] not in keys
    assert [m["own"] for m in weaker] == [m["own"] for m in same]  # the same games


def test_a_shape_within_noise_stays_with_the_trained_network():
    """A shape goes to the own network only where the paired difference's 95% interval
    lies wholly on its side: a higher mean within noise keeps the conditioned network."""
    near = {**SEVEN, "shape": [8, True, True, False, False], "own": 417.0,
            "conditioned": 416.0, "diff": -1.0, "diff_ci95": [-7.7, 5.7]}
    better = {**SEVEN, "shape": [5, True, True, True, True], "own": 150.0,
              "conditioned": 160.0, "diff": 10.0, "diff_ci95": [7.0, 13.0]}
    assert shapes.own_plays([SEVEN, near, better]) == [SEVEN]


def _game_with_conditioned(tmp_path, monkeypatch, left: list[dict]):
    """Twice As Clever with its own file and a rule-conditioned file beside it (the own
    network's weights, a record naming the distribution) that leaves ``left`` to it."""
    source = TAC_GAME.learned_file
    for suffix in (".npy", ".json"):
        (tmp_path / f"value_net{suffix}").write_bytes(source.with_suffix(suffix).read_bytes())
    (tmp_path / "value_net.conditioned.npy").write_bytes(source.read_bytes())
    info = json.loads(source.with_suffix(".json").read_text())
    info["trained_on"] = {**trained_on.training_record(
        TAC_GAME.params, defaults(TAC_GAME.params), [1]),
        "variants": variants.distribution(TAC_GAME), "own_plays": left}
    (tmp_path / "value_net.conditioned.json").write_text(json.dumps(info))
    monkeypatch.setenv("DICELAB_NETWORKS", str(tmp_path / "here"))
    networks.forget()
    return dataclasses.replace(TAC_GAME, learned_file=tmp_path / "value_net.npy")


def test_learned_plays_the_own_network_on_a_shape_left_to_it(tmp_path, monkeypatch):
    """On a shape the conditioned network leaves to it (7 rounds), the own network plays
    every solo variant of that shape, and in two-player games of it every seat; the note
    names both networks and the means measured, beside the note that the own network was
    not trained on these rules. Another shape stays with the conditioned network, and a
    comparison of the defaults with 7 rounds plays the conditioned network in both, a
    network trained on both sides."""
    game = _game_with_conditioned(tmp_path, monkeypatch, [SEVEN])
    try:
        base = {**defaults(game.params), "players": 1}
        seven = {**base, "rounds": 7}
        playing = {label: game.network_file({**base, **changes}).name for label, changes in (
            ("seven", {"rounds": 7}), ("seven ties", {"rounds": 7, "solo_ties": "colour_order"}),
            ("seven no r3", {"rounds": 7, "round_3_bonus": False}),
            ("eight", {"rounds": 8}), ("duo seven", {"players": 2, "rounds": 7}))}
        assert playing == {"seven": "value_net.npy", "seven ties": "value_net.npy",
                           "seven no r3": "value_net.conditioned.npy",
                           "eight": "value_net.conditioned.npy", "duo seven": "value_net.npy"}
        line = ("learned plays value_net.npy here: on solo games of 7 rounds it outscored "
                "value_net.conditioned.npy, the rule-conditioned network trained on these "
                "rules (407.0 against 378.0 points in 400 solo games)")
        assert trained_on.network_note(game, seven) == [line]
        six = {**base, "rounds": 6}  # the own network's rules: no line, though left to it
        six_left = {**SEVEN, "shape": [6, True, True, True, True]}
        game = _game_with_conditioned(tmp_path, monkeypatch, [SEVEN, six_left])
        assert game.network_file(six).name == "value_net.npy"
        assert trained_on.network_note(game, six) == trained_on.network_note(game, base) == []
        assert trained_on.network_note(game, {**six, "solo_ties": "colour_order"})
        assert trained_on.network_note(game, {**seven, "players": 2}) == [line]
        assert trained_on.differences(game, seven) == ["rounds=7 (trained on 6 for 1 player)"]
        notes = simulation.simulate(game, seven, ["learned"], 8, seed=3, progress=False).notes
        assert line in notes and [n for n in notes if "not trained on" in n]
        assert game.comparison_file([base, seven]).name == "value_net.conditioned.npy"
    finally:
        networks.forget()


def test_a_shape_left_to_the_own_network_is_named_in_words(tmp_path, monkeypatch):
    """The note names the round count and the round-track bonuses switched off."""
    left = {**SEVEN, "shape": [5, True, False, True, False]}
    game = _game_with_conditioned(tmp_path, monkeypatch, [left])
    try:
        values = {**defaults(game.params), "players": 1, "rounds": 5,
                  "round_2_bonus": False, "round_4_bonus": False}
        assert game.network_file(values).name == "value_net.npy"
        assert "on solo games of 5 rounds, without the round-2 and round-4 bonuses it" \
            in trained_on.network_note(game, values)[0]
    finally:
        networks.forget()


def test_the_report_names_the_network_its_comparisons_play(tmp_path, monkeypatch):
    """A shape left to the own network (6 rounds without the round-1 bonus) alone plays
    the own network, but the report's round-bonus comparison plays the conditioned network
    on every side, so its words say it was trained without each bonus."""
    from analyzer.games.clever import report
    left = {**SEVEN, "shape": [6, False, True, True, True]}
    game = _game_with_conditioned(tmp_path, monkeypatch, [left])
    try:
        base = {**defaults(game.params), "players": 1}
        no_first = {**base, "round_1_bonus": False}
        assert game.network_file(no_first).name == "value_net.npy"
        assert trained_on.differences(game, no_first)
        assert report._trained_without_bonuses(game, base)
        assert "value_net.conditioned.npy" in report.bonus_note(game, base)
    finally:
        networks.forget()
