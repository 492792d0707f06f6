"""An interactive play-along for a solo game of That's Pretty Clever: the player types the
dice they rolled, dicelab ranks the choices by rollouts, applies the chosen one (its bonus
marks placed by the policy) and keeps the sheet, its score and its open bonuses. The
round-4 choice and +1 actions are offered ranked by the policy's estimate of the final
score. Reads plain lines, so it works piped."""

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
from kernels.clever import play
from kernels.rng import turn_stream
from kernels.thats_pretty_clever import layout as L
from kernels.thats_pretty_clever.rules import area_scores, total_score


def summary(sheet: np.ndarray) -> str:
    scores = np.zeros(L.N_AREAS, np.int64)
    area_scores(sheet, scores)
    parts = " ".join(f"{name} {scores[a]}" for a, name in enumerate(L.AREA_NAMES))
    rerolls = sheet[L.S_REROLL_GOT] - sheet[L.S_REROLL_USED]
    plus = sheet[L.S_PLUS_GOT] - sheet[L.S_PLUS_USED]
    return (f"score {total_score(sheet)} ({parts}; foxes {sheet[L.S_FOXES]}); "
            f"re-rolls {rerolls}, +1 {plus}\n  open bonuses: {open_bonuses(sheet)}")


def open_bonuses(sheet: np.ndarray) -> str:
    """The bonuses one mark away (yellow and blue groups missing one cell, with the value
    it needs) and the next bonus on each track (with the slots still to fill)."""
    near = []
    groups = [("yellow row", i + 1, int(m), int(b), "yellow")
              for i, (m, b) in enumerate(zip(L.YELLOW_ROWS, L.YELLOW_ROW_BONUS))]
    groups.append(("yellow diagonal", "", L.YELLOW_DIAGONAL, L.YELLOW_DIAGONAL_BONUS,
                   "yellow"))
    groups += [("blue row", i + 1, int(m), int(b), "blue")
               for i, (m, b) in enumerate(zip(L.BLUE_ROWS, L.BLUE_ROW_BONUS))]
    groups += [("blue column", i + 1, int(m), int(b), "blue")
               for i, (m, b) in enumerate(zip(L.BLUE_COLS, L.BLUE_COL_BONUS))]
    for name, number, mask, code, area in groups:
        marks = int(sheet[L.S_YELLOW if area == "yellow" else L.S_BLUE])
        missing = mask & ~marks
        if missing and missing & (missing - 1) == 0:
            bit = missing.bit_length() - 1
            need = int(L.YELLOW_VALUES[bit]) if area == "yellow" else bit + 2
            near.append(f"{name} {number} needs a {need} -> {L.bonus_label(code)}".replace(
                "  ", " "))
    for area, field, track in (("green", L.S_GREEN, L.GREEN_BONUS),
                               ("orange", L.S_ORANGE, L.ORANGE_BONUS),
                               ("purple", L.S_PURPLE, L.PURPLE_BONUS)):
        done = int(sheet[field])
        ahead = [k for k in range(done, L.TRACK) if track[k]]
        if ahead:
            k = ahead[0]
            near.append(f"{area} slot {k + 1} ({k - done + 1} to go) -> "
                        f"{L.bonus_label(int(track[k]))}")
    return "; ".join(near) if near else "none"


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
            k = self.choose(len(table))
            if k is None:
                return None
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
            seen: dict[int, int] = {}  # the faces of this turn's dice, as last rolled
            for k in (1, 2, 3):
                got = self.pick(rnd, f"active{k}", fields, platter)
                if got is None:
                    return self.finish()
                chosen, roll = got
                seen.update(parse_dice(roll, "roll"))
                if not chosen:
                    continue
                fields, platter = self._after_pick(chosen, roll, fields, platter)
            if not self.plus_ones(seen):
                return self.finish()
            got = self.pick(rnd, "passive", "", "")
            if got is None or not self.plus_ones(parse_dice(got[1], "roll")):
                return self.finish()
        return self.finish()

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

    def plus_ones(self, seen: dict[int, int]) -> bool:
        """Section 10: offer each +1 in hand on any die of the turn not yet taken by a +1,
        ranked by the policy's estimate of the final score, beside keeping it. False at
        end of input."""
        from analyzer.games.thats_pretty_clever.advise import describe

        if len(seen) < L.N_DICE:
            return True
        faces = np.array([seen[d] for d in range(L.N_DICE)], np.int64)
        scratch = np.empty(play.WORK_LEN, np.int64)
        stream = turn_stream(np.uint64(self.seed), 0, 1)
        taken = 0
        while self.sheet[L.S_PLUS_GOT] - self.sheet[L.S_PLUS_USED] > 0:
            moves = np.zeros((play.MAX_MOVES, 3), np.int64)
            n = play.legal_moves(self.sheet, faces, ((1 << L.N_DICE) - 1) & ~taken, moves)
            if n == 0:
                return True
            options = []
            for m in moves[:n]:
                trial = self.sheet.copy()
                trial[L.S_PLUS_USED] += 1
                play.apply_move(trial, faces, m[0], m[1], m[2], self.pol, stream, 0, scratch)
                options.append((float(play.sheet_value(trial, self.pol)),
                                describe(self.sheet, faces, m), int(m[0]), trial))
            options.sort(key=lambda o: -o[0])
            options = options[:6]
            keep = float(play.sheet_value(self.sheet, self.pol))
            self.write(f"spend a +1? (estimated final score with the {self.policy} policy)\n"
                       f"  0. keep it: {keep:.1f}\n")
            for i, (value, text, _, _) in enumerate(options, start=1):
                self.write(f"  {i}. {text}: {value:.1f}\n")
            k = self.choose(len(options), skip=True)
            if k is None:
                return False
            if k == 0:
                return True
            _, _, die, trial = options[k - 1]
            self.sheet[:] = trial
            taken |= 1 << die
            self.write(f"  {summary(self.sheet)}\n")
        return True

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
        k = self.choose(len(options))
        if k is None:
            return False
        self.sheet[:] = options[k - 1][2]
        return True

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
