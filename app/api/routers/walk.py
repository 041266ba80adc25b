"""The premise walk: is an answer still resting on current premises?"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from donto.api.deps import MemoryDep, ScopeDep, WorkspaceDep
from donto.api.schemas.common import KEYED, WITH_BODY, errors
from donto.api.schemas.walk import StatusBatchOut, StatusIn, StatusOut
from donto.errors import InvalidInput, NotFound
from donto.walk.limits import DEFAULT_FAN_OUT, MAX_DEPTH

router = APIRouter(prefix="/v1/claims", tags=["premise walk"], responses=KEYED)


@router.get("/{claim_id}/status", response_model=StatusOut, responses=errors(404))
def claim_status(
    claim_id: str,
    memory: MemoryDep,
    workspace: WorkspaceDep,
    scope: ScopeDep,
    max_depth: Annotated[int, Query(ge=0, le=MAX_DEPTH)] = MAX_DEPTH,
    fan_out: Annotated[int, Query(ge=1, le=10_000)] = DEFAULT_FAN_OUT,
) -> StatusOut:
    """UNVERIFIED, or POTENTIALLY_STALE with the premises that are out of date at `valid_at` as
    known at `known_at` (both default to now)."""
    try:
        [status] = memory.walk.status(workspace, [claim_id], scope, max_depth, fan_out)
    except InvalidInput as exc:
        if exc.field == "ids[0]":  # no such claim here: as GET /v1/claims/{claim_id} answers
            raise NotFound(exc.message, field="id") from None
        raise
    return StatusOut.model_validate(status)


@router.post("/status", response_model=StatusBatchOut, responses=WITH_BODY)
def claims_status(body: StatusIn, memory: MemoryDep, workspace: WorkspaceDep) -> StatusBatchOut:
    """The status of many claims in one round trip, in the order asked."""
    statuses = memory.walk.status(workspace, body.ids, body.scope(), body.max_depth, body.fan_out)
    return StatusBatchOut(statuses=[StatusOut.model_validate(s) for s in statuses])
