"""How long a CloverUp game lasts: an instant win ends the game at once and three natural
sixes end the round (rules: Instant win; Triple six), so a game may play fewer than
players x rounds turns. Exact, for players who all play one single-turn policy."""

from __future__ import annotations

from typing import Any

import pandas as pd


def length_row(players: int, rounds: int, p_instant: float, p_triple_six: float,
               cuts_round: bool) -> dict[str, Any]:
    """The exact game length of ``players`` x ``rounds`` turns when every turn ends in an
    instant win with chance ``p_instant`` and in three natural sixes with chance
    ``p_triple_six`` (which end the round when ``cuts_round``): the chance an instant win
    ends the game, and the expected turns played in all."""
    stop = p_instant + (p_triple_six if cuts_round else 0.0)  # a turn after which the round ends
    reach = [(1.0 - stop) ** seat for seat in range(players)]  # chance each seat's turn is played
    ends_now = sum(r * p_instant for r in reach)  # an instant win within one round
    turns_per_round = sum(reach)
    alive = 1.0
    turns = 0.0
    for _ in range(rounds):
        turns += alive * turns_per_round
        alive *= 1.0 - ends_now
    return {"players": str(players), "rounds": rounds, "full_turns": players * rounds,
            "p_instant_win_ends_game": 1.0 - alive, "expected_turns": turns}


def game_lengths(values: dict[str, Any], p_instant: float, p_triple_six: float,
                 counts: range = range(2, 7)) -> pd.DataFrame:
    """``length_row`` for each player count of ``counts`` on the rules ``values``."""
    return pd.DataFrame([length_row(n, values["rounds"], p_instant, p_triple_six,
                                    bool(values["triple_six_effect"])) for n in counts])
