from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Query, Request

from app.api.deps import ServicesDep, WorkspaceDep
from app.api.schemas import ClaimOut, ClaimPage, ClaimsWriteIn, ClaimsWriteOut, RetractIn, RetractOut, WriteOutcomeOut
from app.errors import InvalidInput
from app.timeutil import iso, parse_instant

router = APIRouter(prefix="/v1/claims", tags=["claims"])


def instant_param(value: str | None, name: str):
    if value is None:
        return None
    try:
        return parse_instant(value)
    except ValueError as exc:
        raise InvalidInput(str(exc), field=name) from None


@router.post("", status_code=201, response_model=ClaimsWriteOut)
def write_claims(body: ClaimsWriteIn, svc: ServicesDep, workspace: WorkspaceDep) -> ClaimsWriteOut:
    """Write a batch of claims in one transaction (all or nothing). A claim whose content is already
    known comes back with its existing id and `created: false`."""
    result = svc.claims.write(workspace, [c.to_domain() for c in body.claims])
    return ClaimsWriteOut(
        recorded_at=iso(result.recorded_at),
        claims=[WriteOutcomeOut(id=o.id, created=o.created) for o in result.claims],
    )


@router.get("", response_model=ClaimPage, response_model_exclude_unset=True)
def list_claims(
    request: Request,
    svc: ServicesDep,
    workspace: WorkspaceDep,
    subject: Annotated[str | None, Query(max_length=512)] = None,
    predicate: Annotated[str | None, Query(max_length=512)] = None,
    object: Annotated[str | None, Query(max_length=4096)] = None,
    valid_at: str | None = None,
    known_at: str | None = None,
    include_retracted: bool = False,
    limit: Annotated[int, Query(ge=1)] = 100,
    cursor: Annotated[str | None, Query(max_length=512)] = None,
) -> ClaimPage:
    """Claims valid at `valid_at` as known at `known_at` (both default to now)."""
    max_page = request.app.state.settings.api.max_page
    if limit > max_page:
        raise InvalidInput(f"limit is at most {max_page}", field="limit")
    claims, next_cursor = svc.claims.list_as_of(
        workspace, subject=subject, predicate=predicate, object=object,
        valid_at=instant_param(valid_at, "valid_at"), known_at=instant_param(known_at, "known_at"),
        include_retracted=include_retracted, limit=limit, cursor=cursor,
    )
    return ClaimPage(claims=[ClaimOut.from_domain(c) for c in claims], next_cursor=next_cursor)


@router.get("/{claim_id}", response_model=ClaimOut)
def get_claim(claim_id: str, svc: ServicesDep, workspace: WorkspaceDep) -> ClaimOut:
    """One claim: both time intervals, relationships in both directions, evidence spans with text."""
    return ClaimOut.from_domain(svc.claims.get(workspace, claim_id))


@router.post("/{claim_id}/retract", response_model=RetractOut)
def retract_claim(
    claim_id: str, svc: ServicesDep, workspace: WorkspaceDep, body: Annotated[RetractIn | None, Body()] = None
) -> RetractOut:
    """Close the claim's transaction time. Nothing is deleted; retracting twice is a 409."""
    retracted_at = svc.claims.retract(workspace, claim_id, body.reason if body else None)
    return RetractOut(id=claim_id, retracted_at=iso(retracted_at))
