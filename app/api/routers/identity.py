"""Entity identity: link two entity keys (SAME_AS), retract a link, read an entity's identity set."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends

from donto.api.deps import MemoryDep, ScopeDep, WorkspaceDep, principal
from donto.api.routers.explore import EntityKey
from donto.api.schemas.claims import RetractIn, RetractOut
from donto.api.schemas.common import KEYED, WITH_BODY, errors
from donto.api.schemas.identity import IdentityOut, SameAsIn, SameAsOut
from donto.auth.keys import Principal
from donto.temporal.instants import iso

router = APIRouter(tags=["identity"], responses=KEYED)


@router.post("/v1/identity/links", status_code=201, response_model=SameAsOut, responses={**WITH_BODY, **errors(404)})
def link_entities(body: SameAsIn, memory: MemoryDep, caller: Annotated[Principal, Depends(principal)]) -> SameAsOut:
    """Link two entity keys that denote the same thing. Both entities stay as they are, with their own
    claims; a pair linked already keeps its link (`created: false`). A key the workspace does not
    hold is a 404 naming it (`a` or `b`), never a new entity."""
    outcome = memory.identity.link(caller.workspace, body.a, body.b, body.reason, body.score, f"key:{caller.key_id}")
    return SameAsOut(id=outcome.id, created=outcome.created, recorded_at=iso(outcome.recorded_at) or "")


@router.post(
    "/v1/identity/links/{link_id}/retract", response_model=RetractOut, responses={**WITH_BODY, **errors(404, 409)}
)
def retract_link(
    link_id: str, memory: MemoryDep, workspace: WorkspaceDep, body: Annotated[RetractIn | None, Body()] = None
) -> RetractOut:
    """Close the link's transaction time: identity reads now leave it out, reads as known before still
    see it. Nothing is deleted; retracting twice is a 409."""
    retracted_at = memory.identity.retract(workspace, link_id, body.reason if body else None)
    return RetractOut(id=link_id, retracted_at=iso(retracted_at) or "")


@router.get("/v1/entities/{key:path}/identity", response_model=IdentityOut, responses=errors(404))
def entity_identity(key: EntityKey, memory: MemoryDep, workspace: WorkspaceDep, scope: ScopeDep) -> IdentityOut:
    """The keys that denote the same thing as this one (SAME_AS links, any number of hops, either
    direction) as known at `known_at`, and the links among them."""
    return IdentityOut.from_domain(memory.identity.identity(workspace, key, scope.known_at))
