"""Registered source documents: the text evidence spans cite, cut into passages recall searches;
listed by external id as known at a time, and retracted."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Query, Response

from donto.api.deps import MemoryDep, ScopeDep, WorkspaceDep
from donto.api.schemas.claims import RetractIn, RetractOut
from donto.api.schemas.common import KEYED, WITH_BODY, errors
from donto.api.schemas.documents import DocumentDetailOut, DocumentIn, DocumentOut, DocumentPageOut
from donto.documents.service import MAX_DOCUMENTS_PAGE, MAX_EXTERNAL_IDS
from donto.errors import InvalidInput
from donto.temporal.instants import iso

router = APIRouter(prefix="/v1/documents", tags=["documents"], responses=KEYED)


@router.post(
    "",
    response_model=DocumentOut,
    status_code=201,
    responses={
        200: {"model": DocumentOut, "description": "the same text again: the existing revision"},
        **WITH_BODY,
    },
)
def register_document(body: DocumentIn, memory: MemoryDep, workspace: WorkspaceDep, response: Response) -> DocumentOut:
    """Register source text, cut into sentence passages that recall searches (no LLM needed). The same
    external_id with new text makes a new revision: a new version valid from its `occurred_at` (the
    one before valid until then), or a correction that replaces the one before for reads as known from
    then on (`revision_kind`; unasked, a later `occurred_at` makes a version, the same or none a
    correction); the same text again returns the existing revision (200)."""
    doc = body.register_in(memory.documents, workspace)
    if not doc.created:
        response.status_code = 200
    return DocumentOut.of(doc)


@router.get("", response_model=DocumentPageOut)
def list_documents(
    memory: MemoryDep,
    workspace: WorkspaceDep,
    scope: ScopeDep,
    prefix: Annotated[
        str | None, Query(max_length=512, description="only documents whose external id starts with this")
    ] = None,
    external_id: Annotated[
        list[str] | None,
        Query(
            max_length=MAX_EXTERNAL_IDS,
            description="only the documents of exactly these external ids (repeat the parameter for several)",
        ),
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_DOCUMENTS_PAGE)] = 100,
    cursor: Annotated[str | None, Query(max_length=1024, description="next_cursor of the page before")] = None,
) -> DocumentPageOut:
    """Documents registered under an external id, in external id order, each by its revision live as
    known at `known_at` (default now: a retracted document is left out; as known before its
    retraction, it is there) and valid at `valid_at` (default now: of its versions, the one in force
    then), with its metadata. `prefix` or `external_id` narrow the listing."""
    if prefix is not None and external_id is not None:
        raise InvalidInput("give prefix or external_id, not both", field="external_id")
    page = memory.documents.listing(
        workspace,
        known_at=scope.known_at,
        valid_at=scope.valid_at,
        prefix=prefix or "",
        external_ids=external_id,
        limit=limit,
        cursor=cursor,
    )
    return DocumentPageOut.of(page)


@router.get("/{document_id}", response_model=DocumentDetailOut, responses=errors(404))
def get_document(document_id: str, memory: MemoryDep, workspace: WorkspaceDep) -> DocumentDetailOut:
    """A revision: its title, dates, valid interval, length and passage count, and every revision of
    its document, each a version or a correction."""
    return DocumentDetailOut.of(memory.documents.get(workspace, document_id))


@router.post("/{document_id}/retract", response_model=RetractOut, responses={**WITH_BODY, **errors(404, 409)})
def retract_document(
    document_id: str, memory: MemoryDep, workspace: WorkspaceDep, body: Annotated[RetractIn | None, Body()] = None
) -> RetractOut:
    """Retract a document's live revision: its transaction time and its passages' close now, so recall
    and reads as known from now on no longer find it; as known before, they still do. Nothing is
    deleted. A revision retracted or replaced before is a 409; registering under its external id again
    makes a new revision."""
    retracted_at = memory.documents.retract(workspace, document_id, body.reason if body else None)
    return RetractOut(id=document_id, retracted_at=iso(retracted_at) or "")


@router.get(
    "/{document_id}/text",
    response_class=Response,  # the 200 is text; the errors stay JSON, as every operation's
    responses={
        200: {"content": {"text/plain": {"schema": {"type": "string"}}}, "description": "the revision's text"},
        **errors(404),
    },
)
def get_document_text(document_id: str, memory: MemoryDep, workspace: WorkspaceDep) -> Response:
    """A revision's text as it was registered (UTF-8): `text[start:end]` of it is what a passage or an
    evidence span with those offsets cites, counted in characters."""
    return Response(memory.documents.text(workspace, document_id), media_type="text/plain; charset=utf-8")
