"""numba is used as its authors intend: nothing of it is replaced, in any file of the
project or at run time on any kernel; its cache lives in the kernels' folder through its
documented setting."""

import ast
import importlib
import inspect
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest
from numba.core.registry import CPUDispatcher

import kernels

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("analyzer", "kernels", "reports", "scripts", "tests")


def _numba_names(tree: ast.Module) -> set[str]:
    """The names a module binds to numba or llvmlite (modules, classes, functions)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update((a.asname or a.name).split(".")[0] for a in node.names
                         if a.name.split(".")[0] in ("numba", "llvmlite"))
        elif isinstance(node, ast.ImportFrom) and node.module \
                and node.module.split(".")[0] in ("numba", "llvmlite"):
            names.update(a.asname or a.name for a in node.names)
    return names


def _root(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _assignments_to(tree: ast.Module, names: set[str]) -> list[int]:
    """The lines that assign an attribute of one of ``names`` (or ``setattr`` it)."""
    lines = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        lines += [node.lineno for t in targets
                  if isinstance(t, ast.Attribute) and _root(t) in names]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("setattr", "delattr") and node.args \
                and _root(node.args[0]) in names:
            lines.append(node.lineno)
    return lines


def test_no_file_assigns_anything_of_numba():
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text())
            found += [f"{path.relative_to(ROOT)}:{line}"
                      for line in _assignments_to(tree, _numba_names(tree))]
    assert found == []


def test_the_check_finds_a_replaced_method():
    tree = ast.parse("from numba.core import codegen\n"
                     "codegen.CPUCodeLibrary.finalize = lambda self: None\n"
                     "import numba as nb\nsetattr(nb.core, 'x', 1)\n")
    assert _assignments_to(tree, _numba_names(tree)) == [2, 4]


def _kernel_dispatchers() -> list:
    found = []
    for info in pkgutil.walk_packages(kernels.__path__, "kernels."):
        module = importlib.import_module(info.name)
        found += [value for _, value in inspect.getmembers(module)
                  if isinstance(value, CPUDispatcher)]
    return found


def test_no_kernel_has_a_method_of_its_own():
    """No kernel function's dispatcher carries a replacement for one of numba's methods."""
    dispatchers = _kernel_dispatchers()
    assert len(dispatchers) > 200
    replaced = [f"{d.py_func.__module__}.{d.py_func.__name__}.{name}"
                for d in dispatchers for name in vars(d)
                if callable(getattr(type(d), name, None))]
    assert replaced == []


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
