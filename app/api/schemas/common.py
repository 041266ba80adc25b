"""Field types and bases shared by the request models."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, StringConstraints, WithJsonSchema

from app.temporal.instants import parse_instant
from app.temporal.scope import TimeScope


def _instant(value: Any) -> datetime:
    if isinstance(value, datetime):
        return value
    return parse_instant(value)


Instant = Annotated[
    datetime,
    BeforeValidator(_instant),
    WithJsonSchema(
        {
            "type": "string",
            "format": "date-time",
            "description": "ISO-8601; a date means midnight UTC, no offset means UTC",
        }
    ),
]
Key = Annotated[str, StringConstraints(min_length=1, max_length=512, pattern=r"\S")]
Id = Annotated[str, StringConstraints(min_length=1, max_length=128)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ScopedIn(Strict):
    """A request body that reads as of a time scope; both instants default to now."""

    valid_at: Instant | None = None
    known_at: Instant | None = None

    def scope(self) -> TimeScope:
        return TimeScope.resolve(self.valid_at, self.known_at)
