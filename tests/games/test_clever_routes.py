"""Measured routes (``analyzer.games.clever.routes``): where more than one shipped
network file could play a Clever variant, ``learned`` plays the one measured strongest on
the same games, solo and in two-player games (rules sections "Rounds" and "Round-track
bonuses" make a game's shape)."""

import json

import pytest

from analyzer.errors import UserError
from analyzer.games.clever import networks, routes, trained_on, variants
from analyzer.games.clever.training import route_points, shapes
from analyzer.games.thats_pretty_clever.model import GAME as TPC_GAME
from analyzer.games.twice_as_clever.model import GAME as TAC_GAME
from analyzer.params import defaults

ROUNDS = (0, 6, 6, 5, 4)  # rounds by player count
EIGHT = [8, True, True, True, True]
BONUSES = {f"round_{r}_bonus": True for r in range(1, 5)}


def _write(path, rules: dict, players: list[int], **extra) -> None:
    path.write_bytes(path.name.encode())  # each file its own bytes, its own digest
    path.with_suffix(".json").write_text(
        json.dumps({"trained_on": {"rules": rules, "players": players, **extra}}))


def _folder(tmp_path, monkeypatch, points: list[dict]):
    """A game folder: its own network (trained on a=1 with 6 rounds), a rule-conditioned
    one (``a`` drawn, 4-8 rounds), an 8-round specialist and ``routes.json`` of
    ``points``; no specialist trained here."""
    own = tmp_path / "value_net.npy"
    _write(own, {"a": 1}, [1, 2, 3, 4])
    _write(tmp_path / "value_net.conditioned.npy", {"a": 1}, [1],
           variants={"params": ["a", "rounds"], "rounds": [4, 8]})
    _write(tmp_path / "value_net.rounds_8.npy", {"a": 1}, [1], rounds=8)
    files = {p.name: routes.digest(p) for p in tmp_path.glob("*.npy")}
    routes.path_for(own).write_text(json.dumps(routes.sealed(
        {"seed": 1, "files": files, "defaults": {"a": 1}, "points": points})))
    monkeypatch.setenv("DICELAB_NETWORKS", str(tmp_path / "here"))
    networks.forget()
    return own


def _point(players: int, plays: str, rules: dict | None = None) -> dict:
    means = {"value_net.rounds_8.npy": 400.0, "value_net.npy": 380.0,
             "value_net.conditioned.npy": 410.0}
    return {"players": players, "shape": EIGHT, "rules": rules or {}, "games": 200,
            "means": means, "diff_ci95": {}, "baseline": "value_net.rounds_8.npy",
            "plays": plays}


def test_a_measured_point_sends_its_rules_to_the_file_measured_strongest(tmp_path,
                                                                        monkeypatch):
    """8 rounds: the specialist by trained-on order; the routes measured the conditioned
    network stronger in two-player games only, so it plays those, solo stays with the
    specialist, and a comparison (``measured=False``) and other shapes keep trained-on
    order."""
    own = _folder(tmp_path, monkeypatch, [_point(1, "value_net.rounds_8.npy"),
                                          _point(2, "value_net.conditioned.npy")])
    try:
        solo = {**BONUSES, "a": 1, "players": 1, "rounds": 8}
        duo = {**solo, "players": 2}
        assert networks.playing_file(own, solo, ROUNDS).name == "value_net.rounds_8.npy"
        assert networks.playing_file(own, duo, ROUNDS).name == "value_net.conditioned.npy"
        assert networks.playing_file(own, duo, ROUNDS, measured=False).name == \
            "value_net.rounds_8.npy"
        assert networks.playing_file(own, {**duo, "players": 3}, ROUNDS).name == \
            "value_net.rounds_8.npy"  # not measured with 3 players
        assert networks.playing_file(own, {**duo, "rounds": 7}, ROUNDS).name == \
            "value_net.conditioned.npy"
    finally:
        networks.forget()


def test_a_point_decides_its_shape_whatever_the_other_rules(tmp_path, monkeypatch):
    """With a=2 in force (the points measured a=1): the file each point chose still plays,
    the own network too though it was trained on a=1 alone; the note says the point was
    measured with the other rules at their defaults, and the off-training note applies."""
    import dataclasses
    own = _folder(tmp_path, monkeypatch, [_point(1, "value_net.conditioned.npy"),
                                          _point(2, "value_net.npy")])
    try:
        solo = {**BONUSES, "a": 2, "players": 1, "rounds": 8}
        assert networks.playing_file(own, solo, ROUNDS).name == "value_net.conditioned.npy"
        duo = {**solo, "players": 2}
        assert networks.playing_file(own, duo, ROUNDS).name == "value_net.npy"
        assert networks.playing_file(own, duo, ROUNDS, measured=False).name == \
            "value_net.conditioned.npy"  # a comparison: trained-on order
        game = dataclasses.replace(TPC_GAME, learned_file=own,
                                   layout=type("L", (), {"ROUNDS_BY_PLAYERS": ROUNDS}),
                                   params=())
        assert trained_on.network_note(game, duo) == [
            "learned plays value_net.npy here: measured on games of 2 players of 8 rounds, "
            "the other rules at their defaults, it outscored value_net.conditioned.npy, the "
            "network trained nearest these rules (380.0 against 410.0 points a player in "
            "200 games)"]
        assert trained_on.differences(game, duo)
    finally:
        networks.forget()


def test_a_shape_is_named_in_words():
    """A point's shape in a note: its round count and the round-track bonuses it has
    switched off."""
    assert trained_on._shape_words([5, True, False, True, False]) == \
        "5 rounds, without the round-2 and round-4 bonuses"
    assert trained_on._shape_words([7, True, True, True, True]) == "7 rounds"


def test_every_shape_of_the_distribution_is_a_point_once():
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


def test_a_comparison_plays_one_network_on_every_side_where_routes_split_them():
    """Twice As Clever, two players: the routes send 7 rounds to the own network (trained
    on 6) and the defaults to it too, but a comparison of the defaults with 7 rounds plays
    the rule-conditioned network on both sides; the report's round-bonus values (solo)
    name it."""
    from analyzer.games.clever import report
    base = {**defaults(TAC_GAME.params), "players": 1}
    duo = {**base, "players": 2}
    seven = {**duo, "rounds": 7}
    assert TAC_GAME.network_file(seven) == TAC_GAME.network_file(duo) == TAC_GAME.learned_file
    assert TAC_GAME.comparison_file([duo, seven]).name == "value_net.conditioned.npy"
    assert report._trained_without_bonuses(TAC_GAME, base)
    assert "value_net.conditioned.npy" in report.bonus_note(TAC_GAME, base)


def test_the_most_specific_point_decides(tmp_path, monkeypatch):
    """A specialist variant's point (a=3) decides its rules; the shape's point the rest."""
    own = _folder(tmp_path, monkeypatch, [_point(1, "value_net.rounds_8.npy"),
                                          _point(1, "value_net.conditioned.npy", {"a": 3})])
    try:
        solo = {**BONUSES, "a": 1, "players": 1, "rounds": 8}
        assert networks.playing_file(own, solo, ROUNDS).name == "value_net.rounds_8.npy"
        assert networks.playing_file(own, {**solo, "a": 3}, ROUNDS).name == \
            "value_net.conditioned.npy"
    finally:
        networks.forget()


def test_routes_of_a_changed_network_are_not_used(tmp_path, monkeypatch):
    """Once a file the routes measured changes, its weights or its settings (``.json``:
    how it plays), they are out of date: trained-on order."""
    duo = {**BONUSES, "a": 1, "players": 2, "rounds": 8}
    for changed in ("value_net.rounds_8.npy", "value_net.conditioned.json"):
        own = _folder(tmp_path, monkeypatch, [_point(2, "value_net.conditioned.npy")])
        try:
            assert networks.playing_file(own, duo, ROUNDS).name == "value_net.conditioned.npy"
            path = tmp_path / changed
            path.write_bytes(path.read_bytes() + b" ")
            networks.forget()
            assert routes.load(own)["stale"]
            assert networks.playing_file(own, duo, ROUNDS).name == "value_net.rounds_8.npy"
        finally:
            networks.forget()


@pytest.mark.parametrize("text", ["{not json", '{"files": {}, "points": []}',
                                  '{"files": {}, "defaults": {}, "points": [{"players": 1}]}'])
def test_a_damaged_routes_file_is_one_clear_error(tmp_path, monkeypatch, text):
    own = _folder(tmp_path, monkeypatch, [])
    routes.path_for(own).write_text(text)
    _refused(own, "routes.json.*measure_routes")


def test_a_routes_file_changed_after_it_was_written_is_refused(tmp_path, monkeypatch):
    """One measured mean edited by hand: the file's own SHA-256 no longer matches, so it
    is one clear error, never read."""
    own = _folder(tmp_path, monkeypatch, [_point(2, "value_net.conditioned.npy")])
    data = json.loads(routes.path_for(own).read_text())
    data["points"][0]["means"]["value_net.npy"] = 500.0
    routes.path_for(own).write_text(json.dumps(data))
    _refused(own, "routes.json' is damaged")


def _refused(own, pattern: str) -> None:
    """Playing a two-player 8-round game of the folder of ``own`` is one ``UserError``
    matching ``pattern``: its routes file is never read."""
    networks.forget()
    try:
        with pytest.raises(UserError, match=pattern):
            networks.playing_file(own, {**BONUSES, "a": 1, "players": 2, "rounds": 8}, ROUNDS)
    finally:
        networks.forget()


def test_the_file_that_plays_a_point_beats_trained_on_order_beyond_noise():
    """The baseline keeps a point unless another's paired 95% interval lies wholly above
    it; then the best mean of those."""
    means = {"base": 300.0, "a": 305.0, "b": 309.0, "c": 312.0}
    assert route_points.choose(means, {"a": [1.0, 9.0], "b": [-0.5, 18.0]}, "base") == "a"
    assert route_points.choose(means, {"a": [1.0, 9.0], "c": [0.1, 24.0]}, "base") == "c"
    assert route_points.choose(means, {"b": [-0.5, 18.0]}, "base") == "base"


def test_a_point_is_measured_on_the_same_games_for_every_candidate(monkeypatch, tmp_path):
    """That's Pretty Clever with 8 rounds, two players: the 8-round specialist (trained-on
    order's), the own network and the conditioned network each play the same games in
    both seats; the baseline's difference from itself is not listed."""
    monkeypatch.setenv("DICELAB_NETWORKS", str(tmp_path))  # no specialist trained here
    networks.forget()
    values = {**defaults(TPC_GAME.params), "players": 2, "rounds": 8}
    try:
        point = route_points.measure_point(TPC_GAME, values, 8)
    finally:
        networks.forget()
    assert point["baseline"] == "value_net.rounds_8.npy" and point["games"] == 8
    assert list(point["means"]) == ["value_net.rounds_8.npy", "value_net.npy",
                                    "value_net.conditioned.npy"]
    assert set(point["diff_ci95"]) == {"value_net.npy", "value_net.conditioned.npy"}
    assert point["shape"] == EIGHT and point["rules"] == {} and point["players"] == 2
    assert point["plays"] == route_points.choose(point["means"], point["diff_ci95"],
                                                 point["baseline"])


@pytest.mark.parametrize("game", [TPC_GAME, TAC_GAME], ids=lambda g: g.id)
def test_the_shipped_routes_measured_the_shipped_networks(game):
    """Each game ships routes measured on its networks as they are now, covering every
    shape of the conditioned network's distribution with each player count."""
    data = routes.load(game.learned_file)
    assert data and not data["stale"]
    covered = {(p["players"], tuple(p["shape"])) for p in data["points"] if not p["rules"]}
    low, high = variants.ROUNDS_RANGE
    assert len(covered) == 4 * (high - low + 1) * 16


def test_a_routed_file_is_named_with_what_was_measured(tmp_path, monkeypatch):
    """The note names the file that plays, the one trained-on order would have played
    and both means on the point measured."""
    import dataclasses
    own = _folder(tmp_path, monkeypatch, [_point(2, "value_net.conditioned.npy")])
    try:
        game = dataclasses.replace(TPC_GAME, learned_file=own,
                                   layout=type("L", (), {"ROUNDS_BY_PLAYERS": ROUNDS}),
                                   params=())
        values = {**BONUSES, "a": 1, "players": 2, "rounds": 8}
        assert trained_on.network_note(game, values) == [
            "learned plays value_net.conditioned.npy here: measured on games of 2 players "
            "of 8 rounds, it outscored value_net.rounds_8.npy, the network trained nearest "
            "these rules (410.0 against 400.0 points a player in 200 games)"]
    finally:
        networks.forget()


@pytest.mark.parametrize("game, players, shape", [
    (TPC_GAME, 4, [6, True, True, True, True]), (TPC_GAME, 3, [7, True, True, True, True]),
    (TAC_GAME, 3, [7, False, False, False, False]), (TAC_GAME, 4, [5, True, True, True, False])],
    ids=["tpc-4p-6r", "tpc-3p-7r", "tac-3p-7r-no-bonus", "tac-4p-5r-no-r4"])
def test_a_route_holds_on_held_out_games(game, players, shape, monkeypatch, tmp_path):
    """The file a shipped route chose beats trained-on order's again on other games (a
    seed the routes never used), beyond noise: measured, not a lucky draw."""
    point = next(p for p in routes.load(game.learned_file)["points"]
                 if p["players"] == players and p["shape"] == shape and not p["rules"])
    assert point["plays"] != point["baseline"]
    monkeypatch.setattr(route_points, "SEED", 783_000_000)
    monkeypatch.setenv("DICELAB_NETWORKS", str(tmp_path))  # no specialist trained here
    networks.forget()
    values = {**defaults(game.params), "players": players, "rounds": shape[0],
              **dict(zip(networks.SHAPE[1:], shape[1:]))}
    try:
        again = route_points.measure_point(game, values, 100)
    finally:
        networks.forget()
    assert again["baseline"] == point["baseline"]
    assert again["diff_ci95"][point["plays"]][0] > 0.0, again


def test_a_reach_variant_changes_only_rules_outside_the_point(game=TAC_GAME):
    """A variant of a point for ``measure_reach``: the point's player count, shape and
    rules kept, exactly the number of other drawn parameters asked for changed."""
    import numpy as np
    point = {"players": 3, "shape": [7, True, False, True, True],
             "rules": {"return_empty_pool": "return_allowed"}}
    base = defaults(game.params)
    rng = np.random.default_rng(4)
    for changes in (1, 2):
        values = route_points.reach_values(game, point, changes, rng)
        assert networks.shape_key(values, game.layout.ROUNDS_BY_PLAYERS) == point["shape"]
        assert values["players"] == 3 and values["return_empty_pool"] == "return_allowed"
        moved = [k for k in base if k not in (*networks.SHAPE, "players", "return_empty_pool")
                 and values[k] != base[k]]
        assert len(moved) == changes


def test_the_reach_of_a_route_compares_the_routed_file_with_trained_on_order(monkeypatch,
                                                                           tmp_path):
    """Each comparison plays the file the routes send the variant to against the one
    trained-on order picks, two different files, on the same games."""
    monkeypatch.setenv("DICELAB_NETWORKS", str(tmp_path))  # no specialist trained here
    networks.forget()
    try:
        found = route_points.measure_reach(TPC_GAME, 4, 1, 4)
        assert found, "a moved 4-player point whose variants change the file"
        for rec in found:
            values = {**defaults(TPC_GAME.params), **dict(zip(networks.SHAPE, rec["shape"])),
                      **rec["rules"], "players": 4}
            own = TPC_GAME.learned_file
            rounds_by_players = TPC_GAME.layout.ROUNDS_BY_PLAYERS
            assert rec["routed"] == networks.playing_file(own, values, rounds_by_players).name
            assert rec["order"] == networks.playing_file(own, values, rounds_by_players,
                                                         measured=False).name
            assert rec["routed"] != rec["order"] and rec["games"] == 4
            low, high = rec["diff_ci95"]
            assert low <= rec["means"][1] - rec["means"][0] <= high
    finally:
        networks.forget()
