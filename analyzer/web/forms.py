"""The web app's forms, checked with the command line's own rules and turned into its
arguments: only the fields named here are read, each as text of a bounded length, so that
a request never names a file, an option or a path of the server."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable

from analyzer.cli_options import rule_values
from analyzer.errors import UserError, shortened
from analyzer.params import defaults
from analyzer.registry import get_game
from analyzer.seeding import DEFAULT_SEED, check_seed
from analyzer.web.jobs import InFolder

LONGEST = 200  # characters of a form field
CLEVER = ("thats-pretty-clever", "twice-as-clever")
SHEET = InFolder("sheet.json")  # where a job's sheet is written (``jobs.Jobs.start``)


@dataclass
class Asked:
    """A question as the command line runs it: its arguments, the files it reads (name to
    text, in the job's own folder) and what becomes of its JSON answer."""

    argv: list[str | InFolder]
    files: dict[str, str] = field(default_factory=dict)
    finish: Callable[[Any], Any] | None = None


def text(form: dict[str, Any], name: str, default: str | None = None) -> str:
    """Field ``name`` of ``form`` as text: a number or a string, not empty."""
    value = form.get(name, default)
    if value is None:
        raise UserError(f"{name} is missing")
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise UserError(f"{name} must be text or a number")
    value = str(value).strip()
    if not value:
        raise UserError(f"{name} is empty: give a value")
    if len(value) > LONGEST:
        raise UserError(f"{name} is longer than {LONGEST} characters: "
                        f"{shortened(value)}")
    return value


def whole(form: dict[str, Any], name: str, default: int) -> int:
    """Field ``name`` as a whole number."""
    value = text(form, name, str(default))
    try:
        return int(value)
    except ValueError:
        raise UserError(f"bad {name} {shortened(value)!r}: expected a whole number") from None


def seed(form: dict[str, Any]) -> str:
    return str(check_seed(whole(form, "seed", DEFAULT_SEED)))


def game_of(form: dict[str, Any], among: tuple[str, ...] | None = None):
    """The game the form names (its registry spec) and its analyzer module."""
    spec = get_game(text(form, "game"))
    if among is not None and spec.id not in among:
        raise UserError(f"{spec.title} has no such page; accepted: {', '.join(among)}")
    return spec, spec.load()


def changes(form: dict[str, Any], params) -> list[str]:
    """The rule changes of a variant as ``KEY=VALUE`` texts, each checked."""
    given = form.get("changes")
    if not isinstance(given, dict) or not given:
        raise UserError("a variant changes at least one rule: choose a rule and its value")
    assignments = [f"{text({'rule': k}, 'rule')}={text(given, k)}" for k in given]
    for assignment in assignments:
        if ";" in assignment:
            raise UserError(f"bad value {shortened(assignment)!r}: no ';' in a value")
        if assignment.startswith("players="):
            raise UserError("players cannot vary in a what-if: choose the player count")
    rule_values(params, None, assignments)
    return assignments


def whatif(form: dict[str, Any]) -> list[str]:
    """A what-if of one variant against the rules by default, played by the game's
    strongest player (the command line's default)."""
    spec, module = game_of(form)
    players = text(form, "players", str(defaults(module.PARAMS)["players"]))
    rule_values(module.PARAMS, None, [], players=players)
    varied = changes(form, module.PARAMS)
    rule_values(module.PARAMS, None, varied, players=players)
    return [spec.id, "whatif", "--players", players, "--vary", ";".join(varied),
            "--seed", seed(form), "--format", "json"]


def cloverup_keep(form: dict[str, Any]) -> list[str]:
    """CloverUp: the exact best play of the dice showing with the re-rolls left."""
    from analyzer.games.cloverup.analyses import parse_dice

    dice = text(form, "dice")
    parse_dice(dice)
    left = whole(form, "rerolls_left", 2)
    started = form.get("double_six", False)
    if not isinstance(started, bool):
        raise UserError("double_six must be true or false")
    return (["cloverup", "solve", "--dice", dice, "--rerolls-left", str(left)]
            + (["--double-six"] if started else []) + ["--format", "json"])


def _sly_dice(form: dict[str, Any]) -> tuple[str, str]:
    """Sly Dice's common dice and the claimant's locked dice, each checked."""
    from analyzer.games.sly_dice.analyses import parse_dice

    common = text(form, "common")
    parse_dice(common, 3, "common dice")
    locked = str(form.get("locked") or "").strip()
    parse_dice(locked, None, "locked dice")
    return common, locked


def sly_odds(form: dict[str, Any]) -> list[str]:
    """Sly Dice: the exact chance of every card after the common dice."""
    common, _ = _sly_dice(form)
    return ["sly-dice", "odds", "--common", common, "--format", "json"]


def sly_equilibrium(form: dict[str, Any]) -> list[str]:
    """Sly Dice: the claim/accuse equilibrium of the public state (every claim's chance,
    truth and accusation probability)."""
    common, locked = _sly_dice(form)
    return (["sly-dice", "equilibrium", "--common", common]
            + (["--locked", locked] if locked else []) + ["--format", "json"])


def clever_sheet(form: dict[str, Any]) -> tuple[Any, dict[str, Any], dict[str, str]]:
    """A coach form's game, the rules for its player count, and its sheet checked (its
    problem named as this page's sheet, never a file of the server)."""
    from analyzer.games.clever.sheetfile import FieldReader, check_actions

    spec, module = game_of(form, CLEVER)
    game = module.GAME
    players = whole(form, "players", 1)
    if not 1 <= players <= 4:
        raise UserError(f"bad players {players}: expected 1 to 4")
    rounds = game.rounds_for({**defaults(game.params), "players": players})
    values = rule_values(game.params, None, [f"rounds={rounds}"])
    sheet = form.get("sheet")
    kernel = game.sheetfile.to_kernel(sheet, "of this page", game.sheet_flags(values))
    check_actions(game, kernel, values, FieldReader("of this page"))
    return game, values, {"sheet.json": json.dumps(sheet)}


def _position(form: dict[str, Any]) -> list[str]:
    """A coach position's options: the roll, the phase, the round and where dice lie."""
    out = ["--phase", text(form, "phase", "active1"), "--round", str(whole(form, "round", 1))]
    for name in ("roll", "fields", "platter", "taken"):
        value = str(form.get(name) or "").strip()
        if len(value) > LONGEST:
            raise UserError(f"{name} is longer than {LONGEST} characters")
        if value:
            out += [f"--{name}", value]
    return out


def sheet_score(form: dict[str, Any]) -> Asked:
    """The coach's sheet scored: each area, the foxes and the total."""
    game, values, files = clever_sheet(form)
    return Asked([game.id, "sheet", "--score", SHEET, "--set", f"rounds={values['rounds']}",
                  "--format", "json"], files)


def advise(form: dict[str, Any]) -> Asked:
    """The coach's advice: every choice of the position ranked by rollouts."""
    game, values, files = clever_sheet(form)
    return Asked([game.id, "advise", "--sheet", SHEET, *_position(form), "--set",
                  f"rounds={values['rounds']}", "--seed", seed(form), "--format", "json"],
                 files)


def take(form: dict[str, Any]) -> Asked:
    """The coach's choice taken: the sheet after it, and after an active pick where the
    dice lie (``coach.after_pick``)."""
    from analyzer.games.clever.coach import after_pick

    game, values, files = clever_sheet(form)
    choice = text(form, "choice")
    phase = text(form, "phase", "active1")
    roll, fields, platter = (str(form.get(k) or "").strip()
                             for k in ("roll", "fields", "platter"))

    def finish(sheet: Any) -> dict[str, Any]:
        moved = phase.startswith("active") and " -> " in choice
        placed = (after_pick(game, choice.split(" -> ")[0], roll, fields, platter) if moved
                  else (fields, platter))
        return {"sheet": sheet, "fields": placed[0], "platter": placed[1]}

    return Asked([game.id, "take", "--sheet", SHEET, *_position(form), "--choice", choice,
                  "--set", f"rounds={values['rounds']}"], files, finish)


QUESTIONS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "whatif": whatif, "cloverup-keep": cloverup_keep, "sly-odds": sly_odds,
    "sly-equilibrium": sly_equilibrium, "sheet-score": sheet_score, "advise": advise,
    "take": take, "preview": take}  # preview: the best choice's marks, shown on the sheet


def asked(kind: str, form: dict[str, Any]) -> Asked:
    """The question ``kind`` of ``form``, checked."""
    if kind not in QUESTIONS:
        raise UserError(f"unknown question {kind!r}; accepted: {', '.join(QUESTIONS)}")
    question = QUESTIONS[kind](form)
    return question if isinstance(question, Asked) else Asked(question)
