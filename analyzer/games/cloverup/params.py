"""CloverUp's rule parameters and policy names: what the command line needs to read its
options, without the model (and so without numba)."""

from __future__ import annotations

from analyzer.params import Param

PARAMS = (
    Param("weights", "weights", (6, 5, 5, 3, 3, 1, 1),
          "relative weights of the faces 1,2,3,4,5,6,clover (the source only ranks them: "
          "1 most common ... 6 and clover rare)", size=7, assumed=True),
    Param("instant_win_points", "float", 18.0,
          "points an instant win (three clovers) counts for in single-turn analyses",
          low=0, high=1000, assumed=True),
    Param("rerolls", "int", 2, "rerolls at the start of a turn", low=0, high=10),
    Param("clover_bonus_rerolls", "int", 1, "extra rerolls for each clover rolled",
          low=0, high=5),
    Param("double_six_rule", "bool", True,
          "two sixes and a number lock the sixes and give bonus rerolls of the third die"),
    Param("double_six_bonus_rerolls", "int", 2, "bonus rerolls of the double-six rule",
          low=0, high=10),
    Param("one_clover_floor", "int", 12, "points for one clover without a high number",
          low=0, high=18),
    Param("one_clover_triples_from", "int", 5,
          "lowest number that one clover triples (7 = never)", low=1, high=7),
    Param("triple_six_effect", "bool", True,
          "three natural sixes end the round and wipe this round's points of those who "
          "already played"),
    Param("rounds", "int", 5, "rounds in a game", low=1, high=20),
    Param("players", "int", 2, "players in a game (1 = solo score study)", low=1, high=6),
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
