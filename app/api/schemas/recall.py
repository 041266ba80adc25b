"""Recall: a question in, the memory bundle out."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from app.api.schemas.common import ScopedIn


class RecallIn(ScopedIn):
    query: Annotated[str, StringConstraints(min_length=1, max_length=4000, pattern=r"\S")]
    k: int = Field(default=20, ge=1, le=200)
    # None: every arm; an empty list would find nothing, so it is refused rather than answered empty
    arms: list[Annotated[str, StringConstraints(max_length=64)]] | None = Field(
        default=None, min_length=1, max_length=10
    )
    max_tokens: int | None = Field(default=None, ge=1, le=1_000_000)
    include_provenance: bool = False


class ProvenanceOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    turn_ids: list[str] = Field(description="external ids of the turns behind the item")
    session_id: str | None = Field(description="external id of their session")
    claim_ids: list[str] = Field(description="claims whose hits brought the item")
    status: Literal["UNVERIFIED", "POTENTIALLY_STALE"] | None = Field(
        description="the premise walk over claim_ids at the request's scope; null without claims"
    )


class RecallItemOut(BaseModel):
    model_config = ConfigDict(from_attributes=True)

    subject: str = Field(description="the speaker of a turn, the subject of a claim")
    predicate: str = Field(description="'said' for a turn")
    object: str | None = Field(description="null for a turn")
    text: str = Field(description="what the agent reads, with its dates: '[8 May 2023] ...'")
    source: str = Field(description="the arm that contributed most")
    provenance: ProvenanceOut | None = Field(default=None, description="only with include_provenance")


class RecallOut(BaseModel):
    items: list[RecallItemOut]
    took_ms: float
    arms_unavailable: list[str] | None = Field(
        default=None,
        description="arms left out because their index is not online (Neo4j still building it after a schema "
        "upgrade, or `donto reembed` rebuilding it): the bundle is partial until then; absent when every arm ran",
    )
