"""That's Pretty Clever's section of the balance report and its strategy card; every
reading quotes numbers computed here from simulations of the policies."""

from __future__ import annotations

from typing import Any

import pandas as pd

from analyzer import seats
from analyzer.games.thats_pretty_clever.simulation import COLUMNS, play_games, simulate, whatif
from analyzer.sections import Block, CheatSheet, Figure, Section, Table

POLICIES = ("random", "greedy", "heuristic")


def build_section(values: dict[str, Any], seed: int, quick: bool = False,
                  progress: bool = True) -> Section:
    games = 4_000 if quick else 40_000
    solo = {**values, "players": 1}
    runs = {p: simulate(solo, [p], games, seed, progress=progress) for p in POLICIES}
    policies = pd.concat([r.tables["policies"] for r in runs.values()], ignore_index=True)
    areas = pd.concat([r.tables["areas"] for r in runs.values()], ignore_index=True)
    bonuses = runs["heuristic"].tables["bonuses"]
    ratings = runs["heuristic"].tables["ratings"]
    best = policies.set_index("policy").loc["heuristic"]
    h_areas = areas[areas.policy == "heuristic"].set_index("area")["mean_score"]
    top_area, low_area = h_areas.idxmax(), h_areas.idxmin()
    variants = [("all round bonuses", solo, ["heuristic"])] + [
        (f"without round {r}", {**solo, f"round_{r}_bonus": False}, ["heuristic"])
        for r in range(1, 5)]
    paired = whatif(variants, games // 2, seed, progress=progress).tables["variants"]
    round_value = paired[(paired.metric == "mean_score") & paired["diff"].notna()].copy()
    round_value["value"] = -round_value["diff"]
    round_value["ci95_low"], round_value["ci95_high"] = (-round_value["diff_ci95_high"],
                                                         -round_value["diff_ci95_low"])
    round_value = round_value[["variant", "value", "ci95_low", "ci95_high"]]
    richest = round_value.sort_values("value").iloc[-1]
    seat_rows = []
    for players in (2, 3, 4):
        acc, n = play_games({**values, "players": players}, ["heuristic"] * players,
                            games // 4, seed, False, None, progress)
        for seat in range(players):
            s = seats.row_stats(acc[:, seat].sum(axis=0), COLUMNS, players)
            seat_rows.append({"players": str(players), "seat": f"seat {seat + 1}",
                              "win_rate": s["win_rate"], "ci95_low": s["win_ci95"][0],
                              "ci95_high": s["win_ci95"][1], "games": n})
    seat_table = pd.DataFrame(seat_rows)
    two = seat_table[seat_table.players == "2"].set_index("seat")["win_rate"]
    good = ratings[ratings["from"] >= 180]["share"].sum()
    figures = [
        Figure("tpc_area_scores", "Solo score by area and policy (simulated, 95% intervals)",
               "bar", areas, "area", "mean_score", "policy", "ci95_low", "ci95_high",
               xlabel="area", ylabel="mean points",
               reading=f"The tuned heuristic averages {best.mean_score:.1f} points solo "
                       f"(95% CI {best.ci95_low:.1f} to {best.ci95_high:.1f}); most come from "
                       f"{top_area} ({h_areas[top_area]:.1f}), least from {low_area} "
                       f"({h_areas[low_area]:.1f}), which sets the value of each fox."),
        Figure("tpc_bonuses", "Bonuses received per solo game, heuristic (simulated)", "bar",
               bonuses, "bonus", "per_game", None, "ci95_low", "ci95_high", xlabel="bonus",
               ylabel="per game",
               reading=f"The heuristic collects {best.foxes:.2f} foxes a game; "
                       f"{good:.1%} of its games rate 'Great result!' (180+) or better."),
        Figure("tpc_round_bonus_value", "What each round-track bonus is worth (paired "
               "simulation, heuristic solo)", "bar", round_value, "variant", "value", None,
               "ci95_low", "ci95_high", xlabel="bonus removed", ylabel="points lost",
               reading=f"Removing {richest.variant.replace('without ', 'the bonus of ')} "
                       f"costs the most: {richest.value:.1f} points (95% CI "
                       f"{richest.ci95_low:.1f} to {richest.ci95_high:.1f})."),
        Figure("tpc_seat_win_rates", "Win rate by seat, heuristic players (simulated)", "bar",
               seat_table, "players", "win_rate", "seat", "ci95_low", "ci95_high",
               xlabel="players", ylabel="win rate",
               reading=f"With two players the first seat wins {two['seat 1']:.1%} and the "
                       f"second {two['seat 2']:.1%}."),
    ]
    tables = [Table("tpc_policies", "Solo results by policy (simulated)", policies),
              Table("tpc_areas", "Solo score by area (simulated)", areas),
              Table("tpc_bonuses", "Bonuses per solo game, heuristic", bonuses),
              Table("tpc_ratings", "Rulebook solo ratings, heuristic", ratings),
              Table("tpc_round_bonus_value", "Value of the round-track bonuses", round_value),
              Table("tpc_seat_win_rates", "Win rate by seat", seat_table),
              Table("tpc_first_picks", "First pick of an active turn by area and face, "
                    "heuristic solo (share of first picks)",
                    runs["heuristic"].tables["first_picks"]),
              Table("tpc_picks", "Picks, dice sent to the platter and re-rolls by pick, "
                    "heuristic solo", runs["heuristic"].tables["picks"])]
    notes = runs["heuristic"].notes + [
        f"simulations: seed {seed}, {games:,} solo games per policy, {games // 2:,} paired "
        f"games per round-bonus variant, {games // 4:,} games per player count",
        "the heuristic values a sheet by its score plus a linear estimate of the points "
        "still to come (fitted to simulated games by scripts/train_tpc.py) and looks one "
        "roll ahead at active picks; published bots on the same rules reach 183.8 (tuned "
        "expectimax) and 250+ (neural value functions)"]
    intro = ("That's Pretty Clever is played in full by the engine (rounds, platter, passive "
             "picks, actions, every bonus and chain, foxes); the numbers come from the "
             "random, greedy and tuned heuristic policies.")
    return Section("thats-pretty-clever", "That's Pretty Clever", intro, figures, tables, notes)


def build_cheatsheet(values: dict[str, Any]) -> CheatSheet:
    """Rules of thumb from simulations of the tuned heuristic (solo)."""
    solo = {**values, "players": 1}
    run = simulate(solo, ["heuristic"], 4_000, 1, progress=False)
    areas = run.tables["areas"].set_index("area")["mean_score"]
    bonuses = run.tables["bonuses"].set_index("bonus")["per_game"]
    variants = [("all", solo, ["heuristic"])] + [
        (f"round {r}", {**solo, f"round_{r}_bonus": False}, ["heuristic"]) for r in range(1, 5)]
    paired = whatif(variants, 2_000, 1, progress=False).tables["variants"]
    lost = paired[(paired.metric == "mean_score") & paired["diff"].notna()]
    mean = run.headline["policies"]["heuristic"]["mean_score"]
    blocks = [
        Block("Where the points come from", [
            f"The tuned bot averages {mean:.0f} points solo:"] + [
            f"  {a}: {areas[a]:.0f}" for a in areas.sort_values(ascending=False).index] + [
            "Foxes pay the weakest area: keep all five growing."]),
        Block("Bonuses per game", [f"  {b}: {bonuses[b]:.1f}" for b in bonuses.index]),
        Block("Round-track bonuses", [
            f"  {row.variant}: worth {-row['diff']:.1f} points "
            f"({-row['diff_ci95_high']:.1f} to {-row['diff_ci95_low']:.1f})"
            for _, row in lost.iterrows()] + [
            "  (paired simulation: the same games with and without it)"]),
        Block("What to take first", first_pick_lines(run.tables["first_picks"])),
        Block("The platter and re-rolls", platter_lines(run.tables["picks"])),
    ]
    return CheatSheet("That's Pretty Clever strategy card",
                      "Rules of thumb from dicelab's heuristic bot (4,000 solo games).",
                      blocks, "Simulated with the weights of scripts/train_tpc.py; a stronger "
                      "policy may change these numbers.")


def first_pick_lines(first_picks: pd.DataFrame) -> list[str]:
    """The areas the bot's first picks go to, with their most common faces."""
    by_area = first_picks.groupby("area", sort=False)["share"].sum().sort_values(
        ascending=False)
    lines = ["Share of the bot's first picks by area:"]
    for area, share in by_area.items():
        faces = first_picks[first_picks.area == area].nlargest(2, "share")
        lines.append(f"  {area}: {share:.0%} (mostly {faces.face.iloc[0]}s and "
                     f"{faces.face.iloc[1]}s)")
    return lines


def platter_lines(picks: pd.DataFrame) -> list[str]:
    """Dice sent to the platter and re-rolls spent, pick by pick."""
    rows = picks.set_index("pick")
    return [
        "Dice a pick sends to the platter (the bot's average):",
        "  " + ", ".join(f"pick {k}: {rows.loc[k, 'platter_per_pick']:.1f}" for k in (1, 2)),
        "  (after pick 3 all dice left go there anyway)",
        "Re-rolls spent per game, by the pick they precede:",
        "  " + ", ".join(f"{k}: {rows.loc[k, 'rerolls_per_game']:.2f}" for k in (1, 2, 3)),
        "Picks per game: " + ", ".join(f"{k}: {rows.loc[k, 'per_game']:.1f}"
                                       for k in (1, 2, 3)) + " (of 6 each)",
    ]
