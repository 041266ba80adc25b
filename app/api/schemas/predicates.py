"""The predicate registry."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal
from typing import Literal as TypingLiteral

from pydantic import BaseModel, Field

from donto.api.schemas.common import Key, Strict
from donto.temporal.instants import iso

if TYPE_CHECKING:  # the domain types the converters take; the models alone stay light for donto.Client
    from donto.predicates.service import Predicate


class PredicateIn(Strict):
    cardinality: TypingLiteral["one", "many"]
    aliases: list[Key] = Field(default_factory=list, max_length=100)


class AliasProposalOut(BaseModel):
    alias: str
    similarity: float = Field(
        description="of the two predicates' phrasings, on donto's scale (0 unrelated, 1 the same)"
    )
    proposed_by: str = Field(description="'job:<id>': the extraction job that met the alias")
    proposed_at: str


class PredicateOut(BaseModel):
    name: str
    cardinality: str
    aliases: list[str]
    declared_by: Literal["user", "model", "default"] = Field(
        default="user",
        description="who set the cardinality: a user (always wins), an extraction model that marked a fact "
        "single-valued, or donto's default single-valued predicates",
    )
    proposed_aliases: list[AliasProposalOut] = Field(
        default_factory=list,
        description="new predicates extraction found phrased nearly alike: declare the predicate with one in "
        "`aliases` to accept it, DELETE /v1/predicates/{name}/proposed-aliases/{alias} to reject it",
    )

    @classmethod
    def of(cls, p: Predicate) -> PredicateOut:
        return cls(
            name=p.name,
            cardinality=p.cardinality,
            aliases=p.aliases,
            declared_by=p.declared_by,  # type: ignore[arg-type]  # one of the three the registry records
            proposed_aliases=[
                AliasProposalOut(
                    alias=a.alias, similarity=a.similarity, proposed_by=a.proposed_by, proposed_at=iso(a.proposed_at)
                )
                for a in p.proposals
            ],
        )
