"""Domain errors. Services raise these; the API maps each to one HTTP status (app/api/errors.py)."""

from __future__ import annotations


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
    """Too many requests: the caller may retry after `retry_after` seconds (sent as Retry-After)."""

    code = "rate_limited"

    def __init__(self, message: str, retry_after: int, field: str | None = None):
        super().__init__(message, field)
        self.retry_after = max(1, retry_after)


class BackendUnavailable(DontoError):
    """Neo4j does not answer; the caller may retry after `retry_after` seconds (sent as Retry-After)."""

    code = "backend_unavailable"

    def __init__(self, message: str, retry_after: int = 2):
        super().__init__(message)
        self.retry_after = retry_after


class SchemaMismatch(DontoError):
    code = "schema_mismatch"


class UnsupportedNeo4j(SchemaMismatch):
    """The server is older than the Neo4j line donto supports (found when donto connects)."""

    code = "unsupported_neo4j"
