"""Every HTTP request is marked in flight on the Memory's Foreground while it runs, so that the
background jobs of this process give way to it (app/jobs/foreground.py)."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send


class MarkForeground:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        memory = getattr(scope["app"].state, "memory", None) if scope["type"] == "http" else None
        if memory is None:  # lifespan events, or before the Memory is made
            return await self.app(scope, receive, send)
        with memory.foreground.request():
            await self.app(scope, receive, send)
