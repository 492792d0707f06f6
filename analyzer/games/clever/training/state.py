"""The resumable state of a self-play training run: weights, Adam moments, counters, the
learning curve and the best weights so far, kept in a checkpoint (.npz) after every
evaluation. A checkpoint carries a digest of its arrays; a damaged one is refused."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from pathlib import Path

import numpy as np

from analyzer.games.clever import value_weights
from analyzer.games.clever.training.stages import RETIRED, Stage, multiplayer_only
from analyzer.errors import UserError
from analyzer.files import write_atomic
from kernels.clever import net, selfplay, value_net

CHUNK = 2000  # games between evaluations' progress lines, by default


def fresh_state(n_in: int, seed: int, first_stage: str,
                weights: np.ndarray | None = None, h1: int = net.H1) -> dict:
    """The training state before any game: fresh weights of ``n_in`` inputs and ``h1``
    first-layer units, or ``weights``."""
    w = value_weights.initial_weights(n_in, seed, h1) if weights is None else weights
    return {"weights": w, "m": np.zeros_like(w), "v": np.zeros_like(w), "step": 0,
            "stage": first_stage, "done": 0, "history": [], "best": -np.inf,
            "best_weights": w.copy(), "best_stage": "", **fresh_skip()}


def fresh_skip() -> dict:
    """The skip head's part of a training state: zero weights and Adam moments."""
    return {"skip": np.zeros(value_net.N_SKIP), "skip_moments": np.zeros((2, value_net.N_SKIP)),
            "best_skip": np.zeros(value_net.N_SKIP)}


def save_state(path: Path, state: dict, settings: dict) -> None:
    """Write the checkpoint ``path`` through the project's checked writer (atomically),
    with the digest of its arrays."""
    arrays = {"weights": state["weights"], "m": state["m"], "v": state["v"],
              "step": np.asarray(state["step"]), "stage": np.asarray(state["stage"]),
              "done": np.asarray(state["done"]),
              "history": np.asarray(json.dumps(state["history"])),
              "best": np.asarray(state["best"]), "best_weights": state["best_weights"],
              "best_stage": np.asarray(state["best_stage"]),
              "settings": np.asarray(json.dumps(settings)), "skip": state["skip"],
              "skip_moments": state["skip_moments"], "best_skip": state["best_skip"]}
    buffer = io.BytesIO()
    np.savez(buffer, digest=np.asarray(_digest(arrays)), **arrays)
    write_atomic(path, buffer.getvalue())


def _digest(arrays: dict) -> str:
    """The SHA-256 of a checkpoint's arrays (names, dtypes, shapes and bytes)."""
    digest = hashlib.sha256()
    for name in sorted(arrays):
        value = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}:{value.dtype.str}:{value.shape}".encode())
        digest.update(value.tobytes())
    return "sha256:" + digest.hexdigest()


def read_checkpoint(path: Path) -> dict:
    """The arrays of checkpoint ``path``; a ``UserError`` when it cannot be read or its
    digest does not match (damaged). Checkpoints written before digests are taken as
    they are."""
    try:
        with np.load(path, allow_pickle=False) as saved:
            arrays = {name: saved[name] for name in saved.files}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as exc:
        raise UserError(f"checkpoint {str(path)!r} cannot be read ({exc}); delete it to "
                        "start again") from None
    stored = arrays.pop("digest", None)
    if stored is not None and str(stored) != _digest(arrays):
        raise UserError(f"checkpoint {str(path)!r} is damaged (its digest does not match); "
                        "delete it to start again")
    return arrays


def _up_to(settings: dict, stage: str) -> dict:
    """The settings that decide a run up to ``stage``: stages not yet begun may be added or
    changed (a curriculum saved before the spotlight's area mask existed has none; one
    saved while stages had the fields now retired has them at the values that left them
    out, ``_current``)."""
    names = list(settings["stages"])
    kept = names[:names.index(stage) + 1] if stage in names else names
    stages = {}
    for name in kept:
        spec = {**Stage._field_defaults, **_current(settings["stages"][name])}
        width = selfplay.C_PLAYERS
        spec["curriculum"] = (list(spec["curriculum"]) + [0] * width)[:width]
        spec["players"] = list(spec["players"])
        stages[name] = spec
    return {**settings, "stages": stages}


def _current(spec: dict) -> dict:
    """A stored stage's fields without the retired ones at the values that left them out
    (``stages.RETIRED``); a retired field set otherwise stays, and the settings differ."""
    return {k: v for k, v in spec.items() if k not in RETIRED or v != RETIRED[k]}


def load_state(path: Path, settings: dict) -> dict:
    """The training state in checkpoint ``path``, made with ``settings``."""
    saved = read_checkpoint(path)
    stored = {"chunk": CHUNK, "scale": 1.0, **json.loads(str(saved["settings"]))}
    # checkpoints made before the rules were saved, or before return_empty_pool existed
    # (Twice As Clever's first runs, the only ones under the literal fox reading)
    rules = stored.setdefault("rules", {"tac": {"fox_negative": "literal"}}.get(
        stored["game"], {}))
    if rules.get("fox_negative") == "literal":
        rules.setdefault("return_empty_pool", "return_allowed")
    stage, done = str(saved["stage"]), int(saved["done"])
    history = json.loads(str(saved["history"]))
    if done == 0 and history:  # between stages: the next one is this run's next
        names = list(settings["stages"])
        last = history[-1]["stage"]
        stage = names[min(names.index(last) + 1, len(names) - 1)] if last in names else stage
    began = history[-1]["stage"] if done == 0 and history else stage
    if _up_to(stored, began) != _up_to(settings, began):
        raise UserError(f"checkpoint {path} was made with other settings "
                        f"({saved['settings']}); give another checkpoint")
    skip = {k: _padded(saved[k], v.shape) if k in saved else v  # made before the skip
            for k, v in fresh_skip().items()}  # head, or before its rules block's weights
    return {"weights": saved["weights"], "m": saved["m"], "v": saved["v"],
            "step": int(saved["step"]), "stage": stage, "done": done, "history": history,
            "best": float(saved["best"]), "best_weights": saved["best_weights"],
            "best_stage": str(saved["best_stage"]), **skip}


def _padded(array: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """``array`` padded with zeros along its last axis to ``shape``."""
    out = np.zeros(shape)
    out[..., :array.shape[-1]] = array
    return out


def moving_best(history: list[dict], stage: str) -> float:
    """The mean of the last three tuning means of ``stage`` (fewer at its start)."""
    means = [h["tuning_mean"] for h in history if h["stage"] == stage][-3:]
    return float(np.mean(means))


def keep_best(state: dict, spec: Stage, stage: str) -> None:
    """After an evaluation: the best weights so far are those of the best moving solo
    tuning mean, or in a stage of 2-4 players alone the latest (the solo mean is not its
    aim)."""
    smoothed = moving_best(state["history"], stage)
    if multiplayer_only(spec) or (stage != "warm" and smoothed > state["best"]):
        state["best"], state["best_weights"] = smoothed, state["weights"].copy()
        state["best_skip"], state["best_stage"] = state["skip"].copy(), stage
