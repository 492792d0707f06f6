"""``dicelab thats-pretty-clever ...`` and ``dicelab twice-as-clever ...``: the same thin
click commands built for each Clever game."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from analyzer.games.clever.game import CleverGame
from analyzer.cli_options import (StrictGroup, early_output_check, given_not_empty, only_tables,
                                  output_options, precision_options, rule_values, rules_options,
                                  run_to_output, simulate_options, split_specs, tune_options,
                                  whatif_options, with_output_check)
from analyzer.errors import Interrupted, UserError, readable
from analyzer.files import write_output
from analyzer.output import emit
from analyzer.seats import check_win_precision
from analyzer.seeding import DEFAULT_SEED, check_count, check_seed


network_option = click.option(
    "--network", "network", type=click.Path(dir_okay=False), default=None,
    callback=given_not_empty, metavar="FILE",
    help="The learned player plays this network file (one `train` wrote) instead of the "
         "game's own.")


def make_group(game: CleverGame) -> click.Group:
    """The ``dicelab <game>`` click group: simulate, players, sheet, whatif, tune, advise,
    take, coach, train."""
    group = StrictGroup(name=game.id, help=f"{game.title}: whole-game simulation, "
                        "what-ifs, advice, coaching and score sheets.")
    for command in (simulate, players, sheet, whatif, tune, advise, take, coach, train):
        group.add_command(command(game))
    return group


def simulate(game: CleverGame) -> click.Command:
    @click.command()
    @simulate_options(100_000, "learned", ", ".join(game.policy_help),
                      "1 to 4 (default 1 = solo)", lambda: _simulation().TABLES)
    @network_option
    @rules_options
    @run_to_output
    def simulate(players, games, policy_specs, rotate, precision, tables, network, rules_file,
                 assignments, seed, threads, quiet, fmt, output):
        """Play whole games: total and per-area scores, foxes, bonuses, solo ratings and
        win rates, with 95% intervals (a summary; --tables all: every table)."""
        values = rule_values(game.params, rules_file, assignments, players=players)
        played = game.with_network(network)
        check_win_precision(precision, values["players"])
        result = _simulation().simulate(played, values, split_specs(policy_specs), games,
                                        check_seed(seed), threads, rotate, precision,
                                        not quiet)
        emit(only_tables(result, tables), fmt, output)

    return simulate


PLAYERS_GAMES = 16_384  # the most games of each player count (``players``)


def players(game: CleverGame) -> click.Command:
    @click.command()
    @precision_options(PLAYERS_GAMES, "each player count's mean score's",
                       "every seat's win rate's")
    @network_option
    @rules_options
    @run_to_output
    def players(games, precision, network, rules_file, assignments, seed, threads, quiet, fmt,
                output):
        """Every player count, 1 to 4, the learned policy in every seat: the mean score,
        its spread, the winner's margin over the runner-up, ties and the decisions a player
        makes a game, with 95% intervals, and the player count to recommend."""
        from analyzer.player_counts import check_assignments, players_result

        check_assignments(assignments)
        values = rule_values(game.params, rules_file, assignments)
        emit(players_result(game.with_network(network), values, check_seed(seed), games,
                            precision, threads, not quiet), fmt, output)

    return players


def _simulation():
    """The simulation module, loaded when a command needs it."""
    from analyzer.games.clever import simulation

    return simulation


def sheet(game: CleverGame) -> click.Command:
    @click.command()
    @click.option("--new", "new", is_flag=True, help="Write (or print) a blank sheet.")
    @click.option("--score", "score_file", type=click.Path(dir_okay=False), default=None,
                  help="Score a sheet file: per-area scores, foxes and total.")
    @rules_options
    @output_options
    def sheet(new, score_file, rules_file, assignments, fmt, output):
        """Blank sheets and sheet scoring under the rules in force (the JSON format:
        docs/sheet-format.md)."""
        from analyzer.games.clever import sheetfile

        early_output_check(output)
        values = rule_values(game.params, rules_file, assignments)
        if new == bool(score_file):
            raise UserError("give exactly one of --new or --score SHEET.json")
        if new:
            text = json.dumps(sheetfile.blank_document(game, values), indent=1) + "\n"
            if output:
                write_output(output, text)
            else:
                click.echo(text, nl=False)
            return
        emit(sheetfile.score_result(game, sheetfile.read(game, score_file, values)), fmt,
             output)

    return sheet


def whatif(game: CleverGame) -> click.Command:
    @click.command()
    @whatif_options(100_000, "learned",
                    "A variant with rule parameters changed, e.g. round_4_bonus=false.",
                    "1 to 4 (default 1)")
    @network_option
    @rules_options
    @run_to_output
    def whatif(rule_variants, lineups, base_policy, players, games, precision, network,
               rules_file, assignments, seed, threads, quiet, fmt, output):
        """Compare rule or lineup variants side by side on common random numbers.

        The baseline is the rules in force (defaults, --rules, --set) played by --policy;
        each --vary is the baseline with exactly its changes (KEY=VALUE;KEY=VALUE, and
        lineup=P,Q for a combined variant), each --lineup the baseline with that lineup.
        Every variant gets its paired difference from the baseline with a 95% interval.
        """
        from analyzer.games.clever import simulation
        from analyzer.paired import variants_from_options

        variants = variants_from_options(
            lambda extra: rule_values(game.params, rules_file, list(assignments) + extra,
                                      players=players),
            rule_variants, lineups, base_policy)
        played = game.with_network(network)
        emit(simulation.whatif(played, variants, games, check_seed(seed), threads, not quiet,
                               precision), fmt, output)

    return whatif


def tune(game: CleverGame) -> click.Command:
    @click.command()
    @tune_options("mean_score, first_seat_win_rate, foxes_per_player",
                  "rule parameters (switches, choices, rounds)")
    @click.option("--policy", default="learned", show_default=True,
                  help="Who plays: " + ", ".join(game.policy_help) + ".")
    @click.option("--players", type=int, default=None, help="1 to 4 (default 1 = solo).")
    @precision_options(100_000, "every paired difference in mean score's",
                       "every paired difference in a win rate's")
    @network_option
    @rules_options
    @run_to_output
    def tune(targets, free, policy, players, games, precision, network, rules_file,
             assignments, seed, threads, quiet, fmt, output):
        """Find the rule values whose simulated figures come nearest the targets: every
        combination of the free parameters, played on the same dice, with 95% intervals."""
        from analyzer.games.clever.tune import tune as find

        values = rule_values(game.params, rules_file, assignments, players=players)
        played = game.with_network(network)
        played.parse_policy(policy)
        emit(find(played, values, targets, free, policy, games, check_seed(seed), precision,
                  threads, not quiet), fmt, output)

    return tune


def position_options(game: CleverGame):
    """The options naming a position: the sheet, the dice, the phase and the round."""
    letters = " ".join(game.letters)
    options = [
        click.option("--sheet", "sheet_file", type=click.Path(dir_okay=False), required=True,
                     help="The sheet so far, a JSON file (docs/sheet-format.md; "
                          "`sheet --new` writes a blank one)."),
        click.option("--roll", default="", metavar=f"'{game.letters[0]}3 ...'",
                     help=f"The dice in front of you: colour letter {letters} and face."),
        click.option("--phase", default="active1", show_default=True,
                     help="active1, active2, active3 (which pick of your active turn), "
                          "passive, plus (the +1 window after your active turn's picks) or "
                          "passive-plus (after your passive pick); the +1 windows and "
                          "passive take all six dice in --roll."
                          + (" return: before the roll of pick 2 or 3, return a platter die "
                             "or not (no --roll; the dice not in --fields or --platter are "
                             "rolled)." if game.has_returns else "")),
        click.option("--taken", default="",
                     help="+1 windows: the dice +1 has taken already, e.g. 'Y B'."),
        click.option("--round", "rnd", type=int, default=1, show_default=True,
                     help="The round."),
        click.option("--fields", default="",
                     help="Active picks 2-3: dice on your fields, e.g. 'G6'."),
        click.option("--platter", default="", help="Active picks 2-3: dice on the platter."),
    ]

    def decorate(fn):
        for option in reversed(options):
            fn = option(fn)
        return fn
    return decorate


def advise(game: CleverGame) -> click.Command:
    @click.command()
    @position_options(game)
    @click.option("--policy", default=game.rollout_policy, show_default=True,
                  help=f"Policy of the rollouts: {', '.join(game.policy_help)}.")
    @click.option("--rollouts", default=game.advice_rollouts, show_default=True, type=int,
                  help="Rollouts per choice.")
    @click.option("--horizon", default=horizon_words(game.advice_horizon), show_default=True,
                  metavar="K|full",
                  help="Rounds a rollout plays after this one before the rollout policy's "
                       "value of that round's end stands for the final score; full: to "
                       "the game's end.")
    @network_option
    @rules_options
    @run_to_output
    def advise(sheet_file, roll, phase, taken, rnd, fields, platter, policy, rollouts,
               horizon, network, rules_file, assignments, seed, threads, quiet, fmt, output):
        """Rank every legal choice by its expected final score (solo rollouts, 95% CIs)."""
        from analyzer.run import driver
        from analyzer.games.clever import sheetfile
        from analyzer.games.clever.advise import advise as run_advice

        values = rule_values(game.params, rules_file, assignments)
        driver.set_threads(threads)
        played = game.with_network(network)
        emit(run_advice(played, values, sheetfile.read(game, sheet_file, values), roll,
                        phase.lower(), rnd, policy, rollouts, check_seed(seed), fields,
                        platter, taken, parse_horizon(horizon)), fmt, output)

    return advise


def take(game: CleverGame) -> click.Command:
    @click.command()
    @position_options(game)
    @click.option("--choice", required=True, callback=given_not_empty,
                  help="The choice taken, as advise names it, e.g. 'blue 2 -> blue 2+3 = 5'.")
    @click.option("--policy", default=game.rollout_policy, show_default=True,
                  help=f"Who places the free marks the choice fires: "
                       f"{', '.join(game.policy_help)}.")
    @click.option("--seed", type=int, default=DEFAULT_SEED, show_default=True,
                  help="Root seed (the random policy's free marks).")
    @rules_options
    @click.option("--output", "-o", "output", type=click.Path(dir_okay=False), default=None,
                  help="Write the sheet to this file instead of standard output.")
    def take(sheet_file, roll, phase, taken, rnd, fields, platter, choice, policy, seed,
             rules_file, assignments, output):
        """Mark a choice on a sheet: the sheet file after it, its bonuses resolved (free
        marks placed by --policy), as the coach enters it."""
        from analyzer.games.clever import sheetfile
        from analyzer.games.clever.take import take as take_choice

        early_output_check(output)
        values = rule_values(game.params, rules_file, assignments)
        after = take_choice(game, values, sheetfile.read(game, sheet_file, values), choice,
                            roll, phase.lower(), rnd, policy, check_seed(seed), fields,
                            platter, taken)
        text = json.dumps(game.sheetfile.to_document(after), indent=1) + "\n"
        if output:
            write_output(output, text)
        else:
            click.echo(text, nl=False)

    return take


def horizon_words(horizon: int | None) -> str:
    """A rollout horizon as ``--horizon`` takes it."""
    return "full" if horizon is None else str(horizon)


def parse_horizon(text: str) -> int | None:
    """``--horizon``: a whole number of rounds (0 or more), or ``full``."""
    if text.strip().lower() == "full":
        return None
    try:
        horizon = int(text)
    except ValueError:
        horizon = -1
    if horizon < 0:
        raise UserError(f"bad horizon {text!r}: expected a whole number of rounds (0 or "
                        "more) or 'full'")
    return horizon


def coach(game: CleverGame) -> click.Command:
    @click.command()
    @click.option("--sheet", "sheet_file", type=click.Path(dir_okay=False), default=None,
                  help="Start from this sheet (default: a blank one).")
    @click.option("--policy", default=game.rollout_policy, show_default=True,
                  help=f"Policy of the rollouts: {', '.join(game.policy_help)}.")
    @click.option("--rollouts", default=500, show_default=True, type=int,
                  help="Rollouts per choice.")
    @click.option("--seed", type=int, default=20261129, show_default=True, help="Root seed.")
    @network_option
    def coach(sheet_file, policy, rollouts, seed, network):
        """Play along a solo game: type your dice, get ranked advice, keep the sheet.

        Each prompt reads one line: a roll such as 'W3 Y5 B2 G6 ...', then the number of
        your choice (Enter = the best). 'done' ends the game early. Works with piped
        input.
        """
        from analyzer.files import CLOSED
        from analyzer.games.clever import sheetfile
        from analyzer.games.clever.coach import run_coach

        if "stdin" in CLOSED:
            raise UserError("standard input is closed: coach reads your rolls from it")
        values = rule_values(game.params, None, ())
        sheet = (sheetfile.read(game, sheet_file, values) if sheet_file
                 else game.blank_sheet(values))
        try:
            run_coach(game.with_network(network), values, policy, rollouts, check_seed(seed),
                      sheet, sys.stdin,
                      lambda text: click.echo(readable(text), nl=False))
        except KeyboardInterrupt:
            click.echo("")  # ends the prompt's line
            raise Interrupted("interrupted: the game ends here, nothing was written") \
                from None

    return coach


def train(game: CleverGame) -> click.Command:
    @click.command()
    @click.option("--network", "network", type=click.Path(dir_okay=False), required=True,
                  callback=given_not_empty, metavar="FILE",
                  help="Write the fine-tuned network to this file (.npy, its settings "
                       "beside it as .json); other commands play it where you name it "
                       "with --network FILE.")
    @click.option("--games", type=int, default=100_000, show_default=True,
                  callback=lambda ctx, param, value: check_count(value),
                  help="Solo self-play games of the fine-tune (a multiple of 16).")
    @rules_options
    @click.option("--seed", type=int, default=20261129, show_default=True,
                  help="Root seed; the same seed reproduces the network bit for bit.")
    @click.option("--threads", type=int, default=None,
                  help="Numba threads (default: all cores). The network does not depend "
                       "on it.")
    @click.option("--quiet", is_flag=True, help="No progress bar.")
    @click.option("--cluster", default=None, metavar="ADDRESS|local:N",
                  help="Play the evaluation games on a Dask cluster: a scheduler address "
                       "(tcp://host:8786) or local:N worker processes; needs "
                       "dicelab[cluster].")
    @output_options
    @with_output_check
    def train(network, games, rules_file, assignments, seed, threads, quiet, cluster, fmt,
              output):
        """Fine-tune the learned player's network for one solo variant (--set KEY=VALUE
        ..., or --rules) into the file --network names; learned plays it only where a
        command names it (--network FILE). Interrupted, the same command resumes where the
        last evaluation left it."""
        from analyzer.games.clever.fine_tune import train_network
        from analyzer.run.execution import session

        values = rule_values(game.params, rules_file, assignments, players=1)
        with session(cluster, None):
            emit(train_network(game, values, Path(network), games, check_seed(seed),
                                  threads, not quiet), fmt, output)

    return train
