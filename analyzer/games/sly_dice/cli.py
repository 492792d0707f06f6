"""``dicelab sly-dice ...``: thin click commands over the Sly Dice analyses."""

from __future__ import annotations

from typing import Any

import click

from analyzer.cli_options import (StrictGroup, once_each, only_tables, output_options,
                                  precision_options, rule_values, rules_options, run_to_output,
                                  simulate_options, split_specs, tune_options, whatif_options,
                                  with_output_check)
from analyzer.errors import UserError
from analyzer.games.sly_dice.params import ASSUMED_POINTS, PARAMS, accepted_policies, points_param
from analyzer.output import emit, emit_kept
from analyzer.params import parse_assignment, read_toml, shown_value
from analyzer.seeding import check_count, check_seed

DEFAULT_GAMES = 100_000
PLAYERS_GAMES = 16_384  # the most games of each player count (``players``)


def points_options(fn):
    """``--rules`` and ``--set``, then ``--points`` and ``--points-file``: the rules and
    card points of a Sly Dice question."""
    fn = click.option("--points", "point_settings", multiple=True, metavar="CARD=VALUE",
                      callback=once_each,
                      help="Points of a fixed card, e.g. full-house=20; repeatable.")(fn)
    return rules_options(click.option(
        "--points-file", type=click.Path(dir_okay=False), default=None,
        help="TOML file of card points (card = value).")(fn))


def exact_answer(fn):
    """``points_options`` and where an exact answer goes (``output_options``)."""
    return points_options(output_options(with_output_check(fn)))


def _point_assignments(points_file: str | None, settings: tuple[str, ...]) -> list[str]:
    """Card points as ``points_<card>=value`` rule settings."""
    pairs: list[tuple[str, str]] = []
    if points_file:
        for card, value in read_toml(points_file, "points file").items():
            if isinstance(value, dict):
                raise UserError(f"points file {points_file!r} has a table [{card}]; accepted: "
                                "one line card = number per card, no tables, e.g. "
                                "full-house = 20")
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise UserError(f"bad points {shown_value(value)} for {card!r} in "
                                f"{points_file!r}: expected a number")
            pairs.append((card, str(value)))
    for text in settings:
        card, value = parse_assignment(text)
        pairs.append((card.replace("_", "-"), value))
    out = []
    for card, value in pairs:
        card = card.replace("_", "-")
        if card not in ASSUMED_POINTS:
            raise UserError(f"unknown card {card!r} for points; accepted: "
                            f"{', '.join(ASSUMED_POINTS)} (number cards score face x count)")
        out.append(f"{points_param(card)}={value}")
    return out


def _values(rules_file, assignments, points_file=None, point_settings=(), **typed: Any):
    extra = _point_assignments(points_file, point_settings)
    return rule_values(PARAMS, rules_file, list(assignments) + extra, **typed)


def _common(text: str) -> list[int]:
    from analyzer.games.sly_dice.analyses import parse_dice

    return parse_dice(text, 3, "common dice")


def _cards(text: str | None) -> list[int] | None:
    from analyzer.games.sly_dice.analyses import parse_card

    if text is None or text.strip().lower() == "all":
        return None
    cards = [parse_card(c) for c in text.split(",") if c.strip()]
    if not cards:
        raise UserError(f"--open {text!r} names no card: give card names, comma-separated, "
                        "or all")
    return cards


def rolling_options(fn):
    """Options of the exact rolling analyses: rerolls, power, rules, points and output."""
    fn = click.option("--power", default="none", show_default=True,
                      help="Special power held: none, change, sum, restart.")(exact_answer(fn))
    return click.option("--rerolls", type=int, default=None,
                        help="0, 1 or 2 (default: the rules').")(fn)


@click.group(name="sly-dice", cls=StrictGroup)
def group() -> None:
    """Sly Dice: exact odds, bluffing and accusing, whole-game simulation."""


@group.command()
@click.option("--common", required=True, metavar="A,B,C",
              help="The three common dice, or 'all' for every set of them.")
@click.option("--combo", default=None, help="One card (kebab-case name): its chance, "
              "expected points and best rolling policy.")
@click.option("--count", type=int, default=None, help="Number cards: chance of at least "
              "this many dice of the face.")
@rolling_options
def odds(common, combo, count, rerolls, power, rules_file, assignments, points_file,
         point_settings, fmt, output):
    """Exact chance of every card after the common dice (or one card and its policy)."""
    values = _values(rules_file, assignments, points_file, point_settings)

    def compute():
        from analyzer.games.sly_dice.analyses import all_commons_result, odds_result

        if common.strip().lower() == "all":
            if combo or count or power != "none":
                raise UserError("--common all gives the whole table: drop --combo, --count "
                                "and --power")
            return all_commons_result(values, rerolls)
        return odds_result(values, _common(common), combo, count, rerolls, power)

    emit_kept("sly-odds", [values, common, combo, count, rerolls, power], compute, fmt, output)


@group.command()
@click.option("--common", required=True, metavar="A,B,C", help="The three common dice.")
@click.option("--open", "open_cards", default="all", show_default=True,
              help="Cards still open to you (comma-separated names) or all.")
@rolling_options
def policy(common, open_cards, rerolls, power, rules_file, assignments, points_file,
           point_settings, fmt, output):
    """Best rolling policy for the highest expected points over the open cards."""
    values = _values(rules_file, assignments, points_file, point_settings)

    def compute():
        from analyzer.games.sly_dice.analyses import open_policy_result

        return open_policy_result(values, _common(common), _cards(open_cards), rerolls, power)

    emit_kept("sly-policy", [values, common, open_cards, rerolls, power], compute, fmt, output)


@group.command(name="higher-or-lower")
@exact_answer
def higher_or_lower(rules_file, assignments, points_file, point_settings, fmt, output):
    """Best calls and exact success chance of Higher or Lower from every target."""
    values = _values(rules_file, assignments, points_file, point_settings)

    def compute():
        from analyzer.games.sly_dice.analyses import hol_result

        return hol_result(values)

    emit_kept("sly-higher-or-lower", [values], compute, fmt, output)


@group.command()
@click.option("--common", default=None, metavar="A,B,C",
              help="Common dice (default: averaged over all).")
@exact_answer
def powers(common, rules_file, assignments, points_file, point_settings, fmt, output):
    """What each special power adds to each card, exactly."""
    values = _values(rules_file, assignments, points_file, point_settings)

    def compute():
        from analyzer.games.sly_dice.analyses import powers_result

        return powers_result(values, _common(common) if common else None)

    emit_kept("sly-powers", [values, common], compute, fmt, output)


@group.command()
@click.option("--common", required=True, metavar="A,B,C", help="The three common dice.")
@click.option("--locked", default="", metavar="A[,B]", help="The claimant's locked dice.")
@click.option("--claim", "claim", required=True, help="The claimed card.")
@click.option("--count", type=int, default=1, show_default=True,
              help="Number cards: the claimed count.")
@click.option("--claimant", default="honest", show_default=True,
              help=f"Model of the claimant: {accepted_policies()}.")
@click.option("--open", "open_cards", default="all", show_default=True,
              help="Cards open to the claimant (comma-separated) or all.")
@click.option("--bluffs-held", type=click.IntRange(0, 20), default=0,
              help="Successful Bluffing cards the claimant holds.")
@click.option("--false-held", type=click.IntRange(0, 20), default=0,
              help="False Accusation cards you hold.")
@exact_answer
def accuse(common, locked, claim, count, claimant, open_cards, bluffs_held, false_held,
           rules_file, assignments, points_file, point_settings, fmt, output):
    """Is a claim true? The exact posterior under a claimant model, and whether to accuse."""
    from analyzer.games.sly_dice.analyses import parse_card, parse_dice
    from analyzer.games.sly_dice.bluffing import posterior_result

    values = _values(rules_file, assignments, points_file, point_settings)
    result = posterior_result(values, _common(common), parse_dice(locked, None, "locked dice"),
                              parse_card(claim), count, claimant, _cards(open_cards),
                              bluffs_held, false_held)
    emit(result, fmt, output)


@group.command()
@click.option("--common", required=True, metavar="A,B,C", help="The three common dice.")
@click.option("--locked", default="", metavar="A[,B]", help="Your locked dice.")
@click.option("--hidden", required=True, metavar="A[,B[,C]]", help="Your hidden dice.")
@click.option("--open", "open_cards", default="all", show_default=True,
              help="Cards open to you (comma-separated) or all.")
@click.option("--bluffs-held", type=click.IntRange(0, 20), default=0,
              help="Successful Bluffing cards you hold.")
@exact_answer
def claim(common, locked, hidden, open_cards, bluffs_held, rules_file, assignments,
          points_file, point_settings, fmt, output):
    """Every claim open to you: honest ones, Higher or Lower, and bluffs with their
    break-even accusation chance."""
    from analyzer.games.sly_dice.analyses import parse_dice
    from analyzer.games.sly_dice.bluffing import claim_result

    values = _values(rules_file, assignments, points_file, point_settings)
    locked_dice = parse_dice(locked, None, "locked dice")
    hidden_dice = parse_dice(hidden, 3 - len(locked_dice), "hidden dice")
    emit(claim_result(values, _common(common), locked_dice, hidden_dice, _cards(open_cards),
                      bluffs_held), fmt, output)


@group.command()
@click.option("--common", default=None, metavar="A,B,C",
              help="Solve this public state: the three common dice (default: an overview "
                   "over --states sampled states).")
@click.option("--locked", default="", metavar="A[,B]", help="The claimant's locked dice.")
@click.option("--open", "open_cards", default="all", show_default=True,
              help="Cards open to the claimant (comma-separated) or all.")
@click.option("--prior", type=click.Choice(["rolling", "uniform"]), default="rolling",
              show_default=True, help="The hidden dice: as the rolling rule leaves them "
                                      "given the locked dice, or fair dice.")
@click.option("--bluffs-held", type=click.IntRange(0, 20), default=0,
              help="Successful Bluffing cards the claimant holds.")
@click.option("--false-held", type=click.IntRange(0, 20), default=0,
              help="False Accusation cards the accuser holds.")
@click.option("--states", type=click.IntRange(2, 100_000), default=400, show_default=True,
              help="Overview: public states sampled as games reach them.")
@click.option("--grid", is_flag=True,
              help="Instead: fictitious play over bluff and accusation thresholds in whole "
                   "two-player games (what the 'stable' policy plays).")
@click.option("--games", default=None, type=int,
              help="With --grid: the most games of a duel (default 4,096; duels stop "
                   "earlier for strategies far from the best).")
@points_options
@run_to_output
def equilibrium(common, locked, open_cards, prior, bluffs_held, false_held, states, grid,
                games, rules_file, assignments, points_file, point_settings, seed, threads,
                quiet, fmt, output):
    """The exact claim/accuse equilibrium of a round: a linear program per public state
    between the claimant and the next player, with bluff frequencies, accusation
    probabilities, the value, and the exploitability of the named policies."""
    values = _values(rules_file, assignments, points_file, point_settings)
    if grid:
        from analyzer.games.sly_dice.fictitious import GAMES, equilibrium_result

        games = GAMES if games is None else games
        check_count(games)
        emit(equilibrium_result(values, games, check_seed(seed), threads, not quiet), fmt,
             output)
        return
    from analyzer.games.sly_dice import equilibrium as exact
    from analyzer.games.sly_dice.analyses import parse_dice
    from kernels.sly_dice.layout import N_CARDS

    if common is None:
        emit(exact.overview_result(values, states, check_seed(seed)), fmt, output)
        return
    cards = _cards(open_cards) or list(range(N_CARDS))
    emit(exact.state_result(values, _common(common), parse_dice(locked, None, "locked dice"),
                            cards, prior, bluffs_held, false_held), fmt, output)


def side_effect_options(fn):
    """``--policy``, ``--players``, ``--games`` and ``--max-games`` of ``tune``'s side
    effects, reaching the command as ``lineup``, ``players``, ``games`` and
    ``side_precision`` (the what-if's default widths without ``--games``)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args: Any, base_policy: str, games: int | None, max_games: int,
                **kwargs: Any) -> Any:
        from analyzer.seats import DEFAULT

        check_count(max_games if games is None else games)
        return fn(*args, lineup=split_specs((base_policy,)),
                  games=max_games if games is None else games,
                  side_precision=DEFAULT if games is None else None, **kwargs)

    for option in reversed([
        click.option("--policy", "base_policy", default="equilibrium", show_default=True,
                     metavar="P[,P...]", help="The lineup of the side effects' games. "
                                              f"Accepted: {accepted_policies()}."),
        click.option("--players", default=None, type=str,
                     help="Players in the side effects' games, 2 to 4 (default 2)."),
        click.option("--games", default=None, type=int,
                     help="Side effects: play exactly this many games. Default: until "
                          "every paired difference is within +-1 point a player and +-2 "
                          "percentage points for win rates (95%)."),
        click.option("--max-games", default=DEFAULT_GAMES, show_default=True, type=int,
                     help="Without --games: the most side-effect games to play."),
    ]):
        wrapper = option(wrapper)
    return wrapper


@group.command()
@tune_options("equal-expected-points (or equal-expected-points=LEVEL, a worth in points; "
              "default: every fixed card's median worth now)",
              "fixed-cards, or card names such as full-house,odds")
@click.option("--bounds", multiple=True, metavar="CARD=LOW:HIGH",
              help="Range of a free card's points (repeatable; default 1:200).")
@click.option("--states", type=int, default=56, show_default=True,
              help="Public states per evaluation (rounded up to a multiple of 56, one share "
                   "for each common-dice multiset).")
@click.option("--precision", type=float, default=0.25, show_default=True,
              help="Stop when every free card's worth is this close to the level (points).")
@side_effect_options
@points_options
@run_to_output
def tune(targets, free, bounds, states, precision, lineup, players, games, side_precision,
         rules_file, assignments, points_file, point_settings, seed, threads, quiet, fmt,
         output):
    """Fair points for the fixed cards: the values that give every free card the same
    worth (the expected points of aiming for it in a round where it is open: rolling for
    it alone, then claiming it, true or a bluff, against the accuser of the claim/accuse
    equilibrium) at the public states a game reaches; then the side effects: the other
    headline figures at those points against the points in force, with 95% intervals."""
    from analyzer.run.driver import set_threads
    from analyzer.games.sly_dice.fair_values import tune as find
    from analyzer.games.sly_dice.tune_effects import with_side_effects
    from analyzer.tune import SideEffectRun

    values = _values(rules_file, assignments, points_file, point_settings, players=players)
    set_threads(threads)
    run = SideEffectRun(lineup, games, check_seed(seed), side_precision, threads, not quiet)
    found = find(values, targets, free, bounds, states, check_seed(seed), precision, run)
    emit(with_side_effects(found, values, states, run), fmt, output)


@group.command()
@simulate_options(DEFAULT_GAMES, "equilibrium", accepted_policies(), "2 to 4 (default 2)",
                  lambda: _simulation().TABLES)
@points_options
@run_to_output
def simulate(players, games, policy_specs, rotate, precision, tables, rules_file, assignments,
             points_file, point_settings, seed, threads, quiet, fmt, output):
    """Play whole games: scores, win rates, bluffs, accusations and cards per policy and
    per seat, with 95% intervals (a summary; --tables all: every table)."""
    values = _values(rules_file, assignments, points_file, point_settings, players=players)
    result = _simulation().simulate(values, split_specs(policy_specs), games,
                                    check_seed(seed), threads, rotate, precision, not quiet)
    emit(only_tables(result, tables), fmt, output)


@group.command()
@precision_options(PLAYERS_GAMES, "each player count's mean score's", "every seat's win rate's")
@points_options
@run_to_output
def players(games, precision, rules_file, assignments, points_file, point_settings, seed,
            threads, quiet, fmt, output):
    """Every player count, 2 to 4, the equilibrium in every seat: the mean score, its
    spread, the winner's margin over the runner-up, ties and the decisions a player makes
    a game, with 95% intervals, and the player count to recommend."""
    from analyzer.player_counts import check_assignments, players_result

    check_assignments(assignments)
    values = _values(rules_file, assignments, points_file, point_settings)
    emit(players_result("sly-dice", values, check_seed(seed), games, precision, threads,
                        not quiet), fmt, output)


def _simulation():
    """The simulation module, loaded when a command needs it (it loads numba)."""
    from analyzer.games.sly_dice import simulation

    return simulation


@group.command()
@whatif_options(DEFAULT_GAMES, "equilibrium",
                "A variant with rule parameters or card points (points_CARD) changed.",
                "2 to 4 (default 2)")
@points_options
@run_to_output
def whatif(rule_variants, lineups, base_policy, players, games, precision, rules_file,
           assignments, points_file, point_settings, seed, threads, quiet, fmt, output):
    """Compare rule, point or lineup variants side by side on common random numbers.

    The baseline is the rules in force (defaults, --rules, --set, --points) played by
    --policy; each --vary is the baseline with exactly its changes (KEY=VALUE;KEY=VALUE, and
    lineup=P,Q for a combined variant), each --lineup the baseline with that lineup. Every
    variant gets its paired difference from the baseline with a 95% interval.
    """
    from analyzer.games.sly_dice import simulation
    from analyzer.paired import variants_from_options

    variants = variants_from_options(
        lambda extra: _values(rules_file, list(assignments) + extra, points_file,
                              point_settings, players=players),
        rule_variants, lineups, base_policy)
    emit(simulation.whatif(variants, games, check_seed(seed), threads, not quiet, precision),
         fmt, output)
