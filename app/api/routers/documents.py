"""Registered source documents: the text evidence spans cite."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.api.deps import MemoryDep, WorkspaceDep
from app.api.schemas.common import KEYED, WITH_BODY
from app.api.schemas.documents import DocumentIn, DocumentOut

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
    """Register source text. The same external_id with new text makes a new revision; the same text
    again returns the existing revision (200)."""
    doc = memory.documents.register(workspace, body.text, body.title, body.source, body.external_id)
    if not doc.created:
        response.status_code = 200
    return DocumentOut(id=doc.id, revision=doc.revision, sha256=doc.sha256)
