"""donto's Python client: donto.Client (blocking) and donto.AsyncClient (asyncio), on httpx.

Needs only httpx and pydantic: `pip install ./donto` (a checkout) or the wheel `make wheel` builds
installs the client; the server's dependencies come with its `[server]` extra."""

from donto.client._async import AsyncClient
from donto.client._sync import Client
from donto.client.errors import (
    ConflictError,
    ConnectionFailed,
    DontoAPIError,
    Forbidden,
    InvalidRequest,
    NoAddress,
    NotFoundError,
    ServerError,
    ServiceUnavailable,
    TooManyRequests,
    Unauthorized,
)

__all__ = [
    "AsyncClient",
    "Client",
    "ConflictError",
    "ConnectionFailed",
    "DontoAPIError",
    "Forbidden",
    "InvalidRequest",
    "NoAddress",
    "NotFoundError",
    "ServerError",
    "ServiceUnavailable",
    "TooManyRequests",
    "Unauthorized",
]
