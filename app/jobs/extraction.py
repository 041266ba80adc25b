"""Extraction jobs, the second job kind: claim the oldest queued job (or one whose worker died),
run it through the memorize service while its lease is kept alive, then claim the next. Each job
starts when the process's requests leave it a turn (foreground.py): a job writes its claims and
documents, and a local model's extraction takes the cores a request needs."""

from __future__ import annotations

import os
import socket

from donto.ids import uuid7
from donto.jobs.foreground import Foreground
from donto.jobs.store import JobStore
from donto.memorize.service import MemorizeService


def worker_id() -> str:
    """Unique per process and start: host, pid and a random tail."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid7()[-12:]}"


class ExtractionJobs:
    name = "extraction"

    def __init__(
        self, jobs: JobStore, memorize: MemorizeService, worker: str | None = None, foreground: Foreground | None = None
    ):
        self.jobs = jobs
        self.memorize = memorize
        self.worker = worker or worker_id()
        self.foreground = foreground or Foreground()  # without requests in this process: never waits

    def run_once(self) -> int:
        self.foreground.background_turn()
        job = self.jobs.claim(self.worker)
        if job is None:
            return 0
        with self.jobs.held(job.id, self.worker) as check:
            self.memorize.run(job, self.worker, check)
        return 1
