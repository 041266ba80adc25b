"""In-process request limits: a token bucket per key and a failure window per client address.

Both live in one process's memory: with several API processes each keeps its own, so a key's
effective rate is the per-process rate times the number of processes behind the balancer."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

MAX_TRACKED = 10_000  # addresses or keys held before idle entries are swept out


def whole_seconds(delay: float) -> int:
    """A Retry-After value: whole seconds, rounded up, at least 1."""
    return max(1, math.ceil(delay))


class TokenBuckets:
    """Each name gets `burst` requests at once and `rate` more per second after that."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = float(max(1, burst))
        self.clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # name -> (tokens, when counted)

    def take(self, name: str) -> float:
        """Take one token: 0.0 when there was one, else the seconds until there will be."""
        if self.rate <= 0:
            return 0.0
        with self._lock:
            now = self.clock()
            tokens, then = self._buckets.get(name, (self.burst, now))
            tokens = min(self.burst, tokens + (now - then) * self.rate)
            if tokens < 1.0:
                self._buckets[name] = (tokens, now)
                return (1.0 - tokens) / self.rate
            if len(self._buckets) >= MAX_TRACKED:
                self._sweep(now)
            self._buckets[name] = (tokens - 1.0, now)
            return 0.0

    def _sweep(self, now: float) -> None:
        """Forget buckets that have refilled: a full bucket and no bucket are the same."""
        full = [n for n, (t, then) in self._buckets.items() if t + (now - then) * self.rate >= self.burst]
        for name in full:
            del self._buckets[name]


class FailureWindows:
    """At most `limit` failures per address in a fixed window of `window_s` seconds; once an
    address has used them up, it is blocked until its window ends."""

    def __init__(self, limit: int, window_s: float, clock: Callable[[], float] = time.monotonic):
        self.limit = limit
        self.window_s = window_s
        self.clock = clock
        self._lock = threading.Lock()
        self._windows: dict[str, tuple[float, int]] = {}  # address -> (window start, failures)

    def blocked_for(self, address: str) -> float:
        """Seconds until this address may try again; 0.0 when it may now."""
        if self.limit <= 0:
            return 0.0
        with self._lock:
            now = self.clock()
            start, failures = self._windows.get(address, (now, 0))
            left = start + self.window_s - now
            return left if failures >= self.limit and left > 0 else 0.0

    def record(self, address: str) -> bool:
        """Count one failure; True when it used up the address's last one (it is now blocked)."""
        if self.limit <= 0:
            return False
        with self._lock:
            now = self.clock()
            start, failures = self._windows.get(address, (now, 0))
            if now - start >= self.window_s:
                start, failures = now, 0
            if address not in self._windows and len(self._windows) >= MAX_TRACKED:
                self._sweep(now)
            self._windows[address] = (start, failures + 1)
            return failures + 1 == self.limit

    def _sweep(self, now: float) -> None:
        ended = [a for a, (start, _) in self._windows.items() if now - start >= self.window_s]
        for address in ended:
            del self._windows[address]


class RecentlySeen:
    """The last `capacity` names added (oldest forgotten first): keys that failed, so that an
    address past its failure limit sending one of them again costs no read of the graph."""

    def __init__(self, capacity: int = MAX_TRACKED):
        self.capacity = capacity
        self._lock = threading.Lock()
        self._names: dict[str, None] = {}  # insertion-ordered: the first is the oldest

    def add(self, name: str) -> None:
        with self._lock:
            self._names.pop(name, None)
            self._names[name] = None
            if len(self._names) > self.capacity:
                del self._names[next(iter(self._names))]

    def __contains__(self, name: object) -> bool:
        with self._lock:
            return name in self._names
