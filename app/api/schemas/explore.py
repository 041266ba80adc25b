"""Exploration: an entity's profile, paths between entities, a claim's neighbourhood."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Out(BaseModel):
    model_config = ConfigDict(from_attributes=True)


class ProfileFactOut(Out):
    id: str
    subject: str
    predicate: str
    object: str
    valid_from: str | None
    valid_to: str | None
    current: bool = Field(
        description="true when its valid time is known and holds in scope and no claim replaced it (a later value "
        "of a single-valued predicate, or a SUPERSEDES link); a claim of unknown valid time is never current"
    )
    confidence: float | None
    superseded_by: list[str] = Field(description="claims that replaced this one in scope")
    contradicted_by: list[str] = Field(description="claims that contradict this one, shown, never resolved")
    quotes: list[str] = Field(description="the words its evidence spans cite")
    statement: str = Field(description="what it says, its modality in the words: 'ann does NOT like fado'")
    context: str | None = Field(default=None, description="its modality (negated, possible, ...) or null: asserted")
    hypothesis: bool = Field(default=False, description="inferred or conceivable, not stated by its source")
    standing: str = Field(default="asserted", description="hypothetical, corroborated (2+ sources) or asserted")
    sources: int = Field(default=0, description="independent sources its evidence cites (documents, sessions)")
    valid_when: str | None = Field(
        default=None, description="the words of a time donto could not resolve ('as a child'): valid time unknown"
    )


class PredicateGroupOut(Out):
    predicate: str
    claims: list[ProfileFactOut]


class EntityProfileOut(Out):
    entity: str
    valid_at: str
    known_at: str
    predicates: list[PredicateGroupOut] = Field(description="claims with the entity as subject, by predicate")
    mentioned_in: list[ProfileFactOut] = Field(description="claims with the entity as object")
    identity: list[str] | None = Field(
        default=None, description="with identity=true: the keys whose claims it shows (SAME_AS links)"
    )


class PathClaimOut(Out):
    id: str
    subject: str
    predicate: str
    object: str


class EntityPathOut(Out):
    entities: list[str] = Field(description="entity keys from the start to the end")
    claims: list[PathClaimOut] = Field(description="one claim per hop, in order")


class EntityPathsOut(BaseModel):
    model_config = ConfigDict(populate_by_name=True)

    from_: str = Field(alias="from")
    to: str | None
    paths: list[EntityPathOut]


class GraphNodeOut(Out):
    id: str = Field(description="'<kind>:<key>', e.g. 'claim:0190...', 'entity:apple'")
    kind: str = Field(description="Claim, Entity, Span, Document or Turn")
    label: str
    properties: dict[str, Any]


class GraphRelationshipOut(Out):
    type: str
    start: str
    end: str


class NeighbourhoodOut(Out):
    nodes: list[GraphNodeOut]
    relationships: list[GraphRelationshipOut]
