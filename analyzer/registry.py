"""The game registry: static facts about every game, the contract its analyzer module
keeps (``GameModule``), and lazy loading of that module.

Importing this module imports neither numba nor pandas, so ``dicelab --help`` and
``dicelab games`` stay fast. Adding a game means adding one ``GameSpec`` to ``GAMES``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Protocol, cast, runtime_checkable

from analyzer.errors import UserError


@runtime_checkable
class GameModule(Protocol):
    """What every game's analyzer module offers, every member required."""

    PARAMS: tuple  # the rule parameters (``analyzer.params.Param``), the player count first
    POLICY_HELP: dict[str, str]  # policy name: what it plays
    RULINGS: tuple[str, ...]  # the engine's rulings on the rules, shown by ``dicelab rules``

    def commands(self) -> Any:
        """The game's click group (``dicelab GAME ...``)."""

    def report_section(self, values: dict[str, Any], seed: int, quick: bool = False,
                       progress: bool = True) -> Any:
        """The game's part of the balance report (``analyzer.sections.Section``)."""

    def cheatsheet(self, values: dict[str, Any]) -> Any:
        """The game's one-page strategy card for the rule ``values``."""

    def kernels_compiled(self) -> bool:
        """Are the game's play kernels in numba's cache (``analyzer.run.compile_apart``)?"""

    def compile_kernels(self) -> None:
        """Compile them, running each once on the default rules."""


MEMBERS = ("PARAMS", "POLICY_HELP", "RULINGS", "commands", "report_section", "cheatsheet",
           "kernels_compiled", "compile_kernels")


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

    def load(self) -> GameModule:
        """Import and return the game's analyzer module (a ``GameModule``)."""
        module = importlib.import_module(self.module)
        missing = [name for name in MEMBERS if not hasattr(module, name)]
        if missing:
            raise TypeError(f"{self.module} lacks {', '.join(missing)} of the game contract "
                            "(analyzer.registry.GameModule)")
        return cast(GameModule, module)


# One line a game: id, title, analyzer module, fewest and most players, summary[, the
# family of compiled kernels it shares].
CLOVERUP = GameSpec("cloverup", "CloverUp", "analyzer.games.cloverup", 1, 6,
                    "three weighted seven-outcome dice, clovers, double and triple sixes")
SLY_DICE = GameSpec("sly-dice", "Sly Dice", "analyzer.games.sly_dice", 2, 4,
                    "hidden dice, 18 combination cards, claims, bluffs and accusations")
THATS_PRETTY_CLEVER = GameSpec(
    "thats-pretty-clever", "That's Pretty Clever", "analyzer.games.thats_pretty_clever", 1, 4,
    "six coloured dice, the silver platter, five areas with chained bonuses", "clever")
TWICE_AS_CLEVER = GameSpec(
    "twice-as-clever", "Twice As Clever", "analyzer.games.twice_as_clever", 1, 4,
    "six dice with silver, the platter chain, returns, circle-then-cross yellow", "clever")

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
