"""Every HTTP request is marked in flight on the Memory's Foreground while it runs, light or heavy
(a batch: app/api/fairness.py), so that the background jobs of this process give way to it
(app/jobs/foreground.py)."""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from donto.api.fairness import is_heavy


class MarkForeground:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        memory = getattr(scope["app"].state, "memory", None) if scope["type"] == "http" else None
        if memory is None:  # lifespan events, or before the Memory is made
            return await self.app(scope, receive, send)
        heavy = is_heavy(Headers(scope=scope), memory.settings.api.heavy_request_bytes)
        with memory.foreground.request(heavy):
            await self.app(scope, receive, send)
