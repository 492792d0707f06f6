"""Numba's on-disk cache checked before it is used: a damaged compiled kernel is removed
(numba compiles it again), never loaded.

Numba stores each function's compiled code as an index (``*.nbi``) and data files
(``*.nbc``) and reads them back without a check: a flipped byte gives a traceback or a
crash in every later run. So a manifest beside them (``MANIFEST``) holds each file's size,
mtime and SHA-256: every process that uses the kernels checks the files against it when
the kernels are first imported, and records what it compiled after each compile (numba's
event API) and when it ends, under a lock, as processes run side by side. A function with
a file that is empty, or changed in content alone, loses all its files, and one note on
stderr says so. A file written again since its record cannot be told from one numba
rewrote in another process: if it is damaged, reading it fails, and the command removes
it, says so and runs again (``unreadable``, ``analyzer.cli``).
"""

from __future__ import annotations

import atexit
import fcntl
import hashlib
import json
import os
import sys
from pathlib import Path

from numba.core import event

MANIFEST = "cache-manifest.json"
KINDS = ("*.nbi", "*.nbc")


def _files(folder: Path) -> dict[str, Path]:
    return {str(p.relative_to(folder)): p for kind in KINDS for p in folder.rglob(kind)}


def _digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _read(folder: Path) -> dict[str, tuple[int, int, str]]:
    """The recorded size, mtime and digest of each file; none when the manifest is
    missing or unreadable."""
    try:
        data = json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: tuple(v) for k, v in data.items() if isinstance(v, list) and len(v) == 3
            and isinstance(v[0], int) and isinstance(v[1], int) and isinstance(v[2], str)}


def _function(name: str) -> str:
    """The part of a cache file's name that names its function (``play.games_block-168``)."""
    return name.split(".py", 1)[0]


_seen: dict[Path, tuple[int, int, str]] = {}  # each file's size, mtime and digest as last
# seen by this process


def _scan(folder: Path) -> dict[str, tuple[int, int, str, bool]]:
    """Every cache file's size, mtime, digest and whether it changed since this process
    last saw it (hashed again only where the size or mtime changed)."""
    out = {}
    for name, path in _files(folder).items():
        try:
            stat = path.stat()
        except OSError:
            continue
        key = (stat.st_size, stat.st_mtime_ns)
        old = _seen.get(path)
        digest = old[2] if old and old[:2] == key else _digest(path)
        if digest is not None:
            out[name] = (*key, digest, old != (*key, digest))
            _seen[path] = (*key, digest)
    return out


def damaged(folder: Path) -> set[str]:
    """The functions (``_function``) with a cache file that is empty, or that differs from
    its record in content alone (its size and mtime as recorded). A file written again
    since (numba adds a signature to an index, or two processes compile the same function
    at once) is not judged here: if it is damaged, reading it fails, and the command
    removes it and runs again (``unreadable``)."""
    recorded = _read(folder)
    return {_function(name) for name, (size, mtime, digest, _) in _scan(folder).items()
            if size == 0 or recorded.get(name, (size, mtime, digest)) != (size, mtime, digest)
            and recorded[name][:2] == (size, mtime)}


def remove(folder: Path, functions: set[str]) -> None:
    """Remove every cache file of ``functions``."""
    for name, path in _files(folder).items():
        if _function(name) in functions:
            path.unlink(missing_ok=True)


def record(folder: Path) -> None:
    """Record the digests of the files that changed since this process last saw them (and
    of any never recorded) into the manifest, written whole under a lock; files gone
    leave it."""
    if not folder.is_dir():
        return
    with open(folder / (MANIFEST + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        now, recorded = _scan(folder), _read(folder)
        kept = {name: entry for name, entry in recorded.items() if name in now}
        kept.update({name: entry[:3] for name, entry in now.items()
                     if entry[3] or name not in kept})
        if kept == recorded:
            return
        part = folder / f"{MANIFEST}.{os.getpid()}"
        part.write_text(json.dumps(kept))
        os.replace(part, folder / MANIFEST)


class _AfterCompiles(event.Listener):
    """Record the cache each time numba finishes a compile called from Python (its
    callees' compiles nest inside it)."""

    def __init__(self, folder: Path):
        self.folder, self.depth = folder, 0

    def on_start(self, event_):
        self.depth += 1

    def on_end(self, event_):
        self.depth -= 1
        if self.depth == 0:
            _record_quietly(self.folder)


def say_removed(count: int) -> None:
    """The one note on stderr for ``count`` damaged functions removed."""
    print(f"note: {count} damaged compiled kernel(s) found in the kernel cache and removed; "
          "they compile again", file=sys.stderr, flush=True)


def check(folder: Path) -> None:
    """Remove the damaged functions of ``folder`` (one note on stderr names how many), and
    record the cache after each compile and when this process ends."""
    if folder.is_dir():
        bad = damaged(folder)
        if bad:
            remove(folder, bad)
            say_removed(len(bad))
    event.register("numba:compile", _AfterCompiles(folder))
    atexit.register(_record_quietly, folder)


def unreadable(exc: BaseException, folder: Path) -> set[str]:
    """The functions (``_function``) whose cache files numba was reading in ``folder``
    when ``exc`` was raised (a damaged file no record vouched for); none when ``exc`` did
    not come from reading the cache."""
    found, seen = set(), set()
    while exc is not None and id(exc) not in seen:  # numba may raise its own error from it
        seen.add(id(exc))
        tb = exc.__traceback__
        while tb is not None:
            frame = tb.tb_frame
            if frame.f_code.co_filename.endswith(os.path.join("numba", "core", "caching.py")):
                owner = frame.f_locals.get("self")  # an index file, or a function's cache
                # (whose code failed to load: LLVM's bitcode read back damaged)
                index = getattr(getattr(owner, "_cache_file", owner), "_index_path", None)
                for path in (frame.f_locals.get("path"), index):
                    if isinstance(path, (str, Path)) and Path(path).is_relative_to(folder):
                        found.add(_function(str(Path(path).relative_to(folder))))
            tb = tb.tb_next
        exc = exc.__cause__ or exc.__context__
    return found


def _record_quietly(folder: Path) -> None:
    try:
        record(folder)
    except OSError:
        pass  # a cache that cannot be written is checked by the digests it has
