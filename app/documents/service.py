"""Registered source documents: each text is a revision; a new text under the same external id
makes the next revision: a new version in the world, valid from its `occurred_at` (the one before
valid until then), or a correction that replaces the one before as of its transaction time
(app/documents/versions.py says which). Evidence spans cite a revision by its id, so offsets never drift.

A revision is cut into sentence passages (long sentences cut again) with character offsets into
its text, dated by the time expressions they hold against the document's `occurred_at` (when it was
written or said; else when it was registered), and embedded by the background embedder: a document
is recallable with no LLM, as a session's turns are.

A document may carry metadata, a caller's bounded JSON object (donto.metadata's bounds, as a
turn's), kept as JSON text and handed back as it came, never searched; its text may then be empty:
a document with no passages, readable and listed but never recalled. Retracting a revision closes
its transaction time and its passages'; the listing pages through documents by external id, each by
its revision live at a given transaction time."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from donto import cursors
from donto import metadata as document_metadata
from donto.documents.versions import Previous, RevisionKind, place
from donto.episodes.passages import capped, dated_passages, line_passages, with_speakers
from donto.errors import InvalidInput, NotFound
from donto.graph.client import GraphClient, next_transaction_time
from donto.graph.retraction import retract
from donto.ids import uuid7
from donto.temporal.instants import to_native, utc_now

# A passage's most characters (about 120-150 tokens of English): under the sequence length of every
# model donto ships (all-MiniLM's 256 tokens), and one or two facts rather than a paragraph's blur.
MAX_PASSAGE_CHARS = 600
BACKFILL_PAGE = 100  # documents given passages per transaction by the schema version 10 migration
MAX_DOCUMENTS_PAGE = 1000  # documents a listing page holds at most
MAX_EXTERNAL_IDS = 1000  # external ids one listing may name


@dataclass(frozen=True)
class DocumentRevision:
    id: str
    revision: int
    sha256: str
    created: bool
    passages: int
    occurred_at: datetime | None
    revision_kind: RevisionKind | None  # None: registered before versions
    valid_from: datetime | None


@dataclass(frozen=True)
class RevisionSummary:
    id: str
    revision: int
    sha256: str
    recorded_at: datetime
    replaced_at: datetime | None
    passages: int
    revision_kind: RevisionKind | None
    valid_from: datetime | None
    valid_to: datetime | None  # where a later version ends it, as known now


@dataclass(frozen=True)
class DocumentView:
    id: str
    external_id: str | None
    revision: int
    title: str | None
    source: str | None
    sha256: str
    length: int
    occurred_at: datetime | None
    recorded_at: datetime
    replaced_at: datetime | None
    passages: int
    revisions: list[RevisionSummary]
    retracted_at: datetime | None = None
    metadata: dict[str, Any] | None = None
    revision_kind: RevisionKind | None = None
    valid_from: datetime | None = None
    valid_to: datetime | None = None


@dataclass(frozen=True)
class ListedDocument:
    """A document as the listing shows it: its revision live at the listing's transaction time."""

    id: str
    external_id: str
    revision: int
    title: str | None
    source: str | None
    sha256: str
    length: int
    metadata: dict[str, Any] | None
    occurred_at: datetime | None
    recorded_at: datetime  # when this revision was registered
    first_recorded_at: datetime  # when its run of revisions began: the first, or the first after a retraction
    passages: int
    valid_from: datetime | None = None
    valid_to: datetime | None = None  # where a later version ends it, as known at the listing's known_at


@dataclass(frozen=True)
class DocumentPage:
    documents: list[ListedDocument]
    next_cursor: str | None


def document_passages(text: str, reference: datetime) -> list[dict[str, Any]]:
    """The passages a revision is stored with, in order (`seq`), dated against `reference`, each with
    its speaker where the text is a transcript (app/episodes/passages.speakers) and where its line starts."""
    spoken = with_speakers(capped(line_passages(text), text, MAX_PASSAGE_CHARS), text)
    rows = dated_passages([span for span, _ in spoken], reference)
    for seq, (row, (span, speaker)) in enumerate(zip(rows, spoken)):
        # blockStart: where the passage's line starts; recall hands back a line's passages as one item.
        row["seq"], row["speaker"], row["blockStart"] = seq, speaker, text.rfind("\n", 0, span.start) + 1
    return rows


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
        occurred_at: datetime | None = None,
        metadata: dict[str, Any] | None = None,
        revision_kind: RevisionKind | None = None,
    ) -> DocumentRevision:
        """A new revision, or the live one when it holds this text and metadata already (created=False).
        A document whose last revision was retracted gets a new one even for the same text. The new one
        is a version or a correction of the one before (`revision_kind`, else by their dates: versions.place);
        InvalidInput, with nothing written, where neither fits."""
        sha = hashlib.sha256(text.encode("utf-8")).hexdigest()
        stored_metadata = document_metadata.serialise(metadata) if metadata is not None else None
        passages = document_passages(text, occurred_at or utc_now()) if text else []  # cut outside the transaction

        def work(tx: ManagedTransaction) -> DocumentRevision:
            recorded_at = next_transaction_time(self.graph, tx, workspace)  # also serialises revision numbering
            latest = self.graph.run(
                tx, "document_latest_revision", workspace=workspace, external_id=external_id, sha256=sha
            )
            if latest and latest[0]["live"] and latest[0]["sha256"] == sha and latest[0]["metadata"] == stored_metadata:
                return _revision(latest[0], created=False)
            previous = latest[0] if latest else None
            placed = place(
                revision_kind,
                occurred_at,
                Previous(to_native(previous["occurredAt"]), to_native(previous["validFrom"])) if previous else None,
                named=external_id is not None,
            )
            row = self.graph.run(
                tx,
                "document_create",
                workspace=workspace,
                id=uuid7(),
                external_id=external_id,
                revision=(previous["revision"] + 1) if previous else 1,
                previous_id=previous["id"] if previous else None,
                revision_kind=placed.kind,
                valid_from=placed.valid_from,
                text=text,
                sha256=sha,
                title=title,
                source=source,
                metadata=stored_metadata,
                occurred_at=occurred_at,
                recorded_at=recorded_at,
                passages=passages,
            )[0]
            return _revision(row, created=True)

        # A long text's passages take their time to write (about 4,000 a second on 2 cores): the
        # transaction gets the query timeout and a second more for every thousand passages.
        return self.graph.write(work, name="document_register", timeout_s=self.graph.timeout + len(passages) / 1000)

    def get(self, workspace: str, document_id: str) -> DocumentView:
        rows = self.graph.read_query("document_get", workspace=workspace, id=document_id)
        if not rows:
            raise NotFound(f"no document {document_id!r} in this workspace", field="id")
        r = rows[0]
        return DocumentView(
            id=r["id"],
            external_id=r["externalId"],
            revision=r["revision"],
            title=r["title"],
            source=r["source"],
            sha256=r["sha256"],
            length=r["length"],
            occurred_at=to_native(r["occurredAt"]),
            recorded_at=to_native(r["recordedAt"]),
            replaced_at=to_native(r["replacedAt"]),
            passages=r["passages"],
            retracted_at=to_native(r["retractedAt"]),
            metadata=document_metadata.read(r["metadata"]),
            revision_kind=r["revisionKind"],
            valid_from=to_native(r["validFrom"]),
            valid_to=to_native(r["validTo"]),
            revisions=[
                RevisionSummary(
                    v["id"],
                    v["revision"],
                    v["sha256"],
                    to_native(v["recordedAt"]),
                    to_native(v["replacedAt"]),
                    v["passages"],
                    v["revisionKind"],
                    to_native(v["validFrom"]),
                    to_native(v["validTo"]),
                )  # fmt: skip
                for v in r["revisions"]
            ],
        )

    def retract(self, workspace: str, document_id: str, reason: str | None) -> datetime:
        """Close the live revision's transaction time and its passages', at this write's transaction
        time: recall and reads as known from then on no longer find it; as known before, they still
        do. NotFound for a revision the workspace does not hold; Conflict for one retracted or replaced
        before."""
        return retract(self.graph, workspace, document_id, reason, query="document_retract", what="document")

    def listing(
        self,
        workspace: str,
        *,
        known_at: datetime,
        valid_at: datetime,
        prefix: str = "",
        external_ids: list[str] | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> DocumentPage:
        """Documents registered under an external id, in external id order, by the revision live as
        known at `known_at` and valid at `valid_at` (of its versions, the one in force then): those
        whose external id starts with `prefix`, or exactly `external_ids`."""
        if not 1 <= limit <= MAX_DOCUMENTS_PAGE:
            raise InvalidInput(f"limit must be between 1 and {MAX_DOCUMENTS_PAGE}", field="limit")
        if external_ids is not None and len(external_ids) > MAX_EXTERNAL_IDS:
            raise InvalidInput(f"at most {MAX_EXTERNAL_IDS} external ids a listing", field="external_id")
        after = cursors.decode_document(cursor) if cursor is not None else ""
        rows = self.graph.read_list(
            "documents_list",
            workspace=workspace,
            prefix=prefix,
            external_ids=external_ids,
            after=after,
            limit=limit,
            known_at=known_at,
            valid_at=valid_at,
        )
        documents = [
            ListedDocument(
                id=r["id"],
                external_id=r["externalId"],
                revision=r["revision"],
                title=r["title"],
                source=r["source"],
                sha256=r["sha256"],
                length=r["length"],
                metadata=document_metadata.read(r["metadata"]),
                occurred_at=to_native(r["occurredAt"]),
                recorded_at=to_native(r["recordedAt"]),
                first_recorded_at=to_native(r["firstRecordedAt"]),
                passages=r["passages"],
                valid_from=to_native(r["validFrom"]),
                valid_to=to_native(r["validTo"]),
            )
            for r in rows
        ]
        more = len(documents) == limit
        return DocumentPage(documents, cursors.encode_document(documents[-1].external_id) if more else None)

    def text(self, workspace: str, document_id: str) -> str:
        """A revision's text, as registered: passages' and evidence spans' offsets index it."""
        rows = self.graph.read_query("document_source", workspace=workspace, id=document_id)
        if not rows:
            raise NotFound(f"no document {document_id!r} in this workspace", field="id")
        return rows[0]["text"]

    def backfill_passages(self, report: Callable[[str], None] | None = None) -> int:
        """Schema version 10's migration: documents registered before it get their passages and
        transaction time, a page per transaction until none is left (a start cut short goes on at
        the next). Returns how many documents it gave passages."""
        done = 0
        while page := self.graph.read_query("documents_unpassaged", limit=BACKFILL_PAGE):
            documents = [
                {
                    "id": d["id"],
                    "replacedAt": d["replacedAt"],
                    "passages": document_passages(d["text"], to_native(d["occurredAt"] or d["recordedAt"])),
                }
                for d in page
            ]
            passages = sum(len(d["passages"]) for d in documents)
            written = self.graph.write(
                lambda tx, page=documents: self.graph.run(tx, "documents_passages_write", documents=page),
                name="documents_passages_write",
                timeout_s=self.graph.timeout + passages / 1000,  # as register's
            )
            done += written[0]["documents"]
            if report:
                report(f"  {done} documents given passages")
        return done


def _revision(row: dict[str, Any], created: bool) -> DocumentRevision:
    return DocumentRevision(
        row["id"],
        row["revision"],
        row["sha256"],
        created,
        row["passages"],
        to_native(row["occurredAt"]),
        row["revisionKind"],
        to_native(row["validFrom"]),
    )
