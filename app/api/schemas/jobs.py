"""The job audit surface."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from app.jobs.store import JobView
from app.temporal.instants import iso

State = Literal["queued", "running", "succeeded", "failed", "cancelled"]


class JobOut(BaseModel):
    id: str
    kind: str
    state: State
    mode: str
    request: dict[str, Any]
    source_kind: str
    source_id: str
    created_at: str
    started_at: str | None
    finished_at: str | None
    attempts: int
    max_attempts: int
    error: str | None
    cancel_requested: bool
    summary: dict[str, Any] = Field(description="facts, claims created and found again, anchoring, tokens, time")
    passes: list[dict[str, Any]] = Field(
        description="per pass: label, chunk, raw, new, collisions, rejected, attempts, elapsedS, tokens, error"
    )
    queue_position: int | None = Field(description="1 = next; null unless queued")

    @classmethod
    def from_view(cls, job: JobView) -> JobOut:
        fields = {name: getattr(job, name) for name in cls.model_fields}
        fields.update(created_at=iso(job.created_at), started_at=iso(job.started_at), finished_at=iso(job.finished_at))
        return cls.model_validate(fields)


class JobPageOut(BaseModel):
    jobs: list[JobOut]
    next_before: str | None = Field(description="pass as `before` for the next (older) page")


class JobRawPassOut(BaseModel):
    attempt: int
    seq: int
    label: str
    chunk: int
    replies: list[str]


class JobRawOut(BaseModel):
    id: str
    passes: list[JobRawPassOut]


class JobCancelOut(BaseModel):
    id: str
    state: State
