"""donto: graph-database-native memory for AI agents, on Neo4j.

`import donto` stays cheap: the client (donto.Client, donto.AsyncClient and their errors) is
imported the first time one of its names is used, so the server's processes never pay for it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"  # the one place the version is written; pyproject.toml reads it from here

if TYPE_CHECKING:
    from donto.client import (
        AsyncClient,
        Client,
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
    "__version__",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        import donto.client

        return getattr(donto.client, name)
    raise AttributeError(f"module 'donto' has no attribute {name!r}")
