"""Registered source documents: the text evidence spans cite, cut into passages recall searches."""

from __future__ import annotations

from fastapi import APIRouter, Response

from donto.api.deps import MemoryDep, WorkspaceDep
from donto.api.schemas.common import KEYED, WITH_BODY, errors
from donto.api.schemas.documents import DocumentDetailOut, DocumentIn, DocumentOut

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
    external_id with new text makes a new revision, which replaces the earlier one's passages for reads
    as known from then on; the same text again returns the existing revision (200)."""
    doc = memory.documents.register(workspace, body.text, body.title, body.source, body.external_id, body.occurred_at)
    if not doc.created:
        response.status_code = 200
    return DocumentOut.of(doc)


@router.get("/{document_id}", response_model=DocumentDetailOut, responses=errors(404))
def get_document(document_id: str, memory: MemoryDep, workspace: WorkspaceDep) -> DocumentDetailOut:
    """A revision: its title, dates, length and passage count, and every revision of its document."""
    return DocumentDetailOut.of(memory.documents.get(workspace, document_id))


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
