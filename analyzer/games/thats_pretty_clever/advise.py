"""Advice for a That's Pretty Clever position: every legal choice for the dice in front of
the player, ranked by the expected final score of Monte Carlo rollouts of a policy (solo),
with 95% intervals. Rollout r of every choice uses the same dice (paired comparison)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analyzer.errors import UserError
from analyzer.games.thats_pretty_clever.model import (
    game_rules,
    parse_policy,
    rounds_for,
    sheet_flags,
)
from analyzer.output import Result
from analyzer.stats import ci95, mean_se
from kernels.clever import play
from kernels.thats_pretty_clever import layout as L

LETTERS = {"W": L.WHITE, "Y": L.YELLOW, "B": L.BLUE, "G": L.GREEN, "O": L.ORANGE,
           "P": L.PURPLE}
PHASES = ("active1", "active2", "active3", "passive")


def parse_dice(text: str, what: str) -> dict[int, int]:
    """``'W3 Y5'`` -> {die: face}; a ``UserError`` naming the bad token otherwise."""
    dice: dict[int, int] = {}
    for token in text.replace(",", " ").split():
        token = token.strip().upper()
        if len(token) != 2 or token[0] not in LETTERS or token[1] not in "123456":
            raise UserError(f"bad {what} token {token!r}: expected a colour letter "
                            "W, Y, B, G, O or P and a face 1..6, e.g. 'W3 Y5 B2'")
        if LETTERS[token[0]] in dice:
            raise UserError(f"bad {what}: die {token[0]} appears twice")
        dice[LETTERS[token[0]]] = int(token[1])
    return dice


def describe(sheet: np.ndarray, faces: np.ndarray, move: np.ndarray) -> str:
    die, area, cell = (int(x) for x in move)
    name = f"{L.DIE_NAMES[die]} {faces[die]}"
    if area == L.YELLOW_AREA:
        return f"{name} -> yellow row {cell // 4 + 1} column {cell % 4 + 1}"
    if area == L.BLUE_AREA:
        return f"{name} -> blue {faces[L.BLUE]}+{faces[L.WHITE]} = {cell}"
    if area == L.GREEN_AREA:
        return f"{name} -> green slot {sheet[L.S_GREEN] + 1}"
    if area == L.ORANGE_AREA:
        slot = int(sheet[L.S_ORANGE])
        return f"{name} -> orange slot {slot + 1} (x{L.ORANGE_MULTIPLIER[slot]})"
    return f"{name} -> purple slot {sheet[L.S_PURPLE] + 1}"


def advise(values, sheet: np.ndarray, roll: str, phase: str, rnd: int, policy: str,
           rollouts: int, seed: int, fields: str = "", platter: str = "") -> Result:
    if phase not in PHASES:
        raise UserError(f"unknown phase {phase!r}; accepted: {', '.join(PHASES)}")
    rounds = rounds_for({**values, "players": 1})
    if not 1 <= rnd <= rounds:
        raise UserError(f"bad round {rnd}: expected 1 to {rounds}")
    if rollouts < 1:
        raise UserError(f"bad rollout count {rollouts}: expected at least 1")
    sheet = sheet.copy()
    sheet[L.S_FLAGS] = sheet_flags(values)
    pool = parse_dice(roll, "roll")
    on_fields, on_platter = parse_dice(fields, "fields"), parse_dice(platter, "platter")
    faces = np.zeros(L.N_DICE, np.int64)
    where = np.full(L.N_DICE, -1, np.int64)
    for dice, place in ((pool, play.POOL), (on_fields, play.FIELD), (on_platter, play.PLATTER)):
        for die, face in dice.items():
            if where[die] >= 0:
                raise UserError(f"die {L.DIE_NAMES[die]} is given twice (roll, fields, platter)")
            faces[die], where[die] = face, place
    if phase == "passive":
        if len(pool) != 6:
            raise UserError("a passive roll lists all six dice, e.g. 'W3 Y5 B2 G6 O4 P1'")
        for die in np.argsort(faces, kind="stable")[:3]:
            where[die] = play.PLATTER
        where[where == play.POOL] = play.FIELD
        usable_place = play.PLATTER
    else:
        if (where < 0).any():
            missing = ", ".join(L.DIE_NAMES[d] for d in np.nonzero(where < 0)[0])
            raise UserError(f"every die needs a place: {missing} missing (use --fields and "
                            "--platter for dice no longer in the roll)")
        usable_place = play.POOL
    usable = sum(1 << d for d in range(L.N_DICE) if where[d] == usable_place)
    moves = np.zeros((play.MAX_MOVES, 3), np.int64)
    n = play.legal_moves(sheet, faces, usable, moves)
    if n == 0:
        raise UserError("no die of this roll can be entered anywhere: the roll is forfeited")
    moves = moves[:n].copy()
    out = np.zeros((n, rollouts))
    key = np.random.SeedSequence(seed).generate_state(1, np.uint64)[0]
    pick = PHASES.index(phase)
    play.advise_rollouts(sheet, faces, where, moves, parse_policy(policy), rnd - 1, rounds,
                         game_rules(values), pick, key, rollouts, out)
    means = out.mean(axis=1)
    best = int(np.argmax(means))
    rows = []
    for i in np.argsort(-means):
        mean, se = mean_se(rollouts, out[i].sum(), (out[i] ** 2).sum())
        diff, dse = mean_se(rollouts, (out[i] - out[best]).sum(),
                            ((out[i] - out[best]) ** 2).sum())
        rows.append({"choice": describe(sheet, faces, moves[i]), "expected_score": mean,
                     "ci95_low": ci95(mean, se)[0], "ci95_high": ci95(mean, se)[1],
                     "vs_best": diff, "vs_best_ci95_low": ci95(diff, dse)[0]
                     if not math.isnan(dse) else diff,
                     "vs_best_ci95_high": ci95(diff, dse)[1] if not math.isnan(dse) else diff})
    return Result("That's Pretty Clever advice", headline={
        "best": rows[0]["choice"], "expected_score": rows[0]["expected_score"],
        "rollouts": rollouts, "policy": policy, "round": rnd, "phase": phase},
        tables={"choices": pd.DataFrame(rows)},
        notes=[f"each choice is followed by {rollouts} solo rollouts of the {policy} policy "
               "to the end of the game; rollout r uses the same dice for every choice, so "
               "vs_best is a paired difference"])
