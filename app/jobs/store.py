"""The durable job queue: (:Job) nodes in Neo4j, the one store donto has.

A job is queued -> running -> succeeded | failed | cancelled. A worker claims the oldest job it
may run under a lease (cypher/job_claim_next.cypher: two workers never get the same job) and
renews the lease while it works; a job whose worker died is claimed again once the lease lapses,
up to its maximum attempts. Nothing accepted is lost on a restart: the queue is the graph."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from donto.errors import InvalidInput, NotFound
from donto.graph.client import GraphClient
from donto.ids import uuid7
from donto.temporal.instants import to_native, utc_now

log = logging.getLogger(__name__)

STATES = ("queued", "running", "succeeded", "failed", "cancelled")
MAX_PAGE = 200
MAX_FACTS_PAGE = 1000  # a deep job states hundreds of facts; a page of them reads in one request


class JobHalted(Exception):
    """The job was cancelled, or its lease was lost to another worker, while it ran."""


@dataclass(frozen=True)
class ClaimedJob:
    id: str
    workspace: str
    kind: str
    request: dict[str, Any]
    mode: str
    source_kind: str
    source_id: str
    attempt: int


@dataclass
class JobView:
    """A job as a client sees it."""

    id: str
    kind: str
    state: str
    mode: str
    request: dict[str, Any]
    source_kind: str
    source_id: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    attempts: int
    max_attempts: int
    error: str | None
    cancel_requested: bool
    summary: dict[str, Any] = field(default_factory=dict)  # counts written when it ended
    passes: list[dict[str, Any]] = field(default_factory=list)
    queue_position: int | None = None  # 1 = next; None unless queued


SUMMARY_KEYS = (
    "facts",
    "claimsCreated",
    "claimsExisting",
    "corroborations",
    "corrections",
    "anchored",
    "unanchored",
    "premises",
    "identityLinks",
    "datesResolved",
    "datesUnresolved",
    "contradictions",
    "singleValued",
    "aliasProposals",
    "promptTokens",
    "completionTokens",
    "tokensEstimated",
    "passesFailed",
    "elapsedS",
)


def _view(job: dict[str, Any], passes: list[dict[str, Any]] | None = None, ahead: int | None = None) -> JobView:
    return JobView(
        id=job["id"],
        kind=job["kind"],
        state=job["state"],
        mode=job.get("mode") or "",
        request=json.loads(job.get("request") or "{}"),
        source_kind=job.get("sourceKind") or "",
        source_id=job.get("sourceId") or "",
        created_at=to_native(job["createdAt"]),
        started_at=to_native(job.get("startedAt")),
        finished_at=to_native(job.get("finishedAt")),
        attempts=job.get("attempts") or 0,
        max_attempts=job.get("maxAttempts") or 0,
        error=job.get("error"),
        cancel_requested=bool(job.get("cancelRequested")),
        summary={k: job[k] for k in SUMMARY_KEYS if job.get(k) is not None},
        passes=[
            {k: v for k, v in p.items() if v is not None and k not in ("jobId", "workspace")} for p in (passes or [])
        ],
        queue_position=(ahead + 1) if job["state"] == "queued" and ahead is not None else None,
    )


class JobStore:
    def __init__(self, graph: GraphClient, lease_s: float = 120.0):
        self.graph = graph
        self.lease = timedelta(seconds=lease_s)

    # -- clients --------------------------------------------------------------------------------

    def create(
        self,
        workspace: str,
        kind: str,
        request: dict[str, Any],
        mode: str,
        source_kind: str,
        source_id: str,
        max_attempts: int,
        run_by: str | None = None,
    ) -> tuple[str, int]:
        """Queue a job (or, with `run_by`, make it running, leased to that caller); returns its id
        and its position in the queue (1 = next; 0 when it is already running)."""
        now = utc_now()
        job_id = uuid7()
        self.graph.write_query(
            "job_create",
            workspace=workspace,
            id=job_id,
            kind=kind,
            request=json.dumps(request),
            mode=mode,
            source_kind=source_kind,
            source_id=source_id,
            created_at=now,
            max_attempts=max_attempts,
            lease_owner=run_by,
            lease_until=now + self.lease if run_by else None,
        )
        if run_by:
            return job_id, 0
        ahead = self.graph.read_query("jobs_queued_ahead", before=now)[0]["ahead"]
        return job_id, ahead + 1

    def recent_seconds(self, workspace: str, limit: int = 20) -> list[float]:
        """How long this workspace's latest succeeded jobs took: the basis of an ETA."""
        return [
            float(j.summary["elapsedS"])
            for j in self.page(workspace, "succeeded", None, limit)
            if "elapsedS" in j.summary
        ]

    def get(self, workspace: str, job_id: str) -> JobView:
        rows = self.graph.read_query("job_get", workspace=workspace, id=job_id)
        if not rows:
            raise NotFound(f"no job {job_id!r} in this workspace", field="id")
        return _view(rows[0]["job"], rows[0]["passes"], rows[0]["ahead"])

    def raw(self, workspace: str, job_id: str) -> list[dict[str, Any]]:
        self.get(workspace, job_id)  # 404 for another workspace's job
        return self.graph.read_query("job_raw", workspace=workspace, id=job_id)

    def page(self, workspace: str, state: str | None, before: str | None, limit: int) -> list[JobView]:
        if state is not None and state not in STATES:
            raise InvalidInput(f"state is one of {', '.join(STATES)}", field="state")
        if not 1 <= limit <= MAX_PAGE:
            raise InvalidInput(f"limit is between 1 and {MAX_PAGE}", field="limit")
        [row] = self.graph.read_query("jobs_list", workspace=workspace, state=state, before=before, limit=limit)
        if not row["known"]:
            # A page starts after a job this API listed (its id is the previous page's next_before).
            raise InvalidInput(
                "before names no job of this workspace: pass a next_before this API handed out", field="before"
            )
        return [_view(job) for job in row["jobs"]]

    def cancel(self, workspace: str, job_id: str) -> str:
        rows = self.graph.write_query("job_cancel", workspace=workspace, id=job_id, now=utc_now())
        if not rows:
            raise NotFound(f"no job {job_id!r} in this workspace", field="id")
        return str(rows[0]["state"])

    # -- workers --------------------------------------------------------------------------------

    def claim(self, worker: str) -> ClaimedJob | None:
        now = utc_now()
        self.graph.write_query("jobs_fail_exhausted", now=now)
        rows = self.graph.write_query("job_claim_next", worker=worker, now=now, lease_until=now + self.lease)
        if not rows:
            return None
        r = rows[0]
        return ClaimedJob(
            r["id"],
            r["workspace"],
            r["kind"],
            json.loads(r["request"]),
            r["mode"],
            r["sourceKind"],
            r["sourceId"],
            r["attempts"],
        )

    def heartbeat(self, job_id: str, worker: str) -> tuple[bool, bool]:
        """(still ours, cancel requested)."""
        now = utc_now()
        rows = self.graph.write_query("job_heartbeat", id=job_id, worker=worker, now=now, lease_until=now + self.lease)
        return (bool(rows[0]["owned"]), bool(rows[0]["cancelRequested"])) if rows else (False, True)

    @contextmanager
    def held(self, job_id: str, worker: str) -> Iterator[Callable[[], None]]:
        """Keep the job's lease alive while the block runs: a heartbeat thread renews it every third
        of the lease, so a step that takes minutes never lets it lapse. Yields `check`, which raises
        JobHalted once a client asked to cancel the job or another worker took it over."""
        halt, done = threading.Event(), threading.Event()

        def beat() -> None:
            while not done.wait(self.lease.total_seconds() / 3):
                try:
                    owned, cancel = self.heartbeat(job_id, worker)
                except Exception:  # Neo4j briefly away: try again at the next beat
                    log.warning("heartbeat of job %s failed", job_id, exc_info=True)
                    continue
                if cancel or not owned:
                    halt.set()

        def check() -> None:
            if halt.is_set():
                raise JobHalted()

        thread = threading.Thread(target=beat, name=f"donto-heartbeat-{job_id[-6:]}", daemon=True)
        thread.start()
        try:
            yield check
        finally:
            done.set()
            thread.join(timeout=10)

    def record_pass(self, job_id: str, attempt: int, report: dict[str, Any]) -> None:
        self.graph.write_query("job_record_pass", id=job_id, attempt=attempt, **{"pass": report})

    def record_facts(self, job_id: str, workspace: str, facts: list[dict[str, Any]]) -> None:
        """Every fact the job's model stated, in order, with its outcome (job_record_facts.cypher)."""
        self.graph.write_query("job_record_facts", id=job_id, workspace=workspace, facts=facts)

    def facts(self, workspace: str, job_id: str, after: int, limit: int) -> list[dict[str, Any]]:
        self.get(workspace, job_id)  # 404 for another workspace's job
        if not 1 <= limit <= MAX_FACTS_PAGE:
            raise InvalidInput(f"limit is between 1 and {MAX_FACTS_PAGE}", field="limit")
        return self.graph.read_query("job_facts", workspace=workspace, id=job_id, after=after, limit=limit)

    def link_claims(self, job_id: str, workspace: str, links: list[dict[str, Any]]) -> None:
        if links:
            self.graph.write_query("job_link_claims", id=job_id, workspace=workspace, links=links)

    def finish(
        self, job_id: str, worker: str, state: str, error: str | None = None, summary: dict[str, Any] | None = None
    ) -> bool:
        """False when the worker no longer owns the job (its lease lapsed and another took it)."""
        rows = self.graph.write_query(
            "job_finish", id=job_id, worker=worker, state=state, now=utc_now(), error=error, summary=summary
        )
        return bool(rows)
