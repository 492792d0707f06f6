"""``dicelab cloverup ...``: thin click commands over the CloverUp analyses."""

from __future__ import annotations

from typing import Any

import click

from analyzer.cli_options import (
    StrictGroup,
    output_options,
    rule_values,
    rules_options,
    run_options,
    simulate_options,
    split_specs,
    with_output_check,
)
from analyzer.errors import UserError
from analyzer.games.cloverup.model import PARAMS, accepted_policies
from analyzer.output import emit
from analyzer.params import parse_assignment
from analyzer.seeding import check_seed

DEFAULT_GAMES = 200_000


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
@rules_options
@output_options
@with_output_check
def solve(weights, instant_win_points, objective, rules_file, assignments, fmt, output):
    """Exact best play of a turn: value, instant-win chance and the full policy table."""
    from analyzer.games.cloverup import analyses

    values = _values(rules_file, assignments, weights=weights,
                     instant_win_points=instant_win_points)
    if objective.strip().lower() == "win":
        result = analyses.solve_game(values)
    else:
        result = analyses.solve(values, objective)
    emit(result, fmt, output)


@group.command()
@simulate_options(DEFAULT_GAMES, "optimal", accepted_policies(), "1 to 6 (default 2)")
@rules_options
@run_options
@output_options
@with_output_check
def simulate(players, games, policy_specs, rotate, precision, rules_file, assignments, seed,
             threads, quiet, fmt, output):
    """Play whole games: scores and win rates per policy and per seat, with 95% intervals."""
    from analyzer.games.cloverup import simulation

    values = _values(rules_file, assignments, players=players)
    result = simulation.simulate(values, split_specs(policy_specs), games, check_seed(seed),
                                 threads, rotate, precision, progress=not quiet)
    emit(result, fmt, output)


@group.command()
@click.option("--policy", default="optimal", show_default=True,
              help=f"Accepted: {accepted_policies()} (not win).")
@click.option("--turns", "n_turns", default=10_000_000, show_default=True, type=int,
              help="Turns to simulate.")
@rules_options
@run_options
@output_options
@with_output_check
def turns(policy, n_turns, rules_file, assignments, seed, threads, quiet, fmt, output):
    """Simulate single turns and check them against the exact outcome distribution."""
    from analyzer.games.cloverup import simulation

    values = _values(rules_file, assignments)
    emit(simulation.turns(values, policy, n_turns, check_seed(seed), threads, not quiet),
         fmt, output)


@group.command()
@click.option("--weights", "weight_variants", multiple=True, metavar="W1,...,W7",
              help="A variant with these face weights; repeatable.")
@click.option("--vary", "rule_variants", multiple=True, metavar="KEY=VALUE[;KEY=VALUE]",
              help="A variant with these rule parameters changed; repeatable.")
@click.option("--policy", "policies", multiple=True, metavar="P",
              help="Policy to play (default optimal); several compare policies.")
@click.option("--players", default=None, type=str, help="Players, 1 to 6 (default 2).")
@click.option("--games", default=DEFAULT_GAMES, show_default=True, type=int,
              help="Games per variant (the same games for every variant).")
@rules_options
@run_options
@output_options
@with_output_check
def whatif(weight_variants, rule_variants, policies, players, games, rules_file, assignments,
           seed, threads, quiet, fmt, output):
    """Compare rule or policy variants side by side on common random numbers.

    The first variant is the reference (the rules in force, unless two or more variants
    are given); each other variant gets its paired difference with a 95% interval.
    """
    from analyzer.games.cloverup import simulation

    base = _values(rules_file, assignments, players=players)
    changes: list[tuple[str, dict[str, Any]]] = []
    for w in weight_variants:
        changes.append((f"weights={w}", _values(rules_file, assignments, players=players,
                                                weights=w)))
    for spec in rule_variants:
        pairs = [parse_assignment(part) for part in spec.split(";") if part.strip()]
        extra = [f"{k}={v}" for k, v in pairs]
        if any(k == "players" for k, _ in pairs):
            raise UserError("players cannot vary in a what-if; use --players")
        changes.append((spec, _values(rules_file, list(assignments) + extra, players=players)))
    policy_list = split_specs(policies) or ["optimal"]
    variants = [(label if len(policy_list) == 1 else f"{label} / {p}", values, p)
                for label, values in (changes or [("rules in force", base)])
                for p in policy_list]
    if len(variants) < 2:
        variants.insert(0, ("rules in force", base, policy_list[0]))
    result = simulation.whatif(variants, games, check_seed(seed), threads, not quiet)
    emit(result, fmt, output)
