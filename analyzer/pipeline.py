"""The whole-game pipeline every game family fills in: a lineup, its job of games (or of
paired what-if games on common random numbers), the statistics of each policy and seat,
and the result.

A family names its kernels, accumulator columns and rule parameters once (``Family``);
its ``simulate`` gives the lineup and the kernels' arguments, and how to read a policy's
row (``Reading``); its ``whatif`` gives the variants' arguments and metrics. The steps,
their order, and the tables and notes every game has are here."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np
import pandas as pd

from analyzer import paired, seats
from analyzer.output import Result
from analyzer.params import assumed_notes
from analyzer.run import driver
from analyzer.seeding import STREAM_GAMES, check_count, check_seed


@dataclass(frozen=True)
class Family:
    """A game family's part of the pipeline: ``title`` (in result titles), its rule
    ``params``, the whole-game and paired what-if block kernels, the accumulator's
    ``columns`` (``seats.Columns``), the what-if accumulator's columns before the seats'
    win units (``n_paired``), games per seed block, and ``meta(values, seed, **extra)``."""

    title: str
    params: tuple
    games_block: Callable
    paired_block: Callable
    columns: seats.Columns
    n_paired: int
    block: int
    meta: Callable[..., dict[str, Any]]


@dataclass(frozen=True)
class Reading:
    """How a family reads a policy's accumulator row: its statistics
    (``stats(name, row)``), its row of the policies table (``record(name, row, stats)``),
    the family's own tables from every policy's row (``tables(rows_by_policy)``), and
    the statistics the headline keeps."""

    stats: Callable[[str, np.ndarray], dict[str, Any]]
    record: Callable[[str, np.ndarray, dict[str, Any]], dict[str, Any]]
    tables: Callable[[dict[str, np.ndarray]], dict[str, pd.DataFrame]] = lambda rows: {}
    headline_keys: tuple[str, ...] = ("mean_score", "ci95", "win_rate", "win_ci95", "games")


@dataclass(frozen=True)
class Notes:
    """A result's notes beside the assumed rules: ``unused`` parameters (no note),
    ``rulings`` after the assumed ones, and ``after(headline_policies, played)`` last."""

    unused: tuple[str, ...] = ()
    rulings: tuple[str, ...] = ()
    after: Callable[[dict[str, Any], int], list[str]] = lambda policies, played: []


# The tables of every game's simulate: these first, then the game's own, then the last.
FIRST_TABLES = ("summary", "policies", "seats")
LAST_TABLES = ("score_distribution",)


def table_names(own: Sequence[str] = ()) -> tuple[str, ...]:
    """The names of a game's ``simulate`` tables, in order, with ``own`` its own."""
    return (*FIRST_TABLES, *own, *LAST_TABLES)


def check_games(games: int) -> int:
    """A game count of 1 to ``seeding.MAX_COUNT`` (a one-line error otherwise)."""
    return check_count(games)


def play(family: Family, seated: np.ndarray, args: tuple, names: Sequence[str], width: int,
         games: int, seed: int, rotate: bool = True, precision: Any = None,
         progress: bool = True, batch_blocks: int | None = None, chunk_blocks: int = 64,
         check_blocks: int = driver.DEFAULT_BATCH_BLOCKS):
    """The lineup ``names``' job of whole games: the kernel's arguments are what each
    seat plays (``seated``), whether seats rotate, then ``args``; ``width`` columns a
    seat; ``games`` checked by the family first (``check_games``, before any heavy set-up).
    Stopped early once ``precision`` holds (looked at every ``check_blocks`` blocks);
    returns ``(accumulator int64[slot, seat, column], games_played)``."""
    stop = seats.stop_rule(list(names), family.columns, precision)
    n = len(names)
    job = driver.Job(driver.BlockLoop.of(family.games_block), (seated, rotate, *args),
                     (n, n, width), family.block, check_seed(seed), STREAM_GAMES, "games",
                     "games", chunk_blocks, check_blocks)
    return driver.run(job, games, progress, batch_blocks, stop)


def games_result(family: Family, values: dict[str, Any], names: Sequence[str],
                 run: tuple[np.ndarray, int], reading: Reading, notes: Notes = Notes(),
                 **meta: Any) -> Result:
    """The result of a lineup's games ``run`` (``play``'s): the summary
    (``seats.summary_rows``), the policies table (the family's record of each, then its
    contest columns: ``seats.contest_record``), the seats, its own tables and the score
    distributions (``table_names``' order), the headline (with the run's ``contest``
    figures: ``seats.game_contest``) and the notes. ``meta`` carries ``seed``, ``games``
    (the cap), ``precision``, ``rotate`` and ``threads`` and goes to the family's
    ``meta``."""
    acc, played = run
    players, rotate = values["players"], meta.get("rotate", True)
    rows = seats.by_name(acc, list(names))
    stats_of = {name: reading.stats(name, row) for name, row in rows.items()}
    dist = [d for name, row in rows.items()
            for d in seats.score_distribution(row, family.columns, by="policy", name=name)]
    seat_rows, seat_dist = seats.seat_rows(acc, family.columns, list(names), rotate)
    policies = {name: {k: s[k] for k in reading.headline_keys if k in s}
                for name, s in stats_of.items()}
    precision, cap = meta.pop("precision", None), meta.pop("games", played)
    reached = precision is None or seats.precise_enough(acc, list(names), family.columns,
                                                        precision)
    lines = assumed_notes(family.params, values, notes.unused) + list(notes.rulings) \
        + seats.precision_note(precision, cap, played, reached, players) \
        + notes.after(policies, played)
    tables = {"summary": pd.DataFrame(seats.summary_rows(acc, family.columns, list(names))),
              "policies": pd.DataFrame([{**reading.record(name, row, stats_of[name]),
                                         **seats.contest_record(row, family.columns, players)}
                                        for name, row in rows.items()]),
              "seats": pd.DataFrame(seat_rows), **reading.tables(rows),
              "score_distribution": pd.DataFrame(dist + seat_dist)}
    return Result(
        f"{family.title} games: {players} player{'s' if players > 1 else ''}, "
        f"{played} games",
        headline={"players": players, "games": played, "policies": policies,
                  **contest_headline(acc, family.columns, players)},
        tables=tables, notes=lines,
        meta=family.meta(values, meta.pop("seed"), games=played, **meta,
                         lineup=list(names)))


def contest_headline(acc: np.ndarray, cols: seats.Columns, players: int) -> dict[str, Any]:
    """The run's contest figures for the headline (``seats.game_contest``), under
    ``contest``; none where the columns are not kept."""
    if cols.decisions_sum < 0:
        return {}
    figures = seats.game_contest(acc, cols, players)
    figures.pop("games")
    return {"contest": figures}


@dataclass(frozen=True)
class Paired:
    """A what-if's run: its ``variants`` ``(label, rule values, lineup)``, the paired
    kernel's ``args``, its ``metrics`` ``(name, column, scale)`` before the seats' win
    rates, and rows of the family's own for a variant (``extra_rows(v)``: before its
    metrics' rows)."""

    variants: list
    args: tuple
    metrics: tuple
    extra_rows: Callable[[int], list[dict[str, Any]]] = lambda v: []
    chunk_blocks: int = 64
    check_blocks: int = driver.DEFAULT_BATCH_BLOCKS


def paired_games(family: Family, run: Paired, games: int, seed: int, progress: bool = True,
                 batch_blocks: int | None = None, precision: Any = None):
    """The what-if's job: every variant plays the same games (common random numbers, the
    games ``play`` deals under the same seed; ``games`` checked with the variants,
    ``paired.check_variants``), until every paired
    difference is as narrow as ``precision`` asks (``paired.stop_rule``) or ``games`` are
    played; returns ``(accumulator, games_played)``."""
    n_var, players = len(run.variants), run.variants[0][1]["players"]
    job = driver.Job(driver.BlockLoop.of(family.paired_block), run.args,
                     (n_var + 1, n_var, family.n_paired + players), family.block,
                     check_seed(seed), STREAM_GAMES, "what-if games", "games",
                     run.chunk_blocks, run.check_blocks)
    stop = paired.stop_rule(all_metrics(family, run), precision, players)
    return driver.run(job, games, progress, batch_blocks, stop)


def all_metrics(family: Family, run: Paired) -> tuple:
    """A what-if's metrics ``(name, column, scale)``: its own, then each seat's win rate."""
    players = run.variants[0][1]["players"]
    return run.metrics + paired.seat_metrics(family.n_paired, players,
                                             family.columns.units_per_win)


def whatif_result(family: Family, run: Paired, acc: np.ndarray, n: int, seed: int,
                  threads: int, notes: Sequence[str] = (), precision: Any = None,
                  cap: int = 0) -> Result:
    """The what-if's table: per variant its rows and each metric's value with its 95%
    interval and, after the reference, the paired difference; the rules and lineup each
    variant changes; then the precision the run stopped at (``precision``, at most
    ``cap`` games), ``notes`` and the reference's assumed rules."""
    players = run.variants[0][1]["players"]
    metrics = all_metrics(family, run)
    details = paired.variant_details(family.params, run.variants)
    rows = []
    for v, variant in enumerate(run.variants):
        rows += run.extra_rows(v)
        rows += paired.lineup_rows(acc, n, [variant], metrics, players, v)
    for row in rows:
        row["changes"] = details[row["variant"]]["changes"]
    return Result(f"{family.title} what-if: {len(run.variants)} variants, {n} games each",
                  headline=paired.headline(rows, n, players, run.variants[0][0],
                                           details=details),
                  tables={"variants": pd.DataFrame(rows)},
                  meta=family.meta(run.variants[0][1], seed, games=n, threads=threads),
                  notes=paired.details_notes(details)
                  + paired.precision_note(acc, n, metrics, precision, players, cap)
                  + list(notes) + assumed_notes(family.params, run.variants[0][1]))
