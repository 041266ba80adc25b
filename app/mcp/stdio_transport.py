"""donto's stdio transport: newline-delimited JSON-RPC on stdin/stdout, as the SDK's own
(mcp.server.stdio), except that a line which is not a JSON-RPC message is answered.

The SDK's transport hands such a line to the server as an exception, which the server logs at
debug level and drops, so the client waits on that request until its own timeout. Here it is
answered with a JSON-RPC error: -32700 (Parse error) for text the SDK's strict parser refuses,
-32600 (Invalid Request) for JSON that is not a JSON-RPC message. The error carries the request's
id wherever Python's lenient parser can read one, so that the client's call fails at once: a lone
surrogate escape such as "\\ud800" is refused by the SDK's parser (and over HTTP, with -32700) but
read by Python's. Otherwise the id is null, as JSON-RPC asks. Blank lines and malformed responses
get no answer: nobody waits on them."""

from __future__ import annotations

import fcntl
import json
import os
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from io import TextIOWrapper
from typing import Any

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.shared.message import SessionMessage
from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError, jsonrpc_message_adapter
from pydantic import ValidationError

from donto.errors import field_path


@asynccontextmanager
async def stdio_streams() -> AsyncIterator[
    tuple[MemoryObjectReceiveStream[SessionMessage], MemoryObjectSendStream[SessionMessage]]
]:
    """The server's read and write streams over this process's stdin and stdout, until the server
    closes its write stream and stdin ends."""
    sys.stdout.flush()  # anything printed before serving leaves now, not into the diversion
    with (
        _claimed(0, os.open(os.devnull, os.O_RDONLY)) as wire_in,
        _claimed(1, os.dup(2)) as wire_out,
    ):
        stdin = anyio.wrap_file(
            TextIOWrapper(os.fdopen(wire_in, "rb", closefd=False), encoding="utf-8", errors="replace")
        )
        stdout = anyio.wrap_file(TextIOWrapper(os.fdopen(wire_out, "wb", closefd=False), encoding="utf-8"))
        to_server, read_stream = anyio.create_memory_object_stream[SessionMessage](0)
        write_stream, from_server = anyio.create_memory_object_stream[SessionMessage](0)
        refusals = write_stream.clone()  # so the writer runs until the server and the reader are both done

        async def read_lines() -> None:
            async with to_server, refusals:
                async for line in stdin:
                    try:
                        message = jsonrpc_message_adapter.validate_json(line, by_name=False)
                    except ValidationError as exc:
                        refusal = refusal_of(line, exc)
                        if refusal is not None:
                            await refusals.send(SessionMessage(refusal))
                        continue
                    await to_server.send(SessionMessage(message))

        async def write_lines() -> None:
            async with from_server:
                async for session_message in from_server:
                    await stdout.write(
                        session_message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
                    )
                    await stdout.flush()

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(read_lines)
            tasks.start_soon(write_lines)
            yield read_stream, write_stream


def refusal_of(line: str, exc: ValidationError) -> JSONRPCError | None:
    """The JSON-RPC error that answers `line`, which the SDK's parser refused with `exc`; None for
    a line that needs no answer."""
    if not line.strip():
        return None  # no request, so nobody waits
    try:
        value = json.loads(line)
    except (ValueError, RecursionError) as not_json:  # RecursionError: nesting too deep
        return _error(None, PARSE_ERROR, f"Parse error: {not_json}")
    if isinstance(value, dict) and "method" not in value and ("result" in value or "error" in value):
        return None  # a (malformed) response: JSON-RPC never answers one
    errors = exc.errors()
    if errors[0]["type"] == "json_invalid":  # JSON to Python, not to the SDK: a lone surrogate
        return _error(_request_id(value), PARSE_ERROR, f"Parse error: {errors[0]['msg']}")
    # What is wrong with it as the kind of message it looks like, not as the first kind the SDK tried.
    kind = "JSONRPCRequest" if isinstance(value, dict) and "id" in value else "JSONRPCNotification"
    first = next((e for e in errors if e["loc"][:1] == (kind,)), errors[0])
    where = field_path(tuple(first["loc"][1:]))  # loc[0] is the union member tried: JSONRPCRequest, ...
    detail = f"{where}: {first['msg']}" if where else first["msg"]
    return _error(_request_id(value), INVALID_REQUEST, f"Invalid Request: {detail}")


def _request_id(value: Any) -> int | str | None:
    """The id of a request that could not be read whole, if it can be sent back."""
    found = value.get("id") if isinstance(value, dict) else None
    if isinstance(found, int) and not isinstance(found, bool):
        return found
    if isinstance(found, str):
        try:
            found.encode("utf-8")  # a lone surrogate does not encode, and would break the reply itself
        except UnicodeEncodeError:
            return None
        return found
    return None


def _error(request_id: int | str | None, code: int, message: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))


@contextmanager
def _claimed(fd: int, diversion: int) -> Iterator[int]:
    """A private duplicate of `fd` to serve the protocol on, while `fd` itself points at
    `diversion` (as the SDK's transport does): stdin at the null device, stdout at stderr, so that
    whatever else in the process, or a child of it, reads stdin or prints, never touches the wire."""
    wire = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 3)  # above 0-2, so it is never taken for one of them
    os.dup2(diversion, fd)
    os.close(diversion)
    try:
        yield wire
    finally:
        # Point fd back at the wire; the duplicate stays open: a worker thread may still be
        # blocked reading it, and a descriptor closed under it could be reused by another file.
        os.dup2(wire, fd)
