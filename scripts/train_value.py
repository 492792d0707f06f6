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
``learned`` finds it (``analyzer.games.clever.networks``).

``--curriculum seated`` (either game, ``--start-from`` its solo network or checkpoint):
the seat block (``kernels.clever_base.seats``) comes in with zero weights, then self-play with
the network in every seat of games of 1-4 players (``PLAYER_MIX``): ``seats``, 300,000
games, epsilon 0.02 to 0.01, step size 1e-5 for the first 2% (Adam's moments settle),
5e-5, then 2.5e-5 from 50%; ``settle``, 150,000 games at 0.01 and 3e-5. Each evaluation
adds a two-player mirror match (seats fixed) to the solo tuning games.
``--curriculum seatfour`` (Twice As Clever, ``--start-from training/tac-seatwin-14.npz``):
the shipped network for 2-4 players, 200,000 more games, half of them of four players.

``--curriculum conditioned`` and ``distilled`` (either game, ``--start-from`` its
``value_net.npy``): one solo network for every variant of the rules, the rules block
(``kernels.clever_base.rule_block``) coming in with zero rows; ``conditioned`` learns from its
own returns, ``distilled`` from the game's networks, each teaching the variants nearest
its own (``analyzer.games.clever.training.teachers``). Each evaluation adds the mean over the
check variants; ``--ship-conditioned`` ships the result as the game's solo network (with
``--alone``, beside it as ``value_net.conditioned.npy``). ``--curriculum retaught``
(``--start-from`` a distilled checkpoint with ``--start-latest``) goes on distilling it at
the last stage's step size, from the teachers shipped now (new or better specialists);
``--curriculum focused`` the same at the ``long`` stage's steps, with ``--teacher-weight``
drawing the variants of the teachers it trails most more often, and ``--teacher-plays``
letting a teacher play a share of its variants' games, so the network also learns its
values where the teacher's own play goes. ``--hidden 256`` widens the start network's first
hidden layer (it computes what it did; ``value_weights.widen_hidden``), and ``--curriculum
widened`` trains it like ``focused`` with larger first steps, ``annealed`` (Twice As Clever)
over the own network's last schedule, ``explored`` (Twice As Clever) at its last
exploration, ``partnered`` (Twice As Clever, ``--start-from`` its ``value_net.npy``) the
distilled stages with the own network beside the learner, unchanged, in every game, and
``partneredfocused`` (``--start-from`` a partnered checkpoint ``--start-latest``) the pair
through ``focused``;
``--own-returns`` lets the variants the own network would teach (the defaults among them)
learn from their own returns, and ``--own-sides`` has the own network's estimate taught on
one unchosen candidate of each of their decisions as well.
Which shipped file plays each game shape is measured after shipping
(``scripts/measure_routes.py``).

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
run); ``python scripts/train_value.py --game tac --curriculum caps --seed 1 --stage bonus``;
``python scripts/train_value.py --config FILE`` runs the steps of a training config in
order (``analyzer.games.clever.training.config``).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import sys
from pathlib import Path
from typing import Any, Callable, NoReturn

import numpy as np

from analyzer.games.clever import partner, trained_on, value_weights, variants
from analyzer.games.clever.training import run as training_run
from analyzer.games.clever.training import config, teachers, unified
from analyzer.games.clever.training.games import TUNING_SEED_BASE, compare, mean_score
from analyzer.games.clever.training.stages import LAMBDA, NO_CURRICULUM, Stage
from analyzer.games.clever.training.state import CHUNK, read_checkpoint
from analyzer.errors import UserError
from analyzer import script_args
from analyzer.params import defaults
from analyzer.stats import Z95
from kernels.clever import net, value_net
from kernels.clever_base import seats

GAMES = {"tpc": "thats_pretty_clever", "tac": "twice_as_clever"}
TAC_YELLOW, TAC_BLUE = 1, 2  # Twice As Clever's areas (kernels.twice_as_clever.layout)
SPOT_SHARE, SPOT_BIAS = 0.2, 4.0  # the fox spotlight: on a fifth of the games, 4 points per
# point of the lowest area plus the fox points (0.01 on a value scale of 400 points)


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
# The same with four-player games drawn most (Twice As Clever's fourth seat won 21% of its
# four-player mirrors, where the heuristic's mirror gives that seat the most wins), from
# the shipped network for 2-4 players (``--start-from training/tac-seatwin-14.npz``)
SEATFOUR_STAGES = {"four": SEATWIN_STAGES["win"]._replace(
    games=200_000, players=(0.0, 0.25, 0.25, 0.5),
    steps=((0.0, 2e-6), (0.03, 5e-6), (0.5, 2.5e-6)))}
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
# One network for every variant of the rules (``analyzer.games.clever.variants``), from the game's
# solo network (``--start-from``): the rules block comes in with zero rows (play on every
# variant starts as the solo network's), then solo self-play with each game's rules drawn
# from the training distribution. First the skip head alone learns the rules block's
# linear term (how the points to come differ with the rules, fading with the rounds left;
# it never changes a decision), then the whole network at the step sizes that teach a new
# variant (a specialist for 5 rounds went from 125 to 172 points in 96,000 games at 3e-5;
# at 3e-6 no variant gained). Trials that did not ship: the rules block's rows alone, at
# 3e-4 or 1e-4, cost points on the check variants; a skip head over unscaled rule bits too
# (a constant offset is wrong at the game's end, where the exact score takes over: with
# the round bonuses off, the head alone took That's Pretty Clever from 162 to 140 points)
CONDITIONED_STAGES = {
    "head": Stage(40_000, 0.0, LAMBDA, (0.01, 0.01, 1.0), ((0.0, 1e-3),), True,
                  NO_CURRICULUM, 16, skip_head=True, skip_alone=True, rules_block=True),
    "variants": Stage(300_000, 0.0, LAMBDA, (0.01, 0.005, 1.0),
                      ((0.0, 3e-6), (0.03, 3e-5), (0.5, 1e-5), (0.8, 5e-6)), True,
                      NO_CURRICULUM, 16, skip_head=True, rules_block=True),
}
# The network for games of 2-4 players over the same variants, beside the conditioned solo
# network (``--solo-from`` its file, ``--start-from`` the same file with ``--start-member
# 1``): the partner stage's games and win bonus, its skip head from the file's
CONDITIONED_MULTI_STAGES = {"win": PARTNER_STAGES["win"]._replace(
    games=200_000, steps=((0.0, 3e-6), (0.03, 2e-5), (0.5, 1e-5)), skip_head=True,
    rules_block=True)}
# The same network distilled from the game's networks
# (``analyzer.games.clever.training.teachers``):
# the game's own solo network and its solo specialists each teach the games of the variants
# nearest their own, which make up three quarters of the table; the rest are drawn from the
# distribution as they are, and those no network teaches learn from their own returns. The
# teachers' estimates are the targets, so the step sizes are the conditioned run's; then a
# longer stage at the smaller steps (That's Pretty Clever after ``taught``: 4.7 points below
# its solo network on the defaults, 26-28 below the specialists of 4 and 5 rounds), and a
# last one at smaller steps still
DISTILLED_STAGES = {
    "head": CONDITIONED_STAGES["head"]._replace(games=20_000, teach=1.0),
    "taught": CONDITIONED_STAGES["variants"]._replace(teach=1.0),
    "long": CONDITIONED_STAGES["variants"]._replace(
        games=600_000, epsilon=(0.005, 0.005, 1.0), steps=((0.0, 1e-5), (0.5, 5e-6)),
        teach=1.0),
    "polish": CONDITIONED_STAGES["variants"]._replace(
        games=600_000, epsilon=(0.005, 0.005, 1.0), steps=((0.0, 2.5e-6),), teach=1.0),
}
# Twice As Clever's at its annealing steps: at 3e-5 its network lost 16 points on the
# defaults within 40,000 conditioned games, and a specialist for 7 rounds learning from its
# own returns fell from 407 to 321 points within 15,000 games
TAC_DISTILLED_STAGES = {
    "head": DISTILLED_STAGES["head"],
    "taught": DISTILLED_STAGES["taught"]._replace(steps=TAC_ANNEAL_STAGES["anneal"].steps),
    "long": DISTILLED_STAGES["long"]._replace(steps=((0.0, 5e-6), (0.5, 2.5e-6))),
    # after ``long`` (286.3 on the defaults, still rising about a point per 100,000 games;
    # That's Pretty Clever took 1.5 million games to come back within 5 points)
    "longer": DISTILLED_STAGES["long"]._replace(
        games=1_500_000, steps=((0.0, 5e-6), (0.6, 2.5e-6))),
}
# A distilled network's continuation (``--start-from`` its checkpoint ``--start-latest``)
# from the teachers shipped now: That's Pretty Clever's after new and better specialists;
# Twice As Clever's after ``longer`` was 27-32 points below its own network with 7 and 8
# rounds, which no network taught it. (Its own network cannot
# teach them: its values are a 6-round game's, 35 points rms from a 7- or 8-round game's
# returns, against 4 for the teachers' own variants; taught so, the network fell from 292
# to 244 on the defaults within 20,000 games, training/tac-retaught-45-own*.log)
RETAUGHT_STAGES = {
    "retaught": DISTILLED_STAGES["polish"]._replace(games=900_000),
}
# The same at the ``long`` stage's larger steps, meant with ``--teacher-weight`` on the
# variants where the conditioned network trails its teachers most (That's Pretty Clever
# after ``retaught``: 16.5 points below the 4-round specialist, 10.1 below no round bonus's)
FOCUSED_STAGES = {
    "focused": DISTILLED_STAGES["long"]._replace(games=600_000),
}
TAC_FOCUSED_STAGES = {"focused": TAC_DISTILLED_STAGES["long"]._replace(games=900_000)}
# The same for a network widened by ``--hidden 256`` (its new first-layer units' rows of the
# second layer start at zero), with a first phase at larger steps: at the ``focused``
# steps those rows grew to 5% of the old units' norm in 600,000 games (That's Pretty Clever)
WIDENED_STAGES = {"widened": FOCUSED_STAGES["focused"]._replace(
    steps=((0.0, 3e-5), (0.3, 1e-5), (0.6, 5e-6)))}
TAC_WIDENED_STAGES = {"widened": TAC_FOCUSED_STAGES["focused"]._replace(
    games=600_000, steps=((0.0, 1.5e-5), (0.3, 5e-6), (0.6, 2.5e-6)))}
# The same over the own network's last (``anneal``) schedule, its steps rising to 1e-5 and
# falling to 2.5e-6: meant with a large ``--teacher-weight`` on the own network's variants
# (Twice As Clever's conditioned network stayed 1.5-3 points below it on the defaults at
# the ``focused`` steps, whoever played the defaults' games; and at these:
# training/tac-annealed-48.log)
TAC_ANNEALED_STAGES = {"annealed": TAC_FOCUSED_STAGES["focused"]._replace(
    games=300_000, steps=TAC_ANNEAL_STAGES["anneal"].steps)}
# The same at the own network's last exploration (epsilon 0.02 falling to 0.01, against
# ``focused``'s 0.005): a value that greedy play undervalues is never chosen, so never
# corrected, and the conditioned network explores a quarter as often as the own one did
# (``explored``), then settled at its last epsilon and half the step sizes (``settled``;
# run 49 after ``explored``: 0.7 closer to the own network on two held-out seeds, within
# noise; after ``settled`` back where it started)
TAC_EXPLORED_STAGES = {
    "explored": TAC_FOCUSED_STAGES["focused"]._replace(games=300_000,
                                                        epsilon=(0.02, 0.01, 1.0)),
    "settled": TAC_FOCUSED_STAGES["focused"]._replace(
        games=200_000, epsilon=(0.01, 0.01, 1.0), steps=((0.0, 2.5e-6), (0.5, 1.25e-6))),
}
# The same with the rules block's first-layer rows alone learning (the skip head beside
# them): the rules block is 0 on the defaults, so play there stays the own network's, bit
# for bit, whatever the rows learn; each variant's rules shift every first-layer unit
# (fading with the rounds left where the inputs do). For Twice As Clever, whose network lost
# 16-40 points on the defaults whenever the whole of it learnt several networks' values
ROWS_DISTILLED_STAGES = {
    "head": DISTILLED_STAGES["head"],
    "rows": DISTILLED_STAGES["taught"]._replace(
        new_rows_only=True, steps=((0.0, 1e-4), (0.5, 3e-5), (0.8, 1e-5))),
}
# Twice As Clever's conditioned network as a correction to the own network: the own solo
# network plays beside it, unchanged, in every game (a partner; ``--start-from`` the own
# file, so the learner starts as its copy with the rules block's zero rows), and the pair
# plays the mean of the two. On the defaults the pair starts as the own network, and what
# the learner drifts there counts half (seven diets of the single network ended 2.6-3.1
# points below the own network on solo defaults)
TAC_PARTNERED_STAGES = {name: TAC_DISTILLED_STAGES[name]._replace(partner=True)
                        for name in ("head", "taught", "long", "longer")}
# The pair's continuation (``--start-from`` a partnered checkpoint ``--start-latest``) at
# the ``focused`` steps, as the single network's lineage went on after ``longer``: meant
# with ``--teacher-weight`` on the own network's variants and ``--teacher-plays`` letting
# the own network play half of their games (run 53 after 460,000 games of ``longer``: the
# pair 5.3 points below the own network on 4,000 paired solo games of the defaults)
TAC_PARTNERED_FOCUSED_STAGES = {"focused": TAC_FOCUSED_STAGES["focused"]._replace(partner=True)}
# One network for every game shape and player count (``--start-from`` the game's
# rule-conditioned file): games of 1-4 players over the game shapes
# (``analyzer.games.clever.training.unified``), each taught by the network ``learned``
# plays on its rules and player count now, which plays a quarter of them; the seat block's
# rows alone, never trained in the start network, learn the games of 2-4 players
# first (``seats``); then the whole network and its skip head (``unified``). Every game
# weighs the same whatever its player count: weighed by seat, the games of 2-4 players
# made 87% of what the network learnt, and it lost 14 points solo on the defaults within
# 140,000 games (That's Pretty Clever, run 64)
UNIFIED_SEATS = FOCUSED_STAGES["focused"]._replace(
    games=100_000, steps=((0.0, 1e-4), (0.5, 3e-5)), seat_block=True, skip_head=False,
    seat_rows_only=True, per_game=True)
UNIFIED_STAGES = {"seats": UNIFIED_SEATS, "unified": FOCUSED_STAGES["focused"]._replace(
    games=1_200_000, seat_block=True, per_game=True)}
TAC_UNIFIED_STAGES = {"seats": UNIFIED_SEATS, "unified": TAC_FOCUSED_STAGES["focused"]._replace(
    games=1_200_000, seat_block=True, per_game=True)}
UNIFIED_PLAYS = 0.25  # the share of a row's games its teacher plays
# The same network from random weights, by self-play alone (no teacher: the network plays
# every seat and learns from its own lambda-returns): the warm start from the heuristic's
# values, then the own network's schedule (``main``, ``polish``) and the anneal's steps, over
# the unified rows of game shapes and player counts. Every input block is there from the
# first game; the skip head learns with the network
_FRESH = dict(bonus_block=True, snapshot=16, seat_block=True, rules_block=True,
              skip_head=True, per_game=True)
FRESH_STAGES = {
    "warm": Stage(4000, 1.0, 1.0, (0.0, 0.0, 1.0), ((0.0, 1e-3),), **_FRESH),
    "main": Stage(600_000, 0.0, LAMBDA, (0.15, 0.02, 0.6),
                  ((0.0, 3e-4), (0.6, 1.5e-4), (0.85, 7.5e-5)), **_FRESH),
    "polish": Stage(300_000, 0.0, LAMBDA, (0.04, 0.01, 1.0), ((0.0, 1e-4), (0.5, 5e-5)),
                    **_FRESH),
    "anneal": Stage(300_000, 0.0, LAMBDA, (0.005, 0.005, 1.0),
                    TAC_ANNEAL_STAGES["anneal"].steps, **_FRESH),
}
VARIANT_TABLE = 4096  # variants drawn for a conditioned run's table (seed: the run's)
# runs over variants
OVER_VARIANTS = ("conditioned", "conditionedmulti", "distilled", "distilledrows", "retaught",
                 "focused", "widened", "annealed", "explored", "partnered",
                 "partneredfocused", "unified", "fresh")
DISTILLED = ("distilled", "distilledrows", "retaught", "focused", "widened",
             "annealed", "explored", "partnered", "partneredfocused")  # runs over
# variants with teachers
CURRICULA = {"tpc": {"standard": TPC_STAGES, "seated": SEATED_STAGES,
                     "seatrows": SEATED_ROWS_STAGES, "seatwin": SEATWIN_STAGES,
                     "duo": SEATWIN_DUO_STAGES, "skipwin": SKIPWIN_STAGES,
                     "gentle": GENTLE_STAGES, "partner": PARTNER_STAGES,
                     "partnerduo": PARTNER_DUO_STAGES, "partnerpoints": PARTNER_POINTS_STAGES,
                     "anneal": TPC_ANNEAL_STAGES, "conditioned": CONDITIONED_STAGES,
                     "conditionedmulti": CONDITIONED_MULTI_STAGES,
                     "distilled": DISTILLED_STAGES, "distilledrows": ROWS_DISTILLED_STAGES,
                     "retaught": RETAUGHT_STAGES, "focused": FOCUSED_STAGES,
                     "widened": WIDENED_STAGES, "unified": UNIFIED_STAGES,
                     "fresh": FRESH_STAGES},
             "tac": {"selfplay": TAC_SELFPLAY_STAGES, "caps": TAC_STAGES,
                     "endsturn": TAC_ENDS_TURN_STAGES, "skiproll": TAC_SKIP_ROLL_STAGES,
                     "anneal": TAC_ANNEAL_STAGES, "fine": TAC_FINE_STAGES,
                     "allowed": TAC_ALLOWED_STAGES,
                     "seated": SEATED_STAGES, "seatrows": SEATED_ROWS_STAGES,
                     "seatwin": SEATWIN_STAGES, "skipwin": SKIPWIN_STAGES,
                     "seatfour": SEATFOUR_STAGES,
                     "gentle": GENTLE_STAGES, "partner": PARTNER_STAGES,
                     "partnerduo": PARTNER_DUO_STAGES,
                     "partnerpoints": PARTNER_POINTS_STAGES,
                     "conditioned": CONDITIONED_STAGES,
                     "conditionedmulti": CONDITIONED_MULTI_STAGES,
                     "distilled": TAC_DISTILLED_STAGES, "retaught": RETAUGHT_STAGES,
                     "distilledrows": ROWS_DISTILLED_STAGES,
                     "focused": TAC_FOCUSED_STAGES, "widened": TAC_WIDENED_STAGES,
                     "annealed": TAC_ANNEALED_STAGES, "explored": TAC_EXPLORED_STAGES,
                     "partnered": TAC_PARTNERED_STAGES,
                     "partneredfocused": TAC_PARTNERED_FOCUSED_STAGES,
                     "unified": TAC_UNIFIED_STAGES, "fresh": FRESH_STAGES}}


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
                  "duo": {}, "skipwin": {}, "seatfour": {}, "gentle": {}, "partner": {},
                  "partnerduo": {},
                  "partnerpoints": {},
                  "allowed": {"return_empty_pool": "return_allowed"}, "conditioned": {},
                  "conditionedmulti": {}, "distilled": {}, "distilledrows": {}, "retaught": {},
                  "focused": {}, "widened": {}, "annealed": {}, "explored": {},
                  "partnered": {}, "partneredfocused": {}, "unified": {}, "fresh": {}}


def fail(message: str) -> NoReturn:
    """One line on stderr and exit status 2: the project's answer to bad input."""
    script_args.fail("train_value.py", message)


def training_rules(opts: argparse.Namespace) -> dict:
    """The rule values (beside the defaults) of the curriculum ``opts`` trains."""
    return TRAINING_RULES[opts.curriculum]


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = script_args.OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", metavar="FILE",
                        help="run the steps of this training config (TOML), each with its "
                             "own options; given alone")
    parser.add_argument("--game", choices=tuple(GAMES), default="tpc")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--curriculum", help="the stages to run (tpc: "
                        f"{', '.join(CURRICULA['tpc'])}; tac: {', '.join(CURRICULA['tac'])}; "
                        "each described where it is defined); default: the first")
    parser.add_argument("--teachers", nargs="+", metavar="NAME",
                        help="--curriculum distilled: only these of the game's specialists "
                             "teach, by file name (e.g. value_net.rounds_4.npy), beside its "
                             "own network (default: every solo specialist shipped)")
    parser.add_argument("--teacher-weight", action="append", default=[],
                        metavar="NAME=W",
                        help="a distilled curriculum: the variants of the teacher of this "
                             "file name (e.g. value_net.rounds_4.npy) are drawn W times as "
                             "often as another teacher's (default 1 each); repeatable")
    parser.add_argument("--teacher-plays", action="append", default=[],
                        metavar="NAME=Q",
                        help="a distilled curriculum: the teacher of this file name plays "
                             "a share Q of its variants' games (drawn per row of the "
                             "table), and the network learns its values on the positions "
                             "its play reaches (default 0: the network plays them); "
                             "repeatable")
    parser.add_argument("--own-plays-rest", action="store_true",
                        help="a distilled curriculum: the game's own network plays the "
                             "games of the variants no network teaches, and the network "
                             "learns their values from their returns (default: it plays "
                             "them itself)")
    parser.add_argument("--own-teaches-rest", action="store_true",
                        help="--curriculum distilled: the game's own network teaches the "
                             "variants no network of their shape learnt too (default: they "
                             "learn from their own returns)")
    parser.add_argument("--own-returns", action="store_true",
                        help="a distilled curriculum: the variants the game's own network "
                             "would teach (the defaults among them) learn from their own "
                             "returns instead, as the own network learnt (default: from "
                             "its estimates)")
    parser.add_argument("--own-sides", action="store_true",
                        help="a distilled curriculum: in the games of the variants the "
                             "game's own network would teach, each decision also records "
                             "one candidate it did not choose, taught the own network's "
                             "estimate (default: the chosen afterstates alone)")
    parser.add_argument("--stage", help="train up to the end of this stage (tpc: "
                        f"{', '.join(TPC_STAGES)}; "
                        f"tac selfplay: {', '.join(TAC_SELFPLAY_STAGES)}; "
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
    parser.add_argument("--start-latest", action="store_true",
                        help="--start-from a training checkpoint (.npz): start from its "
                             "latest weights and the Adam state they were trained to (a new "
                             "curriculum going on where a run ended; default: its best "
                             "weights, fresh Adam state)")
    parser.add_argument("--hidden", type=int, choices=net.WIDTHS,
                        help="the network's first hidden layer's width (default: the start "
                             "network's, else " + str(net.H1) + "); a start network of fewer "
                             "units is widened so that it computes what it did")
    parser.add_argument("--start-member", type=int, default=0, metavar="K",
                        help="--start-from a value_net.npy: start from its network K "
                             "(default 0, the first; 1: the network for 2-4 players)")
    parser.add_argument("--ship", nargs="+", metavar="CHECKPOINT",
                        help="write the game's value_net.npy from these checkpoints' best "
                             "weights (the ensemble's members) and stop")
    parser.add_argument("--ship-multi", metavar="CHECKPOINT",
                        help="add this checkpoint's best weights to the game's value_net.npy "
                             "as the network of games of 2-4 players (its first network "
                             "keeps the solo game) and stop")
    parser.add_argument("--ship-conditioned", metavar="CHECKPOINT",
                        help="write the game's value_net.npy with this conditioned run's "
                             "weights as its solo network and the rules block given to "
                             "every network, and stop")
    parser.add_argument("--alone", action="store_true",
                        help="--ship-conditioned writes the conditioned solo network alone "
                             "(ship it beside the game's file as value_net.conditioned.npy: "
                             "learned plays it on the variants no specialist was trained on)")
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
    opts = parser.parse_args(argv)
    if opts.chunk < 1 or opts.eval_every % opts.chunk or opts.eval_games < 1 \
            or not 0 < opts.scale <= 1 or opts.max_games < 0:
        parser.error("--eval-every must be a multiple of --chunk; --eval-games at least 1; "
                     "--scale within (0, 1]; --max-games 0 or more")
    if opts.curriculum is not None and opts.curriculum not in CURRICULA[opts.game]:
        parser.error(f"--curriculum for {opts.game}: one of "
                     f"{', '.join(CURRICULA[opts.game])}")
    if opts.latest and not (opts.ship or opts.ship_conditioned) \
            or opts.alone and not opts.ship_conditioned \
            or opts.start_latest and not str(opts.start_from or "").endswith(".npz") \
            or (opts.teachers or opts.own_teaches_rest or opts.teacher_weight
                or opts.own_plays_rest or opts.teacher_plays or opts.own_returns
                or opts.own_sides) \
            and opts.curriculum not in DISTILLED \
            or opts.own_returns and opts.own_teaches_rest \
            or opts.mixed and not opts.ship_multi \
            or (opts.solo_share or opts.second_seat) and not opts.mixed \
            or opts.gift and not opts.ship_multi \
            or opts.look and not (opts.ship_multi or opts.ship_conditioned):
        parser.error("--latest goes with --ship, --alone with --ship-conditioned, "
                     "--start-latest with --start-from a checkpoint (.npz), --teachers, "
                     "--teacher-weight, --teacher-plays, --own-plays-rest, --own-sides, "
                     "--own-returns and --own-teaches-rest with a distilled curriculum "
                     "(not the last two together), "
                     "--mixed with --ship-multi, --gift with "
                     "--ship-multi, --look with --ship-multi or --ship-conditioned, "
                     "--solo-share with --mixed, "
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


def latest_start(path: Path) -> tuple[np.ndarray, np.ndarray, dict, int]:
    """``--start-latest``: the latest weights, skip head and Adam state (``Run``'s
    ``start_moments``) of the training checkpoint ``path``, and its network's width."""
    try:
        saved = read_checkpoint(path)
        width = value_weights.hidden_of(json.loads(str(saved["settings"])))
    except (OSError, KeyError, ValueError, UserError) as exc:
        fail(f"--start-from {path}: not a training checkpoint ({exc})")
    moments = {"m": saved["m"], "v": saved["v"], "step": int(saved["step"]),
               "skip_moments": saved["skip_moments"]}
    return saved["weights"].astype(np.float32), saved["skip"], moments, width


def start_weights(path: Path, game: int, member: int = 0
                  ) -> tuple[np.ndarray, np.ndarray | None, int]:
    """Member ``member`` of the value network file ``path`` (.npy) and the file's skip
    head, or the best weights and skip head of the training checkpoint ``path`` (.npz),
    and the network's width."""
    try:
        if path.suffix == ".npz":
            saved = read_checkpoint(path)
            return saved["best_weights"].astype(np.float32), saved.get("best_skip"), \
                value_weights.hidden_of(json.loads(str(saved["settings"])))
        members, info = value_weights.load(path, game)
        weights = np.asarray(members[member], np.float32).copy()
    except (OSError, KeyError, ValueError, UserError, IndexError) as exc:
        fail(f"--start-from {path}: not a value network or training checkpoint with network "
             f"{member} ({exc})")
    return weights, np.asarray(info.get("skip", []), np.float64), value_weights.hidden_of(info)


def widened_start(opts: argparse.Namespace, start: np.ndarray, moments: dict | None,
                  width: int, extra: dict) -> tuple[np.ndarray, dict | None, int]:
    """The start network (and its Adam moments) given ``--hidden``'s first-layer units
    (``value_weights.widen_hidden``: it computes what it did), and the run's width."""
    hidden = opts.hidden or width
    if hidden < width:
        fail(f"--hidden {hidden}: the start network has {width} first-layer units; "
             "give as many or more")
    if hidden == width:
        return start, moments, width
    n_in = value_weights.inputs_of(start, width)
    extra["widened"] = [width, hidden]
    start = value_weights.widen_hidden(start, n_in, width, hidden, opts.seed)
    if moments is not None:
        moments = {**moments, **{k: value_weights.widen_hidden(moments[k], n_in, width,
                                                               hidden, 0, moments=True)
                                 for k in ("m", "v")}}
    return start, moments, hidden


def solo_rival(model) -> np.ndarray:
    """The policy row of the game's shipped solo network (its first member), the rival of
    a multiplayer stage's two-player evaluation games."""
    members, info = value_weights.load(model.VALUE_FILE, model.GAME.kernel_game)
    return value_weights.policy_row(members[:1], int(info["inputs"]))


def ship(opts: argparse.Namespace, model) -> None:
    """Write the game's value network files from the checkpoints' best weights (with
    ``--latest``, their latest): the ensemble of them if it beats its best member on
    paired tuning games by more than two standard errors, else that member alone. The
    games are played on the first checkpoint's training rules."""
    members, sources = [], []
    for path in opts.ship:
        saved = read_checkpoint(Path(path))
        members.append(saved["weights" if opts.latest else "best_weights"])
        stage = saved["stage" if opts.latest else "best_stage"]  # the weights' stage
        sources.append({"checkpoint": Path(path).name, "best_stage": str(stage),
                        "weights": "latest" if opts.latest else "best",
                        "best_moving_mean": round(float(saved["best"]), 2),
                        "settings": json.loads(str(saved["settings"])),
                        "history": json.loads(str(saved["history"]))})
    rules = model.GAME.game_rules({**defaults(model.PARAMS),
                                   **sources[0]["settings"].get("rules", {})})
    widths = {value_weights.hidden_of(source["settings"]) for source in sources}
    if len(widths) > 1:
        fail(f"--ship: checkpoints of networks of {sorted(widths)} first-layer units; give "
             "one width")
    h1 = widths.pop()
    n_in = max(value_weights.inputs_of(m, h1) for m in members)  # a member without the
    members = [value_weights.widen(m, value_weights.inputs_of(m, h1), n_in, h1)
               for m in members]  # bonus block gets its inputs with zero weights
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
    info = {"game": GAMES[opts.game], "inputs": n_in, "hidden": [h1, net.H2],
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


def check_partner_width(width: int, partner_width: int, partner_file: Path) -> None:
    """A one-line exit unless a partner stage's learner, of ``width`` first-layer units,
    is as wide as its partners (the solo networks of ``partner_file``): members of a row
    share one width."""
    if width != partner_width:
        fail(f"the partner stage: the learner would have {width} first-layer units and its "
             f"partners ({partner_file.name}) {partner_width}; start from a network of "
             f"{partner_width} (--start-from, --hidden)")


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
        saved = read_checkpoint(path)
        source = {"checkpoint": path.name, "best_stage": str(saved["best_stage"]),
                  "settings": json.loads(str(saved["settings"])),
                  "history": json.loads(str(saved["history"]))}
    except (KeyError, ValueError, UserError) as exc:
        fail(f"--ship-multi {path}: not a training checkpoint ({exc})")
    multi = saved["best_weights"].astype(np.float32)
    h1 = value_weights.hidden_of(source["settings"])
    if h1 != value_weights.hidden_of(info):
        fail(f"--ship-multi {path}: its network's first-layer width differs from "
             f"{solo_file}'s solo networks'")
    n_in = value_weights.inputs_of(multi, h1)
    if len(solo) + 1 > value_net.MAX_MEMBERS:
        fail(f"--ship-multi: {solo_file} has {len(solo)} solo networks; at most "
                 f"{value_net.MAX_MEMBERS - 1} fit beside the one for 2-4 players")
    first = [value_weights.widen(m, value_weights.inputs_of(m, h1), n_in, h1) for m in solo]
    partnered = "partners" in source["settings"]
    if partnered and source["settings"]["partners"] != partner_digest(solo):
        fail(f"--ship-multi: {path.name} learnt beside other solo networks than those of "
             f"{solo_file}; give the file it trained beside (--solo-from)")
    info = {**info, "inputs": n_in, "members": len(first) + 1, "solo_members": len(first),
            **play, "mixed": sorted(set(play["mixed"])
                                    | set(trained_counts(source) if partnered else [])),
            "skip": [float(x) for x in saved["best_skip"]] if "best_skip" in saved
            else [0.0] * seats.N_SEAT,
            "multiplayer_trainer": source,
            "trained_on": both_records(info["trained_on"], trained_record(model, source))}
    value_weights.save(output, [*first, multi], info)
    print(f"wrote {output}: {len(first)} solo network(s) of {solo_file.name} and "
          f"{path.name}'s for 2-4 players", file=sys.stderr)


def ship_conditioned(path: Path, model, output: Path, latest: bool, alone: bool = False,
                     look: dict | None = None) -> None:
    """Write the value network files ``output``: the game's own file with every network
    given the rules block (zero rows), its solo network replaced by the weights of the
    conditioned run's checkpoint ``path`` (best, or with ``latest`` the latest), and a
    ``trained_on`` record naming the training distribution (``analyzer.games.clever.variants``)
    of the solo network; the network for 2-4 players keeps its own record. With
    ``alone``, the solo network alone (a specialist over variants, beside the game's own
    file: ``analyzer.games.clever.networks``; which file plays each game shape is measured
    after, by ``scripts/measure_routes.py``); ``look`` (``--look``) sets the look one roll
    ahead of the solo network, alone. A partnered run's network ships alone, beside its
    partners (the own file's solo networks, given the rules block), all of them playing
    every game."""
    members, info = value_weights.load(model.VALUE_FILE, model.GAME.kernel_game)
    try:
        saved = read_checkpoint(path)
        settings = json.loads(str(saved["settings"]))
        trained = saved["weights" if latest else "best_weights"].astype(np.float32)
        head = saved["skip" if latest else "best_skip"]
    except (KeyError, ValueError, UserError) as exc:
        fail(f"--ship-conditioned {path}: not a training checkpoint ({exc})")
    if "variants" not in settings:
        fail(f"--ship-conditioned {path}: not a run over variants (--curriculum conditioned)")
    width = value_weights.hidden_of(settings)
    if width != value_weights.hidden_of(info) and not alone:
        fail(f"--ship-conditioned {path}: its network has {width} first-layer units, the "
             "game's own file's another number; ship it --alone")
    n_in = value_weights.inputs_of(trained, width)
    solo = value_weights.solo_members(info) or len(members)
    partners = shipped_partners(path, settings, members[:solo], n_in, alone)
    others = [] if alone else [
        value_weights.widen(m, value_weights.inputs_of(m, width), n_in, width)
        for m in members[solo:]]
    own = info["trained_on"]
    multi = own.get("multiplayer", {**own, "players": [n for n in own["players"] if n > 1]})
    record = {**trained_on.training_record(model.PARAMS, defaults(model.PARAMS), [1]),
              "variants": variants.distribution(model.GAME)}
    if "teachers" in settings:  # distilled: its own draws of the same variants
        record["variants"].update(free_share=teachers.FREE_SHARE,
                                  teachers=[t.split()[0] for t in settings["teachers"]])
    if others:
        record["multiplayer"] = multi
    source = {"checkpoint": path.name, "weights": "latest" if latest else "best",
              "settings": settings, "history": json.loads(str(saved["history"]))}
    seat_head = (list(info.get("skip", head[:seats.N_SEAT])) + [0.0] * seats.N_SEAT
                 )[:seats.N_SEAT]
    if alone:
        info = {k: v for k, v in info.items() if k in ("game", "scale")}
        info["hidden"] = [width, net.H2]
        if look:
            info["look"] = look
    info = {**info, "inputs": n_in, "members": 1 + len(partners) + len(others),
            "solo_members": 1 if others else 0, "conditioned_trainer": source,
            "skip": seat_head + [float(x) for x in head[seats.N_SEAT:]],
            "rule_inputs": variants.input_names(model.GAME), "trained_on": record}
    value_weights.save(output, [trained, *partners, *others], info)
    print(f"wrote {output}: {path.name}'s conditioned solo network"
          + (f" beside {len(partners)} partner(s)" if partners else "")
          + (f" and {len(others)} network(s) for 2-4 players" if others else ""),
          file=sys.stderr)


def shipped_partners(path: Path, settings: dict, solo: list[np.ndarray], n_in: int,
                     alone: bool) -> list[np.ndarray]:
    """The partners a conditioned run's network played beside (none for a run without):
    the own file's solo networks ``solo``, given the run's ``n_in`` inputs; a one-line
    exit when the run was not partnered by them or is not shipped ``alone``."""
    if "partners" not in settings:
        return []
    if not alone:
        fail(f"--ship-conditioned {path}: a partnered run ships --alone")
    if settings["partners"] != partner_digest(solo):
        fail(f"--ship-conditioned {path}: its partners are not the game's solo networks now")
    return [value_weights.widen(m, value_weights.inputs_of(m), n_in) for m in solo]


def trained_counts(source: dict) -> list[int]:
    """The player counts of the games a trainer's best weights come from."""
    spec = {**Stage._field_defaults, **source["settings"]["stages"][source["best_stage"]]}
    return [n + 1 for n, share in enumerate(spec["players"]) if share > 0] or [1]


def both_records(solo: dict, multi: dict) -> dict:
    """The ``trained_on`` record of a solo network's and a network for 2-4 players': one
    record when they were trained on the same rules, else the solo one with the other
    under ``"multiplayer"`` (``analyzer.games.clever.trained_on``)."""
    solo = {k: v for k, v in solo.items() if k != "multiplayer"}
    if solo["rules"] == multi["rules"]:
        return {**solo, "players": sorted(set(solo["players"]) | set(multi["players"]))}
    return {**solo, "players": [1], "multiplayer": multi}


def trained_record(model, source: dict) -> dict:
    """The ``trained_on`` record (``analyzer.games.clever.trained_on``) of a trainer's best
    weights: the rules of its run and the player counts of the stage they come from, and
    the distribution of variants it drew them from, if any."""
    rules = {**defaults(model.PARAMS), **source["settings"].get("rules", {})}
    record = trained_on.training_record(model.PARAMS, rules, trained_counts(source))
    if "variants" in source["settings"]:
        record["variants"] = variants.distribution(model.GAME)
    return record


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


def train(opts: argparse.Namespace, model, rules: np.ndarray) -> None:
    """Run the curriculum's stages (``analyzer.games.clever.training.run``), a progress line on
    stderr after every evaluation."""
    stages = stages_of(opts)
    extra = {"rules": training_rules(opts)}
    if opts.curriculum in OVER_VARIANTS:
        extra["variants"] = {"count": VARIANT_TABLE, "seed": opts.seed,
                             **variants.distribution(model.GAME)}
    if opts.start_from:
        extra["start_from"] = start_digest(Path(opts.start_from))
    partners, partner_info = solo_networks(solo_file(opts, model), model, "the partner stage") \
        if any(spec.partner for spec in stages.values()) else ([], {})
    if partners:
        extra["partners"] = partner_digest(partners)
    if opts.fork_from:
        extra["fork_from"] = Path(opts.fork_from).name
    game = model.GAME
    start, start_skip, moments, width = None, None, None, opts.hidden or net.H1
    if opts.start_latest:
        extra["start_latest"] = True
        start, start_skip, moments, width = latest_start(Path(opts.start_from))
    elif opts.start_from:
        start, start_skip, width = start_weights(Path(opts.start_from), game.kernel_game,
                                                 opts.start_member)
    if start is not None:
        start, moments, width = widened_start(opts, start, moments, width, extra)
    if partners:
        check_partner_width(width, value_weights.hidden_of(partner_info), solo_file(opts, model))
    if opts.start_member:
        extra["start_member"] = opts.start_member
    conditioned = list(stages.values())[0].rules_block  # starts from its file's skip head
    table, checks, taught = variant_tables(opts, game, extra)
    run = training_run.Run(
        game=opts.game, stages=stages, seed=opts.seed, until=opts.stage,
        checkpoint=Path(opts.checkpoint or f"checkpoints/{opts.game}-value-{opts.seed}.npz"),
        rules=rules, rounds_of=game.layout.ROUNDS_BY_PLAYERS, heuristic=game.heuristic_row(),
        settings=extra, variants=table, checks=checks, eval_every=opts.eval_every,
        eval_games=opts.eval_games, hidden=width, chunk=opts.chunk, scale=opts.scale,
        max_games=opts.max_games, start=start,
        start_skip=start_skip if conditioned and start_skip is not None and start_skip.size
        else None, start_moments=moments,
        fork_from=Path(opts.fork_from) if opts.fork_from else None, partners=partners,
        rival=solo_rival(model) if any(training_run.multiplayer_only(spec)
                                       for spec in stages.values()) else None,
        teachers=taught[0] if taught else None, teacher_of=taught[1] if taught else None,
        actor_of=taught[2] if taught else None, side_of=taught[3] if taught else None,
        report=None if opts.quiet else progress_line,
        note=lambda line: print(line, file=sys.stderr))
    if start is not None and not run.checkpoint.exists():
        print(f"starting from {opts.start_from}", file=sys.stderr)
    try:
        training_run.train(run)
    except UserError as exc:
        fail(str(exc))


def variant_tables(opts: argparse.Namespace, game, extra: dict
                   ) -> tuple[np.ndarray | None, np.ndarray | None, tuple | None]:
    """A run over variants' tables: the variants its games draw from (int64[V,
    N_GAME_RULES]), the check variants' (none for a run of 2-4 players alone) and, for a
    distilled run, its teachers (``(rows, teacher_of, actor_of, side_of)``, their files'
    digests added to
    ``extra``); all none for a run under fixed rules."""
    if "variants" not in extra:
        return None, None, None
    checks = None
    if not any(training_run.multiplayer_only(spec) for spec in stages_of(opts).values()):
        checks = variants.table(game, variants.check_variants(game))
    if opts.curriculum == "unified":
        return unified_tables(opts, game, extra, checks)
    if opts.curriculum == "fresh":
        extra["unified"] = {"shares": list(unified.PLAYER_SHARES)}
        return unified.table(game, unified.sample(game, VARIANT_TABLE, opts.seed)), checks, None
    if opts.curriculum not in DISTILLED:
        sample = variants.sample(game, VARIANT_TABLE, opts.seed)
        return variants.table(game, sample), checks, None
    files = teachers.teacher_files(game)
    if opts.teachers:
        unknown = set(opts.teachers) - {path.name for path in files[1:]}
        if unknown:
            fail(f"--teachers {', '.join(sorted(unknown))}: not a solo specialist of the "
                 f"game; its specialists: {', '.join(p.name for p in files[1:])}")
        files = files[:1] + [path for path in files[1:] if path.name in opts.teachers]
    extra["teachers"] = [start_digest(path) for path in files]
    weights = named_shares(opts.teacher_weight, files, "--teacher-weight", 1.0,
                           lambda w: 0.0 < w < 1e3, "W a weight above 0 and below 1000")
    if weights is not None:
        extra["teacher_weights"] = weights
    sample = teachers.taught_sample(game, VARIANT_TABLE, opts.seed,
                                    teachers.taught_changes(game, files), weights=weights)
    rows, teacher_of = teachers.teacher_table(game, files, sample)
    actor_of = np.full(teacher_of.shape, -1, np.int64)
    shares = named_shares(opts.teacher_plays, files, "--teacher-plays", 0.0,
                          lambda q: 0.0 <= q <= 1.0, "Q a share from 0 to 1")
    if shares is not None:
        extra["teacher_plays"] = shares
        actor_of = teachers.acting_rows(teacher_of, shares, opts.seed)
    if opts.own_plays_rest:
        extra["own_plays_rest"] = True
        actor_of[teacher_of < 0] = 0
    if opts.own_teaches_rest:
        extra["own_teaches_rest"] = True
        teacher_of[teacher_of < 0] = 0
    side_of = np.full(teacher_of.shape, -1, np.int64)
    if opts.own_sides:
        extra["own_sides"] = True
        side_of[teacher_of == 0] = 0
    if opts.own_returns:
        extra["own_returns"] = True
        teacher_of = teachers.own_learns_returns(teacher_of)
    return variants.table(game, sample), checks, (rows, teacher_of, actor_of, side_of)


def unified_tables(opts: argparse.Namespace, game, extra: dict, checks: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, tuple]:
    """The tables of a run of the one network (``training.unified``): rows of rules and
    player counts, each taught by what ``learned`` plays on them now, which plays
    ``UNIFIED_PLAYS`` of their games; the teachers' keys added to ``extra``."""
    rows = unified.sample(game, VARIANT_TABLE, opts.seed)
    n_in = int(value_net.n_inputs(game.kernel_game, 3))
    taught, teacher_of, keys = unified.teacher_table(
        rows, lambda values: learned_teacher(game, values, n_in))
    extra["unified"] = {"shares": list(unified.PLAYER_SHARES), "plays": UNIFIED_PLAYS,
                        "teachers": [" + ".join(key) for key in keys]}
    actor_of = teachers.acting_rows(teacher_of, [UNIFIED_PLAYS] * len(keys), opts.seed)
    side_of = np.full(teacher_of.shape, -1, np.int64)
    return unified.table(game, rows), checks, (taught, teacher_of, actor_of, side_of)


def learned_teacher(game, values: dict, n_in: int) -> tuple[np.ndarray, tuple[str, ...]]:
    """The policy row ``learned`` plays on the rule ``values`` (its player count among
    them), every member given ``n_in`` inputs (zero rows), and the digests of its members'
    files as its key."""
    path = game.network_file(values)
    members, info = game.file_networks(path)
    extra = partner.partner_members(path, info, values, game.layout.ROUNDS_BY_PLAYERS,
                                    game.kernel_game)
    own = int(info["inputs"])
    wide = [value_weights.widen(m, own, n_in, int(net.width_of(m.size, own)))
            for m in members + extra]
    key = (start_digest(path),) + ((start_digest(path.parent / info["partner"]["file"]),)
                                   if extra else ())
    return value_weights.file_row(wide, {**info, "inputs": n_in}), key


def named_shares(given: list[str], files: list[Path], option: str, default: float,
                 fits: Callable[[float], bool], accepted: str) -> list[float] | None:
    """The value of each teaching file from ``option NAME=V`` items (``default`` where none
    is given), or None where none is; a value that ``fits`` refuses is one line saying
    what is ``accepted`` (``"W, a weight above 0 ..."``)."""
    if not given:
        return None
    names = [path.name for path in files]
    values = [default] * len(files)
    for item in given:
        name, _, text = item.partition("=")
        try:
            value = float(text)
        except ValueError:
            value = float("nan")
        if name not in names or not fits(value):
            fail(f"{option} {item}: expected NAME={accepted[0]}, NAME one of the teachers "
                 f"({', '.join(names)}) and {accepted}")
        values[names.index(name)] = value
    return values


def progress_line(entry: dict, elapsed: float, played: int) -> None:
    """One evaluation's line on stderr."""
    print(f"{entry['stage']:>8} {entry['games']:>7}: self-play {entry['self_play_mean']:6.1f}"
          f" (eps {entry['epsilon']:.3f}, lr {entry['lr']:.1e}, rms {entry['rms_error']:5.1f}),"
          f" tuning {entry['tuning_mean']:6.2f} +- {1.96 * entry['tuning_se']:.2f},"
          f" areas {entry['areas']}, fox points {entry['fox_points']};"
          + (f" checks {entry['check_mean']} {entry.get('check_scores', '')};"
             if "check_mean" in entry else "")
          + (f" 2p mirror {entry['mirror_2p']};" if "mirror_2p" in entry else "")
          + (f" 2p vs solo net {entry['vs_solo_net_2p']};"
             if "vs_solo_net_2p" in entry else "")
          + f" {elapsed:5.0f} s, {played / elapsed:4.0f} games/s",
          file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> None:
    """Run the command line ``argv`` (none: the process's), or with ``--config FILE``
    every step of that training config in order (``training.config``)."""
    if argv is None and "--config" in sys.argv[1:]:
        run_config(sys.argv[1:])
        return
    opts = parse(argv)
    model = importlib.import_module(f"analyzer.games.{GAMES[opts.game]}.model")
    try:
        if opts.ship:
            ship(opts, model)
        elif opts.ship_conditioned:
            ship_conditioned(Path(opts.ship_conditioned), model, shipped_file(opts, model),
                             opts.latest, opts.alone, opts.look)
        elif opts.ship_multi:
            ship_multi(Path(opts.ship_multi), model, shipped_file(opts, model),
                       solo_file(opts, model),
                       {"mixed": opts.mixed, "solo_share": opts.solo_share,
                        "second_seat": opts.second_seat, "gift": opts.gift,
                        "look": opts.look})
    except UserError as exc:  # e.g. --ship-to a folder that does not exist
        fail(str(exc))
    if not opts.ship and not opts.ship_multi and not opts.ship_conditioned:
        train(opts, model, model.GAME.game_rules({**defaults(model.PARAMS),
                                                  **training_rules(opts)}))


def run_config(argv: list[str]) -> None:
    """``--config FILE`` (alone): each step of the config, as its own command line."""
    if len(argv) != 2 or argv[0] != "--config":
        fail("--config FILE is given alone: the config holds every option")
    try:
        steps = config.read_steps(Path(argv[1]))
        lines = [config.step_arguments(step) for step in steps]
    except UserError as exc:
        fail(str(exc))
    for k, line in enumerate(lines, start=1):
        print(f"step {k} of {len(lines)}: {' '.join(line)}", file=sys.stderr, flush=True)
        main(line)


if __name__ == "__main__":
    main()
