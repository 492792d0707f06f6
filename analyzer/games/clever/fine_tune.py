"""A user's network: the learned player's network fine-tuned by solo self-play on one
variant of the rules (``dicelab GAME train --set KEY=VALUE ... --network FILE``).

The fine-tune starts from the game's one network and writes the file the user names
(``value_net.npy`` format, its ``.json`` beside it, whose card names the variant it was
trained on: ``analyzer.games.clever.networks``). Nothing picks it up by itself: a
command plays it where the user names it (``--network FILE``, ``CleverGame.with_network``).
Its training checkpoint sits beside it until the run ends; running the same command again
resumes it and ends with the same weights, bit for bit."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

from analyzer.games.clever import networks, value_weights, variants
from analyzer.games.clever.game import CleverGame
from analyzer.games.clever.training import games as tgames
from analyzer.games.clever.training import run as training_run
from analyzer.games.clever.training.games import TUNING_SEED_BASE
from analyzer.games.clever.training.stages import LAMBDA, NO_CURRICULUM, Stage
from analyzer.errors import Interrupted, UserError
from analyzer.files import check_writable
from analyzer.output import Result, run_meta
from analyzer.run.progress import Progress
from analyzer.stats import Z95
from kernels.clever import net, value_net

EVALUATIONS = 10  # evaluations (and checkpoints) in a run
EVAL_GAMES = 1000  # solo games on the variant per evaluation
COMPARE_GAMES = 4000  # paired solo games of the fine-tune against its start network
SNAPSHOT = 16
CHUNK = 8 * SNAPSHOT  # games per training call (the progress bar's step)


# the step sizes of a fine-tune, by game: That's Pretty Clever's at 3e-5 after a short start
# while Adam's fresh moments settle; Twice As Clever's network lost 86 points within 15,000
# games there (7 rounds, from 407), so it takes its annealing steps, a third of those
STEPS = {"tpc": ((0.0, 3e-6), (0.03, 3e-5), (0.5, 1e-5), (0.8, 5e-6)),
         "tac": ((0.0, 2e-6), (0.03, 1e-5), (0.4, 5e-6), (0.75, 2.5e-6))}


def stages(game: CleverGame, games: int) -> dict[str, Stage]:
    """A fine-tune's one stage: ``games`` solo games on its variant at the game's
    ``STEPS``, the skip head learning with the network."""
    return {"fine-tune": Stage(games, 0.0, LAMBDA, (0.01, 0.005, 1.0), STEPS[game.prefix],
                                True, NO_CURRICULUM, SNAPSHOT, skip_head=True,
                                rules_block=True)}


def start_network(game: CleverGame) -> tuple[np.ndarray, np.ndarray]:
    """The network a fine-tune starts from, and its skip head: the game's one network."""
    members, info = game.file_networks(game.learned_file)
    return members[0], np.asarray(info["skip"], np.float64)


def train(game: CleverGame, values: dict[str, Any], path: Path, games: int, seed: int,
          advance: Callable[[int], None] = lambda n: None) -> dict[str, Any]:
    """Fine-tune the network of the solo variant ``values`` for ``games`` games (a whole
    number of snapshots), write it to ``path`` and measure it against the network it
    started from on paired games; its learning curve, file and gain."""
    if games < SNAPSHOT or games % SNAPSHOT:
        raise UserError(f"bad --games {games}: a multiple of {SNAPSHOT}, at least {SNAPSHOT}")
    values = {**values, "players": 1}
    check_writable(path)
    checkpoint = path.with_name(f"{path.stem}.seed{seed}.games{games}.checkpoint.npz")
    rules = game.game_rules(values)
    n_in = int(value_net.n_inputs(game.kernel_game, 3))
    start = start_network(game)
    run = training_run.Run(
        game=game.prefix, stages=stages(game, games), seed=seed, until="fine-tune",
        checkpoint=checkpoint, rules=rules, rounds_of=game.layout.ROUNDS_BY_PLAYERS,
        heuristic=game.heuristic_row(), settings={"variant": variants.label(game, values)},
        eval_every=max(games // EVALUATIONS // CHUNK, 1) * CHUNK, eval_games=EVAL_GAMES,
        hidden=int(net.width_of(start[0].size, n_in)), chunk=CHUNK, start=start[0],
        start_skip=start[1],
        advance=advance)
    state = training_run.train(run)
    gain = tgames.compare([game.learned_row(values),
                           value_weights.policy_row([state["weights"]], n_in,
                                                    skip=state["skip"])], rules,
                          COMPARE_GAMES, TUNING_SEED_BASE + seed + 1)[1]
    write(game, values, path, state, seed)
    checkpoint.unlink()
    return {"file": path, "history": state["history"], "gain": gain}


def write(game: CleverGame, values: dict[str, Any], path: Path, state: dict,
          seed: int) -> None:
    """Write the fine-tuned network's files from a finished run's state (its latest
    weights), its card naming the variant it was trained on."""
    weights = np.asarray(state["weights"], np.float32)
    label = variants.label(game, values)
    trained = {"rounds": [game.rounds_for(values)], "players": [1],
               "rules": {p.name: [values[p.name]] for p in game.params
                         if p.name not in ("players", "rounds")}}
    n_in = int(value_net.n_inputs(game.kernel_game, 3))
    info = {"game": game.learned_file.parent.name, "inputs": n_in,
            "hidden": [int(net.width_of(weights.size, n_in)), net.H2], "members": 1,
            "scale": value_net.SCALE, "source": "dicelab train", "seed": seed,
            "rule_inputs": variants.input_names(game),
            "card": {"name": f"a network fine-tuned for {label}", "trained": trained},
            "skip": [float(x) for x in state["skip"]], "history": state["history"]}
    value_weights.save(path, [weights], info)
    networks.forget()


def train_network(game: CleverGame, values: dict[str, Any], path: Path, games: int,
                     seed: int, threads: int | None, progress: bool) -> Result:
    """``dicelab GAME train``: fine-tune the network of the solo variant ``values`` into
    ``path``; its learning curve (solo means on the variant, with 95% intervals) and its
    gain over the network it started from, as a result."""
    from analyzer.run import driver

    driver.set_threads(threads)
    values = {**values, "players": 1}
    if not variants.changes(game, values):
        raise UserError("train fine-tunes a network for a variant: give the rules that "
                        "differ from the defaults with --set KEY=VALUE or --rules")
    label = variants.label(game, values)
    with Progress(games, f"training {game.id} {label}", progress, "games") as bar:
        try:
            done = train(game, values, path, games, seed, bar.advance)
        except KeyboardInterrupt:
            raise Interrupted("interrupted; the run is kept at its last evaluation: run the "
                              "same command again to resume") from None
    curve = pd.DataFrame([{"games": e["games"], "mean_score": e["tuning_mean"],
                           "ci95_low": e["tuning_mean"] - Z95 * e["tuning_se"],
                           "ci95_high": e["tuning_mean"] + Z95 * e["tuning_se"]}
                          for e in done["history"]])
    return Result(
        f"{game.title}: a network fine-tuned for {label}",
        headline={"variant": label, "file": str(done["file"]), "games": games,
                  "solo_mean": float(curve["mean_score"].iloc[-1]),
                  "gain_over_start": done["gain"]["diff"],
                  "gain_ci95": [done["gain"]["diff_ci95_low"], done["gain"]["diff_ci95_high"]]},
        tables={"learning_curve": curve},
        meta=run_meta(game.id, game.params, values, seed, games=games),
        notes=[f"learned plays this network where a command names it: --network "
               f"{done['file']}" + ("" if done["gain"]["diff"] > 0 else "; it scored below "
                                    "the network it started from on these rules"),
               f"each point: {EVAL_GAMES:,} solo games on the variant (the same seeds every "
               "time), no exploring; the first is the network after the first "
               f"{curve['games'].iloc[0]:,} games",
               "gain over the network it started from: "
               f"{done['gain']['diff']:+.1f} points "
               f"({done['gain']['diff_ci95_low']:+.1f} to {done['gain']['diff_ci95_high']:+.1f}),"
               f" {COMPARE_GAMES:,} paired solo games on the variant"])
