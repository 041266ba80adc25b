"""Erasure: `donto purge` physically deletes a workspace's data, or what it holds about one subject.

Unlike retraction (which closes a claim's transaction time and keeps it), a purge removes nodes
with DETACH DELETE: their relationships, vectors and full-text entries go with them, so nothing
purged can be recalled, listed, fetched or walked again, through any index.

- **Workspace**: every node workspace_nodes lists (settings, predicates, entities, documents,
  spans, sessions, turns, passages, claims, jobs, job passes, the job lane; subjects, merged ones
  too, observations, understandings, perspectives and their vectors, memory sessions, utility
  signals and memory events). API keys and their use counts stay (access, not memory: the
  workspace can be restored into and used again).
- **Subject S**: the claims with S as subject, and the claims with S as entity object; the
  evidence spans that no remaining claim cites; the entities no remaining claim names (S's own
  among them). Not free text: documents, turns and job replies that mention S stay (purge the
  workspace for those), as do claims derived from purged ones (they lose that premise link).

Deletes go in batches of BATCH nodes, one transaction each, so a big workspace does not need
one huge transaction. Each purge leaves an audit record `(:Purge {id, workspace, scope,
subjectSha256, by, startedAt, finishedAt, counts})` that outlives it and holds none of what it
removed: the subject only as a SHA-256 (whoever knows it can check it was erased), the counts
as JSON. A record without `finishedAt` is a purge that did not finish (run it again)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from donto.auth.keys import check_workspace
from donto.errors import DontoError, InvalidInput
from donto.graph.client import GraphClient, next_transaction_time
from donto.ids import uuid7
from donto.temporal.instants import to_native

BATCH = 1000


@dataclass(frozen=True)
class PurgeReport:
    id: str
    workspace: str
    scope: str  # 'workspace' | 'subject'
    subject_sha256: str | None
    by: str
    started_at: datetime
    finished_at: datetime
    counts: dict[str, int]


class PurgeService:
    def __init__(self, graph: GraphClient):
        self.graph = graph

    def holdings(self, workspace: str) -> dict[str, int]:
        """How many nodes of each label the workspace holds (what a whole purge would delete)."""
        check_workspace(workspace)
        rows = self.graph.read_query("workspace_nodes", workspace=workspace, limit=2**62)
        return dict(sorted(Counter(r["label"] for r in rows).items()))

    def purge(self, workspace: str, subject: str | None, by: str) -> PurgeReport:
        check_workspace(workspace)
        if subject is not None and not subject.strip():
            raise InvalidInput("a subject is an entity key, not empty", field="subject")
        scope = "workspace" if subject is None else "subject"
        digest = None if subject is None else hashlib.sha256(subject.encode("utf-8")).hexdigest()
        purge_id = uuid7()
        started = self._record(purge_id, workspace, scope, digest, by, None)
        counts = self._purge_workspace(workspace) if subject is None else self._purge_subject(workspace, subject)
        finished = self._record(purge_id, workspace, scope, digest, by, counts)
        return PurgeReport(purge_id, workspace, scope, digest, by, started, finished, counts)

    def _purge_workspace(self, workspace: str) -> dict[str, int]:
        def delete(tx: Any, element_ids: list[str]) -> int:
            next_transaction_time(self.graph, tx, workspace)  # a purge queues behind writes like any write
            [row] = self.graph.run(tx, "workspace_nodes_delete", workspace=workspace, element_ids=element_ids)
            return row["deleted"]

        counts: Counter[str] = Counter()
        while True:
            # The first BATCH of what is left, in deletion order: what hangs from other nodes first.
            rows = self.graph.read_query("workspace_nodes", workspace=workspace, limit=BATCH)
            if not rows:
                return dict(sorted(counts.items()))
            if not self.graph.write(delete, [r["elementId"] for r in rows], name="workspace_nodes_delete"):
                raise DontoError(f"the purge of workspace {workspace} stopped: a batch deleted nothing")
            counts.update(r["label"] for r in rows)

    def _purge_subject(self, workspace: str, subject: str) -> dict[str, int]:
        def delete(tx: Any) -> dict[str, int]:
            next_transaction_time(self.graph, tx, workspace)
            return self.graph.run(tx, "subject_purge_batch", workspace=workspace, subject=subject, limit=BATCH)[0]

        counts: Counter[str] = Counter({"claims": 0, "spans": 0, "entities": 0})
        while True:
            row = self.graph.write(delete, name="subject_purge_batch")
            counts.update(row)
            if row["claims"] == 0:
                return dict(sorted(counts.items()))

    def _record(
        self, purge_id: str, workspace: str, scope: str, digest: str | None, by: str, counts: dict[str, int] | None
    ) -> datetime:
        def work(tx: Any) -> datetime:
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            [row] = self.graph.run(
                tx,
                "purge_record",
                id=purge_id,
                workspace=workspace,
                scope=scope,
                subject_sha256=digest,
                by=by,
                recorded_at=recorded_at,
                counts=None if counts is None else json.dumps(counts, sort_keys=True),
                finished=counts is not None,
            )
            return to_native(row["finishedAt"] or row["startedAt"])

        return self.graph.write(work, name="purge_record")
