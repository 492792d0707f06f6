"""What the shared Clever engine compiles in this process. A process that runs one command
of one game (``analyzer.cli.main``) compiles it for that game's sheet alone and for the
kinds of policy the command plays alone (random and greedy compile in about half the time
of all kinds); every other process (the report, the tests) compiles all of it."""

from __future__ import annotations

from collections.abc import Iterable

_alone: dict[str, int | None] = {"game": None}  # the kernel game a one-command process plays


def compile_alone(kernel_game: int) -> None:
    """This process runs one command of the game ``kernel_game`` (``TPC`` or ``TAC``):
    compile the engine for its sheet alone, and let the command name its policies
    (``compile_for_policies``)."""
    from kernels.clever.sheets import compile_only

    compile_only(kernel_game)
    _alone["game"] = kernel_game


def compile_for_policies(names: Iterable[str], untrained: bool = False) -> None:
    """In a one-command process, compile the engine for the kinds of the policies
    ``names`` alone (``kernels.clever.play.compile_policies``), and the heuristic too with
    ``untrained`` (``learned`` plays rules its network was not trained on: the heuristic's
    figure goes beside it); elsewhere nothing changes. Call it before anything of the
    engine runs. Unknown names are left to ``CleverGame.parse_policy`` to refuse."""
    if _alone["game"] is None:
        return
    from kernels.clever import play

    bases = [name.strip().lower().partition(":")[0] for name in names]
    if untrained and "learned" in bases:
        bases.append("heuristic")
    play.compile_policies({play.POLICY_NAMES.index(b) for b in bases if b in play.POLICY_NAMES})
