"""Where a run's chunks are computed: on this machine's numba threads (the default) or on a
Dask cluster (``--cluster``), with every finished chunk stored in a checkpoint folder when
one is given (``--checkpoint``).

A run is a ``Plan``: a list of chunks and a function computing one chunk from fixed inputs
(the chunk's own seed streams), so a chunk's result does not depend on where, when or beside
what it ran. Results are handed back in chunk order whatever order they finished in, so the
sums and concatenations callers make of them are bit-identical for any number of workers,
and an interrupted run resumes from its stored chunks to the same final result.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any, Iterator

import numpy as np

from analyzer.run.checkpoint import Store, check_folder
from analyzer.errors import Interrupted
from analyzer.run.plan import Plan


class Execution:
    """The backend in force for a command: local numba threads or a Dask cluster."""

    def __init__(self, cluster: str | None = None, checkpoint: str | None = None):
        self.cluster_spec = cluster
        self.folder = check_folder(checkpoint) if checkpoint else None
        self.checkpoint = str(self.folder) if checkpoint else None
        self.cluster = None
        self.computed = 0
        self.resumed = 0

    def start(self) -> None:
        if self.cluster_spec:
            from analyzer.run.cluster import Cluster

            self.cluster = Cluster.connect(self.cluster_spec)

    def close(self) -> None:
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None

    def results(self, plan: Plan) -> Iterator[np.ndarray]:
        """The plan's chunk results, in chunk order (stored ones read back, not run)."""
        store = None
        if self.checkpoint:
            from analyzer import __version__

            store = Store(self.folder, (__version__, plan.identity),
                          {"run": plan.label, "chunks": len(plan.chunks)})
        if self.cluster is not None:
            for stored, result in self.cluster.ordered_results(plan, store):
                self.resumed += stored
                self.computed += not stored
                yield result
            return
        for start in range(0, len(plan.chunks), plan.group):
            group = plan.chunks[start:start + plan.group]
            missing = [c for c in group if store is None or not store.has(c)]
            computed = dict(zip(missing, _interruptible(plan.compute, missing))) \
                if missing else {}
            for chunk in group:
                if chunk not in computed:
                    self.resumed += 1
                    yield store.load(chunk)
                    continue
                self.computed += 1
                if store is not None:
                    store.save(chunk, computed[chunk])
                yield computed[chunk]

    def where(self) -> str:
        """Where chunks run, in words (for progress lines and metadata)."""
        if self.cluster is not None:
            return self.cluster.describe()
        import numba

        return f"{numba.get_num_threads()} numba thread(s)"

    def meta(self) -> dict[str, Any]:
        """Execution metadata written with every result."""
        out: dict[str, Any] = {"execution": self.where(),
                               "chunks": self.computed + self.resumed}
        if self.cluster is not None:
            out["workers"] = self.cluster.workers()
            out["dask"] = self.cluster.version
        if self.checkpoint:
            out["checkpoint"] = self.checkpoint
            out["chunks_from_checkpoint"] = self.resumed
        return out


def _interruptible(compute, chunks: list) -> list[np.ndarray]:
    """``compute(chunks)`` on a helper thread while this one waits in short steps, so that
    Ctrl-C is handled at once (the kernels release the GIL) instead of when the chunk ends;
    the helper is a daemon thread, dropped at exit."""
    import numba

    box: dict[str, Any] = {}
    threads = numba.get_num_threads()  # numba's thread count is per calling thread

    def work() -> None:
        try:
            numba.set_num_threads(threads)
            box["result"] = compute(chunks)
        except BaseException as exc:  # handed to the waiting thread
            box["error"] = exc

    thread = threading.Thread(target=work, name="dicelab-chunks", daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(0.05)
    if "error" in box:
        raise box["error"]
    return box["result"]


_current = Execution()


def current() -> Execution:
    """The execution in force (local numba threads unless a command set another)."""
    return _current


@contextlib.contextmanager
def session(cluster: str | None = None, checkpoint: str | None = None) -> Iterator[Execution]:
    """Run a command's work on ``cluster`` (None: local threads), storing chunks in
    ``checkpoint`` (None: nowhere). Ctrl-C ends in ``Interrupted`` with what to do next."""
    global _current
    execution = Execution(cluster, checkpoint)
    previous, _current = _current, execution
    try:
        execution.start()
        yield execution
    except KeyboardInterrupt:
        stored = execution.computed + execution.resumed
        hint = (f"; {stored} finished chunk(s) are stored in {execution.checkpoint}: run the "
                "same command again to resume" if execution.checkpoint
                else "; use --checkpoint DIR to make long runs resumable")
        raise Interrupted("interrupted" + hint) from None
    finally:
        _current = previous
        with contextlib.suppress(KeyboardInterrupt):
            execution.close()
