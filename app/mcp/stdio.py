"""MCP over stdin/stdout (`donto mcp`): an MCP client starts this process and talks to it.

The caller is an API key (DONTO_MCP_KEY) checked as an HTTP request's is, once at start, so a
wrong key ends the process at once with the reason on stderr, and again on every tool call, so a
revoked key stops working at its next call and the key's limits and use count as over HTTP.

Once the tools are listed the embedding model loads on a thread of its own, so that the first tool
call that needs it (a recall) finds it loaded, or waits only for the rest of the load, instead of
starting it. Not before: on a busy machine the load's imports slowed the list by about as much as
they saved (the host waits for the list at every launch; its first tool call comes after a model's
turn)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from mcp.server.mcpserver import Context, MCPServer

from donto.errors import Unauthorized
from donto.mcp.tools import build_server
from donto.memory import Memory

log = logging.getLogger(__name__)

WARM_AFTER_S = 0.1
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

    mcp = build_server(memory, workspace_of)
    # A tenth of a second later, so that writing out the list is not slowed. Not a daemon: a process
    # ending mid-load is aborted by the runtime's own threads ("terminate called"), so exit waits for it.
    mcp.after_first_listing(lambda: threading.Timer(WARM_AFTER_S, warm, args=(memory,)).start())
    return mcp


def warm(memory: Memory) -> None:
    """Load the embedding model, and what a first recall reads of it, before a tool asks. A tool
    call meanwhile waits for this load (the encoder loads once a process); a load that fails here is
    tried again by the tool that needs the model, which answers with the reason."""
    try:
        memory.encoder.load()
        memory.encoder.card, memory.encoder.unrelated_cosine  # noqa: B018 (recall reads both first)
    except Exception as exc:  # the tool that needs the model reports it, as without the warm-up
        log.info("the embedding model did not load ahead of the first tool call: %s", exc)
