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


class BackendUnavailable(DontoError):
    code = "backend_unavailable"


class SchemaMismatch(DontoError):
    code = "schema_mismatch"
