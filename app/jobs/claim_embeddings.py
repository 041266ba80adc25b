"""Claim and document passage embeddings, the first job kind: computed off the write path.

A claim, or a passage of a registered document, is written with the label :PendingEmbedding; this
drains that queue in batches (one encoder call per batch is far cheaper than one per request). The
queue lives in the graph, so nothing is lost on a restart. Recall drains its own workspace first,
so it reads its own writes.

Fairness: each workspace has its own lock, so a recall waits only for its own workspace's
backlog, never for another tenant's; the background round takes one batch from every workspace
with pending claims in turn. (Two processes may embed the same claim once each; the write is
idempotent.) The background round gives way to the process's requests (foreground.py): a whole
batch when the process is quiet, else a slice of SLICE claims when no light request is in flight.
Encoding 128 claims holds both of a small machine's cores for 0.6 s (seconds when they are busy),
and a quiet tenant's recall that met such a batch beside a noisy tenant's flood took that much longer."""

from __future__ import annotations

import threading
import time
from collections import defaultdict

from donto.embedding.encoder import Encoder
from donto.graph.client import GraphClient
from donto.jobs.foreground import Foreground

SLICE = 16  # claims a pressed round encodes: ~0.07 s of 2 cores
ROUND_S = 5.0  # a round takes batches in turn this long before it reads the backlog's workspaces again


class ClaimEmbeddings:
    name = "claim-embeddings"

    def __init__(
        self,
        graph: GraphClient,
        encoder: Encoder,
        foreground: Foreground | None = None,
        batch: int = 128,
        round_s: float = ROUND_S,
    ):
        self.graph = graph
        self.encoder = encoder
        self.foreground = foreground or Foreground()  # without requests in this process: never waits
        self.batch = batch
        self.round_s = round_s
        self._locks: defaultdict[str, threading.Lock] = defaultdict(threading.Lock)
        self._locks_guard = threading.Lock()

    def _lock(self, workspace: str) -> threading.Lock:
        with self._locks_guard:
            return self._locks[workspace]

    def drain(self, workspace: str, max_claims: int | None = None) -> int:
        """Embed one workspace's pending claims and passages until none are left or max_claims are done."""
        with self._lock(workspace):
            return self._drain(workspace, max_claims)

    def drain_all(self) -> int:
        """Every workspace's backlog, to the end (`donto reembed`)."""
        done = 0
        while rows := self.graph.read_query("claims_pending_workspaces"):
            done += sum(self.drain(r["workspace"]) for r in rows)
        return done

    def run_once(self) -> int:
        """One fair round for the background worker: a batch from each workspace with a backlog in
        turn, skipping one whose recall is draining it right now, and again while a workspace's
        last whole batch came back full, for up to `round_s`; each batch waits for a quiet moment, and
        is a slice (the round's last for that workspace) when none comes. The backlog's workspaces
        are read once a round: that read counts every pending claim of the store."""
        done = 0
        started = time.monotonic()
        workspaces = [row["workspace"] for row in self.graph.read_query("claims_pending_workspaces")]
        while workspaces:
            more = []
            for workspace in workspaces:
                whole = self.foreground.background_turn()
                limit = self.batch if whole else min(SLICE, self.batch)
                lock = self._lock(workspace)
                if lock.acquire(blocking=False):
                    try:
                        embedded = self._drain(workspace, limit)
                    finally:
                        lock.release()
                    done += embedded
                    if whole and embedded == limit:  # a pressed round's slice is all it takes
                        more.append(workspace)
            workspaces = more if time.monotonic() - started < self.round_s else []
        return done

    def _drain(self, workspace: str, max_claims: int | None) -> int:
        done = 0
        while max_claims is None or done < max_claims:
            limit = self.batch if max_claims is None else min(self.batch, max_claims - done)
            pending = self.graph.read_query("claims_pending_embedding", workspace=workspace, limit=limit)
            if not pending:
                break
            contexts = [p for p in pending if p["context"] is not None]
            vectors = self.encoder.encode([p["text"] for p in pending] + [p["context"] for p in contexts])
            context_of = {p["id"]: v for p, v in zip(contexts, vectors[len(pending) :])}
            claims = [{"id": p["id"], "embedding": v} for p, v in zip(pending, vectors) if p["kind"] == "claim"]
            passages = [
                {"id": p["id"], "embedding": v, "contextEmbedding": context_of.get(p["id"])}
                for p, v in zip(pending, vectors)
                if p["kind"] == "passage"
            ]
            if claims:
                self.graph.write_query("claims_set_embedding", rows=claims)
            if passages:
                self.graph.write_query("passages_set_embedding", rows=passages)
            done += len(pending)
        return done
