"""A choice taken on a Clever sheet (either game), as the coach enters it: a pick with the
bonuses it fires (free marks placed by a policy) and, for a pick into the chain area (Twice
As Clever's silver), the dice it sends down; a re-roll, +1 or return spent from its track.
Declining, stopping and leaving a roll unused change nothing on the sheet."""

from __future__ import annotations

import numpy as np

from analyzer.errors import UserError, shortened
from analyzer.games.clever.advise import position_choices
from analyzer.games.clever.game import CleverGame
from kernels.clever import play
from kernels.clever_base.sheet import H_PLUS_USED, H_REROLL_USED, H_RETURN_USED
from kernels.rng import turn_stream

SPENT = {play.CHOICE_REROLL: H_REROLL_USED, play.CHOICE_RETURN: H_RETURN_USED}


def take(game: CleverGame, values, sheet: np.ndarray, choice: str, roll: str, phase: str,
         rnd: int, policy: str, seed: int, fields: str = "", platter: str = "",
         taken: str = "") -> np.ndarray:
    """The sheet after ``choice`` (a label as ``advise`` names it) in the position; its
    free marks placed by ``policy``."""
    c = position_choices(game, values, sheet, roll, phase, rnd, fields, platter, taken)
    if choice not in c.labels:
        raise UserError(f"no choice {shortened(choice)!r} in this position; accepted: "
                        f"{'; '.join(c.labels)}")
    die, area, cell = (int(v) for v in c.moves[c.labels.index(choice)])
    after = c.sheet  # a copy, the round and the rules' flags set
    if area in SPENT:
        after[SPENT[area]] += 1
    if die < 0 or area < 0:
        return after
    pol = game.parse_policy(policy, {**values, "players": 1})
    apply_choice(after, c.faces, c.where, die, area, cell, phase, pol, seed)
    return after


def apply_choice(sheet: np.ndarray, faces: np.ndarray, where: np.ndarray, die: int,
                 area: int, cell: int, phase: str, pol: np.ndarray, seed: int,
                 scratch: np.ndarray | None = None) -> None:
    """Enter die ``die`` in ``area`` (``cell``) with its bonuses; a +1 window's use spends a
    +1; an active pick into the chain area also marks the dice it sends down. ``scratch``:
    the game's work array (a new one by default)."""
    if scratch is None:
        scratch = np.empty(play.WORK_LEN, np.int64)
        play.new_game_work(scratch)
    stream = np.uint64(turn_stream(np.uint64(seed), 0, 0))
    if phase in ("plus", "passive-plus"):
        sheet[H_PLUS_USED] += 1
    play.apply_move(sheet, faces, die, area, cell, pol, stream, 0, scratch)
    if phase.startswith("active") and area == play.chain_area(sheet):
        play.chain_marks(sheet, faces, where, die, phase == "active3", pol, stream, 4096,
                         scratch)
