"""The job audit surface."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from donto.temporal.instants import iso

if TYPE_CHECKING:  # the domain types the converters take; the models alone stay light for donto.Client
    from donto.jobs.store import JobView

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


FactOutcome = Literal["created", "existing", "corroborated", "corrected", "repeated", "rejected"]


class FactAnchorOut(BaseModel):
    kind: Literal["document", "turn"]
    id: str = Field(description="the document revision or turn the quote was found in")
    start: int = Field(description="character offsets in that document's or turn's text")
    end: int


class JobFactOut(BaseModel):
    seq: int = Field(description="1, 2, ...: the order the model stated it in")
    attempt: int
    label: str = Field(description="the pass: single, an aperture's name, pass_2, lens:kinship")
    lens: str | None
    chunk: int
    subject: str | None
    predicate: str | None
    object: str | None
    quote: str | None
    text: str | None = Field(description="the fact as stated; for a rejected one, what the model wrote")
    anchor: FactAnchorOut | None = Field(description="where its quote was found; null: see unanchored_reason")
    unanchored_reason: str | None
    outcome: FactOutcome = Field(
        description="created: a new claim; existing: a claim held it already; corroborated: it restates a "
        "claim in other words; corrected: a new claim that is another claim's new version (corrects: that "
        "claim), the correction the text states, or the claim's start moved back by a source dated before it; "
        "repeated: stated before in this job (repeats: that seq); rejected: see reason"
    )
    reason: str | None = Field(description="why it was rejected: not valid JSON, empty field: predicate, ...")
    claim_id: str | None
    repeats: int | None
    corrects: str | None = Field(default=None, description="with outcome corrected: the claim it is the new version of")
    correction: str | None = Field(
        default=None,
        description="what became of the correction the fact states (corr), or of the claim it restates from an "
        "earlier source: what it corrected, or why nothing (no live claim, or several, say what it corrects)",
    )

    @classmethod
    def of(cls, row: dict[str, Any]) -> JobFactOut:
        anchor = None
        if row["anchorKind"] is not None:
            anchor = FactAnchorOut(kind=row["anchorKind"], id=row["anchorId"], start=row["start"], end=row["end"])
        return cls(
            seq=row["seq"],
            attempt=row["attempt"],
            label=row["pass"],
            lens=row["lens"],
            chunk=row["chunk"],
            subject=row["subject"],
            predicate=row["predicate"],
            object=row["object"],
            quote=row["quote"],
            text=row["text"],
            anchor=anchor,
            unanchored_reason=row["unanchoredReason"],
            outcome=row["outcome"],
            reason=row["reason"],
            claim_id=row["claimId"],
            repeats=row["repeats"],
            corrects=row.get("corrects"),
            correction=row.get("correction"),
        )


class JobFactsOut(BaseModel):
    id: str
    facts: list[JobFactOut]
    next_after: int | None = Field(description="pass as `after` for the next page; null on the last")
