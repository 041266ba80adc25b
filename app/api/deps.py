"""FastAPI dependencies: the service container and the caller's workspace."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Header, Request

from app.auth.keys import KeyService, Principal
from app.claims.predicates import PredicateService
from app.claims.service import ClaimService
from app.documents.service import DocumentService
from app.embedding.backlog import EmbeddingBacklog
from app.embedding.encoder import Encoder
from app.episodes.service import EpisodeService
from app.explore.service import ExploreService
from app.graph.client import GraphClient
from app.recall.service import RecallService
from app.walk.service import WalkService


@dataclass
class Services:
    graph: GraphClient
    encoder: Encoder
    backlog: EmbeddingBacklog
    keys: KeyService
    claims: ClaimService
    predicates: PredicateService
    documents: DocumentService
    walk: WalkService
    explore: ExploreService
    episodes: EpisodeService
    recall: RecallService


def services(request: Request) -> Services:
    return request.app.state.services


def principal(
    request: Request,
    authorization: Annotated[str | None, Header()] = None,
    x_donto_workspace: Annotated[str | None, Header()] = None,
) -> Principal:
    key = None
    if authorization and authorization[:7].lower() == "bearer ":
        key = authorization[7:].strip()
    return services(request).keys.authenticate(key, x_donto_workspace)


def workspace(p: Annotated[Principal, Depends(principal)]) -> str:
    return p.workspace


ServicesDep = Annotated[Services, Depends(services)]
WorkspaceDep = Annotated[str, Depends(workspace)]
