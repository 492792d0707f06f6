"""The kernels' njit (kernels/jit.py): one specialisation per argument type, helpers kept
as code to link (the same results as numba's way), compile variants in the cache key."""

import os
import subprocess
import sys

import pytest

from kernels.jit import njit


@njit
def _add(x, k):
    return x + k


@njit(cache=False)
def _twice(x):
    return _add(x, 1) + _add(x, 2) + _add(x, 2)


def test_constants_share_one_specialisation():
    assert _twice(3) == 4 + 5 + 5
    assert len(_add.signatures) == 1  # numba's own njit compiles one per constant: 2


_PROGRAM = """
from analyzer.clever.simulation import play_games
from analyzer.params import defaults
from analyzer.registry import get_game
game = get_game("thats-pretty-clever").load().GAME
acc, n = play_games(game, {**defaults(game.params), "players": 2}, ["greedy", "random"],
                    1024, 7, progress=False)
print(int(acc.sum()), int((acc * acc).sum() % 1000003))
"""


@pytest.mark.slow  # two cold compiles of the Clever engine, one of them numba's way: 3 min
def test_link_only_helpers_change_no_result(tmp_path):
    """Greedy against random games, compiled from empty caches both ways, agree."""
    outs = []
    for flag in ("0", "1"):
        env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / flag),
               "DICELAB_NUMBA_LINK_ALL": flag}
        outs.append(subprocess.run([sys.executable, "-c", _PROGRAM], env=env, check=True,
                                   capture_output=True, text=True).stdout)
    assert outs[0] == outs[1] and outs[0].strip()
