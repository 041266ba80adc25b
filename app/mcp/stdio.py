"""MCP over stdin/stdout (`donto mcp`): an MCP client starts this process and talks to it.

The caller is an API key (DONTO_MCP_KEY) checked as an HTTP request's is, once at start, so a
wrong key ends the process at once with the reason on stderr, and again on every tool call, so a
revoked key stops working at its next call and the key's limits and use count as over HTTP."""

from __future__ import annotations

from collections.abc import Callable

from mcp.server.mcpserver import Context, MCPServer

from donto.errors import Unauthorized
from donto.mcp.tools import build_server
from donto.memory import Memory

ADDRESS = "stdio"  # failed authentications are counted per client address; this process has one client


def server(
    memory: Memory, key: str | None, workspace: str | None, ready: Callable[[], object] = lambda: None
) -> MCPServer:
    """The server for this key (DontoError, before anything slow, when the key is refused); its
    run(transport="stdio") answers on stdin/stdout until the client closes stdin. Every tool call
    first waits for `ready()` (the schema being applied), which raises what kept it from being."""
    if not key:
        raise Unauthorized("set DONTO_MCP_KEY to an API key (see `donto keys create`)", field="DONTO_MCP_KEY")
    memory.keys.authenticate(key, workspace, ADDRESS)

    def workspace_of(ctx: Context) -> str:
        ready()
        return memory.keys.authenticate(key, workspace, ADDRESS).workspace

    return build_server(memory, workspace_of)
