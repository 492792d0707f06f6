"""The rule changes a designer would try in a Clever game, and what each does to the
strongest player's solo score: each round-track bonus removed, the round count one fewer
and one more, one more (and one fewer) re-roll and +1 at the start, a fox worth fixed
points. The report measures them in paired solo games (the same dice for every change,
``report.rule_runs``); here they are named in words, tabled and charted with their 95%
intervals, and the chart's reading says which of them the network never trained with."""

from __future__ import annotations

from typing import Any

import pandas as pd

from analyzer.games.clever import trained_on
from analyzer.games.clever.game import ROUND_BONUS_ROUNDS, CleverGame
from analyzer.param_words import change_words
from analyzer.sections import Figure, Table

FOX_VALUES = (15, 30)  # the fixed points a fox is tried at (the learned players' foxes are
# worth about 26 and 29 points on the rulebooks' rules)
COLUMNS = ["change", "rule", "value", "ci95_low", "ci95_high", "network_trained"]


def design_variants(game: CleverGame, values: dict[str, Any]) -> list[tuple[str, dict]]:
    """The rule changes beyond the round-track bonuses, each alone on the solo rules of
    ``values``: ``(the change in words, its rule values)``, in chart order."""
    solo = {**values, "players": 1}
    params = {p.name: p for p in game.params}
    rounds = game.rounds_for(solo)
    out = [(change_words(params["rounds"], r, rounds), {**solo, "rounds": r})
           for r in (rounds - 1, rounds + 1) if 1 <= r <= params["rounds"].high]
    for name in ("start_rerolls", "start_plus_ones"):
        param, now = params[name], solo[name]
        out += [(param.words(v), {**solo, name: v}) for v in (now + 1, now - 1)
                if param.low <= v <= param.high]
    fox = params["fox_value"]
    tried = [v for v in (0, *FOX_VALUES) if v != solo["fox_value"]
             and (v or solo["fox_value"])]  # the rulebook's fox where the rules fix one
    return out + [(fox.words(v), {**solo, "fox_value": v}) for v in tried]


def _rule_of(values: dict[str, Any], solo: dict[str, Any]) -> str:
    """Which rule a variant changes, in words (the table's groups)."""
    changed = {k for k in values if values[k] != solo.get(k)}
    if changed & {f"round_{r}_bonus" for r in ROUND_BONUS_ROUNDS}:
        return "round track"
    if "rounds" in changed:
        return "game length"
    return "foxes" if "fox_value" in changed else "actions at the start"


def effect_rows(game: CleverGame, values: dict[str, Any], bot: str, bonus: pd.DataFrame,
                designs: pd.DataFrame) -> pd.DataFrame:
    """Every rule effect as the chart shows it: the round-track bonuses (``bonus``: points
    lost without each, rows "without round R") as the change in the score without each,
    then ``designs`` (rows of ``design_variants``' changes, signed); columns ``COLUMNS``,
    ``network_trained`` whether ``bot``'s network trained with that change ("yes", "no";
    "" for a player without one)."""
    solo = {**values, "players": 1}
    params = {p.name: p for p in game.params}
    rows = []
    for r in ROUND_BONUS_ROUNDS:
        row = bonus.set_index("variant").loc[f"without round {r}"]
        name = f"round_{r}_bonus"
        rows.append((params[name].words(False), {**solo, name: False},
                     -row.value, -row.ci95_high, -row.ci95_low))
    variants = dict(design_variants(game, values))
    for row in designs.itertuples():
        rows.append((row.variant, variants[row.variant], row.value, row.ci95_low,
                     row.ci95_high))
    out = pd.DataFrame([
        {"change": change, "rule": _rule_of(changed, solo), "value": value,
         "ci95_low": low, "ci95_high": high, "network_trained": _trained(game, bot, changed)}
        for change, changed, value, low, high in rows], columns=COLUMNS)
    out.attrs["games"] = designs.attrs.get("games", bonus.attrs.get("games", 0))
    return out


def _trained(game: CleverGame, bot: str, values: dict[str, Any]) -> str:
    """Did ``bot``'s network train with the rules ``values``? "yes", "no", or "" where
    ``bot`` plays no network."""
    if bot != "learned":
        return ""
    return "no" if trained_on.differences(game, values) else "yes"


def effects_figure(prefix: str, bot: str, effects: pd.DataFrame) -> Figure:
    """The chart of every rule effect: the change in ``bot``'s solo score, with its 95%
    interval, around a line at 0."""
    return Figure(f"{prefix}_rule_effects", "What each rule change a designer would try does "
                  f"to the solo score of the {bot} player (paired simulation, 95% intervals)",
                  "dot", effects, "change", "value", None, "ci95_low", "ci95_high",
                  xlabel="rule change (each alone)", ylabel="change in solo points",
                  ref_line=0.0, reading=effects_reading(bot, effects))


def effects_reading(bot: str, effects: pd.DataFrame) -> str:
    """The chart's reading: the largest effect, each change beyond the round track, and
    the changes ``bot``'s network never trained with."""
    top = effects.loc[effects.value.abs().idxmax()]
    text = (f"Each rule changed alone, on the same dice: {top.change} moves the {bot} "
            f"player's solo score most, {top.value:+.1f} points (95% CI "
            f"{top.ci95_low:+.1f} to {top.ci95_high:+.1f}). ")
    others = effects[(effects.rule != "round track") & (effects.change != top.change)]
    text += "Beyond the round track: " + "; ".join(
        f"{row.change} {row.value:+.1f}" for row in others.itertuples())
    text += ". An interval holding 0 is a change these games cannot tell from none."
    never = effects[effects.network_trained == "no"]
    if len(never):
        text += (f" Its network never trained with {_listed(never.change.tolist())}: it "
                 "plays those rules with what it learnt on the rulebook's, so their values "
                 "are what this player makes of them, not yet what a player trained on "
                 "them would.")
    return text


def _listed(items: list[str]) -> str:
    """Items in words: "a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def effects_table(prefix: str, bot: str, effects: pd.DataFrame) -> Table:
    """The table beside the chart (CSV and appendix)."""
    return Table(f"{prefix}_rule_effects", "Rule changes a designer would try: change in "
                 f"the {bot} player's solo mean score (paired games)", effects,
                 note="each change alone, on the same games as the rules in force; "
                 "value and interval in points a solo game; network trained: whether the "
                 "network of the learned player trained with that rule changed")
