"""MCP over streamable HTTP, mounted in the REST API at /mcp, behind the same keys and workspaces.

Every HTTP request to /mcp is authenticated as a REST request is (Authorization: Bearer, and
X-Donto-Workspace for the admin key; app/api/deps.py): a missing or refused key gets the REST
error answer and never reaches MCP. The server is stateless (each POST stands alone, answered
with JSON), so any API process behind a balancer can take any request and a key's revocation
holds from its next request. The SDK's Host/Origin checks against DNS rebinding stay off: they
guard servers that trust whoever reaches them, and a browser never adds a bearer key by itself."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from mcp.server.mcpserver import Context
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.datastructures import State
from starlette.requests import Request
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from donto.api import deps
from donto.api.errors import domain_response
from donto.auth.keys import Principal
from donto.errors import DontoError
from donto.mcp.tools import build_server
from donto.memory import Memory

PATH = "/mcp"
PRINCIPAL = "donto.principal"  # the ASGI scope key the endpoint leaves the caller under


def route() -> Route:
    return Route(PATH, Endpoint(), include_in_schema=False)


def _workspace(ctx: Context) -> str:
    request = ctx.request_context.request
    assert request is not None, "the HTTP transport attaches its request to every message"
    principal: Principal = request.scope[PRINCIPAL]
    return principal.workspace


@asynccontextmanager
async def serving(state: State, memory: Memory) -> AsyncIterator[None]:
    """Run MCP beside the API for as long as its lifespan lasts. A session manager runs once, so
    each lifespan makes its own and leaves it on `state.mcp` for the endpoint."""
    server = build_server(memory, _workspace)
    server.streamable_http_app(  # makes server.session_manager; its own Starlette app is not used
        json_response=True,
        stateless_http=True,
        max_request_body_size=memory.settings.api.max_body_bytes,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
    )
    async with server.session_manager.run():
        state.mcp = server.session_manager
        yield


class Endpoint:
    """The ASGI app at /mcp (an object, not a function: Starlette hands it the raw request)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        try:
            principal = await deps.principal(
                request, request.headers.get("authorization"), request.headers.get("x-donto-workspace")
            )
        except DontoError as exc:
            return await domain_response(exc)(scope, receive, send)
        manager: StreamableHTTPSessionManager = request.app.state.mcp
        # One of the workspace's turns, as a REST request takes (app/api/fairness.py): the tools run
        # on the same worker threads.
        turns = request.app.state.workspace_turns
        async with turns.turn(principal.workspace, turns.heavy(request.headers)):
            await manager.handle_request({**scope, PRINCIPAL: principal}, receive, send)
