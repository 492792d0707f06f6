"""Train one network of a Clever game's value policy by self-play, in resumable stages.

The network (``kernels.clever.net``) values every afterstate of the value policy
(``kernels.clever.valued``); ``kernels.clever.selfplay`` plays solo games with it and
trains it by Adam on the lambda-returns of the afterstates each game chose. The stages
(``TPC_STAGES``, ``TAC_STAGES``; ``--stage`` to run up to one of them):

That's Pretty Clever (one game at a time; two trainers with different ``--seed``, one per
core, give the two members of an ensemble):

* ``warm``: 4,000 games played by the tuned heuristic's values through the value policy's
  decisions; the network learns their final scores (lambda 1).
* ``main``: self-play, epsilon 0.15 falling linearly to 0.02 over the first 60% of the
  stage; step size 3e-4, halved at 60% and halved again at 85% of the stage.
* ``polish``: epsilon 0.04 falling to 0.01, step size 1e-4 halving to 5e-5 at 50%.
* ``bonus``: the network gets the encoding's bonus block as new inputs whose first-layer
  rows start at zero (so it plays exactly as before), then the polish schedule again.

Twice As Clever (one trainer on both cores: snapshots of 16 games played in parallel with
one set of weights, then learnt from in order), ``--curriculum selfplay`` (the default, and
the shipped network: seed 2, tuning 311.8 after 1,444,000 games):

* ``warm``: as above;
* ``trap``: 240,000 games of plain self-play, epsilon 0.15 falling to 0.02 over 60%, step
  size 3e-4 (it falls into the "yellow trap", dice poured into yellow, silver and the foxes
  left empty, and leaves it on its own: tuning 197 at 20,000 games with yellow 122, 285 at
  240,000 with fox points 89);
* ``main``: 400,000 games at epsilon 0.02, step size 3e-4 halving at 50%;
* ``polish``: 400,000 games, epsilon 0.02 falling to 0.01, step size 7.5e-5;
* ``settle``: 300,000 games at epsilon 0.01, step size 3e-5;
* ``bonus``: the bonus block transplant, 100,000 games at epsilon 0.01, step size 3e-5.

``--curriculum caps`` (Twice As Clever; stalled at 277): ``warm`` with the yellow dice
capped at 4 per game; ``cap4``: 200,000 games, yellow dice capped at 4 (picks, passive
picks and +1s into yellow are dropped once 4 went there, while another choice is left;
bonus marks are free), a fifth of the games with the fox spotlight (the behaviour, not the
targets, values a candidate 4 points higher per point of its lowest area plus fox points),
epsilon 0.15 falling to 0.08, step size 3e-4; ``cap8``: 400,000 games, the cap at 8, the
spotlight, epsilon 0.08; ``uncapped``: 200,000 games, epsilon 0.08; ``polish``: 700,000
games, epsilon 0.08 falling to 0.01, step size 1.5e-4 halving at 50%; ``settle`` and
``bonus`` as above.

``--curriculum endsturn`` (Twice As Clever under the rulebook's empty pool,
``return_empty_pool=ends_turn``; ``--start-from`` the network trained under
``return_allowed``): ``adapt``, 400,000 games, epsilon 0.03 falling to 0.01, step size
1.5e-4 halving at 50%; ``settle``, 200,000 games at epsilon 0.01, step size 3e-5.

``--curriculum allowed`` (Twice As Clever's specialist for ``return_empty_pool=
return_allowed``, ``--start-from training/tac-selfplay-2.npz``, the network trained under
that reading): ``allowed``, the ``anneal`` stage below on today's other defaults; ship it
beside the game's own file with ``--ship-to .../value_net.return_allowed.npy``, where
``learned`` finds it (``analyzer.clever.networks``).

``--curriculum seated`` (either game, ``--start-from`` its solo network or checkpoint):
the seat block (``kernels.clever.seats``) comes in with zero weights, then self-play with
the network in every seat of games of 1-4 players (``PLAYER_MIX``): ``seats``, 300,000
games, epsilon 0.02 to 0.01, step size 1e-5 for the first 2% (Adam's moments settle),
5e-5, then 2.5e-5 from 50%; ``settle``, 150,000 games at 0.01 and 3e-5. Each evaluation
adds a two-player mirror match (seats fixed) to the solo tuning games.

Schedules run over each stage's own length. Every ``--eval-every`` games the network
plays ``--eval-games`` solo games without exploring or learning on the tuning seeds
(``TUNING_SEED_BASE + seed``, the same games every time); the weights with the best
moving average of three such evaluations are kept as the stage's result and the next
stage starts from the last weights. A checkpoint (weights, Adam state, counters, the
learning curve) is written after every evaluation, so running the same command again
resumes where it stopped and gives the same weights, bit for bit, as an uninterrupted run.

``--ship A.npz [B.npz]`` writes the game's ``value_net.npy`` and ``.json`` (the
ensemble if it beats its best member by more than two standard errors on paired tuning
games, else that member) and prints the learning curves as a Markdown table.

Rules: each game's defaults, but for the curriculum's ``TRAINING_RULES`` (kept in the
checkpoint; ``--ship`` plays and records them: ``value_net.json``'s ``trained_on``).

Seeds: training games use the streams of ``SeedSequence([seed, 2, stage])``; tuning games
seed ``TUNING_SEED_BASE + seed``; reports use the CLI default (20261129) and
``scripts/evaluate_clever.py`` a second evaluation seed, both far below.

Run: ``python scripts/train_value.py --game tpc --seed 1`` (and ``--seed 2`` on the other
core); ``python scripts/train_value.py --game tac --seed 2 --stage bonus`` (the shipped
run); ``python scripts/train_value.py --game tac --curriculum caps --seed 1 --stage bonus``.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

import numpy as np

from analyzer import driver, paired
from analyzer.clever import trained_on, value_weights
from analyzer.errors import UserError
from analyzer.params import defaults
from analyzer.seeding import STREAM_GAMES, STREAM_PAIRED
from analyzer.stats import Z95, mean_se
from kernels.clever import net, play, seats, selfplay, value_net
from kernels.clever.game_rules import RULE_GAME

GAMES = {"tpc": "thats_pretty_clever", "tac": "twice_as_clever"}
ROUNDS = 6  # solo games
TUNING_SEED_BASE = 1_000_000_000
GAME_BLOCK = 1 << 9
CHUNK = 2000  # games between progress lines
BATCH = 32
LAMBDA = 0.8
NO_CURRICULUM = (-1, 0, 0.0, 0.0, 0)
TAC_YELLOW, TAC_BLUE = 1, 2  # Twice As Clever's areas (kernels.twice_as_clever.layout)
SPOT_SHARE, SPOT_BIAS = 0.2, 4.0  # the fox spotlight: on a fifth of the games, 4 points per
# point of the lowest area plus the fox points (0.01 on a value scale of 400 points)


class Stage(NamedTuple):
    """One stage of a training run: its games, teacher weight (1: the warm start), lambda,
    exploration (start, end, over what share of the stage), step sizes ((share of the stage
    from which, step size), ...), whether the network has the bonus block, the curriculum
    (capped area, cap, spotlight share, spotlight bias, spotlit areas:
    ``kernels.clever.selfplay``), the games played with one set of weights, whether the
    network has the seat block, the shares of games of 1-4 players, whether the seat
    block's first-layer rows learn alone, the points a win adds to the final score the
    seats of games of 2-4 players learn from, whether the skip head learns (alone, or
    with the network), and whether the solo networks (``--solo-from``) are its partners:
    games of 2-4 players play the mean of theirs and its values, and it learns what it
    adds to them."""

    games: int
    teacher: float
    lam: float
    epsilon: tuple[float, float, float]
    steps: tuple[tuple[float, float], ...]
    bonus_block: bool = False
    curriculum: tuple[int, int, float, float] = NO_CURRICULUM
    snapshot: int = 1
    seat_block: bool = False  # the seat block's inputs (``kernels.clever.seats``) too
    players: tuple[float, ...] = ()  # shares of games of 1-4 players (none: solo)
    new_rows_only: bool = False  # only the first-layer rows of the seat block learn
    win_bonus: float = 0.0  # points a win adds to what a seat of 2-4 players learns from
    skip_head: bool = False  # the skip head (``kernels.clever.value_net``) learns
    skip_alone: bool = False  # ... and nothing else does
    partner: bool = False  # the solo networks play beside it, unchanged (``selfplay``)


# That's Pretty Clever: one game at a time (two trainers, one per core)
TPC_STAGES = {
    "warm": Stage(4000, 1.0, 1.0, (0.0, 0.0, 1.0), ((0.0, 1e-3),)),
    "main": Stage(300_000, 0.0, LAMBDA, (0.15, 0.02, 0.6),
                  ((0.0, 3e-4), (0.6, 1.5e-4), (0.85, 7.5e-5))),
    "polish": Stage(150_000, 0.0, LAMBDA, (0.04, 0.01, 1.0), ((0.0, 1e-4), (0.5, 5e-5))),
    "bonus": Stage(300_000, 0.0, LAMBDA, (0.04, 0.01, 1.0), ((0.0, 1e-4), (0.5, 5e-5)), True),
}
# Twice As Clever: out of the yellow trap by a curriculum (one trainer on both cores,
# snapshots of 16 games played in parallel)
TAC_CAP4 = (TAC_YELLOW, 4, SPOT_SHARE, SPOT_BIAS, 0)
TAC_CAP8 = (TAC_YELLOW, 8, SPOT_SHARE, SPOT_BIAS, 0)
TAC_STAGES = {
    "warm": Stage(4000, 1.0, 1.0, (0.0, 0.0, 1.0), ((0.0, 1e-3),), False, TAC_CAP4, 16),
    "cap4": Stage(200_000, 0.0, LAMBDA, (0.15, 0.08, 1.0), ((0.0, 3e-4),), False, TAC_CAP4,
                  16),
    "cap8": Stage(400_000, 0.0, LAMBDA, (0.08, 0.08, 1.0), ((0.0, 3e-4),), False, TAC_CAP8,
                  16),
    "uncapped": Stage(200_000, 0.0, LAMBDA, (0.08, 0.08, 1.0), ((0.0, 3e-4),), False,
                      NO_CURRICULUM, 16),
    "polish": Stage(700_000, 0.0, LAMBDA, (0.08, 0.01, 1.0), ((0.0, 1.5e-4), (0.5, 7.5e-5)),
                    False, NO_CURRICULUM, 16),
    "settle": Stage(300_000, 0.0, LAMBDA, (0.01, 0.01, 1.0), ((0.0, 3e-5),), False,
                    NO_CURRICULUM, 16),
    "bonus": Stage(100_000, 0.0, LAMBDA, (0.01, 0.01, 1.0), ((0.0, 3e-5),), True,
                   NO_CURRICULUM, 16),
}
# Twice As Clever by plain self-play from the start (the public bot's first step: its own
# network fell into the yellow trap and needed caps and spotlights to leave it; ours, deciding
# every choice by value, leaves the trap on its own within 240,000 games)
TAC_SELFPLAY_STAGES = {
    "warm": Stage(4000, 1.0, 1.0, (0.0, 0.0, 1.0), ((0.0, 1e-3),), False, NO_CURRICULUM, 16),
    "trap": Stage(240_000, 0.0, LAMBDA, (0.15, 0.02, 0.6), ((0.0, 3e-4),), False,
                  NO_CURRICULUM, 16),
    "main": Stage(400_000, 0.0, LAMBDA, (0.02, 0.02, 1.0), ((0.0, 3e-4), (0.5, 1.5e-4)),
                  False, NO_CURRICULUM, 16),
    "polish": Stage(400_000, 0.0, LAMBDA, (0.02, 0.01, 1.0), ((0.0, 7.5e-5),), False,
                    NO_CURRICULUM, 16),
    "settle": TAC_STAGES["settle"],
    "bonus": TAC_STAGES["bonus"],
}
# Twice As Clever under the rulebook's empty pool (``return_empty_pool=ends_turn``): the
# network shipped for ``return_allowed`` (``--start-from``) relearns a game whose turn ends
# when its dice run out
TAC_ENDS_TURN_STAGES = {
    "adapt": Stage(400_000, 0.0, LAMBDA, (0.03, 0.01, 1.0), ((0.0, 1.5e-4), (0.5, 7.5e-5)),
                   True, NO_CURRICULUM, 16),
    "settle": Stage(200_000, 0.0, LAMBDA, (0.01, 0.01, 1.0), ((0.0, 3e-5),), True,
                    NO_CURRICULUM, 16),
}
# Twice As Clever on the defaults as they now stand (``skip_roll=allowed``: the active
# player may leave a usable roll unused, an option the ``endsturn`` run's engine did not
# have), from that run's network (``--start-from``); the step size starts small while
# Adam's fresh moments settle
TAC_SKIP_ROLL_STAGES = {
    "settle": Stage(200_000, 0.0, LAMBDA, (0.01, 0.01, 1.0), ((0.0, 1e-5), (0.03, 3e-5)),
                    True, NO_CURRICULUM, 16),
}
# The step size annealed (Twice As Clever, from the ``skiproll`` network, ``--start-from``):
# at 3e-5 its tuning means wandered between 300.8 and 303.4 for 200,000 games; smaller
# steps average that wander out
TAC_ANNEAL_STAGES = {
    "anneal": Stage(300_000, 0.0, LAMBDA, (0.005, 0.005, 1.0),
                    ((0.0, 2e-6), (0.03, 1e-5), (0.4, 5e-6), (0.75, 2.5e-6)), True,
                    NO_CURRICULUM, 16),
}
# That's Pretty Clever's solo network annealed the same way (from the shipped network,
# ``--start-from``; snapshots of 16 games, so one trainer uses both cores)
TPC_ANNEAL_STAGES = {"anneal": TAC_ANNEAL_STAGES["anneal"]._replace(games=200_000)}
# Twice As Clever's annealed network (shipped, ``--start-from``) at smaller steps again
TAC_FINE_STAGES = {
    "fine": TAC_ANNEAL_STAGES["anneal"]._replace(
        games=150_000, steps=((0.0, 1e-6), (0.03, 2.5e-6), (0.5, 1.25e-6))),
}
# Twice As Clever's specialist for ``return_empty_pool=return_allowed`` (a return may bring
# a die back into an empty pool): the network trained under that reading (``selfplay``,
# ``--start-from training/tac-selfplay-2.npz``) annealed on today's other defaults
TAC_ALLOWED_STAGES = {"allowed": TAC_ANNEAL_STAGES["anneal"]._replace(games=200_000)}
# Either game in 1-4 players (``--start-from`` the solo network): the seat block's inputs
# come in with zero weights (play is unchanged), then self-play with the network in every
# seat of games of 1-4 players, their rounds by the player count. The step size starts
# small while Adam's moments, which begin at zero, settle: its first steps are as large as
# the step size in every weight at once, and took 30 points off the solo network in a
# trial of 150 games at 1e-4
PLAYER_MIX = (0.3, 0.4, 0.15, 0.15)  # shares of games of 1, 2, 3 and 4 players
SEATED_STAGES = {
    "seats": Stage(300_000, 0.0, LAMBDA, (0.02, 0.01, 1.0),
                   ((0.0, 1e-5), (0.02, 5e-5), (0.5, 2.5e-5)), True, NO_CURRICULUM, 16, True,
                   PLAYER_MIX),
    "settle": Stage(150_000, 0.0, LAMBDA, (0.01, 0.01, 1.0), ((0.0, 3e-5),), True,
                    NO_CURRICULUM, 16, True, PLAYER_MIX),
}
# The same, but the seat block's rows learn alone first (the rest of the network frozen),
# so that the network can tell the player counts apart before anything else moves (in the
# seated run the solo mean fell from 262 to 218 within 20,000 games and stalled near 250)
SEATED_ROWS_STAGES = {
    "rows": Stage(60_000, 0.0, LAMBDA, (0.02, 0.02, 1.0), ((0.0, 3e-4),), True,
                  NO_CURRICULUM, 16, True, PLAYER_MIX, True),
    "seats": Stage(300_000, 0.0, LAMBDA, (0.02, 0.01, 1.0),
                   ((0.0, 5e-6), (0.03, 2e-5), (0.5, 1e-5)), True, NO_CURRICULUM, 16, True,
                   PLAYER_MIX),
    "settle": SEATED_STAGES["settle"],
}
# A network for games of 2-4 players alone, beside the solo network (which plays the solo
# game unchanged), from a seated network's weights (``--start-from``): the value it learns
# in those games is the final score plus ``WIN_BONUS`` points for a win
WIN_BONUS = 100.0
MULTI_MIX = (0.0, 0.5, 0.25, 0.25)
SEATWIN_STAGES = {
    "win": Stage(400_000, 0.0, LAMBDA, (0.01, 0.01, 1.0),
                 ((0.0, 5e-6), (0.03, 2e-5), (0.5, 1e-5)), True, NO_CURRICULUM, 16, True,
                 MULTI_MIX, False, WIN_BONUS),
}
# The same in two-player games alone (a network for one player count): from the solo
# network it fell from 247 to 218 points a seat within 10,000 games, at a step size of 5e-6:
# the win bonus raises every value of those games by about 50 points, and Adam moved every
# weight to get there
SEATWIN_DUO_STAGES = {"win": SEATWIN_STAGES["win"]._replace(players=(0.0, 1.0))}
# Hence the skip head (``kernels.clever.value_net``): a linear term in the seat block's
# inputs, the same for every choice of a turn. It learns alone first, from the solo network
# (play stays exactly the solo network's while it takes up how the points to come and a
# win's worth differ by player count, turns left and lead), then with the whole network
SKIPWIN_STAGES = {
    "skip": Stage(20_000, 0.0, LAMBDA, (0.01, 0.01, 1.0), ((0.0, 1e-3),), True,
                  NO_CURRICULUM, 16, True, MULTI_MIX, False, WIN_BONUS, True, True),
    "win": SEATWIN_STAGES["win"]._replace(skip_head=True),
}
# The same at a step size of 1e-6 throughout (a fifth of skipwin's first steps, a
# twentieth of its later ones): does the whole network adapt without the collapse?
GENTLE_STAGES = {
    "skip": SKIPWIN_STAGES["skip"],
    "win": SKIPWIN_STAGES["win"]._replace(games=200_000, steps=((0.0, 1e-6),)),
}
# A network for games of 2-4 players that plays beside the solo networks (the mean of their
# values), from a ``seatwin`` network (``--start-from``): that mean won 54-55% (That's Pretty
# Clever) and 57% (Twice As Clever) of two-player games against the solo network alone,
# where the ``seatwin`` network alone won 50% and 46.5%; here it learns what to add to the
# solo networks, which stay as they are
PARTNER_STAGES = {"win": SEATWIN_STAGES["win"]._replace(games=200_000, partner=True)}
# The same in two-player games alone (the only count the mean plays), annealed: the steps
# and exploration of ``anneal``, 150,000 games. With the win bonus (That's Pretty Clever,
# seed 26) the mean fell from 54% to 49-50% of two-player games against the solo network
# within 20,000 games: the solo half carries none of the bonus, so the other half learns
# twice it. ``partnerpoints``: the same without the bonus (the mean then learns points):
# 46% and 48% after 20,000 and 40,000 games (seed 27). Neither is shipped
PARTNER_DUO_STAGES = {"win": PARTNER_STAGES["win"]._replace(
    games=150_000, players=(0.0, 1.0), epsilon=TAC_ANNEAL_STAGES["anneal"].epsilon,
    steps=TAC_ANNEAL_STAGES["anneal"].steps)}
PARTNER_POINTS_STAGES = {"points": PARTNER_DUO_STAGES["win"]._replace(win_bonus=0.0)}
CURRICULA = {"tpc": {"standard": TPC_STAGES, "seated": SEATED_STAGES,
                     "seatrows": SEATED_ROWS_STAGES, "seatwin": SEATWIN_STAGES,
                     "duo": SEATWIN_DUO_STAGES, "skipwin": SKIPWIN_STAGES,
                     "gentle": GENTLE_STAGES, "partner": PARTNER_STAGES,
                     "partnerduo": PARTNER_DUO_STAGES, "partnerpoints": PARTNER_POINTS_STAGES,
                     "anneal": TPC_ANNEAL_STAGES},
             "tac": {"selfplay": TAC_SELFPLAY_STAGES, "caps": TAC_STAGES,
                     "endsturn": TAC_ENDS_TURN_STAGES, "skiproll": TAC_SKIP_ROLL_STAGES,
                     "anneal": TAC_ANNEAL_STAGES, "fine": TAC_FINE_STAGES,
                     "allowed": TAC_ALLOWED_STAGES,
                     "seated": SEATED_STAGES, "seatrows": SEATED_ROWS_STAGES,
                     "seatwin": SEATWIN_STAGES, "skipwin": SKIPWIN_STAGES,
                     "gentle": GENTLE_STAGES, "partner": PARTNER_STAGES,
                     "partnerduo": PARTNER_DUO_STAGES,
                     "partnerpoints": PARTNER_POINTS_STAGES}}


def stages_of(opts: argparse.Namespace) -> dict[str, Stage]:
    """The stages of the game's curriculum ``--curriculum`` (default: its first)."""
    curricula = CURRICULA[opts.game]
    return curricula[opts.curriculum]
# the rules a curriculum's network is trained under: the defaults, but for these (Twice As
# Clever's first runs began before the rulebook's fox reading and empty-pool reading became
# the defaults; the fox readings differ only when an area ends at exactly 0 beside a
# negative green)
TAC_FIRST_RULES = {"fox_negative": "literal", "return_empty_pool": "return_allowed"}
TRAINING_RULES = {"standard": {}, "selfplay": TAC_FIRST_RULES, "caps": TAC_FIRST_RULES,
                  "endsturn": {"return_empty_pool": "ends_turn"}, "seated": {},
                  "seatrows": {}, "seatwin": {}, "skiproll": {}, "anneal": {}, "fine": {},
                  "duo": {}, "skipwin": {}, "gentle": {}, "partner": {}, "partnerduo": {},
                  "partnerpoints": {},
                  "allowed": {"return_empty_pool": "return_allowed"}}


def fail(message: str) -> NoReturn:
    """One line on stderr and exit status 2: the project's answer to bad input."""
    print(f"train_value.py: error: {message}", file=sys.stderr)
    sys.exit(2)


class OneLineParser(argparse.ArgumentParser):
    """argparse whose errors are ``fail``'s one line (no usage block); ``--help`` still
    prints the usage."""

    def error(self, message: str) -> NoReturn:
        fail(message)


def training_rules(opts: argparse.Namespace) -> dict:
    """The rule values (beside the defaults) of the curriculum ``opts`` trains."""
    return TRAINING_RULES[opts.curriculum]


def stage_games(stages: dict[str, Stage], stage: str, scale: float) -> int:
    """The games of ``stage`` (``--scale`` shortens every stage, for trials and tests),
    a whole number of its snapshots."""
    snapshot = stages[stage].snapshot
    return max(1, round(stages[stage].games * scale / snapshot)) * snapshot


def schedule(stages: dict[str, Stage], stage: str, done: int, scale: float
             ) -> tuple[float, float]:
    """``(epsilon, step size)`` after ``done`` games of ``stage``."""
    e0, e1, over = stages[stage].epsilon
    share = done / stage_games(stages, stage, scale)
    epsilon = e0 + (e1 - e0) * min(share / over, 1.0)
    lr = [rate for start, rate in stages[stage].steps if share >= start][-1]
    return epsilon, lr


def mean_score(row: np.ndarray, rules: np.ndarray, games: int, seed: int
               ) -> tuple[float, float, np.ndarray]:
    """Mean solo score of a policy row, its standard error and the per-game means of the
    accumulator columns (``play.COL_*``; no learning, no exploring)."""
    job = driver.Job(driver.BlockLoop.of(play.games_block), (row[None, :], False, ROUNDS, rules),
                     (1, 1, play.COL_HIST + play.HIST_BINS), GAME_BLOCK, seed, STREAM_GAMES)
    acc, n = driver.run(job, games, progress=False)
    out = acc[0, 0]
    mean, se = mean_se(n, float(out[play.COL_SCORE_SUM]), float(out[play.COL_SCORE_SQ]))
    return mean, se, out / n


def mirror(row: np.ndarray, rules: np.ndarray, players: int, rounds: int, games: int,
           seed: int) -> dict:
    """A mirror match of the policy row in every seat of ``players`` (no rotation): each
    seat's win share and mean score."""
    return match([row] * players, rules, rounds, games, seed, False)


def match(rows: list[np.ndarray], rules: np.ndarray, rounds: int, games: int, seed: int,
          rotate: bool) -> dict:
    """Games of the policy rows (one per seat, seats rotating or not): each row's win share
    and mean score (``seat_*``: by the row's slot)."""
    players = len(rows)
    lineup = np.stack(rows)
    job = driver.Job(driver.BlockLoop.of(play.games_block), (lineup, rotate, rounds, rules),
                     (players, players, play.COL_HIST + play.HIST_BINS), GAME_BLOCK, seed,
                     STREAM_GAMES)
    acc, n = driver.run(job, games, progress=False)
    seats = [acc[p].sum(axis=0) for p in range(players)]
    return {"seat_win": [round(float(s[play.COL_WIN_UNITS]) / play.WIN_UNITS / n, 4)
                         for s in seats],
            "seat_mean": [round(float(s[play.COL_SCORE_SUM]) / n, 2) for s in seats]}


def training_key(stages: dict[str, Stage], seed: int, stage: str) -> np.uint64:
    return np.random.SeedSequence([seed, 2, list(stages).index(stage)]
                                  ).generate_state(1, np.uint64)[0]


def parse() -> argparse.Namespace:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=tuple(GAMES), default="tpc")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--curriculum", help="the stages to run (tpc: "
                        f"{', '.join(CURRICULA['tpc'])}; tac: {', '.join(CURRICULA['tac'])}; "
                        "each described where it is defined); default: the first")
    parser.add_argument("--stage", help="train up to the end of this stage (tpc: "
                        f"{', '.join(TPC_STAGES)}; tac selfplay: {', '.join(TAC_SELFPLAY_STAGES)}; "
                        f"tac caps: {', '.join(TAC_STAGES)}; default: the last but the "
                        "bonus block)")
    parser.add_argument("--eval-every", type=int, default=20_000)
    parser.add_argument("--eval-games", type=int, default=2000)
    parser.add_argument("--chunk", type=int, default=CHUNK, help="games per training call")
    parser.add_argument("--scale", type=float, default=1.0,
                        help="shorten every stage by this factor (trials and tests)")
    parser.add_argument("--max-games", type=int, default=0,
                        help="stop after about this many games in this run, at an "
                             "evaluation (0: run to the end of --stage); run again to go on")
    parser.add_argument("--checkpoint", help="default: checkpoints/<game>-value-<seed>.npz")
    parser.add_argument("--fork-from", metavar="CHECKPOINT",
                        help="a new run starts from this checkpoint of a run of other seed "
                             "(its weights, Adam state, stage and curve so far) and goes on "
                             "with this run's seed: a peer of the same style")
    parser.add_argument("--start-from", metavar="VALUE_NET",
                        help="a new run starts from the first network of this value_net.npy "
                             "(e.g. a game's shipped one), or the best weights of this "
                             "training checkpoint (.npz), instead of fresh weights")
    parser.add_argument("--ship", nargs="+", metavar="CHECKPOINT",
                        help="write the game's value_net.npy from these checkpoints' best "
                             "weights (the ensemble's members) and stop")
    parser.add_argument("--ship-multi", metavar="CHECKPOINT",
                        help="add this checkpoint's best weights to the game's value_net.npy "
                             "as the network of games of 2-4 players (its first network "
                             "keeps the solo game) and stop")
    parser.add_argument("--ship-to", metavar="VALUE_NET",
                        help="--ship and --ship-multi write this file (and its .json) "
                             "instead of the game's value_net.npy")
    parser.add_argument("--solo-from", metavar="VALUE_NET",
                        help="--ship-multi takes the solo networks from this file, and a "
                             "partner stage plays beside them, instead of the game's "
                             "value_net.npy's")
    parser.add_argument("--latest", action="store_true",
                        help="--ship the checkpoints' latest weights instead of their best "
                             "tuning mean's (an annealed run ends where its steps are "
                             "smallest)")
    parser.add_argument("--mixed", nargs="+", type=int, choices=(2, 3, 4), default=[],
                        metavar="PLAYERS",
                        help="--ship-multi: games of these player counts play the mean of "
                             "every network, the solo ones too (a network trained beside "
                             "them, --curriculum partner, always does in its games)")
    parser.add_argument("--solo-share", type=float, default=0.0, metavar="Q",
                        help="--ship-multi with --mixed: the solo networks' weight in the "
                             "mixed games' mean (0 < Q <= 1; 0, the default: the plain mean "
                             "of every network)")
    parser.add_argument("--second-seat", action="store_true",
                        help="--ship-multi with --mixed 2: in two-player games the solo "
                             "networks read the second seat in the solo game's turn order "
                             "(its passive pick comes before its active turn)")
    parser.add_argument("--gift", type=float, default=0.0, metavar="W",
                        help="--ship-multi: in games of 2-4 players the last roll's choices "
                             "weigh W times what the platter they leave gives the opponents "
                             f"(0, the default, to {value_weights.MAX_GIFT:g})")
    parser.add_argument("--look", nargs="+", type=int, choices=(1, 2, 3, 4), default=[],
                        metavar="PLAYERS",
                        help="--ship-multi: in games of these player counts the first and "
                             "second picks look one roll ahead (kernels/clever/lookahead.py)")
    parser.add_argument("--look-samples", type=int, default=16, metavar="N",
                        help="--look: sampled rolls per pick compared (default 16)")
    parser.add_argument("--look-branch", type=int, default=3, metavar="N",
                        help="--look: the best picks by one-step value compared (default 3)")
    parser.add_argument("--look-margin", type=float, default=6.0, metavar="POINTS",
                        help="--look: only picks within this many points of the best "
                             "one-step value are compared (default 6)")
    parser.add_argument("--ship-games", type=int, default=8192,
                        help="paired tuning games comparing the members and the ensemble")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    opts = parser.parse_args()
    if opts.chunk < 1 or opts.eval_every % opts.chunk or opts.eval_games < 1 \
            or not 0 < opts.scale <= 1 or opts.max_games < 0:
        parser.error("--eval-every must be a multiple of --chunk; --eval-games at least 1; "
                     "--scale within (0, 1]; --max-games 0 or more")
    if opts.curriculum is not None and opts.curriculum not in CURRICULA[opts.game]:
        parser.error(f"--curriculum for {opts.game}: one of "
                     f"{', '.join(CURRICULA[opts.game])}")
    if opts.latest and not opts.ship or opts.mixed and not opts.ship_multi \
            or (opts.solo_share or opts.second_seat) and not opts.mixed \
            or (opts.gift or opts.look) and not opts.ship_multi:
        parser.error("--latest goes with --ship, --mixed with --ship-multi, --gift with "
                     "--ship-multi, --look with --ship-multi, --solo-share with --mixed, "
                     "--second-seat with --mixed")
    opts.look = {"players": sorted(set(opts.look)), "samples": opts.look_samples,
                 "branch": opts.look_branch, "margin": opts.look_margin} if opts.look else {}
    if not value_weights.good_look(opts.look):
        parser.error(f"--look: expected {value_weights.LOOK_WORDS}")
    if not 0.0 <= opts.gift <= value_weights.MAX_GIFT:
        parser.error(f"--gift {opts.gift:g}: expected a weight from 0 to "
                     f"{value_weights.MAX_GIFT:g}")
    if not 0.0 <= opts.solo_share <= 1.0:
        parser.error(f"--solo-share {opts.solo_share:g}: expected a weight from 0 to 1")
    opts.curriculum = opts.curriculum or next(iter(CURRICULA[opts.game]))
    stages = stages_of(opts)
    opts.stage = opts.stage or list(stages)[max(len(stages) - 2, 0)]
    if opts.stage not in stages:
        parser.error(f"--stage for {opts.game}: one of {', '.join(stages)}")
    snapshot = max(stage.snapshot for stage in stages.values())
    if opts.chunk % snapshot:
        parser.error(f"--chunk for {opts.game}: a multiple of {snapshot} (the games played "
                     "with one set of weights)")
    return opts


def start_digest(path: Path) -> str:
    """``--start-from``'s file name and the SHA-256 of its weights (kept in the settings: a
    resumed run must start from the same network)."""
    try:
        return f"{path.name} sha256:{hashlib.sha256(path.read_bytes()).hexdigest()}"
    except OSError as exc:
        fail(f"--start-from {path}: cannot be read ({exc.strerror})")


def start_weights(path: Path, game: int) -> np.ndarray:
    """The first member network of the value network file ``path`` (.npy), or the best
    weights of the training checkpoint ``path`` (.npz)."""
    try:
        if path.suffix == ".npz":
            return np.load(path, allow_pickle=False)["best_weights"].astype(np.float32)
        members, _ = value_weights.load(path, game)
    except (OSError, KeyError, ValueError, UserError) as exc:
        fail(f"--start-from {path}: not a value network or training checkpoint ({exc})")
    return np.asarray(members[0], np.float32).copy()


def fresh_state(n_in: int, seed: int, first_stage: str,
                weights: np.ndarray | None = None) -> dict:
    """The training state before any game: fresh weights of ``n_in`` inputs, or
    ``weights``."""
    w = value_weights.initial_weights(n_in, seed) if weights is None else weights
    return {"weights": w, "m": np.zeros_like(w), "v": np.zeros_like(w), "step": 0,
            "stage": first_stage, "done": 0, "history": [], "best": -np.inf,
            "best_weights": w.copy(), "best_stage": "", **fresh_skip()}


def fresh_skip() -> dict:
    """The skip head's part of a training state: zero weights and Adam moments."""
    return {"skip": np.zeros(seats.N_SEAT), "skip_moments": np.zeros((2, seats.N_SEAT)),
            "best_skip": np.zeros(seats.N_SEAT)}


def save_state(path: Path, state: dict, settings: dict) -> None:
    tmp = path.with_suffix(".tmp.npz")
    np.savez(tmp, weights=state["weights"], m=state["m"], v=state["v"], step=state["step"],
             stage=state["stage"], done=state["done"], history=json.dumps(state["history"]),
             best=state["best"], best_weights=state["best_weights"],
             best_stage=state["best_stage"], settings=json.dumps(settings),
             skip=state["skip"], skip_moments=state["skip_moments"],
             best_skip=state["best_skip"])
    tmp.replace(path)


def _up_to(settings: dict, stage: str) -> dict:
    """The settings that decide a run up to ``stage``: stages not yet begun may be added or
    changed (a curriculum saved before the spotlight's area mask existed has none)."""
    names = list(settings["stages"])
    kept = names[:names.index(stage) + 1] if stage in names else names
    stages = {}
    for name in kept:
        spec = {**Stage._field_defaults, **settings["stages"][name]}  # fields added since
        width = selfplay.C_PLAYERS
        spec["curriculum"] = (list(spec["curriculum"]) + [0] * width)[:width]
        spec["players"] = list(spec["players"])
        stages[name] = spec
    return {**settings, "stages": stages}


def load_state(path: Path, settings: dict, fork: bool = False) -> dict:
    """The training state in checkpoint ``path``, made with ``settings`` (with ``fork``:
    with any seed)."""
    saved = np.load(path, allow_pickle=False)
    stored = {"chunk": CHUNK, "scale": 1.0, **json.loads(str(saved["settings"]))}
    # checkpoints made before the rules were saved, or before return_empty_pool existed
    # (Twice As Clever's first runs, the only ones under the literal fox reading)
    rules = stored.setdefault("rules", {"tac": {"fox_negative": "literal"}}.get(stored["game"], {}))
    if rules.get("fox_negative") == "literal":
        rules.setdefault("return_empty_pool", "return_allowed")
    if fork:
        stored = {**stored, "seed": settings["seed"], "fork_from": settings["fork_from"]}
    stage, done = str(saved["stage"]), int(saved["done"])
    history = json.loads(str(saved["history"]))
    if done == 0 and history:  # between stages: the next one is this run's next
        names = list(settings["stages"])
        last = history[-1]["stage"]
        stage = names[min(names.index(last) + 1, len(names) - 1)] if last in names else stage
    began = history[-1]["stage"] if done == 0 and history else stage
    if _up_to(stored, began) != _up_to(settings, began):
        fail(f"checkpoint {path} was made with other settings ({saved['settings']}); "
                 "give another --checkpoint")
    skip = {k: saved[k] if k in saved.files else v  # made before the skip head
            for k, v in fresh_skip().items()}
    return {"weights": saved["weights"], "m": saved["m"], "v": saved["v"],
            "step": int(saved["step"]), "stage": stage, "done": done, "history": history,
            "best": float(saved["best"]), "best_weights": saved["best_weights"],
            "best_stage": str(saved["best_stage"]), **skip}


def trainable(spec: Stage, game: int, n_in: int) -> np.ndarray:
    """The range of the weights that learn in a stage (int64[2]; ``(0, -1)``: all): with
    ``new_rows_only``, the first-layer rows of the seat block; with ``skip_alone``, none."""
    if spec.skip_alone:
        return np.array([0, 0], np.int64)
    if not spec.new_rows_only:
        return np.array([0, -1], np.int64)
    return np.array([int(value_net.n_inputs(game, 1)) * net.H1, n_in * net.H1], np.int64)


def multiplayer_only(spec: Stage) -> bool:
    """Does the stage play games of 2-4 players alone (a network for those, beside the
    solo one)?"""
    return bool(spec.players) and spec.players[0] == 0 and any(spec.players)


def solo_rival(model) -> np.ndarray:
    """The policy row of the game's shipped solo network (its first member), the rival of
    a multiplayer stage's two-player evaluation games."""
    members, info = value_weights.load(model.VALUE_FILE, model.GAME.kernel_game)
    return value_weights.policy_row(members[:1], int(info["inputs"]))


def kernel_curriculum(spec: Stage) -> np.ndarray:
    """The stage's curriculum as ``selfplay`` takes it (float64[N_CURRICULUM]): the
    behaviour's cap and spotlight, then the shares of games of 1-4 players."""
    shares = (list(spec.players) + [0.0] * selfplay.MAX_PLAYERS)[:selfplay.MAX_PLAYERS]
    return np.array(list(spec.curriculum) + shares, np.float64)


def moving_best(history: list[dict], stage: str) -> float:
    """The mean of the last three tuning means of ``stage`` (fewer at its start)."""
    means = [h["tuning_mean"] for h in history if h["stage"] == stage][-3:]
    return float(np.mean(means))


def train(opts: argparse.Namespace, model, rules: np.ndarray) -> None:
    stages = stages_of(opts)
    settings = {"game": opts.game, "seed": opts.seed, "eval_every": opts.eval_every,
                "eval_games": opts.eval_games, "hidden": [net.H1, net.H2],
                "stages": {k: json.loads(json.dumps(v._asdict())) for k, v in stages.items()},
                "batch": BATCH, "chunk": opts.chunk, "scale": opts.scale,
                "rules": training_rules(opts)}
    if opts.start_from:
        settings["start_from"] = start_digest(Path(opts.start_from))
    partners = solo_networks(solo_file(opts, model), model, "the partner stage")[0] \
        if any(spec.partner for spec in stages.values()) else []
    if partners:
        settings["partners"] = partner_digest(partners)
    checkpoint = Path(opts.checkpoint or f"checkpoints/{opts.game}-value-{opts.seed}.npz")
    checkpoint.parent.mkdir(parents=True, exist_ok=True)
    if opts.fork_from:
        settings["fork_from"] = Path(opts.fork_from).name
    game = int(rules[RULE_GAME])
    if checkpoint.exists():
        state = load_state(checkpoint, settings)
        print(f"resuming from {checkpoint}: stage {state['stage']}, {state['done']} games",
              file=sys.stderr)
    elif opts.fork_from:
        state = load_state(Path(opts.fork_from), settings, fork=True)
        print(f"forking {opts.fork_from}: stage {state['stage']}, {state['done']} games",
              file=sys.stderr)
    elif opts.start_from:
        state = fresh_state(0, opts.seed, list(stages)[0],
                            start_weights(Path(opts.start_from), game))
        print(f"starting from {opts.start_from}", file=sys.stderr)
    else:
        state = fresh_state(int(value_net.n_inputs(game, False)), opts.seed, list(stages)[0])
    heuristic = model.GAME.heuristic_row()
    names = list(stages)
    started = time.perf_counter()
    played_here = 0
    while names.index(state["stage"]) <= names.index(opts.stage):
        stage = state["stage"]
        spec = stages[stage]
        games = stage_games(stages, stage, opts.scale)
        n_in = int(value_net.n_inputs(game, 2 if spec.seat_block else spec.bonus_block))
        if state["weights"].size > net.net_size(n_in):  # a start network with the seat
            state = fit_start(state, n_in)  # block (zero rows) for a stage without it
        if state["weights"].size < net.net_size(n_in):  # the bonus or seat block comes in
            old = value_weights.inputs_of(state["weights"])
            for part in ("weights", "m", "v"):
                state[part] = value_weights.widen(state[part], old, n_in)
        beside = [value_weights.widen(m, value_weights.inputs_of(m), n_in)
                  for m in partners] if spec.partner else []
        row = value_weights.policy_row([state["weights"], *beside], n_in, spec.teacher,
                                       heuristic, skip=state["skip"])
        weights = value_weights.member(row)  # trained in place, and the skip head too
        key = training_key(stages, opts.seed, stage)
        curriculum = kernel_curriculum(spec)
        rounds_of = model.GAME.layout.ROUNDS_BY_PLAYERS
        stats = np.zeros(selfplay.N_STATS)
        while state["done"] < games:
            epsilon, lr = schedule(stages, stage, state["done"], opts.scale)
            n = min(opts.chunk, games - state["done"])
            state["step"] = selfplay.train_block(key, state["done"], n, row, rounds_of, rules,
                                                 state["m"], state["v"], state["step"], lr,
                                                 epsilon, spec.lam, BATCH, stats,
                                                 spec.snapshot, curriculum,
                                                 trainable(spec, game, n_in),
                                                 spec.win_bonus, state["skip_moments"],
                                                 spec.skip_head)
            state["done"] += n
            played_here += n
            if state["done"] % opts.eval_every and state["done"] < games:
                continue
            state["weights"] = weights.copy()
            state["skip"] = value_weights.skip_head(row).copy()
            entry = evaluate([state["weights"], *beside], state["skip"], n_in, rules, opts,
                             stats, spec, rounds_of,
                             solo_rival(model) if multiplayer_only(spec) else None)
            entry.update({"stage": stage, "games": state["done"],
                          "total_games": _total_before(stages, stage, opts.scale)
                          + state["done"], "epsilon": round(epsilon, 4), "lr": lr})
            state["history"].append(entry)
            keep_best(state, spec, stage)
            stats[:] = 0
            save_state(checkpoint, state, settings)
            if not opts.quiet:
                elapsed = time.perf_counter() - started
                print(f"{stage:>8} {state['done']:>7}: self-play {entry['self_play_mean']:6.1f}"
                      f" (eps {epsilon:.3f}, lr {lr:.1e}, rms {entry['rms_error']:5.1f}),"
                      f" tuning {entry['tuning_mean']:6.2f} +- {1.96 * entry['tuning_se']:.2f},"
                      f" areas {entry['areas']}, fox points {entry['fox_points']};"
                      + (f" 2p mirror {entry['mirror_2p']};" if "mirror_2p" in entry else "")
                      + (f" 2p vs solo net {entry['vs_solo_net_2p']};"
                         if "vs_solo_net_2p" in entry else "")
                      + f" {elapsed:5.0f} s, {played_here / elapsed:4.0f} games/s",
                      file=sys.stderr, flush=True)
            if opts.max_games and played_here >= opts.max_games:
                return
        if names.index(stage) + 1 >= len(names):
            break
        state["stage"], state["done"] = names[names.index(stage) + 1], 0
        save_state(checkpoint, state, settings)


def fit_start(state: dict, n_in: int) -> dict:
    """A fresh state whose start network has more inputs than the stage: those inputs
    dropped when their rows are zero (a solo network widened beside a network for 2-4
    players), else a one-line exit."""
    old = value_weights.inputs_of(state["weights"])
    weights = value_weights.narrow(state["weights"], old, n_in)
    if state["step"] or weights is None:
        fail(f"the start network has {old} inputs and uses those past {n_in}, which "
                 "this curriculum's first stage does not have")
    return {**state, "weights": weights, "m": np.zeros_like(weights),
            "v": np.zeros_like(weights), "best_weights": weights.copy()}


def keep_best(state: dict, spec: Stage, stage: str) -> None:
    """After an evaluation: the best weights so far are those of the best moving solo
    tuning mean, or in a stage of 2-4 players alone the latest (the solo mean is not its
    aim)."""
    smoothed = moving_best(state["history"], stage)
    if multiplayer_only(spec) or (stage != "warm" and smoothed > state["best"]):
        state["best"], state["best_weights"] = smoothed, state["weights"].copy()
        state["best_skip"], state["best_stage"] = state["skip"].copy(), stage


def evaluate(members: list[np.ndarray], skip: np.ndarray, n_in: int, rules: np.ndarray,
             opts: argparse.Namespace, stats: np.ndarray, spec: Stage, rounds_of: np.ndarray,
             rival: np.ndarray | None = None) -> dict:
    """A learning-curve entry: the self-play statistics since the last one and the
    tuning games (no exploring, no curriculum) of the network ``members[0]`` with its
    partners ``members[1:]``: solo, and in a stage with
    multiplayer games a 2-player mirror match too; with a ``rival`` row, two-player games
    against it, seats rotating."""
    row = value_weights.policy_row(members, n_in, skip=skip)
    mean, se, out = mean_score(row, rules, opts.eval_games, TUNING_SEED_BASE + opts.seed)
    games = stats[selfplay.STAT_GAMES]
    extra = {}
    if len(spec.players) > 1 and any(spec.players[1:]):
        extra["mirror_2p"] = mirror(row, rules, 2, int(rounds_of[2]), opts.eval_games,
                                    TUNING_SEED_BASE + opts.seed)
    if rival is not None:
        extra["vs_solo_net_2p"] = match([row, rival], rules, int(rounds_of[2]),
                                        opts.eval_games, TUNING_SEED_BASE + opts.seed, True)
    return {**extra, "self_play_mean": round(stats[selfplay.STAT_SCORE] / games, 2),
            "rms_error": round(float(np.sqrt(stats[selfplay.STAT_ERR_SQ]
                                             / stats[selfplay.STAT_SAMPLES])), 2),
            "samples_per_game": round(stats[selfplay.STAT_SAMPLES] / games, 1),
            "capped_dice_per_game": round(stats[selfplay.STAT_CAPPED] / games, 2),
            "tuning_mean": round(mean, 2), "tuning_se": round(se, 2),
            "areas": [round(float(a), 1) for a in out[play.COL_AREAS:play.COL_AREAS + 5]],
            "fox_points": round(float(out[play.COL_FOX_POINTS]), 1)}


def _total_before(stages: dict[str, Stage], stage: str, scale: float) -> int:
    """The games of the stages before ``stage``."""
    names = list(stages)
    return sum(stage_games(stages, name, scale) for name in names[:names.index(stage)])


def compare(rows: list[np.ndarray], rules: np.ndarray, games: int, seed: int
            ) -> list[dict[str, float]]:
    """Paired solo means of policy rows on the same games: each row's mean and its
    difference from the first row's, with 95% intervals (``analyzer.paired.metric``)."""
    lineups = np.stack([row[None, :] for row in rows])
    job = driver.Job(driver.BlockLoop.of(play.paired_block),
                     (lineups, np.full(len(rows), ROUNDS), np.stack([rules] * len(rows))),
                     (len(rows) + 1, len(rows), play.N_PAIRED), GAME_BLOCK, seed,
                     STREAM_PAIRED)
    acc, n = driver.run(job, games, progress=False)
    return [paired.metric(acc, n, v, play.PAIRED_SCORE_SUM, 1.0) for v in range(len(rows))]


def ship(opts: argparse.Namespace, model) -> None:
    """Write the game's value network files from the checkpoints' best weights (with
    ``--latest``, their latest): the ensemble of them if it beats its best member on
    paired tuning games by more than two standard errors, else that member alone. The
    games are played on the first checkpoint's training rules."""
    members, sources = [], []
    for path in opts.ship:
        saved = np.load(path, allow_pickle=False)
        members.append(saved["weights" if opts.latest else "best_weights"])
        stage = saved["stage" if opts.latest else "best_stage"]  # the weights' stage
        sources.append({"checkpoint": Path(path).name, "best_stage": str(stage),
                        "weights": "latest" if opts.latest else "best",
                        "best_moving_mean": round(float(saved["best"]), 2),
                        "settings": json.loads(str(saved["settings"])),
                        "history": json.loads(str(saved["history"]))})
    rules = model.GAME.game_rules({**defaults(model.PARAMS),
                                   **sources[0]["settings"].get("rules", {})})
    n_in = max(value_weights.inputs_of(m) for m in members)  # a member without the bonus
    members = [value_weights.widen(m, value_weights.inputs_of(m), n_in) for m in members]
    # block gets its inputs with zero weights: it plays as before
    choice = {}
    if len(members) > 1:
        rows = [value_weights.policy_row([m], n_in) for m in members]
        solo = compare(rows, rules, opts.ship_games, TUNING_SEED_BASE + opts.seed)
        best = max(range(len(members)), key=lambda k: solo[k]["value"])
        ensemble = compare([rows[best], value_weights.policy_row(members, n_in)], rules,
                           opts.ship_games, TUNING_SEED_BASE + opts.seed)[1]
        gain, low = ensemble["diff"], ensemble["diff_ci95_low"]
        choice = {"tuning_games": opts.ship_games,
                  "member_means": [round(s["value"], 2) for s in solo],
                  "ensemble_mean": round(ensemble["value"], 2),
                  "ensemble_gain": round(gain, 2),
                  "ensemble_gain_ci95": [round(low, 2), round(ensemble["diff_ci95_high"], 2)],
                  "shipped": "ensemble"}
        if gain <= 2 * (gain - low) / Z95:  # the gain is not above two standard errors
            members, sources = [members[best]], [sources[best]]
            choice["shipped"] = f"member {best}"
    info = {"game": GAMES[opts.game], "inputs": n_in, "hidden": [net.H1, net.H2],
            "members": len(members), "scale": value_net.SCALE,
            "source": "scripts/train_value.py", "ensemble": choice, "trainers": sources,
            "trained_on": trained_record(model, sources[0])}
    output = shipped_file(opts, model)
    value_weights.save(output, members, info)
    row = value_weights.policy_row(members, n_in)
    mean, se, _ = mean_score(row, rules, opts.eval_games, TUNING_SEED_BASE + opts.seed)
    print(f"wrote {output}: {len(members)} member(s), tuning mean {mean:.2f} +- "
          f"{1.96 * se:.2f}", file=sys.stderr)
    print(curve_table(sources))


def shipped_file(opts: argparse.Namespace, model) -> Path:
    """The value network file ``--ship`` and ``--ship-multi`` write."""
    return Path(opts.ship_to) if opts.ship_to else model.VALUE_FILE


def solo_file(opts: argparse.Namespace, model) -> Path:
    """The value network file whose solo networks ``--ship-multi`` keeps and a partner
    stage plays beside: ``--solo-from``, else the game's shipped file."""
    return Path(opts.solo_from) if opts.solo_from else model.VALUE_FILE


def solo_networks(path: Path, model, purpose: str) -> tuple[list[np.ndarray], dict]:
    """The networks of the value network file ``path`` that play the solo game (every
    one of an ensemble) and the file's settings; a one-line exit naming ``purpose`` when
    it cannot be read."""
    try:
        members, info = value_weights.load(path, model.GAME.kernel_game)
    except UserError as exc:
        fail(f"{purpose}: {exc}")
    return members[:value_weights.solo_members(info) or len(members)], info


def partner_digest(members: list[np.ndarray]) -> str:
    """The SHA-256 of the partner networks' weights (a resumed run, and the file it is
    shipped into, must hold the same ones)."""
    digest = hashlib.sha256()
    for weights in members:
        digest.update(np.asarray(weights, np.float32).tobytes())
    return "sha256:" + digest.hexdigest()


def ship_multi(path: Path, model, output: Path, solo_file: Path,
               play: dict[str, Any]) -> None:
    """Write the value network files ``output``: the solo networks of ``solo_file`` (the
    members that play the solo game; an ensemble keeps every one) and the best weights of
    the checkpoint ``path`` (a stage of 2-4 players) for games of 2-4 players, each with
    its training rules, and the settings of its play, ``play`` (``value_weights.load``
    checks them): games of the player counts ``"mixed"``, and of every count a network
    trained beside partners learnt in (shipped beside the same ones), play the mean of
    every network, the solo networks' mean weighted ``"solo_share"`` when it is above 0;
    with ``"second_seat"`` the solo networks read the second seat of a two-player game in
    the solo turn order; the value policy weighs ``"gift"`` times what its last roll's
    platter gives the opponents, and looks one roll ahead as ``"look"`` says."""
    solo, info = solo_networks(solo_file, model, "--ship-multi")
    try:
        saved = np.load(path, allow_pickle=False)
        source = {"checkpoint": path.name, "best_stage": str(saved["best_stage"]),
                  "settings": json.loads(str(saved["settings"])),
                  "history": json.loads(str(saved["history"]))}
    except (OSError, KeyError, ValueError) as exc:
        fail(f"--ship-multi {path}: not a training checkpoint ({exc})")
    multi = saved["best_weights"].astype(np.float32)
    n_in = value_weights.inputs_of(multi)
    if len(solo) + 1 > value_net.MAX_MEMBERS:
        fail(f"--ship-multi: {solo_file} has {len(solo)} solo networks; at most "
                 f"{value_net.MAX_MEMBERS - 1} fit beside the one for 2-4 players")
    first = [value_weights.widen(m, value_weights.inputs_of(m), n_in) for m in solo]
    partnered = "partners" in source["settings"]
    if partnered and source["settings"]["partners"] != partner_digest(solo):
        fail(f"--ship-multi: {path.name} learnt beside other solo networks than those of "
             f"{solo_file}; give the file it trained beside (--solo-from)")
    info = {**info, "inputs": n_in, "members": len(first) + 1, "solo_members": len(first),
            **play, "mixed": sorted(set(play["mixed"])
                                    | set(trained_counts(source) if partnered else [])),
            "skip": [float(x) for x in saved["best_skip"]] if "best_skip" in saved.files
            else [0.0] * seats.N_SEAT,
            "multiplayer_trainer": source,
            "trained_on": both_records(info["trained_on"], trained_record(model, source))}
    value_weights.save(output, [*first, multi], info)
    print(f"wrote {output}: {len(first)} solo network(s) of {solo_file.name} and "
          f"{path.name}'s for 2-4 players", file=sys.stderr)


def trained_counts(source: dict) -> list[int]:
    """The player counts of the games a trainer's best weights come from."""
    spec = {**Stage._field_defaults, **source["settings"]["stages"][source["best_stage"]]}
    return [n + 1 for n, share in enumerate(spec["players"]) if share > 0] or [1]


def both_records(solo: dict, multi: dict) -> dict:
    """The ``trained_on`` record of a solo network's and a network for 2-4 players': one
    record when they were trained on the same rules, else the solo one with the other
    under ``"multiplayer"`` (``analyzer.clever.trained_on``)."""
    solo = {k: v for k, v in solo.items() if k != "multiplayer"}
    if solo["rules"] == multi["rules"]:
        return {**solo, "players": sorted(set(solo["players"]) | set(multi["players"]))}
    return {**solo, "players": [1], "multiplayer": multi}


def trained_record(model, source: dict) -> dict:
    """The ``trained_on`` record (``analyzer.clever.trained_on``) of a trainer's best
    weights: the rules of its run and the player counts of the stage they come from."""
    rules = {**defaults(model.PARAMS), **source["settings"].get("rules", {})}
    return trained_on.training_record(model.PARAMS, rules, trained_counts(source))


def curve_table(sources: list[dict]) -> str:
    """The learning curves of the trainers as a Markdown table: tuning means by stage and
    games played in all."""
    rows = {}
    for k, source in enumerate(sources):
        for entry in source["history"]:
            key = (entry["stage"], entry["total_games"])
            rows.setdefault(key, [""] * len(sources))[k] = (
                f"{entry['tuning_mean']:.1f} ± {1.96 * entry['tuning_se']:.1f}")
    head = ["stage", "games"] + [s["checkpoint"] for s in sources]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for (stage, games), means in rows.items():
        lines.append(f"| {stage} | {games:,} | " + " | ".join(means) + " |")
    return "\n".join(lines)


def main() -> None:
    opts = parse()
    model = importlib.import_module(f"analyzer.games.{GAMES[opts.game]}.model")
    try:
        if opts.ship:
            ship(opts, model)
        elif opts.ship_multi:
            ship_multi(Path(opts.ship_multi), model, shipped_file(opts, model),
                       solo_file(opts, model),
                       {"mixed": opts.mixed, "solo_share": opts.solo_share,
                        "second_seat": opts.second_seat, "gift": opts.gift,
                        "look": opts.look})
    except UserError as exc:  # e.g. --ship-to a folder that does not exist
        fail(str(exc))
    if not opts.ship and not opts.ship_multi:
        train(opts, model, model.GAME.game_rules({**defaults(model.PARAMS),
                                                  **training_rules(opts)}))


if __name__ == "__main__":
    main()
