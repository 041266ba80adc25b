"""Retraction, shared by everything that can be retracted (claims, identity links): close the
transaction time of one live record, never delete it."""

from __future__ import annotations

from datetime import datetime

from neo4j import ManagedTransaction

from donto.errors import Conflict, NotFound
from donto.graph.client import GraphClient, next_transaction_time
from donto.temporal.instants import to_native


def retract(
    graph: GraphClient, workspace: str, record_id: str, reason: str | None, *, query: str, what: str
) -> datetime:
    """Run `query` (parameters workspace, id, recorded_at, reason; returns wasLive and retractedAt)
    at this write's transaction time. NotFound for an id the workspace does not hold; Conflict,
    saying when, for a record retracted before. `what` names the record in those messages."""

    def work(tx: ManagedTransaction) -> list[dict]:
        recorded_at = next_transaction_time(graph, tx, workspace)
        return graph.run(tx, query, workspace=workspace, id=record_id, recorded_at=recorded_at, reason=reason)

    rows = graph.write(work, name=query)
    if not rows:
        raise NotFound(f"no {what} {record_id!r} in this workspace", field="id")
    retracted_at = to_native(rows[0]["retractedAt"])
    if not rows[0]["wasLive"]:
        raise Conflict(f"{what} {record_id!r} was already retracted at {retracted_at.isoformat()}", field="id")
    return retracted_at
