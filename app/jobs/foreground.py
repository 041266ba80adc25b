"""Requests in flight in this process, so that background jobs give way to them.

On a small machine the claim embedder's encoder and a request's writes and reads compete for the
same cores: embedding a batch while a batch of claims is written halves the write rate. So the
background embedder waits until no request has run for `quiet_s`, but never longer than
`max_wait_s` at a time, so a process that is never idle still embeds a batch every few seconds
(recall embeds its own workspace's backlog first in any case, so it always reads its own writes)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

QUIET_S = 0.25  # a client writing batch after batch leaves gaps shorter than this between them
MAX_WAIT_S = 5.0  # the longest the background waits for a quiet moment before it takes a batch anyway


class Foreground:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._in_flight = 0
        self._last_ended = float("-inf")  # time.monotonic() when the last request ended

    @contextmanager
    def request(self) -> Iterator[None]:
        with self._lock:
            self._in_flight += 1
        try:
            yield
        finally:
            with self._lock:
                self._in_flight -= 1
                self._last_ended = time.monotonic()

    def quiet_for(self) -> float:
        """Seconds since the last request ended; 0 while one is in flight."""
        with self._lock:
            return 0.0 if self._in_flight else max(0.0, time.monotonic() - self._last_ended)

    def give_way(self, quiet_s: float = QUIET_S, max_wait_s: float = MAX_WAIT_S) -> float:
        """Wait until no request has run for `quiet_s`, or `max_wait_s` has passed; return the wait."""
        started = time.monotonic()
        while (quiet := self.quiet_for()) < quiet_s:
            waited = time.monotonic() - started
            if waited >= max_wait_s:
                break
            time.sleep(min(quiet_s - quiet, max_wait_s - waited))
        return time.monotonic() - started
