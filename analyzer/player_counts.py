"""Every player count of a game, each seat played by the game's strongest player: the mean
score and its spread, the margin between first and second place, the tie rate and the
decisions a player makes a game, each with its 95% interval; the player count to
recommend, with its reason; and the report's figure, table and verdict of them.

The margins, ties and decisions come from the contest record every game's block kernel
keeps (``kernels.accumulate.add_contest``; ``seats.game_contest``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pandas as pd

from analyzer import seats
from analyzer.errors import UserError
from analyzer.output import Result
from analyzer.params import assumed_notes
from analyzer.sections import Figure, Table
from analyzer.verdicts import MATTERS, imbalanced

PRECISION = seats.Precision(points=1.0, win_points=2.0)  # each count: the mean score within
# +-1 point and every seat's win rate within +-2 percentage points (95%)


@dataclass(frozen=True)
class Plan:
    """How a game's player counts are played: ``policy`` (its strongest player) in every
    seat at each of ``counts``; ``play(values, players, games, seed, precision, progress)``
    gives ``(accumulator int64[slot, seat, column], games played)``; the accumulator's
    ``columns``; ``params`` (its rules); what its ``decisions`` are, in words; the most
    games of a count for the report (``cap``; ``quick_cap`` in a quick report); ``who``
    plays, in words for the report; ``more_notes(values)``: the game's own notes."""

    game_id: str
    title: str
    prefix: str  # file names of the report's figure and table
    policy: str
    counts: tuple[int, ...]
    play: Callable[..., tuple[np.ndarray, int]]
    columns: seats.Columns
    params: tuple
    decisions: str
    cap: int
    quick_cap: int
    who: str
    more_notes: Callable[[dict[str, Any]], list[str]] = lambda values: []


def plan_of(game: Any) -> Plan:
    """The ``Plan`` of ``game``: a game id (``analyzer.registry``), its loaded module, or
    a Clever game's description (``CleverGame``: one playing a network of its own, say)."""
    from analyzer.registry import GAMES, get_game

    if hasattr(game, "strongest_policy"):
        return _clever(game)
    if not isinstance(game, str):
        game = next((spec.id for spec in GAMES.values()
                     if spec.module == getattr(game, "__name__", None)), repr(game))
    spec = get_game(game)
    if spec.id == "cloverup":
        return _cloverup()
    if spec.id == "sly-dice":
        return _sly_dice()
    return _clever(spec.load().GAME)


def _cloverup() -> Plan:
    from analyzer.games.cloverup.params import PARAMS
    from analyzer.games.cloverup.simulation import COLUMNS, lineup_of, play_games

    def play(values, players, games, seed, precision, progress):
        return play_games({**values, "players": players}, lineup_of(["optimal"], players),
                          games, seed, False, precision, progress)

    return Plan("cloverup", "CloverUp", "cloverup", "optimal", tuple(range(2, 7)), play,
                COLUMNS, PARAMS, "keep or reroll choices (the policy asked after each roll "
                "that leaves the turn open; a game's turns are drawn from their exact "
                "outcomes, and their decisions from the exact distribution given the "
                "outcome); a game an instant win ended is no tie", 100_000, 20_000,
                "every player playing for the highest average score")


def _sly_dice() -> Plan:
    from analyzer.games.sly_dice.params import PARAMS
    from analyzer.games.sly_dice.runs import COLUMNS, play_games
    from analyzer.games.sly_dice.simulation import lineup_of

    def play(values, players, games, seed, precision, progress):
        vals = {**values, "players": players}
        return play_games(vals, lineup_of(["equilibrium"], vals), games, seed, False,
                          precision, progress)

    return Plan("sly-dice", "Sly Dice", "sly_dice", "equilibrium", (2, 3, 4), play,
                COLUMNS, PARAMS, "keep or reroll choices, claims, Higher or Lower "
                "calls and choices to accuse a claim or let it stand", 8_192, 1_024,
                "every player at the exact bluffing and accusing equilibrium")


def _clever(game: Any) -> Plan:
    from analyzer.games.clever.simulation import COLUMNS, play_games

    def play(values, players, games, seed, precision, progress):
        return play_games(game, {**values, "players": players},
                          [game.strongest_policy] * players, games, seed, False, precision,
                          progress)

    return Plan(game.id, game.title, game.prefix, game.strongest_policy, (1, 2, 3, 4), play,
                COLUMNS, game.params, "active picks, passive picks taken or "
                "declined, and the re-rolls, +1s and returns spent", 8_192, 512,
                f"every player the {game.strongest_policy} player",
                lambda values: _network_notes(game, values))


def _network_notes(game: Any, values: dict[str, Any]) -> list[str]:
    """The network ``learned`` plays, and the player counts whose games (on these rules)
    it was not trained on."""
    from analyzer.games.clever.trained_on import differences, network_note

    if game.strongest_policy != "learned":
        return []
    off = [n for n in (1, 2, 3, 4) if differences(game, {**values, "players": n})]
    return network_note(game, values) + (
        [f"learned was not trained on these rules in games of {_counts(off)}: its figures "
         "there are those of a player off its training"] if off else [])


def check_assignments(assignments: Any) -> None:
    """``--set players=N`` is one line: the command plays every player count."""
    if any(a.partition("=")[0].strip().lower() == "players" for a in assignments):
        raise UserError("--set players: this command plays every player count; leave "
                        "players out")


def stop_rule(names: list[str], cols: seats.Columns, precision: seats.Precision
              ) -> seats.StopRule:
    """The driver's stop callback for a mirror match at ``precision`` (the pipeline's
    checks, ``seats.precise_enough``): the mean score over every seat within
    ``precision.points`` and each seat's win rate within ``precision.win_points``."""
    parts = [p for p in (seats.Precision(points=precision.points),
                         seats.Precision(win_points=precision.win_points, by_seat=True))
             if seats.as_precision(p) is not None]

    def check(acc: np.ndarray, done: int) -> bool:
        return all(seats.precise_enough(acc, names, cols, p) for p in parts)

    def words(acc: np.ndarray, done: int) -> str:
        return seats.width_words(seats.widest(acc, names, cols)[0],
                                 seats.widest(acc, names, cols, True)[1])

    return seats.StopRule(check, words)


def count_row(acc: np.ndarray, played: int, cols: seats.Columns, players: int
              ) -> dict[str, Any]:
    """One player count's row from its mirror match's accumulator ``acc`` (int64[slot,
    seat, column]): mean score, its spread (sd), the winning margin (first place's score
    minus second's) and the margin per sd, the tie rate, the decisions a player makes a
    game, each with its 95% interval, the seat furthest from a fair share, and the games.
    Solo: no margin, tie or seat figures (nan)."""
    every = acc.reshape(-1, acc.shape[-1]).sum(axis=0)
    s = seats.row_stats(every, cols, players)
    sd, sd_ci = seats.sd_ci95(every, cols)
    contest = seats.game_contest(acc, cols, players)
    nan = float("nan")
    margin = contest.get("win_margin", nan)
    margin_ci = contest.get("win_margin_ci95", [nan, nan])
    tie_ci = contest.get("tie_ci95", [nan, nan])
    return {"players": players, "mean_score": s["mean_score"], "ci95_low": s["ci95"][0],
            "ci95_high": s["ci95"][1], "sd": sd, "sd_ci95_low": sd_ci[0],
            "sd_ci95_high": sd_ci[1], "win_margin": margin,
            "win_margin_ci95_low": margin_ci[0], "win_margin_ci95_high": margin_ci[1],
            "margin_per_sd": margin / sd if sd > 0 else nan,
            "tie_rate": contest.get("tie_rate", nan), "tie_ci95_low": tie_ci[0],
            "tie_ci95_high": tie_ci[1], "decisions": contest["decisions"],
            "decisions_ci95_low": contest["decisions_ci95"][0],
            "decisions_ci95_high": contest["decisions_ci95"][1],
            **seat_balance(acc, cols, players), "games": played}


def seat_balance(acc: np.ndarray, cols: seats.Columns, players: int) -> dict[str, Any]:
    """The seat whose win rate is furthest from a fair share (1/players): ``worst_seat``,
    its ``seat_gap_pp`` (win rate minus the share, in percentage points) with its 95%
    interval, and ``seat_imbalance`` (beyond the noise and at least ``verdicts.MATTERS``
    from the share)."""
    nan = float("nan")
    if players < 2:
        return {"worst_seat": None, "seat_gap_pp": nan, "seat_gap_pp_ci95_low": nan,
                "seat_gap_pp_ci95_high": nan, "seat_imbalance": False}
    best = None
    for seat in range(players):
        s = seats.row_stats(acc[:, seat].sum(axis=0), cols, players)
        gap = s["win_rate"] - 1 / players
        if best is None or abs(gap) > abs(best[1]):
            best = (seat + 1, gap, [w - 1 / players for w in s["win_ci95"]])
    seat, gap, (low, high) = best
    return {"worst_seat": seat, "seat_gap_pp": 100 * gap, "seat_gap_pp_ci95_low": 100 * low,
            "seat_gap_pp_ci95_high": 100 * high, "seat_imbalance": imbalanced(gap, low, high)}


def player_count_table(game: Any, values: dict[str, Any], seed: int,
                       precision: seats.Precision | None = PRECISION, cap: int | None = None,
                       progress: bool = True,
                       runs: dict[int, tuple[np.ndarray, int]] | None = None) -> pd.DataFrame:
    """Every player count of ``game`` (``plan_of``) on the rules ``values``, its strongest
    player in every seat, each count until ``precision`` (``stop_rule``; None: exactly
    ``cap`` games) or ``cap`` games (None: the report's, ``Plan.cap``): a row of
    ``count_row`` each, and ``precision_reached``. ``runs``: mirror matches already played
    by the strongest player (``{players: (accumulator, games)}``, e.g. a report's seat
    games), read instead of playing those counts again."""
    plan = plan_of(game)
    cap = plan.cap if cap is None else cap
    rows = []
    for players in plan.counts:
        names = [plan.policy] * players
        stop = None if precision is None else stop_rule(names, plan.columns, precision)
        if runs and players in runs:
            acc, played = runs[players]
        else:
            acc, played = plan.play(values, players, cap, seed, stop, progress)
        reached = stop is None or stop.check(acc, played)
        rows.append({**count_row(acc, played, plan.columns, players),
                     "precision_reached": reached})
    return pd.DataFrame(rows)


def recommend(table: pd.DataFrame) -> tuple[int | None, str]:
    """The player count to recommend from a ``player_count_table`` and its reason, one
    sentence. The rule: among the counts of two or more players without a seat
    imbalance (``seat_imbalance``: a seat's win rate beyond the noise and at least
    ``verdicts.MATTERS`` from a fair share), the one with the closest games, the smallest
    mean winning margin for the spread of a player's score (``margin_per_sd``): there the
    lead is least settled by the end, while no seat has the edge. When every count has a
    seat imbalance, the closest of them all, said so. None where no count has two or
    more players. Reads ``players``, ``win_margin`` with its interval, ``sd``,
    ``margin_per_sd``, ``tie_rate`` and ``seat_imbalance``."""
    rows = table[(table.players >= 2) & table.margin_per_sd.notna()]
    if rows.empty:
        return None, "no count of two or more players to compare"
    fair = rows[~rows.seat_imbalance.astype(bool)]
    pool = fair if len(fair) else rows
    best = pool.loc[pool.margin_per_sd.idxmin()]
    others = pool[pool.players != best.players].sort_values("margin_per_sd")
    where = "among the counts without a seat imbalance"
    if len(fair) < len(rows):
        where = (f"{where} (there is one at {_counts(rows[rows.seat_imbalance.astype(bool)])})"
                 if len(fair) else "though every count has a seat imbalance")
    against = "; ".join(f"{r.margin_per_sd:.2f} at {int(r.players)}"
                        for r in others.itertuples()) + " players"
    noise = _within_noise(best, others)
    reason = (f"the closest games {where}: first place leads second by "
              f"{best.win_margin:.1f} points (95% CI {best.win_margin_ci95_low:.1f} to "
              f"{best.win_margin_ci95_high:.1f}), {best.margin_per_sd:.2f} of a player's "
              f"score spread (sd {best.sd:.1f})" + (f", against {against}" if len(others) else "")
              + noise + f", and {best.tie_rate:.1%} of games end with the top score shared.")
    return int(best.players), reason


def _counts(rows: pd.DataFrame | list[int]) -> str:
    """Player counts (of ``rows`` of a table, or a list) in words: "2 and 4 players"."""
    counts = [str(int(n)) for n in (rows.players if isinstance(rows, pd.DataFrame) else rows)]
    words = " and ".join([", ".join(counts[:-1]), counts[-1]]) if len(counts) > 1 else counts[0]
    return words + (" player" if counts == ["1"] else " players")


def _within_noise(best: pd.Series, others: pd.DataFrame) -> str:
    """Words on the counts whose margin per sd is within the noise of ``best``'s (their
    intervals, the margin's over the sd, overlap), or ""."""
    low = best.win_margin_ci95_low / best.sd
    high = best.win_margin_ci95_high / best.sd
    close = others[others.win_margin_ci95_low / others.sd <= high]
    close = close[close.win_margin_ci95_high / close.sd >= low]
    if close.empty:
        return ""
    return f" ({_counts(close)} within the noise of it)"


COLUMN_WORDS = ("win_margin: first place's final score minus second place's (0 when the top "
                "score is shared), margin_per_sd: that margin over the spread (sd) of a "
                "player's final score, tie_rate: games whose top score is shared, "
                "decisions: a player's decisions a game, seat_gap_pp: the win rate of the "
                "seat furthest from a fair share (worst_seat) minus that share, in "
                "percentage points; seat_imbalance: beyond the noise and at least "
                f"{100 * MATTERS:.0f} points")


def _widths(precision: seats.Precision) -> str:
    """The widths a run stops at, in words ("" where neither is set)."""
    parts = []
    if precision.points is not None:
        parts.append(f"the mean score was within +-{precision.points:g} point"
                     f"{'s' * (precision.points != 1)}")
    if precision.win_points is not None:
        parts.append(f"every seat's win rate within +-{precision.win_points:g} percentage "
                     "points")
    return " and ".join(parts)


def notes(plan: Plan, values: dict[str, Any], precision: seats.Precision | None, cap: int,
          table: pd.DataFrame, who: str = "") -> list[str]:
    """A player-count table's notes: who plays (``who``; else the policy's name in every
    seat), how long each count ran, the columns and the decisions counted, in words, then
    the game's own notes and the assumed rules in force."""
    played = ", ".join(f"{int(r.players)}: {int(r.games):,}" for r in table.itertuples())
    widths = (f"until {_widths(precision)} (95%), at most {cap:,} games"
              if precision is not None and _widths(precision) else f"{cap:,} games")
    short = table[~table.precision_reached.astype(bool)]
    capped = f"; the cap came first at {_counts(short)}" if len(short) else ""
    who = who or f"{plan.policy} in every seat"
    lines = [f"{who}; each player count played {widths} (games by player count: "
             f"{played}){capped}", COLUMN_WORDS, f"decisions counted: {plan.decisions}"]
    return lines + plan.more_notes(values) + assumed_notes(plan.params, values, ("players",))


def players_result(game: Any, values: dict[str, Any], seed: int, cap: int,
                   precision: seats.Precision | None = PRECISION, threads: int | None = None,
                   progress: bool = True) -> Result:
    """``dicelab GAME players``: the player-count table (``player_count_table``), the
    recommended count and its reason (``recommend``) in the headline, and the notes."""
    from analyzer.output import run_meta
    from analyzer.run import driver

    plan = plan_of(game)
    used = driver.set_threads(threads)
    table = player_count_table(game, values, seed, precision, cap, progress)
    players, reason = recommend(table)
    return Result(f"{plan.title}: every player count, {plan.policy} in every seat",
                  headline={"recommended_players": players, "reason": reason},
                  tables={"player_counts": table},
                  notes=notes(plan, values, precision, cap, table),
                  meta=run_meta(plan.game_id, plan.params, values, seed, games=cap,
                                threads=used, policy=plan.policy))


def player_count_section_parts(game_id: str, values: dict[str, Any], seed: int,
                               quick: bool = False, progress: bool = True,
                               runs: dict[int, tuple[np.ndarray, int]] | None = None
                               ) -> tuple[Figure, Table, str]:
    """The report's part on player counts: a figure (in the appendix) of the winning
    margin at each count, the table, and the verdict sentence "Player count: recommended
    N: reason". Each count plays to ``PRECISION`` with the report's cap (``Plan.cap``;
    quick: ``Plan.quick_cap``); ``runs`` (``{players: (accumulator, games)}``: mirror
    matches of the strongest player the report played already, e.g. its seat games) are
    read instead of played again."""
    plan = plan_of(game_id)
    cap = plan.quick_cap if quick else plan.cap
    table = player_count_table(game_id, values, seed, PRECISION, cap, progress, runs)
    players, reason = recommend(table)
    counts = f"{plan.counts[0]}-{plan.counts[-1]}"
    verdict = (f"Player count: of {counts} players, recommended {players}: {reason}"
               if players is not None else f"Player count: no recommendation: {reason}.")
    shown = table[table.players >= 2].assign(players=lambda t: t.players.astype(str))
    figure = Figure(f"{plan.prefix}_player_counts",
                    f"How close games are at each player count, {plan.who} (simulated, "
                    "95% intervals)", "bar", shown, "players", "win_margin",
                    err_low="win_margin_ci95_low", err_high="win_margin_ci95_high",
                    xlabel="players at the table",
                    ylabel="first place's score minus second's (points)",
                    reading=_reading(shown, players, reason), appendix=True)
    note = "; ".join(notes(plan, values, PRECISION, cap, table, plan.who)[:3])
    return figure, Table(f"{plan.prefix}_player_counts", f"Player counts, {plan.who} "
                         "(simulated)", table, note=note, hidden=HIDDEN), verdict


HIDDEN = ("ci95_low", "ci95_high", "sd_ci95_low", "sd_ci95_high", "tie_ci95_low",
          "tie_ci95_high", "decisions_ci95_low", "decisions_ci95_high", "worst_seat",
          "seat_gap_pp_ci95_low", "seat_gap_pp_ci95_high", "precision_reached")  # the CSV
# has them; the appendix prints the rest


def _reading(shown: pd.DataFrame, players: int | None, reason: str) -> str:
    """The figure's reading: each count's margin, sd, ties and decisions, then the
    recommendation."""
    each = "; ".join(f"{r.players} players: {r.win_margin:.1f} points (sd {r.sd:.1f}), "
                     f"{r.tie_rate:.1%} ties, {r.decisions:.1f} decisions a player a game"
                     for r in shown.itertuples())
    head = f"Recommended: {players} players, " if players is not None else ""
    return f"First place's margin over second by player count ({each}). {head}{reason}"
