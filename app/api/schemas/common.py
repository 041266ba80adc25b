"""Field types and bases shared by the request models, and the error body every operation documents."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StringConstraints, WithJsonSchema

from donto.temporal.instants import parse_instant
from donto.temporal.scope import TimeScope


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
    # allow_inf_nan: a NaN confidence was refused as "less than or equal to 1"; now "a finite number"
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)


class ScopedIn(Strict):
    """A request body that reads as of a time scope; both instants default to now."""

    valid_at: Instant | None = None
    known_at: Instant | None = None

    def scope(self) -> TimeScope:
        return TimeScope.resolve(self.valid_at, self.known_at)


class ErrorDetail(BaseModel):
    code: str = Field(description="invalid_input, malformed_json, not_found, conflict, unauthorized, forbidden, ...")
    message: str
    field: str | None = Field(default=None, description="the input at fault, e.g. 'claims[3].valid_from'")


class ErrorOut(BaseModel):
    """The body of every error answer (app/api/errors.py)."""

    error: ErrorDetail


_RETRY_AFTER = {"Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}}
ERROR_STATUSES: dict[int, dict[str, Any]] = {
    400: {"description": "the body is not valid JSON"},
    401: {"description": "no API key, or one donto does not accept (WWW-Authenticate: Bearer)"},
    403: {"description": "the key is bound to another workspace than X-Donto-Workspace names"},
    404: {"description": "nothing by that id or key in this workspace"},
    408: {"description": "the request body did not arrive in time"},
    409: {"description": "conflicts with what is stored"},
    413: {"description": "the request body is over the configured size"},
    422: {"description": "invalid input; `field` names it"},
    429: {"description": "too many requests", "headers": _RETRY_AFTER},
    503: {
        "description": "Neo4j is unreachable (with Retry-After), or its vectors were built for another embedding model",
        "headers": _RETRY_AFTER,
    },
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """FastAPI `responses=` documenting these error statuses, each with the one error body."""
    return {status: {"model": ErrorOut, **ERROR_STATUSES[status]} for status in statuses}


# What any operation behind a key can answer: a missing, unknown or foreign key, a malformed
# X-Donto-Workspace or other input, the rate limit, Neo4j down. Every keyed router declares these;
# an operation adds its own (WITH_BODY where it reads one, 404, 409).
KEYED = errors(401, 403, 422, 429, 503)
# What an operation reading a JSON body can answer besides: not JSON, too slow to arrive, too large.
WITH_BODY = errors(400, 408, 413)
