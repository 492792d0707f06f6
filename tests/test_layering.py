"""Architecture rules: kernels use no pandas/click/matplotlib and draw no random numbers
outside kernels/rng.py's counter-based streams; the registry imports no numba."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _loaded_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, check=True,
                         capture_output=True, text=True).stdout
    return {name.split(".")[0] for name in out.split()}


def test_kernels_import_no_orchestration_libraries():
    loaded = _loaded_after("import kernels.cloverup.play, kernels.cloverup.game")
    assert not loaded & {"pandas", "click", "matplotlib", "analyzer", "reports"}


def test_registry_imports_no_numba():
    loaded = _loaded_after("import analyzer.registry, analyzer.cli")
    assert not loaded & {"numba", "pandas", "matplotlib"}


def test_no_global_random_state_in_kernels():
    for path in (REPO / "kernels").rglob("*.py"):
        text = path.read_text()
        assert "np.random" not in text and "import random" not in text, path


def _imports(path: Path, package: str) -> set[str]:
    """The project modules ``path`` imports (at the top or inside functions)."""
    import ast

    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            base = node.module if node.level == 0 else f"{package}.{node.module}"
            found |= {base} | {f"{base}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def test_no_import_cycles_between_modules():
    """Imports run one way: no module reaches itself through the modules it imports
    (imports inside functions count too)."""
    modules = {}
    for top in ("kernels", "analyzer", "reports"):
        for path in (REPO / top).rglob("*.py"):
            name = ".".join(path.relative_to(REPO).with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path
    graph = {name: {m for m in _imports(path, name.rsplit(".", 1)[0]) if m in modules
                    and m != name and not name.startswith(m + ".")}
             for name, path in modules.items()}
    cycles = []
    state: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


# The floors imports run down (a module imports its own floor or below), inside kernels/
# too: the shared pieces, the Clever base, the game packages (each alone), the Clever
# engine that dispatches to them; then the analyzer, the CLI above the reports, and the
# entry point above the CLI.
FLOORS = {"kernels": 0, "kernels.jit": 0, "kernels.rng": 0, "kernels.accumulate": 0,
          "kernels.clever_base": 1, "kernels.cloverup": 2, "kernels.sly_dice": 2,
          "kernels.thats_pretty_clever": 2, "kernels.twice_as_clever": 2,
          "kernels.clever": 3, "analyzer": 4, "reports": 5, "analyzer.cli": 6,
          "analyzer.__main__": 7, "analyzer.entry": 7}


def _floor(module: str) -> tuple[int, str]:
    """The floor of ``module`` and the package that holds it there (the longest match)."""
    key = max((k for k in FLOORS if module == k or module.startswith(k + ".")), key=len)
    return FLOORS[key], key


def test_imports_run_down_the_floors():
    """No import runs back up a floor, and the game packages of one floor import none of
    each other (imports inside functions count too)."""
    wrong = []
    for top in ("kernels", "analyzer", "reports"):
        for path in (REPO / top).rglob("*.py"):
            name = ".".join(path.relative_to(REPO).with_suffix("").parts)
            name = name.removesuffix(".__init__")
            level, home = _floor(name)
            for imported in _imports(path, name.rsplit(".", 1)[0]):
                if imported.split(".")[0] not in ("kernels", "analyzer", "reports"):
                    continue
                their, other = _floor(imported)
                if their > level or (their == level == 2 and other != home):
                    wrong.append(f"{name} -> {imported}")
    assert not wrong, "\n".join(sorted(wrong))
