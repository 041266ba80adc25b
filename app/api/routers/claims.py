"""Claims: write batches, read one, list as of a time scope, retract."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Query

from donto.api.deps import MemoryDep, ScopeDep, WorkspaceDep
from donto.api.schemas.claims import (
    ClaimOut,
    ClaimPage,
    ClaimsWriteIn,
    ClaimsWriteOut,
    RetractIn,
    RetractOut,
    WriteOutcomeOut,
)
from donto.api.schemas.common import KEYED, WITH_BODY, errors
from donto.temporal.instants import iso

router = APIRouter(prefix="/v1/claims", tags=["claims"], responses=KEYED)


@router.post("", status_code=201, response_model=ClaimsWriteOut, responses=WITH_BODY)
def write_claims(body: ClaimsWriteIn, memory: MemoryDep, workspace: WorkspaceDep) -> ClaimsWriteOut:
    """Write a batch of claims in one transaction (all or nothing). A claim whose content is already
    known comes back with its existing id and `created: false`."""
    result = memory.claims.write(workspace, [c.to_domain() for c in body.claims])
    return ClaimsWriteOut(
        recorded_at=iso(result.recorded_at),
        claims=[WriteOutcomeOut(id=o.id, created=o.created) for o in result.claims],
    )


@router.get("", response_model=ClaimPage, response_model_exclude_unset=True)
def list_claims(
    memory: MemoryDep,
    workspace: WorkspaceDep,
    scope: ScopeDep,
    subject: Annotated[str | None, Query(max_length=512)] = None,
    predicate: Annotated[str | None, Query(max_length=512)] = None,
    object: Annotated[str | None, Query(max_length=4096)] = None,
    include_retracted: bool = False,
    limit: Annotated[int, Query(ge=1)] = 100,
    cursor: Annotated[str | None, Query(max_length=512)] = None,
    identity: Annotated[
        bool, Query(description="subject and object match every key linked to them (SAME_AS) as known at known_at")
    ] = False,
) -> ClaimPage:
    """Claims valid at `valid_at` as known at `known_at` (both default to now). With `identity`, the
    claims of the subject's (and object's) whole identity set, each under the key it was recorded with."""
    listing = memory.claims.list_as_of(
        workspace,
        subject=subject,
        predicate=predicate,
        object=object,
        scope=scope,
        include_retracted=include_retracted,
        limit=limit,
        cursor=cursor,
        identity=identity,
    )
    return ClaimPage.from_domain(listing)


@router.get("/{claim_id}", response_model=ClaimOut, responses=errors(404))
def get_claim(claim_id: str, memory: MemoryDep, workspace: WorkspaceDep, scope: ScopeDep) -> ClaimOut:
    """One claim: both time intervals, relationships in both directions, evidence spans with text."""
    return ClaimOut.from_domain(memory.claims.get(workspace, claim_id, scope))


@router.post("/{claim_id}/retract", response_model=RetractOut, responses={**WITH_BODY, **errors(404, 409)})
def retract_claim(
    claim_id: str, memory: MemoryDep, workspace: WorkspaceDep, body: Annotated[RetractIn | None, Body()] = None
) -> RetractOut:
    """Close the claim's transaction time. Nothing is deleted; retracting twice is a 409."""
    retracted_at = memory.claims.retract(workspace, claim_id, body.reason if body else None)
    return RetractOut(id=claim_id, retracted_at=iso(retracted_at) or "")
