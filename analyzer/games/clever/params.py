"""The rule parameters both Clever games share: players and rounds, the round-track
bonuses, the open points both rules pages list and the tie rule, and the rules a designer
varies (the actions at the start, what a fox is worth). Each game passes the rules-page
sections its help texts cite."""

from __future__ import annotations

from collections.abc import Callable

from analyzer.params import Param, Words, choice_param, switch_param

SEARCHED_ROUNDS = (4, 8)  # the round counts the learned player trains on, and tune tries
MOST_AT_START = 3  # the most re-rolls or +1s a designer may give every player at the start
MOST_FOX_POINTS = 50  # the most points a fixed fox may be worth (fox_value)
# where the engine departs from the rules pages' recommendation on an open point
RULINGS = (
    "bonuses fired together: the policy places each free mark but does not choose their "
    "order (the rules page recommends letting it); bonus_order sets the order",
)


# Open points the engine never reads in a solo game of the valued policies (greedy,
# heuristic, learned; ``kernels.clever.play``), so that there they are worth exactly 0:
SOLO_INERT = {
    "final_plus": "a solo game has no window for +1s after its last turn (only a game of "
                  "several players does)",
    "wasted_pick": "only the random policy ever picks a die it cannot enter",
}
_SOLO_TURN = "only a solo game has the solo passive turn"
# Every parameter no game of the valued policies reads at some player counts: those
# counts, and why. There the value networks see it at its default
# (``rule_inputs.input_bits``), so that changing it changes no game of theirs, ``learned``
# included.
UNREAD_AT = {
    "wasted_pick": ((1, 2, 3, 4), SOLO_INERT["wasted_pick"]),
    "final_plus": ((1,), SOLO_INERT["final_plus"]),
    "ties": ((1,), "a solo game has no one to tie with"),
    "solo_ties": ((2, 3, 4), _SOLO_TURN),
    "solo_fallback": ((2, 3, 4), _SOLO_TURN),
}


def unread_at(players: int) -> dict[str, str]:
    """The parameters no valued policy's game of ``players`` players reads, and why."""
    return {name: why for name, (counts, why) in UNREAD_AT.items() if players in counts}


def shared_params(round_bonuses: tuple[tuple[int, str], ...], sections: dict[str, str],
                  solo_tie_order: str) -> tuple[Param, ...]:
    """``round_bonuses``: (round, what its bonus is); ``sections``: the rules-page section
    of each open point (keys: the parameter names); ``solo_tie_order``: the dice in colour
    order, for the ``solo_ties`` help."""
    def open_point(name: str, text: str) -> str:
        return f"UNCONFIRMED (section {sections[name]}): {text}"

    return (_count_params() + _round_params(round_bonuses) + _turn_points(open_point)
            + _solo_and_plus_points(open_point, solo_tie_order) + (
        choice_param("ties", f"tied totals (section {sections['ties']}): the best single "
                     "area wins, then the win is shared; or shared at once", "tied totals",
                     best_area="ties broken by the best area", shared="ties shared at once"),
    ))


def designer_params(sections: dict[str, str]) -> tuple[Param, ...]:
    """The rules a designer varies that the rulebooks settle (both games: each player
    starts with no action circled, and each fox is worth the lowest area), at the
    rulebooks' values by default; ``sections``: the rules-page sections of each
    (keys: the parameter names)."""
    def starting(name: str, what: str, one: str, label: str) -> Param:
        return Param(name, "int", 0, f"{what} every player has circled before round 1 "
                     f"(section {sections[name]}): 0 as the rulebook (the round track gives "
                     "the first); they count among the track's circles", low=0,
                     high=MOST_AT_START, plain=Words.number(
                         label, f"{{}} {one}{{s}} at the start", {0: f"no {one} at the start"}))

    return (
        starting("start_rerolls", "re-rolls", "re-roll", "re-rolls at the start"),
        starting("start_plus_ones", "+1 actions", "+1 action", "+1 actions at the start"),
        Param("fox_value", "int", 0, f"what each fox scores at the end (section "
              f"{sections['fox_value']}): 0 = the lowest area's score, as the rulebook; N = "
              "N points a fox, whatever the areas score", low=0, high=MOST_FOX_POINTS,
              plain=Words.number("what a fox is worth", "each fox worth {} point{s}",
                                 {0: "each fox worth the lowest area"})),
    )


def _count_params() -> tuple[Param, ...]:
    """The players and the rounds."""
    return (
        Param("players", "int", 1, "players in a game (1 = solo)", low=1, high=4,
              plain=Words.number("players in a game", "{} player{s}", {1: "a solo game"})),
        Param("rounds", "int", 0, "rounds in a game; 0 = by player count (6, 6, 5, 4 for "
              "1-4); tune tries 4 to 8, the round counts the learned player was trained on",
              low=0, high=12, search=SEARCHED_ROUNDS, plain=Words.number(
                  "rounds in a game", "{} round{s}", {0: "rounds by player count"})),
    )


def _round_params(round_bonuses: tuple[tuple[int, str], ...]) -> tuple[Param, ...]:
    """One yes/no parameter per round-track bonus ((round, what its bonus is))."""
    return tuple(
        switch_param(f"round_{r}_bonus", True, f"the round track's round-{r} bonus ({label})",
                     f"the round-{r} bonus", f"{label} in round {r}", f"no round-{r} bonus")
        for r, label in round_bonuses)


def _turn_points(open_point: Callable[[str, str], str]) -> tuple[Param, ...]:
    """The open points of the picks, the dice and the bonuses."""
    return (
        switch_param("wasted_pick", False, open_point(
            "wasted_pick", "an active player may pick a die that has no legal placement (it "
            "moves, nothing is entered); only the random policy uses it"),
            "picking a die that cannot be entered", "a die may be picked and not entered",
            "every picked die is entered", assumed=True),
        choice_param("forfeited_dice", open_point(
            "forfeited_dice", "after a roll with no usable die the dice stay in play or go "
            "to the platter"), "dice of an unusable roll", assumed=True,
            stay="an unusable roll's dice stay in play",
            platter="an unusable roll's dice go to the platter"),
        switch_param("passive_may_decline", True, open_point(
            "passive_may_decline", "a passive player may decline to pick; the random and "
            "learned policies use it"), "declining the passive pick",
            "passive players may take no die", "passive players must take a die",
            assumed=True),
        choice_param("bonus_order", open_point(
            "bonus_order", "bonuses fired by one mark resolve depth-first, the latest "
            "triggered first (free marks placed by the policy), or earliest_first (a "
            "queue)"), "the order of bonuses fired together", assumed=True,
            latest_first="the latest bonus first", earliest_first="bonuses in the order fired"),
        choice_param("action_overflow", open_point(
            "action_overflow", "an action unlocked with every circle of its track circled "
            "is lost, or kept"), "actions beyond a full track", assumed=True,
            lost="actions beyond a full track lost", kept="actions beyond a full track kept"),
    )


def _solo_and_plus_points(open_point: Callable[[str, str], str],
                          solo_tie_order: str) -> tuple[Param, ...]:
    """The open points of the solo passive turn and of the +1 windows."""
    return (
        choice_param("solo_ties", open_point(
            "solo_ties", "ties for the solo passive turn's three lowest dice are broken at "
            f"random, or in colour order ({solo_tie_order})"), "solo platter ties",
            assumed=True, random="solo ties broken at random",
            colour_order="solo ties broken by colour"),
        choice_param("solo_fallback", open_point(
            "solo_fallback", "when none of the solo passive turn's three platter dice can be "
            "used, the pick is lost (none), or one of the other three dice may be taken "
            "(other_dice), as a passive player takes the active player's field dice"),
            "a solo pick with no usable platter die", assumed=True,
            none="a solo pick lost with no usable platter die",
            other_dice="a solo pick may take one of the other dice"),
        switch_param("plus_after_decline", True, open_point(
            "plus_after_decline", "a passive player who takes no die (declined, or none "
            "usable) may still use +1 actions after the pick"), "a +1 after taking no die",
            "a +1 after taking no die", "no +1 after taking no die", assumed=True),
        choice_param("final_plus", open_point(
            "final_plus", "after the game's last turn, +1 actions may still be used: by the "
            "last active player, whose +1 window after its picks came before the passive "
            "picks (last_player), or by every player, in a window of its own "
            "(every_player)"), "a +1 after the last turn", assumed=True,
            last_player="a last +1 for the last player only",
            every_player="a last +1 for every player"),
    )
