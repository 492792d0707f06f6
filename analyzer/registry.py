"""The game registry: static facts about every game, and lazy loading of its analyzer module.

Importing this module imports neither numba nor pandas, so ``dicelab --help`` and
``dicelab games`` stay fast. Adding a game means adding one ``GameSpec`` to ``GAMES``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from analyzer.errors import UserError


@dataclass(frozen=True)
class GameSpec:
    """What the registry knows about a game without importing it."""

    id: str
    title: str
    module: str  # the analyzer module, e.g. "analyzer.games.cloverup"
    min_players: int
    max_players: int
    summary: str
    kernels: str = ""  # games that share compiled kernels name the same family here

    @property
    def kernel_family(self) -> str:
        return self.kernels or self.id

    @property
    def rules_doc(self) -> str:
        return f"docs/rules/{self.id}.md"

    def load(self) -> ModuleType:
        """Import and return the game's analyzer module."""
        return importlib.import_module(self.module)


CLOVERUP = GameSpec(
    id="cloverup",
    title="CloverUp",
    module="analyzer.games.cloverup",
    min_players=1,
    max_players=6,
    summary="three weighted seven-outcome dice, clovers, double and triple sixes",
)

SLY_DICE = GameSpec(
    id="sly-dice",
    title="Sly Dice",
    module="analyzer.games.sly_dice",
    min_players=2,
    max_players=4,
    summary="hidden dice, 18 combination cards, claims, bluffs and accusations",
)

THATS_PRETTY_CLEVER = GameSpec(
    id="thats-pretty-clever",
    title="That's Pretty Clever",
    module="analyzer.games.thats_pretty_clever",
    min_players=1,
    max_players=4,
    summary="six coloured dice, the silver platter, five areas with chained bonuses",
    kernels="clever",
)

TWICE_AS_CLEVER = GameSpec(
    id="twice-as-clever",
    title="Twice As Clever",
    module="analyzer.games.twice_as_clever",
    min_players=1,
    max_players=4,
    summary="six dice with silver, the platter chain, returns, circle-then-cross yellow",
    kernels="clever",
)

GAMES: dict[str, GameSpec] = {spec.id: spec for spec in (CLOVERUP, SLY_DICE,
                                                         THATS_PRETTY_CLEVER, TWICE_AS_CLEVER)}


def available_games() -> list[str]:
    """Ids of all registered games, in registry order."""
    return list(GAMES)


def get_game(game_id: str) -> GameSpec:
    """The spec of ``game_id``; a ``UserError`` naming the valid ids otherwise."""
    try:
        return GAMES[game_id]
    except KeyError:
        raise UserError(
            f"unknown game {game_id!r}; available games: {', '.join(GAMES)}"
        ) from None
