"""What every MCP tool module shares: who the caller is, the tools' annotations, and how an answer
or an error is shaped (as the REST API gives it)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import Context
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel

from donto.errors import error_body

# The workspace a tool call acts in, from its transport (a key checked per call or per request).
WorkspaceOf = Callable[[Context], str]

BODY = "body"  # the tool parameter that is its REST request's JSON body (tools.DontoMCP.add_tool)


class Describe:
    """What a body's fields are for, for the model choosing arguments, where the REST request model
    leaves that to the API reference: `body: Annotated[RecallIn, Describe(query="the question")]`."""

    def __init__(self, **descriptions: str):
        self.descriptions = descriptions


READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
DELETES = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)


def as_rest(model: BaseModel) -> tuple[dict[str, Any], str]:
    """A response model as the REST API gives it: fields left unset are left out, JSON without spaces."""
    data = model.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return data, json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def result(model: BaseModel) -> CallToolResult:
    """A tool's answer: the REST body as text and as structured content."""
    data, text = as_rest(model)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def error(code: str, message: str, field: str | None) -> CallToolResult:
    body = error_body(code, message, field)
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=body, is_error=True)
