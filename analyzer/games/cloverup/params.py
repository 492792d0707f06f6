"""CloverUp's rule parameters and policy names: what the command line needs to read its
options, without the model (and so without numba)."""

from __future__ import annotations

from analyzer.params import Param, Words

PARAMS = (
    Param("weights", "weights", (6, 5, 5, 3, 3, 1, 1),
          "relative weights of the faces 1,2,3,4,5,6,clover (the source only ranks them: "
          "1 most common ... 6 and clover rare)", size=7, assumed=True,
          plain=Words.weights("face weights", "face weights {}", even="fair dice")),
    Param("instant_win_points", "float", 18.0,
          "points an instant win (three clovers) counts for in single-turn analyses",
          low=0, high=1000, assumed=True,
          plain=Words.number("points for an instant win", "an instant win worth {} point{s}")),
    Param("rerolls", "int", 2, "rerolls at the start of a turn", low=0, high=10,
          plain=Words.number("re-rolls a turn", "{} re-roll{s} a turn", {0: "no re-rolls"})),
    Param("clover_bonus_rerolls", "int", 1, "extra rerolls for each clover rolled",
          low=0, high=5, plain=Words.number("re-rolls a clover gives", "{} re-roll{s} a clover",
                                            {0: "no re-roll for a clover"})),
    Param("double_six_rule", "bool", True,
          "two sixes and a number lock the sixes and give bonus rerolls of the third die",
          plain=Words.switch("the double-six rule", "the double-six rule",
                             "no double-six rule")),
    Param("double_six_bonus_rerolls", "int", 2, "bonus rerolls of the double-six rule",
          low=0, high=10, plain=Words.number(
              "double-six bonus re-rolls", "{} double-six bonus re-roll{s}",
              {0: "no double-six bonus re-rolls"})),
    Param("one_clover_floor", "int", 12, "points for one clover without a high number",
          low=0, high=18, plain=Words.number(
              "points for one clover with low dice",
              "one clover with low dice worth {} point{s}")),
    Param("one_clover_triples_from", "int", 5,
          "lowest number that one clover triples (7 = never)", low=1, high=7,
          plain=Words.number("the numbers one clover triples", "one clover triples {} and up", {
              1: "one clover triples any number", 6: "one clover triples a 6 only",
              7: "one clover triples nothing"})),
    Param("triple_six_effect", "bool", True,
          "three natural sixes end the round and wipe this round's points of those who "
          "already played",
          plain=Words.switch("the triple-six wipe-out", "three sixes wipe the round",
                             "three sixes wipe nothing")),
    Param("rounds", "int", 5, "rounds in a game", low=1, high=20,
          plain=Words.number("rounds in a game", "{} round{s}")),
    Param("players", "int", 2, "players in a game (1 = solo score study)", low=1, high=6,
          plain=Words.number("players in a game", "{} player{s}", {1: "a solo game"})),
)

POLICY_HELP = {
    "optimal": "highest expected turn score (exact solver)",
    "reach:T": "highest chance of a turn worth at least T points, T = 3..18",
    "win": "highest chance of winning a two-player game (exact game solver)",
    "threshold:K": "reroll every number die below K, K = 1..7",
    "never": "never reroll",
}
GAME_ONLY = ("instant_win_points",)  # not used by whole-game results: an instant win wins


def accepted_policies() -> str:
    return ", ".join(POLICY_HELP)
