"""The donto clients a retriever adapter recalls through, made as donto.Client makes them (base_url,
api_key and workspace, each found from the environment or the donto home when not given), or the
caller's own client.

Made here, a blocking donto.Client is made at once, so a retriever with nowhere to go fails where it is
made (donto.NoAddress), not at its first question; a donto.AsyncClient is made for each event loop that
recalls, because an httpx pool's connections belong to the loop that opened them (one kept across
`asyncio.run` calls would reuse a closed loop's sockets)."""

from __future__ import annotations

import asyncio
import weakref
from datetime import datetime
from typing import Any, TypeVar

from donto.api.schemas.recall import RecallIn, RecallOut
from donto.client import AsyncClient, Client

DEFAULT_K: int = RecallIn.model_fields["k"].default  # a retriever's k unless given: donto's own


class RecallClients:
    """client: a donto.Client (its blocking calls serve the async path too, each in a worker thread) or a
    donto.AsyncClient (async only: a blocking recall through it is refused, saying so); None: made from
    base_url, api_key and workspace."""

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        workspace: str | None = None,
        client: Client | AsyncClient | None = None,
    ):
        if client is not None and (base_url, api_key, workspace) != (None, None, None):
            raise TypeError("pass a donto client, or base_url/api_key/workspace to make one, not both")
        if client is not None and not isinstance(client, Client | AsyncClient):
            raise TypeError(f"client: a donto.Client or a donto.AsyncClient, not a {type(client).__name__}")
        self._api_key, self._workspace = api_key, workspace
        self._own = client is None
        self._sync: Client | None = Client(base_url, api_key=api_key, workspace=workspace) if client is None else None
        self._async: AsyncClient | None = None
        if isinstance(client, Client):
            self._sync = client
        elif isinstance(client, AsyncClient):
            self._async = client
        self._per_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncClient] = weakref.WeakKeyDictionary()

    def recall(self, query: str, **fields: Any) -> RecallOut:
        if self._sync is None:
            raise TypeError(
                "this retriever recalls through a donto.AsyncClient: call it asynchronously, "
                "or pass a donto.Client for blocking calls"
            )
        return self._sync.recall(query, **fields)

    async def arecall(self, query: str, **fields: Any) -> RecallOut:
        if self._async is not None:
            return await self._async.recall(query, **fields)
        assert self._sync is not None
        if not self._own:  # the caller's blocking client: kept off the event loop
            return await asyncio.to_thread(self._sync.recall, query, **fields)
        loop = asyncio.get_running_loop()
        if (client := self._per_loop.get(loop)) is None:
            client = self._per_loop[loop] = AsyncClient(
                self._sync.base_url, api_key=self._api_key, workspace=self._workspace
            )
        return await client.recall(query, **fields)


def recall_fields(
    *,
    k: int,
    valid_at: str | datetime | None,
    known_at: str | datetime | None,
    sessions: list[str] | None,
) -> dict[str, Any]:
    """The body of POST /v1/recall a retriever sends: provenance always (the metadata carries it), the
    time scope and the sessions only when given, so the server's defaults apply otherwise."""
    fields: dict[str, Any] = {"k": k, "include_provenance": True}
    for name, value in (("valid_at", valid_at), ("known_at", known_at), ("sessions", sessions)):
        if value is not None:
            fields[name] = value
    return fields


T = TypeVar("T")


def either(given: T | None, default: T) -> T:
    """A call's own value where it gave one (None: not given), else the retriever's."""
    return default if given is None else given
