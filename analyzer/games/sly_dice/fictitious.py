"""Stable claim/accuse strategies of Sly Dice by fictitious play over a grid of bot
strategies, with duels raced on common random numbers.

Every step adds the grid strategy with the best two-player win rate against the mixture of
the strategies added so far. Finding it needs the win rate of 42 grid strategies against
every strategy in the mixture; most are far from the best, so each duel starts short
(``SCREEN_GAMES``) and only the strategies still within reach of the leader, by their 95%
intervals, play on (doubling) up to ``games``. Every game of a duel is played in both
seatings on the same random numbers, and a duel that plays on continues the same stream, so
the answer depends only on the rules, ``games`` and the seed. The result is kept on disk per
rules (``analyzer.run.kept``): the report and the ``stable`` policy read the same one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from analyzer import seats, stats
from analyzer.run import driver, kept
from analyzer.games.sly_dice.model import Policy, card_notes, get_model, parse_policy, run_meta
from analyzer.games.sly_dice.runs import play_games, policy_stats
from analyzer.output import Result
from analyzer.run.progress import Progress
from analyzer.seeding import STREAM_GAMES
from kernels.sly_dice import layout, play

BLUFF_GRID = (-1.0, 5.0, 10.0, 15.0, 20.0, 30.0)
ACCUSE_GRID = (-1.0, 0.1, 0.2, 0.3, 0.4, 0.5, "rational")
GAMES = 4_096  # the most games (each played in both seatings) of a duel
SEED = 1  # fictitious play's own seed: the stable policy is one per rules
STEPS = 20
SCREEN_GAMES = 512  # every duel's first games
DUEL_BLOCK = 256
RACE_Z = stats.Z95  # a strategy plays on while its interval reaches the leader's


def grid_policy(bluff: float, accuse: float | str) -> Policy:
    """A grid point by name: bluff below ``bluff`` points (-1: never), accuse below
    plausibility ``accuse`` (-1: never; 'rational': by expected points)."""
    rational = accuse == "rational"
    never_accuse = not rational and accuse < 0
    if bluff < 0:
        return parse_policy("rational" if rational else "honest" if never_accuse
                            else f"accuser:{accuse:g}")
    if never_accuse:
        return parse_policy(f"bluffer:{bluff:g}")
    return parse_policy(f"sly:{bluff:g}:{accuse if rational else format(accuse, 'g')}")


def grid() -> list[Policy]:
    return [grid_policy(b, a) for b in BLUFF_GRID for a in ACCUSE_GRID]


class Duels:
    """Two-player duels of grid strategies against opponents, extended on demand: for each
    (candidate, opponent) the games played so far and the candidate's win units."""

    def __init__(self, values: dict[str, Any], seed: int):
        self.args = get_model({**values, "players": 2}).game_args()
        self.seed = seed
        self.acc: dict[tuple[str, str], np.ndarray] = {}

    def games(self, candidate: Policy, opponent: Policy) -> int:
        acc = self.acc.get((candidate.name, opponent.name))
        return 0 if acc is None else int(acc[play.DUEL_GAMES])

    def play(self, candidates: list[Policy], opponent: Policy, games: int) -> None:
        """Extend every candidate's duel with ``opponent`` to ``games`` games, all in one
        parallel run (candidates at the same length share it)."""
        by_start: dict[int, list[Policy]] = {}
        for c in candidates:
            if self.games(c, opponent) < games:
                by_start.setdefault(self.games(c, opponent), []).append(c)
        for start, group in by_start.items():
            rows = np.stack([c.row() for c in group])
            job = driver.Job(driver.BlockLoop.of(play.duel_block),
                             (rows, opponent.row(), *self.args), (len(group), play.N_DUEL),
                             DUEL_BLOCK, self.seed, STREAM_GAMES, "duels", "games",
                             chunk_blocks=8)
            acc, _ = driver.run(job, games - start, False, first_item=start)
            for c, row in zip(group, acc):
                key = (c.name, opponent.name)
                self.acc[key] = self.acc.get(key, 0) + row

    def rate(self, candidate: Policy, opponent: Policy) -> tuple[float, float]:
        """The candidate's win rate against ``opponent`` and its standard error."""
        acc = self.acc[candidate.name, opponent.name]
        scale = 2.0 * play.WIN_UNITS
        return stats.mean_se(float(acc[play.DUEL_GAMES]), acc[play.DUEL_UNITS] / scale,
                             acc[play.DUEL_UNITS_SQ] / scale**2)


def best_reply(duels: Duels, candidates: list[Policy], mixture: dict[Policy, float],
               games: int) -> tuple[Policy, float]:
    """The candidate with the best win rate against ``mixture`` (opponent -> weight), raced:
    all play ``SCREEN_GAMES`` games, then those whose interval reaches the leader's play
    twice as many, and so on up to ``games``. Returns the winner and its win rate over
    ``games`` games."""
    alive = list(candidates)
    n = min(SCREEN_GAMES, games)
    while True:
        for opponent in mixture:
            duels.play(alive, opponent, n)
        scores = [_score(duels, c, mixture) for c in alive]
        lead = int(np.argmax([m for m, _ in scores]))
        if n >= games or len(alive) == 1:
            for opponent in mixture:
                duels.play([alive[lead]], opponent, games)
            return alive[lead], _score(duels, alive[lead], mixture)[0]
        floor = scores[lead][0] - RACE_Z * scores[lead][1]
        alive = [c for c, (m, s) in zip(alive, scores) if m + RACE_Z * s >= floor]
        n = min(2 * n, games)


def _score(duels: Duels, candidate: Policy, mixture: dict[Policy, float]
           ) -> tuple[float, float]:
    """The candidate's win rate against the mixture and a standard error that takes no
    credit for the duels' independence (wider than the exact one)."""
    rates = [(w, *duels.rate(candidate, q)) for q, w in mixture.items()]
    return sum(w * r for w, r, _ in rates), sum(w * s for w, _, s in rates)


def fictitious_play(values: dict[str, Any], games: int = GAMES, seed: int = SEED,
                    steps: int = STEPS, progress: bool = False):
    """Fictitious play over the grid from the honest strategy (see the module's text).

    Returns ``(history, rates, exploit)``: the strategies added, the win rate of each
    against the mixture before it, and the best grid reply to the last one (its win rate
    and name). ``progress``: a bar over the steps on stderr."""
    if progress:
        driver.notice_first_compile(play.duel_block)
    duels = Duels(values, seed)
    candidates = grid()
    history = [parse_policy("honest")]
    rates = [float("nan")]
    with Progress(steps + 1, "fictitious play", progress, "steps") as bar:
        for _ in range(steps):
            names = [p.name for p in history]
            mixture = {p: names.count(p.name) / len(names)
                       for p in {p.name: p for p in history}.values()}
            best, rate = best_reply(duels, candidates, mixture, games)
            history.append(best)
            rates.append(rate)
            bar.advance(1)
        exploiter, exploit = best_reply(duels, candidates, {history[-1]: 1.0}, games)
        bar.advance(1)
    return history, rates, (exploit, exploiter.name)


def _kept_path(values, games: int, seed: int, steps: int) -> Path:
    key = [{**values, "players": 2}, games, seed, [BLUFF_GRID, ACCUSE_GRID, steps,
                                                   SCREEN_GAMES, DUEL_BLOCK, RACE_Z]]
    return kept.path_for("sly-fictitious-play", key)


def _read_kept(path: Path):
    """``(history, rates, exploit)`` kept at ``path``, or None (missing or broken)."""
    answer = kept.read(path)
    try:
        history = [Policy(*fields) for fields in answer["history"]]
        return history, answer["rates"], tuple(answer["exploit"])
    except (KeyError, TypeError, ValueError):
        return None


def kept_fictitious_play(values, games: int = GAMES, seed: int = SEED, steps: int = STEPS,
                         progress: bool = False):
    """``fictitious_play``'s result, computed once per rules, games, seed and grid and
    then read from disk (the answer is the same)."""
    path = _kept_path(values, games, seed, steps)
    found = _read_kept(path)
    if found is not None:
        return found
    history, rates, exploit = fictitious_play(values, games, seed, steps, progress)
    kept.write(path, {"history": [[p.name, p.bluff_below, p.accuse_mode, p.accuse_below]
                                  for p in history], "rates": rates, "exploit": list(exploit)})
    return history, rates, exploit


def _stable(last: Policy) -> Policy:
    return Policy("stable", last.bluff_below, last.accuse_mode, last.accuse_below)


def cached_stable(values: dict[str, Any]) -> Policy | None:
    """The ``stable`` policy if fictitious play already ran for these rules."""
    found = _read_kept(_kept_path(values, GAMES, SEED, STEPS))
    return None if found is None else _stable(found[0][-1])


def stable_strategy(values: dict[str, Any], progress: bool = False) -> Policy:
    """The last best response of fictitious play (kept on disk per rules)."""
    return _stable(kept_fictitious_play(values, progress=progress)[0][-1])


def _duel(values, policy: Policy, opponent: Policy, games: int, seed: int):
    vals = {**values, "players": 2}
    acc, _ = play_games(vals, [policy, opponent], games, seed, True, None, False)
    rows = seats.by_name(acc, [policy.name, opponent.name + " "])
    return policy_stats(rows[policy.name], 2)


def equilibrium_result(values: dict[str, Any], games: int = GAMES, seed: int = SEED,
                       threads: int | None = None, progress: bool = False) -> Result:
    """Fictitious play over bluff thresholds x accusation thresholds (two players, common
    random numbers), the mixture it reaches, and how its last strategy plays."""
    driver.set_threads(threads)
    history, rates, (exploit_rate, exploiter) = kept_fictitious_play(
        values, games, seed, progress=progress)
    steps = [{"step": i, "strategy": p.name, "win_rate_vs_mixture_so_far": r}
             for i, (p, r) in enumerate(zip(history, rates))]
    names = [p.name for p in history]
    mixture = {n: names.count(n) / len(names) for n in dict.fromkeys(names)}
    last = history[-1]
    stable = _stable(last)
    rows = []
    for opponent in ("honest", "rational", "bluffer:10", "accuser:0.3"):
        s = _duel(values, stable, parse_policy(opponent), games, seed + 1)
        rows.append({"opponent": opponent, "win_rate": s["win_rate"],
                     "win_ci95_low": s["win_ci95"][0], "win_ci95_high": s["win_ci95"][1],
                     "bluff_rate": s["bluff_rate"], "bluffs_caught_rate":
                     s["bluffs_caught_rate"], "accusations_per_game":
                     s["accusations_per_game"], "mean_score": s["mean_score"]})
    return Result(
        "Sly Dice: stable claim/accuse strategies by fictitious play",
        headline={"stable": last.name, "mixture": mixture,
                  "best_reply_to_stable": exploiter,
                  "best_reply_win_rate": exploit_rate},
        tables={"iterations": pd.DataFrame(steps), "stable_vs_bots": pd.DataFrame(rows)},
        meta=run_meta(values, seed, games=games),
        notes=card_notes(values, list(range(layout.N_CARDS))) + [
            f"grid: bluff when the best honest option is below B in {BLUFF_GRID[1:]} (or never)"
            f" x accuse when plausibility is below A in {ACCUSE_GRID[1:]} (or never); each "
            "step adds the best response (two-player win rate) to the mixture of the "
            f"strategies added so far; duels are raced: {SCREEN_GAMES} games each, then "
            f"doubling for the strategies whose 95% interval reaches the leader's, up to "
            f"{games} games, each game played in both seatings (one seed)",
            f"the `stable` policy of simulate and the report is this run at {GAMES} games "
            f"and seed {SEED}",
            "the 'stable' policy is the last best response; best_reply_win_rate is how well the "
            "best grid strategy does against it (0.5 = nothing on the grid exploits it); its "
            "win rates against the bots use another seed (held out)"])
