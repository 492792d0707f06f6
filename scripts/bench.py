"""Benchmarks against the project's speed targets; prints a table (``--json`` for JSON).

Measured:
- CloverUp turns per second under the optimal policy, 1 thread and all threads;
- CloverUp two-player games per second; on one thread, in turns a second, beside a plain
  yardstick kernel's (``scripts/cloverup_yardstick.py``) and their ratio;
- ``dicelab cloverup solve`` (and a small ``simulate``) wall time end to end, cold (empty
  numba cache) and warm (the same query again: its kept answer; and new queries);
- peak memory of 10^6 and 10^8 simulated turns (flat in the number of turns);
- Sly Dice: the exact odds table of every card for all 56 common sets, and two-player
  games per second with the honest policy;
- That's Pretty Clever and Twice As Clever: solo games per second, greedy, heuristic and
  learned, and the learned policy's milliseconds per solo game on one thread; ``advise``
  on a mid-game position with the game's default policy and rollouts (the learned policy,
  1,000 rollouts per choice) and on a new sheet in round 1 (the slowest position); and
  the shared engine's cold compile; a default one-variant ``whatif`` (every default:
  the learned player, until 95% half-widths of 1 point a player), warm;
- the web app (``dicelab serve``): its page's load, and advice through it against the
  command line's ``advise`` on the same position (``scripts/bench_web.py``);
- the main job, ``dicelab report`` on built-in defaults, cold (empty numba cache) and warm,
  and each game's first query (a short ``simulate``) from an empty cache (``--no-report``
  leaves these out: together they take several minutes).

With ``--cluster SPEC`` (``local:2``, or a scheduler address) it measures instead the same
long simulations on the cluster against local numba threads (all cores), the cluster's start
and warm-up, and the peak memory of the client and of every worker for two run lengths.

Run: ``python scripts/bench.py [--json] [--quick] [--cluster SPEC] [--markdown FILE]``;
``--markdown docs/benchmarks.md`` writes the project's benchmark page
(``scripts/bench_page.py``), ``--results FILE`` from an earlier ``--json`` run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bench_page
import bench_web

from analyzer import script_args
from analyzer.errors import UserError
from analyzer.files import write_output

TARGETS = {
    "turns_per_s_1_thread": ">= 10e6",
    "solve_warm_s": "<= 0.5",
    "sly_odds_cli_warm_s": "<= 0.5",
    "report_cold_s": "<= 240",
    "report_warm_s": "<= 90",
    "first_query_cold_s_cloverup": "<= 30",
    "first_query_cold_s_sly-dice": "<= 30",
    "first_query_cold_s_thats-pretty-clever": "<= 30",
    "first_query_cold_s_twice-as-clever": "<= 30",
    "solve_cold_s": "< 30",
    "peak_rss_ratio_1e8_vs_1e6": "~ 1",
    "sly_odds_table_warm_s": "< 1",
    "sly_games_per_s_1_thread": ">= 200e3",
    "tpc_greedy_solo_games_per_s_1_thread": ">= 20e3",
    "tpc_advise_default_warm_s": "< 5",
    "tpc_advise_default_cold_s": "<= 30",
    "tac_greedy_solo_games_per_s_1_thread": ">= 20e3",
    "tac_advise_default_warm_s": "< 5",
    "tac_advise_default_cold_s": "<= 30",
    # the strongest player, at most 1.3 times the CPU of the one it replaced (1.0 and 2.7 ms)
    "tpc_learned_ms_per_solo_game_1_thread": "<= 1.3",
    "tac_learned_ms_per_solo_game_1_thread": "<= 3.5",
    # self-play with learning on both cores
    "tac_selfplay_training_games_per_s_all_threads": ">= 440",
    "cluster_vs_local_cloverup_turns": ">= 0.8",
    "cloverup_whole_game_vs_yardstick": ">= 2",
    "tpc_advise_round1_warm_s": "< 5",
    "tac_advise_round1_warm_s": "< 5",
    "cluster_vs_local_tpc_greedy_games": ">= 0.8",
    "cluster_vs_local_tpc_heuristic_games": ">= 0.8",
    "cluster_peak_rss_ratio_client": "~ 1",
    "cluster_peak_rss_ratio_worker": "~ 1",
    "tpc_whatif_default_warm_s": "<= 15",
    "tac_whatif_default_warm_s": "<= 30",
    "tpc_whatif_default_cold_s": "<= 60",
    "tac_whatif_default_cold_s": "<= 60",
    "web_page_load_s": "< 1",
    "web_page_first_load_s": "< 1",
    "tpc_web_advise_extra_s": "<= 0.5",
}
WHATIF = "round_4_bonus=false"  # the default what-if benchmarked: one variant, every
# default (the learned player, until 95% half-widths of 1 point a player)
SLOWER = {"greedy": 1, "heuristic": 20, "learned": 50}  # games: fewer


def _timed_cli(args: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "analyzer", *args], env=env, check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def cli_times() -> dict[str, float]:
    """Cold: a fresh, empty numba cache folder; warm: the same folder again (a repeated
    exact query reads its kept answer; a new one, other rules, loads the compiled
    kernels and solves)."""
    simulate = ["cloverup", "simulate", "--games", "4096", "--quiet"]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        cold = _timed_cli(["cloverup", "solve"], env)
        warm = min(_timed_cli(["cloverup", "solve"], env) for _ in range(3))
        new = min(_timed_cli(["cloverup", "solve", "--instant-win-points", str(points)], env)
                  for points in (17, 16, 15))
        sim_cold = _timed_cli(simulate, env)
        sim_warm = min(_timed_cli(simulate, env) for _ in range(3))
    return {"solve_cold_s": cold, "solve_warm_s": warm, "solve_new_query_warm_s": new,
            "simulate_4096_games_cold_s": sim_cold, "simulate_4096_games_warm_s": sim_warm}


_PEAK = """
import resource, sys
from analyzer.games.cloverup.params import PARAMS
from analyzer.games.cloverup.simulation import simulate_turns
from analyzer.params import defaults
simulate_turns(defaults(PARAMS), "optimal", int(sys.argv[1]), 1, None, False)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_memory(turns: int) -> float:
    """Peak resident memory (MiB) of a process that simulates ``turns`` turns."""
    out = subprocess.run([sys.executable, "-c", _PEAK, str(turns)], check=True,
                         capture_output=True, text=True).stdout
    return int(out.split()[-1]) / 1024


def turn_rates(turns: int) -> dict[str, float]:
    import numba

    from analyzer.games.cloverup.params import PARAMS
    from analyzer.games.cloverup.simulation import simulate_turns
    from analyzer.params import defaults

    values = defaults(PARAMS)
    simulate_turns(values, "optimal", 1 << 16, 1, 1, False)  # compile / load cache
    rates = {}
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            simulate_turns(values, "optimal", turns, 1, threads, False)
            best = min(best, time.perf_counter() - start)
        rates[f"turns_per_s_{threads}_thread{'s' if threads > 1 else ''}"] = turns / best
    return rates


def game_rate(games: int) -> dict[str, float]:
    from analyzer.games.cloverup.params import PARAMS
    from analyzer.games.cloverup.simulation import lineup_of, play_games
    from analyzer.params import defaults

    values = defaults(PARAMS)
    lineup = lineup_of(["optimal"], 2)
    play_games(values, lineup, 4096, 1, progress=False)
    start = time.perf_counter()
    play_games(values, lineup, games, 1, progress=False)
    return {"games_per_s_2_players": games / (time.perf_counter() - start)}


def whole_game_ratio(games: int) -> dict[str, float]:
    """CloverUp two-player games of the optimal policy on one thread, in turns a second
    (games x rounds x players), beside the plain yardstick kernel's
    (``scripts/cloverup_yardstick.py``), and their ratio (at least 2)."""
    from analyzer.games.cloverup.params import PARAMS
    from analyzer.games.cloverup.simulation import lineup_of, play_games
    from analyzer.params import defaults
    from analyzer.run import driver
    from cloverup_yardstick import yardstick_turns_per_s

    values = {**defaults(PARAMS), "players": 2}
    lineup = lineup_of(["optimal"], 2)
    threads = driver.set_threads(1)
    play_games(values, lineup, 4096, 1, progress=False)
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        play_games(values, lineup, games, 1, progress=False)
        best = min(best, time.perf_counter() - start)
    driver.set_threads(None)
    engine = games * values["rounds"] * 2 / best
    yardstick = yardstick_turns_per_s(values, games)
    return {f"cloverup_whole_game_turns_per_s_{threads}_thread": engine,
            "cloverup_yardstick_turns_per_s_1_thread": yardstick,
            "cloverup_whole_game_vs_yardstick": engine / yardstick}


def sly_dice(games: int) -> dict[str, float]:
    """Sly Dice: the exact odds table (every card, all 56 common sets) and two-player games
    with the honest policy on one thread and on all threads."""
    import numba

    from analyzer.run import driver
    from analyzer.games.sly_dice.model import card_points
    from analyzer.games.sly_dice.params import PARAMS
    from analyzer.games.sly_dice.runs import play_games
    from analyzer.games.sly_dice.simulation import lineup_of
    from analyzer.params import defaults
    from kernels.sly_dice import odds

    values = defaults(PARAMS)
    points = card_points(values)
    odds.odds_table(points, 2)
    start = time.perf_counter()
    odds.odds_table(points, 2)
    out = {"sly_odds_table_warm_s": time.perf_counter() - start}
    with tempfile.TemporaryDirectory():
        out["sly_odds_cli_warm_s"] = min(_timed_cli(
            ["sly-dice", "odds", "--common", "all", "--format", "csv"], dict(os.environ))
            for _ in range(2))
    lineup = lineup_of(["honest"], values)
    play_games(values, lineup, 4096, 1, progress=False)
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        driver.set_threads(threads)
        start = time.perf_counter()
        play_games(values, lineup, games, 1, progress=False)
        key = f"sly_games_per_s_{threads}_thread{'s' if threads > 1 else ''}"
        out[key] = games / (time.perf_counter() - start)
    return out


# a mid-game solo position (round 3) and the dice of an active roll, per Clever game
ADVICE_POSITIONS = {
    "thats-pretty-clever": ({"yellow": [[1, 1], [2, 2]], "blue": [5, 7], "green": 3,
                             "orange": [3, 4, 5], "purple": [2, 4],
                             "rerolls": {"unlocked": 1, "used": 0}}, "W3 Y5 B2 G6 O4 P1"),
    "twice-as-clever": ({"silver": {"yellow": [2, 5], "blue": [4]},
                         "yellow": {"circled": [[2, 1], [3, 2]], "crossed": [[2, 1]]},
                         "blue": [11, 9], "green": [8, 2, 10], "pink": [4, 5],
                         "rerolls": {"unlocked": 1, "used": 0},
                         "returns": {"unlocked": 1, "used": 0}}, "W3 Y5 B2 G6 P4 S1"),
}


def clever(game_id: str, games: int) -> dict[str, float]:
    """A Clever game's solo games per second (greedy, heuristic and learned, 1 thread and
    all) and ``advise`` on a mid-game position with the game's default policy and
    rollouts."""
    import numba

    from analyzer.run import driver
    from analyzer.games.clever.simulation import play_games
    from analyzer.params import defaults
    from analyzer.registry import get_game

    game = get_game(game_id).load().GAME
    prefix = game.prefix
    values = defaults(game.params)
    out = {}
    for policy, slower in SLOWER.items():
        if policy not in game.policy_help:
            continue
        play_games(game, values, [policy], 512, 1, progress=False)
        n = games // slower
        for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
            driver.set_threads(threads)
            start = time.perf_counter()
            play_games(game, values, [policy], n, 1, progress=False)
            key = (f"{prefix}_{policy}_solo_games_per_s_{threads}_"
                   f"thread{'s' if threads > 1 else ''}")
            out[key] = n / (time.perf_counter() - start)
    out[f"{prefix}_learned_ms_per_solo_game_1_thread"] = \
        1000 / out[f"{prefix}_learned_solo_games_per_s_1_thread"]
    out[f"{prefix}_advise_default_cold_s"], out[f"{prefix}_advise_default_warm_s"] = \
        clever_advise(game)
    out[f"{prefix}_advise_round1_warm_s"] = clever_advise_round1(game)
    return out


def whatif_times() -> dict[str, float]:
    """A default one-variant ``whatif`` of each Clever game, end to end: from an empty numba
    cache (cold), then again (warm)."""
    from analyzer.registry import get_game

    out = {}
    for game_id in ("thats-pretty-clever", "twice-as-clever"):
        args = [game_id, "whatif", "--vary", WHATIF, "--quiet"]
        prefix = get_game(game_id).load().GAME.prefix
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            out[f"{prefix}_whatif_default_cold_s"] = _timed_cli(args, env)
            out[f"{prefix}_whatif_default_warm_s"] = _timed_cli(args, env)
    return out


def training_rate(game_id: str, games: int) -> dict[str, float]:
    """Self-play training games per second, on all threads: the one network's last
    training stage (games of 1-4 players over the unified rows, snapshots of 16 games
    played in parallel, then learnt from) from the game's network."""
    import numpy as np

    from analyzer.games.clever import value_weights
    from analyzer.games.clever.fine_tune import start_network
    from analyzer.games.clever.training import run as training_run
    from analyzer.games.clever.training import unified
    from analyzer.registry import get_game

    game = get_game(game_id).load().GAME
    with tempfile.TemporaryDirectory() as folder:
        stages = {"bench": training_run.Stage(games, 0.0, 0.8, (0.01, 0.01, 1.0),
                                              ((0.0, 1e-6),), True, snapshot=16,
                                              seat_block=True, skip_head=True,
                                              rules_block=True, per_game=True)}
        weights, skip = start_network(game)
        width = value_weights.hidden_of(game.file_networks(game.learned_file)[1])
        table = unified.table(game, unified.sample(game, 256, 1))

        def run(n: int, name: str) -> float:
            spec = {"bench": stages["bench"]._replace(games=n)}
            job = training_run.Run(
                game=game.prefix, stages=spec, seed=1, until="bench",
                checkpoint=Path(folder) / name, rules=table[0],
                rounds_of=game.layout.ROUNDS_BY_PLAYERS, heuristic=game.heuristic_row(),
                variants=table, eval_every=n, eval_games=16, chunk=n, start=weights,
                start_skip=np.asarray(skip), hidden=width)
            start = time.perf_counter()
            training_run.train(job)
            return time.perf_counter() - start

        run(32, "warm.npz")  # compiles
        seconds = run(games, "timed.npz")
    return {f"{game.prefix}_selfplay_training_games_per_s_all_threads": games / seconds}


def clever_advise(game) -> tuple[float, float]:
    """``advise`` on the game's mid-game position end to end with the game's default
    policy and rollouts: from an empty numba cache (cold), then the best of two runs
    (warm)."""
    fields, roll = ADVICE_POSITIONS[game.id]
    doc = {**game.sheetfile.blank(), **fields}
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "sheet.json")
        with open(path, "w") as fh:
            json.dump(doc, fh)
        args = [game.id, "advise", "--sheet", path, "--roll", roll, "--round", "3"]
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            cold = _timed_cli(args, env)
            return cold, min(_timed_cli(args, env) for _ in range(2))


def clever_advise_round1(game) -> float:
    """``advise`` on a new sheet in round 1 (every rollout plays the whole game: the
    slowest position) with the game's defaults, warm: the best of two runs after one."""
    roll = ADVICE_POSITIONS[game.id][1]
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "sheet.json")
        with open(path, "w") as fh:
            json.dump(game.sheetfile.blank(), fh)
        args = [game.id, "advise", "--sheet", path, "--roll", roll, "--round", "1"]
        _timed_cli(args, dict(os.environ))
        return min(_timed_cli(args, dict(os.environ)) for _ in range(2))


FIRST_QUERIES = {  # a short simulate per game, each from an empty numba cache
    "cloverup": ["cloverup", "simulate", "--games", "10000"],
    "sly-dice": ["sly-dice", "simulate", "--games", "10000"],
    "thats-pretty-clever": ["thats-pretty-clever", "simulate", "--games", "1000"],
    "twice-as-clever": ["twice-as-clever", "simulate", "--games", "1000"],
}


def main_job() -> dict[str, float]:
    """``dicelab report`` end to end from an empty numba cache, then again (warm), and
    each game's first query from an empty cache."""
    out = {}
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as folder:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        args = ["report", "--quiet", "-o", os.path.join(folder, "report")]
        out["report_cold_s"] = _timed_cli(args, env)
        out["report_warm_s"] = _timed_cli(args, env)
    for game_id, args in FIRST_QUERIES.items():
        with tempfile.TemporaryDirectory() as cache:
            out[f"first_query_cold_s_{game_id}"] = _timed_cli(
                [*args, "--quiet"], {**os.environ, "NUMBA_CACHE_DIR": cache})
    return out


def web() -> dict[str, float]:
    """``dicelab serve``'s page load and advice beside the command line's
    (``scripts/bench_web.py``); nothing without the web extra."""
    try:
        import starlette  # noqa: F401
    except ImportError:
        return {}
    from analyzer.registry import get_game

    game = get_game("thats-pretty-clever").load().GAME
    fields, roll = ADVICE_POSITIONS[game.id]
    return bench_web.web_times(game, fields, roll,
                               lambda args: _timed_cli(args, dict(os.environ)))


def clever_cold() -> dict[str, float]:
    """The shared Clever engine compiled from an empty numba cache (a heuristic
    simulate)."""
    with tempfile.TemporaryDirectory() as cache:
        args = ["thats-pretty-clever", "simulate", "--games", "1000", "--policy", "heuristic",
                "--quiet"]
        return {"tpc_simulate_1000_heuristic_cold_s": _timed_cli(
            args, {**os.environ, "NUMBA_CACHE_DIR": cache})}


_CLUSTER_PEAK = """
import resource, sys
from analyzer.run import execution
from analyzer.games.cloverup.params import PARAMS
from analyzer.games.cloverup.simulation import simulate_turns
from analyzer.params import defaults

def peak():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss

with execution.session(sys.argv[2]) as run:
    simulate_turns(defaults(PARAMS), "optimal", int(sys.argv[1]), 1, None, False)
    workers = run.cluster.client.run(peak)
print(peak(), max(workers.values()))
"""


def cluster_memory(spec: str, turns: int) -> tuple[float, float]:
    """Peak resident memory (MiB) of the client and of the largest worker for a run of
    ``turns`` CloverUp turns on a fresh cluster."""
    out = subprocess.run([sys.executable, "-c", _CLUSTER_PEAK, str(turns), spec], check=True,
                         capture_output=True, text=True).stdout
    client, worker = out.split()[-2:]
    return int(client) / 1024, int(worker) / 1024


def cluster(spec: str, scale: int) -> dict[str, float]:
    """Long simulations on the cluster ``spec`` against local numba threads (all cores).

    The simulations keep their full length with ``--quick`` (``scale`` shortens only the
    memory runs): a run of a few chunks per worker measures the last chunk's wait, not the
    throughput."""
    import numba

    from analyzer.run import driver, execution
    from analyzer.games.clever.simulation import play_games as clever_games
    from analyzer.games.cloverup.params import PARAMS
    from analyzer.games.cloverup.simulation import simulate_turns
    from analyzer.params import defaults
    from analyzer.registry import get_game

    results: dict[str, float] = {}
    small, large = 10**7 // scale, 10**9 // scale
    for label, turns in (("small", small), ("large", large)):
        client, worker = cluster_memory(spec, turns)
        results[f"cluster_peak_rss_mib_client_{turns:.0e}_turns".replace("+0", "")] = client
        results[f"cluster_peak_rss_mib_worker_{turns:.0e}_turns".replace("+0", "")] = worker
        results[f"_{label}"] = (client, worker)
    (c1, w1), (c2, w2) = results.pop("_small"), results.pop("_large")
    results["cluster_peak_rss_ratio_client"] = c2 / c1
    results["cluster_peak_rss_ratio_worker"] = w2 / w1

    tpc = get_game("thats-pretty-clever").load().GAME
    tpc_values = defaults(tpc.params)
    values = defaults(PARAMS)
    workloads = {
        "cloverup_turns": (400_000_000,
                           lambda n: simulate_turns(values, "optimal", n, 1, None, False)),
        "tpc_greedy_games": (1_000_000, lambda n: clever_games(
            tpc, tpc_values, ["greedy"], n, 1, progress=False)),
        "tpc_heuristic_games": (30_000, lambda n: clever_games(
            tpc, tpc_values, ["heuristic"], n, 1, progress=False)),
    }
    driver.set_threads(numba.config.NUMBA_NUM_THREADS)
    local = {}
    for name, (n, work) in workloads.items():
        work(n // 100)  # load the kernels
        start = time.perf_counter()
        work(n)
        local[name] = n / (time.perf_counter() - start)
        results[f"local_{numba.get_num_threads()}_threads_{name}_per_s"] = local[name]
    start = time.perf_counter()
    with execution.session(spec) as run:
        results["cluster_start_s"] = time.perf_counter() - start
        results["cluster_workers"] = run.cluster.workers()
        start = time.perf_counter()
        for n, work in workloads.values():
            work(n // 100)  # the workers load the kernels from their numba cache
        results["cluster_warm_up_s"] = time.perf_counter() - start
        for name, (n, work) in workloads.items():
            start = time.perf_counter()
            work(n)
            rate = n / (time.perf_counter() - start)
            results[f"cluster_{name}_per_s"] = rate
            results[f"cluster_vs_local_{name}"] = rate / local[name]
    return results


def main() -> None:
    parser = script_args.OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--quick", action="store_true", help="smaller runs")
    parser.add_argument("--no-report", action="store_true",
                        help="leave out the main job's cold and warm runs and the first queries")
    parser.add_argument("--cluster", metavar="SPEC", default=None,
                        help="only the cluster benchmark, on local:N or a scheduler address")
    parser.add_argument("--markdown", metavar="FILE",
                        help="also write the figures as a Markdown page (docs/benchmarks.md)")
    parser.add_argument("--results", metavar="FILE",
                        help="with --markdown: the page of an earlier --json run's file, "
                             "measuring nothing")
    opts = parser.parse_args()
    if opts.results:
        write_page(opts.markdown, opts.results)
        return
    scale = 10 if opts.quick else 1
    results: dict[str, float] = {}
    if opts.cluster:
        results.update(cluster(opts.cluster, scale))
        _show(results, opts.json)
        return
    # first: a child's peak memory counts the parent's at fork (Linux keeps it across
    # exec), so it is measured before this process has grown
    small, large = 10**6, 10**8 // scale
    results["peak_rss_mib_1e6_turns"] = peak_memory(small)
    results[f"peak_rss_mib_{large:.0e}_turns".replace("+0", "")] = peak_memory(large)
    results["peak_rss_ratio_1e8_vs_1e6"] = (results[f"peak_rss_mib_{large:.0e}_turns".replace(
        "+0", "")] / results["peak_rss_mib_1e6_turns"])
    results.update(cli_times())
    results.update(turn_rates(40_000_000 // scale))
    results.update(game_rate(2_000_000 // scale))
    results.update(whole_game_ratio(1_000_000 // scale))
    results.update(sly_dice(1_000_000 // scale))
    results.update(clever("thats-pretty-clever", 200_000 // scale))
    results.update(clever("twice-as-clever", 200_000 // scale))
    results.update(whatif_times())
    results.update(training_rate("thats-pretty-clever", 16_384 // scale))
    results.update(training_rate("twice-as-clever", 8_192 // scale))
    results.update(clever_cold())
    results.update(web())
    if not opts.no_report:
        results.update(main_job())
    _show(results, opts.json)
    if opts.markdown:
        _write(opts.markdown, bench_page.page(results, TARGETS, bench_page.machine()))


def write_page(markdown: str | None, results_file: str) -> None:
    """``--results FILE --markdown PAGE``: the page of an earlier ``--json`` run."""
    if not markdown:
        script_args.fail("bench.py", "--results goes with --markdown FILE")
    try:
        data = json.loads(Path(results_file).read_text())
        results, host = data["results"], data["machine"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        script_args.fail("bench.py", f"--results {results_file}: not the JSON of a "
                         f"bench.py --json run ({exc})")
    _write(markdown, bench_page.page(results, TARGETS, host))


def _write(path: str, text: str) -> None:
    try:
        write_output(path, text)
    except UserError as exc:
        script_args.fail("bench.py", str(exc))


def _show(results: dict[str, float], as_json: bool) -> None:
    if as_json:
        print(json.dumps({"results": results, "targets": TARGETS,
                          "machine": bench_page.machine()}, indent=2))
        return
    print(f"{'measure':<44} {'value':>16}  target")
    for key, value in results.items():
        shown = f"{value:,.0f}" if value > 1000 else f"{value:.3f}"
        print(f"{key:<44} {shown:>16}  {TARGETS.get(key, '')}")


if __name__ == "__main__":
    main()
