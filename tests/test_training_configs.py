"""The shipped networks' training configs (``value_net.toml`` beside each network): each
runs whole, shortened, in a folder of its own; every training step starts from the
config's values; and a run stopped part-way and run again ships the same network, bit for
bit, as a run in one go."""

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from analyzer.games.clever.training import config
from analyzer.games.clever.training.state import read_checkpoint

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = sorted((ROOT / "analyzer" / "games").glob("*/value_net.toml"))
TRIAL = ["--scale", "0.0002", "--chunk", "64", "--eval-every", "64", "--eval-games", "16"]


def _script():
    spec = importlib.util.spec_from_file_location("train_value",
                                                  ROOT / "scripts" / "train_value.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _trial(script, path: Path, into: Path, *more: str, capsys) -> str:
    """Run the config ``path`` as a trial in ``into``; its stderr."""
    into.mkdir(exist_ok=True)
    script.run_config(["--config", str(path), "--into", str(into), *TRIAL, *more])
    return capsys.readouterr().err


def test_there_is_a_config_for_each_clever_game():
    assert [path.parent.name for path in CONFIGS] == ["thats_pretty_clever",
                                                      "twice_as_clever"]


# Twice As Clever's config trains as That's Pretty Clever's does, five times longer: slow
@pytest.mark.parametrize("path", [pytest.param(path, marks=pytest.mark.slow)
                                  if path.parent.name == "twice_as_clever" else path
                                  for path in CONFIGS], ids=lambda path: path.parent.name)
def test_a_config_starts_from_its_values_and_resumes_bit_for_bit(tmp_path, path, capsys,
                                                                 monkeypatch):
    monkeypatch.chdir(ROOT)
    script = _script()
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    _trial(script, path, whole, capsys=capsys)
    stopped = _trial(script, path, cut, "--max-games", "64", capsys=capsys)
    assert "step 1 stopped at --max-games" in stopped
    assert not list(cut.glob("*value_net.npy"))  # a stopped run ships nothing
    _trial(script, path, cut, capsys=capsys)
    steps = config.read_steps(path)
    for step in steps[:-1]:
        name = Path(step["checkpoint"]).name
        settings = json.loads(str(read_checkpoint(whole / name)["settings"]))
        assert (settings["game"], settings["seed"]) == (step["game"], step["seed"])
        if "hidden" in step:
            assert settings["hidden"][0] == step["hidden"]
        if "start_from" in step:
            assert settings["start_from"].startswith(Path(step["start_from"]).name + " ")
            assert settings.get("start_latest", False) == step.get("start_latest", False)
        for part in ("weights", "m", "v", "skip"):
            np.testing.assert_array_equal(read_checkpoint(whole / name)[part],
                                          read_checkpoint(cut / name)[part])
    shipped, = whole.glob("*value_net.npy")
    assert shipped.read_bytes() == (cut / shipped.name).read_bytes()
    card = json.loads(shipped.with_suffix(".json").read_text())["card"]
    assert card["name"] == steps[-1]["name"] and card["config"] == steps[-1]["ship_config"]
