"""Domain errors. Services raise these; the API maps each to one HTTP status (app/api/errors.py).
The error body both HTTP and MCP answer with is built here, below."""

from __future__ import annotations

import re
from typing import Any


class DontoError(Exception):
    code = "error"

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field


class InvalidInput(DontoError):
    code = "invalid_input"


class NotFound(DontoError):
    code = "not_found"


class Conflict(DontoError):
    code = "conflict"


class Unauthorized(DontoError):
    code = "unauthorized"


class Forbidden(DontoError):
    code = "forbidden"


class RateLimited(DontoError):
    """Too many requests: the caller may retry after `retry_after` seconds (sent as Retry-After).
    `delay_s`: how long the API waits before it answers (failing requests are slowed down)."""

    code = "rate_limited"

    def __init__(self, message: str, retry_after: int, field: str | None = None, delay_s: float = 0.0):
        super().__init__(message, field)
        self.retry_after = max(1, retry_after)
        self.delay_s = delay_s


class WorkspaceBusy(RateLimited):
    """Past its workspace's limit of heavy requests in flight (app/api/fairness.py): retry after one is answered."""

    code = "workspace_busy"


class BackendUnavailable(DontoError):
    """Neo4j does not answer; the caller may retry after `retry_after` seconds (sent as Retry-After)."""

    code = "backend_unavailable"

    def __init__(self, message: str, retry_after: int = 2):
        super().__init__(message)
        self.retry_after = retry_after


class IndexUnavailable(BackendUnavailable):
    """A query needs an index that is not online: Neo4j is still building it (after a schema upgrade or
    a restore), or it is missing (`donto reembed` drops the vector indexes while it re-encodes, and
    makes them again at the end). Retry later; `GET /health` lists such indexes and how far each is."""

    code = "index_unavailable"

    def __init__(self, index: str, missing: bool, retry_after: int = 5):
        why = "is missing (being rebuilt by `donto reembed`?)" if missing else "is still being built"
        super().__init__(f"index {index} {why}; retry shortly (GET /health says how far)", retry_after)
        self.index = index


class ModelWarmingUp(BackendUnavailable):
    """The API answers while the embedding model still loads after a start (seconds): what needs the
    model (recall, episodes) is refused with Retry-After rather than left waiting for it."""

    code = "model_warming_up"

    def __init__(self, model: str, retry_after: int = 2):
        super().__init__(f"the embedding model {model} is still loading after a start; retry shortly", retry_after)


class ModelUnavailable(BackendUnavailable):
    """The embedding model failed to load in the background (the server's log says why): what needs
    it is refused until the configuration is fixed and the API restarted."""

    code = "model_unavailable"

    def __init__(self, model: str, remedy: str | None = None, retry_after: int = 30):
        remedy = remedy or "see the server's log"  # the torch extra missing is said here: nothing to hide in it
        super().__init__(f"the embedding model {model} could not be loaded: {remedy}", retry_after)


class QueryTimedOut(BackendUnavailable):
    """Neo4j stopped a query at DONTO_QUERY_TIMEOUT_S: the server is overloaded, or the request asks
    for more than one query should do. Not an outage, so other requests are not refused meanwhile."""

    code = "query_timeout"

    def __init__(self, timeout_s: float, retry_after: int = 5):
        super().__init__(f"the query took longer than {timeout_s:g} s and was stopped; retry shortly", retry_after)


class BackendBusy(BackendUnavailable):
    """Neo4j answered but could not finish the work after the driver's retries (deadlocks among
    writers that kept coming back, a transaction out of memory): retry shortly. Not an outage, so
    other requests are not refused meanwhile."""

    code = "backend_busy"

    def __init__(self, why: str, retry_after: int = 2):
        super().__init__(f"Neo4j could not finish the request ({why}); retry shortly", retry_after)


class SchemaMismatch(DontoError):
    code = "schema_mismatch"


class Neo4jLoginRefused(SchemaMismatch):
    """Neo4j answers but refuses donto's user or password: configuration to fix, not an outage to wait out."""

    code = "neo4j_login_refused"


class UnsupportedNeo4j(SchemaMismatch):
    """The server is older than the Neo4j line donto supports (found when donto connects)."""

    code = "unsupported_neo4j"


# How an error is told to a caller, over HTTP and MCP alike: {"error": {"code", "message", "field"?}}.


def error_body(code: str, message: str, field: str | None = None) -> dict[str, dict[str, str]]:
    body = {"code": code, "message": message}
    if field:
        body["field"] = field
    return {"error": body}


# What pydantic adds to an error's location for the member of a union it tried ('str', 'int',
# 'function-after[_check(), str]', 'constrained-str'): not a field a client sent.
_UNION_MEMBER = re.compile(r"^(str|int|float|bool|bytes|none|list|dict|decimal|date|datetime|constrained-[a-z]+)$|\[")


def field_path(loc: tuple[str | int, ...]) -> str:
    """('body', 'claims', 3, 'valid_from') -> 'claims[3].valid_from'; a union's member is left out
    (('body', 'object', 'literal', 'value', 'str') -> 'object.literal.value')."""
    parts = list(loc[1:]) if loc and loc[0] in ("body", "query", "path", "header") else list(loc)
    out = ""
    for part in parts:
        if isinstance(part, str) and _UNION_MEMBER.search(part):
            continue
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def invalid_input(error: Any) -> tuple[str, str | None]:
    """A pydantic error (one item of `.errors()`) as the message and the field named in the answer."""
    field = field_path(tuple(error.get("loc", ())))
    message = error.get("msg", "invalid input").removeprefix("Value error, ")
    if error.get("type") == "extra_forbidden":
        message = "unknown field"
    return message, field or None
