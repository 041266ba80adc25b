"""Registered source documents: each text is a revision; a new text under the same external id
makes the next revision. Evidence spans cite a revision by its id, so offsets never drift."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from neo4j import ManagedTransaction

from app.graph.client import GraphClient, next_transaction_time
from app.ids import uuid7


@dataclass(frozen=True)
class DocumentRevision:
    id: str
    revision: int
    sha256: str
    created: bool


class DocumentService:
    def __init__(self, graph: GraphClient):
        self.graph = graph

    def register(
        self,
        workspace: str,
        text: str,
        title: str | None = None,
        source: str | None = None,
        external_id: str | None = None,
    ) -> DocumentRevision:
        sha = hashlib.sha256(text.encode("utf-8")).hexdigest()

        def work(tx: ManagedTransaction) -> DocumentRevision:
            recorded_at = next_transaction_time(self.graph, tx, workspace)  # also serialises revision numbering
            latest = self.graph.run(
                tx, "document_latest_revision", workspace=workspace, external_id=external_id, sha256=sha
            )
            if latest and latest[0]["sha256"] == sha:
                return DocumentRevision(latest[0]["id"], latest[0]["revision"], sha, created=False)
            previous = latest[0] if latest else None
            row = self.graph.run(
                tx,
                "document_create",
                workspace=workspace,
                id=uuid7(),
                external_id=external_id,
                revision=(previous["revision"] + 1) if previous else 1,
                previous_id=previous["id"] if previous else None,
                text=text,
                sha256=sha,
                title=title,
                source=source,
                recorded_at=recorded_at,
            )[0]
            return DocumentRevision(row["id"], row["revision"], row["sha256"], created=True)

        return self.graph.write(work, name="document_register")
