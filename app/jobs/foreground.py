"""Requests in flight in this process, so that background jobs give way to them.

On a small machine the claim embedder's encoder and a request's writes and reads compete for the
same cores: embedding a batch while a batch of claims is written halves the write rate. So the
background embedder waits until no request has run for `quiet_s`, but never longer than
`max_wait_s` at a time, so a process that is never idle still embeds a batch every few seconds
(recall embeds its own workspace's backlog first in any case, so it always reads its own writes).

A process that is never idle is one that somebody is flooding with heavy requests (batch writes),
and beside them other tenants' light ones (a recall, a listing) still want answers within their
usual time. So what the embedder takes after waiting its longest is small (`wait_for_light` before
each slice): it starts only while no light request is in flight, and waits up to `max_wait_s` more
for such a moment."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

QUIET_S = 0.25  # a client writing batch after batch leaves gaps shorter than this between them
MAX_WAIT_S = 5.0  # the longest the background waits for a quiet moment before it takes a batch anyway


class Foreground:
    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._in_flight = 0
        self._light = 0  # of them, the light ones: every request that is not heavy
        self._last_ended = float("-inf")  # time.monotonic() when the last request ended

    @contextmanager
    def request(self, heavy: bool = False) -> Iterator[None]:
        with self._changed:
            self._in_flight += 1
            self._light += not heavy
        try:
            yield
        finally:
            with self._changed:
                self._in_flight -= 1
                self._light -= not heavy
                self._last_ended = time.monotonic()
                self._changed.notify_all()

    def light_in_flight(self) -> int:
        """Light requests running now (every request that is not heavy)."""
        return self._light

    def quiet_for(self) -> float:
        """Seconds since the last request ended; 0 while one is in flight."""
        with self._changed:
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

    def background_turn(self, quiet_s: float = QUIET_S, max_wait_s: float = MAX_WAIT_S) -> bool:
        """Wait for background work's turn. True: the process was quiet for `quiet_s`, take a whole
        batch. False: it was not within `max_wait_s`, and now no light request is in flight (or
        `max_wait_s` more have passed): take a slice."""
        if self.give_way(quiet_s, max_wait_s) < max_wait_s:
            return True
        self.wait_for_light(max_wait_s)
        return False

    def wait_for_light(self, max_wait_s: float = MAX_WAIT_S) -> float:
        """Wait until no light request is in flight, or `max_wait_s` has passed; return the wait."""
        started = time.monotonic()
        with self._changed:
            self._changed.wait_for(lambda: self._light == 0, timeout=max_wait_s)
        return time.monotonic() - started
