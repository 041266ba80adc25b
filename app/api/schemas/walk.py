"""The premise walk's status of claims."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from donto.api.schemas.common import Id, ScopedIn
from donto.walk.limits import DEFAULT_FAN_OUT, MAX_DEPTH, MAX_IDS


class StatusIn(ScopedIn):
    ids: list[Id] = Field(min_length=1, max_length=MAX_IDS)
    max_depth: int = Field(default=MAX_DEPTH, ge=0, le=MAX_DEPTH)
    fan_out: int = Field(default=DEFAULT_FAN_OUT, ge=1, le=10_000)


class Out(BaseModel):
    model_config = ConfigDict(from_attributes=True)


class ReasonOut(Out):
    claim_id: str = Field(description="the premise that is out of date")
    depth: int = Field(description="derivation hops from the asked claim to the premise")
    path: list[str] = Field(description="claim ids from the asked claim down to the premise")
    kind: Literal["superseded", "retracted", "corrected", "expired"]
    by: list[str] = Field(
        description="the claims that superseded it (kind 'superseded'), or its corrected version (kind 'corrected': "
        "a claim written with `corrects`, which closed this one's transaction time)"
    )


class ContestedOut(Out):
    claim_id: str = Field(description="a premise on the walk")
    by: list[str] = Field(description="claims that contradict it")


class StatusOut(Out):
    claim_id: str
    status: Literal["UNVERIFIED", "POTENTIALLY_STALE"]
    reasons: list[ReasonOut]
    contested: list[ContestedOut]
    walked: int = Field(description="premises visited")
    truncated: bool = Field(description="the fan-out cap stopped the walk somewhere")
    skipped: int = Field(description="premises left unvisited by the fan-out cap")


class StatusBatchOut(BaseModel):
    statuses: list[StatusOut]
