"""Premise walk and graph exploration."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import ServicesDep, WorkspaceDep
from app.api.routers.claims import instant_param
from app.api.schemas import StatusBatchOut, StatusIn, StatusOut

router = APIRouter(tags=["premise walk"])


@router.get("/v1/claims/{claim_id}/status", response_model=StatusOut)
def claim_status(
    claim_id: str, svc: ServicesDep, workspace: WorkspaceDep,
    valid_at: str | None = None, known_at: str | None = None,
    max_depth: Annotated[int, Query(ge=0, le=32)] = 32,
    fan_out: Annotated[int, Query(ge=1, le=10_000)] = 64,
) -> StatusOut:
    """UNVERIFIED, or POTENTIALLY_STALE with the premises that are out of date at `valid_at` as
    known at `known_at` (both default to now)."""
    [status] = svc.walk.status(workspace, [claim_id], instant_param(valid_at, "valid_at"),
                               instant_param(known_at, "known_at"), max_depth, fan_out)
    return StatusOut.from_domain(status)


@router.post("/v1/claims/status", response_model=StatusBatchOut)
def claims_status(body: StatusIn, svc: ServicesDep, workspace: WorkspaceDep) -> StatusBatchOut:
    """The status of many claims in one round trip, in the order asked."""
    statuses = svc.walk.status(workspace, body.ids, body.valid_at, body.known_at, body.max_depth, body.fan_out)
    return StatusBatchOut(statuses=[StatusOut.from_domain(s) for s in statuses])


@router.get("/v1/entities/{key}/paths")
def entity_paths(
    key: str, svc: ServicesDep, workspace: WorkspaceDep,
    to: Annotated[str | None, Query(max_length=512)] = None,
    max_hops: Annotated[int, Query(ge=1, le=3)] = 2,
    valid_at: str | None = None, known_at: str | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
) -> dict:
    """Paths from an entity (to another, or to every entity within `max_hops`) through claims."""
    paths = svc.explore.paths(workspace, key, to, max_hops, instant_param(valid_at, "valid_at"),
                              instant_param(known_at, "known_at"), limit)
    return {"from": key, "to": to, "paths": paths}


@router.get("/v1/claims/{claim_id}/neighbourhood")
def claim_neighbourhood(
    claim_id: str, svc: ServicesDep, workspace: WorkspaceDep, depth: Annotated[int, Query(ge=0, le=3)] = 1,
) -> dict:
    """Nodes and relationships around a claim, ready to draw."""
    return svc.explore.neighbourhood(workspace, claim_id, depth)
