"""The balance report as a library call: ``build_report`` merges the rules, builds every
game's section (``analyzer.report_sections``) and writes the folder
(``reports.balance.write_report``). ``dicelab report`` is this function's command line."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from analyzer import __version__
from analyzer.errors import UserError
from analyzer.files import check_folder_writable, os_error_in, os_error_words, shown
from analyzer.registry import GAMES, get_game
from analyzer.report_sections import build_sections, report_values
from analyzer.run import driver
from analyzer.seeding import DEFAULT_SEED, check_seed
from reports.balance import write_report

TITLE = "dicelab balance report"


def build_report(out_dir: Path, game_ids: tuple[str, ...] = (), seed: int = DEFAULT_SEED,
                 threads: int | None = None, quick: bool = False, progress: bool = True,
                 rules_file: str | None = None, assignments: tuple[str, ...] = ()
                 ) -> dict[str, Any]:
    """Write the balance report of ``game_ids`` (none: every game) to ``out_dir``: PDF,
    figures (PNG) and tables (CSV), each game under its defaults changed by ``rules_file``
    (a ``[game]`` table per game) and ``assignments`` (``GAME.KEY=VALUE``); returns what
    was written (``write_report``'s record). A bad input or a disk fault is a
    ``UserError`` of one line, and nothing is left behind."""
    check_folder_writable(out_dir, "report folder")
    specs = [get_game(g) for g in game_ids] if game_ids else list(GAMES.values())
    check_seed(seed)
    driver.set_threads(threads)
    values = report_values(specs, rules_file, assignments)
    sections = build_sections(specs, values, seed, quick, threads, progress)
    changed = rules_file is not None or bool(assignments)
    meta = [f"dicelab {__version__}, {date.today().isoformat()}",
            f"seed {seed}: the same seed gives the same numbers on any machine",
            "rules changed by --rules/--set (see each section)" if changed
            else "built-in default rules", "quick run (smaller samples)" if quick
            else "full run"]
    return write_checked(sections, out_dir, meta)


def write_checked(sections: list[Any], out_dir: Path, meta: list[str]) -> dict[str, Any]:
    """``write_report``; a fault of the disk while writing (full, read-only, ...) is one
    line, and nothing is left behind (the files go in place only once all are written)."""
    try:
        return write_report(sections, out_dir, TITLE, meta)
    except Exception as exc:
        fault = os_error_in(exc)
        if fault is None:
            raise
        raise UserError(f"cannot write report folder {shown(out_dir)}: "
                        f"{os_error_words(fault)}") from None
