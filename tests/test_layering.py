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
