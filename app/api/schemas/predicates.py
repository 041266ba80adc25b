"""The predicate registry."""

from __future__ import annotations

from typing import Literal as TypingLiteral

from pydantic import BaseModel, Field

from app.api.schemas.common import Key, Strict


class PredicateIn(Strict):
    cardinality: TypingLiteral["one", "many"]
    aliases: list[Key] = Field(default_factory=list, max_length=100)


class PredicateOut(BaseModel):
    name: str
    cardinality: str
    aliases: list[str]
