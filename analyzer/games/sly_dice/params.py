"""Sly Dice's rule parameters, card points and policy names: what the command line needs
to read its options, without the model (and so without numba)."""

from __future__ import annotations

from analyzer.params import Param, Words

ASSUMED_POINTS = {
    "three-of-a-kind": 10, "four-of-a-kind": 20, "five-of-a-kind": 40, "full-house": 15,
    "three-pairs": 20, "small-straight": 20, "large-straight": 30, "sixteen-or-lower": 15,
    "twenty-six-or-higher": 15, "odds": 30, "evens": 30, "higher-or-lower": 20,
}

CARD_WORDS = {  # each fixed card as a person names it: "points for a full house"
    "three-of-a-kind": "a three of a kind", "four-of-a-kind": "a four of a kind",
    "five-of-a-kind": "a five of a kind", "full-house": "a full house",
    "three-pairs": "three pairs", "small-straight": "a small straight",
    "large-straight": "a large straight", "sixteen-or-lower": "a sum of 16 or less",
    "twenty-six-or-higher": "a sum of 26 or more", "odds": "all odd dice",
    "evens": "all even dice", "higher-or-lower": "Higher or Lower",
}


def points_param(card: str) -> str:
    """The rule-parameter name of a card's points, e.g. ``points_full_house``."""
    return "points_" + card.replace("-", "_")


PARAMS = (
    Param("players", "int", 2, "players in a game", low=2, high=4,
          plain=Words.number("players in a game", "{} player{s}")),
    Param("rounds", "int", 0, "rounds in a game; 0 = by player count (8, 9, 8 for 2, 3, 4)",
          low=0, high=17, plain=Words.number("rounds in a game", "{} round{s}",
                                             {0: "rounds by player count"})),
    Param("rerolls", "int", 2, "rerolls in the rolling phase (each locks one die)",
          low=0, high=2, plain=Words.number("re-rolls a round", "{} re-roll{s} a round",
                                            {0: "no re-rolls"})),
    Param("bluff_bonus", "int", 10, "worth of the first Successful Bluffing card", low=0,
          high=100, plain=Words.number(
              "points for a first successful bluff", "a first successful bluff worth {} point{s}",
              {0: "nothing for a first successful bluff"})),
    Param("bluff_bonus_step", "int", 5, "each further Successful Bluffing card is worth this "
          "much more", low=0, high=100, plain=Words.number(
              "the rise for each further bluff", "each further bluff worth {} more",
              {0: "every bluff worth the same"})),
    Param("false_accusation_penalty", "int", 10, "penalty of the first False Accusation card",
          low=0, high=100, plain=Words.number(
              "the cost of a first false accusation", "a first false accusation costs {} "
              "point{s}", {0: "a first false accusation costs nothing"})),
    Param("false_accusation_step", "int", 5, "each further False Accusation card costs this "
          "much more", low=0, high=100, plain=Words.number(
              "the rise for each further false accusation",
              "each further false accusation costs {} more",
              {0: "every false accusation costs the same"})),
) + tuple(
    Param(points_param(card), "float", float(value),
          f"points of the {card} card (not found in any public source: a placeholder)",
          low=0, high=1000, assumed=True, plain=Words.number(
              f"points for {CARD_WORDS[card]}", f"{CARD_WORDS[card]} worth {{}} point{{s}}"))
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
