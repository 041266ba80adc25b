"""One place that turns errors into HTTP responses: {"error": {"code", "message", "field"?}} (the body is
built in donto/errors.py, which MCP over stdio shares without importing the web stack)."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from donto import errors
from donto.errors import error_body, invalid_input

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


def domain_response(exc: errors.DontoError) -> JSONResponse:
    status = next((s for cls, s in STATUS.items() if isinstance(exc, cls)), 400)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    if isinstance(exc, (errors.RateLimited, errors.BackendUnavailable)):
        headers = {"Retry-After": str(exc.retry_after)}
    return JSONResponse(error_body(exc.code, exc.message, exc.field), status_code=status, headers=headers)


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
