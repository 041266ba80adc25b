"""Key use, counted in memory and written to the graph in batches.

A request never waits for Neo4j to count it: `accepted` and `rejected` add to a table in memory,
and a thread (started on the first count, so a CLI command never starts one) writes it every
`flush_s` seconds into daily (:KeyUsage {keyId, workspace, day}) nodes and each key's lastUsedAt
(cypher/key_usage_flush.cypher). `close()` writes what is left. A failed write keeps its counts
for the next round, so an outage delays the audit trail but loses nothing unless the process dies."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from datetime import date, datetime

from donto.graph.client import GraphClient
from donto.temporal.instants import utc_now

log = logging.getLogger(__name__)


@dataclass
class Tally:
    requests: int = 0
    rejected: int = 0
    last_used_at: datetime | None = None  # of the last accepted request

    def add(self, other: Tally) -> None:
        self.requests += other.requests
        self.rejected += other.rejected
        if other.last_used_at and (self.last_used_at is None or other.last_used_at > self.last_used_at):
            self.last_used_at = other.last_used_at


class UsageLog:
    def __init__(self, graph: GraphClient, flush_s: float):
        self.graph = graph
        self.flush_s = flush_s
        self._lock = threading.Lock()
        self._pending: dict[tuple[str, str, date], Tally] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def accepted(self, key_id: str, workspace: str) -> None:
        now = utc_now()
        self._count(key_id, workspace, now, Tally(requests=1, last_used_at=now))

    def rejected(self, key_id: str, workspace: str) -> None:
        self._count(key_id, workspace, utc_now(), Tally(rejected=1))

    def _count(self, key_id: str, workspace: str, now: datetime, tally: Tally) -> None:
        with self._lock:
            self._pending.setdefault((key_id, workspace, now.date()), Tally()).add(tally)
            if self._thread is None and not self._stop.is_set():
                self._thread = threading.Thread(target=self._loop, name="donto-key-usage", daemon=True)
                self._thread.start()

    def flush(self) -> int:
        """Write what has been counted; how many (key, workspace, day) rows were written."""
        with self._lock:
            batch, self._pending = self._pending, {}
        if not batch:
            return 0
        rows = [
            {
                "keyId": key_id,
                "workspace": workspace,
                "day": day,
                "requests": t.requests,
                "rejected": t.rejected,
                "lastUsedAt": t.last_used_at,
            }
            for (key_id, workspace, day), t in batch.items()
        ]
        try:
            self.graph.write_query("key_usage_flush", rows=rows)
        except Exception:
            with self._lock:  # counted since are added to the batch that failed, not lost
                for name, tally in batch.items():
                    self._pending.setdefault(name, Tally()).add(tally)
            raise
        return len(rows)

    def close(self) -> None:
        """Stop the thread and write what is left (once: the graph is closed next)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        try:
            self.flush()
        except Exception:
            log.exception("key usage not written at shutdown")

    def _loop(self) -> None:
        while not self._stop.wait(self.flush_s):
            try:
                self.flush()
            except Exception:
                log.warning("key usage not written yet; kept for the next round", exc_info=True)
