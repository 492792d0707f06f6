"""``dicelab cloverup ...``: thin click commands over the CloverUp analyses."""

from __future__ import annotations

from typing import Any

import click

from analyzer.cli_options import (StrictGroup, only_tables, output_options,
                                  precision_options, rule_values, rules_options,
                                  run_to_output, simulate_options, split_specs, tune_options,
                                  whatif_options, with_output_check)
from analyzer.errors import UserError
from analyzer.games.cloverup.params import PARAMS, accepted_policies
from analyzer.output import emit, emit_kept
from analyzer.seeding import check_seed

DEFAULT_GAMES = 200_000
PLAYERS_GAMES = 200_000  # the most games of each player count (``players``)


def _values(rules_file, assignments, **typed: Any) -> dict[str, Any]:
    return rule_values(PARAMS, rules_file, assignments, **typed)


@click.group(name="cloverup", cls=StrictGroup)
def group() -> None:
    """CloverUp: exact turn solver, game simulation, what-if comparisons."""


@group.command()
@click.option("--weights", default=None, metavar="W1,...,W7",
              help="Face weights of 1,2,3,4,5,6,clover (default 6,5,5,3,3,1,1).")
@click.option("--instant-win-points", default=None, type=str,
              help="Points an instant win counts for in the turn (default 18).")
@click.option("--objective", default="ev", show_default=True,
              help="ev (expected score), reach:T (chance of at least T points, T = 3..18) "
                   "or win (two-player game solver).")
@click.option("--dice", default=None, metavar="'A B C'",
              help="One position: the three dice showing (1-6, C for a clover), e.g. "
                   "'2 6 C'; its best choice instead of the whole table.")
@click.option("--rerolls-left", type=int, default=None,
              help="With --dice: the re-rolls left (default: the turn's first roll's).")
@click.option("--double-six", is_flag=True,
              help="With --dice: the double-six rule has started this turn.")
@rules_options
@output_options
@with_output_check
def solve(weights, instant_win_points, objective, dice, rerolls_left, double_six, rules_file,
          assignments, fmt, output):
    """Exact best play of a turn: value, instant-win chance and the full policy table (or,
    with --dice, one position's best choice)."""
    values = _values(rules_file, assignments, weights=weights,
                     instant_win_points=instant_win_points)
    if dice is None and (rerolls_left is not None or double_six):
        raise UserError("--rerolls-left and --double-six describe the position of --dice: "
                        "give --dice too")
    left = values["rerolls"] if rerolls_left is None else rerolls_left

    def compute():
        from analyzer.games.cloverup import analyses

        if objective.strip().lower() == "win":
            if dice is not None:
                raise UserError("--dice asks for one position's best choice: give the "
                                "objective ev or reach:T")
            return analyses.solve_game(values)
        if dice is not None:
            return analyses.position(values, objective, dice, left, double_six)
        return analyses.solve(values, objective)

    key = [values, objective] + ([dice, left, double_six] if dice is not None else [])
    emit_kept("cloverup-solve", key, compute, fmt, output)


@group.command()
@tune_options("expected_score, p_at_least_T (T = 3..18), p_instant_win, p_triple_six, "
              "first_seat_win", "face weights 1, 2, 3, 4, 5, 6, clover")
@click.option("--bounds", multiple=True, metavar="NAME=LOW:HIGH",
              help="Range of a free weight (repeatable; default 0.01:100).")
@click.option("--policy", "base_policy", default="optimal", show_default=True,
              metavar="P[,P...]", help="The lineup of the side effects' games. Accepted: "
                                       f"{accepted_policies()}.")
@click.option("--players", default=None, type=str,
              help="Players in the side effects' games, 1 to 6 (default 2).")
@precision_options(DEFAULT_GAMES, "every paired difference in mean score's",
                   "every paired difference in a win rate's")
@rules_options
@run_to_output
def tune(targets, free, bounds, base_policy, players, games, precision, rules_file,
         assignments, seed, threads, quiet, fmt, output):
    """Find the face weights that give exact figures the values asked for (one target
    and one weight: a root; more: bounded least squares), met to 1e-6; then the side
    effects: the other headline figures at those weights against the rules in force
    (exact, and from paired games with 95% intervals)."""
    from analyzer.games.cloverup.tune import tune as find
    from analyzer.tune import SideEffectRun

    run = SideEffectRun(split_specs((base_policy,)), games, check_seed(seed), precision,
                        threads, not quiet)
    emit(find(_values(rules_file, assignments, players=players), targets, free, bounds,
              run), fmt, output)


@group.command()
@simulate_options(DEFAULT_GAMES, "optimal", accepted_policies(), "1 to 6 (default 2)",
                  lambda: _simulation().TABLES)
@rules_options
@run_to_output
def simulate(players, games, policy_specs, rotate, precision, tables, rules_file, assignments,
             seed, threads, quiet, fmt, output):
    """Play whole games: scores and win rates per policy and per seat, with 95% intervals
    (a summary; --tables all: every table)."""
    values = _values(rules_file, assignments, players=players)
    result = _simulation().simulate(values, split_specs(policy_specs), games,
                                    check_seed(seed), threads, rotate, precision,
                                    progress=not quiet)
    emit(only_tables(result, tables), fmt, output)


@group.command()
@precision_options(PLAYERS_GAMES, "each player count's mean score's", "every seat's win rate's")
@rules_options
@run_to_output
def players(games, precision, rules_file, assignments, seed, threads, quiet, fmt, output):
    """Every player count, 2 to 6, the optimal policy in every seat: the mean score, its
    spread, the winner's margin over the runner-up, ties and the keep/reroll decisions a
    player makes a game, with 95% intervals, and the player count to recommend."""
    from analyzer.player_counts import check_assignments, players_result

    check_assignments(assignments)
    emit(players_result("cloverup", _values(rules_file, assignments), check_seed(seed), games,
                        precision, threads, not quiet), fmt, output)


def _simulation():
    """The simulation module, loaded when a command needs it (it loads numba)."""
    from analyzer.games.cloverup import simulation

    return simulation


@group.command()
@click.option("--policy", default="optimal", show_default=True,
              help=f"Accepted: {accepted_policies()} (not win).")
@click.option("--turns", "n_turns", default=10_000_000, show_default=True, type=int,
              help="Turns to simulate.")
@rules_options
@run_to_output
def turns(policy, n_turns, rules_file, assignments, seed, threads, quiet, fmt, output):
    """Simulate single turns and check them against the exact outcome distribution."""
    from analyzer.games.cloverup import simulation

    values = _values(rules_file, assignments)
    emit(simulation.turns(values, policy, n_turns, check_seed(seed), threads, not quiet),
         fmt, output)


@group.command()
@click.option("--weights", "weight_variants", multiple=True, metavar="W1,...,W7",
              help="A variant: the baseline with these face weights; repeatable.")
@whatif_options(DEFAULT_GAMES, "optimal",
                "A variant: the baseline with these rule parameters changed.",
                "1 to 6 (default 2)")
@rules_options
@run_to_output
def whatif(weight_variants, rule_variants, lineups, base_policy, players, games, precision,
           rules_file, assignments, seed, threads, quiet, fmt, output):
    """Compare rule or policy variants side by side on common random numbers.

    The baseline is the rules in force (defaults, --rules, --set) played by --policy; each
    --weights or --vary is the baseline with exactly its changes (KEY=VALUE;KEY=VALUE, and
    lineup=P,Q for a combined variant), each --lineup the baseline with that lineup. Every
    variant gets its paired difference from the baseline with a 95% interval.
    """
    from analyzer.games.cloverup import simulation
    from analyzer.paired import variants_from_options

    variants = variants_from_options(
        lambda extra: _values(rules_file, list(assignments) + extra, players=players),
        [f"weights={w}" for w in weight_variants] + list(rule_variants), lineups,
        base_policy)
    result = simulation.whatif(variants, games, check_seed(seed), threads, not quiet,
                               precision)
    emit(result, fmt, output)
