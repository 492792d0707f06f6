"""Conformance over every registered game: the interface the CLI and the report rely on,
valid parameter defaults, a rules page, and a command group with help."""

import click
import pytest
from click.testing import CliRunner

from analyzer.errors import UserError
from analyzer.registry import GAMES, available_games, get_game
from tests.conftest import REPO


def test_unknown_game_lists_the_games():
    with pytest.raises(UserError, match="cloverup"):
        get_game("nosuch")


@pytest.mark.parametrize("game_id", available_games())
def test_game_module_offers_the_interface(game_id):
    spec = get_game(game_id)
    module = spec.load()
    for name in ("PARAMS", "POLICY_HELP", "commands", "report_section", "cheatsheet"):
        assert hasattr(module, name), name
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
