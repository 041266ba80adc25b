"""Background workers: each job kind drained on a thread of its own until stopped.

The API process runs them beside the requests (`donto up`, `donto serve`); `donto worker` runs
them alone, so a deployment can keep the API's cores for requests. Every kind's queue lives in
the graph, so any number of processes may drain it and a crash loses nothing."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Protocol

from donto.errors import BackendUnavailable

log = logging.getLogger(__name__)


class JobKind(Protocol):
    name: str

    def run_once(self) -> int:
        """Do one bounded round of queued work; return how many items it did (0: the queue is empty)."""
        ...


class Workers:
    def __init__(self, kinds: Sequence[JobKind], idle_s: float = 1.0):
        self.kinds = list(kinds)
        self.idle_s = idle_s
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        if self._threads:
            return
        self._stop.clear()
        self._threads = [
            threading.Thread(target=self._loop, args=(kind,), name=f"donto-{kind.name}", daemon=True)
            for kind in self.kinds
        ]
        for thread in self._threads:
            thread.start()

    def request_stop(self) -> None:
        """Ask every worker to finish its current round and end (safe from a signal handler)."""
        self._stop.set()

    def stop(self, timeout_s: float = 60.0) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=timeout_s)
        self._threads = []

    def wait(self) -> None:
        """Block until request_stop() or stop() (from a signal handler or another thread)."""
        while not self._stop.wait(1.0):
            pass

    def _loop(self, kind: JobKind) -> None:
        while not self._stop.is_set():
            try:
                if kind.run_once() == 0:
                    self._stop.wait(self.idle_s)
            except BackendUnavailable as exc:  # an outage: a line each try, no traceback; the queue is durable
                log.warning("job kind %s waits for Neo4j: %s", kind.name, exc.message)
                self._stop.wait(self.idle_s * 5)
            except Exception:  # keep draining after any other failure; the queue is durable
                log.exception("job kind %s", kind.name)
                self._stop.wait(self.idle_s * 5)
