"""Sly Dice's rule parameters, card points and policy names: what the command line needs
to read its options, without the model (and so without numba)."""

from __future__ import annotations

from analyzer.params import Param

ASSUMED_POINTS = {
    "three-of-a-kind": 10, "four-of-a-kind": 20, "five-of-a-kind": 40, "full-house": 15,
    "three-pairs": 20, "small-straight": 20, "large-straight": 30, "sixteen-or-lower": 15,
    "twenty-six-or-higher": 15, "odds": 30, "evens": 30, "higher-or-lower": 20,
}


def points_param(card: str) -> str:
    """The rule-parameter name of a card's points, e.g. ``points_full_house``."""
    return "points_" + card.replace("-", "_")


PARAMS = (
    Param("players", "int", 2, "players in a game", low=2, high=4),
    Param("rounds", "int", 0, "rounds in a game; 0 = by player count (8, 9, 8 for 2, 3, 4)",
          low=0, high=17),
    Param("rerolls", "int", 2, "rerolls in the rolling phase (each locks one die)",
          low=0, high=2),
    Param("bluff_bonus", "int", 10, "worth of the first Successful Bluffing card", low=0,
          high=100),
    Param("bluff_bonus_step", "int", 5, "each further Successful Bluffing card is worth this "
          "much more", low=0, high=100),
    Param("false_accusation_penalty", "int", 10, "penalty of the first False Accusation card",
          low=0, high=100),
    Param("false_accusation_step", "int", 5, "each further False Accusation card costs this "
          "much more", low=0, high=100),
) + tuple(
    Param(points_param(card), "float", float(value),
          f"points of the {card} card (not found in any public source: a placeholder)",
          low=0, high=1000, assumed=True)
    for card, value in ASSUMED_POINTS.items()
)

POLICY_HELP = {
    "honest": "claims its best true card or Higher or Lower; never accuses (a player must "
              "claim: with nothing true and Higher or Lower scored it makes a forced false "
              "claim, about 5% of its claims)",
    "bluffer:B": "bluffs when its best honest option is worth less than B points",
    "accuser:A": "honest claims; accuses when a claim's plausibility is below A (0..1)",
    "sly:B:A": "bluffer:B and accuser:A at once (A may be 'rational')",
    "rational": "honest claims; accuses when that gains expected points on its opponents' "
                "average, from the exact chance that the claim holds given how the claimant "
                "rolls and claims (it assumes it knows each opponent's policy)",
    "stable": "the claim/accuse strategy found by iterated best response (see equilibrium)",
    "equilibrium": "claims and accuses as the exact claim/accuse equilibrium of each public "
                   "state does (a mixed strategy; one round between the claimant and the "
                   "next player, as `sly-dice equilibrium` solves it); rolls as the others",
}


def accepted_policies() -> str:
    return ", ".join(POLICY_HELP)
