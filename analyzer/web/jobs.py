"""The web app's questions as jobs: each a run of the command line in a process of its own,
its progress read from its standard error, its JSON answer from its standard output.

At most ``limit`` jobs run at once; a tab's new question of a kind cancels its old one; a
job is seen and cancelled only by the tab that asked it.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from analyzer.errors import UserError
from analyzer.run.progress import LINE_PREFIX, MACHINE_PROGRESS

LIMIT = 4  # questions running at once (a helper asks two together)
KEEP_FINISHED = 64  # finished jobs a server remembers, the oldest forgotten first


class Busy(Exception):
    """Every job slot is taken."""


@dataclass(frozen=True)
class InFolder:
    """An argument naming one of the job's own files: its path once the folder exists (no
    text of a request is ever taken for it)."""

    name: str


@dataclass
class Job:
    """One question: its command line, its progress and, when it ends, its answer."""

    id: str
    owner: str  # the tab that asked
    kind: str  # e.g. "whatif", "advise": a tab's new job of a kind cancels its old one
    state: str = "running"  # running, done, failed, cancelled
    done: int = 0
    total: int = 0
    seconds_left: float | None = None
    status: str = ""  # e.g. the precision reached
    answer: Any = None
    error: str = ""
    started: float = field(default_factory=time.monotonic)
    process: asyncio.subprocess.Process | None = None
    folder: Path | None = None
    finish: Callable[[Any], Any] | None = None

    def view(self) -> dict[str, Any]:
        """What the page sees of the job."""
        return {"id": self.id, "kind": self.kind, "state": self.state, "done": self.done,
                "total": self.total, "seconds_left": self.seconds_left,
                "status": self.status, "answer": self.answer, "error": self.error,
                "seconds": round(time.monotonic() - self.started, 1)}


class Jobs:
    """The jobs of one server."""

    def __init__(self, limit: int = LIMIT):
        self.limit = limit
        self.jobs: dict[str, Job] = {}
        self.following: set[asyncio.Task] = set()

    def running(self) -> list[Job]:
        return [j for j in self.jobs.values() if j.state == "running"]

    async def start(self, owner: str, kind: str, argv: list[str | InFolder],
                    files: dict[str, str] | None = None,
                    finish: Callable[[Any], Any] | None = None) -> Job:
        """Run ``dicelab`` with ``argv`` for the tab ``owner``. ``files``: name to text,
        written to the job's own folder first, which an ``InFolder`` argument names.
        ``finish``: what becomes of the JSON answer (as it is by default)."""
        for old in self.running():
            if old.owner == owner and old.kind == kind:
                await self.cancel(owner, old.id)
        if len(self.running()) >= self.limit:
            raise Busy(f"the server runs at most {self.limit} questions at a time: cancel "
                       "one or wait for it to end")
        job = Job(secrets.token_hex(8), owner, kind, finish=finish)
        job.folder = Path(tempfile.mkdtemp(prefix="dicelab-web-"))
        for name, text in (files or {}).items():
            (job.folder / name).write_text(text, encoding="utf-8")
        args = [str(job.folder / a.name) if isinstance(a, InFolder) else a for a in argv]
        env = {**os.environ, MACHINE_PROGRESS: "lines"}
        job.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "analyzer", *args, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env,
            start_new_session=True)
        self.jobs[job.id] = job
        task = asyncio.get_running_loop().create_task(self._follow(job))
        self.following.add(task)
        task.add_done_callback(self.following.discard)
        self._forget_old()
        return job

    def get(self, owner: str, job_id: str) -> Job:
        """The tab's job ``job_id``; another tab's is as unknown as a missing one."""
        job = self.jobs.get(job_id)
        if job is None or job.owner != owner:
            raise UserError(f"no question {job_id!r} of this page: it ended long ago or "
                            "was never asked")
        return job

    async def cancel(self, owner: str, job_id: str) -> Job:
        job = self.get(owner, job_id)
        if job.state == "running":
            job.state = "cancelled"
            _end(job.process)
        return job

    async def close(self) -> None:
        """End every job still running and wait for their processes (the server stops)."""
        for job in self.running():
            job.state = "cancelled"
            _end(job.process)
        if self.following:
            await asyncio.wait(self.following, timeout=10)

    async def _follow(self, job: Job) -> None:
        """Read the job's progress and answer until its process ends."""
        assert job.process is not None and job.process.stderr is not None
        out = asyncio.create_task(job.process.stdout.read())  # type: ignore[union-attr]
        said = []
        async for raw in job.process.stderr:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            if not _read_progress(job, line) and line.strip():
                said.append(line.strip())
        text = (await out).decode("utf-8", "replace")
        code = await job.process.wait()
        if job.folder is not None:
            shutil.rmtree(job.folder, ignore_errors=True)
        if job.state == "cancelled":
            return
        if code == 0:
            job.answer = _answer(text)
            if job.finish is not None:
                job.answer = job.finish(job.answer)
            job.state = "done"
            job.done = job.total = max(job.total, 1)
        else:
            job.error = said[-1] if said else f"the run ended with exit status {code}"
            job.error = job.error.removeprefix("dicelab: ").removeprefix("error: ")
            job.state = "failed"

    def _forget_old(self) -> None:
        finished = [j for j in self.jobs.values() if j.state != "running"]
        for job in finished[:max(0, len(finished) - KEEP_FINISHED)]:
            del self.jobs[job.id]


def _read_progress(job: Job, line: str) -> bool:
    """Take a progress line (``analyzer.run.progress``) into ``job``; False for others."""
    if not line.startswith(LINE_PREFIX):
        return False
    parts = line[len(LINE_PREFIX):].split(" ", 3)
    try:
        job.done, job.total, left = int(parts[0]), int(parts[1]), float(parts[2])
    except (IndexError, ValueError):
        return True
    job.seconds_left = left
    job.status = parts[3] if len(parts) > 3 else ""
    return True


def _answer(text: str) -> Any:
    """The run's JSON answer; text that is not JSON as it is."""
    try:
        return json.loads(text)
    except ValueError:
        return {"text": text}


def _end(process: asyncio.subprocess.Process | None) -> None:
    """End a job's process and everything it started."""
    if process is None or process.returncode is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        pass
