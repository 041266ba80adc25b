"""Claim embeddings, the first job kind: computed off the write path.

A claim is written with the label :PendingEmbedding; this drains that queue in batches (one
encoder call per batch is far cheaper than one per request). The queue lives in the graph, so
nothing is lost on a restart. Recall drains its workspace first, so it reads its own writes."""

from __future__ import annotations

import threading

from app.embedding.encoder import Encoder
from app.graph.client import GraphClient


class ClaimEmbeddings:
    name = "claim-embeddings"

    def __init__(self, graph: GraphClient, encoder: Encoder, batch: int = 256):
        self.graph = graph
        self.encoder = encoder
        self.batch = batch
        self._lock = threading.Lock()  # one drainer at a time: no claim is encoded twice

    def drain(self, workspace: str | None = None, max_claims: int | None = None) -> int:
        """Embed pending claims (of one workspace, or all) until none are left or max_claims are done."""
        done = 0
        with self._lock:
            while max_claims is None or done < max_claims:
                pending = self.graph.read_query("claims_pending_embedding", workspace=workspace, limit=self.batch)
                if not pending:
                    break
                vectors = self.encoder.encode([p["text"] for p in pending])
                rows = [{"id": p["id"], "embedding": v} for p, v in zip(pending, vectors)]
                self.graph.write_query("claims_set_embedding", rows=rows)
                done += len(rows)
        return done

    def run_once(self) -> int:
        """One bounded round for the background worker."""
        return self.drain(max_claims=self.batch * 8)
