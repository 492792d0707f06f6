"""numba's cache of compiled kernels (``kernels.cache_dir``), checked before a command
reads it. numba loads a cached file as it finds it, and a damaged one ends the run (an
unpickling error, an LLVM error, an abort), so dicelab keeps a record of each cached
file's digest: a command adds the files it finds unrecorded or wrote itself as it exits
(``record``), and before any kernel runs removes the files that no longer match their
record (``check``), which numba then compiles again. A file is hashed again only when
its size, inode or change time differs from the record's (no tool sets a change time
back), so a check costs a look at each file's metadata.

numba writes each file whole (a temporary file moved into place), so a file a process
wrote and has not yet recorded (a test, a training run, a run killed before its end) is
one numba made, and is recorded by the next command.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import hashlib
import json
import os
import sys
import time
from pathlib import Path

from analyzer.files import write_atomic

RECORD = "compiled-digests.json"
SUFFIXES = (".nbi", ".nbc")  # numba's index and data files
_STARTED = time.time_ns()


def _folder() -> Path:
    from kernels import cache_dir

    return cache_dir()


@contextlib.contextmanager
def _locked(folder: Path):
    """Hold the record's lock (processes sharing the cache update it one at a time)."""
    with open(folder / f".{RECORD}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _cached_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.suffix in SUFFIXES and p.is_file()]


def _stamp(info: os.stat_result) -> list[int]:
    return [info.st_ino, info.st_size, info.st_ctime_ns]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _read(folder: Path) -> dict:
    """The record; a damaged or missing one is empty (every file then unrecorded)."""
    try:
        record = json.loads((folder / RECORD).read_text())
    except (OSError, ValueError):
        return {}
    ok = isinstance(record, dict) and all(
        isinstance(v, dict) and isinstance(v.get("sha256"), str)
        and isinstance(v.get("stamp"), list) for v in record.values())
    return record if ok else {}


def _matches(path: Path, entry: dict | None, info: os.stat_result) -> bool:
    """Whether ``path`` is the file its record ``entry`` describes (its stamp brought up
    to date where only the metadata moved)."""
    if entry is None:
        return False
    if entry["stamp"] == _stamp(info):
        return True
    if _digest(path) != entry["sha256"]:
        return False
    entry["stamp"] = _stamp(info)
    return True


def check(folder: Path | None = None) -> int:
    """Remove the cached files that do not match their record; returns how many."""
    folder = folder or _folder()
    removed = 0
    try:
        with _locked(folder):
            record = _read(folder)
            before = json.dumps(record, sort_keys=True)
            for path in _cached_files(folder):
                key = str(path.relative_to(folder))
                entry = record.get(key)
                if entry is None or _matches(path, entry, path.stat()):
                    continue
                path.unlink(missing_ok=True)
                del record[key]
                removed += 1
            if json.dumps(record, sort_keys=True) != before:
                _write(folder, record)
    except OSError:  # a cache folder that cannot be read or locked: numba's to judge
        pass
    return removed


def check_and_keep_record() -> None:
    """``check`` at a command's start, with one line on stderr when files were removed,
    and ``record`` at its exit."""
    removed = check()
    if removed:
        print(f"dicelab: note: {removed} stored compiled kernel file"
              f"{'s' if removed > 1 else ''} had changed since written (damaged) and "
              f"{'were' if removed > 1 else 'was'} removed; the kernels compile again",
              file=sys.stderr, flush=True)
    atexit.register(record)


def record(folder: Path | None = None) -> None:
    """Add to the record the cached files it lacks and those this process rewrote (best
    effort: a cache that cannot be written is left as it is)."""
    folder = folder or _folder()
    try:
        with _locked(folder):
            kept = _read(folder)
            for path in _cached_files(folder):
                info, key = path.stat(), str(path.relative_to(folder))
                entry = kept.get(key)
                if entry is None or (entry["stamp"] != _stamp(info)
                                     and info.st_ctime_ns >= _STARTED):
                    kept[key] = {"sha256": _digest(path), "stamp": _stamp(info)}
            _write(folder, {k: v for k, v in kept.items() if (folder / k).is_file()})
    except OSError:
        pass


def _write(folder: Path, kept: dict) -> None:
    write_atomic(folder / RECORD, json.dumps(kept, sort_keys=True))
