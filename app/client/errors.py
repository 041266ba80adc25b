"""What donto.Client raises: one exception per kind of answer, each carrying donto's error body
({"error": {"code", "message", "field"}}) and the HTTP status it came with."""

from __future__ import annotations

from typing import Any

import httpx
from pydantic import ValidationError


class DontoAPIError(Exception):
    """An answer donto refused with (or a request the client refused before sending it). `method` and
    `url` are the request's (None when nothing was sent); the exception's text names them."""

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        code: str = "error",
        field: str | None = None,
        body: Any = None,
        retry_after: float | None = None,
        method: str | None = None,
        url: str | None = None,
    ):
        said = f"{code}: {message}" + (f" (field: {field})" if field else "")
        if url:  # which donto said it: the base URL decides whose memory was reached
            said += f" [{method} {url}" + (f" answered {status}]" if status else "]")
        super().__init__(said)
        self.message = message
        self.method = method
        self.url = url
        self.status = status
        self.code = code
        self.field = field
        self.body = body
        self.retry_after = retry_after


class InvalidRequest(DontoAPIError):
    """400 or 422: a field is missing or wrong (`field` names it). Raised before sending, with
    code `invalid_input`, when the request does not validate against the API's own model."""


class Unauthorized(DontoAPIError):
    """401: no key, or a key donto does not know."""


class Forbidden(DontoAPIError):
    """403: the key may not do this (a workspace key outside its workspace, a read-only key writing)."""


class NotFoundError(DontoAPIError):
    """404: no such claim, document, job, subject…"""


class ConflictError(DontoAPIError):
    """409: the request contradicts what is stored (an id reused for other content, a name taken)."""


class TooManyRequests(DontoAPIError):
    """429, still refused after the client's retries: `retry_after` says when to try again."""


class ServiceUnavailable(DontoAPIError):
    """503, still refused after the client's retries: Neo4j is down, the model is warming up, the
    server is at its connection cap (`code` says which; `retry_after` when to try again)."""


class ServerError(DontoAPIError):
    """Any other 5xx: a defect on the server's side (its log has the traceback)."""


class ConnectionFailed(DontoAPIError):
    """No answer at all: nothing listens at the base URL (after the retries), or the connection broke or
    timed out once the request may have been sent (never sent again)."""


class NoAddress(DontoAPIError):
    """Raised by the constructor, nothing sent: no base_url given, DONTO_URL unset and no home that records
    the API's address. The client never guesses a default port (another donto may listen there)."""


_BY_STATUS: dict[int, type[DontoAPIError]] = {
    400: InvalidRequest,
    422: InvalidRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFoundError,
    409: ConflictError,
    429: TooManyRequests,
    503: ServiceUnavailable,
}


def retry_after_s(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:  # an HTTP date: donto never sends one; treat it as unknown
        return None


def from_response(response: httpx.Response, hint: str | None = None) -> DontoAPIError:
    try:
        body: Any = response.json()
    except ValueError:
        body = response.text
    error = body.get("error") if isinstance(body, dict) else None
    if not isinstance(error, dict):  # not donto's body (a proxy's page): keep what came
        error = {"code": f"http_{response.status_code}", "message": str(body)[:500] or response.reason_phrase}
    kind = _BY_STATUS.get(response.status_code, ServerError if response.status_code >= 500 else DontoAPIError)
    message = str(error.get("message", ""))
    return kind(
        f"{message}; {hint}" if hint else message,
        status=response.status_code,
        code=str(error.get("code", "error")),
        field=error.get("field"),
        body=body,
        retry_after=retry_after_s(response),
        method=response.request.method,
        url=str(response.request.url),
    )


def from_validation(exc: ValidationError) -> InvalidRequest:
    """The first problem pydantic found, named as the server would name it (`claims[0].subject`)."""
    first = exc.errors()[0]
    field = ""
    for part in first.get("loc", ()):
        field += f"[{part}]" if isinstance(part, int) else ("." if field else "") + str(part)
    message = "unknown field" if first.get("type") == "extra_forbidden" else first.get("msg", "invalid input")
    return InvalidRequest(
        message.removeprefix("Value error, "),
        code="invalid_input",
        field=field or None,
        body={"errors": exc.errors(include_url=False)},
    )
