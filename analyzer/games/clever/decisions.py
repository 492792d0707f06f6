"""A Clever bot's choices as rules of thumb, each checked against its own play: when it
re-rolls (by the points its best pick would score at once), where its first die of a turn
goes in each round, and in which rounds it spends its actions. Read from the decision log
the play loops sum (``kernels.clever.play``: ``LOG_REROLL_GAIN``, ``LOG_FIRST_ROUND``,
``LOG_ACTION_ROUNDS``)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from analyzer.games.clever.game import CleverGame
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


def reroll_round_counts(row: np.ndarray, rounds: int) -> np.ndarray:
    """float64[rounds, GAIN_BINS, 2]: the value policy's choices with a re-roll in hand,
    by round and by the points its best pick scored at once; [..., 1] re-rolled."""
    start = play.LOG_REROLL_ROUND
    grid = _log(row)[start:start + 2 * play.GAIN_BINS * play.LOG_ROUNDS]
    return grid.reshape(play.LOG_ROUNDS, play.GAIN_BINS, 2)[:min(rounds, play.LOG_ROUNDS)]


def reroll_tree(counts: np.ndarray) -> dict[str, Any]:
    """The rule "from round R on, re-roll when the best pick scores under T points at once,
    else pick; before round R, pick", fitted to the bot's choices with a re-roll in hand
    (``counts``: float64[rounds, GAIN_BINS, 2], [..., 1] re-rolled): a two-split decision
    tree over the round and the points at once, R and T chosen so that the rule agrees with
    the most choices (the first of equals: the rule that re-rolls least). Returns
    ``from_round`` (R, 1-based; None: never re-roll), ``below`` (T, ``inf``: at any
    score), ``agrees`` (the share of choices the rule matches), ``never`` (the share
    "never re-roll" matches), ``choices`` and ``rerolled`` (the re-roll rate over all)."""
    total = counts.sum()
    kept = counts[..., 0].sum()
    lean = counts[..., 1] - counts[..., 0]  # what re-rolling there adds to the agreement
    best = (kept, None, 0)
    rounds, bins = lean.shape
    for r in range(rounds - 1, -1, -1):  # later starts first: they re-roll least
        for b in range(1, bins + 1):
            agree = kept + lean[r:, :b].sum()
            if agree > best[0] + 1e-9:
                best = (agree, r, b)
    scale = max(total, 1.0)
    agree, r, b = best
    return {"from_round": None if r is None else r + 1,
            "below": float("inf") if b == bins else GAIN_FROM[b],
            "agrees": agree / scale, "never": kept / scale, "choices": int(total),
            "rerolled": counts[..., 1].sum() / scale}


def reroll_words(rule: dict[str, Any], rounds: int) -> str:
    """A fitted re-roll rule (``reroll_tree``) as advice."""
    if rule["from_round"] is None:
        return "Keep re-rolls: pick a die rather than re-roll"
    when = ("whenever you hold one" if rule["below"] == float("inf") else
            f"when no die scores {rule['below']} point{'s' * (rule['below'] > 1)} or more "
            "at once")
    if rule["from_round"] == 1:
        return f"Re-roll {when}"
    span = (f"round {rule['from_round']}" if rule["from_round"] == rounds
            else f"rounds {rule['from_round']}-{rounds}")
    return f"Keep re-rolls until {span}; then re-roll {when}"


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
    describes, in words; ``follows``: that share (re-rolls: of its ``choices`` choices with
    a re-roll in hand, the rule fitted to them by ``reroll_tree``); ``simplest``: the same
    for the simpler rule named in ``simplest_rule``."""
    rows = []
    tree = reroll_tree(reroll_round_counts(row, rounds))
    if tree["choices"]:
        rows.append({"policy": name, "topic": "re-roll", "rule": reroll_words(tree, rounds),
                     "check": f"matches {tree['agrees']:.0%} of the bot's "
                              f"{tree['choices']:,} choices with a re-roll in hand (never "
                              f"re-rolling: {tree['never']:.0%})",
                     "follows": tree["agrees"], "choices": tree["choices"],
                     "simplest": tree["never"], "simplest_rule": "never re-roll"})
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
