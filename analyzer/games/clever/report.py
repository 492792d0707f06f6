"""A Clever game's section of the balance report and its strategy card (either game);
every reading quotes numbers computed here from simulations of the policies."""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Any

import numpy as np
import pandas as pd

from analyzer import seats
from analyzer.games.clever import rule_effects, trained_on
from analyzer.games.clever.game import ROUND_BONUS_ROUNDS, CleverGame
from analyzer.games.clever.params import SOLO_INERT
from analyzer.games.clever.simulation import COLUMNS, GAME_BLOCK, play_games, simulate, whatif
from analyzer.sections import (Figure, Finding, Section, Table, comebacks_shown, fair_share,
                               glossary, policy_words, provenance, seat_figure, seat_finding)
from analyzer.verdicts import (assumed_in_force, closest_to_fair, imbalanced_seats,
                               lever_words, rests_on, seat_verdict)
from analyzer.params import defaults
from analyzer.seeding import DEFAULT_SEED
from analyzer.player_counts import player_count_section_parts
from analyzer.skill import skill_parts, skill_row, skill_table, skill_verdict
from kernels.clever import play

POLICIES = ("random", "greedy", "heuristic", "learned")  # and the game's strongest
BOT_NAMES = {"heuristic": "the tuned heuristic",
             "learned": "the learned policy (a value network trained by self-play that "
                        "decides every choice, re-rolls, returns and +1s included)"}
WORDS = {"random": "random legal choices", "greedy": "best score now",  # keyed like POLICY_HELP
         "heuristic": "fitted estimate, looks ahead",
         "heuristic:0": "fitted estimate, no look-ahead", "heuristic:N": "heuristic, N rolls ahead",
         "learned": "self-play value network"}
SHOWN = {"heuristic:0": "heuristic without look-ahead"}  # spellings a person reads otherwise


def player(policy: str) -> str:
    """A policy's name where a person reads it (``SHOWN``: a clearer one)."""
    return SHOWN.get(policy, policy)


ACTIONS = ("re-roll", "+1", "return", "fox")  # bonus kinds kept apart; the rest are free marks


@dataclass(frozen=True)
class Samples:
    """How much the report simulates, by precision: solo games of each policy until its
    mean score's 95% half-width is at most ``points``, at most ``cap``; paired games of
    the round-bonus variants until every paired difference's half-width is at most
    ``paired_points``, at most ``paired`` (``strong_paired`` for the strongest policy,
    the slowest; the assumed-rule readings likewise, at most ``rules_paired``, or
    ``strong_paired`` where the strongest policy plays them); then games of two, three and
    four players until every seat's win rate is within the commands' default width, at
    most ``seat_cap`` (the comebacks read the two-player games), and for a comparison
    policy beside them ``per_player_count`` games of two players and ``more_players`` of
    three and of four. Every stop is checked after whole batches of ``CHECK_BLOCKS``
    blocks of 512 games, so it is the same on every machine and for any thread count."""

    points: float
    cap: int
    paired_points: float
    paired: int
    rules_paired: int
    per_player_count: int
    strong_paired: int
    more_players: int
    seat_cap: int  # the most games of each player count for the seats' verdict
    skill_cap: int  # the most two-player games of each restricted-play duel

    def describe(self, played: dict[str, int], paired: dict[str, int]) -> str:
        solo = ", ".join(f"{p} {n:,}" for p, n in played.items())
        runs = ", ".join(f"{what} {n:,}" for what, n in paired.items())
        return (f"solo games until each policy's mean is within +-{self.points:g} points "
                f"(95%), at most {self.cap:,} ({solo}); paired games until every "
                f"difference is within +-{self.paired_points:g} points (95%), at most "
                f"{self.paired:,} per round-bonus variant ({self.strong_paired:,} for the "
                f"strongest policy) and {self.rules_paired:,} per "
                f"assumed-rule reading ({runs}); stops checked every "
                f"{CHECK_BLOCKS * GAME_BLOCK:,} games; games of two, three and four "
                f"players until every seat's win rate is within "
                f"+-{seats.SEAT_VERDICT.win_points:g} percentage points (95%), at most "
                f"{self.seat_cap:,} of each, and where a seat is off its share the "
                f"comparison policy's {self.per_player_count:,} of two and "
                f"{self.more_players:,} of three and of four")


CHECK_BLOCKS = 1
FULL = Samples(points=1.5, cap=40_960, paired_points=2.0, paired=4_096, rules_paired=2_048,
               per_player_count=1_024, strong_paired=512, more_players=768, seat_cap=8_192,
               skill_cap=4_096)
QUICK = Samples(points=3.0, cap=4_096, paired_points=4.0, paired=1_024, rules_paired=512,
                per_player_count=512, strong_paired=512, more_players=512, seat_cap=512,
                skill_cap=1_024)
# What rules are worth is played by the game's ``table_policy`` (the tuned heuristic, or
# a cheaper reading of it that plays as well) beside learned, and by learned alone where
# its network was trained with each open reading changed (``rules_policy``). The
# seats are played by learned where its network was trained in games of 2-4 players on the
# rules in force (``seat_policy``), else by ``table_policy`` too.


def table_words(game: CleverGame, values: dict[str, Any]) -> str:
    """Who plays the values of the assumed rules (``rules_policy``), and why, in words."""
    reader = rules_policy(game, values)
    if reader != game.table_policy:
        return (f"the {reader} policy ({policy_words(reader, WORDS)}; its network was "
                "trained on every reading)")
    why = ("the same policy on every variant" if _trained_without_bonuses(game, values)
           else "the learned network trained with every round bonus")
    table = game.table_policy
    return f"the {player(table)} policy ({policy_words(table, WORDS)}; {why})"


def seat_policy(game: CleverGame, values: dict[str, Any]) -> str:
    """Who plays the report's games of 2-4 players: the strongest policy where its network
    was trained on these rules in games of 2, 3 and 4 players, else ``table_policy``."""
    bot = game.strongest_policy
    if bot == "learned" and not any(trained_on.differences(game, {**values, "players": n})
                                    for n in (2, 3, 4)):
        return bot
    return game.table_policy


def seat_words(game: CleverGame, values: dict[str, Any]) -> str:
    """Who plays the seats, and why, in words."""
    bot = seat_policy(game, values)
    if bot == game.strongest_policy:
        gift = game.gift(values)
        return (f"the {bot} policy ({policy_words(bot, WORDS)}), trained in games of 1-4 "
                "players" + (f"; each turn's last roll counts {gift_words(gift)} the platter "
                             "it leaves gives an opponent as a point lost" if gift else "")
                + look_words(game.look(values)))
    return (f"the {bot} policy ({policy_words(bot, WORDS)}; the learned network was not "
            "trained in games of 2-4 players on these rules)")


def look_words(look: dict[str, Any]) -> str:
    """Where the learned policy looks one roll ahead, in words ("" nowhere beyond solo)."""
    counts = [n for n in look.get("players", []) if n > 1]
    if not counts:
        return ""
    where = " and ".join(f"{n}-player" for n in counts)
    return (f"; in {where} games its first two picks of a turn look one roll ahead "
            f"({look['samples']} sampled rolls)")


def gift_words(gift: float) -> str:
    """How much of a point given to an opponent the learned policy counts, in words."""
    return "each point" if gift == 1 else f"{gift:g} times each point"


def round_gains(row: np.ndarray, rounds: int) -> list[float]:
    """The mean points a player scores in each round (from the totals at each round's end
    that the play loops log; ``row``: an accumulator row of ``play.COLUMNS``)."""
    games = max(float(row[play.COL_GAMES]), 1.0)
    ends = [float(row[play.COL_LOG + play.LOG_STANDINGS + r]) / games
            for r in range(min(rounds, play.STANDING_ROUNDS))]
    return [b - a for a, b in zip([0.0] + ends[:-1], ends)]


def gains_words(gains: list[float]) -> str:
    """The points each round adds, in words, and why a deficit weighs little early: most
    points come late, the foxes (each worth the lowest area) at the very end."""
    if not gains:
        return ""
    last = gains[-1] / max(sum(gains), 1e-12)
    return (" Mean points a player scores in each round: "
            + ", ".join(f"{g:.0f}" for g in gains)
            + f". The last round alone adds {last:.0%} of a game's points (the foxes, each "
            "worth the player's lowest area, count only at the end), so a deficit after an "
            "early round is small against the points still to come.")


def mirror_seats(game: CleverGame, values: dict[str, Any], policy: str,
                 counts: tuple[int, ...], samples: Any, seed: int, progress: Any,
                 verdict: bool = True, runs: dict | None = None
                 ) -> tuple[list[dict], list[dict], list[float]]:
    """``policy`` in every seat, at each player count of ``counts``: with ``verdict``,
    until every seat's win rate has the commands' default 95% half-width
    (``seats.SEAT_VERDICT``, at most ``samples.seat_cap`` games), else the games of
    ``samples`` (a comparison beside a verdict); each seat's win rate (rows of the seat
    table) and, with two players, the comeback rows and the mean points a player scores in
    each round; ``runs``, where given, gets each count's ``(accumulator, games)``."""
    seat_rows, comeback_rows, gains = [], [], []
    for players in counts:
        games = samples.seat_cap if verdict else \
            samples.per_player_count if players == 2 else samples.more_players
        acc, n = play_games(game, {**values, "players": players}, [policy] * players,
                            games, seed, False, seats.SEAT_VERDICT if verdict else None,
                            progress, CHECK_BLOCKS)
        if runs is not None:
            runs[players] = (acc, n)
        if players == 2:
            rounds = game.rounds_for({**values, "players": 2})
            comeback_rows = seats.comebacks(acc.sum(axis=(0, 1)), COLUMNS, play.COL_COMEBACK,
                                            rounds, play.COMEBACK_STEP)
            gains = round_gains(acc.sum(axis=(0, 1)), rounds)
        for seat in range(players):
            s = seats.row_stats(acc[:, seat].sum(axis=0), COLUMNS, players)
            seat_rows.append({"players": str(players), "seat": f"seat {seat + 1}",
                              "win_rate": s["win_rate"], "ci95_low": s["win_ci95"][0],
                              "ci95_high": s["win_ci95"][1], "games": n,
                              "score": s["mean_score"], "score_ci95_low": s["ci95"][0],
                              "score_ci95_high": s["ci95"][1]})
    return seat_rows, comeback_rows, gains


SKILL_OPPONENTS = (("random", "makes random legal choices"),
                   ("greedy", "takes the most points each time"),
                   ("heuristic", "plays the tuned heuristic"))  # weakest first


def skill_duels(game: CleverGame, values: dict[str, Any], bot: str, samples: Samples,
                seed: int, progress: Any) -> pd.DataFrame:
    """Restricted play: ``bot`` against each of ``SKILL_OPPONENTS`` in two-player games,
    seats alternating, until the win rate's 95% half-width is the commands' default
    (``seats.SEAT_VERDICT``), at most ``samples.skill_cap`` games."""
    vals = {**values, "players": 2}
    rows = []
    for name, words in SKILL_OPPONENTS:
        if name == bot:
            continue
        acc, n = play_games(game, vals, [bot, name], samples.skill_cap, seed, True,
                            seats.SEAT_VERDICT, progress, CHECK_BLOCKS)
        s = seats.row_stats(seats.by_name(acc, [bot, name])[bot], COLUMNS, 2)
        rows.append(skill_row(bot, name, words, s["win_rate"], tuple(s["win_ci95"]), n))
    return skill_table(rows)


SCORE_COLUMNS = ["score", "score_ci95_low", "score_ci95_high"]  # of ``mirror_seats`` rows
SCORE_BIN = 10  # points per bin of the solo score distributions


def distribution_figure(game: CleverGame, runs: dict[str, Any]) -> Figure:
    """Each policy's solo final scores in bins of ``SCORE_BIN`` points (``runs``: the solo
    simulations by policy), with standard errors."""
    rows = []
    for name, run in runs.items():
        games = float(run.tables["policies"].seat_games.iloc[0])
        dist = run.tables["score_distribution"]
        dist = dist[(dist.by == "policy") & (dist.name == name)]
        binned = dist.groupby(dist.score // SCORE_BIN * SCORE_BIN)["probability"].sum()
        rows += [{"policy": name, "score": int(low), "probability": float(share),
                  "se": float(np.sqrt(share * (1 - share) / games))}
                 for low, share in binned.items()]
    table = pd.DataFrame(rows)
    medians = {name: float(run.tables["policies"]["median"].iloc[0])
               for name, run in runs.items()}
    words = ", ".join(f"{name} {median:.0f}" for name, median in medians.items())
    bot = runs[game.strongest_policy].tables["policies"].iloc[0]
    foxes = (f" Each fox scores the lowest area's points (for {game.strongest_policy} about "
             f"{bot.lowest_area:.0f}, with {bot.foxes:.1f} foxes a game), so its scores "
             "cluster by the number of foxes, that far apart, with dips between."
             if "lowest_area" in bot and bot.foxes > 0 else "")
    return Figure(f"{game.prefix}_score_distribution", "Solo final scores by policy "
                  f"(simulated, bins of {SCORE_BIN} points)", "step", table, "score",
                  "probability", "policy", xlabel="final score (bin start)",
                  ylabel="share of games", percent=True,
                  labels={name: policy_words(name, WORDS) for name in runs},
                  reading=f"Median solo scores: {words}. No plotted share has a standard "
                          f"error above {table.se.max():.4f}.{foxes}")


def scores_figure(game: CleverGame, seated: str, rows: list[dict],
                  policies: pd.DataFrame, values: dict[str, Any]) -> Figure:
    """Each seat's mean score at each player count (``mirror_seats`` rows of ``seated``),
    beside its solo mean where ``policies`` (the solo table) has it, with the rounds each
    count plays."""
    table = pd.DataFrame(rows)[["players", "seat", *SCORE_COLUMNS]]
    solo = policies[policies.policy == seated]
    if not solo.empty:
        first = solo.iloc[0]
        table = pd.concat([pd.DataFrame([{
            "players": "1", "seat": "seat 1", "score": first.mean_score,
            "score_ci95_low": first.ci95_low, "score_ci95_high": first.ci95_high}]), table],
            ignore_index=True)
    means = table.groupby("players", sort=False)["score"].mean()
    rounds = {n: game.rounds_for({**values, "players": int(n)}) for n in means.index}
    words = ", ".join(f"{means[n]:.0f} points " + ("solo" if n == "1" else f"with {n} players")
                      + f" ({rounds[n]} rounds)" for n in means.index)
    return Figure(f"{game.prefix}_scores_by_players", f"Mean final score by player count and "
                  f"seat, {seated} (simulated, 95% intervals)", "dot", table, "players",
                  "score", "seat", "score_ci95_low", "score_ci95_high",
                  xlabel="players at the table", ylabel="mean final score",
                  reading=f"A player of the {seated} policy averages {words} (mean over the "
                          "seats). Each opponent's turn is one more passive pick, and "
                          "tables of more players play fewer rounds.")


def beside_prefix(game: CleverGame) -> str:
    """The column prefix of ``table_policy``'s seat columns (its name without options)."""
    return game.table_policy.partition(":")[0]


def table_policy_beside(game: CleverGame, values: dict[str, Any], seated: str,
                        seat_table: pd.DataFrame, samples: Any, seed: int,
                        progress: Any) -> tuple[pd.DataFrame, str]:
    """The seat table with ``table_policy``'s own mirror games beside ``seated``'s at the
    player counts where a seat's win rate differs from a fair share (its 95% interval
    leaves the share out), and a sentence on the largest such seat ('' where none
    differs): a seat effect the rules create shows under both policies."""
    off = seat_table[(seat_table.vs_fair_share_ci95_low > 0)
                     | (seat_table.vs_fair_share_ci95_high < 0)]
    if off.empty:
        return seat_table, ""
    counts = tuple(sorted({int(p) for p in off.players}))
    rows, _, _ = mirror_seats(game, values, game.table_policy, counts, samples, seed,
                              progress, verdict=False)
    prefix = f"{beside_prefix(game)}_"
    other = pd.DataFrame(rows).set_index(["players", "seat"])[
        ["win_rate", "ci95_low", "ci95_high"]].add_prefix(prefix)
    joined = seat_table.join(other, on=["players", "seat"])
    worst = off.loc[off.vs_fair_share.abs().idxmax()]
    theirs = other.loc[(worst.players, worst.seat)]
    low, high = (theirs[prefix + k] for k in ("ci95_low", "ci95_high"))
    name = beside_prefix(game)
    spec = f" ({player(game.table_policy)})" if game.table_policy != name else ""
    return joined, (f" With {worst.players} players, {worst.seat} of the {seated} policy "
                    f"wins {worst.win_rate:.1%} (a fair share is {worst.fair_share:.1%}); in "
                    f"the {name}'s own mirror games{spec} that seat wins "
                    f"{theirs.iloc[0]:.1%} (95% CI {low:.1%} to {high:.1%}). A seat effect the "
                    "rules create shows under both.")


def rules_seat(game: CleverGame, seat_table: pd.DataFrame) -> pd.Series | None:
    """The seat furthest from a fair share among those the verdict calls not balanced
    (``verdicts.imbalanced``) under the seated policy and off it beyond noise under
    ``table_policy`` too (columns of ``table_policy_beside``): a seat effect the rules
    create; None where there is none."""
    prefix = f"{beside_prefix(game)}_"
    if prefix + "ci95_low" not in seat_table:
        return None
    both = seat_table[imbalanced_seats(seat_table)
                      & ((seat_table[prefix + "ci95_low"] > seat_table.fair_share)
                         | (seat_table[prefix + "ci95_high"] < seat_table.fair_share))]
    return None if both.empty else both.loc[both.vs_fair_share.abs().idxmax()]


SEAT_LEVER_GAMES = 2_048  # paired games of ``table_policy`` per rule change, for the seats


def seat_lever(game: CleverGame, values: dict[str, Any], row: pd.Series, seed: int,
                progress: Any) -> str:
    """The rule changes (a round bonus removed, an assumed reading flipped) that bring the
    win rate of the seat of ``row`` (``rules_seat``) closest to its fair share, in
    ``table_policy``'s paired mirror games at that player count, in words."""
    players = int(row.players)
    base = {**values, "players": players}
    changes = [(f"no round {r} bonus", {**base, f"round_{r}_bonus": False})
               for r in ROUND_BONUS_ROUNDS]
    changes += [(p.words(_alternative(p)), {**base, p.name: _alternative(p)})
                for p in game.params if p.assumed and values[p.name] == p.default
                and p.kind in ("bool", "choice")]
    lineup = [game.table_policy]
    result = whatif(game, [("rules in force", base, lineup)] + [(label, v, lineup)
                                                              for label, v in changes],
                    SEAT_LEVER_GAMES, seed, progress=progress, untrained_notes=False)
    table = result.tables["variants"]
    metric = table[table.metric == f"win_rate_seat_{row.seat.split()[-1]}"]
    start = metric[metric["diff"].isna()].value.iloc[0]
    moved = metric[metric["diff"].notna()].rename(columns={"variant": "change"})
    pp = lambda x: f"{100 * x:+.1f} pp"  # noqa: E731
    closest = closest_to_fair(moved, start, row.fair_share, "diff", pp, "diff_ci95_low",
                              "diff_ci95_high")
    where = (f"in the {player(game.table_policy)} policy's paired games of {players} players "
             f"({SEAT_LEVER_GAMES:,} each, where that seat wins {start:.1%})")
    if not closest:
        return f" No rule change tried brings that seat closer to a fair share {where}."
    return f" The rule changes that bring that seat closest to a fair share, {where}: {closest}."


def compile_kernels(game: CleverGame) -> None:
    """Run the report's play loops once (a game, a paired game) on the default rules, so
    that numba compiles them."""
    solo = {**defaults(game.params), "players": 1}
    bot = [game.strongest_policy]
    play_games(game, solo, bot, 1, DEFAULT_SEED, progress=False)
    whatif(game, [("a", solo, bot), ("b", solo, bot)], 1, DEFAULT_SEED, progress=False)


def solo_runs(game: CleverGame, values: dict[str, Any], seed: int, samples: Samples,
              policies: tuple[str, ...], progress: bool) -> dict:
    """Each policy's solo simulation (a ``Result``), to the precision of ``samples``."""
    solo = {**values, "players": 1}
    return {p: simulate(game, solo, [p], samples.cap, seed, precision=samples.points,
                        progress=progress, batch_blocks=CHECK_BLOCKS) for p in policies}


def _alternative(param) -> Any:
    """The other value of an assumed yes/no or two-way rule parameter."""
    if param.kind == "bool":
        return not param.default
    return next(c for c in param.choices if c != param.default)


def _paired_diffs(base: dict[str, Any], variants: list, games: int, precision: float,
                  game: CleverGame, seed: int, progress: bool, bot: str) -> pd.DataFrame:
    """Each variant's paired change in the solo mean score of the policy ``bot`` against
    the rules in force ``base``, to ``precision`` points (at most ``games`` games): columns
    variant, value, ci95_low, ci95_high; ``attrs["games"]``: the games played."""
    runs = [("rules in force", base, [bot])] + [(label, v, [bot]) for label, v in variants]
    result = whatif(game, runs, games, seed, progress=progress, precision=precision,
                    batch_blocks=CHECK_BLOCKS)
    paired = result.tables["variants"]
    rows = paired[(paired.metric == "mean_score") & paired["diff"].notna()]
    table = rows[["variant", "diff", "diff_ci95_low", "diff_ci95_high"]].set_axis(
        ["variant", "value", "ci95_low", "ci95_high"], axis=1).reset_index(drop=True)
    table.attrs["games"] = result.headline["games"]
    return table


def paired_rule_values(game: CleverGame, values: dict[str, Any], seed: int,
                       samples: Samples, progress: bool, readings: bool = True,
                       bot: str | None = None) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """What rules are worth to the policy ``bot`` (default: the game's ``table_policy``)
    solo, on the same games, to the paired precision of ``samples``: each round-track bonus
    (the points lost without it) and, with ``readings``, each assumed open point of the
    rules at its default (the points gained by its other reading, played by
    ``rules_policy``; else None). Columns: variant, value, ci95_low, ci95_high;
    ``attrs["games"]``: the games played. Every variant plays the same games whichever
    others run, so where ``bot`` plays the readings too, on as many games, one comparison
    measures both (the rules in force played once)."""
    bonus, rules, _ = rule_runs(game, values, seed, samples, progress, readings, bot)
    return bonus, rules


def rule_runs(game: CleverGame, values: dict[str, Any], seed: int, samples: Samples,
              progress: bool, readings: bool = True, bot: str | None = None,
              extra: list = ()) -> tuple[pd.DataFrame, pd.DataFrame | None,
                                         pd.DataFrame | None]:
    """``paired_rule_values``, and the rule changes ``extra`` (``(label, values)`` each,
    solo) measured on the same games as the round bonuses: their paired changes in
    ``bot``'s solo mean score, signed (columns as the bonuses'; None without ``extra``)."""
    bot = bot or game.table_policy
    solo = {**values, "players": 1}
    without = [(f"without round {r}", {**solo, f"round_{r}_bonus": False})
               for r in ROUND_BONUS_ROUNDS] + list(extra)
    flips = [(p.words(_alternative(p)), {**solo, p.name: _alternative(p)})
             for p in _assumed(game, values)] if readings else []
    reader = rules_policy(game, values)
    games = samples.strong_paired if reader == game.strongest_policy else samples.rules_paired
    together = reader == bot and games == samples.paired
    bonus = _paired_diffs(solo, without + flips if together else without, samples.paired,
                          samples.paired_points, game, seed, progress, bot)
    changes = _rows(bonus, len(ROUND_BONUS_ROUNDS), len(without)) if extra else None
    if together:
        rules = _rows(bonus, len(without), len(bonus))
    elif readings:
        rules = _paired_diffs(solo, flips, games, samples.paired_points, game, seed,
                              progress, reader)
    bonus = _rows(bonus, 0, len(ROUND_BONUS_ROUNDS))
    lost = -bonus[["value", "ci95_high", "ci95_low"]].to_numpy()  # a bonus is worth what
    bonus[["value", "ci95_low", "ci95_high"]] = lost  # its absence costs
    return bonus, _with_inert(game, values, rules) if readings else None, changes


def _rows(table: pd.DataFrame, start: int, end: int) -> pd.DataFrame:
    """Rows ``start`` to ``end`` of a ``_paired_diffs`` table, its games kept."""
    out = table.iloc[start:end].reset_index(drop=True).copy()
    out.attrs["games"] = table.attrs["games"]
    return out


def _with_inert(game: CleverGame, values: dict[str, Any], rules: pd.DataFrame
                ) -> pd.DataFrame:
    """The open readings' values ``rules`` with the solo-inert ones at exactly 0."""
    inert = pd.DataFrame([{"variant": p.words(_alternative(p)), "value": 0.0,
                           "ci95_low": 0.0, "ci95_high": 0.0} for p in _inert(game, values)],
                         columns=rules.columns)
    played = rules.attrs["games"]
    rules = pd.concat([rules, inert], ignore_index=True) if len(inert) else rules
    rules.attrs["games"] = played
    return rules


def _assumed(game: CleverGame, values: dict[str, Any]) -> list:
    """The assumed yes/no and choice parameters at their defaults (open readings) that
    can change a solo game of the valued policies (``_inert``: those that cannot)."""
    return [p for p in _open_points(game, values) if p.name not in SOLO_INERT]


def _inert(game: CleverGame, values: dict[str, Any]) -> list:
    """The open readings the engine never reads in a solo game of the valued policies
    (``params.SOLO_INERT``): exactly 0 there, so not played."""
    return [p for p in _open_points(game, values) if p.name in SOLO_INERT]


def _open_points(game: CleverGame, values: dict[str, Any]) -> list:
    return [p for p in game.params if p.assumed and values[p.name] == p.default
            and p.kind in ("bool", "choice")]


def rules_policy(game: CleverGame, values: dict[str, Any]) -> str:
    """Who plays what the open readings are worth: the strongest policy where its network
    was trained on solo games with each reading flipped, else
    ``table_policy``."""
    solo = {**values, "players": 1}
    flips = [{**solo, p.name: _alternative(p)} for p in _assumed(game, values)]
    if game.strongest_policy == "learned" and _trained_on_all(game, solo, flips):
        return game.strongest_policy
    return game.table_policy


def _trained_on_all(game: CleverGame, solo: dict[str, Any], variants: list[dict[str, Any]]
                    ) -> bool:
    """Was the network ``learned`` plays trained on the rules ``solo`` and every one of
    ``variants``?"""
    return not any(trained_on.differences(game, v) for v in [solo, *variants])


def round_bonus_values(game: CleverGame, values: dict[str, Any], seed: int,
                       samples: Samples, progress: bool, table_bonus: pd.DataFrame,
                       readings: bool = False
                       ) -> tuple[pd.DataFrame, pd.DataFrame | None, pd.DataFrame]:
    """What each round-track bonus is worth solo to the game's strongest policy, with the
    ``table_policy``'s figures (``table_bonus``, from ``paired_rule_values``) beside: the
    rows of both, column ``policy`` naming who played them (the strongest first); with
    ``readings``, the open readings' worth to the strongest policy too (else None); and
    on the same games every rule effect a designer would try
    (``rule_effects.effect_rows``), at most ``strong_paired`` games."""
    bot = game.strongest_policy
    table = table_bonus.assign(policy=game.table_policy)
    strong_samples = replace(samples, paired=samples.strong_paired)
    designs = rule_effects.design_variants(game, values)
    if bot == game.table_policy:
        strong, _, changes = rule_runs(game, values, seed, strong_samples, progress, False,
                                       bot, designs)
        return table, None, rule_effects.effect_rows(game, values, bot, strong, changes)
    strong, rules, changes = rule_runs(game, values, seed, strong_samples, progress,
                                       readings, bot, designs)
    both = pd.concat([strong.assign(policy=bot), table], ignore_index=True)
    both.attrs["games"] = strong.attrs["games"] + table_bonus.attrs["games"]
    return both, rules, rule_effects.effect_rows(game, values, bot, strong, changes)


def bonus_note(game: CleverGame, values: dict[str, Any]) -> str:
    """Who plays the round-bonus values, and whether the strongest one's network was
    trained on rules without each bonus."""
    text = "paired solo games of each policy with and without each bonus; "
    if _trained_without_bonuses(game, values):
        return text + (f"{game.strongest_policy} plays {trained_on.network_words(game)}"
                       f", so every game here lies inside its training; "
                       f"{player(game.table_policy)}'s figures stand beside it")
    return text + (f"{game.strongest_policy}'s network was trained with every round bonus, so "
                   "without one it plays rules it was not trained on: "
                   f"{player(game.table_policy)}'s figures stand beside it")


def readings_note(game: CleverGame, values: dict[str, Any]) -> str:
    """How the open readings' values were measured, and by which network."""
    text = ("each open point of the rules page flipped alone, on the same games as the "
            "rules in force; an interval that holds 0 means the reading does not matter to "
            "this bot")
    text += "".join(f"; {p.label} is worth exactly 0, not played: {SOLO_INERT[p.name]}"
                    for p in _inert(game, values))
    if rules_policy(game, values) != "learned":
        return text
    return text + f"; learned plays {trained_on.network_words(game)}"


def _trained_without_bonuses(game: CleverGame, values: dict[str, Any]) -> bool:
    """Was the strongest policy's network trained on solo games without each round
    bonus?"""
    solo = {**values, "players": 1}
    without = [{**solo, f"round_{r}_bonus": False} for r in ROUND_BONUS_ROUNDS]
    return game.strongest_policy == "learned" and _trained_on_all(game, solo, without)


def most_words(richest: pd.Series, runner_up: pd.Series) -> str:
    """"the most" where the largest value's interval clears the next one's, else how near
    the next one is (a row of the round-bonus values each)."""
    if richest.ci95_low > runner_up.ci95_high:
        return "the most"
    return (f"the most on these games, within the interval of "
            f"{runner_up.variant.replace('without ', 'the bonus of ')} "
            f"({runner_up.value:.1f})")


def build_section(game: CleverGame, values: dict[str, Any], seed: int, quick: bool = False,
                  progress: bool = True) -> Section:
    """A Clever game's report section for the rule ``values``."""
    d = SimpleNamespace(game=game, values=values, seed=seed, progress=progress,
                        samples=QUICK if quick else FULL, p=game.prefix,
                        bot=game.strongest_policy)  # the bot plays all but the comparison
    _solo_data(d)
    _rule_data(d)
    _seat_data(d)
    bot = d.bot
    intro = (f"{game.title} is played in full by the engine (rounds, platter, passive "
             "picks, actions, every bonus and chain, foxes); the numbers come from the "
             "random, greedy, tuned heuristic and learned policies"
             + (f" and the {bot} policy." if bot not in POLICIES else "."))
    skill = skill_duels(game, values, bot, d.samples, seed, progress)
    who = f"the {bot} player"
    skill_figure, skill_tab = skill_parts(
        d.p, skill, who, "Simulated, each duel until its win rate is known to "
        f"+-{seats.SEAT_VERDICT.win_points:g} percentage points (95%).")
    lines = verdict(game, values, bot, d.best, d.ranked, d.assumed_rules, d.seat_table,
                    d.seated, d.seat_rows, seat_lever_words(game, values, d.seat_table, seed,
                                                            progress))
    lines.insert(2, rests_on(skill_verdict(skill, who), assumed_basis(game, values)))
    count_figure, count_tab, count_line = player_count_section_parts(
        game.id, values, seed, quick, progress,
        runs=d.seat_runs if d.seated == bot else None)
    lines.append(rests_on(count_line, assumed_basis(game, values)))
    notes = _notes(d)
    players = {name: policy_words(name, WORDS)
               for name in (*POLICIES, bot, game.table_policy, d.seated)}
    return Section(game.id, game.title, intro,
                   _solo_figures(d) + _seat_figures(d) + [skill_figure, count_figure],
                   _tables(d) + [skill_tab, count_tab], notes, _findings(d),
                   provenance(seed, game.params, values), lines,
                   glossary(players, game.params, notes))


def _solo_data(d: SimpleNamespace) -> None:
    """Solo games of every policy: their tables, the bot's areas, bonuses and ratings."""
    game, bot = d.game, d.bot
    d.runs = solo_runs(game, d.values, d.seed, d.samples,
                       tuple(dict.fromkeys((*POLICIES, bot))), d.progress)
    d.policies = pd.concat([r.tables["policies"] for r in d.runs.values()], ignore_index=True)
    d.areas = pd.concat([r.tables["areas"] for r in d.runs.values()], ignore_index=True)
    d.bonuses = d.runs[bot].tables["bonuses"]
    d.ratings = d.runs[bot].tables["ratings"]
    d.best = d.policies.set_index("policy").loc[bot]
    d.h_areas = d.areas[d.areas.policy == bot].set_index("area")["mean_score"]
    d.good_band = next(band for band in game.rating_bands if band[0] == game.report_band)
    d.good = d.ratings[d.ratings["from"] >= d.good_band[0]]["share"].sum()
    by_round = d.by_round = d.runs[bot].tables["bonus_rounds"]
    d.grouped = by_round.assign(bonus=by_round.bonus.where(
        by_round.bonus.isin(ACTIONS), "free mark")).groupby(
        ["round", "bonus"], as_index=False, sort=False)["per_game"].sum()
    foxes = by_round[by_round.bonus == "fox"].set_index("round")["per_game"]
    d.last_share = foxes.iloc[-1] / max(foxes.sum(), 1e-12)
    d.fox_points = d.best.mean_score - d.h_areas.sum()


def _rule_data(d: SimpleNamespace) -> None:
    """The assumed readings, the round-track bonuses and every rule effect a designer
    would try, each worth measured (paired)."""
    game = d.game
    strong_reads = rules_policy(game, d.values) == game.strongest_policy != game.table_policy
    d.table_bonus, d.assumed_rules = paired_rule_values(game, d.values, d.seed, d.samples,
                                                        d.progress, not strong_reads)
    d.round_value, strong_rules, d.effects = round_bonus_values(
        game, d.values, d.seed, d.samples, d.progress, d.table_bonus, strong_reads)
    if strong_reads:  # the strongest policy's bonuses and readings: one comparison
        d.assumed_rules = strong_rules
    d.ranked = d.round_value[d.round_value.policy == d.bot].sort_values("value")
    d.richest, d.runner_up = d.ranked.iloc[-1], d.ranked.iloc[-2]
    d.beside = d.table_bonus.set_index("variant").loc[d.richest.variant]


def _seat_data(d: SimpleNamespace) -> None:
    """Games of 2-4 players: win rates by seat and comebacks."""
    game, values = d.game, d.values
    d.seated = seated = seat_policy(game, values)
    d.seat_runs = {}
    d.seat_rows, comeback_rows, gains = mirror_seats(game, values, seated, (2, 3, 4),
                                                     d.samples, d.seed, d.progress,
                                                     runs=d.seat_runs)
    d.seat_table = fair_share(pd.DataFrame(d.seat_rows).drop(columns=SCORE_COLUMNS))
    d.seat_beside = ""
    if seated != game.table_policy:
        d.seat_table, d.seat_beside = table_policy_beside(game, values, seated, d.seat_table,
                                                          d.samples, d.seed, d.progress)
    d.comeback = pd.DataFrame(comeback_rows)
    d.comeback_figures, _ = comebacks_shown(
        d.comeback, f"{d.p}_comeback", "Comebacks: a player's chance to win a two-player "
        "game by how far behind the leader they are after a round (simulated, "
        f"{seated} players, 95% intervals)",
        f"two-player games of the {seated} policy", gains_words(gains))


def _solo_figures(d: SimpleNamespace) -> list[Figure]:
    """Solo play: areas, bonuses and when they fire, every rule effect a designer would
    try (the report), the round bonuses' worth by policy (the appendix)."""
    game, p, bot, best, h_areas = d.game, d.p, d.bot, d.best, d.h_areas
    top_area, low_area = h_areas.idxmax(), h_areas.idxmin()
    richest, runner_up, round_value = d.richest, d.runner_up, d.round_value
    return [
        Figure(f"{p}_area_scores", "Solo score by area and policy (simulated, 95% intervals)",
               "bar", d.areas, "area", "mean_score", "policy", "ci95_low", "ci95_high",
               xlabel="area", ylabel="mean points", appendix=True,
               labels={name: policy_words(name, WORDS) for name in d.areas.policy.unique()},
               reading=f"{BOT_NAMES[bot].capitalize()} averages {best.mean_score:.1f} points solo "
                       f"(95% CI {best.ci95_low:.1f} to {best.ci95_high:.1f}); most come from "
                       f"{top_area} ({h_areas[top_area]:.1f}), least from {low_area} "
                       f"({h_areas[low_area]:.1f}), which sets the value of each fox."),
        Figure(f"{p}_bonuses", f"Bonuses received per solo game, {bot} (simulated)", "bar",
               d.bonuses, "bonus", "per_game", None, "ci95_low", "ci95_high", xlabel="bonus",
               ylabel="per game", appendix=True,
               reading=f"{BOT_NAMES[bot].capitalize()} collects {best.foxes:.2f} foxes a game; "
                       f"{d.good:.1%} of its games rate '{d.good_band[1]}' ({d.good_band[0]}+) "
                       "or better."),
        Figure(f"{p}_bonus_rounds", "When bonuses fire: bonuses received per round, "
               f"{bot} solo (simulated)", "line", d.grouped, "round", "per_game", "bonus",
               xlabel="round", ylabel="per game", appendix=True,
               reading=f"Foxes come late: {d.last_share:.0%} of the {bot} policy's foxes arrive "
                       f"in the last round; they add {d.fox_points:.1f} points a game (total "
                       f"minus the five areas), each worth the lowest area."),
        rule_effects.effects_figure(p, bot, d.effects),
        Figure(f"{p}_round_bonus_value", "What each round-track bonus is worth (paired "
               "simulation, solo, by policy)", "bar", round_value, "variant", "value",
               "policy", "ci95_low", "ci95_high", xlabel="bonus removed",
               ylabel="points lost", appendix=True,
               labels={name: policy_words(name, WORDS) for name in round_value.policy.unique()},
               reading=f"Removing {richest.variant.replace('without ', 'the bonus of ')} "
                       f"costs {bot} {most_words(richest, runner_up)}: {richest.value:.1f} "
                       f"points (95% CI "
                       f"{richest.ci95_low:.1f} to {richest.ci95_high:.1f}; "
                       f"{player(game.table_policy)}: {d.beside.value:.1f}). "
                       f"{bonus_note(game, d.values)}."),
        replace(sheet_figure(game, bot, d.runs[bot]), appendix=True),
        distribution_figure(game, d.runs),
    ]


def _seat_figures(d: SimpleNamespace) -> list[Figure]:
    """Games of 2-4 players: scores, win rates by seat, comebacks."""
    game, values, two = d.game, d.values, d.seat_table[d.seat_table.players == "2"].set_index(
        "seat")["win_rate"]
    return [
        scores_figure(game, d.seated, d.seat_rows, d.policies, values),
        seat_figure(f"{d.p}_seat_win_rates", "Win rate by seat minus a fair share, "
                    f"{d.seated} players (simulated, 95% intervals)", d.seat_table,
                    f"With two players the first seat wins {two['seat 1']:.1%} and the "
                    f"second {two['seat 2']:.1%}. Points above the zero line win more than "
                    f"their share. Seats are played by {seat_words(game, values)}."
                    f"{d.seat_beside}"),
    ] + d.comeback_figures


def _tables(d: SimpleNamespace) -> list[Table]:
    """The section's tables (CSV and the appendix)."""
    game, values, p, bot, runs = d.game, d.values, d.p, d.bot, d.runs
    return [Table(f"{p}_policies", "Solo results by policy (simulated)", d.policies),
            Table(f"{p}_areas", "Solo score by area (simulated)", d.areas),
            Table(f"{p}_bonuses", f"Bonuses per solo game, {bot}", d.bonuses),
            Table(f"{p}_ratings", f"Rulebook solo ratings, {bot}", d.ratings),
            Table(f"{p}_round_bonus_value", "Value of the round-track bonuses", d.round_value,
                  note=bonus_note(game, values)),
            rule_effects.effects_table(p, bot, d.effects),
            Table(f"{p}_assumed_rules", f"Assumed rules read the other way: change in "
                  f"{rules_policy(game, values)}'s solo mean score (paired games)",
                  d.assumed_rules, note=readings_note(game, values)),
            Table(f"{p}_seat_win_rates", "Win rate by seat", d.seat_table,
                  percent=tuple(f"{beside_prefix(game)}_{k}"
                                for k in ("win_rate", "ci95_low", "ci95_high")),
                  hidden=("games", "fair_share")),
            Table(f"{p}_comeback", "Chance to win from behind, two players "
                  f"({d.seated}; deficits in bins of {play.COMEBACK_STEP} points, "
                  "the score as if the game ended after that round)", d.comeback,
                  percent=("win_chance", "ci95_low", "ci95_high")),
            Table(f"{p}_cells", f"Each box of the sheet: share of {bot}'s solo games "
                  "that mark it, mean round it is marked in", runs[bot].tables["cells"],
                  max_rows=12),
            Table(f"{p}_bonus_rounds", f"Bonuses received per round by kind, {bot} "
                  "solo", d.by_round),
            Table(f"{p}_first_picks", "First pick of an active turn by area and face, "
                  f"{bot} solo (share of first picks)",
                  runs[bot].tables["first_picks"]),
            Table(f"{p}_picks", "Picks, dice sent to the platter and actions by pick, "
                  f"{bot} solo", runs[bot].tables["picks"]),
            Table(f"{p}_decision_rules", f"Rules of thumb from {bot}'s solo play, each "
                  "checked against it", runs[bot].tables["decision_rules"],
                  note="check and follows: how much of the bot's own play the rule "
                  "describes (re-rolls: the share of its re-rolls; choices: its choices with "
                  "a re-roll in hand); simplest: the same for the simpler rule named beside "
                  "it; the strategy card prints these",
                  percent=("follows", "simplest"))]


def _notes(d: SimpleNamespace) -> list[str]:
    """The bot's notes, and how every figure was made."""
    game, values, bot = d.game, d.values, d.bot
    played = {p: int(r.headline["policies"][p]["games"]) for p, r in d.runs.items()}
    paired_played = {"round bonuses": d.round_value.attrs["games"],
                     "assumed rules": d.assumed_rules.attrs["games"]}
    return d.runs[bot].notes + [
        f"simulations: seed {d.seed}; {d.samples.describe(played, paired_played)}; the solo "
        f"figures but the policy comparison play {BOT_NAMES[bot]}, dicelab's strongest; "
        f"the seats and comebacks are played by {seat_words(game, values)}; the values of "
        f"the round bonuses by {bot} and {player(game.table_policy)}, those of the assumed rules "
        f"by {table_words(game, values)}",
        "the heuristic values a sheet by its score plus a linear estimate of the points "
        "still to come (fitted to simulated games by scripts/train_clever.py) and looks one "
        "roll ahead at active picks; the learned policy values it by a network trained by "
        f"self-play (scripts/train_value.py); {game.reference}"]


def _findings(d: SimpleNamespace) -> list[Finding]:
    """The section's headline findings, each naming the assumed readings it rests on."""
    game, p, bot, best, richest = d.game, d.p, d.bot, d.best, d.richest
    basis = assumed_basis(game, d.values)
    return [
        Finding(rests_on(f"The strongest bot ({bot}: {policy_words(bot, WORDS)}) averages "
                         f"{best.mean_score:.1f} points solo.", basis), best.mean_score,
                f"{p}_policies", (best.ci95_low, best.ci95_high), "points"),
        seat_finding(d.seat_table, f"{p}_seat_win_rates", f"{d.seated} players", basis),
        Finding(rests_on(f"The {richest.variant.replace('without ', '')} bonus is worth "
                         f"{most_words(richest, d.runner_up)}: {richest.value:.1f} points a "
                         f"solo game of the {bot} policy"
                         + (", whose network trained over variants without it "
                            if _trained_without_bonuses(game, d.values)
                            else ", whose network never trained without it ")
                         + f"({player(game.table_policy)}: {d.beside.value:.1f}).", basis),
                richest.value,
                f"{p}_round_bonus_value", (richest.ci95_low, richest.ci95_high), "points"),
    ]


def seat_lever_words(game: CleverGame, values: dict[str, Any], seat_table: pd.DataFrame,
                     seed: int, progress: Any) -> str:
    """The seats' lever for the verdict: measured where the rules create a seat effect
    (``rules_seat``); else why none is needed."""
    row = rules_seat(game, seat_table)
    if row is not None:
        return seat_lever(game, values, row, seed, progress)
    off = seat_table[imbalanced_seats(seat_table)]
    prefix = f"{beside_prefix(game)}_"
    if off.empty or prefix + "win_rate" not in off:
        return ""
    worst = off.loc[off.vs_fair_share.abs().idxmax()]
    return (f" In the {player(game.table_policy)} policy's own mirror games that seat wins "
            f"{worst[prefix + 'win_rate']:.1%} (95% CI {worst[prefix + 'ci95_low']:.1%} to "
            f"{worst[prefix + 'ci95_high']:.1%}), so the effect comes from the learned "
            "policy's play, not from the rules: no rule change is needed for it.")


def assumed_basis(game: CleverGame, values: dict[str, Any]) -> str:
    """The assumed readings of the rules a Clever figure rests on, in words ("" if none):
    every figure of play rests on all of them."""
    n = len(assumed_in_force(game.params, values))
    return "" if not n else (f"{n} assumed reading{'s' * (n > 1)} of the rules (the "
                             "appendix lists them)")


def verdict(game: CleverGame, values: dict[str, Any], bot: str, best: pd.Series,
            ranked: pd.DataFrame, assumed_rules: pd.DataFrame, seat_table: pd.DataFrame,
            seated: str, seat_rows: list[dict], seat_lever_text: str) -> list[str]:
    """The section's verdict: the seats, the solo score with the round bonus that moves it
    most, the assumed reading that matters most, and scores by player count."""
    points = lambda x: f"{x:+.1f} points"  # noqa: E731
    lost = ranked.assign(change=ranked.variant.str.replace("without", "no"),
                         value=-ranked.value, ci95_low=-ranked.ci95_high,
                         ci95_high=-ranked.ci95_low)
    by_count = pd.DataFrame(seat_rows).groupby("players", sort=False)["score"].mean()
    words = ", ".join(f"{by_count[n]:.0f} with {n} players" for n in by_count.index)
    rounds = ", ".join(str(game.rounds_for({**values, "players": n})) for n in (1, 2, 3, 4))
    basis = assumed_basis(game, values)
    lines = [
        seat_verdict(seat_table, f"{seated} in every seat", basis) + seat_lever_text,
        rests_on(f"Score: {bot} averages {best.mean_score:.1f} points solo (95% CI "
                 f"{best.ci95_low:.1f} to {best.ci95_high:.1f}). Of the round-track bonuses, "
                 "the one whose removal moves it most: "
                 f"{lever_words(lost, 'value', points, 'ci95_low', 'ci95_high')} (paired "
                 "games; " + ("its network trained over variants without each bonus)."
                              if _trained_without_bonuses(game, values)
                              else "its network never trained without a bonus)."), basis),
        rests_on(f"Scores by player count: a {seated} player averages {words}; tables of "
                 f"more players play fewer rounds ({rounds} rounds for 1-4 players).", basis),
    ]
    if assumed_rules is not None and len(assumed_rules):
        rules = assumed_rules.rename(columns={"variant": "change"})
        lines.append(f"Open readings of the rules: the one that moves "
                     f"{rules_policy(game, values)}'s "
                     "solo score most when read the other way: "
                     f"{lever_words(rules, 'value', points, 'ci95_low', 'ci95_high')}.")
    return lines


def sheet_figure(game: CleverGame, bot: str, run, rounds: bool = True) -> Figure:
    """The score sheet shaded by how often the bot marks each box, with the mean round
    it is marked in when ``rounds`` (the report's; a card leaves the rounds out)."""
    cells = run.tables["cells"]
    games = run.headline["policies"][bot]["games"]
    often = cells[cells.marked >= 0.5]
    by_area = often.groupby("area", sort=False)["mean_round"].mean().sort_values()
    rare = cells[cells.marked < 0.1].groupby("area", sort=False).size()
    rare_text = ", ".join(f"{n} in {area}" for area, n in rare.items()) or "none"
    return Figure(
        f"{game.prefix}_sheet", f"The score sheet as {bot} fills it solo: share of games "
        "that mark each box" + (", and rN the mean round it is marked in" if rounds else "")
        + f" ({games:,} games)",
        "sheet", cells, "x", "marked", "area",
        reading=f"Darker boxes are marked in more games. {len(often)} of the "
                f"{len(cells)} boxes are marked in at least half the games; of those, "
                f"{by_area.index[0]} fills earliest (mean round {by_area.iloc[0]:.1f}) and "
                f"{by_area.index[-1]} latest ({by_area.iloc[-1]:.1f}). Boxes reached in "
                f"fewer than 1 game in 10: {rare_text}.")
