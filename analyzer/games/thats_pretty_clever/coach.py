"""An interactive play-along for a solo game of That's Pretty Clever: the player types the
dice they rolled, dicelab ranks the choices by rollouts, applies the chosen one (its bonus
marks placed by the policy) and keeps the sheet. Reads plain lines, so it works piped."""

from __future__ import annotations

from typing import Callable, TextIO

import numpy as np

from analyzer.errors import UserError
from analyzer.games.thats_pretty_clever.advise import advise, parse_dice
from analyzer.games.thats_pretty_clever.model import (
    game_rules,
    parse_policy,
    rounds_for,
    sheet_flags,
)
from kernels.rng import turn_stream
from kernels.thats_pretty_clever import layout as L
from kernels.thats_pretty_clever import play
from kernels.thats_pretty_clever.rules import area_scores, total_score


def summary(sheet: np.ndarray) -> str:
    scores = np.zeros(L.N_AREAS, np.int64)
    area_scores(sheet, scores)
    parts = " ".join(f"{name} {scores[a]}" for a, name in enumerate(L.AREA_NAMES))
    rerolls = sheet[L.S_REROLL_GOT] - sheet[L.S_REROLL_USED]
    plus = sheet[L.S_PLUS_GOT] - sheet[L.S_PLUS_USED]
    return (f"score {total_score(sheet)} ({parts}; foxes {sheet[L.S_FOXES]}); "
            f"re-rolls {rerolls}, +1 {plus}")


class Coach:
    """One solo game, driven by lines of input."""

    def __init__(self, values, policy: str, rollouts: int, seed: int, sheet: np.ndarray,
                 read: Callable[[], str | None], write: Callable[[str], None]):
        self.values, self.policy, self.rollouts, self.seed = values, policy, rollouts, seed
        self.sheet, self.read, self.write = sheet, read, write
        self.sheet[L.S_FLAGS] = sheet_flags(values)
        self.pol = parse_policy(policy)
        self.rounds = rounds_for({**values, "players": 1})

    def ask(self, prompt: str) -> str | None:
        self.write(prompt)
        line = self.read()
        return None if line is None else line.strip()

    def pick(self, rnd: int, phase: str, fields: str, platter: str):
        """Ask for a roll, show the advice, apply the choice; returns the chosen die's
        face string and the roll, or None at end of input / 'done'."""
        used = {t[0] for t in (fields + " " + platter).split()}
        in_play = " ".join(letter for letter in "WYBGOP" if letter not in used)
        while True:
            roll = self.ask(f"round {rnd}, {phase}: roll {in_play} and type the dice "
                            "(e.g. W3 Y5), or done> ")
            if roll is None or roll.lower() in ("done", "quit", "q"):
                return None
            try:
                result = advise(self.values, self.sheet, roll, phase, rnd, self.policy,
                                self.rollouts, self.seed, fields, platter)
            except UserError as exc:
                self.write(f"  {exc}\n")
                if "forfeited" in str(exc):
                    return "", roll
                continue
            table = result.tables["choices"]
            for i, row in enumerate(table.itertuples(), start=1):
                if i <= 6:
                    self.write(f"  {i}. {row.choice}: {row.expected_score:.1f} "
                               f"({row.ci95_low:.1f}-{row.ci95_high:.1f})\n")
            answer = self.ask("your choice number (Enter = 1)> ")
            k = 1 if not answer else int(answer) if answer.isdigit() else 0
            if not 1 <= k <= len(table):
                self.write(f"  please answer 1 to {len(table)}\n")
                continue
            choice = table.iloc[k - 1]["choice"]
            self.apply(choice, roll, fields, platter, phase)
            self.write(f"  {summary(self.sheet)}\n")
            return choice.split(" -> ")[0], roll

    def apply(self, choice: str, roll: str, fields: str, platter: str, phase: str) -> None:
        faces = np.zeros(L.N_DICE, np.int64)
        for dice in (parse_dice(roll, "roll"), parse_dice(fields, "fields"),
                     parse_dice(platter, "platter")):
            for die, face in dice.items():
                faces[die] = face
        moves = np.zeros((play.MAX_MOVES, 3), np.int64)
        n = play.legal_moves(self.sheet, faces, (1 << L.N_DICE) - 1, moves)
        from analyzer.games.thats_pretty_clever.advise import describe

        for i in range(n):
            if describe(self.sheet, faces, moves[i]) == choice:
                scratch = np.empty(play.WORK_LEN, np.int64)
                play.apply_move(self.sheet, faces, moves[i, 0], moves[i, 1], moves[i, 2],
                                self.pol, turn_stream(np.uint64(self.seed), 0, 0), 0, scratch)
                return

    def run(self) -> int:
        for rnd in range(1, self.rounds + 1):
            self.sheet[L.S_ROUND] = rnd - 1
            self.sheet[L.S_ROUNDS] = self.rounds
            rules = game_rules(self.values)
            if rules[rnd - 1] < 0:  # the round-4 choice (section 3): the player takes it
                if not self.round_choice(rnd):
                    return self.finish()
            else:
                play.round_bonus(self.sheet, rnd - 1, rules, self.pol,
                                 turn_stream(np.uint64(self.seed), rnd, 1),
                                 np.empty(play.WORK_LEN, np.int64))
            self.write(f"round {rnd} begins: {summary(self.sheet)}\n")
            fields, platter = "", ""
            for k in (1, 2, 3):
                got = self.pick(rnd, f"active{k}", fields, platter)
                if got is None:
                    return self.finish()
                chosen, roll = got
                if not chosen:
                    continue
                fields, platter = self._after_pick(chosen, roll, fields, platter)
            if self.pick(rnd, "passive", "", "") is None:
                return self.finish()
        return self.finish()

    def round_choice(self, rnd: int) -> bool:
        """Section 3: offer the black X / black 6 options ranked by the policy's estimate
        of the final score after each (free marks placed as the policy would); apply the
        player's pick. False at end of input."""
        scratch = np.empty(play.WORK_LEN, np.int64)
        stream = turn_stream(np.uint64(self.seed), rnd, 1)
        options = []
        for code in L.ROUND4_OPTIONS:
            trial = self.sheet.copy()
            play.apply_bonus_chain(trial, code, self.pol, stream, 2, scratch)
            options.append((float(play.sheet_value(trial, self.pol)), int(code), trial))
        options.sort(key=lambda o: -o[0])
        self.write(f"round {rnd}: choose the black X or the black 6 (estimated final score "
                   f"with the {self.policy} policy):\n")
        for i, (value, code, _) in enumerate(options, start=1):
            what = "black 6 in" if code // 8 in (L.WRITE_ORANGE, L.WRITE_PURPLE) else \
                "black X in"
            area = L.BONUS_NAMES[code // 8].split()[0]
            self.write(f"  {i}. {what} {area}: {value:.1f}\n")
        while True:
            answer = self.ask("your choice number (Enter = 1)> ")
            if answer is None or answer.lower() in ("done", "quit", "q"):
                return False
            k = 1 if not answer else int(answer) if answer.isdigit() else 0
            if 1 <= k <= len(options):
                self.sheet[:] = options[k - 1][2]
                return True
            self.write(f"  please answer 1 to {len(options)}\n")

    @staticmethod
    def _after_pick(chosen: str, roll: str, fields: str, platter: str) -> tuple[str, str]:
        """Move the chosen die to the fields and the lower dice of the roll to the platter."""
        colour, face = chosen.split()
        letter = {name: letter for letter, die in
                  (("W", 0), ("Y", 1), ("B", 2), ("G", 3), ("O", 4), ("P", 5))
                  for name in [L.DIE_NAMES[die]]}[colour]
        kept = [t for t in roll.upper().split() if t[0] != letter]
        low = [t for t in kept if int(t[1]) < int(face)]
        return (f"{fields} {letter}{face}".strip(),
                " ".join([platter] + low).strip())

    def finish(self) -> int:
        total = int(total_score(self.sheet))
        self.write(f"final: {summary(self.sheet)}\n")
        return total


def run_coach(values, policy: str, rollouts: int, seed: int, sheet: np.ndarray,
              stream: TextIO, write: Callable[[str], None]) -> int:
    def read() -> str | None:
        line = stream.readline()
        return line if line else None

    return Coach(values, policy, rollouts, seed, sheet, read, write).run()
