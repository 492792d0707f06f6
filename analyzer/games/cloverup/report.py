"""CloverUp's section of the balance report and its strategy card, built from the exact
solver and from simulations; every reading quotes numbers computed here."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pandas as pd

from analyzer import seats
from analyzer.run import kept
from analyzer.errors import UserError
from analyzer.games.cloverup.analyses import EV, action_label
from analyzer.games.cloverup.length import game_lengths
from analyzer.games.cloverup.model import Model, get_model, parse_policy
from analyzer.games.cloverup.params import PARAMS
from analyzer.games.cloverup.sensitivity import rule_changes
from analyzer.games.cloverup.simulation import (COLUMNS, _by_policy, _row_stats, lineup_of,
                                                play_games)
from analyzer.params import assumed_notes
from analyzer.player_counts import player_count_section_parts
from analyzer.skill import skill_parts, skill_row, skill_table, skill_verdict
from analyzer.sections import (Block, CheatSheet, Figure, Finding, Section, Table, fair_share,
                               glossary, policy_words, provenance, seat_figure, seat_finding)
from analyzer.verdicts import (MATTERS, assumed_in_force, closest_to_fair, imbalanced,
                               lever_words, rests_on, seat_verdict)
from kernels.cloverup import layout

TURN_POLICIES = ("optimal", "reach:15", "threshold:5", "threshold:4", "never")
MATCHUP_POLICIES = ("win", "reach:15", "reach:18", "threshold:5", "threshold:4", "never")
FACES = ("1", "2", "3", "4", "5", "6", "clover")
WORDS = {"optimal": "best average", "reach:T": "aims for T+",  # keyed like POLICY_HELP
         "win": "plays to win", "threshold:K": "rerolls below K", "never": "never rerolls"}


def _points(model: Model) -> np.ndarray:
    return model.utility(EV)


def turn_summary(model: Model, name: str) -> dict[str, Any]:
    """Exact single-turn figures of a policy."""
    dist = model.outcome_distribution(parse_policy(name))
    pts = _points(model)
    mean = float(dist @ pts)
    at_least = lambda t: float(dist[pts >= t].sum())  # noqa: E731
    return {"policy": name, "expected_points": mean,
            "sd": float(np.sqrt(max(dist @ pts**2 - mean**2, 0))),
            "p_at_least_12": at_least(12), "p_at_least_15": at_least(15),
            "p_18_or_more": at_least(18), "p_instant_win": float(dist[layout.INSTANT_WIN]),
            "p_triple_six": float(dist[layout.TRIPLE_SIX])}


def first_roll_by_clovers(model: Model) -> pd.DataFrame:
    """Chance of 0-3 clovers in the first roll and the expected turn score that follows
    under optimal play (first-roll results are in multiset order, see ``layout``)."""
    value = model.optimize(EV)[0]
    pts = _points(model)
    start_next, start_prob = model.trans[6], model.trans[7]
    rows = []
    for clovers in range(4):
        p_sum = v_sum = 0.0
        for j, nxt in enumerate(start_next):
            if (layout.MULTISET_DICE[j] == layout.CLOVER).sum() != clovers:
                continue
            p_sum += start_prob[j]
            v_sum += start_prob[j] * (value[nxt] if nxt >= 0 else pts[-1 - nxt])
        rows.append({"clovers_in_first_roll": str(clovers), "probability": p_sum,
                     "expected_points": v_sum / p_sum if p_sum else np.nan})
    return pd.DataFrame(rows)


def weight_sweeps(values: dict[str, Any]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Exact effect of the face weights: +1 weight on each face, and the clover weight
    from 0 to 4."""
    base = get_model(values)
    base_ev = base.optimize(EV)[3]
    bumps = []
    for face in range(7):
        w = list(values["weights"])
        w[face] += 1
        m = get_model({**values, "weights": tuple(w)})
        _, _, _, ev, iw = m.optimize(EV)
        bumps.append({"face": FACES[face], "expected_points_change": ev - base_ev,
                      "p_instant_win": iw})
    sweep = []
    for clover in (0, 0.5, 1, 1.5, 2, 3, 4):
        w = list(values["weights"])
        w[6] = clover
        _, _, _, ev, iw = get_model({**values, "weights": tuple(w)}).optimize(EV)
        sweep.append({"clover_weight": clover, "expected_points": ev,
                      "p_instant_win_per_turn": iw})
    return pd.DataFrame(bumps), pd.DataFrame(sweep)


WEIGHT_SETS = (  # (name, weights of 1..6, clover; None: the rules in force)
    ("rules in force", None),
    ("fair dice", (1, 1, 1, 1, 1, 1, 1)),
    ("steeper numbers", (8, 6, 5, 3, 2, 1, 1)),
    ("flatter numbers", (5, 5, 4, 4, 3, 2, 1)),
    ("rarer clovers", (6, 5, 5, 3, 3, 1, 0.5)),
    ("commoner clovers", (6, 5, 5, 3, 3, 1, 2)),
)


COMEBACK_GAPS = (0, 3, 6, 9, 12, 15, 20, 25, 30)


def comeback_odds(values: dict[str, Any]) -> pd.DataFrame:
    """The exact chance that the first seat of a two-player game wins from behind: at the
    start of each round but the first, trailing by each of ``COMEBACK_GAPS`` points that
    the rounds played can open, both players playing to win (the game solver's own
    table; kept on disk per rules, ``analyzer.run.kept``)."""
    model = get_model({**values, "players": 2})

    def table() -> list[dict[str, Any]]:
        W = model.win_solution()[1]
        rounds = values["rounds"]
        rows = []
        for rnd in range(1, rounds):
            for gap in COMEBACK_GAPS:
                if gap <= layout.MAX_POINTS * rnd:  # a wider gap cannot happen yet
                    left = rounds - rnd
                    rows.append({"rounds_left": f"{left} round{'s' * (left > 1)} left",
                                 "behind_by": gap,
                                 "win_chance": float(W[rnd, 0, model.max_diff - gap, 0])})
        return rows

    return pd.DataFrame(kept.answer(
        "cloverup-comeback", [model.values, COMEBACK_GAPS], table,
        lambda rows: kept.is_rows(rows, {"rounds_left", "behind_by", "win_chance"})))


def weight_sets(values: dict[str, Any]) -> pd.DataFrame:
    """Exact turn and two-player figures under a few alternative sets of face weights
    (the other rules as in force): what a designer weighing the dice would compare."""
    rows = []
    for name, weights in WEIGHT_SETS:
        vals = {**values, "weights": tuple(values["weights"] if weights is None else weights)}
        turn = turn_summary(get_model(vals), "optimal")
        game = get_model({**vals, "players": 2})
        rows.append({"weight_set": name, "weights": ",".join(f"{w:g}" for w in vals["weights"]),
                     "expected_points": turn["expected_points"], "sd": turn["sd"],
                     "p_at_least_15": turn["p_at_least_15"],
                     "p_instant_win": turn["p_instant_win"],
                     "p_triple_six": turn["p_triple_six"],
                     "first_seat_win_rate": game.first_seat_win_chance()})
    return pd.DataFrame(rows)


def _game_rows(values, lineup_names, games, seed, progress, precision=None):
    lineup = lineup_of(lineup_names, values["players"])
    acc, n = play_games(values, lineup, games, seed, True, precision, progress)
    return acc, n, lineup


TUNE_EXAMPLES = (("expected_score=11", "clover,6"), ("expected_score=12", "clover,6"),
                 ("expected_score=13", "clover,6"), ("p_instant_win=0.005", "clover"))


def tuning_examples(values: dict[str, Any]) -> pd.DataFrame:
    """What to change to hit a target: the weights of the rare faces (the other weights as
    they are) that give each of ``TUNE_EXAMPLES`` exactly (``dicelab cloverup tune``)."""
    from analyzer.games.cloverup.tune import tune

    rows = []
    for target, free in TUNE_EXAMPLES:
        row = {"target": target, "free": free}
        try:
            result = tune(values, [target], free)
        except UserError as error:  # out of reach on these rules
            rows.append({**row, "met": False, "note": str(error)})
            continue
        found = result.headline["free"]
        rows.append({**row, "six_weight": found.get("6", np.nan),
                     "clover_weight": found.get("clover", np.nan),
                     "met": result.headline["met"]})
    return pd.DataFrame(rows)


def seat_win_rates(values, games, seed, progress) -> tuple[pd.DataFrame, dict]:
    """Each seat's win rate with the optimal policy in every seat, 2-6 players, each
    count until every seat's 95% half-width is the commands' default
    (``seats.SEAT_VERDICT``), at most ``games`` games; and the runs by player count
    (``{players: (accumulator, games)}``, for ``player_counts``)."""
    rows, runs = [], {}
    for players in range(2, 7):
        acc, n, _ = _game_rows({**values, "players": players}, ["optimal"], games, seed,
                               progress, seats.SEAT_VERDICT)
        runs[players] = (acc, n)
        for seat in range(players):
            s = _row_stats(acc[:, seat].sum(axis=0), players)
            rows.append({"players": str(players), "seat": f"seat {seat + 1}",
                         "win_rate": s["win_rate"], "ci95_low": s["win_ci95"][0],
                         "ci95_high": s["win_ci95"][1], "games": n})
    return fair_share(pd.DataFrame(rows)), runs


def first_seat(values) -> pd.DataFrame:
    """The first seat's exact chance to win a two-player game, both players playing for
    the highest average or both playing to win (the game solver)."""
    model = get_model({**values, "players": 2})
    rows = []
    for name in ("optimal", "win"):
        p = parse_policy(name)
        chance = model.game_win_chance(p, p)
        rows.append({"both_play": name, "first_seat_win_rate": chance,
                     "vs_fair_share": chance - 0.5})
    return pd.DataFrame(rows)


SKILL_OPPONENTS = (("never", "never re-rolls"), ("threshold:4", "re-rolls every die below 4"),
                   ("optimal", "plays for the highest average"))  # weakest first


def skill_duels(values: dict[str, Any]) -> pd.DataFrame:
    """Restricted play, exact: the chance that a player playing to win (the game solver)
    wins a two-player game, seats alternating, against each of ``SKILL_OPPONENTS``."""
    model = get_model({**values, "players": 2})
    best = parse_policy("win")
    rows = []
    for name, words in SKILL_OPPONENTS:
        weaker = parse_policy(name)
        chance = 0.5 * (model.game_win_chance(best, weaker)
                        + 1 - model.game_win_chance(weaker, best))
        rows.append(skill_row("win", name, words, chance))
    return skill_table(rows)


def matchups(values, games, seed, progress) -> pd.DataFrame:
    """Two-player win rates of each policy against the expected-score policy: exact (game
    solver) and simulated, seats rotating."""
    model = get_model({**values, "players": 2})
    rows = []
    for name in MATCHUP_POLICIES:
        vals2 = {**values, "players": 2}
        acc, n, lineup = _game_rows(vals2, [name, "optimal"], games, seed, progress)
        s = _row_stats(_by_policy(acc, lineup)[name], 2)
        p, q = parse_policy(name), EV
        exact = 0.5 * (model.game_win_chance(p, q) + 1 - model.game_win_chance(q, p))
        rows.append({"policy": name, "opponent": "optimal", "exact_win_rate": exact,
                     "simulated_win_rate": s["win_rate"], "ci95_low": s["win_ci95"][0],
                     "ci95_high": s["win_ci95"][1], "games": n})
    return pd.DataFrame(rows)


def rule_figures(changes: pd.DataFrame) -> list[Figure]:
    """What each one-rule change does to a turn's expected score and to the first seat's
    two-player chance (``sensitivity.rule_changes``; its first row is the rules in force)."""
    turn = changes.iloc[1:][changes.expected_points_change.iloc[1:].notna()]
    seat = changes.iloc[1:]
    up, down = (turn.loc[turn.expected_points_change.idxmax()],
                turn.loc[turn.expected_points_change.idxmin()])
    more, less = (seat.loc[seat.first_seat_change.idxmax()],
                  seat.loc[seat.first_seat_change.idxmin()])
    base = changes.iloc[0]
    return [
        Figure("cloverup_rule_turn", "What one rule change does to a turn's expected score "
               "(exact, optimal play; the other rules as in force)", "bar", turn, "change",
               "expected_points_change", xlabel="rule changed", ref_line=0.0,
               ylabel="change in expected points per turn",
               reading=f"A turn is worth {base.expected_points:.2f} points on the rules in "
                       f"force. {up.change} adds the most ({up.expected_points_change:+.2f}); "
                       f"{down.change} costs the most ({down.expected_points_change:+.2f}). "
                       "The number of rounds does not change a turn, so it is left out."),
        Figure("cloverup_rule_first_seat", "What one rule change does to the first seat's "
               "chance to win a two-player game (exact, both playing to win)", "bar", seat,
               "change", "first_seat_change", xlabel="rule changed", ref_line=0.0,
               ylabel="change in the first seat's win rate", percent=True,
               reading=f"The first seat wins {base.first_seat_win_rate:.1%} on the rules in "
                       f"force. {more.change} moves it up most "
                       f"({100 * more.first_seat_change:+.1f} pp), {less.change} down most "
                       f"({100 * less.first_seat_change:+.1f} pp)."
                       + (" The second seat plays each round knowing the first seat's "
                          "total: the last mover's edge." if base.first_seat_win_rate < 0.5
                          else "")),
    ]


def length_figure(values: dict[str, Any], opt: pd.Series) -> tuple[Figure, pd.DataFrame]:
    """How long a game lasts by player count (exact, every turn played for the highest
    average), and its table."""
    lengths = game_lengths(values, opt.p_instant_win, opt.p_triple_six)
    two, six = lengths.iloc[0], lengths.iloc[-1]
    return Figure(
        "cloverup_game_length", "How long a game lasts: the chance an instant win ends it, "
        "by player count (exact, every turn played for the highest average)", "bar", lengths,
        "players", "p_instant_win_ends_game", xlabel="players at the table",
        ylabel="games an instant win ends", percent=True,
        reading=f"A game of {values['rounds']} rounds has players x {values['rounds']} turns. "
                f"An instant win ends {two.p_instant_win_ends_game:.1%} of two-player games "
                f"and {six.p_instant_win_ends_game:.1%} of six-player games. On average a "
                f"two-player game plays {two.expected_turns:.2f} of its {two.full_turns} "
                f"turns and a six-player game {six.expected_turns:.2f} of "
                f"{six.full_turns}: instant wins end games and triple sixes cut rounds "
                "short."), lengths


def assumed_basis(values: dict[str, Any], turn: bool = False) -> str:
    """The assumed rule values a CloverUp figure rests on, in words ("" if none): the
    face weights, and for a single turn's worth the points an instant win counts for."""
    names = ("weights", "instant_win_points") if turn else ("weights",)
    words = {"weights": "face weights", "instant_win_points": "points of an instant win"}
    shown = [f"{words[p.name]} ({p.show(values[p.name])})"
             for p in assumed_in_force(PARAMS, values, names)]
    return "the assumed " + " and ".join(shown) if shown else ""


def verdict(first: pd.DataFrame, changes: pd.DataFrame, opt: pd.Series,
            seat_table: pd.DataFrame, values: dict[str, Any], skill: pd.DataFrame) -> list[str]:
    """The section's verdict: the seats, the first seat of two with the rule changes that
    bring it closest to fair, and a turn's worth with the one that moves it most (and the
    one besides the face weights); each saying which assumed rule values it rests on."""
    rest = changes.iloc[1:]
    others = rest[rest.parameter != "weights"]
    first_win = first.loc["win", "first_seat_win_rate"]
    pp = lambda x: f"{100 * x:+.1f} pp"  # noqa: E731
    points = lambda x: f"{x:+.2f} points"  # noqa: E731
    closest = closest_to_fair(rest, first_win, 0.5, "first_seat_change", pp)
    basis = assumed_basis(values)
    return [
        seat_verdict(seat_table, "everyone playing for the highest average (optimal)", basis),
        rests_on(f"{'Not balanced' if imbalanced(first_win - 0.5) else 'Balanced'}: two "
                 f"players both playing to win. The first seat wins {first_win:.1%} (exact; "
                 f"fair is 50%, and {100 * MATTERS:.0f} points off is worth acting on). "
                 + (f"Closest to fair: {closest}. " if closest else "")
                 + "The one rule change that moves it most: "
                 + f"{lever_words(rest, 'first_seat_change', pp)}.", basis),
        rests_on(f"A turn is worth {opt.expected_points:.2f} points (optimal play, exact). "
                 f"The one rule change that moves it most: "
                 f"{lever_words(rest, 'expected_points_change', points)}; besides the face "
                 f"weights: {lever_words(others, 'expected_points_change', points)}.",
                 assumed_basis(values, turn=True)),
        rests_on(skill_verdict(skill, "a player playing to win"), basis),
    ]


def build_section(values: dict[str, Any], seed: int, quick: bool = False,
                  progress: bool = True) -> Section:
    """The CloverUp report section; games use ``values`` (the player count is set per
    figure)."""
    games = 20_000 if quick else 400_000
    d = SimpleNamespace(values=values, games=games)
    _turn_data(d, get_model(values))
    _game_data(d, games, seed, progress)
    _exact_data(d)
    _seat_data(d, games, seed, progress)
    d.labels = {name: policy_words(name, WORDS) for name in MATCHUP_POLICIES + TURN_POLICIES}
    figures = _turn_figures(d) + _seat_and_duel_figures(d) + [_comeback_figure(d)]
    figures[1:1] = rule_figures(d.changes)
    figures.append(d.length)
    skill_figure, skill_tab = skill_parts("cloverup", d.skill, "a player playing to win",
                                          "Exact: the game solver, from both seats.")
    count_figure, count_tab, count_line = player_count_section_parts(
        "cloverup", values, seed, quick, progress, runs=d.seat_runs)
    figures += [skill_figure, count_figure]
    intro = ("CloverUp is analysed exactly for a single turn (every keep/reroll choice "
             "solved by dynamic programming) and for two-player games (backward induction "
             "over rounds, seats and score difference); games with more players and "
             "policy mixes are simulated.")
    notes = _notes(d, seed)
    lines = verdict(d.first, d.changes, d.opt, d.seat_table, values, d.skill)
    return Section("cloverup", "CloverUp", intro, figures,
                   _tables(d) + [skill_tab, count_tab], notes, _findings(d),
                   provenance(seed, PARAMS, values),
                   lines + [rests_on(count_line, assumed_basis(values))],
                   glossary(d.labels, PARAMS, notes))


def _turn_data(d: SimpleNamespace, model: Model) -> None:
    """One turn under each policy (exact): the table, the points' distribution, the
    optimal and never-reroll rows, the most likely result."""
    d.turn_table = pd.DataFrame([turn_summary(model, p) for p in TURN_POLICIES])
    pmf = []
    for name in TURN_POLICIES:
        dist = model.outcome_distribution(parse_policy(name))
        for points in range(3, 19):
            p = dist[points] + (dist[layout.TRIPLE_SIX] if points == 18 else 0)
            pmf.append({"points": points, "probability": p, "policy": name})
    d.pmf = pd.DataFrame(pmf)
    d.opt = d.turn_table.iloc[0]
    d.mode = int(d.pmf[d.pmf.policy == "optimal"].sort_values("probability")
                 .iloc[-1]["points"])
    d.never = d.turn_table.set_index("policy").loc["never"]
    d.clovers = first_roll_by_clovers(model)


def _game_data(d: SimpleNamespace, games: int, seed: int, progress: bool) -> None:
    """The five-policy game (simulated): its table, the totals' distribution, the policy
    that wins most and a word on totals of 0."""
    acc, d.n, lineup = _game_rows({**d.values, "players": len(TURN_POLICIES)},
                                  list(TURN_POLICIES), games, seed, progress)
    game_rows, game_dist = [], []
    for name, row in _by_policy(acc, lineup).items():
        s = _row_stats(row, len(lineup))
        game_rows.append({"policy": name, "mean_game_score": s["mean_score"],
                          "ci95_low": s["ci95"][0], "ci95_high": s["ci95"][1],
                          "win_rate": s["win_rate"], "win_ci95_low": s["win_ci95"][0],
                          "win_ci95_high": s["win_ci95"][1], "games": d.n,
                          **seats.spread(row, COLUMNS)})
        game_dist += seats.score_distribution(row, COLUMNS, policy=name)
    d.game_dist = pd.DataFrame(game_dist).rename(columns={"score": "game_score"})
    zeros = d.game_dist[d.game_dist.game_score == 0].probability
    d.zero_words = (f" The {zeros.max():.1%} of totals at 0 (the most of any policy) are "
                    "games in which none of that player's turns counted (every turn scores "
                    "at least 3): an instant win ended the game first, or a triple six "
                    "cancelled the rounds they had played."
                    if len(zeros) and zeros.max() > 0 else "")
    d.game_table = pd.DataFrame(game_rows)
    d.best_game = d.game_table.sort_values("win_rate").iloc[-1]


def _exact_data(d: SimpleNamespace) -> None:
    """The exact analyses: weights, rule changes, game length, tuning, comebacks and the
    first seat's two-player chances."""
    values = d.values
    d.bumps, d.sweep = weight_sweeps(values)
    d.sets = weight_sets(values)
    d.changes = rule_changes(values, tuple(w for w in WEIGHT_SETS if w[1] is not None))
    d.length, d.lengths = length_figure(values, d.opt)
    d.tuned = tuning_examples(values)
    d.comeback = comeback_odds(values)
    d.last_round = d.comeback[d.comeback.rounds_left == "1 round left"].set_index(
        "behind_by")["win_chance"]
    d.first = first_seat(values).set_index("both_play")
    d.skill = skill_duels(values)


def _seat_data(d: SimpleNamespace, games: int, seed: int, progress: bool) -> None:
    """Win rates by seat and the two-player matchups (simulated, half the games each)."""
    d.seat_table, d.seat_runs = seat_win_rates(d.values, games // 2, seed, progress)
    d.duel = matchups(d.values, games // 2, seed, progress)
    d.win_row = d.duel.set_index("policy").loc["win"]
    d.two = d.seat_table[d.seat_table.players == "2"].set_index("seat")["win_rate"]
    d.six = d.seat_table[d.seat_table.players == "6"]


def _turn_figures(d: SimpleNamespace) -> list[Figure]:
    """A turn's points, the five-policy game's totals, and what clovers and weights are
    worth."""
    opt, values, c = d.opt, d.values, d.clovers.set_index("clovers_in_first_roll")[
        "expected_points"]
    best_face = d.bumps.sort_values("expected_points_change").iloc[-1]
    worst_face = d.bumps.sort_values("expected_points_change").iloc[0]
    sweep = d.sweep
    return [
        Figure("cloverup_turn_scores", "Points from one turn, by policy (exact)", "step",
               d.pmf, "points", "probability", "policy", xlabel="points scored in the turn",
               ylabel="probability", labels=d.labels, percent=True,
               reading=f"Playing for the highest average, a turn is worth "
                       f"{opt.expected_points:.2f} points on average; {d.mode} points is the "
                       f"single most likely result. "
                       f"Never rerolling averages only {d.never.expected_points:.2f}. An instant "
                       f"win comes in {opt.p_instant_win:.2%} of turns (counted as "
                       f"{values['instant_win_points']:g} points here). The spikes are the "
                       f"clover scores: {values['one_clover_floor']:g} (one clover, the higher "
                       f"number below {values['one_clover_triples_from']}), three times a "
                       "tripled number (one clover and a 5 or a 6: 15 or 18), and 18 for two "
                       "clovers, 6-6-clover and three sixes."),
        Figure("cloverup_game_scores",
               f"Game totals in a {len(TURN_POLICIES)}-player game, one policy per seat "
               f"(simulated, {d.n:,} games)", "step",
               d.game_dist, "game_score", "probability", "policy",
               xlabel=f"total after {values['rounds']} rounds", ylabel="probability",
               labels=d.labels, percent=True, appendix=True,
               reading=f"With all five policies at one table (seats rotating), "
                       f"{d.best_game.policy} wins most often ({d.best_game.win_rate:.1%}, 95% "
                       f"CI {d.best_game.win_ci95_low:.1%} to {d.best_game.win_ci95_high:.1%}). "
                       f"No plotted probability has a standard error above "
                       f"{d.game_dist.se.max():.4f}.{d.zero_words}"),
        Figure("cloverup_clover_value", "Expected turn score after the first roll, by clovers "
               "in it (exact)", "bar", d.clovers, "clovers_in_first_roll", "expected_points",
               xlabel="clovers in the first roll", ylabel="expected points of the turn",
               appendix=True,
               reading=f"One clover in the first roll lifts the expected turn from "
                       f"{c['0']:.2f} to {c['1']:.2f} points (+{c['1'] - c['0']:.2f}); two "
                       f"clovers guarantee 18 and a free chance at the instant win."),
        Figure("cloverup_clover_weight", "Expected turn score as the clover weight changes "
               "(exact; other weights as default)", "line", sweep, "clover_weight",
               "expected_points", xlabel="clover weight (faces 1-6 keep 6,5,5,3,3,1)",
               ylabel="expected points per turn", appendix=True,
               reading=f"Each unit of clover weight is worth about "
                       f"{(sweep.expected_points.iloc[-1] - sweep.expected_points.iloc[0]) / 4:.2f}"
                       f" points per turn between weight 0 and 4; the instant-win chance per "
                       f"turn goes from {sweep.p_instant_win_per_turn.iloc[0]:.3%} to "
                       f"{sweep.p_instant_win_per_turn.iloc[-1]:.3%}."),
        Figure("cloverup_face_weights", "Change in expected turn score when one face gets one "
               "more unit of weight (exact)", "bar", d.bumps, "face", "expected_points_change",
               xlabel="face given +1 weight", ylabel="change in expected points",
               appendix=True,
               reading=f"Making {best_face.face} more likely helps most "
                       f"({best_face.expected_points_change:+.3f} points per turn); making "
                       f"{worst_face.face} more likely hurts most "
                       f"({worst_face.expected_points_change:+.3f})."),
    ]


def _seat_and_duel_figures(d: SimpleNamespace) -> list[Figure]:
    """Win rates by seat, and the policies against the expected-score policy."""
    two, six, first, win_row = d.two, d.six, d.first, d.win_row
    return [
        seat_figure("cloverup_seat_win_rates", "Win rate by seat minus a fair share, "
                    "everyone playing for the highest average (simulated, 95% intervals)",
                    d.seat_table,
                    f"With two players the first seat wins {two['seat 1']:.1%} and the second "
                    f"{two['seat 2']:.1%} (exactly "
                    f"{first.loc['optimal', 'first_seat_win_rate']:.1%} for the first). With six "
                    "players the seats range from "
                    f"{six.win_rate.min():.1%} to {six.win_rate.max():.1%} against a fair "
                    f"share of {1 / 6:.1%}. Points above the zero line win more than their "
                    "share."),
        Figure("cloverup_policy_win_rates", "Two-player win rate against the expected-score "
               "policy (simulated, 95% intervals)", "bar", d.duel, "policy",
               "simulated_win_rate", None, "ci95_low", "ci95_high", xlabel="policy",
               ylabel="win rate vs optimal", labels=d.labels, ref_line=0.5, percent=True,
               appendix=True,
               reading=f"The game solver's win policy beats the expected-score policy "
                       f"{win_row.exact_win_rate:.2%} of the time (exact; simulated "
                       f"{win_row.simulated_win_rate:.2%}), so playing for the score table "
                       f"matters little in CloverUp."),
    ]


def _comeback_figure(d: SimpleNamespace) -> Figure:
    """The first seat's chance to come back in a two-player game (exact)."""
    last_round = d.last_round
    return Figure(
        "cloverup_comeback", "Comebacks: the first seat's chance to win a two-player "
        "game from behind at the start of a round, both playing to win (exact)",
        "line", d.comeback, "behind_by", "win_chance", "rounds_left",
        xlabel="points behind at the start of the round", ylabel="chance to win",
        percent=True, ref_line=0.5,
        reading=f"With one round left, a player 6 points behind still wins "
                f"{last_round[6]:.1%} of the time and one 15 behind "
                f"{last_round[15]:.1%}; from 20 points behind only an instant win "
                f"is left ({last_round[20]:.2%}). Equal scores favour the second "
                f"seat: {last_round[0]:.1%} for the first with one round left.")


def _tables(d: SimpleNamespace) -> list[Table]:
    """The section's tables (CSV and the appendix)."""
    return [
        Table("cloverup_turn_policies", "One turn under each policy (exact)", d.turn_table),
        Table("cloverup_game_policies", "Five-policy game (simulated)", d.game_table),
        Table("cloverup_first_roll_clovers", "Clovers in the first roll (exact)", d.clovers),
        Table("cloverup_face_weights", "One more unit of weight per face (exact)", d.bumps),
        Table("cloverup_clover_weight", "Clover weight sweep (exact)", d.sweep),
        Table("cloverup_comeback", "Win chance from behind, two players both playing to "
              "win (exact)", d.comeback, percent=("win_chance",)),
        Table("cloverup_weight_sets", "Alternative face weights (exact; first seat: both "
              "players play to win a two-player game)", d.sets,
              percent=("p_at_least_15", "p_instant_win", "p_triple_six",
                       "first_seat_win_rate"), hidden=("sd",)),
        Table("cloverup_tune", "What to change to hit a target: the clover and six weights "
              "for a turn worth 11, 12 or 13 points on average, the clover weight for a 0.5% "
              "instant-win chance (exact; dicelab cloverup tune)", d.tuned,
              note="The faces not free keep their weights (six and clover 1 of 24 each by "
                   "default). Found on the exact solver by bounded least squares (one free "
                   "weight: a root), every target met to 1e-6."),
        Table("cloverup_seat_win_rates", "Win rate by seat (simulated)", d.seat_table),
        Table("cloverup_first_seat", "The first seat's chance to win a two-player game "
              "(exact)", d.first.reset_index()),
        Table("cloverup_matchups", "Two-player matchups against optimal", d.duel),
        Table("cloverup_rule_changes", "One rule changed at a time: a turn's expected score "
              "(optimal) and the first seat's two-player win rate (both playing to win), "
              "exact", d.changes, percent=("first_seat_win_rate", "first_seat_change"),
              hidden=("parameter",)),
        Table("cloverup_game_length", "Game length by player count (exact)", d.lengths,
              percent=("p_instant_win_ends_game",)),
    ]


def _findings(d: SimpleNamespace) -> list[Finding]:
    """The section's headline findings, each naming the assumed values it rests on."""
    basis = assumed_basis(d.values)
    return [
        Finding(rests_on(f"A turn played for the highest average is worth "
                         f"{d.opt.expected_points:.2f} points; never rerolling, "
                         f"{d.never.expected_points:.2f}.", assumed_basis(d.values, turn=True)),
                d.opt.expected_points, "cloverup_turn_scores", unit="points", digits=2),
        Finding(rests_on(f"When both players play to win, the first seat wins "
                         f"{d.first.loc['win', 'first_seat_win_rate']:.1%} of two-player "
                         "games.", basis),
                d.first.loc["win", "first_seat_win_rate"], "cloverup_first_seat", unit="%"),
        seat_finding(d.seat_table, "cloverup_seat_win_rates",
                     "players playing for the highest average (optimal)", basis),
    ]


def _notes(d: SimpleNamespace, seed: int) -> list[str]:
    """The assumed readings, the rules changed, and how the figures were made."""
    values = d.values
    changed = [f"{p.name} = {p.show(values[p.name])} (default {p.show(p.default)})"
               for p in PARAMS if values[p.name] != p.default and p.name != "players"]
    return assumed_notes(PARAMS, values) + [f"rules changed: {', '.join(changed)}"] * bool(
        changed) + [
        f"simulations: seed {seed}, {d.games:,} games per lineup (half for seats and "
        "matchups); intervals are 95%; exact figures come from the dynamic-programming "
        "solvers"]


# ---------------------------------------------------------------- cheat sheet

def keep_table(model: Model) -> pd.DataFrame:
    """The expected-score policy for every roll that leaves a choice, by rerolls left."""
    policy = model.optimize(EV)[2].reshape(model.table_shape)
    rows = []
    for m in range(layout.N_MULTISETS):
        if model.roll_end[m] >= 0 or model.ds_start[m]:
            continue
        clovers = int((layout.MULTISET_DICE[m] == layout.CLOVER).sum())
        row = {"dice": layout.dice_label(m)}
        for r in (1, 2, 3):
            if r <= model.max_rerolls and (r < 3 or clovers > 0):
                row[f"{r}{'+' if r == 3 else ''} left"] = _short(action_label(m, policy[m, r, 0]))
            else:  # 3+ rerolls are left only after a kept clover added one
                row[f"{r}{'+' if r == 3 else ''} left"] = "-"
        rows.append(row)
    return pd.DataFrame(rows)


def _short(label: str) -> str:
    return {"stop": "stop", "reroll all": "all"}.get(label, label.replace("keep ", "keep "))


def double_six_lines(model: Model) -> list[str]:
    policy = model.optimize(EV)[2].reshape(model.table_shape)
    lines = []
    for r in range(1, min(model.max_rerolls, 4) + 1):
        reroll = [str(x) for x in range(1, 6)
                  if policy[layout.MULTISET_INDEX[x - 1, 5, 5], r, 1]]
        lines.append(f"{r} reroll{'s' if r > 1 else ''} left: reroll the third die if it "
                     f"shows {', '.join(reroll) if reroll else 'nothing (stop)'}")
    return lines


def _default_weights(values: dict[str, Any]) -> bool:
    """Are the face weights the assumed defaults?"""
    default = next(p.default for p in PARAMS if p.name == "weights")
    return tuple(values["weights"]) == tuple(default)


def build_cheatsheet(values: dict[str, Any]) -> CheatSheet:
    model = get_model(values)
    opt = turn_summary(model, "optimal")
    clovers = first_roll_by_clovers(model).set_index("clovers_in_first_roll")
    weights = ",".join(f"{w:g}" for w in values["weights"])
    blocks = [
        Block("Key numbers", [
            f"Best average per turn: {opt['expected_points']:.2f} points",
            f"At least 15 points: {opt['p_at_least_15']:.0%} of turns",
            f"Instant win (three clovers): {opt['p_instant_win']:.2%} of turns",
            f"A clover in the first roll: {clovers.loc['1', 'expected_points']:.1f} points "
            f"expected, against {clovers.loc['0', 'expected_points']:.1f} with none",
        ]),
        Block("Always", [
            "Clovers stay, and each one rolled gives an extra reroll.",
            "Two clovers score 18 whatever the third die shows: keep rerolling it for the "
            "third clover (instant win) - it costs nothing.",
            "One clover with a 6: that is already 18 points.",
        ]),
        Block("What to keep, by rerolls left (C = clover; all = reroll all three)",
              ["'-': cannot happen: 3 or more rerolls are left only after a kept clover "
               "added one."], table=keep_table(model)),
    ]
    if values["double_six_rule"]:
        bonus = values["double_six_bonus_rerolls"]
        blocks.insert(2, Block("Double six: 6 6 and a number", [
            f"The sixes are locked and you gain {bonus} bonus rerolls of the third die."]
            + double_six_lines(model)))
    assumed = "; ".join(assumed_notes(PARAMS, values))
    return CheatSheet(
        f"CloverUp strategy card (weights {weights})",
        f"Play for the highest average score. Face weights 1,2,3,4,5,6,C = {weights}"
        f"{' (ASSUMED: the rules only rank the faces)' if _default_weights(values) else ''}.",
        blocks,
        f"Computed exactly by dicelab. {assumed}",
    )
