"""``docs/benchmarks.md`` from one run of ``scripts/bench.py``: the machine and date it ran
on, how to run it again, and one table of every figure against its target."""

from __future__ import annotations

import datetime
import os
import platform
from importlib import metadata

WHAT = {  # a measure's meaning, for the page; measures not named here are shown bare
    "turns_per_s_1_thread": "CloverUp turns a second, optimal policy, one thread",
    "cloverup_whole_game_vs_yardstick": "CloverUp whole games against a plain kernel's speed",
    "solve_cold_s": "`dicelab cloverup solve` from an empty cache, seconds",
    "solve_warm_s": "`dicelab cloverup solve` again, seconds",
    "sly_games_per_s_1_thread": "Sly Dice two-player games a second, one thread",
    "sly_odds_cli_warm_s": "`dicelab sly-dice odds`, warm, seconds",
    "web_page_first_load_s": "`dicelab serve`'s page, scripts and catalogues, first load, s",
    "web_page_load_s": "the same page loaded again, seconds",
    "tpc_web_advise_extra_s": "advice through `dicelab serve` less the CLI's `advise`, s",
    "tpc_learned_ms_per_solo_game_1_thread":
        "That's Pretty Clever, the learned player's milliseconds a solo game",
    "tac_learned_ms_per_solo_game_1_thread":
        "Twice As Clever, the learned player's milliseconds a solo game",
    "tpc_whatif_default_warm_s": "That's Pretty Clever, a default one-variant `whatif`, warm",
    "tac_whatif_default_warm_s": "Twice As Clever, a default one-variant `whatif`, warm",
    "tpc_whatif_default_cold_s": "That's Pretty Clever, a default one-variant `whatif` from an "
                                 "empty cache, compile included",
    "tac_whatif_default_cold_s": "Twice As Clever, a default one-variant `whatif` from an empty "
                                 "cache, compile included",
    "tpc_advise_round1_warm_s": "That's Pretty Clever, `advise` in round 1, warm, seconds",
    "tac_advise_round1_warm_s": "Twice As Clever, `advise` in round 1, warm, seconds",
    "tac_selfplay_training_games_per_s_all_threads":
        "Twice As Clever self-play training games a second, both cores",
    "report_cold_s": "`dicelab report` from an empty cache, seconds",
    "report_warm_s": "`dicelab report` again, seconds",
}


def met(value: float, target: str) -> str:
    """``yes`` or ``no``: does ``value`` meet ``target`` (``>= 10e6``, ``<= 0.5``, ``< 30``,
    ``~ 1``: within 20%)? Empty where there is no target."""
    if not target:
        return ""
    sign, bound = target.split()
    limit = float(bound)
    ok = {">=": value >= limit, "<=": value <= limit, ">": value > limit, "<": value < limit,
          "~": abs(value - limit) <= 0.2 * abs(limit)}[sign]
    return "yes" if ok else "**no**"


def machine() -> dict[str, str]:
    """The machine and software a run measured: for the page and the JSON."""
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {"date": datetime.date.today().isoformat(),
            "cpu": _cpu_name(), "cores": str(os.cpu_count()),
            "memory": f"{memory:.0f} GiB", "python": platform.python_version(),
            "numba": metadata.version("numba"), "numpy": metadata.version("numpy")}


def _cpu_name() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _shown(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"


def page(results: dict[str, float], targets: dict[str, str], host: dict[str, str]) -> str:
    """The Markdown page of one run's ``results`` against ``targets`` on ``host``."""
    lines = [
        "# Benchmarks", "",
        "`python scripts/bench.py` measures dicelab's speed against its targets and prints a",
        "table (`--json` for JSON; `--quick`: smaller runs; `--no-report`: without the main",
        "job's cold and warm runs, which take several minutes). This page is written by",
        "`python scripts/bench.py --markdown docs/benchmarks.md` (`--results FILE` writes it",
        "from an earlier `--json` run). Run nothing else beside it: a training run on both",
        "cores slows both. The cold figures start from an empty compiled-kernel cache.", "",
        f"Measured on {host['date']}: {host['cpu']}, {host['cores']} cores, "
        f"{host['memory']}; Python {host['python']}, numba {host['numba']}, "
        f"numpy {host['numpy']}.", "",
        "| measure | what | value | target | met |", "|---|---|---|---|---|"]
    for key, value in results.items():
        target = targets.get(key, "")
        lines.append(f"| `{key}` | {WHAT.get(key, '')} | {_shown(value)} | {target} | "
                     f"{met(value, target)} |")
    return "\n".join(lines) + "\n"
