"""The predicate registry and source documents."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response

from app.api.deps import ServicesDep, WorkspaceDep
from app.api.schemas import DocumentIn, DocumentOut, PredicateIn, PredicateOut

router = APIRouter(tags=["registry"])


@router.put("/v1/predicates/{name}", response_model=PredicateOut)
def declare_predicate(
    name: Annotated[str, Path(min_length=1, max_length=512)], body: PredicateIn, svc: ServicesDep,
    workspace: WorkspaceDep,
) -> PredicateOut:
    """Declare a predicate's cardinality ('one': a new value supersedes the old) and aliases."""
    p = svc.predicates.declare(workspace, name, body.cardinality, list(body.aliases))
    return PredicateOut(name=p.name, cardinality=p.cardinality, aliases=p.aliases)


@router.get("/v1/predicates", response_model=list[PredicateOut])
def list_predicates(svc: ServicesDep, workspace: WorkspaceDep) -> list[PredicateOut]:
    return [PredicateOut(name=p.name, cardinality=p.cardinality, aliases=p.aliases)
            for p in svc.predicates.list(workspace)]


@router.post("/v1/documents", response_model=DocumentOut, status_code=201)
def register_document(body: DocumentIn, svc: ServicesDep, workspace: WorkspaceDep, response: Response) -> DocumentOut:
    """Register source text. The same external_id with new text makes a new revision; the same text
    again returns the existing revision (200)."""
    doc = svc.documents.register(workspace, body.text, body.title, body.source, body.external_id)
    if not doc.created:
        response.status_code = 200
    return DocumentOut(id=doc.id, revision=doc.revision, sha256=doc.sha256)
