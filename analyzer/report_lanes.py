"""Building the balance report's game sections in parallel lanes, one worker process each.

Most of a first report is numba compiling kernels, which uses one core; in two lanes, one
game's kernels compile while another game computes. Of games that share kernels (the
Clever games), the first starts at once and compiles them; the others wait until they are
compiled (or that first section is done), then each goes to the first free lane. Once
every kernel is compiled, the lanes are balanced by each section's time on the last run.
Each section is the same wherever it is built: its random numbers come from the seed
alone.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any, Iterator

from analyzer import report_eta
from analyzer.run.compile_apart import all_compiled
from analyzer.run.progress import clock
from analyzer.registry import GameSpec
from analyzer.report_eta import Estimate

MAX_LANES = 2


def lanes_for(specs: list[GameSpec], lanes: int,
              seconds: dict[str, float] | None = None) -> list[list[GameSpec]]:
    """The games of each lane, in report order inside a lane. Without ``seconds``, games
    that share kernels go together (their kernels compile once), each family in the lane
    with the fewest games so far (the largest families first). With ``seconds`` (each
    section's expected time; for kernels already compiled), the longest sections first,
    each in the lane with the least time so far."""
    if seconds is None:
        families: dict[str, list[GameSpec]] = {}
        for spec in specs:
            families.setdefault(spec.kernel_family, []).append(spec)
        groups = sorted(families.values(), key=len, reverse=True)
        weight = len
    else:
        groups = [[spec] for spec in sorted(specs, key=lambda s: -seconds[s.id])]
        weight = lambda lane: sum(seconds[s.id] for s in lane)  # noqa: E731
    out: list[list[GameSpec]] = [[] for _ in range(min(lanes, len(groups)))]
    for group in groups:
        min(out, key=weight).extend(group)
    order = {spec.id: i for i, spec in enumerate(specs)}
    return [sorted(lane, key=lambda s: order[s.id]) for lane in out]


def shared_kernels(specs: list[GameSpec]) -> list[str]:
    """The games of ``specs`` that share their kernels with another of them: only these
    need one lane while their kernels compile (a game with kernels of its own compiles
    them in any lane, and the others need not wait for it)."""
    counts: dict[str, int] = {}
    for spec in specs:
        counts[spec.kernel_family] = counts.get(spec.kernel_family, 0) + 1
    return [spec.id for spec in specs if counts[spec.kernel_family] > 1]


def first_run_plan(specs: list[GameSpec], lanes: int
                   ) -> tuple[list[list[GameSpec]], list[GameSpec]]:
    """A first run's lanes (``lanes_for`` without times: each kernel family in one lane)
    without the games that wait for their family's kernels (every game of a family after
    its first), and those games."""
    seen: set[str] = set()
    waiting = []
    for spec in specs:
        if spec.kernel_family in seen:
            waiting.append(spec)
        seen.add(spec.kernel_family)
    plan = [[s for s in lane if s not in waiting] for lane in lanes_for(specs, lanes)]
    return [lane for lane in plan if lane], waiting


def default_lanes() -> int:
    return max(1, min(MAX_LANES, os.cpu_count() or 1))


_events: Any = None  # the worker's queue of progress events
_busy: Any = None  # the shared count of lanes still building


def _start_worker(events: Any, threads: int, busy: Any, parent: int) -> None:
    """A lane's process: numba threads share the ``threads`` of the run with the lanes
    still busy (``busy``, a shared count), checked at every simulation and, by the block
    kernels' threads, between pieces of a run (``block_loop.ThreadShare``); idle OpenMP
    threads sleep instead of spinning while the other lane computes. Ctrl-C is the
    parent's to handle (it ends the lanes), and a lane whose parent is gone ends too."""
    global _events, _busy
    quiet_worker(parent)
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    from analyzer.run import block_loop

    _events, _busy = events, busy
    block_loop.thread_share = block_loop.ThreadShare(threads, lambda: busy.value)


def quiet_worker(parent: int) -> None:
    """Start a worker process of ``parent``: Ctrl-C is the parent's to handle (it ends its
    workers, ``end_workers``), and the worker ends when the parent is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    follow_parent(parent)


@contextlib.contextmanager
def ctrl_c_held() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) back from this thread while worker processes start: they
    begin with it blocked, so a Ctrl-C during their start-up cannot print a traceback
    before ``quiet_worker`` ignores it. This process still gets it (on another thread,
    or when the block ends)."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def end_workers(pool: ProcessPoolExecutor) -> None:
    """Terminate the processes of ``pool`` at once (the run was stopped)."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()


def follow_parent(parent: int, every: float = 0.5) -> None:
    """End this process within ``every`` seconds once process ``parent`` is gone (killed
    with ``kill -9``, say), rather than compute for nobody (a daemon thread watches)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(1)

    threading.Thread(target=watch, name="dicelab-follow-parent", daemon=True).start()


def _build_lane(game_ids: list[str], values: dict[str, Any], seed: int, quick: bool
                ) -> tuple[list[Any], int]:
    """Build the sections of one lane in this worker; returns them and the chunks run."""
    from analyzer.run.execution import current
    from analyzer.registry import get_game

    sections = []
    for game_id in game_ids:
        spec = get_game(game_id)
        _events.put(("start", game_id))
        sections.append(spec.load().report_section(values[game_id], seed=seed, quick=quick,
                                                   progress=False))
        _events.put(("done", game_id))
    return sections, current().meta()["chunks"]


def _lane(game_ids: list[str], *args: Any) -> tuple[list[Any], int]:
    """``_build_lane``, counted among the busy lanes while it runs."""
    with _busy.get_lock():
        _busy.value += 1
    try:
        return _build_lane(game_ids, *args)
    finally:
        with _busy.get_lock():
            _busy.value -= 1


class _Status:
    """Progress on stderr: on a terminal one line (a bar, the time left, the sections
    being built, the time elapsed); elsewhere (a log) one line as each section is done.
    The time left comes from ``report_eta`` (the last run's section times)."""

    def __init__(self, specs: list[GameSpec], estimate: Estimate, enabled: bool):
        self.titles = {spec.id: spec.title for spec in specs}
        self.total, self.done, self.building = len(specs), 0, []
        self.estimate = estimate
        self.enabled = enabled
        self.terminal = enabled and sys.stderr.isatty()
        self.started = time.perf_counter()

    def _elapsed(self) -> str:
        return clock(time.perf_counter() - self.started)

    def event(self, kind: str, game_id: str) -> None:
        now = time.perf_counter()
        if kind == "start":
            self.building.append(game_id)
            self.estimate.start(game_id, now)
            return
        self.building.remove(game_id)
        self.estimate.finish(game_id, now)
        self.done += 1
        if self.enabled and not self.terminal:
            print(f"report: {self.titles[game_id]} done ({self.done}/{self.total}, elapsed "
                  f"{self._elapsed()}; {self.estimate.bar(now)})", file=sys.stderr,
                  flush=True)

    def show(self) -> None:
        if self.terminal:
            building = ", ".join(self.titles[g] for g in self.building) or "-"
            sys.stderr.write(f"\rreport {self.estimate.bar(time.perf_counter())}; "
                             f"building {building} (elapsed {self._elapsed()}) ")
            sys.stderr.flush()

    def close(self) -> None:
        if self.terminal:
            sys.stderr.write("\n")


def build_in_lanes(specs: list[GameSpec], values: dict[str, dict[str, Any]], seed: int,
                   quick: bool, threads: int | None, progress: bool, lanes: int
                   ) -> tuple[list[Any], int]:
    """Every game's report section, in ``specs`` order, built in up to ``lanes`` worker
    processes; returns the sections and the number of simulation chunks they ran."""
    compiled = all_compiled([s.id for s in specs])
    expected = report_eta.expected_seconds([s.id for s in specs], quick, compiled)
    if all_compiled(shared_kernels(specs)):
        plan, waiting = lanes_for(specs, lanes, expected), []
    else:
        plan, waiting = first_run_plan(specs, lanes)
    workers = min(lanes, len(plan) + len(waiting))
    context = multiprocessing.get_context("spawn")
    events = context.Queue()
    busy = context.Value("i", 0)
    threads = threads or (os.cpu_count() or 1)
    estimate = Estimate([[s.id for s in lane] for lane in lanes_for(specs, lanes, expected)],
                        expected)
    status = _Status(specs, estimate, progress)
    if progress:
        first = "" if compiled else " (this first run also compiles the games' kernels, once)"
        print(f"building {len(specs)} sections in {workers} processes{first} ...",
              file=sys.stderr, flush=True)
    with ProcessPoolExecutor(workers, context, _start_worker,
                             (events, threads, busy, os.getpid())) as pool:
        run = _LaneRun(pool, values, seed, quick, waiting)
        try:  # a Ctrl-C held back while the workers start arrives as the hold ends
            with ctrl_c_held():
                for lane in plan:
                    run.submit(lane)
            while run.pending or run.waiting:
                run.collect()
                _drain(events, status)
                status.show()
        except BaseException:
            end_workers(pool)
            raise
        finally:
            status.close()
    report_eta.record(estimate.finished, quick, compiled)
    return [run.built[spec.id] for spec in specs], run.chunks


class _LaneRun:
    """The sections submitted to a pool of lanes, those built, and the games waiting for
    kernels another section compiles (``first_run_plan``): each of them is submitted on
    its own once those kernels are cached or the section compiling them is done."""

    CHECK_EVERY = 2.0  # seconds between looks in numba's cache for the waiting games

    def __init__(self, pool: ProcessPoolExecutor, values: dict[str, dict[str, Any]],
                 seed: int, quick: bool, waiting: list[GameSpec]):
        self.pool, self.args, self.waiting = pool, (values, seed, quick), waiting
        self.lanes: dict[Any, list[GameSpec]] = {}
        self.pending: set[Any] = set()
        self.built: dict[str, Any] = {}
        self.chunks = 0
        self.next_check = time.monotonic() + self.CHECK_EVERY

    def submit(self, lane: list[GameSpec]) -> None:
        future = self.pool.submit(_lane, [s.id for s in lane], *self.args)
        self.lanes[future] = lane
        self.pending.add(future)

    def collect(self) -> None:
        """Wait up to half a second; keep what finished; release the waiting games once
        their kernels are compiled."""
        finished, self.pending = wait(self.pending, 0.5, FIRST_COMPLETED)
        for future in finished:
            sections, ran = future.result()
            self.built.update({spec.id: s for spec, s in zip(self.lanes[future], sections)})
            self.chunks += ran
        if self.waiting and self._kernels_ready():
            for spec in self.waiting:
                self.submit([spec])
            self.waiting = []

    def _kernels_ready(self) -> bool:
        families = {spec.kernel_family for spec in self.waiting}
        first_done = all(any(s.kernel_family == family and s.id in self.built
                             for lane in self.lanes.values() for s in lane)
                         for family in families)
        if first_done or not self.pending:
            return True
        if time.monotonic() < self.next_check:
            return False
        self.next_check = time.monotonic() + self.CHECK_EVERY
        return all_compiled([spec.id for spec in self.waiting])


def _drain(events: Any, status: _Status) -> None:
    while True:
        try:
            status.event(*events.get_nowait())
        except queue.Empty:
            return
