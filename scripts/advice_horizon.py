"""Choose how many rounds ``advise``'s rollouts play before the rollout policy's value of
the position ends them (``--horizon``): on a test set of positions, rank the choices by
full rollouts (to the game's end) and by rollouts cut after K rounds, and report for
each K how often the cut ranking picks the full ranking's best where that one is clear,
the points its picks lose against the full ranking's best (by the full rollouts' means),
and the time a ranking takes.

The positions: sheets the learned policy played through the rounds before rounds 1-4 (its
own games, the round's bonus received), each with a random roll of all six dice for the
first active pick (``--positions`` per round), on the default rules, solo.

Run: ``python scripts/advice_horizon.py --game tpc [--positions 8] [--full 1600]
[--rollouts 800] [--horizons 0 1 2] [--json out.json]``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import time

import numpy as np

from analyzer.files import write_output
from analyzer.games.clever.advise import advise
from analyzer.params import defaults

GAMES = {"tpc": "thats_pretty_clever", "tac": "twice_as_clever"}
SEED = 424_242  # far from the reporting and training seeds
CLEAR_SE = 2.0  # a best choice is clear when it leads the second by this many SEs


def played_sheet(game, values, rnd: int, key: int) -> np.ndarray:
    """The sheet of a solo game the learned policy played up to round ``rnd`` (1-based),
    that round's bonus received."""
    from kernels.clever import play, sheets
    from kernels.clever_base.sheet import H_EVENT, H_ROUND
    from kernels.rng import turn_stream

    rules, rounds = game.game_rules(values), game.rounds_for(values)
    pol = game.parse_policy("learned", values)
    sheet, scratch, moves, faces, where, log = play.work_buffers()
    sheets.start_game_sheet(sheet, rules, rounds, 1)
    key = np.uint64(key)
    for r in range(rnd):
        sheet[H_ROUND], sheet[H_EVENT] = r, -1
        play.round_bonus(sheet, r, rules, pol, np.uint64(turn_stream(key, 0, 4 * r)), scratch)
        if r < rnd - 1:
            play.finish_solo_until(key, 0, pol, r, rounds, rules, sheet, faces, where, 0,
                                   scratch, moves, log, r)
    return sheet


def positions(game, values, per_round: int) -> list[tuple[int, str, np.ndarray]]:
    """``(round, roll, sheet)`` test positions: random rolls on played sheets, rounds 1-4."""
    rng = np.random.default_rng(SEED)
    out = []
    for rnd in (1, 2, 3, 4):
        for _ in range(per_round):
            faces = rng.integers(1, 7, 6)
            sheet = played_sheet(game, values, rnd, int(rng.integers(1, 1 << 62)))
            out.append((rnd, " ".join(f"{c}{f}" for c, f in zip(game.letters, faces)), sheet))
    return out


def ranking(game, values, sheet, rnd: int, roll: str, rollouts: int, horizon: int | None):
    """The choices' table of ``advise`` and the seconds it took."""
    start = time.perf_counter()
    result = advise(game, values, sheet, roll, "active1", rnd, "learned", rollouts, SEED,
                    horizon=horizon)
    return result.tables["choices"].set_index("choice"), time.perf_counter() - start


def compare(full, cut) -> dict:
    """How the ``cut`` ranking's best fares by the ``full`` rollouts."""
    best, second = full.index[0], full.index[1] if len(full) > 1 else full.index[0]
    clear = len(full) > 1 and full.loc[second, "vs_best_ci95_high"] < 0 and \
        -full.loc[second, "vs_best"] > CLEAR_SE * (
            full.loc[second, "vs_best"] - full.loc[second, "vs_best_ci95_low"]) / 1.96
    pick = cut.index[0]
    return {"clear": bool(clear), "agrees": pick == best,
            "regret": float(full.loc[best, "expected_score"] - full.loc[pick, "expected_score"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=tuple(GAMES), default="tpc")
    parser.add_argument("--positions", type=int, default=8, help="per round (1-4)")
    parser.add_argument("--full", type=int, default=1600, help="rollouts of the full ranking")
    parser.add_argument("--rollouts", type=int, default=800, help="... of each cut ranking")
    parser.add_argument("--horizons", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--json", help="also write the figures here")
    opts = parser.parse_args()
    game = importlib.import_module(f"analyzer.games.{GAMES[opts.game]}.model").GAME
    values = {**defaults(game.params), "players": 1}
    rows = []
    for n, (rnd, roll, sheet) in enumerate(positions(game, values, opts.positions)):
        if n == 0:
            ranking(game, values, sheet, rnd, roll, 2, None)  # compile / warm up
        full, full_s = ranking(game, values, sheet, rnd, roll, opts.full, None)
        same, same_s = ranking(game, values, sheet, rnd, roll, opts.rollouts, None)
        rows.append({"round": rnd, "roll": roll, "horizon": "full", "seconds": same_s,
                     **compare(full, same)})
        for k in opts.horizons:
            cut, seconds = ranking(game, values, sheet, rnd, roll, opts.rollouts, k)
            rows.append({"round": rnd, "roll": roll, "horizon": k, "seconds": seconds,
                         **compare(full, cut)})
    summary = {}
    for h in ["full", *opts.horizons]:
        mine = [r for r in rows if r["horizon"] == h]
        clear = [r for r in mine if r["clear"]]
        summary[str(h)] = {
            "positions": len(mine), "clear": len(clear),
            "agrees_where_clear": sum(r["agrees"] for r in clear),
            "mean_regret": float(np.mean([r["regret"] for r in mine])),
            "max_regret": float(max(r["regret"] for r in mine)),
            "mean_seconds": float(np.mean([r["seconds"] for r in mine])),
            "max_seconds": float(max(r["seconds"] for r in mine)),
            "round_1_max_seconds": float(max(r["seconds"] for r in mine if r["round"] == 1))}
    print(json.dumps(summary, indent=1))
    if opts.json:
        write_output(opts.json, json.dumps({"summary": summary, "rows": rows}, indent=1,
                                           default=lambda x: None if isinstance(x, float)
                                           and math.isnan(x) else x) + "\n")


if __name__ == "__main__":
    main()
