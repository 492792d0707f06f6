"""Conformance over every registered game: the interface the CLI and the report rely on,
valid parameter defaults, a rules page, and a command group with help."""

import dataclasses
import inspect
import sys
import types

import click
import pytest
from click.testing import CliRunner

from analyzer.errors import UserError
from analyzer.registry import GAMES, MEMBERS, GameModule, available_games, get_game
from tests.conftest import REPO


def test_unknown_game_lists_the_games():
    with pytest.raises(UserError, match="cloverup"):
        get_game("nosuch")


@pytest.mark.parametrize("game_id", available_games())
def test_game_module_keeps_the_game_contract(game_id):
    """Every member of ``GameModule`` is there, callables with the protocol's parameters;
    the compile hooks answer."""
    spec = get_game(game_id)
    module = spec.load()
    assert isinstance(module, GameModule)
    for name in MEMBERS:
        member, declared = getattr(module, name), getattr(GameModule, name, None)
        if callable(declared):
            wanted = list(inspect.signature(declared).parameters)[1:]  # less self
            assert list(inspect.signature(member).parameters) == wanted, name
    assert isinstance(module.kernels_compiled(), bool)
    assert isinstance(module.RULINGS, tuple) and isinstance(module.POLICY_HELP, dict)
    assert 1 <= spec.min_players <= spec.max_players
    for param in module.PARAMS:
        assert param.validate(param.default) == param.validate(param.validate(param.default))
        assert param.help and param.accepted()
    group = module.commands()
    assert isinstance(group, click.Group) and {"simulate"} <= set(group.commands)
    for name in group.commands:
        result = CliRunner().invoke(group, [name, "--help"])
        assert result.exit_code == 0, (name, result.output)


@pytest.mark.parametrize("game_id", available_games())
def test_game_has_rules_page(game_id):
    """Every game ships its rules page in the project, and every rule parameter is on it."""
    page = REPO / GAMES[game_id].rules_doc
    text = page.read_text()
    for param in GAMES[game_id].load().PARAMS:
        assert f"`{param.name}`" in text, (game_id, param.name)


def test_registry_ids_are_kebab_case():
    for game_id, spec in GAMES.items():
        assert game_id == spec.id and game_id == game_id.lower() and "_" not in game_id


def test_a_module_missing_a_member_is_refused(monkeypatch):
    """A game module without every member of the contract does not load."""
    fake = types.ModuleType("fake_game")
    fake.PARAMS, fake.POLICY_HELP = (), {}
    monkeypatch.setitem(sys.modules, "fake_game", fake)
    spec = dataclasses.replace(GAMES["cloverup"], module="fake_game")
    with pytest.raises(TypeError, match="fake_game lacks RULINGS, commands"):
        spec.load()
