"""The kernels' njit (kernels/jit.py): one specialisation per argument type, helpers kept
as code to link (the same results as numba's way), compile variants in the cache key,
borrowed helpers (no reference counts, the same results, a broken promise refused)."""

import os
import subprocess
import sys

import numpy as np
import pytest

from kernels import jit
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


@njit(cache=False)
def _thrice(x):
    return _triple(x)


@njit
def _triple(x):
    return 3 * x


def test_a_helper_first_compiled_to_link_runs_when_called_from_python():
    """``_triple``, compiled as code to link into ``_thrice`` (no machine code of its own),
    compiles again when Python calls it."""
    assert _thrice(2) == 6
    assert jit._is_link_only(_triple.overloads[_triple.signatures[0]])
    assert _triple(5) == 15
    assert not jit._is_link_only(_triple.overloads[_triple.signatures[0]])


@njit(cache=True)
def _variant_probe(x):
    return x + 1


def test_compile_variants_key_the_cache_and_are_fixed_by_the_first_compile():
    """A package compiled as one variant keeps it for the process, and its cache entries
    say which variant they are."""
    package = __name__
    jit.declare_variant(package, "size", "one")
    jit.declare_variant(package, "colour", "red")
    jit.set_variant(package, "size", "two")  # nothing compiled yet: allowed
    assert _variant_probe(1) == 2
    jit.set_variant(package, "size", "two")
    with pytest.raises(RuntimeError, match="compiled with size 'two' already"):
        jit.set_variant(package, "size", "one")
    codegen = _variant_probe.targetctx.codegen()
    key = _variant_probe._cache._index_key(_variant_probe.signatures[0], codegen)
    assert key[2][-1] == "two+red"
    assert jit.in_cache(_variant_probe)
    jit._variants[package]["colour"] = "blue"  # what a process of another variant sees
    try:
        assert not jit.in_cache(_variant_probe)
    finally:
        jit._variants[package]["colour"] = "red"


_PROGRAM = """
from analyzer.games.clever.simulation import play_games
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


@njit(cache=False, borrowed=True)
def _append_nonzero(out, n, x):
    if x != 0:  # the array dies in two branches: what numba's pruning misses
        out[n] = x
        n += 1
    return n


@njit(cache=False)
def _nonzero(values, out):
    n = 0
    for v in values:
        n = _append_nonzero(out, n, v)
    return n


def test_a_borrowed_helper_gives_the_same_results():
    values = np.array([0, 3, 0, 0, 7, 1], np.int64)
    out = np.zeros(6, np.int64)
    assert _nonzero(values, out) == 3
    assert out[:3].tolist() == [3, 7, 1]
    assert _nonzero.py_func(values, np.zeros(6, np.int64)) == 3


@njit(cache=False, borrowed=True)
def _returns_its_array(x):
    return x


@njit(cache=False)
def _counted(x):
    return x[0]


@njit(cache=False, borrowed=True)
def _calls_a_counted_function(x):
    return _counted(x) + 1


@pytest.mark.parametrize("func, message", [
    (_returns_its_array, "returns an array"),
    (_calls_a_counted_function, "calls _counted, which is not"),
])
def test_a_borrowed_function_that_breaks_its_promise_is_refused(func, message):
    with pytest.raises(TypeError, match=message):
        func(np.zeros(3, np.int64))


_CACHE_PROGRAM = """
import numba.core.config as config
import kernels, kernels.jit
print(config.CACHE_DIR == str(kernels.cache_dir()), config.CACHE_DIR)
"""


@pytest.mark.parametrize("given", ["", "chosen"])
def test_numba_caches_in_the_kernels_folder_or_where_the_user_says(tmp_path, given):
    """numba's cache folder is set through its documented ``NUMBA_CACHE_DIR``: the kernels'
    own folder when the variable is unset or empty, the user's folder when it is set."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["NUMBA_CACHE_DIR"] = str(tmp_path / given) if given else ""
    out = subprocess.run([sys.executable, "-c", _CACHE_PROGRAM], env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    assert out[0] == "True"
    assert out[1] == str(tmp_path / given) if given else "dicelab-numba" in out[1]
