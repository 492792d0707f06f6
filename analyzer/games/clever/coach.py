"""An interactive play-along for a solo Clever game (either game): the player types the
dice they rolled, dicelab ranks the choices by rollouts, applies the chosen one (its bonus
marks placed by the policy) and keeps the sheet, its score and its open bonuses. Re-rolls
and declining the passive pick are ranked beside the picks, and in the +1 windows each +1
beside stopping, all by rollouts. Round-track choices (That's Pretty Clever's black X or 6,
Twice As Clever's black ?) are offered ranked by the policy's estimate of the final score;
Twice As Clever's returns before rolls 2 and 3 are ranked beside rolling without one.
Reads plain lines, so it works piped."""

from __future__ import annotations

from typing import Callable, TextIO

import numpy as np

from analyzer.games.clever.advise import (DECLINE, PROCEED, REROLL, SKIP, STOP, advise,
                                          check_rollouts, parse_dice, untrained_note)
from analyzer.games.clever.game import CleverGame
from analyzer.games.clever.take import apply_choice
from analyzer.errors import UserError
from kernels.clever import play
from kernels.clever.moves import N_DICE
from kernels.clever_base.sheet import (FLAG_PLUS_PER_ROUND, FLAG_RETURN_EMPTY_POOL, H_FLAGS,
                                       H_FOXES, H_PLUS_GOT, H_PLUS_USED, H_REROLL_GOT,
                                       H_REROLL_USED, H_RETURN_GOT, H_RETURN_USED, H_ROUND,
                                       H_ROUNDS, H_RULE_BITS)
from kernels.clever.sheets import area_scores, total_score
from kernels.rng import turn_stream

ALL_DICE = (1 << N_DICE) - 1


def summary(game: CleverGame, sheet: np.ndarray) -> str:
    """The score by area, foxes, actions in hand and the bonuses one mark away."""
    scores = np.zeros(len(game.layout.AREA_NAMES), np.int64)
    area_scores(sheet, scores)
    parts = " ".join(f"{name} {scores[a]}" for a, name in enumerate(game.layout.AREA_NAMES))
    actions = (f"re-rolls {sheet[H_REROLL_GOT] - sheet[H_REROLL_USED]}, "
               f"+1 {sheet[H_PLUS_GOT] - sheet[H_PLUS_USED]}")
    if game.has_returns:
        actions += f", returns {sheet[H_RETURN_GOT] - sheet[H_RETURN_USED]}"
    return (f"score {total_score(sheet)} ({parts}; foxes {sheet[H_FOXES]}); {actions}\n"
            f"  open bonuses: {game.open_bonuses(sheet)}")


class Coach:
    """One solo game of ``game``, driven by lines of input."""

    def __init__(self, game: CleverGame, values, policy: str, rollouts: int, seed: int,
                 sheet: np.ndarray, read: Callable[[], str | None],
                 write: Callable[[str], None]):
        check_rollouts(rollouts)
        self.game, self.values, self.policy = game, values, policy
        self.rollouts, self.seed = rollouts, seed
        self.sheet, self.read, self.write = sheet, read, write
        self.sheet[H_FLAGS] = game.sheet_flags(values)
        self.sheet[H_RULE_BITS] = game.rule_bits(values)
        self.pol = game.parse_policy(policy, {**values, "players": 1})
        self.rounds = game.rounds_for({**values, "players": 1})
        self.scratch = np.empty(play.WORK_LEN, np.int64)
        play.new_game_work(self.scratch)
        self.taken_this_round = 0

    def ask(self, prompt: str) -> str | None:
        self.write(prompt)
        line = self.read()
        return None if line is None else line.strip()

    def show(self) -> None:
        self.write(f"  {summary(self.game, self.sheet)}\n")

    def dice(self, *texts: str) -> dict[int, int]:
        """The faces of the dice in ``texts`` (roll, fields, platter) by die."""
        faces: dict[int, int] = {}
        for text, what in zip(texts, ("roll", "fields", "platter")):
            faces.update(parse_dice(self.game, text, what))
        return faces

    def pick(self, rnd: int, phase: str, fields: str, platter: str):
        """Ask for a roll, show the advice, apply the choice; returns the chosen die's
        face string and the roll, or None at end of input / 'done'."""
        used = {t[0] for t in (fields + " " + platter).split()}
        in_play = " ".join(letter for letter in self.game.letters if letter not in used)
        example = f"{self.game.letters[0]}3 {self.game.letters[1]}5"
        while True:
            roll = self.ask(f"round {rnd}, {phase}: roll {in_play} and type the dice "
                            f"(e.g. {example}), or done> ")
            if roll is None or roll.lower() in ("done", "quit", "q"):
                return None
            if not roll:
                self.write(f"  type the faces of the dice you rolled ({in_play}), e.g. "
                           f"{example}, or done\n")
                continue
            try:
                result = advise(self.game, self.values, self.sheet, roll, phase, rnd,
                                self.policy, self.rollouts, self.seed, fields, platter,
                                horizon=self.game.advice_horizon)
            except UserError as exc:
                self.write(f"  {exc}\n")
                if "forfeited" in str(exc):
                    return "", roll
                continue
            choice = self.ranked(result)
            if choice is None:
                return None
            if choice == REROLL:
                self.sheet[H_REROLL_USED] += 1
                self.show()
                continue
            if choice in (DECLINE, SKIP):
                return "", roll
            self.apply(choice, roll, fields, platter, phase)
            self.show()
            return choice.split(" -> ")[0], roll

    def ranked(self, result) -> str | None:
        """Show an advice table's best choices (up to 6, and any re-roll, decline or stop
        among the others) and return the player's choice, or None at end of input."""
        table = result.tables["choices"]
        shown = [i for i, c in enumerate(table["choice"])
                 if i < 6 or c in (REROLL, DECLINE, STOP, PROCEED, SKIP)]
        for k, i in enumerate(shown, start=1):
            row = table.iloc[i]
            self.write(f"  {k}. {row.choice}: {row.expected_score:.1f} "
                       f"({row.ci95_low:.1f}-{row.ci95_high:.1f})\n")
        k = self.choose(len(shown))
        return None if k is None else table.iloc[shown[k - 1]]["choice"]

    def apply(self, choice: str, roll: str, fields: str, platter: str, phase: str) -> None:
        """Enter the chosen move with its bonuses; a pick into the chain area (Twice As
        Clever's silver) also marks the dice it sends down."""
        faces = np.zeros(N_DICE, np.int64)
        where = np.full(N_DICE, play.FIELD, np.int64)
        for text, place in ((roll, play.POOL), (fields, play.FIELD), (platter, play.PLATTER)):
            for die, face in parse_dice(self.game, text, "dice").items():
                faces[die], where[die] = face, place
        moves = np.zeros((play.MAX_MOVES, 3), np.int64)
        n = play.legal_moves(self.sheet, faces, ALL_DICE, moves, False)
        for i in range(n):
            if self.game.describe(self.sheet, faces, moves[i]) == choice:
                apply_choice(self.sheet, faces, where, *(int(v) for v in moves[i]), phase,
                             self.pol, self.seed, self.scratch)
                return

    def run(self) -> int:
        rules = self.game.game_rules(self.values)
        for line in untrained_note(self.game, self.values, self.policy):
            self.write(f"note: {line}\n")
        for rnd in range(1, self.rounds + 1):
            self.sheet[H_ROUND] = rnd - 1
            self.sheet[H_ROUNDS] = self.rounds
            self.taken_this_round = 0  # dice taken by +1 this round
            options = self.game.round_options(int(rules[rnd - 1])) if rnd <= 6 else ()
            if options:  # a round-track bonus the player chooses (section 3)
                if not self.round_choice(rnd, options):
                    return self.finish()
            else:
                play.round_bonus(self.sheet, rnd - 1, rules, self.pol,
                                 np.uint64(turn_stream(np.uint64(self.seed), rnd, 1)),
                                 self.scratch)
            self.write(f"round {rnd} begins: {summary(self.game, self.sheet)}\n")
            fields, platter = "", ""
            seen: dict[int, int] = {}  # the faces of this turn's dice, as last rolled
            for k in (1, 2, 3):
                restart = self.sheet[H_FLAGS] & FLAG_RETURN_EMPTY_POOL  # 12.9
                if k > 1 and (restart or not self.out_of_dice(fields, platter)):
                    got = self.returns(rnd, k, fields, platter)
                    if got is None:
                        return self.finish()
                    platter = got
                if self.out_of_dice(fields, platter):
                    self.write("  no die is left in play: the turn's rolls are over "
                               "(fewer than three)\n")
                    break
                got = self.pick(rnd, f"active{k}", fields, platter)
                if got is None:
                    return self.finish()
                chosen, roll = got
                seen.update(self.dice(roll))
                if not chosen:
                    continue
                fields, platter = after_pick(self.game, chosen, roll, fields, platter)
            if not self.plus_ones(rnd, seen, "plus"):
                return self.finish()
            got = self.pick(rnd, "passive", "", "")
            if got is None or not self.plus_ones(rnd, self.dice(got[1]), "passive-plus"):
                return self.finish()
        return self.finish()

    @staticmethod
    def out_of_dice(fields: str, platter: str) -> bool:
        """Are all six dice on the fields or the platter (none left to roll)?"""
        return len((fields + " " + platter).split()) >= N_DICE

    def choose(self, count: int, skip: bool = False) -> int | None:
        """Ask for a choice number 1..count (0 = skip where allowed; Enter = 1, or skip);
        None at end of input or 'done'."""
        while True:
            answer = self.ask("your choice number (Enter = " + ("skip" if skip else "1")
                              + ")> ")
            if answer is None or answer.lower() in ("done", "quit", "q"):
                return None
            k = (0 if skip else 1) if not answer else int(answer) if answer.isdigit() else -1
            if (0 if skip else 1) <= k <= count:
                return k
            self.write(f"  please answer {0 if skip else 1} to {count}\n")

    def returns(self, rnd: int, k: int, fields: str, platter: str) -> str | None:
        """Twice As Clever, section 5: before the roll of active pick ``k``, while a return
        is in hand, returning each platter die ranked by rollouts beside rolling without a
        return; returns the platter left, or None at end of input."""
        names, letters = self.game.layout.DIE_NAMES, self.game.letters
        while platter and self.sheet[H_RETURN_GOT] > self.sheet[H_RETURN_USED]:
            try:
                result = advise(self.game, self.values, self.sheet, "", "return", rnd,
                                self.policy, self.rollouts, self.seed, fields, platter,
                                horizon=self.game.advice_horizon)
            except UserError as exc:  # e.g. no pick made yet (a forfeited roll)
                self.write(f"  {exc}\n")
                break
            self.write(f"use a return before roll {k}? (expected final score with the "
                       f"{self.policy} policy)\n")
            choice = self.ranked(result)
            if choice is None:
                return None
            if choice == PROCEED:
                break
            letter = letters[names.index(choice.split()[-1])]
            self.sheet[H_RETURN_USED] += 1
            platter = " ".join(t for t in platter.split() if t[0].upper() != letter)
            self.show()
        return platter

    def plus_ones(self, rnd: int, seen: dict[int, int], window: str) -> bool:
        """The +1 window ``window`` (``plus``: after the active turn's picks;
        ``passive-plus``: after the passive pick): while a +1 is in hand, each +1 on a die
        of the turn not yet taken by a +1 (this turn, or this round with the sheet's
        ``FLAG_PLUS_PER_ROUND``) ranked by rollouts beside stopping. False at end of
        input."""
        if len(seen) < N_DICE:
            return True
        letters = self.game.letters
        roll = " ".join(f"{letters[d]}{seen[d]}" for d in range(N_DICE))
        per_round = self.sheet[H_FLAGS] & FLAG_PLUS_PER_ROUND  # open point: once per round
        taken = self.taken_this_round if per_round else 0
        while self.sheet[H_PLUS_GOT] - self.sheet[H_PLUS_USED] > 0:
            faces = np.array([seen[d] for d in range(N_DICE)], np.int64)
            moves = np.zeros((play.MAX_MOVES, 3), np.int64)
            if play.legal_moves(self.sheet, faces, ALL_DICE & ~taken, moves, False) == 0:
                return True
            self.write(f"spend a +1? (expected final score with the {self.policy} "
                       "policy)\n")
            result = advise(self.game, self.values, self.sheet, roll, window, rnd,
                            self.policy, self.rollouts, self.seed,
                            taken=" ".join(letters[d] for d in range(N_DICE)
                                           if (taken >> d) & 1),
                            horizon=self.game.advice_horizon)
            choice = self.ranked(result)
            if choice is None:
                return False
            if choice == STOP:
                return True
            n = play.legal_moves(self.sheet, faces, ALL_DICE & ~taken, moves, False)
            for m in moves[:n]:
                if "+1: " + self.game.describe(self.sheet, faces, m) == choice:
                    self.sheet[H_PLUS_USED] += 1
                    play.apply_move(self.sheet, faces, m[0], m[1], m[2], self.pol,
                                    np.uint64(turn_stream(np.uint64(self.seed), 0, 1)), 0,
                                    self.scratch)
                    taken |= 1 << int(m[0])
                    break
            self.taken_this_round = taken
            self.show()
        return True

    def round_choice(self, rnd: int, choices: tuple[tuple[int, str], ...]) -> bool:
        """Section 3: offer a round-track bonus's options ranked by the policy's estimate
        of the final score after each (free marks placed as the policy would); apply the
        player's pick. False at end of input."""
        stream = np.uint64(turn_stream(np.uint64(self.seed), rnd, 1))
        play.start_round(self.scratch)  # the value policy values a round's start
        options = []
        for code, label in choices:
            trial = self.sheet.copy()
            play.apply_bonus_chain(trial, code, self.pol, stream, 2, self.scratch)
            options.append((float(play.sheet_value(trial, self.pol, self.scratch)), label, trial))
        options.sort(key=lambda o: -o[0])
        self.write(f"round {rnd}: choose your round bonus (estimated final score with the "
                   f"{self.policy} policy):\n")
        for i, (value, label, _) in enumerate(options, start=1):
            self.write(f"  {i}. {label}: {value:.1f}\n")
        k = self.choose(len(options))
        if k is None:
            return False
        self.sheet[:] = options[k - 1][2]
        return True

    def finish(self) -> int:
        total = int(total_score(self.sheet))
        self.write(f"final: {summary(self.game, self.sheet)}\n")
        return total


def after_pick(game: CleverGame, chosen: str, roll: str, fields: str,
               platter: str) -> tuple[str, str]:
    """The fields and the platter after an active pick: the chosen die (``chosen``: its
    colour and face, e.g. "blue 2") to the fields, the lower dice of the roll to the
    platter."""
    colour, face = chosen.split()
    letter = game.letters[game.layout.DIE_NAMES.index(colour)]
    kept = [t for t in roll.upper().split() if t[0] != letter]
    low = [t for t in kept if int(t[1]) < int(face)]
    return (f"{fields} {letter}{face}".strip(),
            " ".join([platter] + low).strip())


def run_coach(game: CleverGame, values, policy: str, rollouts: int, seed: int,
              sheet: np.ndarray, stream: TextIO, write: Callable[[str], None]) -> int:
    def read() -> str | None:
        line = stream.readline()
        return line if line else None

    return Coach(game, values, policy, rollouts, seed, sheet, read, write).run()
