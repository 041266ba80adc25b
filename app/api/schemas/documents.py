"""Registered source documents."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints, ValidationInfo, field_validator

from donto import metadata as document_metadata
from donto.api.schemas.common import Instant, Key, Strict
from donto.temporal.instants import iso

if TYPE_CHECKING:  # the domain types the converters take; the models alone stay light for donto.Client
    from donto.documents.service import DocumentPage, DocumentRevision, DocumentService, DocumentView, ListedDocument

METADATA_HELP = (
    f"a JSON object kept with the revision and handed back on every read and listing of it; at most "
    f"{document_metadata.MAX_METADATA_BYTES:,} bytes as JSON and {document_metadata.MAX_METADATA_DEPTH} levels deep; "
    "never searched"
)


class DocumentIn(Strict):
    # Before text, so that text's check sees it: an empty text is one kept for its metadata.
    metadata: dict[str, Any] | None = Field(default=None, description=METADATA_HELP)
    text: str = Field(
        description="the text, cut into passages that recall searches; may be empty only with `metadata` "
        "(a document kept for its metadata: no passages, never recalled)"
    )
    title: Annotated[str, StringConstraints(max_length=1000)] | None = None
    source: Annotated[str, StringConstraints(max_length=2000)] | None = None
    external_id: Key | None = None
    occurred_at: Instant | None = Field(
        default=None,
        description="when the text was written or said: dates its passages, and relative dates in it "
        "('last month') resolve against it; default: when it is registered. Under an external_id, a later "
        "occurred_at than the revision before makes a new version, valid from it",
    )
    revision_kind: Literal["version", "correction"] | None = Field(
        default=None,
        description="what new text under an existing external_id is: 'version', a new version in the world, valid "
        "from its occurred_at (required, and later than the start of the revision before, which is valid until "
        "then); 'correction', a fix of the revision before, which it replaces as known from now on and whose valid "
        "start it takes. Default: 'version' when occurred_at is later than the revision before's, 'correction' "
        "when it is the same or not given; an earlier occurred_at is refused (422) unless it is a correction",
    )

    @field_validator("metadata")
    @classmethod
    def _bounded(cls, metadata: dict[str, Any] | None) -> dict[str, Any] | None:
        return None if metadata is None else document_metadata.check(metadata)

    @field_validator("text")
    @classmethod
    def _text_or_metadata(cls, text: str, info: ValidationInfo) -> str:
        if not text and info.data.get("metadata") is None:
            raise ValueError("text is empty: give the text, or metadata to keep with an empty text")
        return text

    def register_in(self, documents: DocumentService, workspace: str) -> DocumentRevision:
        """Register this document: one conversion for REST and MCP alike."""
        return documents.register(
            workspace,
            self.text,
            self.title,
            self.source,
            self.external_id,
            self.occurred_at,
            self.metadata,
            self.revision_kind,
        )


class DocumentOut(BaseModel):
    id: str
    revision: int
    sha256: str
    passages: int = Field(description="sentence passages the revision was cut into, recallable once embedded")
    occurred_at: str | None
    revision_kind: Literal["version", "correction"] | None = Field(
        description="a version (a first revision is one) or a correction of the revision before; null for one "
        "registered before versions"
    )
    valid_from: str | None = Field(description="when the revision holds from in the world; null: no particular time")

    @classmethod
    def of(cls, doc: DocumentRevision) -> DocumentOut:
        return cls(
            id=doc.id,
            revision=doc.revision,
            sha256=doc.sha256,
            passages=doc.passages,
            occurred_at=iso(doc.occurred_at),
            revision_kind=doc.revision_kind,
            valid_from=iso(doc.valid_from),
        )


VALID_TO = "where a later version ends it in the world; null while none does"
KIND = "a version or a correction of the revision before; null for one registered before versions"


class RevisionOut(BaseModel):
    id: str
    revision: int
    sha256: str
    recorded_at: str
    replaced_at: str | None = Field(description="when a later revision replaced it; null while current")
    passages: int
    revision_kind: Literal["version", "correction"] | None = Field(description=KIND)
    valid_from: str | None
    valid_to: str | None = Field(description=VALID_TO)


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
    replaced_at: str | None = Field(
        description="when a later revision replaced this one, or it was retracted; null while current"
    )
    retracted_at: str | None = Field(default=None, description="when this revision was retracted; null if never")
    metadata: dict[str, Any] | None = Field(default=None, description="the JSON object registered with it, if any")
    passages: int
    revision_kind: Literal["version", "correction"] | None = Field(default=None, description=KIND)
    valid_from: str | None = Field(
        default=None, description="when it holds from in the world; null: no particular time"
    )
    valid_to: str | None = Field(default=None, description=VALID_TO)
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
            retracted_at=iso(doc.retracted_at),
            metadata=doc.metadata,
            passages=doc.passages,
            revision_kind=doc.revision_kind,
            valid_from=iso(doc.valid_from),
            valid_to=iso(doc.valid_to),
            revisions=[
                RevisionOut(
                    id=r.id,
                    revision=r.revision,
                    sha256=r.sha256,
                    recorded_at=iso(r.recorded_at),
                    replaced_at=iso(r.replaced_at),
                    passages=r.passages,
                    revision_kind=r.revision_kind,
                    valid_from=iso(r.valid_from),
                    valid_to=iso(r.valid_to),
                )
                for r in doc.revisions
            ],
        )


class ListedDocumentOut(BaseModel):
    id: str = Field(description="the id of the revision live as known at known_at and valid at valid_at")
    external_id: str
    revision: int
    title: str | None
    source: str | None
    sha256: str
    length: int = Field(description="characters of text")
    metadata: dict[str, Any] | None = Field(description="the JSON object registered with the revision, if any")
    occurred_at: str | None
    recorded_at: str = Field(description="when this revision was registered")
    first_recorded_at: str = Field(
        description="when the document's run of revisions began: its first revision, or the first after a retraction"
    )
    passages: int
    valid_from: str | None = Field(default=None, description="when this revision holds from; null: no particular time")
    valid_to: str | None = Field(default=None, description=VALID_TO + ", as known at known_at")

    @classmethod
    def of(cls, doc: ListedDocument) -> ListedDocumentOut:
        return cls(
            id=doc.id,
            external_id=doc.external_id,
            revision=doc.revision,
            title=doc.title,
            source=doc.source,
            sha256=doc.sha256,
            length=doc.length,
            metadata=doc.metadata,
            occurred_at=iso(doc.occurred_at),
            recorded_at=iso(doc.recorded_at) or "",
            first_recorded_at=iso(doc.first_recorded_at) or "",
            passages=doc.passages,
            valid_from=iso(doc.valid_from),
            valid_to=iso(doc.valid_to),
        )


class DocumentPageOut(BaseModel):
    documents: list[ListedDocumentOut] = Field(description="in external id order")
    next_cursor: str | None = Field(description="pass back as `cursor` for the next page; null on the last")

    @classmethod
    def of(cls, page: DocumentPage) -> DocumentPageOut:
        return cls(documents=[ListedDocumentOut.of(d) for d in page.documents], next_cursor=page.next_cursor)
