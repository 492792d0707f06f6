"""The balance report's sections: each game's rule values (defaults, a rules file's
``[game]`` table, ``GAME.KEY=VALUE`` settings) and its section, built in lanes of worker
processes where the games' kernels differ (``report_lanes``), else one after another with
an estimate of the time left (``report_eta``)."""

from __future__ import annotations

import sys
import time
from typing import Any

from analyzer import report_eta
from analyzer.cli_options import rule_values
from analyzer.errors import UserError
from analyzer.params import read_toml, validate_mapping
from analyzer.registry import GAMES, GameSpec
from analyzer.report_lanes import build_in_lanes, default_lanes
from analyzer.run.compile_apart import all_compiled
from analyzer.run.execution import current
from analyzer.run.progress import clock


def report_values(specs: list[GameSpec], rules_file: str | None,
                  assignments: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Rule values per game: defaults, then the file's ``[game]`` tables, then the
    ``GAME.KEY=VALUE`` ``assignments``."""
    tables = read_toml(rules_file) if rules_file else {}
    per_game: dict[str, list[str]] = {spec.id: [] for spec in specs}
    for text in assignments:
        game_id, dot, rest = text.partition(".")
        if not dot or game_id not in per_game:
            raise UserError(f"bad setting {text!r}: expected GAME.KEY=VALUE with GAME one of "
                            f"{', '.join(per_game)}")
        per_game[game_id].append(rest)
    for key, table in tables.items():
        if key not in GAMES or not isinstance(table, dict):
            raise UserError(f"bad table {key!r} in rules file {rules_file!r}; accepted: one "
                            f"table per game: {', '.join(GAMES)}")
    values = {}
    for spec in specs:
        params = spec.load().PARAMS
        from_file = validate_mapping(tables.get(spec.id, {}), params, repr(rules_file))
        values[spec.id] = rule_values(params, None, per_game[spec.id], **from_file)
    return values


def build_sections(specs: list[GameSpec], values: dict[str, dict[str, Any]], seed: int,
                   quick: bool, threads: int | None, progress: bool) -> list[Any]:
    """Every game's section in ``specs`` order. In lanes of worker processes where the
    games' kernels differ and the run is neither on a cluster nor checkpointed."""
    where = current()
    lanes = 1 if where.cluster is not None or where.checkpoint else \
        min(default_lanes(), threads or default_lanes())
    if lanes > 1 and len({spec.kernel_family for spec in specs}) > 1:
        return build_in_lanes(specs, values, seed, quick, threads, progress, lanes)[0]
    return _one_after_another(specs, values, seed, quick, progress)


def _one_after_another(specs: list[GameSpec], values: dict[str, dict[str, Any]], seed: int,
                       quick: bool, progress: bool) -> list[Any]:
    """The sections built in this process, a line with the time left before each."""
    ids = [spec.id for spec in specs]
    compiled = all_compiled(ids)
    estimate = report_eta.Estimate([ids], report_eta.expected_seconds(ids, quick, compiled))
    started = time.perf_counter()
    sections = []
    for number, spec in enumerate(specs, 1):
        now = time.perf_counter()
        if progress:
            print(f"[{number}/{len(specs)}] analysing {spec.title} ... (elapsed "
                  f"{clock(now - started)}; {estimate.bar(now)})", file=sys.stderr,
                  flush=True)
        estimate.start(spec.id, now)
        sections.append(spec.load().report_section(values[spec.id], seed=seed, quick=quick,
                                                   progress=progress))
        estimate.finish(spec.id, time.perf_counter())
    report_eta.record(estimate.finished, quick, compiled)
    return sections
