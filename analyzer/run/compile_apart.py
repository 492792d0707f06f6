"""Compiling each kernel family in a process of its own, all at once.

A numba compile uses one core. As a whole test-suite run starts (``tests/compiling.py``),
each kernel family compiles in a child process of its own, side by side (``python -m
analyzer.run.compile_apart GAME``), into numba's on-disk cache, where the test workers
find them, and every helper numba compiled on the way: a test that compiles another kernel
loads those instead of compiling them again. The report's lanes
(``analyzer.report_lanes``) ask whether everything is cached to plan their work.

Every game module has ``kernels_compiled()`` (are they in the cache?) and
``compile_kernels()`` (compile them, running each once on the default rules): the game
contract, ``analyzer.registry.GameModule``. Games that share kernels (``GameSpec.kernels``)
compile them once.
"""

from __future__ import annotations

import subprocess
import sys

from analyzer.registry import get_game


def _child(game_id: str) -> subprocess.Popen:
    """``python -m analyzer.run.compile_apart GAME``, started."""
    return subprocess.Popen([sys.executable, "-m", "analyzer.run.compile_apart", game_id],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def finish(game_id: str, child: subprocess.Popen) -> None:
    """Wait for a compiling child; a failure raises ``RuntimeError`` naming the game and the
    child's last line of stderr."""
    _, err = child.communicate()
    if child.returncode != 0:
        last = (err.strip().splitlines() or ["no message"])[-1]
        raise RuntimeError(f"compiling the {game_id} kernels failed: {last}")


def all_compiled(game_ids: list[str]) -> bool:
    """Are the kernels of every game of ``game_ids`` already in numba's cache?"""
    return all(get_game(game_id).load().kernels_compiled() for game_id in game_ids)


def start_side_by_side(game_ids: list[str]) -> dict[str, subprocess.Popen]:
    """Start compiling the kernels of ``game_ids`` that are not cached, one child process
    per kernel family, all at once (on two cores the engines compile side by side); the
    running child of each game compiled (``finish`` waits for it)."""
    pending: dict[str, str] = {}
    for game_id in game_ids:
        spec = get_game(game_id)
        if not spec.load().kernels_compiled():
            pending.setdefault(spec.kernel_family, game_id)
    return {game_id: _child(game_id) for game_id in pending.values()}


def main(argv: list[str]) -> None:
    get_game(argv[0]).load().compile_kernels()


if __name__ == "__main__":
    main(sys.argv[1:])
