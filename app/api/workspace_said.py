"""Every answer to an authenticated request says which workspace it read or wrote: the header
X-Donto-Workspace, on errors too (a 404 of a claim looked for in the wrong workspace says where it
looked). An admin key sent without the header acts in `default` (app/auth/keys.py), and a workspace
key in its own; an empty answer (`{"items": []}`) is then visibly the empty answer of that workspace.

deps.principal, which decides the workspace, leaves it in a holder this middleware put in the scope
(a list: a scope copied on the way in, as /mcp's is, still shares it), and the response's start
carries it. Answers decided before authentication (401, /health, 413) carry none."""

from __future__ import annotations

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

HEADER = "X-Donto-Workspace"
_SAID = "donto.workspace_said"
_NAME = HEADER.lower().encode()


def say_workspace(request: Request, workspace: str) -> None:
    """The workspace this request acts in: its answer will say so."""
    said = request.scope.get(_SAID)
    if said is not None:
        said[:] = [workspace]


class SayWorkspace:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        said: list[str] = []
        scope[_SAID] = said

        async def send_saying(message: Message) -> None:
            if message["type"] == "http.response.start" and said:
                headers = [(k, v) for k, v in message.get("headers", ()) if k.lower() != _NAME]
                message = {**message, "headers": [*headers, (_NAME, said[0].encode("latin-1"))]}
            await send(message)

        await self.app(scope, receive, send_saying)
