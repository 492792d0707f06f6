"""Compiling a game's kernels in a process of their own, before a long run.

Code numba compiles in a process runs there linked to the helper functions compiled before
it, which ``kernels.jit`` leaves unoptimised (it optimises each kernel once, as a whole, to
compile about a third faster); a kernel loaded from numba's on-disk cache brings its own
optimised copy of every helper. The Clever engine compiled in the process that then plays
the report's games ran them about 3 times slower than the same engine loaded from the
cache. So a process about to run a game's long simulations first has a child process
compile them (``python -m analyzer.compile_apart GAME``), then loads them from the cache.

A game module opts in with ``kernels_compiled()`` (are they in the cache?),
``compile_kernels()`` (compile them, running each once on the default rules) and
``COMPILE_SECONDS`` (about how long that takes on a 2-core machine).
"""

from __future__ import annotations

import os
import subprocess
import sys

from analyzer.driver import compile_notice
from analyzer.registry import get_game


CHILD = "DICELAB_COMPILING_APART"  # set in the child: it compiles in place


def ensure_compiled(game_id: str, progress: bool = False) -> bool:
    """Compile the game's kernels in a child process unless they are cached (or the game
    does not opt in, or this is the child); True when it compiled them. With
    ``progress``, one line on stderr says so, with the expected wait."""
    module = get_game(game_id).load()
    if os.environ.get(CHILD) or not hasattr(module, "kernels_compiled") \
            or module.kernels_compiled():
        return False
    if progress:
        compile_notice(getattr(module, "COMPILE_SECONDS", 60))
    _wait(game_id, _child(game_id))
    return True


def _child(game_id: str) -> subprocess.Popen:
    """``python -m analyzer.compile_apart GAME``, started."""
    return subprocess.Popen([sys.executable, "-m", "analyzer.compile_apart", game_id],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, CHILD: "1"})


def _wait(game_id: str, child: subprocess.Popen) -> None:
    """Wait for a compiling child; its last line of stderr names a failure."""
    _, err = child.communicate()
    if child.returncode != 0:
        last = (err.strip().splitlines() or ["no message"])[-1]
        raise RuntimeError(f"compiling the {game_id} kernels failed: {last}")


def all_compiled(game_ids: list[str]) -> bool:
    """Are the kernels of every game that compiles apart already in numba's cache?"""
    modules = [get_game(game_id).load() for game_id in game_ids]
    return all(m.kernels_compiled() for m in modules if hasattr(m, "kernels_compiled"))


def compile_side_by_side(game_ids: list[str]) -> list[str]:
    """Compile the kernels of ``game_ids`` that opt in and are not cached, one child
    process per kernel family, all at once (on two cores the engines compile side by
    side); returns the games compiled. A failure raises as in ``ensure_compiled``."""
    pending: dict[str, str] = {}
    for game_id in game_ids:
        spec = get_game(game_id)
        module = spec.load()
        if hasattr(module, "kernels_compiled") and not module.kernels_compiled():
            pending.setdefault(spec.kernel_family, game_id)
    children = {game_id: _child(game_id) for game_id in pending.values()}
    for game_id, child in children.items():
        _wait(game_id, child)
    return list(children)


def main(argv: list[str]) -> None:
    get_game(argv[0]).load().compile_kernels()


if __name__ == "__main__":
    main(sys.argv[1:])
