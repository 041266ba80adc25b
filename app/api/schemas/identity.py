"""Entity identity: a SAME_AS link between two entity keys, its retraction, an entity's identity set."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import BaseModel, Field, StringConstraints

from donto.api.schemas.common import Key, Strict
from donto.temporal.instants import iso

if TYPE_CHECKING:  # the domain types the converters take; the models alone stay light for donto.Client
    from donto.identity.service import Identity, SameAsLink


class SameAsIn(Strict):
    a: Key = Field(description="an entity key")
    b: Key = Field(description="another entity key that denotes the same thing")
    reason: Annotated[str, StringConstraints(min_length=1, max_length=2000, pattern=r"\S")] = Field(
        description="why they are the same, kept with the link"
    )
    score: float | None = Field(default=None, ge=0.0, le=1.0, description="how sure, 0-1")


class SameAsOut(BaseModel):
    id: str
    created: bool = Field(description="false: the pair was linked already, and this is that link")
    recorded_at: str


class SameAsLinkOut(BaseModel):
    id: str
    from_: str = Field(alias="from")
    to: str
    reason: str | None
    method: str = Field(description="asserted (by a client), extracted (stated in a text), normalised (keys alike)")
    score: float | None
    tx_from: str
    tx_to: str | None
    recorded_by: str | None

    @classmethod
    def from_domain(cls, link: SameAsLink) -> SameAsLinkOut:
        return cls.model_validate(
            {
                "id": link.id,
                "from": link.from_key,
                "to": link.to_key,
                "reason": link.reason,
                "method": link.method,
                "score": link.score,
                "tx_from": iso(link.tx_from),
                "tx_to": iso(link.tx_to),
                "recorded_by": link.recorded_by,
            }
        )


class IdentityOut(BaseModel):
    entity: str
    known_at: str
    keys: list[str] = Field(description="the entity's key first, then every key linked to it, directly or not")
    links: list[SameAsLinkOut] = Field(description="the SAME_AS links among them known at known_at")

    @classmethod
    def from_domain(cls, identity: Identity) -> IdentityOut:
        return cls(
            entity=identity.key,
            known_at=iso(identity.known_at) or "",
            keys=identity.keys,
            links=[SameAsLinkOut.from_domain(link) for link in identity.links],
        )
