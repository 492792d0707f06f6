"""The learned policy's weights files: ``learned_weights.npy`` (float64, the learned value's
weights, ``kernels.clever.learned``) and ``learned_weights.json`` beside it (the knobs, the
network's size and the training settings and results); starting weights for training."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np

from analyzer.errors import UserError
from analyzer.output import write_atomic
from kernels.clever import learned, play


def sizes(n_features: int) -> tuple[int, int]:
    """``(weights, linear prior weights)`` of the learned value of a game."""
    return int(learned.learned_size(n_features)), learned.VALUE_STAGES * n_features


def initial_weights(n_features: int, seed: int, prior: np.ndarray | None = None,
                    scale: float = 0.1) -> np.ndarray:
    """Starting weights: the linear prior (``prior``, or none), the first layer drawn from
    N(0, ``scale``) by ``seed``, hidden biases ``scale`` (every unit starts active), output
    weights 0 (the network adds nothing until it has learned)."""
    total, n_prior = sizes(n_features)
    w = np.zeros(total)
    if prior is not None:
        w[:n_prior] = prior
    first, bias, out_w, _ = learned.layer_offsets(n_features, 0)
    w[first:bias] = np.random.default_rng(seed).normal(0.0, scale, bias - first)
    w[bias:out_w] = scale
    return w


def save(path: Path, weights: np.ndarray, info: dict[str, Any]) -> None:
    """Write ``path`` (.npy) and its ``.json`` twin, each atomically."""
    buffer = io.BytesIO()
    np.save(buffer, weights.astype(np.float64))
    write_atomic(path, buffer.getvalue())
    write_atomic(path.with_suffix(".json"), json.dumps(info, indent=1) + "\n")


def load(path: Path, n_features: int) -> tuple[np.ndarray, dict[str, Any]]:
    """The weights and settings stored by ``save``; a ``UserError`` naming what is wrong."""
    info_path = path.with_suffix(".json")
    try:
        weights = np.load(path, allow_pickle=False)
        info = json.loads(info_path.read_text())
    except (OSError, ValueError) as exc:
        raise UserError(f"learned weights {str(path)!r} (with {info_path.name}): cannot be "
                        f"read ({exc}); retrain with scripts/train_learned.py") from None
    total = sizes(n_features)[0]
    if weights.shape != (total,) or weights.dtype != np.float64 \
            or info.get("hidden") != learned.HIDDEN or not np.isfinite(weights).all():
        raise UserError(f"learned weights {str(path)!r}: expected {total} finite float64 "
                        f"numbers for a network of {learned.HIDDEN} hidden units")
    return weights, info


def policy_row(weights: np.ndarray, knobs: dict[str, float], knob_index: dict[str, int],
               samples: int = 0) -> np.ndarray:
    """The learned policy's kernel row (float64[N_POL]) with ``samples`` sampled rolls in
    its lookahead over active picks (0: none, the ``learned`` policy; more: ``search``)."""
    row = np.zeros(play.N_POL)
    row[play.KIND] = play.LEARNED
    for name, value in knobs.items():
        row[knob_index[name]] = float(value)
    row[play.W_SAMPLES] = samples
    row[play.W_VALUE:play.W_VALUE + weights.size] = weights
    return row
