"""Registered source documents."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import BaseModel, Field, StringConstraints

from donto.api.schemas.common import Instant, Key, Strict
from donto.temporal.instants import iso

if TYPE_CHECKING:  # the domain types the converters take; the models alone stay light for donto.Client
    from donto.documents.service import DocumentRevision, DocumentView


class DocumentIn(Strict):
    text: Annotated[str, StringConstraints(min_length=1)]
    title: Annotated[str, StringConstraints(max_length=1000)] | None = None
    source: Annotated[str, StringConstraints(max_length=2000)] | None = None
    external_id: Key | None = None
    occurred_at: Instant | None = Field(
        default=None,
        description="when the text was written or said: dates its passages, and relative dates in it "
        "('last month') resolve against it; default: when it is registered",
    )


class DocumentOut(BaseModel):
    id: str
    revision: int
    sha256: str
    passages: int = Field(description="sentence passages the revision was cut into, recallable once embedded")
    occurred_at: str | None

    @classmethod
    def of(cls, doc: DocumentRevision) -> DocumentOut:
        return cls(
            id=doc.id, revision=doc.revision, sha256=doc.sha256, passages=doc.passages, occurred_at=iso(doc.occurred_at)
        )


class RevisionOut(BaseModel):
    id: str
    revision: int
    sha256: str
    recorded_at: str
    replaced_at: str | None = Field(description="when a later revision replaced it; null while current")
    passages: int


class DocumentDetailOut(BaseModel):
    id: str
    external_id: str | None
    revision: int
    title: str | None
    source: str | None
    sha256: str
    length: int = Field(description="characters of text: passages' and evidence spans' offsets index it")
    occurred_at: str | None
    recorded_at: str
    replaced_at: str | None = Field(description="when a later revision replaced this one; null while current")
    passages: int
    revisions: list[RevisionOut] = Field(description="every revision of the document, oldest first")

    @classmethod
    def of(cls, doc: DocumentView) -> DocumentDetailOut:
        return cls(
            id=doc.id,
            external_id=doc.external_id,
            revision=doc.revision,
            title=doc.title,
            source=doc.source,
            sha256=doc.sha256,
            length=doc.length,
            occurred_at=iso(doc.occurred_at),
            recorded_at=iso(doc.recorded_at),
            replaced_at=iso(doc.replaced_at),
            passages=doc.passages,
            revisions=[
                RevisionOut(
                    id=r.id,
                    revision=r.revision,
                    sha256=r.sha256,
                    recorded_at=iso(r.recorded_at),
                    replaced_at=iso(r.replaced_at),
                    passages=r.passages,
                )
                for r in doc.revisions
            ],
        )
