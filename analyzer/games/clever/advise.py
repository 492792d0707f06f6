"""Advice for a Clever position (either game): every legal choice for the dice in front of
the player, ranked by the expected final score of Monte Carlo rollouts of a policy (solo),
with 95% intervals. Rollout r of every choice uses the same dice (paired comparison).
Rollouts are raced: after ``RACE_FIRST`` rollouts of every choice, those clearly worse than
the leader stop and only the others get the rest (``raced_rollouts``).

The choices are the picks of the phase, and beside them: re-rolling (an active pick, with
a re-roll in hand), declining (the passive pick, where the rules allow it) and, in a +1
window (after the active turn's picks, or after the passive pick), each +1 on a die not
yet taken against stopping. Twice As Clever's return window (before the roll of active
pick 2 or 3, with a return in hand) ranks returning each platter die against rolling
without a return."""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np
import pandas as pd

from analyzer.games.clever import trained_on
from analyzer.games.clever.game import CleverGame
from analyzer.run.block_loop import over_threads
from analyzer.errors import UserError
from analyzer.run.execution import current
from analyzer.output import Result, run_meta
from analyzer.params import assumed_notes
from analyzer.run.plan import Chunks, Plan
from analyzer.stats import ci95, mean_se
from kernels.clever import play
from kernels.clever.moves import N_DICE
from kernels.clever_base.sheet import (FLAG_RETURN_EMPTY_POOL, H_FLAGS, H_PLUS_GOT, H_PLUS_TAKEN,
                                       H_PLUS_USED, H_REROLL_GOT, H_REROLL_USED, H_RETURN_GOT,
                                       H_RETURN_USED, H_ROUND, H_ROUNDS, H_RULE_BITS)

PHASES = ("active1", "active2", "active3", "passive", "plus", "passive-plus", "return")
REROLL, STOP, DECLINE = "re-roll", "stop: keep the +1s", "decline the passive pick"
PROCEED = "roll without a return"
SKIP = "leave this roll unused"


ALL_DICE = (1 << N_DICE) - 1


MAX_ROLLOUTS = 1_000_000  # per choice: the scores of every rollout are kept in memory


def check_rollouts(rollouts: int) -> None:
    """A ``UserError`` unless ``rollouts`` is 1 to ``MAX_ROLLOUTS``."""
    if not 1 <= rollouts <= MAX_ROLLOUTS:
        raise UserError(f"bad rollout count {rollouts}: expected 1 to {MAX_ROLLOUTS:,}")


def parse_dice_letters(game: CleverGame, text: str) -> list[int]:
    """``'Y B'`` (or ``'Y3 B2'``) -> the dice; a ``UserError`` naming the bad token."""
    dice = []
    for token in text.replace(",", " ").upper().split():
        if token[0] not in game.letters or len(token) > 2 or token[1:] not in \
                ("", *"123456"):
            raise UserError(f"bad --taken token {token!r}: expected colour letters "
                            f"({', '.join(game.letters)}), e.g. "
                            f"'{game.letters[1]} {game.letters[2]}'")
        die = game.letters.index(token[0])
        if die in dice:
            raise UserError(f"--taken names {token[0]} twice: +1 takes each die once")
        dice.append(die)
    return dice


def parse_dice(game: CleverGame, text: str, what: str) -> dict[int, int]:
    """``'W3 Y5'`` -> {die: face}; a ``UserError`` naming the bad token otherwise."""
    dice: dict[int, int] = {}
    letters = game.letters
    for token in text.replace(",", " ").split():
        token = token.strip().upper()
        if len(token) != 2 or token[0] not in letters or token[1] not in "123456":
            raise UserError(f"bad {what} token {token!r}: expected a colour letter "
                            f"{', '.join(letters[:-1])} or {letters[-1]} and a face 1..6, "
                            f"e.g. '{letters[0]}3 {letters[1]}5 {letters[2]}2'")
        die = letters.index(token[0])
        if die in dice:
            raise UserError(f"bad {what}: die {token[0]} appears twice")
        dice[die] = int(token[1])
    return dice


def check_phase(phase: str, on_fields: dict, on_platter: dict, taken: str) -> None:
    """A ``UserError`` naming the first thing the position's phase rules out: active pick
    k has k - 1 dice on the fields (and pick 1 an empty platter); a passive pick or a +1
    window lists all six dice in the roll; only a +1 window has dice taken by +1."""
    window = phase in ("plus", "passive-plus")
    if taken.strip() and not window:
        raise UserError(f"--taken is for +1 windows (phases plus and passive-plus), not "
                        f"{phase}")
    if phase.startswith("active"):
        pick = int(phase[-1])
        if len(on_fields) != pick - 1:
            dice = "one die" if pick == 2 else f"{pick - 1} dice"
            raise UserError(f"{phase} is active pick {pick}: {dice} on your fields "
                            f"(--fields), not {len(on_fields)}")
        if pick == 1 and on_platter:
            raise UserError("active1 is the turn's first pick: no die is on the platter "
                            "yet (give no --platter)")
    elif phase != "return" and (on_fields or on_platter):
        raise UserError(f"a {'+1 window' if window else 'passive pick'} lists all six dice "
                        "with --roll: give no --fields or --platter")


@dataclasses.dataclass
class Choices:
    """A position's choices: the kernel sheet (the round and rules set), the dice's faces
    and places, the choices as kernel move rows with their labels, and the kernel's phase
    (``pick``: 0-2, ``play.ADVISE_PASSIVE``, ``play.ADVISE_*PLUS``)."""

    sheet: np.ndarray
    faces: np.ndarray
    where: np.ndarray
    moves: np.ndarray
    labels: list[str]
    pick: int
    rounds: int


def advise(game: CleverGame, values, sheet: np.ndarray, roll: str, phase: str, rnd: int,
           policy: str, rollouts: int, seed: int, fields: str = "",
           platter: str = "", taken: str = "", horizon: int | None = None) -> Result:
    """Rank the choices of a position (``phase``: ``PHASES``; ``taken``: in a +1 window,
    the dice +1 took already; ``horizon``: the rounds a rollout plays after this one
    before the rollout policy's value of that round's end stands for the final score,
    ``None``: to the game's end)."""
    check_rollouts(rollouts)
    if horizon is not None and horizon < 0:
        raise UserError(f"bad horizon {horizon}: expected 0 or more rounds, or 'full'")
    c = position_choices(game, values, sheet, roll, phase, rnd, fields, platter, taken)
    return _rank(game, values, c.sheet, c.faces, c.where, c.moves, c.labels, c.pick, policy,
                 rollouts, seed, rnd, c.rounds, phase, horizon)


def position_choices(game: CleverGame, values, sheet: np.ndarray, roll: str, phase: str,
                     rnd: int, fields: str = "", platter: str = "", taken: str = ""
                     ) -> Choices:
    """Every legal choice of a position, each checked against its phase."""
    if phase not in PHASES:
        raise UserError(f"unknown phase {phase!r}; accepted: {', '.join(PHASES)}")
    rounds = game.rounds_for({**values, "players": 1})
    if not 1 <= rnd <= rounds:
        raise UserError(f"bad round {rnd}: expected 1 to {rounds}")
    if phase == "return" and not game.has_returns:
        raise UserError(f"{game.title} has no return action; accepted phases: "
                        f"{', '.join(PHASES[:-1])}")
    if (phase == "return") == bool(roll.strip()):
        raise UserError("the return window comes before a roll: give --fields and --platter, "
                        "not --roll" if roll.strip() else
                        "give the dice in front of you with --roll, e.g. "
                        + " ".join(f"{c}{f}" for c, f in zip(game.letters, "352641")))
    sheet = sheet.copy()
    sheet[H_FLAGS] = game.sheet_flags(values)
    sheet[H_RULE_BITS] = game.rule_bits(values)
    sheet[H_ROUND], sheet[H_ROUNDS] = rnd - 1, rounds  # the value's stage (rounds left)
    pool = parse_dice(game, roll, "roll")
    on_fields = parse_dice(game, fields, "fields")
    on_platter = parse_dice(game, platter, "platter")
    check_phase(phase, on_fields, on_platter, taken)
    faces, where = _placed(game, pool, on_fields, on_platter)
    if phase == "return":
        where, moves, labels, pick = _return_window(game, sheet, where)
        return Choices(sheet, faces, where, moves, labels, pick, rounds)
    moves, labels = _moves(game, values, sheet, faces, where, phase, len(pool), taken)
    return Choices(sheet, faces, where, moves, labels, PHASES.index(phase), rounds)


def _placed(game: CleverGame, pool: dict, on_fields: dict, on_platter: dict
            ) -> tuple[np.ndarray, np.ndarray]:
    """The dice's faces and places (``play.POOL``, ``FIELD``, ``PLATTER``; -1: not given),
    each die given once."""
    names = game.layout.DIE_NAMES
    faces = np.zeros(N_DICE, np.int64)
    where = np.full(N_DICE, -1, np.int64)
    places = {play.POOL: "in the roll", play.FIELD: "on the fields",
              play.PLATTER: "on the platter"}
    for dice, place in ((pool, play.POOL), (on_fields, play.FIELD), (on_platter, play.PLATTER)):
        for die, face in dice.items():
            if where[die] >= 0:
                raise UserError(f"die {names[die]} is given twice: {places[where[die]]} and "
                                f"{places[place]}")
            faces[die], where[die] = face, place
    return faces, where


def _usable(game: CleverGame, sheet: np.ndarray, faces: np.ndarray, where: np.ndarray,
            phase: str, rolled: int, taken: str) -> int:
    """The dice the phase may use, as a bit mask (``where`` set for a passive pick or a +1
    window: the three lowest dice on the platter, the rest on the fields)."""
    names = game.layout.DIE_NAMES
    window = phase in ("plus", "passive-plus")
    if phase == "passive" or window:
        if rolled != 6:
            example = " ".join(f"{c}{f}" for c, f in zip(game.letters, "352641"))
            raise UserError(f"a {'+1 window' if window else 'passive roll'} lists all six "
                            f"dice, e.g. '{example}'")
        for die in np.argsort(faces, kind="stable")[:3]:
            where[die] = play.PLATTER
        where[where == play.POOL] = play.FIELD
        return sum(1 << d for d in range(N_DICE) if where[d] == play.PLATTER) if not window \
            else _plus_dice(game, sheet, taken)
    if (where < 0).any():
        missing = ", ".join(names[d] for d in np.nonzero(where < 0)[0])
        raise UserError(f"every die needs a place: {missing} missing (use --fields and "
                        "--platter for dice no longer in the roll)")
    return sum(1 << d for d in range(N_DICE) if where[d] == play.POOL)


def _plus_dice(game: CleverGame, sheet: np.ndarray, taken: str) -> int:
    """A +1 window's dice: those no +1 has taken yet (``taken``), with a +1 in hand."""
    if sheet[H_PLUS_GOT] - sheet[H_PLUS_USED] <= 0:
        raise UserError("no +1 in hand: nothing to choose in a +1 window")
    taken_dice = parse_dice_letters(game, taken)
    if len(taken_dice) > sheet[H_PLUS_USED]:
        raise UserError(f"--taken names {len(taken_dice)} dice, but the sheet shows "
                        f"{sheet[H_PLUS_USED]} +1 action(s) used: each die taken used one")
    sheet[H_PLUS_TAKEN] = sum(1 << d for d in taken_dice)
    return ALL_DICE & ~sheet[H_PLUS_TAKEN]


def _moves(game: CleverGame, values, sheet: np.ndarray, faces: np.ndarray,
           where: np.ndarray, phase: str, rolled: int, taken: str
           ) -> tuple[np.ndarray, list[str]]:
    """The phase's moves as kernel rows with their labels, and the choices beside them
    (re-roll, leave the roll unused, decline, stop)."""
    usable = _usable(game, sheet, faces, where, phase, rolled, taken)
    window = phase in ("plus", "passive-plus")
    moves = np.zeros((play.MAX_MOVES, 3), np.int64)
    n = play.legal_moves(sheet, faces, usable, moves, False)
    if n == 0 and not window:
        raise UserError("no die of this roll can be entered anywhere: the roll is forfeited")
    moves = moves[:n].copy()
    extra = []  # the choices beside the moves
    if phase.startswith("active") and sheet[H_REROLL_GOT] > sheet[H_REROLL_USED]:
        extra.append((play.CHOICE_REROLL, REROLL))
    if phase.startswith("active") and values.get("skip_roll") == "allowed":
        extra.append((play.CHOICE_SKIP, SKIP))
    if phase == "passive" and values["passive_may_decline"]:
        extra.append((play.CHOICE_DECLINE, DECLINE))
    if window:
        extra.append((play.CHOICE_STOP, STOP))
    labels = [("+1: " if window else "") + game.describe(sheet, faces, m) for m in moves]
    labels += [label for _, label in extra]
    moves = np.concatenate([moves, np.array([(-1, area, 0) for area, _ in extra],
                                            np.int64).reshape(-1, 3)])
    return moves, labels


MARKS_PER_ROUND = 12  # far more than a solo round's picks, +1s and bonus marks give


def _reach(last_round: int, rounds: int, policy: str) -> str:
    """How far a rollout plays, in words."""
    if last_round >= rounds - 1:
        return "to the end of the game"
    return (f"to the end of round {last_round + 1}, where the {policy} policy's value of "
            "the position (its estimate of the final score) ends it")


def round_note(game: CleverGame, sheet: np.ndarray, rnd: int, rounds: int) -> list[str]:
    """A note when the sheet has more marks than the rounds up to ``rnd`` could have
    given (the round is probably wrong, and the advice depends on it)."""
    count = game.sheetfile.marks(sheet)
    most = MARKS_PER_ROUND * rnd
    if count <= most:
        return []
    return [f"WARNING: the sheet has {count} marks, more than round {rnd} allows (about "
            f"{most} at most): is --round right? The advice plays {rounds - rnd} more "
            "round(s) after this one"]


def _return_window(game: CleverGame, sheet: np.ndarray, where: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, list[str], int]:
    """The return window before an active roll: ``(where, choices, labels, pick)``, each
    platter die's return and rolling without one; the dice not on the fields or the
    platter are the ones to roll."""
    names = game.layout.DIE_NAMES
    where = np.where(where < 0, play.POOL, where)
    pick = int((where == play.FIELD).sum())
    platter = [int(d) for d in np.nonzero(where == play.PLATTER)[0]]
    if pick not in (1, 2) or not platter:
        raise UserError("the return window comes before the roll of active pick 2 or 3: "
                        "give the picked dice with --fields (one or two) and the platter's "
                        "dice with --platter")
    if sheet[H_RETURN_GOT] <= sheet[H_RETURN_USED]:
        raise UserError("no return in hand: nothing to choose in the return window")
    if not (where == play.POOL).any() and not sheet[H_FLAGS] & FLAG_RETURN_EMPTY_POOL:
        raise UserError("no die is left in play: the turn's rolls are over and no return "
                        "is offered (return_empty_pool=ends_turn; --set "
                        "return_empty_pool=return_allowed lets a return restart the turn)")
    choices = np.array([(d, play.CHOICE_RETURN, 0) for d in platter]
                       + [(-1, play.CHOICE_PROCEED, 0)], np.int64)
    labels = [f"return {names[d]}" for d in platter] + [PROCEED]
    return where, choices, labels, pick


def _rank(game: CleverGame, values, sheet: np.ndarray, faces: np.ndarray,
          where: np.ndarray, moves: np.ndarray, labels: list[str], pick: int, policy: str,
          rollouts: int, seed: int, rnd: int, rounds: int, phase: str,
          horizon: int | None) -> Result:
    """Roll out every choice (``moves`` rows, named ``labels``) from the kernel phase
    ``pick`` with the rollout policy ``policy`` up to ``horizon`` rounds after this one
    and rank them."""
    pol = game.parse_policy(policy, {**values, "players": 1})
    key = np.random.SeedSequence(seed).generate_state(1, np.uint64)[0]
    last_round = rounds - 1 if horizon is None else min(rnd - 1 + horizon, rounds - 1)
    position = Position(sheet, faces, where, moves, pol, rnd - 1, rounds,
                        game.game_rules(values), pick, key, last_round)
    scores = raced_rollouts(position, rollouts)
    full = [i for i, s in enumerate(scores) if len(s) == rollouts]
    means = np.array([s.mean() for s in scores])
    best = max(full, key=lambda i: means[i])
    order = sorted(full, key=lambda i: -means[i]) + sorted(
        (i for i in range(len(scores)) if len(scores[i]) < rollouts), key=lambda i: -means[i])
    rows = []
    for i in order:
        own = scores[i]
        mean, se = mean_se(len(own), own.sum(), (own ** 2).sum())
        diff = own - scores[best][:len(own)]  # paired: rollout r has the same dice
        d_mean, d_se = mean_se(len(own), diff.sum(), (diff ** 2).sum())
        d_low, d_high = ci95(d_mean, d_se) if not math.isnan(d_se) else (d_mean, d_mean)
        rows.append({"choice": labels[i], "expected_score": mean,
                     "ci95_low": ci95(mean, se)[0], "ci95_high": ci95(mean, se)[1],
                     "vs_best": d_mean, "vs_best_ci95_low": d_low, "vs_best_ci95_high": d_high,
                     "rollouts": len(own)})
    stopped = len(scores) - len(full)
    return Result(f"{game.title} advice", headline={
        "best": rows[0]["choice"], "expected_score": rows[0]["expected_score"],
        "rollouts": rollouts, "policy": policy, "round": rnd, "phase": phase},
        tables={"choices": pd.DataFrame(rows)},
        meta=run_meta(game.id, game.params, values, seed, rollouts=rollouts, policy=policy),
        notes=[f"each choice is followed by up to {rollouts} solo rollouts of the {policy} "
               f"policy {_reach(last_round, rounds, policy)}; rollout r uses the same dice "
               "for every choice, so vs_best is a paired difference"]
        + ([f"{stopped} choice(s) clearly worse than the leader after {RACE_FIRST} rollouts "
            f"(paired difference more than {RACE_Z} standard errors below it) stopped "
            "there, ranked after the others (column rollouts)"] if stopped else [])
        + round_note(game, sheet, rnd, rounds) + untrained_note(game, values, policy)
        + assumed_notes(game.params, values))


def untrained_note(game: CleverGame, values, policy: str) -> list[str]:
    """Where the rollouts are played by ``learned``: the line naming it, or where its
    network was not trained on the rules, a note saying so (the heuristic's rankings:
    ``--policy heuristic``)."""
    solo = {**values, "players": 1}
    diffs = trained_on.differences(game, solo)
    if policy.strip().lower() != "learned":
        return []
    if not diffs:
        return trained_on.network_note(game, solo)
    return [f"learned plays rules its network was not trained on ({'; '.join(diffs)}): "
            "its rollouts may misjudge the choices; --policy heuristic ranks them by the "
            "heuristic's rollouts"]


RACE_FIRST = 50  # rollouts of every choice before a clearly worse one may stop
RACE_Z = 3.29  # ... when the leader beats it by this many standard errors (99.9%, one-sided)


def contenders(scores: np.ndarray) -> np.ndarray:
    """int64 indices of the rows of ``scores`` (float64[choices, rollouts], paired) whose
    paired difference from the leader (the highest mean) is not more than ``RACE_Z``
    standard errors below zero."""
    n = scores.shape[1]
    diff = scores - scores[int(np.argmax(scores.mean(axis=1)))]
    mean = diff.mean(axis=1)
    se = diff.std(axis=1, ddof=1) / math.sqrt(n) if n > 1 else np.full(len(diff), np.inf)
    return np.flatnonzero(mean + RACE_Z * se >= 0.0)


def raced_rollouts(position: "Position", rollouts: int) -> list[np.ndarray]:
    """float64[rollouts of the choice] per choice: ``RACE_FIRST`` rollouts of every choice,
    then the rest of the ``rollouts`` for the ``contenders`` only (rollout r of every
    choice still uses the same dice; the stops are the same on any machine)."""
    first = min(rollouts, RACE_FIRST)
    head = run_rollouts(position, 0, first)
    out = list(head)
    keep = contenders(head) if rollouts > first else np.arange(len(out))
    if rollouts > first:
        rest = run_rollouts(dataclasses.replace(position, moves=position.moves[keep]),
                            first, rollouts - first)
        for row, choice in enumerate(keep):
            out[choice] = np.concatenate([head[choice], rest[row]])
    return out


@dataclasses.dataclass(frozen=True)
class Position:
    """A position and its candidate moves, as plain data (``play.advise_rollouts``'s
    arguments), for rollouts computed anywhere."""

    sheet: np.ndarray
    faces: np.ndarray
    where: np.ndarray
    moves: np.ndarray
    pol: np.ndarray
    rnd: int
    rounds: int
    game_rules: np.ndarray
    phase: int
    key: np.uint64
    last_round: int  # a rollout ends with this round (0-based; rounds - 1: the game's end)


ROLLOUT_CHUNK = 250  # rollouts per chunk of work: 2,000 rollouts are 8 chunks


def rollout_chunks(position: Position, chunks: list[tuple[int, int]]) -> list[np.ndarray]:
    """float64[moves, count] per chunk ``(first, count)``: rollouts ``first .. first +
    count`` of every move, each chunk cut in pieces spread over numba's threads (a
    rollout's dice depend only on its number)."""
    import numba

    p = position
    cuts = numba.get_num_threads()
    pieces = [(first + k * count // cuts, (k + 1) * count // cuts - k * count // cuts)
              for first, count in chunks for k in range(cuts)]

    def piece(i: int) -> np.ndarray:
        first, count = pieces[i]
        out = np.zeros((len(p.moves), count))
        play.advise_rollouts(p.sheet, p.faces, p.where, p.moves, p.pol, p.rnd, p.rounds,
                             p.game_rules, p.phase, p.key, first, count, out, p.last_round)
        return out

    done = over_threads(piece, len(pieces))
    return [np.concatenate(done[c * cuts:(c + 1) * cuts], axis=1) for c in range(len(chunks))]


def run_rollouts(position: Position, first: int, rollouts: int) -> np.ndarray:
    """float64[moves, rollouts]: the final scores of rollouts ``first ..`` of every move,
    computed in chunks where the execution in force says (the same numbers wherever they
    ran)."""
    chunks = Chunks(rollouts, ROLLOUT_CHUNK, first)
    plan = Plan(functools.partial(rollout_chunks, position), chunks, position, "rollouts")
    return np.concatenate(list(current().results(plan)), axis=1)
