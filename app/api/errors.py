"""One place that turns errors into HTTP responses: {"error": {"code", "message", "field"?}}."""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from donto import errors

log = logging.getLogger(__name__)

STATUS = {
    errors.InvalidInput: 422,
    errors.NotFound: 404,
    errors.Conflict: 409,
    errors.Unauthorized: 401,
    errors.Forbidden: 403,
    errors.RateLimited: 429,
    errors.BackendUnavailable: 503,
    errors.SchemaMismatch: 503,  # the graph's vectors were built for another model: `donto reembed`
}


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


def domain_response(exc: errors.DontoError) -> JSONResponse:
    status = next((s for cls, s in STATUS.items() if isinstance(exc, cls)), 400)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    if isinstance(exc, (errors.RateLimited, errors.BackendUnavailable)):
        headers = {"Retry-After": str(exc.retry_after)}
    return JSONResponse(error_body(exc.code, exc.message, exc.field), status_code=status, headers=headers)


def invalid_input(error: Any) -> tuple[str, str | None]:
    """A pydantic error (one item of `.errors()`) as the message and the field named in the answer."""
    field = field_path(tuple(error.get("loc", ())))
    message = error.get("msg", "invalid input").removeprefix("Value error, ")
    if error.get("type") == "extra_forbidden":
        message = "unknown field"
    return message, field or None


def install(app: FastAPI) -> None:
    @app.exception_handler(errors.DontoError)
    async def _domain(_: Request, exc: errors.DontoError) -> JSONResponse:
        return domain_response(exc)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0]
        if first.get("type") == "json_invalid":
            return JSONResponse(error_body("malformed_json", "the body is not valid JSON"), status_code=400)
        return JSONResponse(error_body("invalid_input", *invalid_input(first)), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}.get(exc.status_code, "error")
        return JSONResponse(error_body(code, str(exc.detail)), status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error")
        return JSONResponse(error_body("internal", "internal error"), status_code=500)
