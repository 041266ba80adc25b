"""Background workers: each job kind drained on a thread of its own until stopped (extraction on
`DONTO_LLM_JOBS` threads, `donto worker --jobs N`: that many jobs at once).

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

    def describe(self) -> str:
        """The kinds drained, with how many workers each: "claim-embeddings, extraction ×2"."""
        counts: dict[str, int] = {}
        for kind in self.kinds:
            counts[kind.name] = counts.get(kind.name, 0) + 1
        return ", ".join(name if n == 1 else f"{name} ×{n}" for name, n in counts.items())

    def start(self) -> None:
        if self._threads:
            return
        self._stop.clear()
        seen: dict[str, int] = {}
        self._threads = []
        for kind in self.kinds:  # a kind may have several workers (extraction with --jobs N): one thread each
            seen[kind.name] = seen.get(kind.name, 0) + 1
            name = f"donto-{kind.name}" + (f"-{seen[kind.name]}" if seen[kind.name] > 1 else "")
            self._threads.append(threading.Thread(target=self._loop, args=(kind,), name=name, daemon=True))
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
