"""What runs inside a Dask worker: the chunk call and the worker's start-up hook.

Kept free of Dask imports at module level so that it loads wherever dicelab is installed.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

_NUMBA_CALLS = threading.Lock()  # numba's parallel loops are entered by one thread at a time


def run_chunk(compute: Callable[[list[tuple[int, ...]]], list[Any]],
              chunk: tuple[int, ...]) -> Any:
    """Compute one chunk on this worker with all of the worker's threads as numba threads.

    A worker started with several threads gets one chunk at a time here, each spread over
    those threads by numba (its own threads would otherwise contend for the cores).
    """
    import numba
    from distributed import get_worker

    with _NUMBA_CALLS:
        threads = min(get_worker().state.nthreads, numba.config.NUMBA_NUM_THREADS)
        numba.set_num_threads(max(threads, 1))
        return compute([chunk])[0]


def versions() -> dict[str, str]:
    """The versions that must match the client's for results to be identical."""
    import numba
    import numpy

    from analyzer import __version__

    return {"dicelab": __version__, "numba": numba.__version__, "numpy": numpy.__version__}


def dask_setup(worker: Any) -> None:
    """Preload hook of the local cluster's workers: Ctrl-C in the terminal is the client's
    to handle, so the workers ignore it (the client shuts them down)."""
    import signal

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
