"""Sly Dice's section of the balance report and its strategy card; every reading quotes
numbers computed here (exact odds, or simulations with their intervals)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import numpy as np
import pandas as pd

from analyzer import seats
from analyzer.games.sly_dice import fictitious
from analyzer.games.sly_dice.fictitious import kept_fictitious_play
from analyzer.games.sly_dice.equilibrium import overview
from analyzer.games.sly_dice.fair_values import REPORT_PRECISION, fair_points_table
from analyzer.games.sly_dice.model import card_notes, card_points, parse_policy, rounds_for
from analyzer.games.sly_dice.params import PARAMS
from analyzer.games.sly_dice.runs import COLUMNS, card_table, play_games
from analyzer.games.sly_dice.simulation import lineup_of, whatif
from analyzer.sections import (Block, CheatSheet, Figure, Finding, Section, Table, comebacks_shown,
                               fair_share, glossary, policy_words, provenance, seat_figure)
from analyzer.verdicts import UNEVEN, assumed_in_force, lever_words, rests_on, seat_verdict
from analyzer.seeding import DEFAULT_SEED
from analyzer.player_counts import player_count_section_parts
from analyzer.skill import skill_parts, skill_row, skill_table, skill_verdict
from kernels.sly_dice import hol, layout, odds, play

WORDS = {"honest": "never bluffs or accuses",  # keyed like POLICY_HELP
         "bluffer:B": "bluffs under B points", "accuser:A": "accuses if P(true) < A",
         "sly:B:rational": "bluffs under B points, accuses when it pays",
         "sly:B:A": "bluffs under B points, accuses if P(true) < A",
         "rational": "accuses when it pays", "stable": "fictitious play's strategy",
         "equilibrium": "each state's exact equilibrium"}


def card_summary(values: dict[str, Any]) -> pd.DataFrame:
    """Per card, averaged over the common dice: best hit chance, expected points at the
    given points."""
    points = card_points(values)
    table = odds.odds_table(points, values["rerolls"])
    weights = layout.MS_PROB[3]
    rows = []
    for card in range(layout.N_CARDS):
        p = float(weights @ table[:, card, 0])
        e = float(weights @ table[:, card, 1])
        rows.append({"card": layout.CARD_NAMES[card], "p_hit": p, "expected_points": e,
                     "points": points[card] if card >= layout.N_NUMBER_CARDS else np.nan})
    return pd.DataFrame(rows)


SEAT_POLICY = "equilibrium"  # the strongest player, in every seat of the seat table


def seat_table(values, games, seed, progress) -> tuple[pd.DataFrame, dict]:
    """Each seat's win rate with ``SEAT_POLICY`` in every seat, 2-4 players, each count
    until every seat's 95% half-width is the commands' default (``seats.SEAT_VERDICT``),
    at most ``games`` games; and the runs by player count (``{players: (accumulator,
    games)}``, for ``player_counts``)."""
    rows, runs = [], {}
    for players in (2, 3, 4):
        vals = {**values, "players": players}
        lineup = lineup_of([SEAT_POLICY], vals)
        acc, n = play_games(vals, lineup, games, seed, False, seats.SEAT_VERDICT, progress,
                            CHECK_BLOCKS)
        runs[players] = (acc, n)
        for seat in range(players):
            s = seats.row_stats(acc[:, seat].sum(axis=0), COLUMNS, players)
            rows.append({"players": str(players), "seat": f"seat {seat + 1}",
                         "win_rate": s["win_rate"], "ci95_low": s["win_ci95"][0],
                         "ci95_high": s["win_ci95"][1], "games": n})
    return fair_share(pd.DataFrame(rows)), runs


FAIR_COLUMNS = ["card", "points_in_force", "worth_in_force", "answer",
                "fair_points_ci95_low", "fair_points_ci95_high", "met"]  # the CSV: them all
STABLE_GAMES = 40_960  # games of the stable strategy against itself (cards, spread, comebacks)
BLUFF_WIN_POINTS = 1.0  # the bluffing duels run until their win rates are this precise
EQUILIBRIUM_WIN_POINTS = 2.0  # ... and the equilibrium policy's (a linear program a claim)
CHECK_BLOCKS = 1  # precision checked every block of games (the same stop on any machine)


SKILL_OPPONENTS = (("honest", "never bluffs or accuses"),
                   ("rational", "claims honestly and accuses when it pays"))  # weakest first


def bluff_value(values, games, seed, progress) -> pd.DataFrame:
    """Two-player win rate of bluffers and accusers, and of the equilibrium policy, against
    the honest and rational bots, each duel until the win rates' 95% half-widths are at
    most ``BLUFF_WIN_POINTS`` percentage points (``EQUILIBRIUM_WIN_POINTS`` for the
    equilibrium policy; at most ``games`` games)."""
    rows = []
    vals = {**values, "players": 2}
    for name in ("bluffer:10", "bluffer:20", "accuser:0.3", "rational", "sly:10:rational",
                 "equilibrium"):
        for opponent in ("honest", "rational"):
            if name == opponent:
                continue
            lineup = [parse_policy(name), parse_policy(opponent)]
            points = EQUILIBRIUM_WIN_POINTS if name == "equilibrium" else BLUFF_WIN_POINTS
            acc, n = play_games(vals, lineup, games, seed, True,
                                seats.Precision(win_points=points), progress, CHECK_BLOCKS)
            s = seats.row_stats(seats.by_name(acc, [name, opponent + " "])[name], COLUMNS, 2)
            rows.append({"policy": name, "opponent": opponent, "win_rate": s["win_rate"],
                         "ci95_low": s["win_ci95"][0], "ci95_high": s["win_ci95"][1],
                         "games": n})
    return pd.DataFrame(rows)


def equilibrium_words(rows: pd.DataFrame) -> str:
    """The equilibrium policy's duels (``bluff_value`` rows by opponent), in words."""
    if rows.empty:
        return ""
    duels = "; ".join(f"against {opponent} {row.win_rate:.1%} (95% CI {row.ci95_low:.1%} to "
                      f"{row.ci95_high:.1%})" for opponent, row in rows.iterrows())
    return (" The equilibrium policy, which claims and accuses as each public state's "
            f"exact equilibrium does, wins {duels}.")


def exploitability_long(table: pd.DataFrame) -> pd.DataFrame:
    """The exploitability table in long form: one row per policy and side."""
    rows = []
    for r in table.itertuples():
        for side, label in (("as_claimant", "its claiming"), ("as_accuser", "its accusing")):
            rows.append({"policy": r.policy, "side": label, "points": getattr(r, side),
                         "ci95_low": getattr(r, f"{side}_ci95_low"),
                         "ci95_high": getattr(r, f"{side}_ci95_high")})
    return pd.DataFrame(rows)


SWEEP_LINEUP = ["bluffer:10", "accuser:0.3"]
SWEEP_WORDS = {"bluff_bonus": "Successful Bluffing bonus",
               "false_accusation_penalty": "False Accusation penalty"}
SWEEPS = {"bluff_bonus": (0, 5, 10, 15, 20, 30), "false_accusation_penalty": (0, 5, 10, 15,
                                                                             20, 30)}


def bonus_sweeps(values: dict[str, Any], games: int, seed: int, progress: bool
                 ) -> pd.DataFrame:
    """A bluffer against an accuser (two players, the bluffer first) with the first
    Successful Bluffing card's worth and the first False Accusation card's penalty swept,
    on the same games: the bluffer's win rate and the bluffs caught per game."""
    vals = {**values, "players": 2}
    variants = [("rules in force", vals, SWEEP_LINEUP)] + [
        (f"{name}={v}", {**vals, name: v}, SWEEP_LINEUP)
        for name, grid in SWEEPS.items() for v in grid if v != values[name]]
    table = whatif(variants, games, seed, progress=progress).tables["variants"]
    rows = []
    for name, grid in SWEEPS.items():
        for v in grid:
            label = "rules in force" if v == values[name] else f"{name}={v}"
            win = table[(table.variant == label) & (table.metric == "first_seat_win_rate")]
            caught = table[(table.variant == label)
                           & (table.metric == "bluffs_caught_per_game")]
            rows.append({"parameter": SWEEP_WORDS[name], "points": v,
                         "bluffer_win_rate": win.value.iloc[0],
                         "ci95_low": win.ci95_low.iloc[0], "ci95_high": win.ci95_high.iloc[0],
                         "bluffs_caught_per_game": caught.value.iloc[0],
                         "change": win["diff"].fillna(0.0).iloc[0],
                         "change_ci95_low": win.diff_ci95_low.fillna(0.0).iloc[0],
                         "change_ci95_high": win.diff_ci95_high.fillna(0.0).iloc[0]})
    return pd.DataFrame(rows)


def assumed_basis(values: dict[str, Any]) -> str:
    """The assumed rule values Sly Dice's figures rest on, in words ("" if none): the
    fixed cards' points, placeholders no public source gives."""
    cards = assumed_in_force(PARAMS, values)
    if not cards:
        return ""
    return ("the assumed card points" if len(cards) > 1
            else f"the assumed points of {cards[0].name.removeprefix('points_').replace('_', '-')}")


def card_words(cards: pd.DataFrame, fair: pd.DataFrame) -> str:
    """The fixed cards' verdict: the richest and poorest worth (aimed for alone, exact), not
    balanced where one is ``UNEVEN`` times the other, and the fair points that even them."""
    fixed = cards.iloc[layout.N_NUMBER_CARDS:]
    rich = fixed.loc[fixed.expected_points.idxmax()]
    poor = fixed.loc[fixed.expected_points.idxmin()]
    ratio = rich.expected_points / poor.expected_points
    met = fair[fair.met.astype(bool)] if "met" in fair else fair.iloc[:0]
    fair_points = pd.to_numeric(met.answer, errors="coerce")  # met cards: whole points
    moved = met.assign(points=fair_points,
                       move=(fair_points - met.points_in_force).abs() / met.points_in_force)
    moved = moved.sort_values("move", ascending=False).head(2)
    examples = ", ".join(f"{r.card} {r.points:.0f} instead of {r.points_in_force:.0f}"
                         for r in moved.itertuples())
    head = "Not balanced" if ratio >= UNEVEN else "Balanced"
    return (f"{head}: the cards. Aimed for alone, {rich.card} is worth "
            f"{rich.expected_points:.1f} points and {poor.card} {poor.expected_points:.1f}, "
            f"{ratio:.1f} times as much (exact). Closest to fair: each fixed card at its fair "
            f"points, at which every fixed card is worth the same in a round it is open "
            f"(found within 1-200 for {len(met)} of {len(fair)} cards"
            + (f"; furthest from today's: {examples}" if examples else "") + ").")


def verdict(values: dict[str, Any], seat_rows: pd.DataFrame, fair: pd.DataFrame,
            cards: pd.DataFrame, sweeps: pd.DataFrame, honest_row: pd.Series,
            value: pd.Series, honest_value: pd.Series) -> list[str]:
    """The section's verdict: the seats, the cards' worth (with their fair points), what
    bluffing is worth, and the bonus or penalty that moves a bluffer's win rate most; each
    saying which assumed rule values it rests on."""
    steps = sweeps[sweeps.change != 0].assign(
        label=sweeps.parameter + " at " + sweeps.points.astype(str) + " points")
    pp = lambda x: f"{100 * x:+.1f} pp"  # noqa: E731
    lever = lever_words(steps, "change", pp, "change_ci95_low", "change_ci95_high", "label")
    rounds = ", ".join(f"{rounds_for({**values, 'players': n})}" for n in (2, 3, 4))
    basis = assumed_basis(values)
    return [
        seat_verdict(seat_rows, "equilibrium players", basis),
        rests_on(card_words(cards, fair), basis),
        rests_on(f"Bluffing pays: against a player who never accuses, the best bluffing "
                 f"gains {honest_row.as_accuser:.1f} points a claim. At the claim/accuse "
                 f"equilibrium a claim is worth {value['mean']:.1f} points against "
                 f"{honest_value['mean']:.1f} for honest claims (exact per state).", basis),
        rests_on("The one rule change that moves a bluffer's win rate (bluffs under 10 "
                 "points, against an accuser of plausibility under 30%) most: "
                 f"{lever} (paired games).", basis),
        f"Game length is fixed: {rounds} rounds for 2, 3 and 4 players.",
    ]


REPORT_STATES = 400  # public states the report's equilibrium overview samples


def build_section(values: dict[str, Any], seed: int, quick: bool = False,
                  progress: bool = True) -> Section:
    """The Sly Dice report section for the rule ``values``."""
    games = 20_000 if quick else 200_000
    d = SimpleNamespace(values=values, games=games, seed=seed)
    _card_data(d, quick)
    _bot_data(d, progress)
    _stable_data(d, progress)
    _exact_data(d, quick)
    intro = ("Sly Dice is analysed exactly for the rolling phase (dynamic programming over "
             "every lock/reroll position, for every card and every set of common dice) and by "
             "simulation for whole games with bots that claim, bluff and accuse.")
    skill_figure, skill_tab = skill_parts(
        "sly_dice", d.skill, "the equilibrium player",
        "Simulated: the report's bluffing duels, each until its win rate is known to "
        f"{EQUILIBRIUM_WIN_POINTS:g} percentage points.")
    lines = verdict(values, d.seat_rows, d.fair, d.cards, d.sweeps, d.honest_row, d.value,
                    d.honest_value)
    lines.insert(-1, rests_on(skill_verdict(d.skill, "the equilibrium player"),
                              assumed_basis(values)))
    count_figure, count_tab, count_line = player_count_section_parts(
        "sly-dice", values, seed, quick, progress, runs=d.seat_runs)
    lines.append(rests_on(count_line, assumed_basis(values)))
    figures = _figures(d) + d.comeback_figures + [skill_figure, count_figure]
    notes = _notes(d)
    players = {**d.labels, **{name: policy_words(name, WORDS) for name in d.steps.strategy}}
    return Section("sly-dice", "Sly Dice", intro, figures,
                   _tables(d) + [skill_tab, count_tab], notes,
                   _findings(d), provenance(seed, PARAMS, values), lines,
                   glossary(players, PARAMS, notes))


def _card_data(d: SimpleNamespace, quick: bool) -> None:
    """The cards (exact) and their fair points (the claim/accuse equilibrium)."""
    d.cards = card_summary(d.values)
    d.fair = fair_points_table(d.values, d.seed,
                               precision=2.0 if quick else REPORT_PRECISION)
    fixed = d.cards.iloc[layout.N_NUMBER_CARDS:]
    d.hardest = fixed.sort_values("p_hit").iloc[0]
    d.richest = d.cards.sort_values("expected_points").iloc[-1]
    d.poorest = fixed.sort_values("expected_points").iloc[0]


def _bot_data(d: SimpleNamespace, progress: bool) -> None:
    """Seats, bluffing duels and the bonus/penalty sweeps (simulated)."""
    values, games, seed = d.values, d.games, d.seed
    d.seat_rows, d.seat_runs = seat_table(values, games // 2, seed, progress)
    d.bluffs = bluff_value(values, games // 4, seed, progress)
    d.sweeps = bonus_sweeps(values, games // 8, seed, progress)
    d.at_zero = d.sweeps[d.sweeps.points == 0].set_index("parameter")["bluffer_win_rate"]
    d.at_top = d.sweeps[d.sweeps.points == 30].set_index("parameter")["bluffer_win_rate"]
    d.two = d.seat_rows[d.seat_rows.players == "2"].set_index("seat")["win_rate"]
    bluffs = d.bluffs
    d.b10 = bluffs[(bluffs.policy == "bluffer:10") & (bluffs.opponent == "honest")].iloc[0]
    d.b10r = bluffs[(bluffs.policy == "bluffer:10") & (bluffs.opponent == "rational")].iloc[0]
    d.eq_rows = bluffs[bluffs.policy == "equilibrium"].set_index("opponent")
    d.skill = skill_table([skill_row("equilibrium", name, words, row.win_rate,
                                     (row.ci95_low, row.ci95_high), row.games)
                           for name, words in SKILL_OPPONENTS
                           for row in [d.eq_rows.loc[name]]])


def _stable_data(d: SimpleNamespace, progress: bool) -> None:
    """Fictitious play's stable policy and its games against itself: cards scored, the
    scores' spread, comebacks."""
    values = d.values
    history, rates, (d.exploit, d.exploiter) = kept_fictitious_play(values, progress=progress)
    d.steps = pd.DataFrame({"step": range(len(history)), "strategy": [p.name for p in history],
                            "win_rate_vs_mixture": rates})
    d.stable = stable = history[-1].name
    lineup = lineup_of([stable], {**values, "players": 2})
    acc, d.stable_games = play_games({**values, "players": 2}, lineup,
                                     min(STABLE_GAMES, d.games // 2), d.seed, True, None,
                                     progress)
    per_policy = seats.by_name(acc, [p.name for p in lineup])
    d.scored = card_table(per_policy)
    d.spread = pd.DataFrame([{"policy": name, "seat_games": int(row[COLUMNS.games]),
                              "mean_score": row[COLUMNS.score_sum] / row[COLUMNS.games],
                              **seats.spread(row, COLUMNS)}
                             for name, row in per_policy.items()])
    d.comeback = pd.DataFrame(seats.comebacks(acc.sum(axis=(0, 1)), COLUMNS,
                                              play.COL_COMEBACK,
                                              rounds_for({**values, "players": 2}),
                                              play.COMEBACK_STEP))
    d.comeback_figures, d.comeback_findings = comebacks_shown(
        d.comeback, "sly_dice_comeback", "Comebacks: a player's chance to win a two-player "
        "game by how far behind the leader they are after a round (simulated, "
        f"{stable} against itself, 95% intervals)", f"two-player games of {stable} against "
        "itself")
    d.top_scored = d.scored.sort_values("scored_per_game").iloc[-1]


def _exact_data(d: SimpleNamespace, quick: bool) -> None:
    """The exact claim/accuse equilibrium over sampled public states."""
    d.exact = overview(d.values, 100 if quick else REPORT_STATES, d.seed)
    d.summary = d.exact["summary"].set_index("measure")
    d.exploit_long = exploitability_long(d.exact["exploitability"])
    d.honest_row = d.exact["exploitability"].set_index("policy").loc["honest"]
    d.worst_accuser = d.exact["exploitability"].sort_values("as_accuser").iloc[-1]
    d.value, d.honest_value = d.summary.loc["value"], d.summary.loc["honest_value"]
    d.labels = {str(name): policy_words(str(name), WORDS)
                for name in (*d.bluffs.policy, *d.bluffs.opponent, *d.exploit_long.policy)}


def _figures(d: SimpleNamespace) -> list[Figure]:
    """The cards, the seats, bluffing and the exact equilibrium."""
    return _card_figures(d) + [_bluff_figure(d), _sweep_figure(d), _exploit_figure(d)]


def _card_figures(d: SimpleNamespace) -> list[Figure]:
    """What each card is worth, and the seats' win rates."""
    hardest, richest, poorest, two = d.hardest, d.richest, d.poorest, d.two
    return [
        Figure("sly_dice_hit_chance", "Best chance to make each card, averaged over the common "
               "dice (exact)", "bar", d.cards, "card", "p_hit", xlabel="card",
               ylabel="chance with the best rolling", percent=True, appendix=True,
               reading=f"The hardest fixed card is {hardest.card} "
                       f"({hardest.p_hit:.1%}); number cards are almost always made (at least "
                       "one die of the face)."),
        Figure("sly_dice_expected_points", "Expected points of aiming for each card alone "
               "(exact, at the printed or assumed points)", "bar", d.cards, "card",
               "expected_points", xlabel="card", ylabel="expected points",
               reading=f"Aiming for {richest.card} is worth {richest.expected_points:.1f} "
                       f"points on average; {poorest.card} only "
                       f"{poorest.expected_points:.1f}. In the real game only some cards are "
                       f"open and claims can be bluffs: the fair points table gives every "
                       f"fixed card the same worth there ({d.fair.attrs['level']:.1f} points a "
                       f"round it is open)."),
        seat_figure("sly_dice_seat_win_rates", "Win rate by seat minus a fair share, the "
                    "equilibrium player in every seat (simulated, 95% intervals)", d.seat_rows,
                    f"With two equilibrium players the first seat wins {two['seat 1']:.1%} "
                    f"and the second {two['seat 2']:.1%}. Points above the zero line win "
                    "more than their share."),
    ]


def bot_words(policy: str) -> str:
    """What a policy does, in words ("accuses when it pays"), for a sentence."""
    return policy_words(policy, WORDS) or policy


def _bluff_figure(d: SimpleNamespace) -> Figure:
    """Bluffing and accusing bots against each other (simulated)."""
    b10, b10r, stable, exploit = d.b10, d.b10r, d.stable, d.exploit
    return Figure(
        "sly_dice_bluff_value", "Two-player win rate of bluffing and accusing bots "
        "(simulated, 95% intervals)", "bar", d.bluffs, "policy", "win_rate", "opponent",
        "ci95_low", "ci95_high", xlabel="policy", ylabel="win rate",
        labels=d.labels, ref_line=0.5, percent=True,
        reading=f"Against a bot that never accuses, bluffing whenever the best honest "
                f"claim is under 10 points wins {b10.win_rate:.1%}; against the "
                f"expected-points accuser it wins {b10r.win_rate:.1%}. Fictitious play "
                f"settles on a bot that {bot_words(stable)}; the best grid reply to it (a "
                f"bot that {bot_words(d.exploiter)}) wins {exploit:.1%} against it"
                + (" - close to even, so no bluffing or accusing threshold of the "
                   "grid exploits it (an exact best response still may: see the "
                   "exploitability table)." if exploit < 0.55
                   else ", so it is not yet stable: bluffing stays a game of mixed "
                   "strategies.")
                + equilibrium_words(d.eq_rows))


def _sweep_figure(d: SimpleNamespace) -> Figure:
    """The bluffing bonus and the false-accusation penalty swept (simulated)."""
    bonus, penalty = SWEEP_WORDS.values()
    at_zero, at_top = d.at_zero, d.at_top
    return Figure(
        "sly_dice_bonus_sweeps", "A bluffer (bluffs under 10 points, first seat) "
        "against an accuser (accuses below 30% plausibility): its win rate as the "
        "bluffing bonus or the false-accusation penalty changes (simulated, same "
        "games, 95% intervals)", "line", d.sweeps, "points", "bluffer_win_rate",
        "parameter", "ci95_low", "ci95_high", xlabel="points of the first card",
        ylabel="bluffer's win rate", percent=True, ref_line=0.5,
        reading=f"From 0 to 30 points, the bluffing bonus moves the bluffer's win "
                f"rate from {at_zero[bonus]:.1%} to {at_top[bonus]:.1%}; the "
                f"false-accusation penalty from {at_zero[penalty]:.1%} to "
                f"{at_top[penalty]:.1%} (a harsher penalty "
                "makes the accuser's mistakes cost more).")


def _exploit_figure(d: SimpleNamespace) -> Figure:
    """What a best response gains against each policy (exact)."""
    summary, honest_row, worst_accuser = d.summary, d.honest_row, d.worst_accuser
    return Figure(
        "sly_dice_exploitability", "How much a best response gains against each "
        "policy, per claim (exact equilibrium of a round, mean over sampled states, "
        "95% intervals)", "bar", d.exploit_long, "policy", "points", "side", "ci95_low",
        "ci95_high", xlabel="policy", ylabel="points gained by a best response",
        labels=d.labels,
        reading=f"At the exact equilibrium a claim is worth "
                f"{summary.loc['value', 'mean']:.1f} points to the claimant against "
                f"{summary.loc['honest_value', 'mean']:.1f} for honest claims; "
                f"{summary.loc['bluff_rate', 'mean']:.0%} of equilibrium claims are "
                f"bluffs and {summary.loc['accusation_rate', 'mean']:.0%} are accused. "
                f"Claiming honestly gives up {honest_row.as_claimant:.1f} points a "
                f"claim; never accusing invites {honest_row.as_accuser:.1f} points of "
                f"bluffs; the most exploitable accuser is {worst_accuser.policy} "
                f"({worst_accuser.as_accuser:.1f}).")


def _tables(d: SimpleNamespace) -> list[Table]:
    """The section's tables (CSV and the appendix)."""
    fair, stable = d.fair, d.stable
    return [
        Table("sly_dice_cards", "Cards averaged over the common dice (exact)", d.cards,
              percent=("p_hit",)),
        Table("sly_dice_fair_points", "What to change to hit a target: fair points that make "
              "every fixed card worth the same in the real game (claim/accuse equilibrium at "
              f"{fair.attrs['states']} sampled public states; dicelab sly-dice tune --target "
              "equal-expected-points --free fixed-cards)", fair[FAIR_COLUMNS],
              note="worth: the expected points of aiming for the card in a round where it "
                   "is open (rolling for it alone, then claiming it, true or a bluff), "
                   "against the equilibrium's accuser (one round, later rounds not valued); "
                   "answer: the fair points, at which the card is worth "
                   f"(within {fair.attrs['precision']:g} point, met) the level, "
                   f"{fair.attrs['level']:.2f} points, the median worth at the points in "
                   "force; 'no fair value within 1-200' where no points in those bounds "
                   "reach it; a range end at 1 or 200: the range reaches past it (the CSV "
                   "has the exact points, the points rounded to 5 and the worths reached)"
                   + ". Odds and evens are worth something only in rounds whose common "
                     "dice are all odd (all even), hence their high fair points."),
        Table("sly_dice_seat_win_rates", "Win rate by seat (simulated)", d.seat_rows),
        Table("sly_dice_bluff_value", "Bluffing and accusing bots (simulated)", d.bluffs),
        Table("sly_dice_bonus_sweeps", "Bluffing bonus and false-accusation penalty "
              "swept: bluffer:10 (first seat) against accuser:0.3 (simulated, same games)",
              d.sweeps, percent=("bluffer_win_rate",)),
        Table("sly_dice_fictitious_play", "Fictitious play over claim/accuse strategies",
              d.steps),
        Table("sly_dice_equilibrium_by_worth", "The exact equilibrium's bluffing and "
              "accusing by what the claim is worth", d.exact["by_worth"],
              note=f"{d.exact['states']} public states sampled as games reach them; one "
              "round between the claimant and the next player, zero-sum in points",
              percent=("false_given_claim", "accused_given_claim")),
        Table("sly_dice_exploitability", "Exploitability of the named policies (points a "
              "claim, exact per state)", d.exact["exploitability"]),
        Table("sly_dice_cards_scored", f"Cards scored per game, {stable} vs itself "
              "(simulated)", d.scored, note=f"most scored: {d.top_scored.card}"),
        Table("sly_dice_comeback", f"Chance to win from behind, {stable} against itself, "
              f"two players (deficits in bins of {play.COMEBACK_STEP} points, bonus cards "
              "counted)", d.comeback, percent=("win_chance", "ci95_low", "ci95_high")),
        Table("sly_dice_score_spread", f"Spread of final scores, {stable} vs "
              "itself, two players (simulated)", d.spread,
              note="sd: standard deviation; p10/median/p90: the scores that 10%, 50% and "
              "90% of players end at or below"),
    ]


def _notes(d: SimpleNamespace) -> list[str]:
    """The cards' points, and how every figure was made."""
    games, stable = d.games, d.stable
    return card_notes(d.values, list(range(layout.N_CARDS))) + [
        f"simulations: seed {d.seed}; {games // 2:,} games per seat lineup; "
        f"{d.stable_games:,} of {stable} against itself; bluffing duels "
        f"until each win rate is within +-{BLUFF_WIN_POINTS:g} percentage points (95%; the "
        f"equilibrium policy's +-{EQUILIBRIUM_WIN_POINTS:g}), "
        f"at most {games // 4:,} ({', '.join(f'{n:,}' for n in sorted(set(d.bluffs.games)))} "
        f"played); {games // 8:,} per bonus/penalty variant; intervals are 95%",
        f"fictitious play: its own seed ({fictitious.SEED}, the one the `stable` policy "
        f"reads), duels raced from {fictitious.SCREEN_GAMES:,} games up to "
        f"{fictitious.GAMES:,}, each game played in both seatings",
        "special powers are valued exactly by `dicelab sly-dice powers`; the game bots do "
        "not use them",
        "the equilibrium is exact per public state (a linear program; a claim the "
        "equilibrium never makes is accused as often as the equilibrium allows) for one "
        "round between the claimant and the next player; later rounds are not valued"]


def _findings(d: SimpleNamespace) -> list[Finding]:
    """The section's headline findings, each naming the assumed values it rests on."""
    value, honest_value, honest_row = d.value, d.honest_value, d.honest_row
    basis = assumed_basis(d.values)
    return [
        Finding(rests_on(f"At the bluff/accuse equilibrium a claim is worth {value['mean']:.1f} "
                         f"points, against {honest_value['mean']:.1f} for honest claims (exact "
                         "per state).", basis),
                value["mean"], "sly_dice_exploitability",
                (value["ci95_low"], value["ci95_high"]), "points"),
        Finding(rests_on(f"Against a player who never accuses, the best bluffing gains "
                         f"{honest_row.as_accuser:.1f} points a claim.", basis),
                honest_row.as_accuser, "sly_dice_exploitability",
                (honest_row.as_accuser_ci95_low, honest_row.as_accuser_ci95_high), "points"),
        *[replace(f, text=rests_on(f.text, basis)) for f in d.comeback_findings],
    ]


def aim_table(values: dict[str, Any]) -> pd.DataFrame:
    """For every set of common dice: the card worth most to aim for, its expected points,
    and the next best (for when the best is not open)."""
    points = card_points(values)
    table = odds.odds_table(points, values["rerolls"])
    rows = []
    for ci, counts in enumerate(layout.MS_COUNTS[3]):
        dice = " ".join(str(f) for f in np.repeat(np.arange(7), counts))
        ev = np.nan_to_num(table[ci, :layout.DICE_CARDS, 1], nan=-np.inf)
        best, second = np.argsort(-ev, kind="stable")[:2]
        rows.append({"dice": dice, "aim for": layout.CARD_NAMES[best],
                     "pts": f"{ev[best]:.1f}", "else": layout.CARD_NAMES[second]})
    return pd.DataFrame(rows)


def accuse_table(values: dict[str, Any]) -> pd.DataFrame:
    """The break-even chance that a claim is true, below which accusing pays, by claim
    worth and the False Accusation cards the accuser already holds (short strings)."""
    base = values["bluff_bonus"]
    fbase, fstep = values["false_accusation_penalty"], values["false_accusation_step"]
    rows = []
    for claim in (5, 10, 15, 20, 30):
        gain = claim + base
        rows.append({"claim worth": str(claim), **{
            f"{held} held": f"{gain / (gain + fbase + fstep * held):.0%}"
            for held in (0, 1, 2)}})
    return pd.DataFrame(rows)


def cards_table(values: dict[str, Any]) -> pd.DataFrame:
    """Each fixed card at a glance: points, the chance to make it when aiming for it and
    what aiming for it is worth (averaged over the common dice; short strings)."""
    cards = card_summary(values).iloc[layout.N_NUMBER_CARDS:]
    return pd.DataFrame({"card": cards["card"], "points": [f"{x:g}" for x in cards["points"]],
                         "made": [f"{x:.0%}" for x in cards["p_hit"]],
                         "worth": [f"{x:.1f}" for x in cards["expected_points"]]})


def equilibrium_table(values: dict[str, Any], states: int = REPORT_STATES) -> pd.DataFrame:
    """The exact equilibrium's bluff and accusation rates by claim worth, as short strings:
    the report's (its sample of public states at the default seed)."""
    worth = overview(values, states, DEFAULT_SEED)["by_worth"]
    return pd.DataFrame({"claim worth": worth["claim_worth"],
                         "bluffs": [f"{x:.0%}" for x in worth["false_given_claim"]],
                         "accused": [f"{x:.0%}" for x in worth["accused_given_claim"]]})


def build_cheatsheet(values: dict[str, Any]) -> CheatSheet:
    success, calls = hol.hol_solve()
    switch = min(t for t in range(3, 19) if calls[0, t] == 0)
    blocks = [
        Block("Rolling", [
            "Lock only dice that build your target; stop as soon as it is made and the "
            "remaining rerolls cannot raise its value.",
            "A number card is worth face x count: with many of one face, aim for it.",
        ]),
        Block("Higher or Lower (cannot be accused)", [
            f"Call higher below {switch}, lower from {switch} up (every roll).",
            "Success by the common dice's total: " + ", ".join(
                f"{t}/{21 - t}: {success[t]:.0%}" for t in range(3, 11)) + ".",
        ]),
        Block("When to call a bluff", [
            "Accuse when you judge the claim less likely to be true than the table's figure "
            "for its worth and the False Accusation cards you hold.",
            "Why: catching a bluff wins the claim's worth plus the bluff bonus "
            f"({values['bluff_bonus']} for the first, +{values['bluff_bonus_step']} each "
            "next); a wrong call costs a False Accusation card "
            f"({values['false_accusation_penalty']} points, +{values['false_accusation_step']} "
            "for each one held). At the figure, the two balance."],
            table=accuse_table(values)),
        Block("Bluffing at the exact equilibrium", [
            "how the equilibrium policy plays (the report's table): of the claims at each "
            "worth, the share that are bluffs, and accused",
            "(a claim the visible dice prove cannot be accused)"],
            table=equilibrium_table(values)),
        Block("The fixed cards", [
            "made: the chance to make the card when aiming for it; worth: expected points "
            "of aiming for it (both averaged over the common dice, exact)"],
            table=cards_table(values)),
        Block("What to aim for after the common dice", [
            "dice: the common dice; pts: what aiming for the best card is worth (expected "
            "points, exact); else: the next best, for when the best is not open"],
            table=aim_table(values)),
    ]
    points = card_points(values)
    used = ", ".join(f"{layout.CARD_NAMES[c]} {points[c]:g}"
                     for c in range(layout.N_NUMBER_CARDS, layout.N_CARDS))
    assumed = any(values[p.name] == p.default for p in PARAMS if p.assumed)
    return CheatSheet("Sly Dice strategy card",
                      "Aim, lock, claim - and when to call a bluff. Computed exactly by dicelab.",
                      blocks, f"Fixed-card points: {used}."
                      + (" ASSUMED placeholders (the printed values are not public)."
                         if assumed else ""))
