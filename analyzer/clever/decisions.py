"""A Clever bot's choices as rules of thumb, each checked against its own play: when it
re-rolls (by the points its best pick would score at once), where its first die of a turn
goes in each round, and in which rounds it spends its actions. Read from the decision log
the play loops sum (``kernels.clever.play``: ``LOG_REROLL_GAIN``, ``LOG_FIRST_ROUND``,
``LOG_ACTION_ROUNDS``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analyzer.clever.game import CleverGame
from kernels.clever import play

GAIN_FROM = (0, 1, 2, 3, 4, 6, 8, 11)  # fewest points of each gain bin (``play.gain_bin``)
GAIN_LABELS = ("0", "1", "2", "3", "4-5", "6-7", "8-10", "11+")
ACTIONS = {play.ACTION_REROLL: "re-roll", play.ACTION_PLUS: "+1",
           play.ACTION_RETURN: "return"}


def _log(row: np.ndarray) -> np.ndarray:
    return row[play.COL_LOG:play.COL_LOG + play.LOG_LEN].astype(np.float64)


def reroll_counts(row: np.ndarray) -> np.ndarray:
    """float64[3 picks, GAIN_BINS, 2]: the value policy's choices with a re-roll in hand,
    by pick and by the points its best pick scored at once; [..., 1] re-rolled."""
    start = play.LOG_REROLL_GAIN
    return _log(row)[start:start + 6 * play.GAIN_BINS].reshape(3, play.GAIN_BINS, 2)


COVER = 0.75  # a re-roll rule names the fewest points that cover this share of re-rolls
CONTRAST = 2.0  # ... and is a rule only if the bot re-rolls this many times as often below


def reroll_rule(counts: np.ndarray) -> dict[str, Any]:
    """The rule "re-roll only when the best pick scores under T points at once" for one
    pick's choices with a re-roll in hand (``counts``: float64[GAIN_BINS, 2], [:, 1]
    re-rolled): T the fewest points such that rolls scoring under T hold at least
    ``COVER`` of the bot's re-rolls. Returns ``below`` (T; None when the bot never
    re-rolls), ``covered`` (its share of re-rolls under T), ``rate_below`` and
    ``rate_above`` (the bot's re-roll rate under T and at T or more), ``choices`` and
    ``rerolled`` (its re-roll rate over all)."""
    total, rerolled = counts.sum(), counts[:, 1]
    out = {"below": None, "covered": 0.0, "rate_below": 0.0, "rate_above": 0.0,
           "choices": int(total), "rerolled": rerolled.sum() / max(total, 1.0)}
    if rerolled.sum() <= 0:
        return out
    share = np.cumsum(rerolled) / rerolled.sum()
    b = int(np.argmax(share >= COVER - 1e-12))  # the last bin the rule takes in
    under, over = counts[:b + 1].sum(axis=0), counts[b + 1:].sum(axis=0)
    out.update(below=GAIN_FROM[b + 1] if b + 1 < play.GAIN_BINS else None, covered=share[b],
               rate_below=under[1] / max(under.sum(), 1.0),
               rate_above=over[1] / max(over.sum(), 1.0))
    if b + 1 == play.GAIN_BINS:  # every bin needed: no threshold, re-rolls at any score
        out["below"] = float("inf")
    return out


def reroll_rows(name: str, row: np.ndarray) -> list[dict[str, Any]]:
    """Per pick and points-at-once bin: the choices with a re-roll in hand and the share
    re-rolled (the value policy only; empty for the others)."""
    counts = reroll_counts(row)
    return [{"policy": name, "pick": pick + 1, "best_pick_scores": GAIN_LABELS[b],
             "choices": int(counts[pick, b].sum()),
             "rerolled": counts[pick, b, 1] / counts[pick, b].sum()}
            for pick in range(3) for b in range(play.GAIN_BINS) if counts[pick, b].sum()]


def first_round_rows(game: CleverGame, name: str, row: np.ndarray,
                     rounds: int) -> list[dict[str, Any]]:
    """Per round and area: the share of that round's first picks of a turn."""
    n_areas = len(game.layout.AREA_NAMES)
    start = play.LOG_FIRST_ROUND
    grid = _log(row)[start:start + play.N_AREAS * play.LOG_ROUNDS].reshape(
        play.LOG_ROUNDS, play.N_AREAS)[:, :n_areas]
    return [{"policy": name, "round": r + 1, "area": area,
             "share": grid[r, a] / max(grid[r].sum(), 1.0)}
            for r in range(min(rounds, play.LOG_ROUNDS))
            for a, area in enumerate(game.layout.AREA_NAMES)]


def action_round_rows(game: CleverGame, name: str, row: np.ndarray,
                      rounds: int) -> list[dict[str, Any]]:
    """Per round and action: actions spent per game (returns only in games that have
    them)."""
    games = max(float(row[play.COL_GAMES]), 1.0)
    start = play.LOG_ACTION_ROUNDS
    grid = _log(row)[start:start + 3 * play.LOG_ROUNDS].reshape(play.LOG_ROUNDS, 3)
    kinds = [k for k in ACTIONS if k != play.ACTION_RETURN or game.has_returns]
    return [{"policy": name, "round": r + 1, "action": ACTIONS[k],
             "spent_per_game": grid[r, k] / games}
            for r in range(min(rounds, play.LOG_ROUNDS)) for k in kinds]


def rule_rows(game: CleverGame, name: str, row: np.ndarray,
              rounds: int) -> list[dict[str, Any]]:
    """The bot's rules of thumb, each with ``check``: how much of the bot's own play it
    describes, in words; ``follows``: that share (re-rolls: of its re-rolls, over
    ``choices`` choices with a re-roll in hand); ``simplest``: the same for the simpler
    rule named in ``simplest_rule``."""
    rows = []
    counts = reroll_counts(row)
    for pick in range(3):
        rule = reroll_rule(counts[pick])
        if rule["below"] is None:
            continue
        rerolls = counts[pick, :, 1].sum()
        if rule["below"] == float("inf") or rule["rate_below"] < CONTRAST * rule["rate_above"]:
            text = (f"Roll {pick + 1}: no points threshold explains the re-rolls; the bot "
                    "re-rolls for its sheet, whatever the best die scores at once")
            check = (f"it re-rolls {rule['rerolled']:.0%} of {rule['choices']:,} rolls with a "
                     f"re-roll in hand ({rule['rate_below']:.0%} under {rule['below']} points, "
                     f"{rule['rate_above']:.0%} at more)" if rule["below"] != float("inf")
                     else f"it re-rolls {rule['rerolled']:.0%} of {rule['choices']:,} rolls "
                     "with a re-roll in hand")
        else:
            points = f"{rule['below']} point{'s' * (rule['below'] > 1)}"
            text = (f"Roll {pick + 1}: re-roll only when the best die scores under {points} "
                    f"at once (the bot re-rolls {rule['rate_below']:.0%} of those rolls, "
                    f"{rule['rate_above']:.0%} of the others)")
            check = f"{rule['covered']:.0%} of its {rerolls:,.0f} re-rolls come then"
        rows.append({"policy": name, "topic": "re-roll", "rule": text, "check": check,
                     "follows": rule["covered"], "choices": rule["choices"],
                     "simplest": rule["rerolled"], "simplest_rule": "re-roll rate over all"})
    firsts = pd.DataFrame(first_round_rows(game, name, row, rounds))
    for rnd, part in firsts.groupby("round"):
        top = part.sort_values("share", ascending=False).iloc[:2]
        rows.append({"policy": name, "topic": "first die",
                     "rule": f"Round {rnd}: first die to {top.area.iloc[0]}, else "
                             f"{top.area.iloc[1]}",
                     "check": f"{top.share.sum():.0%} of its first dice ({top.area.iloc[0]} "
                              f"alone {top.share.iloc[0]:.0%})",
                     "follows": top.share.sum(), "choices": None,
                     "simplest": top.share.iloc[0],
                     "simplest_rule": f"always {top.area.iloc[0]}"})
    actions = pd.DataFrame(action_round_rows(game, name, row, rounds))
    for action, part in actions.groupby("action", sort=False):
        spent = part.spent_per_game.to_numpy()
        if spent.sum() <= 0:
            continue
        half = len(spent) // 2
        late, last = spent[half:].sum() / spent.sum(), spent[-1] / spent.sum()
        rows.append({"policy": name, "topic": "actions",
                     "rule": f"Save {action}s for the second half (rounds {half + 1}-"
                             f"{len(spent)})",
                     "check": f"{late:.0%} of the {spent.sum():.1f} a game it spends ("
                              f"{last:.0%} in the last round)",
                     "follows": late, "choices": None, "simplest": last,
                     "simplest_rule": "all in the last round"})
    return rows
