"""A Clever game's strategy card (either game): the rules of its ``card_rules.json``, each
with what it adds, measured (the ``card`` policy, which plays exactly these rules, against
the same policy without the rule), the card's own solo score beside greedy's and the
heuristic's on the same seed, and the score sheet as the card fills it."""

from __future__ import annotations

from typing import Any

import pandas as pd

from analyzer.games.clever import card_rules
from analyzer.games.clever.card_measure import head_to_head, paired_scores
from analyzer.games.clever.game import CleverGame
from analyzer.games.clever.simulation import simulate
from analyzer.run import kept
from analyzer.sections import Block, CheatSheet, Figure
from analyzer.seeding import DEFAULT_SEED

WORDS = {"card": "the strategy card's rules"}  # keyed like POLICY_HELP
SCORE_GAMES = 16_384  # solo games of the card: its score and the sheet picture
BESIDE_GAMES = 4_096  # solo games of greedy and of the heuristic, on the same seed
RULE_GAMES = 8_192  # paired solo games measuring each rule (with it and without)
TABLE_GAMES = 65_536  # two-player games measuring a rule at the table (a few tenths of a
# percentage point matter there)
BESIDE = ("greedy", "heuristic")


def build_cheatsheet(game: CleverGame, values: dict[str, Any],
                     card: card_rules.Card | None = None) -> CheatSheet:
    """The game's strategy card for the rules ``values``: every line of ``card`` (the
    game's ``card_rules.json``) with its measured worth, at the report's default seed (the
    card's numbers were tuned on another)."""
    card = card or card_rules.load(game)
    solo = {**values, "players": 1}
    run = simulate(game, solo, ["card"], SCORE_GAMES, DEFAULT_SEED, progress=False)
    score = run.headline["policies"]["card"]
    beside = {p: simulate(game, solo, [p], BESIDE_GAMES, DEFAULT_SEED, progress=False)
              .headline["policies"][p] for p in BESIDE}
    gains = _kept("card-solo-gains", game, card, solo, lambda: solo_gains(game, card, solo))
    table = _kept("card-table-gains", game, card, values,
                  lambda: table_gains(game, card, values))
    blocks = [Block(heading, ([card.intros[heading]] if heading in card.intros else [])
                    + [rule_line(r, gains.get(r.name), table.get(r.name))
                       for r in card.rules if r.block == heading])
              for heading in dict.fromkeys(r.block for r in card.rules)]
    blocks.append(points_block(run.tables["areas"], run.tables["policies"].iloc[0]))
    return CheatSheet(f"{game.title} strategy card", subtitle(score, beside), blocks,
                      footer(game, values, card), figure=card_figure(game, run))


def _kept(kind: str, game: CleverGame, card: card_rules.Card, values: dict[str, Any],
          compute) -> dict[str, dict[str, Any]]:
    """What ``compute()`` measures of each rule of ``card`` under ``values``, kept on disk
    (``analyzer.run.kept``) under the card's policy rows: a second card asks for nothing."""
    key = {"game": game.id, "values": values, "card": card.row().tolist(),
           "rules": {r.name: [r.players, card.row((r.name,)).tolist()] for r in card.rules}}
    return kept.answer(kind, key, compute, _is_gains)


def _is_gains(value: Any) -> bool:
    """A kept answer of ``_kept``: a rule's name to its measured figures."""
    return isinstance(value, dict) and all(isinstance(v, dict) for v in value.values())


def subtitle(score: dict[str, Any], beside: dict[str, dict[str, Any]]) -> str:
    """The card's solo score with its interval, beside greedy's and the heuristic's."""
    low, high = score["ci95"]
    others = "; ".join(f"{p} {s['mean_score']:.1f} ({s['ci95'][0]:.1f} to {s['ci95'][1]:.1f})"
                       for p, s in beside.items())
    return (f"Play by these rules and you average {score['mean_score']:.1f} points solo "
            f"(95% CI {low:.1f} to {high:.1f}; {score['games']:,} games). On the same seed: "
            f"{others}. Each rule says what it adds to a game that follows the rest.")


def solo_gains(game: CleverGame, card: card_rules.Card, solo: dict[str, Any]
               ) -> dict[str, dict[str, float]]:
    """What each rule measured solo adds: the card's mean score less the same card
    without the rule, on the same games (``RULE_GAMES``), with its 95% interval."""
    rules = [r for r in card.rules if r.players != "table"]
    rows = [card.row()] + [card.row((r.name,)) for r in rules]
    measured, n = paired_scores(game, solo, rows, RULE_GAMES, DEFAULT_SEED)
    return {r.name: {"gain": -m["diff"], "low": -m["diff_ci95_high"],
                     "high": -m["diff_ci95_low"], "games": int(n)}
            for r, m in zip(rules, measured[1:])}


def table_gains(game: CleverGame, card: card_rules.Card, values: dict[str, Any]
                ) -> dict[str, dict[str, Any]]:
    """What each rule measured at the table adds: the card's two-player win rate against
    the same card without the rule (``TABLE_GAMES``, seats swapping)."""
    return {r.name: head_to_head(game, values, card.row(), card.row((r.name,)),
                                 TABLE_GAMES, DEFAULT_SEED)
            for r in card.rules if r.players in ("table", "both")}


def rule_line(rule: card_rules.Rule, solo: dict[str, float] | None,
              table: dict[str, Any] | None) -> str:
    """A rule in words with what it adds: points a solo game and, measured at the table,
    the share of two-player games won against the card without it."""
    worth = []
    if solo:
        worth.append(f"{solo['gain']:+.1f} points a game (95% CI {solo['low']:+.1f} to "
                     f"{solo['high']:+.1f})")
    if table:
        low, high = table["win_ci95"]
        worth.append(f"wins {table['win_rate']:.1%} of two-player games against the card "
                     f"without it ({low:.1%} to {high:.1%})")
    return f"{rule.text()} [{'; '.join(worth)}]"


def points_block(areas: pd.DataFrame, policy: pd.Series) -> Block:
    """Where the card's points come from: each area, and the foxes."""
    by_area = areas.set_index("area").sort_values("mean_score", ascending=False)
    parts = ", ".join(f"{a} {r.mean_score:.0f}" for a, r in by_area.iterrows())
    return Block("Where the card's points come from", [
        f"Solo, by area: {parts}; foxes {policy['fox_points']:.0f} ({policy['foxes']:.1f} "
        f"a game, each worth the lowest area, {policy['lowest_area']:.0f} on average)."])


def footer(game: CleverGame, values: dict[str, Any], card: card_rules.Card) -> str:
    """How the card was made and measured, and the rules it assumes."""
    assumed = ", ".join(p.words(values[p.name]) for p in game.params if p.assumed)
    returns = (" A return brings back the platter die whose faces score most on average."
               if game.has_returns else "")
    return (f"Where the card is silent (free marks, the round-4 bonus), take what scores most "
            f"now.{returns} The numbers were tuned by simulation ({card.tuned}); every "
            f"figure here is measured on another seed, {DEFAULT_SEED}: solo gains on "
            f"{RULE_GAMES:,} paired games (the card with and without the rule), two-player "
            f"win rates on {TABLE_GAMES:,} games. `dicelab {game.id} simulate --policy card` "
            f"plays exactly this card. Assumed rules: {assumed}.")


def card_figure(game: CleverGame, run) -> Figure:
    """The score sheet shaded by how often the card's play marks each box."""
    cells = run.tables["cells"]
    games = run.headline["policies"]["card"]["games"]
    often = cells[cells.marked >= 0.5]
    rare = cells[cells.marked < 0.1].groupby("area", sort=False).size()
    rare_text = ", ".join(f"{n} in {area}" for area, n in rare.items()) or "none"
    return Figure(
        f"{game.prefix}_card_sheet", f"The score sheet as the card fills it solo: share of "
        f"games that mark each box ({games:,} games); small print in a box: its number, sum, "
        "minimum face (>=) or multiplier (x)", "sheet", cells, "x", "marked", "area",
        reading=f"Darker boxes are marked in more games. {len(often)} of the {len(cells)} "
                f"boxes are marked in at least half the games. Boxes reached in fewer than "
                f"1 game in 10: {rare_text}.")
