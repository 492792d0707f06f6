"""Options shared by every command, and the glue from options to rule values."""

from __future__ import annotations

import dataclasses
import functools
import os
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import click

from analyzer.errors import UserError
from analyzer.files import check_writable, own_descriptor, remove_dead_temporaries
from analyzer.output import FORMATS, MAX_NOTES, Result, every_note
from analyzer.params import Param, resolve
from analyzer.seeding import DEFAULT_SEED, MAX_COUNT, check_count


class StrictGroup(click.Group):
    """A command group whose unknown-command error lists the accepted commands."""

    def resolve_command(self, ctx: click.Context, args: list[str]):  # type: ignore[override]
        if args and not args[0].startswith("-") and args[0] not in self.list_commands(ctx):
            raise UserError(f"unknown command {args[0]!r}; accepted: "
                            f"{', '.join(self.list_commands(ctx))}")
        return super().resolve_command(ctx, args)


def _stack(*decorators: Callable) -> Callable:
    def apply(fn: Callable) -> Callable:
        for dec in reversed(decorators):
            fn = dec(fn)
        return fn
    return apply


def once_each(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]
              ) -> tuple[str, ...]:
    """A repeatable ``KEY=VALUE`` option's values, each key given once (the same key twice
    is one line naming both, as TOML refuses it)."""
    seen: dict[str, str] = {}
    for text in values:
        key = text.partition("=")[0].strip().lower()
        if key in seen:
            raise UserError(f"{param.opts[0]} {key} is given twice ({seen[key]!r} and "
                            f"{text!r}); give it once")
        seen[key] = text
    return values


rules_options = _stack(
    click.option("--rules", "rules_file", type=click.Path(dir_okay=False), default=None,
                 help="TOML file of rule parameters (see `dicelab rules GAME`)."),
    click.option("--set", "assignments", multiple=True, metavar="KEY=VALUE",
                 callback=once_each, help="Override one rule parameter; repeatable."),
)

def output_options(fn: Callable) -> Callable:
    """``--format``, ``--output`` and ``--verbose`` (every note line in the text and
    Markdown formats; ``analyzer.output.every_note``)."""
    @functools.wraps(fn)
    def wrapper(*args: Any, verbose: bool, **kwargs: Any) -> Any:
        with every_note(verbose):
            return fn(*args, **kwargs)

    return _stack(
        click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
                     help="Output format [default: table; with --output, the file's "
                          "suffix: .csv, .json or .md]."),
        click.option("--output", "-o", "output", type=click.Path(dir_okay=False),
                     default=None, help="Write to this file instead of standard output."),
        click.option("--verbose", is_flag=True,
                     help=f"Every note line (default: at most {MAX_NOTES}, the assumed "
                          "rule parameters named in one)."),
    )(wrapper)


def execution_options(fn: Callable) -> Callable:
    """``--cluster`` and ``--checkpoint``: the command's work runs in chunks on a Dask
    cluster (or local numba threads) and, with a checkpoint folder, resumes when run again
    after an interruption. The results are the same wherever the chunks ran."""
    @functools.wraps(fn)
    def wrapper(*args: Any, cluster: str | None, checkpoint: str | None, **kwargs: Any) -> Any:
        from analyzer.run.execution import session

        not_empty("--cluster", cluster)
        not_empty("--checkpoint", checkpoint)
        early_output_check(kwargs.get("output"))
        with session(cluster, checkpoint):
            return fn(*args, **kwargs)

    return _stack(
        click.option("--cluster", default=None, metavar="ADDRESS|local:N",
                     help="Run on a Dask cluster: a scheduler address (tcp://host:8786) or "
                          "local:N worker processes; needs dicelab[cluster]."),
        click.option("--checkpoint", default=None, type=click.Path(file_okay=False),
                     metavar="DIR", help="Store finished chunks in DIR; running the same "
                                         "command again resumes an interrupted run."),
    )(wrapper)


run_options = _stack(
    click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True,
                 help="Root seed; the same seed reproduces a run bit for bit."),
    click.option("--threads", type=int, default=None,
                 help="Numba threads (default: all cores). Results do not depend on it."),
    click.option("--quiet", is_flag=True, help="No progress bar."),
    execution_options,
)


def simulate_options(default_cap: int, default_policy: str, accepted: str,
                     players: str, tables: Callable[[], Sequence[str]]) -> Callable:
    """The options of every game's ``simulate``: players, games, policies, seat rotation,
    the precision (``precision_options``) and the tables to give (``tables_option``;
    ``tables()``: the names of every table, loaded when the option is read)."""
    return _stack(
        click.option("--players", default=None, type=str, help=f"Players, {players}."),
        click.option("--policy", "policy_specs", multiple=True, default=(default_policy,),
                     show_default=True, metavar="P[,P...]",
                     help=f"Policy per seat, cycled over the seats. Accepted: {accepted}."),
        click.option("--rotate/--no-rotate", default=True, show_default=True,
                     help="Move the policies one seat each game, so each plays every seat."),
        precision_options(default_cap, "every mean score's", "every win rate's"),
        tables_option(tables),
    )


SUMMARY_TABLE = "summary"


def tables_option(tables: Callable[[], Sequence[str]]) -> Callable:
    """``--tables NAME[,NAME...]`` or ``--tables all``: the tables a result gives, in
    every format; they reach the command as ``tables``, a tuple of names checked against
    ``tables()`` (``chosen_tables``)."""
    def check(ctx: click.Context, param: click.Parameter, value: str) -> tuple[str, ...]:
        return chosen_tables(value, tables())

    def words() -> str:
        return ("The tables to give, comma-separated, or all; the same in every format "
                f"(text, CSV, JSON, Markdown). Accepted: {', '.join(tables())}. The "
                "summary: each policy's mean score, spread (standard deviation) and win "
                "rate, over all its seats and in each seat, with 95% intervals. The "
                "policies and seats tables add the margin (a player's final score minus "
                "the best other player's), the tie rate (games whose top score is shared) "
                "and the decisions a player makes a game, with 95% intervals.")

    return click.option(
        "--tables", "tables", cls=HelpWhenShown, words=words, default=SUMMARY_TABLE,
        show_default=True, metavar="NAME[,NAME...]|all", callback=check)


class HelpWhenShown(click.Option):
    """An option whose help is written when it is shown (``words()``), so that what it
    names can be loaded then rather than whenever the command is built."""

    def __init__(self, *args: Any, words: Callable[[], str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.words = words

    def get_help_record(self, ctx: click.Context):  # type: ignore[override]
        self.help = self.words()
        return super().get_help_record(ctx)


def chosen_tables(text: str, accepted: Sequence[str]) -> tuple[str, ...]:
    """The table names ``--tables`` gives (``all``: every one of ``accepted``), in the
    order given; a name not among them is one line naming it and the accepted names."""
    not_empty("--tables", text)
    given = [n.strip() for n in text.split(",") if n.strip()]
    names = [n.lower().replace("-", "_") for n in given]
    for typed, name in zip(given, names):
        if name != "all" and name not in accepted:
            raise UserError(f"bad --tables name {typed!r}; accepted: "
                            f"{', '.join(accepted)}, or all")
    if not names:
        raise UserError(f"--tables names no table; accepted: {', '.join(accepted)}, or all")
    return tuple(accepted) if "all" in names else tuple(dict.fromkeys(names))


def only_tables(result: Result, names: Sequence[str]) -> Result:
    """``result`` with only the tables ``names``, in that order."""
    return dataclasses.replace(result, tables={name: result.tables[name] for name in names})


def precision_options(default_cap: int, scores: str, wins: str) -> Callable:
    """``--games``, ``--max-games``, ``--precision`` and ``--win-precision``, reaching the
    command as ``games`` (the count to play, or the most) and ``precision`` (a
    ``seats.Precision``, or None: exactly ``games``). Without ``--games`` a run plays until
    the headline figures' 95% half-widths are at most ``seats.DEFAULT``'s (or those
    given), at most ``--max-games`` games; ``--games N`` plays N games (with a precision
    given too: at most N)."""
    from analyzer.seats import DEFAULT

    return _stack(
        click.option("--games", default=None, type=int,
                     help="Play exactly this many games (with --precision: at most). "
                          "Default: play until the precision is reached."),
        click.option("--max-games", default=default_cap, show_default=True, type=int,
                     help="Without --games: the most games to play for the precision."),
        click.option("--precision", type=float, default=None,
                     help=f"Stop once {scores} 95% interval half-width is at most this "
                          f"many points a player [default without --games: "
                          f"{DEFAULT.points:g}]."),
        click.option("--win-precision", type=float, default=None,
                     help=f"Stop once {wins} 95% interval half-width is at most this many "
                          "percentage points (two or more players) [default without "
                          f"--games: {DEFAULT.win_points:g}]."),
        _merged_precision,
    )


def _merged_precision(fn: Callable) -> Callable:
    """The precision options reach the command as ``games`` and ``precision``
    (``precision_options``)."""
    @functools.wraps(fn)
    def wrapper(*args: Any, games: int | None, max_games: int, precision: float | None,
                win_precision: float | None, **kwargs: Any) -> Any:
        from analyzer.seats import DEFAULT, Precision, as_precision

        if games is None:
            if not 1 <= max_games <= MAX_COUNT:
                raise UserError(f"bad --max-games {max_games}: expected a whole number from "
                                f"1 to {MAX_COUNT:,}")
            given = Precision(precision, win_precision)
            merged = Precision(precision or DEFAULT.points, win_precision or DEFAULT.win_points,
                               by_default=win_precision is None)
            as_precision(given)  # a bad width given is one line naming it
            return fn(*args, games=max_games, precision=merged, **kwargs)
        check_count(games)
        return fn(*args, games=games, precision=as_precision(Precision(precision,
                                                                      win_precision)),
                  **kwargs)
    return wrapper


def tune_options(targets: str, free: str) -> Callable:
    """The options of every game's ``tune``: the targets (``targets``: their names) and
    the free parameters (``free``: what they are)."""
    return _stack(
        click.option("--target", "targets", multiple=True, metavar="NAME=VALUE",
                     help=f"A figure to hit (repeatable): {targets}."),
        click.option("--free", "free", default="", metavar="P[,P...]",
                     help=f"The parameters to change: {free}."),
    )


def whatif_options(default_cap: int, default_policy: str, vary_help: str,
                   players: str) -> Callable:
    """The options of every game's ``whatif``: rule variants, lineup variants, the base
    lineup, players, and the games and precision (``precision_options``)."""
    return _stack(
        click.option("--vary", "rule_variants", multiple=True,
                     metavar="KEY=VALUE[;KEY=VALUE]",
                     help=vary_help + " Repeatable; each is compared with the baseline. "
                          "lineup=P,Q among the changes plays that lineup too."),
        click.option("--lineup", "lineups", multiple=True, metavar="P[,P...]",
                     help="A variant: the baseline rules with this lineup; repeatable."),
        click.option("--policy", "base_policy", default=default_policy, show_default=True,
                     metavar="P[,P...]", help="The baseline's lineup (the rules in force "
                                              "with it are the baseline)."),
        click.option("--players", default=None, type=str, help=f"Players, {players}."),
        precision_options(default_cap, "every paired difference in mean score's",
                          "every paired difference in a win rate's"),
    )


def split_specs(specs: Iterable[str]) -> list[str]:
    """Comma-separated names from repeated options, in order."""
    return [p.strip() for spec in specs for p in spec.split(",") if p.strip()]


def rule_values(params: Iterable[Param], rules_file: str | None, assignments: Iterable[str],
                **overrides: Any) -> dict[str, Any]:
    """Validated rule values from defaults, ``--rules``, ``--set`` and typed CLI options
    (``None`` overrides are ignored)."""
    given = {k: v for k, v in overrides.items() if v is not None}
    params = tuple(params)
    known = {p.name: p for p in params}
    typed = {k: known[k].parse(v) if isinstance(v, str) else v for k, v in given.items()}
    return resolve(params, rules_file, assignments, typed)


def given_not_empty(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """A click callback: ``not_empty`` for the option's value."""
    not_empty(param.opts[0], value)
    return value


def not_empty(name: str, value: str | None) -> None:
    """An option given an empty value (``-o ''``) is one line, never taken as absent."""
    if value is not None and not value.strip():
        raise UserError(f"{name} is empty: give a value or leave the option out")


def early_output_check(output: str | None) -> None:
    """Reject an empty or unwritable ``--output`` before any work is done (and remove
    what runs killed while writing it left)."""
    not_empty("--output", output)
    if output:
        path = check_writable(output)
        if own_descriptor(path) is None:
            target = Path(os.path.realpath(path))
            remove_dead_temporaries(target.parent, target.name)


def with_output_check(fn: Callable) -> Callable:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        early_output_check(kwargs.get("output"))
        return fn(*args, **kwargs)
    return wrapper


def run_to_output(fn: Callable) -> Callable:
    """``run_options``, ``output_options`` and the early check of ``--output``: what every
    command that runs and writes a table takes."""
    return _stack(run_options, output_options, with_output_check)(fn)
