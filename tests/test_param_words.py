"""Every rule parameter of every game reads in plain words: its label, the phrase of each
value a report or what-if shows, its glossary row and the ``dicelab rules`` table."""

import json

import pytest
from click.testing import CliRunner

from analyzer.cli import cli
from analyzer.games.clever.variants import OWN_CHECKS, SHARED_CHECKS
from analyzer.param_words import (change_words, glossary, sample_values, unworded,
                                  variant_words)
from analyzer.params import Param, Words
from analyzer.registry import GAMES

LONGEST = 48  # characters: the words are chart labels
GAME_PARAMS = {game_id: spec.load().PARAMS for game_id, spec in GAMES.items()}
ALL = [(game_id, p) for game_id, params in GAME_PARAMS.items() for p in params]


def _ids(case):
    return f"{case[0]}:{case[1].name}"


def param(game_id: str, name: str) -> Param:
    return next(p for p in GAME_PARAMS[game_id] if p.name == name)


def varied_values(game_id: str, p: Param) -> list:
    """Every value a what-if, tune or report may show: the samples, every whole number in
    range and the Clever check variants' values."""
    values = [p.default, *sample_values(p)]
    if p.kind == "int":
        values += range(int(p.low), int(p.high) + 1)
    if game_id in OWN_CHECKS:
        values += [c[p.name] for c in SHARED_CHECKS + OWN_CHECKS[game_id] if p.name in c]
    return values


def readable(p: Param, text: str) -> bool:
    return (isinstance(text, str) and text.strip() != "" and "_" not in text
            and text.strip() != p.name and len(text) <= LONGEST)


@pytest.mark.parametrize("game_id", list(GAME_PARAMS))
def test_every_parameter_of_every_game_has_words(game_id):
    assert unworded(GAME_PARAMS[game_id]) == []
    labels = [p.label for p in GAME_PARAMS[game_id]]
    assert len(set(labels)) == len(labels), "two rules read alike"


@pytest.mark.parametrize("case", ALL, ids=_ids)
def test_every_varied_value_reads_in_plain_words(case):
    game_id, p = case
    assert readable(p, p.label), p.label
    for value in varied_values(game_id, p):
        assert readable(p, p.words(value)), (value, p.words(value))


@pytest.mark.parametrize("case", [c for c in ALL if c[1].kind in ("bool", "choice")],
                         ids=_ids)
def test_each_value_of_a_switch_or_choice_reads_differently(case):
    _, p = case
    values = [True, False] if p.kind == "bool" else list(p.choices)
    assert len({p.words(v) for v in values}) == len(values)


def test_a_parameter_without_words_fails_not_falls_back_to_its_name():
    bare = Param("rounds", "int", 5, "rounds in a game", low=1, high=9)
    with pytest.raises(ValueError, match="no plain words"):
        bare.words(5)
    with pytest.raises(ValueError, match="no plain words"):
        _ = bare.label
    assert unworded([bare]) == ["rounds: no plain words"]


def test_a_choice_or_sentinel_without_its_phrase_is_named():
    half = Param("ties", "choice", "shared", "t", choices=("shared", "best_area"),
                 plain=Words.choice("tied totals", shared="ties shared"))
    with pytest.raises(ValueError, match="no words for the value best_area"):
        half.words("best_area")
    assert any("best_area" in problem for problem in unworded([half]))
    raw = Param("rounds", "int", 0, "r", low=0, high=9,
                plain=Words.number("rounds in a game", "{} rounds_left"))
    assert unworded([raw]) != []


@pytest.mark.parametrize("game_id", list(GAME_PARAMS))
def test_glossary_covers_every_parameter(game_id):
    params = GAME_PARAMS[game_id]
    rows = glossary(params)
    assert [r["parameter"] for r in rows] == [p.name for p in params]
    for row, p in zip(rows, params):
        assert row["rule"] == p.label and row["meaning"] == p.help
        assert "_" not in row["rule"] and row["meaning"]


@pytest.mark.parametrize("game_id, name, value, words", [
    ("cloverup", "clover_bonus_rerolls", 0, "no re-roll for a clover"),
    ("cloverup", "rerolls", 1, "1 re-roll a turn"),
    ("cloverup", "rerolls", 3, "3 re-rolls a turn"),
    ("cloverup", "double_six_rule", False, "no double-six rule"),
    ("cloverup", "weights", (1, 1, 1, 1, 1, 1, 1), "fair dice"),
    ("cloverup", "weights", (6, 5, 5, 3, 3, 1, 2), "face weights 6,5,5,3,3,1,2"),
    ("cloverup", "one_clover_triples_from", 7, "one clover triples nothing"),
    ("sly-dice", "points_full_house", 25.0, "a full house worth 25 points"),
    ("sly-dice", "rounds", 0, "rounds by player count"),
    ("sly-dice", "bluff_bonus", 1, "a first successful bluff worth 1 point"),
    ("thats-pretty-clever", "round_2_bonus", False, "no round-2 bonus"),
    ("thats-pretty-clever", "round_1_bonus", True, "a re-roll in round 1"),
    ("thats-pretty-clever", "rounds", 0, "rounds by player count"),
    ("thats-pretty-clever", "rounds", 7, "7 rounds"),
    ("thats-pretty-clever", "forfeited_dice", "platter",
     "an unusable roll's dice go to the platter"),
    ("twice-as-clever", "round_3_bonus", True, "a return in round 3"),
    ("twice-as-clever", "return_timing", "rolls_only", "returns before rolls only"),
])
def test_change_words_examples(game_id, name, value, words):
    assert change_words(param(game_id, name), value) == words


def test_change_words_with_the_value_before():
    assert change_words(param("cloverup", "rerolls"), 3, before=2) == \
        "3 re-rolls a turn (from 2)"
    assert change_words(param("twice-as-clever", "rounds"), 5, before=0) == \
        "5 rounds (from rounds by player count)"
    assert change_words(param("twice-as-clever", "ties"), "shared", before="best_area") == \
        "ties shared at once"


def test_variant_words_joins_the_changes():
    params = GAME_PARAMS["thats-pretty-clever"]
    assert variant_words(params, {"round_4_bonus": False, "rounds": 5}) == \
        "no round-4 bonus, 5 rounds"
    assert variant_words(params, {}) == "the rules in force"


@pytest.mark.parametrize("game_id", list(GAME_PARAMS))
def test_rules_command_shows_the_words_beside_each_name(game_id):
    result = CliRunner().invoke(cli, ["rules", game_id, "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["tables"]["parameters"]
    for row, p in zip(rows, GAME_PARAMS[game_id], strict=True):
        assert (row["parameter"], row["rule"], row["in_words"]) == \
            (p.name, p.label, p.words(p.default))
