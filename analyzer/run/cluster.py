"""Dask distributed behind ``--cluster ADDRESS`` or ``--cluster local:N``.

Dask is an optional extra (``pip install 'dicelab[cluster]'``) imported only here. Chunks
are submitted as tasks of pure functions over plain arguments (no scattered data), so a
chunk lost with a dying worker is simply recomputed elsewhere by the scheduler; at most a
window of chunks is in flight or waiting to be handed over, so the client's memory does not
grow with the number of games.
"""

from __future__ import annotations

import logging
import re
import sys
import uuid
from typing import Any, Iterator

import numpy as np

from analyzer.run.checkpoint import Store
from analyzer.run.cluster_worker import run_chunk, versions
from analyzer.errors import UserError
from analyzer.run.plan import Plan

ACCEPTED = ("local:N (a local cluster of N worker processes, e.g. local:2) or a scheduler "
            "address such as tcp://host:8786")
_ADDRESS = re.compile(r"^((tcp|tls|ws|wss|ucx)://)?[\w.\-\[\]:]+:\d+$")
MAX_LOCAL_WORKERS = 256
CONNECT_TIMEOUT = "10s"


def parse(spec: str) -> tuple[str, Any]:
    """``("local", n)`` or ``("address", address)``; a ``UserError`` for anything else."""
    text = spec.strip()
    local = re.fullmatch(r"local:(\d+)", text)
    if local:
        n = int(local.group(1))
        if not 1 <= n <= MAX_LOCAL_WORKERS:
            raise UserError(f"bad --cluster {spec!r}: local clusters have 1 to "
                            f"{MAX_LOCAL_WORKERS} workers")
        return "local", n
    if _ADDRESS.match(text):
        return "address", text if "://" in text else f"tcp://{text}"
    raise UserError(f"bad --cluster {spec!r}: expected {ACCEPTED}")


def _import_dask():
    try:
        import distributed
    except ImportError:
        raise UserError("--cluster needs Dask distributed, which is not installed: "
                        "pip install 'dicelab[cluster]'") from None
    return distributed


class Cluster:
    """A connected Dask client (and the local cluster it started, if any)."""

    def __init__(self, client: Any, local: Any, address: str, version: str):
        self.client = client
        self.local = local
        self.address = address
        self.version = version

    @classmethod
    def connect(cls, spec: str) -> "Cluster":
        kind, where = parse(spec)
        distributed = _import_dask()
        logging.getLogger("distributed").setLevel(logging.ERROR)
        local = None
        try:
            if kind == "local":
                # Ctrl-C leaves the cluster's semaphores to multiprocessing's resource
                # tracker, which frees them and would print a warning after dicelab's one
                # line; the tracker it starts takes this interpreter's -W options.
                sys.warnoptions.append("ignore:resource_tracker:UserWarning")
                local = distributed.LocalCluster(
                    n_workers=where, threads_per_worker=1, processes=True,
                    dashboard_address=":0", worker_dashboard_address=None,
                    silence_logs=logging.ERROR, preload=["analyzer.run.cluster_worker"])
                client = distributed.Client(local, timeout=CONNECT_TIMEOUT)
            else:
                client = distributed.Client(where, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            if local is not None:
                local.close()
            raise UserError(f"cannot reach a Dask scheduler at {where}: {exc}; start one with "
                            "`dask scheduler` and workers with `dask worker ADDRESS`") from None
        cluster = cls(client, local, client.scheduler.address, distributed.__version__)
        try:
            cluster._check_workers()
        except BaseException:
            cluster.close()
            raise
        return cluster

    def _check_workers(self) -> None:
        """Every worker must run the same dicelab, numba and numpy as this client."""
        try:
            self.client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
        except TimeoutError:
            raise UserError(f"no Dask worker is connected to {self.address}; start one with "
                            f"`dask worker {self.address}`") from None
        try:
            found = self.client.run(versions)
        except Exception as exc:  # a worker that cannot import dicelab at all
            raise UserError(f"a Dask worker of {self.address} cannot run dicelab ({exc}); "
                            "install the same dicelab on every worker") from None
        mine = versions()
        for worker, theirs in found.items():
            if theirs != mine:
                raise UserError(f"Dask worker {worker} runs {theirs}, this client {mine}: "
                                "install the same versions on every worker")

    def workers(self) -> int:
        return len(self.client.scheduler_info(n_workers=-1)["workers"])

    def describe(self) -> str:
        return f"Dask cluster {self.address} ({self.workers()} workers)"

    def close(self) -> None:
        self.client.close()
        if self.local is not None:
            self.local.close()

    def ordered_results(self, plan: Plan, store: Store | None
                        ) -> Iterator[tuple[bool, np.ndarray]]:
        """The plan's chunk results in chunk order, computed on the cluster, each with
        whether it was read back from ``store`` (new ones are stored as they finish)."""
        from distributed import KilledWorker, as_completed

        run = uuid.uuid4().hex[:12]
        n = len(plan.chunks)
        window = 2 * max(self.workers(), 1) + 2
        running: dict[Any, int] = {}
        finished: dict[int, np.ndarray] = {}
        submitted: set[int] = set()  # in flight or finished, not yet handed over
        considered = 0  # chunks before this one are submitted or found in the store
        waiting = as_completed()

        def submit() -> None:
            nonlocal considered
            while considered < n and len(running) + len(finished) < window:
                i = considered
                considered += 1
                if store is not None and store.has(plan.chunks[i]):
                    continue
                future = self.client.submit(run_chunk, plan.compute, plan.chunks[i],
                                            key=f"dicelab-{run}-{i}", pure=False)
                running[future] = i
                submitted.add(i)
                waiting.add(future)

        try:
            for i in range(n):
                submit()  # the chunks in flight never trail the one handed over
                chunk = plan.chunks[i]
                if i not in submitted:
                    yield True, store.load(chunk)
                    continue
                while i not in finished:
                    future = next(waiting)
                    j = running.pop(future)
                    try:
                        finished[j] = future.result()
                    except KilledWorker as exc:
                        raise UserError(f"the cluster lost chunk {j} of {plan.label}: every "
                                        f"worker that ran it died ({exc})") from None
                    future.release()
                    if store is not None:
                        store.save(plan.chunks[j], finished[j])
                    submit()
                submitted.discard(i)
                yield False, finished.pop(i)
        finally:
            if running:
                self.client.cancel(list(running))
