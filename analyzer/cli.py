"""The ``dicelab`` command line.

Generic commands (``games``, ``rules``, ``report``, ``cheatsheet``, ``serve``) work for every
game; each game adds its own group (``dicelab cloverup solve ...``), loaded only when used.
Bad input of any kind ends in one line on stderr and exit status 2.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from analyzer import __version__
from analyzer.cli_options import (StrictGroup, early_output_check, execution_options, once_each,
                                  output_options, rule_values, rules_options)
from analyzer.errors import Interrupted, UserError, readable, shortened
from analyzer.files import drop_stdout, open_closed_streams, os_error_words, shown, write_stdout
from analyzer.registry import GAMES, available_games, get_game
from analyzer.seeding import DEFAULT_SEED


class GameGroup(StrictGroup):
    """Lists every registered game as a subcommand, importing it only when it runs."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return super().list_commands(ctx) + available_games()

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in GAMES:
            return GAMES[name].load().commands()
        return super().get_command(ctx, name)

    def main(self, args=None, prog_name=None, **extra):  # type: ignore[override]
        """Run, turning every input error into one line on stderr and exit status 2."""
        extra.pop("standalone_mode", None)
        try:
            code = super().main(args=args, prog_name=prog_name or "dicelab",
                                standalone_mode=False, **extra)
            write_stdout("")  # what is still buffered, while a failure can be told
        except click.exceptions.NoArgsIsHelpError as exc:  # a group with no command: its help
            click.echo(exc.ctx.get_help() if exc.ctx else exc.format_message())
            sys.exit(0)
        except (UserError, click.ClickException) as exc:
            message = exc.format_message() if isinstance(exc, click.ClickException) else exc
            _fail(str(message))
        except BrokenPipeError:  # the reader of standard output left (| head): quietly
            drop_stdout()
            sys.exit(1)
        except OSError as exc:  # a fault of the system (full disk, ...) met on the way
            _fail(_os_fault(exc))
        except RecursionError:
            _fail("input nested too deeply to read")
        except Interrupted as exc:
            _interrupted(str(exc))
        except click.exceptions.Abort:  # Ctrl-C (or end of input) at a click prompt
            _interrupted("interrupted")
        except Exception as exc:
            _retry_without_damaged_kernels(exc)
            raise
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        """Ctrl-C anywhere in a command is ``Interrupted`` (one line, exit 130), before
        click could turn it into an abort with a blank line."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise Interrupted("interrupted") from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        generic = [(n, self.commands[n].get_short_help_str(60)) for n in super().list_commands(ctx)]
        games = [(g.id, f"{g.title}: {g.summary}") for g in GAMES.values()]
        with formatter.section("Commands"):
            formatter.write_dl(generic)
        with formatter.section("Games (dicelab GAME --help)"):
            formatter.write_dl(games)


MAX_CACHE_RETRIES = 10


def _retry_without_damaged_kernels(exc: Exception) -> None:
    """When ``exc`` came from reading a damaged compiled kernel that the start-up check
    could not judge (``kernels.cache_check``): remove it, say so in one line and run the
    command again, for each damaged function (nothing was written yet: outputs are written
    whole at the end)."""
    count = os.environ.get("DICELAB_CACHE_RETRY", "0")
    retries = int(count) if count.isdigit() else MAX_CACHE_RETRIES
    if "kernels.jit" not in sys.modules or retries >= MAX_CACHE_RETRIES:
        return
    from kernels import cache_check
    from kernels.jit import cache_folder

    folder = cache_folder()
    damaged = cache_check.unreadable(exc, folder)
    if not damaged:
        return
    cache_check.remove(folder, damaged)
    cache_check.say_removed(len(damaged))
    os.environ["DICELAB_CACHE_RETRY"] = str(retries + 1)
    os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])


def _fail(message: str) -> None:
    """One line on stderr, exit status 2 (standard output flushed or dropped first)."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        drop_stdout()
    click.echo(f"dicelab: error: {shortened(readable(message))}", err=True)
    sys.exit(2)


def _os_fault(exc: OSError) -> str:
    """An ``OSError`` no command turned into words: what failed, and where."""
    where = f" ({shown(exc.filename)})" if exc.filename else ""
    return f"{os_error_words(exc)}{where}"


def _interrupted(message: str) -> None:
    """Ctrl-C: one line, exit status 130 at once (a chunk may still run on a helper
    thread)."""
    click.echo(f"dicelab: {message}", err=True)
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    sys.stderr.flush()
    _release_semaphores()
    os._exit(130)


def _release_semaphores() -> None:
    """What a normal exit does for ``multiprocessing`` (its finalizers of priority 0 and
    up): unlink the semaphores of queues and shared values, so that its resource tracker
    does not warn of leaked ones after ``os._exit``."""
    util = sys.modules.get("multiprocessing.util")
    if util is not None:
        try:
            util._run_finalizers(0)
        except Exception:  # noqa: BLE001 - best effort on the way out
            pass


@click.group(cls=GameGroup)
@click.version_option(__version__, prog_name="dicelab")
def cli() -> None:
    """dicelab: exact and Monte Carlo strategy analysis for dice games."""


@cli.command()
@output_options
def games(fmt: str, output: str | None) -> None:
    """List the games."""
    import pandas as pd

    from analyzer.output import Result, emit

    early_output_check(output)
    rows = [{"game": g.id, "title": g.title, "players": f"{g.min_players}-{g.max_players}",
             "rules": g.rules_doc, "summary": g.summary} for g in GAMES.values()]
    emit(Result("dicelab games", tables={"games": pd.DataFrame(rows)}), fmt, output)


@cli.command()
@click.argument("game")
@rules_options
@output_options
def rules(game: str, rules_file: str | None, assignments: tuple[str, ...], fmt: str,
          output: str | None) -> None:
    """Print every rule parameter of GAME with its plain words, its default and the value in
    force (in words too)."""
    import pandas as pd

    from analyzer.output import Result, emit

    early_output_check(output)
    spec = get_game(game)
    module = spec.load()
    values = rule_values(module.PARAMS, rules_file, assignments)
    rows = [{"parameter": p.name, "rule": p.label, "default": p.show(p.default),
             "value": p.show(values[p.name]), "in_words": p.words(values[p.name]),
             "assumed": "ASSUMED" if p.assumed else "", "accepted": p.accepted(),
             "meaning": p.help} for p in module.PARAMS]
    policies = pd.DataFrame([{"policy": k, "meaning": v} for k, v in module.POLICY_HELP.items()])
    emit(Result(f"{spec.title} rule parameters ({spec.rules_doc})",
                tables={"parameters": pd.DataFrame(rows), "policies": policies},
                notes=["ASSUMED marks defaults the rules page chose where the source is silent; "
                       "outputs that depend on them say so"]
                + [f"engine ruling: {r}" for r in module.RULINGS]), fmt, output)


@cli.command()
@click.option("--output-dir", "-o", "out_dir", type=click.Path(file_okay=False),
              default="dicelab-report", show_default=True, help="Folder to write.")
@click.option("--game", "game_ids", multiple=True, callback=once_each,
              help="Only these games (default: all).")
@click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True, help="Root seed.")
@click.option("--threads", type=int, default=None, help="Numba threads (default: all).")
@click.option("--quick", is_flag=True, help="Smaller samples, for a first look.")
@click.option("--quiet", is_flag=True, help="No progress output.")
@click.option("--rules", "rules_file", type=click.Path(dir_okay=False), default=None,
              help="TOML file with one table of rule parameters per game, e.g. [cloverup].")
@click.option("--set", "assignments", multiple=True, metavar="GAME.KEY=VALUE",
              callback=once_each, help="Override one game's rule parameter; repeatable.")
@execution_options
def report(out_dir: str, game_ids: tuple[str, ...], seed: int, threads: int | None,
           quick: bool, quiet: bool, rules_file: str | None,
           assignments: tuple[str, ...]) -> None:
    """Write the balance report: PDF, figures (PNG) and tables (CSV).

    Without --rules or --set every game is analysed on its built-in default rules.
    """
    from reports.build import build_report

    written = build_report(Path(out_dir), game_ids, seed, threads, quick, not quiet,
                           rules_file, assignments)
    click.echo(f"wrote {out_dir}/: {len(written.get('figures', []))} figures, "
               f"{len(written.get('tables', []))} tables, report.pdf")


@cli.command()
@click.argument("game")
@click.option("--output", "-o", "output", type=click.Path(dir_okay=False), required=True,
              help="PDF file to write (or .png: a picture of the page).")
@rules_options
def cheatsheet(game: str, output: str, rules_file: str | None,
               assignments: tuple[str, ...]) -> None:
    """Write a one-page printable A4 strategy card for GAME."""
    from reports.cheatsheet import render_cheatsheet

    early_output_check(output)
    if not output.lower().endswith((".pdf", ".png")):
        raise UserError(f"cheat sheet file {output!r} must end in .pdf (or .png)")
    module = get_game(game).load()
    values = rule_values(module.PARAMS, rules_file, assignments)
    render_cheatsheet(module.cheatsheet(values), Path(output))
    click.echo(f"wrote {output}")


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (another than loopback opens the app to "
                   "other machines).")
@click.option("--port", type=int, default=0, help="The port (default: a free one).")
def serve(host: str, port: int) -> None:
    """Start the web app (a coach for the Clever games, the CloverUp and Sly Dice helpers
    and a what-if bench) and print its address; Ctrl-C stops it."""
    from analyzer.web.serve import serve as run

    run(host, port)


def main() -> None:
    """Console entry point (``dicelab``, ``python -m analyzer``)."""
    open_closed_streams()
    cli.main()
