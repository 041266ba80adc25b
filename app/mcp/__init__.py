"""The MCP server: one more thin shell over app.memory.Memory, beside the REST API and the CLI,
exposing the same verbs as MCP tools. It builds no service itself.

Empty for now."""
