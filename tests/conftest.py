"""Shared fixtures: small sample sizes and a fixed seed keep the default run fast."""

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture
def cloverup_values():
    from analyzer.games.cloverup.model import PARAMS
    from analyzer.params import defaults

    return defaults(PARAMS)
