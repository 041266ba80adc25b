"""How the API is served: uvicorn with the timeouts a shared service needs.

uvicorn closes a kept-alive connection that goes quiet, but not one that never finishes sending
a request head: a client trickling header bytes (slowloris), or one that connects and sends
nothing, held a connection for as long as it liked. HeadTimeoutH11Protocol closes any connection
whose request head is not complete within `header_timeout_s` of connecting or of its previous
response. Slow bodies are bounded by the body limit middleware (app/api/body_limit.py).

The same protocol keeps the cap on open connections and running requests (DONTO_MAX_CONNECTIONS):
uvicorn's own answer past it is a plain-text 503 without Retry-After; this one is donto's error
body with Retry-After, so a client backs off as from any other 503."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import h11
import uvicorn
from fastapi import FastAPI
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from donto.errors import error_body
from donto.settings import ApiSettings

BUSY_RETRY_AFTER_S = 1  # a connection or a request ends every few milliseconds under such load
BUSY_BODY = json.dumps(
    error_body("server_busy", "too many open connections and requests at once; retry shortly")
).encode()


class HeadTimeoutH11Protocol(H11Protocol):
    header_timeout_s = 10.0  # set from the settings by uvicorn_config
    max_connections: int | None = None  # likewise; uvicorn's own limit_concurrency stays unset

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.max_connections is not None:
            self.app = Capped(self.app, self, self.max_connections)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = None
        self._await_head()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE and self._head_timer is not None:
            self._head_timer.cancel()  # the head is in: the request runs under its own limits
            self._head_timer = None

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._await_head()  # the next request on this connection gets the same deadline

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        super().connection_lost(exc)

    def _await_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(self.header_timeout_s, self._head_too_slow)

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


class Capped:
    """uvicorn's test for limit_concurrency (the connections open, the requests running), answered
    with donto's 503. It runs as the request's task starts, when uvicorn has counted that task."""

    def __init__(self, app: ASGIApp, protocol: H11Protocol, limit: int):
        self.app = app
        self.protocol = protocol
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        protocol = self.protocol
        if scope["type"] == "http" and (
            len(protocol.connections) >= self.limit or len(protocol.tasks) - 1 >= self.limit
        ):
            protocol.logger.warning("Exceeded concurrency limit.")
            await send(
                {
                    "type": "http.response.start",
                    "status": 503,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(BUSY_BODY)).encode()),
                        (b"retry-after", str(BUSY_RETRY_AFTER_S).encode()),
                        (b"connection", b"close"),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": BUSY_BODY})
            return
        await self.app(scope, receive, send)


def uvicorn_config(app: FastAPI, api: ApiSettings, host: str, port: int, log_level: str = "info") -> uvicorn.Config:
    protocol = type(
        "HeadTimeoutH11",
        (HeadTimeoutH11Protocol,),
        {"header_timeout_s": api.header_timeout_s, "max_connections": api.max_connections},
    )
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=protocol,
        timeout_keep_alive=api.keep_alive_s,
        limit_concurrency=None,  # the protocol keeps DONTO_MAX_CONNECTIONS, answering as donto does
        server_header=False,  # no version banner for scanners
    )
