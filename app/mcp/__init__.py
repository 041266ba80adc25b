"""The MCP server: one more thin shell over app.memory.Memory, beside the REST API and the CLI,
exposing the same verbs as MCP tools (tools.py) over stdio (stdio.py, `donto mcp`, on the transport in
stdio_transport.py) and streamable HTTP (http.py, /mcp in the API). It builds no service itself."""
