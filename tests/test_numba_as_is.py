"""numba is used as its authors intend: nothing of it is replaced, in any file of the
project or at run time on any kernel; its cache lives in the kernels' folder through its
documented setting."""

import ast
import importlib
import inspect
import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
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



def test_another_copy_of_the_kernels_has_a_cache_of_its_own(tmp_path):
    """A second checkout or environment with the very same kernel sources caches apart:
    numba keeps its compiled code apart by source path anyway, so what the other copy
    compiled must never count as compiled for this one (``analyzer.run.compile_apart``)."""
    shutil.copytree(Path(kernels.__file__).parent, tmp_path / "kernels",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    program = "import kernels; print(kernels.__file__, kernels.cache_dir())"
    folders = {}
    for where in (tmp_path, Path(kernels.__file__).parents[1]):
        source, folder = subprocess.run([sys.executable, "-c", program], cwd=where, env=env,
                                        check=True, capture_output=True,
                                        text=True).stdout.split()
        assert Path(source).is_relative_to(where)
        folders[where] = folder
    assert len(set(folders.values())) == 2

def _constant(node: ast.expr, names: dict):
    """The int or bool a call argument always is (a literal or a module's int), or None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _constant(node.operand, names)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant):
        value = node.value
    elif isinstance(node, ast.Name):
        value = names.get(node.id)
    elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        value = getattr(names.get(node.value.id), node.attr, None)
    else:
        return None
    return value if type(value) in (int, bool) else None


def _callee(node: ast.expr, names: dict):
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return getattr(names.get(node.value.id), node.attr, None)
    return None


def _constant_locals(tree: ast.AST, names: dict) -> dict:
    """The local names a function sets to a constant somewhere: numba types the constant as
    a literal, and while it infers types it compiles a callee for that literal too, even
    where the name is set again later (a loop's ``best = -1``)."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                pairs = zip(target.elts, node.value.elts) if isinstance(target, ast.Tuple) \
                    and isinstance(node.value, ast.Tuple) else [(target, node.value)]
                for name, value in pairs:
                    constant = _constant(value, names)
                    if isinstance(name, ast.Name) and constant is not None:
                        found[name.id] = constant
    return found


def _literal_calls_in(tree: ast.AST, names: dict, where: str) -> list[str]:
    names = {**names, **_constant_locals(tree, names)}
    found = []
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        callee = _callee(call.func, names)
        if not isinstance(callee, CPUDispatcher) \
                or callee.targetoptions.get("inline") == "always":
            continue
        arguments = call.args + [k.value for k in call.keywords]
        found += [f"{where}: {ast.unparse(call)[:80]} (argument {i + 1})"
                  for i, arg in enumerate(arguments) if _constant(arg, names) is not None]
    return found


def literal_calls(dispatchers: list) -> list[str]:
    """Calls from one kernel function to another (not inlined) that pass a constant int or
    bool: numba types such an argument as a literal and compiles the callee once more for
    it, with everything it calls."""
    return [line for d in dispatchers for line in _literal_calls_in(
        ast.parse(inspect.getsource(d.py_func).lstrip()), d.py_func.__globals__,
        f"{d.py_func.__module__}.{d.py_func.__name__}")]


def test_no_kernel_function_is_called_with_a_constant():
    """Constants passed between kernel functions are ``np.int64`` / ``np.bool_`` values, so
    that each function compiles once for each layout of its arguments."""
    assert literal_calls(_kernel_dispatchers()) == []


def test_the_check_finds_a_constant_argument():
    from kernels.clever_base import sparse

    source = ("fill(idx, val, n, 4, 1.0, c)\nsparse.thermometer(idx, val, n, -N, 1.0, c)\n"
              "fill(idx, val, n, np.int64(4), F, c)\nfill(idx, val, n, N + 1, True, c)\n"
              "best = -1\nfor i in range(3):\n    best = fill(idx, val, n, best, 1.0, c)\n"
              "k = np.int64(0)\nfill(idx, val, n, k, 1.0, c)\nput(idx, val, n, 4, 1.0)\n")
    names = {"fill": sparse.thermometer, "put": sparse.put, "sparse": sparse, "np": np,
             "N": 4, "F": False}  # put is inlined: a constant reaches no compile of its own
    assert [line.split("(argument ")[1] for line in _literal_calls_in(
        ast.parse(source), names, "caller")] == ["4)", "4)", "5)", "5)", "4)"]
