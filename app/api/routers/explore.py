"""Exploration: an entity's profile, paths between entities, a claim's neighbourhood."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import MemoryDep, ScopeDep, WorkspaceDep
from app.api.schemas.explore import EntityPathOut, EntityPathsOut, EntityProfileOut, NeighbourhoodOut
from app.explore.service import MAX_HOPS, MAX_NEIGHBOURHOOD_DEPTH

router = APIRouter(tags=["explore"])


@router.get("/v1/entities/{key}/profile", response_model=EntityProfileOut)
def entity_profile(
    key: str,
    memory: MemoryDep,
    workspace: WorkspaceDep,
    scope: ScopeDep,
    limit: Annotated[int, Query(ge=1, le=5000)] = 1000,
) -> EntityProfileOut:
    """Everything donto holds about one entity, grouped by predicate, dated, contradictions shown."""
    return EntityProfileOut.model_validate(memory.explore.profile(workspace, key, scope, limit))


@router.get("/v1/entities/{key}/paths", response_model=EntityPathsOut)
def entity_paths(
    key: str,
    memory: MemoryDep,
    workspace: WorkspaceDep,
    scope: ScopeDep,
    to: Annotated[str | None, Query(max_length=512)] = None,
    max_hops: Annotated[int, Query(ge=1, le=MAX_HOPS)] = 2,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> EntityPathsOut:
    """Paths from an entity (to another, or to every entity within `max_hops`) through claims."""
    paths = memory.explore.paths(workspace, key, to, scope, max_hops, limit)
    return EntityPathsOut.model_validate(
        {"from": key, "to": to, "paths": [EntityPathOut.model_validate(p) for p in paths]}
    )


@router.get("/v1/claims/{claim_id}/neighbourhood", response_model=NeighbourhoodOut)
def claim_neighbourhood(
    claim_id: str,
    memory: MemoryDep,
    workspace: WorkspaceDep,
    depth: Annotated[int, Query(ge=0, le=MAX_NEIGHBOURHOOD_DEPTH)] = 1,
) -> NeighbourhoodOut:
    """Nodes and relationships around a claim, ready to draw."""
    return NeighbourhoodOut.model_validate(memory.explore.neighbourhood(workspace, claim_id, depth))
