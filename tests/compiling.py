"""The games' kernels compiled for a whole test-suite run while the first tests run.

A numba compile uses one core, and the Clever engine's takes far the longest. So before the
test workers start, the controller starts one compiling child per kernel family
(``analyzer.run.compile_apart``) and a thread per child that leaves a file named after the
family in the folder ``FOLDER`` names when the child ends (holding its error, if any). The
tests that play the Clever games run last (``plays_clever``), and each test waits for the
families it plays (``families``). No worker compiles what a child is compiling, and while the
engine compiles on one core, the other runs the tests that need no engine.
"""

from __future__ import annotations

import inspect
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

FOLDER = "DICELAB_TEST_COMPILES"
CLEVER_WORDS = re.compile(r"clever|tpc|tac_|_tac|value|train|same_player|web|coach|advise|"
                          r"network|learned", re.IGNORECASE)
TRAINS = re.compile(r"train|fine_tune", re.IGNORECASE)
LONGEST_WAIT = 1800  # seconds a test waits for a compile before it fails

_children: list[subprocess.Popen] = []


def start(game_ids: list[str]) -> None:
    """Start compiling the kernels of ``game_ids`` that are not cached (the controller)."""
    from analyzer.registry import get_game
    from analyzer.run.compile_apart import start_side_by_side

    folder = Path(tempfile.mkdtemp(prefix="dicelab-compiles-"))
    os.environ[FOLDER] = str(folder)  # the workers, started next, inherit it
    children = start_side_by_side(game_ids)
    started = {get_game(game_id).kernel_family for game_id in children}
    for family in {get_game(game_id).kernel_family for game_id in game_ids} - started:
        (folder / family).write_text("")
    for game_id, child in children.items():
        _children.append(child)
        threading.Thread(target=_watch, daemon=True, args=(
            folder, get_game(game_id).kernel_family, game_id, child)).start()


def yield_to_compiles() -> None:
    """A worker (and the processes its tests start) runs at a lower priority than the
    compiling children while any is compiling, so that the engine the most tests wait for
    is ready soonest; once they end, the workers have the cores to themselves anyway."""
    if os.environ.get(FOLDER):
        os.nice(5)


def _watch(folder: Path, family: str, game_id: str, child: subprocess.Popen) -> None:
    """Wait for ``child`` and leave the family's file (its error, or empty)."""
    from analyzer.run.compile_apart import finish

    try:
        finish(game_id, child)
        message = ""
    except RuntimeError as exc:
        message = str(exc)
    part = folder / f"{family}.part"
    part.write_text(message)
    os.replace(part, folder / family)


def stop() -> None:
    """End the children still compiling and remove the folder (the controller, at the end)."""
    for child in _children:
        if child.poll() is None:
            child.kill()
            child.wait()
    if os.environ.get(FOLDER):
        shutil.rmtree(os.environ.pop(FOLDER), ignore_errors=True)


def _words(item: pytest.Item) -> str:
    """The test's id (its file, name and parameters) and its code."""
    try:
        code = inspect.getsource(item.function)
    except (AttributeError, OSError, TypeError):
        code = ""
    return f"{item.nodeid}\n{code}"


def plays_clever(item: pytest.Item) -> bool:
    """Does the test look as if it plays the Clever games? Generous: a test wrongly counted
    waits longer; one wrongly left out compiles the engine again."""
    return bool(CLEVER_WORDS.search(_words(item)))


def order(item: pytest.Item) -> tuple[bool, bool]:
    """The run's order: the tests that play the Clever games last, and first among them
    those that train (the training kernels compile the longest after the engine's)."""
    return plays_clever(item), not TRAINS.search(_words(item))


def families(item: pytest.Item) -> set[str]:
    """The kernel families the test looks as if it plays (by the games' names, or every
    game's where it runs over them all)."""
    from analyzer.registry import GAMES

    words = _words(item)
    if "GAMES" in words:
        return {spec.kernel_family for spec in GAMES.values()}
    needed = {spec.kernel_family for spec in GAMES.values()
              if re.search(spec.id.replace("-", "[-_ ]?"), words, re.IGNORECASE)}
    if plays_clever(item):
        needed.add(GAMES["thats-pretty-clever"].kernel_family)
    return needed


def wait_for_compiles(item: pytest.Item) -> None:
    """Wait until the kernel families ``item`` plays (``families``) are compiled; a failed
    compile fails the test with the child's error."""
    folder = os.environ.get(FOLDER)
    if not folder:
        return
    deadline = time.monotonic() + LONGEST_WAIT
    for family in sorted(families(item)):
        path = Path(folder) / family
        while not path.exists():
            if time.monotonic() > deadline:
                pytest.fail(f"the {family} kernels did not compile in {LONGEST_WAIT} s")
            time.sleep(0.2)
        if message := path.read_text():
            pytest.fail(message)
