"""The strength table of a Clever game: every policy's solo mean with its 95% interval, its
paired difference from a reference policy (the same games, the same dice), per-area means
and the dice entered in each area per game (picks and +1s), foxes and the points they
scored, the lowest area, the decisions (re-rolls by pick, +1s after active and passive
picks, passive picks declined), the rating band of the mean and the
share of games in the top bands."""

from __future__ import annotations

from typing import Any, Sequence

import pandas as pd

from analyzer.games.clever import simulation
from analyzer.games.clever.game import CleverGame
from analyzer.output import Result
from analyzer.params import assumed_notes

POLICIES = ("random", "greedy", "heuristic", "learned")


def band_of(game: CleverGame, score: float) -> str:
    """The rulebook's rating band of a solo score."""
    return next(label for low, label in game.rating_bands if score >= low)


def evaluate(game: CleverGame, values: dict[str, Any], policies: Sequence[str], games: int,
             seed: int, reference: str = "heuristic", progress: bool = True) -> Result:
    """Solo games of every policy on the same seed (the same dice for game ``g`` of every
    policy as far as their choices let them meet the same rolls), then a paired run of every
    policy against ``reference`` for the differences."""
    values = {**values, "players": 1}
    rows = []
    for policy in policies:
        result = simulation.simulate(game, values, [policy], games, seed, progress=progress)
        summary = result.tables["policies"].iloc[0]
        by_area = result.tables["areas"].set_index("area")
        areas, dice = by_area["mean_score"], by_area["dice_per_game"]
        rerolls = result.tables["picks"].set_index("pick")["rerolls_per_game"]
        ratings = result.tables["ratings"]
        top = ratings[ratings["from"] >= game.report_band]["share"].sum()
        rows.append({"game": game.title, "policy": policy, "games": int(summary["seat_games"]),
                     "mean": summary["mean_score"], "ci95_low": summary["ci95_low"],
                     "ci95_high": summary["ci95_high"],
                     **{area: areas[area] for area in game.layout.AREA_NAMES},
                     **{f"{area}_dice": dice[area] for area in game.layout.AREA_NAMES},
                     "foxes": summary["foxes"], "fox_points": summary["fox_points"],
                     "lowest_area": summary["lowest_area"],
                     **{f"rerolls_pick{k}": rerolls[k] for k in (1, 2, 3)},
                     "plus_active": summary["plus_active_per_game"],
                     "plus_passive": summary["plus_passive_per_game"],
                     "passive_declined": summary["passive_declined_per_game"],
                     "band_of_mean": band_of(game, summary["mean_score"]),
                     f"share_{game.report_band}_plus": top})
    table = pd.DataFrame(rows)
    others = [p for p in policies if p != reference]
    if reference in policies and others:
        variants = [(p, values, [p]) for p in (reference, *others)]
        paired = simulation.whatif(game, variants, games, seed, progress=progress)
        table = table.merge(_differences(paired.tables["variants"], reference),
                            on="policy", how="left")
    per_game = ("foxes", *(f"{area}_dice" for area in game.layout.AREA_NAMES),
                "rerolls_pick1", "rerolls_pick2", "rerolls_pick3", "plus_active",
                "plus_passive", "passive_declined")
    table = table.round({c: 1 for c in table.columns if c not in ("games", *per_game)}
                        | {c: 2 for c in per_game} | {f"share_{game.report_band}_plus": 3})
    return Result(f"{game.title}: policy strength, solo, {games} games each",
                  headline={"games": games, "seed": seed, "reference": reference,
                            "best": table.loc[table["mean"].idxmax(), "policy"]},
                  tables={"policies": table},
                  meta=simulation.run_meta(game, values, seed, games=games),
                  notes=[f"vs_{reference}: paired differences (the same games and random "
                         f"numbers) with 95% intervals; share_{game.report_band}_plus: the "
                         f"share of games scoring {game.report_band} or more"]
                  + assumed_notes(game.params, values))


def _differences(variants: pd.DataFrame, reference: str) -> pd.DataFrame:
    """The paired score differences from the what-if table, by policy."""
    scores = variants[variants["metric"] == "mean_score"]
    return pd.DataFrame({"policy": scores["variant"],
                         f"vs_{reference}": scores["diff"].fillna(0.0),
                         f"vs_{reference}_ci95_low": scores["diff_ci95_low"].fillna(0.0),
                         f"vs_{reference}_ci95_high": scores["diff_ci95_high"].fillna(0.0)})
