"""Exploration: an entity's profile, paths between entities, a claim's neighbourhood."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from donto.api.deps import MemoryDep, ScopeDep, WorkspaceDep
from donto.api.schemas.common import KEYED, errors
from donto.api.schemas.explore import EntityPathOut, EntityPathsOut, EntityProfileOut, NeighbourhoodOut
from donto.explore.service import MAX_HOPS, MAX_NEIGHBOURHOOD_DEPTH

router = APIRouter(tags=["explore"], responses=KEYED)

# `:path` so a key may hold '/' ("https://schema.org/Person", "a/b"), sent as is or as %2F; the
# fixed suffix (/profile, /paths) keeps the routes apart.
EntityKey = Annotated[str, Path(min_length=1, max_length=512, pattern=r"\S", description="the entity's key")]


@router.get("/v1/entities/{key:path}/profile", response_model=EntityProfileOut, responses=errors(404))
def entity_profile(
    key: EntityKey,
    memory: MemoryDep,
    workspace: WorkspaceDep,
    scope: ScopeDep,
    limit: Annotated[int, Query(ge=1, le=5000)] = 1000,
    identity: Annotated[
        bool, Query(description="also the claims of every key linked to this one (SAME_AS) as known at known_at")
    ] = False,
) -> EntityProfileOut:
    """Everything donto holds about one entity, grouped by predicate, dated, contradictions shown;
    with `identity`, about every key of its identity set, each claim under the key it was recorded with."""
    keys = memory.identity.keys(workspace, key, scope.known_at) if identity else None
    return EntityProfileOut.model_validate(memory.explore.profile(workspace, key, scope, limit, keys))


@router.get("/v1/entities/{key:path}/paths", response_model=EntityPathsOut, responses=errors(404))
def entity_paths(
    key: EntityKey,
    memory: MemoryDep,
    workspace: WorkspaceDep,
    scope: ScopeDep,
    to: Annotated[str | None, Query(max_length=512)] = None,
    max_hops: Annotated[int, Query(ge=1, le=MAX_HOPS)] = 2,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    identity: Annotated[
        bool, Query(description="from (and to) every key linked to the entity (SAME_AS) as known at known_at")
    ] = False,
) -> EntityPathsOut:
    """Paths from an entity (to another, or to every entity within `max_hops`) through claims; 404
    naming `key` or `to` when the workspace holds no such entity. With `identity`, paths from any key
    of its identity set (to any of `to`'s)."""
    identities = None
    if identity:
        known_at = scope.known_at
        identities = (
            memory.identity.keys(workspace, key, known_at),
            None if to is None else memory.identity.keys(workspace, to, known_at),
        )
    paths = memory.explore.paths(workspace, key, to, scope, max_hops, limit, identities)
    return EntityPathsOut.model_validate(
        {"from": key, "to": to, "paths": [EntityPathOut.model_validate(p) for p in paths]}
    )


@router.get("/v1/claims/{claim_id}/neighbourhood", response_model=NeighbourhoodOut, responses=errors(404))
def claim_neighbourhood(
    claim_id: str,
    memory: MemoryDep,
    workspace: WorkspaceDep,
    depth: Annotated[int, Query(ge=0, le=MAX_NEIGHBOURHOOD_DEPTH)] = 1,
) -> NeighbourhoodOut:
    """Nodes and relationships around a claim, ready to draw."""
    return NeighbourhoodOut.model_validate(memory.explore.neighbourhood(workspace, claim_id, depth))
