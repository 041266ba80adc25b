"""Claims: the write batch, one claim, the as-of listing, retraction."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any
from typing import Literal as TypingLiteral

from pydantic import BaseModel, Field, StringConstraints, ValidationInfo, field_validator, model_validator

from donto.api.schemas.common import Id, Instant, Key, Strict
from donto.claims.models import DATATYPES, Claim, Evidence, Literal, NewClaim
from donto.temporal.instants import iso

if TYPE_CHECKING:  # the domain types the converters take; the models alone stay light for donto.Client
    from donto.claims.service import ClaimListing

MAX_LINKS = 1000
MAX_LITERAL_BYTES = 4096  # literals are indexed; Neo4j's range index keys stop near 8 kB
MAX_BATCH = 5000


class LiteralIn(Strict):
    datatype: TypingLiteral[DATATYPES]  # type: ignore[valid-type]
    value: str | int | float | bool

    @field_validator("value")
    @classmethod
    def _matches_datatype(cls, value: Any, info: ValidationInfo) -> Any:
        datatype = info.data.get("datatype")
        if datatype is None:
            return value
        lexical = Literal.parse(value, datatype).lexical
        if len(lexical.encode("utf-8")) > MAX_LITERAL_BYTES:
            raise ValueError(f"literal longer than {MAX_LITERAL_BYTES} bytes")
        return value


class ObjectIn(Strict):
    entity: Key | None = None
    literal: LiteralIn | None = None

    @model_validator(mode="after")
    def _exactly_one(self) -> ObjectIn:
        if (self.entity is None) == (self.literal is None):
            raise ValueError("give exactly one of 'entity' or 'literal'")
        return self


class EvidenceIn(Strict):
    document_id: Id
    start: int = Field(ge=0)
    end: int = Field(ge=1)

    @model_validator(mode="after")
    def _ordered(self) -> EvidenceIn:
        if self.end <= self.start:
            raise ValueError("end must be greater than start")
        return self


class ClaimIn(Strict):
    subject: Key
    predicate: Key
    object: ObjectIn
    context: Key | None = None
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    valid_from: Instant | None = None
    valid_to: Instant | None = None
    derived_from: list[Id] = Field(default_factory=list, max_length=MAX_LINKS)
    supports: list[Id] = Field(default_factory=list, max_length=MAX_LINKS)
    contradicts: list[Id] = Field(default_factory=list, max_length=MAX_LINKS)
    supersedes: list[Id] = Field(default_factory=list, max_length=MAX_LINKS)
    corrects: Id | None = Field(
        default=None,
        description="a claim this one corrects: it becomes that claim's new version (its valid time or object as "
        "now stated); the old one's transaction time closes as this is written, so reads as known before still see "
        "it, and a CORRECTS relation links the two. 409 if that claim was retracted or corrected already",
    )
    evidence: list[EvidenceIn] = Field(default_factory=list, max_length=MAX_LINKS)
    hypothesis: bool = Field(default=False, description="inferred or conceivable, not stated: read as 'possibly: ...'")

    @model_validator(mode="after")
    def _valid_interval(self) -> ClaimIn:
        if self.valid_from and self.valid_to and self.valid_to <= self.valid_from:
            raise ValueError("valid_to must be after valid_from")
        return self

    def to_domain(self) -> NewClaim:
        lit = self.object.literal
        return NewClaim(
            subject=self.subject,
            predicate=self.predicate,
            object_entity=self.object.entity,
            object_literal=Literal.parse(lit.value, lit.datatype) if lit else None,
            context=self.context,
            confidence=float(self.confidence),
            valid_from=self.valid_from,
            valid_to=self.valid_to,
            derived_from=tuple(self.derived_from),
            supports=tuple(self.supports),
            contradicts=tuple(self.contradicts),
            supersedes=tuple(self.supersedes),
            corrects=(self.corrects,) if self.corrects else (),
            evidence=tuple(Evidence(e.document_id, e.start, e.end) for e in self.evidence),
            hypothesis=self.hypothesis,
        )


class ClaimsWriteIn(Strict):
    claims: list[ClaimIn] = Field(min_length=1, max_length=MAX_BATCH)


class WriteOutcomeOut(BaseModel):
    id: str
    created: bool


class ClaimsWriteOut(BaseModel):
    recorded_at: str
    claims: list[WriteOutcomeOut]


class RetractIn(Strict):
    reason: Annotated[str, StringConstraints(max_length=2000)] | None = None


class RetractOut(BaseModel):
    id: str
    retracted_at: str


class EvidenceOut(BaseModel):
    span_id: str
    document_id: str
    start: int
    end: int
    text: str


class ClaimOut(BaseModel):
    id: str
    statement: str = Field(
        description="what the claim says, its modality in the words: 'ann does NOT like fado', "
        "'possibly: ann takes_up jazz-piano'"
    )
    subject: str
    predicate: str
    object: dict[str, Any]
    context: str | None = Field(
        description="its modality (negated, possible, planned, ...) or a context; null: asserted"
    )
    hypothesis: bool = Field(default=False, description="inferred or conceivable, not stated by its source")
    standing: str = Field(
        default="asserted",
        description="how established it is: hypothetical (a hypothesis), corroborated (two or more independent "
        "sources), asserted",
    )
    sources: int = Field(default=0, description="independent sources its evidence cites: documents, or sessions")
    confidence: float | None
    valid_from: str | None
    valid_to: str | None
    valid_when: str | None = Field(
        default=None,
        description="the words of a time donto could not resolve ('as a child'): its valid time is unknown, so it "
        "neither replaces another value nor is replaced by one",
    )
    tx_from: str
    tx_to: str | None
    retraction_reason: str | None = None
    derived_from: list[str] | None = None
    supports: list[str] | None = None
    contradicts: list[str] | None = None
    supersedes: list[str] | None = None
    derived_by: list[str] | None = None
    supported_by: list[str] | None = None
    contradicted_by: list[str] | None = None
    superseded_by: list[str] | None = None
    corrects: list[str] | None = Field(default=None, description="the claim this one is a corrected version of")
    corrected_by: list[str] | None = Field(
        default=None, description="the claim that corrected this one (its transaction time closed then)"
    )
    evidence: list[EvidenceOut] | None = None
    corroboration: dict[str, int] | None = None

    @classmethod
    def from_domain(cls, claim: Claim) -> ClaimOut:
        if claim.object_literal is not None:
            lit = claim.object_literal
            value = lit.lexical if lit.datatype in ("xsd:decimal", "xsd:date", "xsd:dateTime") else lit.value
            obj: dict[str, Any] = {"literal": {"value": value, "datatype": lit.datatype}}
        else:
            obj = {"entity": claim.object_entity}
        links = {
            "derived_from": "derivedFrom",
            "supports": "supports",
            "contradicts": "contradicts",
            "supersedes": "supersedes",
            "derived_by": "derivedBy",
            "supported_by": "supportedBy",
            "contradicted_by": "contradictedBy",
            "superseded_by": "supersededBy",
            "corrects": "corrects",
            "corrected_by": "correctedBy",
        }
        detail: dict[str, Any] = {}
        if claim.superseded_by is not None:
            detail["superseded_by"] = claim.superseded_by
        if claim.valid_when is not None:
            detail["valid_when"] = claim.valid_when
        if claim.links:
            detail = {field: claim.links[key] for field, key in links.items()}
            detail["evidence"] = [EvidenceOut(**vars(e)) for e in claim.evidence]
            detail["corroboration"] = {
                "supported_by": len(claim.links["supportedBy"]),
                "contradictions": len(set(claim.links["contradictedBy"]) | set(claim.links["contradicts"])),
            }
        return cls(
            id=claim.id,
            statement=claim.statement,
            subject=claim.subject,
            predicate=claim.predicate,
            object=obj,
            context=claim.context,
            hypothesis=claim.hypothesis,
            standing=claim.standing,
            sources=claim.sources,
            confidence=claim.confidence,
            valid_from=iso(claim.valid_from),
            valid_to=iso(claim.valid_to),
            tx_from=iso(claim.tx_from),
            tx_to=iso(claim.tx_to),
            retraction_reason=claim.retraction_reason,
            **detail,
        )


class ClaimPage(BaseModel):
    claims: list[ClaimOut]
    next_cursor: str | None
    identity: dict[str, list[str]] | None = Field(
        default=None, description="with identity=true: the keys read for the subject and the object"
    )

    @classmethod
    def from_domain(cls, listing: ClaimListing) -> ClaimPage:
        page = cls(claims=[ClaimOut.from_domain(c) for c in listing.claims], next_cursor=listing.next_cursor)
        # identity stays unset (left out of the response) unless asked for
        return page if listing.identity is None else page.model_copy(update={"identity": listing.identity})
