"""What the fair points found by ``dicelab sly-dice tune`` do to Sly Dice's other headline
figures, against the points in force: the claim/accuse equilibrium's figures over the
tune's own public states (exact per state, paired: the same random numbers for both), and
the whole-game figures of a paired what-if (``simulation.whatif``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analyzer import stats
from analyzer.games.sly_dice import claim_game
from analyzer.games.sly_dice.fair_values import mean_worths, stratified_states
from analyzer.output import Result
from analyzer.paired import BASELINE
from analyzer.run.block_loop import over_threads
from analyzer.tune import (SIDE_EFFECTS, SideEffectRun, effect_row, effects_note, effects_table,
                           metric_words, whatif_effects)

CLAIM_EFFECTS = {  # the equilibrium's figures (``claim_game.solve_state``), in words
    "claim_value": "points a claim at the equilibrium (claimant less accuser)",
    "honest_claim_value": "points an honest claim (claimant less accuser)",
    "bluff_rate": "share of claims that are bluffs (equilibrium)",
    "accusation_rate": "share of claims accused (equilibrium)",
}
GAME_EFFECTS = {  # the what-if's game figures, in words
    "mean_score": "mean game score a player",
    "bluffs_per_game": "bluffs a game",
    "bluffs_caught_per_game": "bluffs caught a game",
    "accusations_per_game": "accusations a game",
}


def claim_figures(values: dict[str, Any], states: list[dict[str, Any]]) -> np.ndarray:
    """float64[states, len(CLAIM_EFFECTS)]: the equilibrium's figures at each public
    state, the states spread over threads."""
    def one(i: int) -> list[float]:
        state = states[i]
        game = claim_game.solve_state(values, state["common"], state["locked"],
                                      state["cards"])
        return [game.value, game.honest_value, game.bluff_rate,
                float(np.dot(game.p_claim, game.accuse))]

    return np.array(over_threads(one, len(states)), np.float64)


def claim_effects(baseline: dict[str, Any], found: dict[str, Any], n_states: int,
                  seed: int) -> tuple[list[dict[str, Any]], int]:
    """Side-effect rows of the equilibrium's figures: weighted means over the tune's
    stratified states (``fair_values.stratified_states``, the same seed for both rules),
    the difference's interval from the per-state differences; and the states used."""
    base_states, weights = stratified_states(baseline, n_states, seed)
    found_states, _ = stratified_states(found, n_states, seed)
    before = claim_figures(baseline, base_states)
    after = claim_figures(found, found_states)
    base_mean, _ = mean_worths(before, weights)
    found_mean, _ = mean_worths(after, weights)
    diff, diff_se = mean_worths(after - before, weights)
    return [effect_row(name, words, base_mean[k], found_mean[k],
                       stats.ci95(float(diff[k]), float(diff_se[k])), "sampled states")
            for k, (name, words) in enumerate(CLAIM_EFFECTS.items())], len(weights)


def side_effects(baseline: dict[str, Any], found: dict[str, Any], n_states: int,
                 run: SideEffectRun) -> tuple[pd.DataFrame, list[str], int]:
    """The side-effects table of the found points (``found``: the rules in force with
    them) against ``baseline``, its notes and the games played."""
    from analyzer.games.sly_dice.simulation import whatif

    rows, states = claim_effects(baseline, found, n_states, run.seed)
    label = "fair points"
    result = whatif([(BASELINE, baseline, run.lineup), (label, found, run.lineup)],
                    run.games, run.seed, run.threads, run.progress, run.precision)
    rows += whatif_effects(result, label,
                           lambda name: metric_words(name, run.lineup, GAME_EFFECTS))
    played = result.meta["games"]
    notes = [effects_note(played, run.seed, run.lineup),
             f"side_effects' equilibrium figures (sampled states): means over the tune's "
             f"{states} public states, exact per state, the same random "
             "numbers for both rules"]
    notes += [note for note in result.notes if note.startswith("ran until")]
    return effects_table(rows), notes, played


def with_side_effects(result: Result, values: dict[str, Any], n_states: int,
                      run: SideEffectRun) -> Result:
    """``result`` with the side-effects table of its fair points against the points in
    force (``tune_effects.side_effects``), its notes and games."""
    found = {**values, **result.headline["values"]}
    table, notes, played = side_effects(values, found, n_states, run)
    result.tables[SIDE_EFFECTS] = table
    result.notes += notes
    result.meta.update(side_effect_games=played, lineup=list(run.lineup))
    return result
