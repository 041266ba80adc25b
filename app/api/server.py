"""How the API is served: uvicorn with the timeouts a shared service needs.

uvicorn closes a kept-alive connection that goes quiet, but not one that never finishes sending
a request head: a client trickling header bytes (slowloris), or one that connects and sends
nothing, held a connection for as long as it liked. HeadTimeoutH11Protocol closes any connection
whose request head is not complete within `header_timeout_s` of connecting or of its previous
response. Slow bodies are bounded by the body limit middleware (app/api/body_limit.py)."""

from __future__ import annotations

import asyncio

import h11
import uvicorn
from fastapi import FastAPI
from uvicorn.protocols.http.h11_impl import H11Protocol

from app.settings import ApiSettings


class HeadTimeoutH11Protocol(H11Protocol):
    header_timeout_s = 10.0  # set from the settings by uvicorn_config

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


def uvicorn_config(app: FastAPI, api: ApiSettings, host: str, port: int, log_level: str = "info") -> uvicorn.Config:
    protocol = type("HeadTimeoutH11", (HeadTimeoutH11Protocol,), {"header_timeout_s": api.header_timeout_s})
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        http=protocol,
        timeout_keep_alive=api.keep_alive_s,
        limit_concurrency=api.max_connections,  # beyond it uvicorn answers 503 at once
        server_header=False,  # no version banner for scanners
    )
