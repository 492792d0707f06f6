"""A training config: the steps that make a shipped network, as one TOML file that
``scripts/train_value.py --config FILE`` runs in order.

Each ``[[step]]`` table holds the script's options by their long names (``start_from``
for ``--start-from``): a string or number is the option's value, ``true`` a flag, a list
the values of an option that takes several. Every step resumes its own checkpoint, so
running the config again after an interruption goes on where it stopped.

A trial run (``trial_step``) shortens every training step and keeps its files in a folder
of its own: a config can be tried, or tested, without touching ``training/`` or the
shipped networks.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from analyzer.errors import UserError


def read_steps(path: Path) -> list[dict[str, Any]]:
    """The steps of the config ``path``; a ``UserError`` naming what is wrong."""
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"config {str(path)!r} cannot be read ({exc})") from None
    steps = data.get("step")
    if set(data) - {"step", "about"} or not isinstance(steps, list) or not steps \
            or not all(isinstance(step, dict) and step for step in steps):
        raise UserError(f"config {str(path)!r}: expected an optional 'about' text and one "
                        "or more [[step]] tables of the script's options")
    return steps


TRIAL_OPTIONS = ("scale", "chunk", "eval_every", "eval_games", "max_games")  # a trial may set these
PATH_OPTIONS = ("checkpoint", "start_from", "ship")  # files a step reads or writes


def trial_step(step: dict[str, Any], into: Path, overrides: dict[str, Any]) -> dict[str, Any]:
    """``step`` for a trial run in the folder ``into``: each file it names is taken from
    there (by its name), a shipping step writes its network there, and a training step
    takes the ``overrides`` (``TRIAL_OPTIONS``)."""
    trial = dict(step)
    for key in PATH_OPTIONS:
        if key in trial:
            trial[key] = str(into / Path(str(trial[key])).name)
    if "ship" in trial:
        trial["ship_to"] = str(into / f"{trial.get('game', 'tpc')}-value_net.npy")
    else:
        trial.update({key: value for key, value in overrides.items()
                      if key in TRIAL_OPTIONS and value is not None})
    return trial


def step_arguments(step: dict[str, Any]) -> list[str]:
    """The command line of one step: ``--name value`` for each option (a list: its
    values; ``true``: the flag alone; ``false``: left out)."""
    argv: list[str] = []
    for key, value in step.items():
        option = "--" + key.replace("_", "-")
        if value is False:
            continue
        if value is True:
            argv.append(option)
        elif isinstance(value, list):
            argv += [option, *map(str, value)]
        elif isinstance(value, (str, int, float)):
            argv += [option, str(value)]
        else:
            raise UserError(f"config option {key!r}: expected a string, number, true or a "
                            f"list, not {value!r}")
    return argv
