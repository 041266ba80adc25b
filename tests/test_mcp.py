"""donto's MCP server, driven by the MCP SDK's own client over both transports: stdio (`donto mcp`
spawned as an MCP client would) and streamable HTTP (the API under uvicorn, at /mcp). Both act as
an API key and stay in its workspace; what they write, the REST API reads there."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio
import httpx
import httpx2
import pytest
from anyio.abc import Process
from anyio.streams.buffered import BufferedByteReceiveStream
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp_types import jsonrpc_message_adapter
from pydantic import ValidationError
from scripted_llm import KM, RACE, TEXT, ScriptedLLM, lines, with_llm

from donto.extraction.prompts import DEFAULT_LENSES
from donto.mcp.stdio_transport import refusal_of
from support import ADMIN_KEY, REPO, Api, served_api, text_image

TOOLS = (
    {
        "write_claims",
        "list_claims",
        "get_claim",
        "claim_status",
        "retract_claim",
        "recall",
        "add_turns",
        "session_turns",
        "list_sessions",
        "get_turn",
        "retract_turn",
        "clear_session",
        "entity_profile",
        "entity_paths",
        "link_entities",
        "entity_identity",
    }
    | {  # what an agent reads (app/mcp/source_tools.py)
        "register_document",
        "get_document",
        "list_documents",
        "retract_document",
        "memorize",
        "get_job",
        "list_jobs",
        "cancel_job",
    }
    | {  # the curated memory's (app/mcp/memory_tools.py)
        "orient",
        "bring_to_mind",
        "recall_memory",
        "reset_seen",
        "search_memory",
        "create_subject",
        "get_subjects",
        "update_subject",
        "set_structure",
        "list_subjects",
        "remember",
        "append_observations",
        "delete_observations",
        "create_understanding",
        "update_understanding",
        "get_understandings",
        "understanding_history",
        "open_around",
        "open_intersection",
        "find_similar_subjects",
        "merge_subjects",
        "unmerge_subjects",
        "mark_useful",
        "mark_questionable",
        "consolidation_report",
        "close_consolidation",
        "memory_stats",
    }
)


@pytest.fixture(scope="module")
def port(settings) -> Iterator[int]:
    """The API (and so /mcp) under uvicorn on a free port, as `donto serve` runs it."""
    served = settings.model_copy(update={"api": settings.api.model_copy(update={"run_workers": False})})
    with served_api(served) as free:
        yield free


def stdio_env(settings, key: str | None, workspace: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DONTO_MCP_", "NEO4J_"))}
    env |= {
        "NEO4J_URI": settings.neo4j.uri,
        "NEO4J_USER": settings.neo4j.user,
        "NEO4J_PASSWORD": settings.neo4j.password.get_secret_value(),
        "DONTO_API_KEY": ADMIN_KEY,
        "DONTO_RUN_WORKERS": "false",
    }
    if key is not None:
        env["DONTO_MCP_KEY"] = key
    if workspace is not None:
        env["DONTO_MCP_WORKSPACE"] = workspace
    return env


@asynccontextmanager
async def over_stdio(settings, key: str) -> AsyncIterator[Client]:
    command = StdioServerParameters(
        command=sys.executable, args=["-m", "donto.cli", "mcp"], env=stdio_env(settings, key), cwd=REPO
    )
    async with Client(command, read_timeout_seconds=120) as client:
        yield client


@asynccontextmanager
async def over_http(
    port: int, key: str, workspace: str | None = None, session: str | None = None
) -> AsyncIterator[Client]:
    headers = {"Authorization": f"Bearer {key}"} | ({"X-Donto-Workspace": workspace} if workspace else {})
    headers |= {"X-Donto-Session": session} if session else {}  # the conversation, as for REST
    async with (
        httpx2.AsyncClient(headers=headers, timeout=120) as http,
        Client(streamable_http_client(f"http://127.0.0.1:{port}/mcp", http_client=http)) as client,
    ):
        yield client


class Wire:
    """`donto mcp` spoken to line by line, as a broken or hostile client would."""

    def __init__(self, process: Process):
        assert process.stdin is not None and process.stdout is not None
        self.process, self.stdin = process, process.stdin
        self.stdout = BufferedByteReceiveStream(process.stdout)

    async def send(self, message: str | dict) -> None:
        line = message if isinstance(message, str) else json.dumps(message)
        await self.stdin.send(line.encode() + b"\n")

    async def receive(self) -> dict:
        """The next line on stdout, which must be a JSON-RPC message: nothing else may reach it."""
        with anyio.fail_after(120):
            line = await self.stdout.receive_until(b"\n", 16 * 1024 * 1024)
        message = json.loads(line)
        assert message["jsonrpc"] == "2.0", line
        return message

    async def request(self, request_id: int | str, method: str, **params) -> None:
        await self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})


@asynccontextmanager
async def over_raw_stdio(settings, key: str) -> AsyncIterator[Wire]:
    """`donto mcp` after the initialize handshake; on leaving, stdin is closed and the process must
    end cleanly, having written nothing more."""
    command = [sys.executable, "-m", "donto.cli", "mcp"]
    async with await anyio.open_process(command, env=stdio_env(settings, key), cwd=REPO, stderr=None) as process:
        wire = Wire(process)
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}
        await wire.request("init", "initialize", **hello)
        assert "result" in await wire.receive()
        await wire.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        yield wire
        await wire.stdin.aclose()
        with anyio.fail_after(60):
            assert await process.wait() == 0
        with pytest.raises(anyio.EndOfStream):
            await wire.stdout.receive()


async def call(client: Client, tool: str, **arguments) -> dict:
    """A tool's answer, checked to come as compact JSON text equal to its structured content."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.content[0].text == json.dumps(result.structured_content, ensure_ascii=False, separators=(",", ":"))
    return result.structured_content


async def refused(client: Client, tool: str, **arguments) -> dict:
    """A tool error's body: {"code", "message", "field"?}."""
    result = await client.call_tool(tool, arguments)
    assert result.is_error
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content["error"]


async def remember_and_recall(client: Client, api: Api) -> None:
    """Every tool once, as an agent would use them, and what the REST API sees afterwards."""
    assert {t.name for t in (await client.list_tools()).tools} == TOOLS

    written = await call(
        client,
        "write_claims",
        claims=[
            {"subject": "maya", "predicate": "lives_in", "object": {"entity": "lisbon"}, "valid_from": "2024-03-01"},
            {
                "subject": "maya",
                "predicate": "ran",
                "object": {"literal": {"value": "half marathon", "datatype": "xsd:string"}},
                "valid_from": "2026-11-14",
                "confidence": 1,
            },
        ],
    )
    lives_in, ran = (c["id"] for c in written["claims"])
    assert all(c["created"] for c in written["claims"])
    plan = await call(
        client,
        "write_claims",
        claims=[
            {"subject": "maya", "predicate": "trains_in", "object": {"entity": "lisbon"}, "derived_from": [lives_in]}
        ],
    )
    [trains_in] = (c["id"] for c in plan["claims"])

    bundle = await call(client, "recall", query="Where does Maya live?", include_provenance=True)
    assert any(lives_in in item["provenance"]["claim_ids"] for item in bundle["items"])
    assert "provenance" not in (await call(client, "recall", query="Where does Maya live?"))["items"][0]

    [status] = (await call(client, "claim_status", ids=[trains_in]))["statuses"]
    assert status["status"] == "UNVERIFIED" and status["walked"] == 2
    await call(client, "retract_claim", claim_id=lives_in, reason="she moved before that")
    [status] = (await call(client, "claim_status", ids=[trains_in]))["statuses"]
    assert status["status"] == "POTENTIALLY_STALE"
    assert status["reasons"][0]["claim_id"] == lives_in and status["reasons"][0]["kind"] == "retracted"
    assert (await refused(client, "retract_claim", claim_id=lives_in))["code"] == "conflict"

    page = await call(client, "list_claims", subject="maya")
    assert {c["id"] for c in page["claims"]} == {ran, trains_in}
    assert "derived_from" not in page["claims"][0]  # a listing leaves the links out, as REST does
    full = await call(client, "get_claim", claim_id=trains_in)
    assert full["derived_from"] == [lives_in]
    profile = await call(client, "entity_profile", key="maya")
    assert {g["predicate"] for g in profile["predicates"]} == {"ran", "trains_in"}
    paths = await call(client, "entity_paths", key="maya", to="lisbon")
    assert paths["from"] == "maya" and paths["paths"][0]["claims"][0]["id"] == trains_in
    await call(
        client, "write_claims", claims=[{"subject": "maya-k", "predicate": "paints", "object": {"entity": "sea"}}]
    )
    linked = await call(client, "link_entities", a="maya", b="maya-k", reason="her full name")
    assert linked["created"] is True
    assert (await call(client, "entity_identity", key="maya-k"))["keys"] == ["maya-k", "maya"]
    page = await call(client, "list_claims", subject="maya", identity=True)
    assert {c["subject"] for c in page["claims"]} == {"maya", "maya-k"}
    assert (await refused(client, "link_entities", a="maya", b="maya", reason="x"))["field"] == "b"

    episode = await call(
        client,
        "add_turns",
        session={"external_id": "chat-1", "started_at": "2026-11-20T18:00:00Z"},  # POST /v1/episodes' body
        turns=[{"external_id": "t1", "speaker": "Maya", "text": "I ran my first half marathon last Saturday!"}],
    )
    assert episode["turns"][0]["created"] is True
    said_twice = [{"external_id": "t1", "speaker": "Maya", "text": "I ran my first half marathon last Saturday!"}]
    flat = await refused(client, "add_turns", session="chat-1", started_at="2026-11-20T18:00:00Z", turns=said_twice)
    assert flat["field"] == "session"  # the flat shape of before (session a string, started_at beside it)
    said = await call(client, "recall", query="When did Maya run a half marathon?", k=5)
    assert any("14 November 2026" in item["text"] for item in said["items"])

    # Bad arguments: the REST error body, naming the field, and nothing written.
    bad_date = await refused(
        client,
        "write_claims",
        claims=[
            {"subject": "maya", "predicate": "p", "object": {"entity": "x"}},
            {"subject": "maya", "predicate": "p", "object": {"entity": "y"}, "valid_from": "sometime"},
        ],
    )
    assert bad_date == {
        "code": "invalid_input",
        "message": "'sometime' is not an ISO-8601 date or date-time",
        "field": "claims[1].valid_from",
    }
    assert (await refused(client, "recall", query="x", k=0))["field"] == "k"
    assert (await refused(client, "recall", query=" "))["field"] == "query"
    unknown = await refused(
        client, "write_claims", claims=[{"subject": "a", "predicate": "b", "object": {"entity": "c"}, "colour": 1}]
    )
    assert unknown == {"code": "invalid_input", "message": "unknown field", "field": "claims[0].colour"}
    missing = await refused(client, "get_claim", claim_id="no-such-claim")
    assert missing == {"code": "not_found", "message": "no claim 'no-such-claim' in this workspace", "field": "id"}

    # The REST API sees the same memory, in the same workspace.
    assert {c["id"] for c in api.list(subject="maya")} == {ran, trains_in}
    assert api.list(subject="maya", predicate="p") == []


TOPIC = "Audrey and her painting"


async def curate(client: Client, api: Api) -> str:
    """The curated memory's verbs in one conversation, as an agent uses them; returns the
    conversation's first observation. The model names no session: the MCP connection is one."""
    oriented = await call(client, "orient")
    assert oriented["session"]["new"] is True and oriented["soul"] is None and oriented["generation"] == 0

    married = await call(client, "remember", text="James and Audrey are married.", subjects=["James", "Audrey"])
    assert sorted(married["subjects_created"]) == ["Audrey", "James"] and married["created"] is True
    paints = await call(client, "remember", text="Audrey paints watercolours.", subjects=["audrey", "painting"])
    assert paints["subjects_created"] == ["painting"] and sorted(paints["observation"]["subjects"]) == [
        "Audrey",
        "painting",
    ]
    await call(client, "remember", text="Audrey exhibited her paintings in Lisbon.", subjects=["Audrey", "painting"])
    # subjects by name, a page at a time, as REST pages them
    first_page = await call(client, "list_subjects", limit=2)
    assert [s["name"] for s in first_page["subjects"]] == ["Audrey", "James"] and first_page["next_cursor"]
    rest = await call(client, "list_subjects", limit=2, cursor=first_page["next_cursor"])
    assert [s["name"] for s in rest["subjects"]] == ["painting"] and rest.get("next_cursor") is None

    # Each item is shown once per conversation, until the heartbeat token says the context was compacted.
    first = await call(client, "bring_to_mind", topic_or_context=TOPIC, limit=2)
    assert first["compaction_detected"] is False and len(first["results"]) == 2
    assert first["compaction_note"].startswith("DISPOSABLE")
    shown = {r["id"] for r in first["results"]}
    second = await call(client, "bring_to_mind", topic_or_context=TOPIC, last_token=first["heartbeat_token"])
    assert second["compaction_detected"] is False and len(second["results"]) == 1
    assert shown.isdisjoint(r["id"] for r in second["results"])
    lost = await call(client, "bring_to_mind", topic_or_context=TOPIC, last_token=second["heartbeat_token"] + 1)
    assert lost["compaction_detected"] is True and lost["reason"] == "last_token does not match"
    assert shown < {r["id"] for r in lost["results"]}  # surfaced again

    made = await call(
        client,
        "create_understanding",
        subject_names=["James", "Audrey"],
        text="They are married.",
        summary="married",
        source_observation_ids=[married["observation"]["id"]],
    )
    assert made["kind"] == "relationship" and made["subjects"] == ["Audrey", "James"]
    revised = await call(
        client,
        "update_understanding",
        understanding_id=made["id"],
        new_text="Married; she paints, he builds memory systems.",
        new_summary="married; painter and engineer",
        reason="more detail",
    )
    assert revised["old_understanding_id"] == made["id"] and revised["understanding"]["active"] is True
    history = await call(client, "understanding_history", understanding_id=revised["new_understanding_id"])
    assert [(v["summary"], v["active"]) for v in history["versions"]] == [
        ("married", False),
        ("married; painter and engineer", True),
    ]
    assert [(r["old"], r["new"], r["reason"]) for r in history["revisions"]] == [
        (made["id"], revised["new_understanding_id"], "more detail")
    ]
    shared = await call(client, "open_intersection", subjects=["James", "Audrey"])
    assert shared["relationship_understanding"]["id"] == revised["new_understanding_id"]
    assert [o["id"] for o in shared["observations"]] == [married["observation"]["id"]] and shared["count"] == 1
    assert {c["name"]: (c["total"], c["alone"]) for c in shared["alone"]} == {"James": (1, 0), "Audrey": (3, 2)}

    # What this conversation wrote, it may take back; the tool errors name the argument at fault.
    typo = await call(client, "remember", text="Audrey paints oils.", subjects=["Audrey"])
    assert (await call(client, "delete_observations", ids=[typo["observation"]["id"]]))["deleted"] == [
        typo["observation"]["id"]
    ]
    assert (await refused(client, "remember", text="x", subjects=[]))["field"] == "subjects"
    assert (await refused(client, "bring_to_mind", topic_or_context=TOPIC, limit=51))["field"] == "limit"
    assert (await refused(client, "recall_memory"))["field"] == "question"
    unknown = await refused(client, "get_subjects", names=["James", "Nobody"])
    assert unknown == {"code": "not_found", "message": "no subject 'Nobody' in this workspace", "field": "names[1]"}
    stale = await refused(client, "update_understanding", understanding_id=made["id"], new_text="x", new_summary="x")
    assert stale["code"] == "conflict" and stale["field"] == "understanding_id"

    # The REST API reads the same memory.
    audrey = api.get("/v1/subjects/Audrey").json()
    assert audrey["observations"] == 3
    return married["observation"]["id"]


def test_stdio_serves_the_curated_memory_one_conversation_per_process(settings, client, memory, workspace):
    issued = memory.keys.create(workspace)

    async def scenario() -> None:
        async with over_stdio(settings, issued.key) as mcp:
            await curate(mcp, Api(client, workspace))
            conversation = (await call(mcp, "orient"))["session"]
            assert conversation["new"] is False and conversation["id"].startswith("mcp-")

    anyio.run(scenario)


def test_http_serves_the_curated_memory_one_conversation_per_session_header(port, client, memory, workspace):
    issued = memory.keys.create(workspace)

    async def scenario() -> None:
        async with over_http(port, issued.key, session="conv-1") as mcp:
            married = await curate(mcp, Api(client, workspace))
            assert (await call(mcp, "orient"))["session"]["id"] == "conv-1"
        async with over_http(port, issued.key, session="conv-2") as other:
            fresh = await call(other, "bring_to_mind", topic_or_context=TOPIC, limit=3)
            assert fresh["compaction_detected"] is False and len(fresh["results"]) == 3  # nothing shown here yet
            kept = await call(other, "delete_observations", ids=[married])
            assert kept["deleted"] == [] and kept["rejected"][0]["reason"].startswith("session mismatch")
        async with over_http(port, issued.key, session="two words") as bad:
            assert (await refused(bad, "orient"))["field"] == "x-donto-session"

    anyio.run(scenario)


def test_stdio_serves_every_tool_as_the_key_in_the_environment(settings, client, memory, workspace):
    issued = memory.keys.create(workspace)

    async def scenario() -> None:
        async with over_stdio(settings, issued.key) as mcp:
            await remember_and_recall(mcp, Api(client, workspace))
            await refuses_unknown_arguments(mcp, Api(client, workspace))
            memory.keys.revoke(issued.id)  # the very next call is refused
            assert (await refused(mcp, "list_claims"))["code"] == "unauthorized"

    anyio.run(scenario)


def test_http_serves_every_tool_behind_the_api_keys(port, client, memory, workspace):
    issued = memory.keys.create(workspace)

    async def scenario() -> None:
        async with over_http(port, issued.key) as mcp:
            await remember_and_recall(mcp, Api(client, workspace))
            await refuses_unknown_arguments(mcp, Api(client, workspace))

    anyio.run(scenario)


async def refuses_unknown_arguments(client: Client, api: Api) -> None:
    """An argument a tool does not take is a tool error naming it, as REST refuses an unknown field
    in a body, and it comes before the tool runs: a misspelt valid_at never gets an unscoped
    answer, and a write with an option it lacks writes nothing. Every tool's inputSchema says so."""
    assert all(t.input_schema["additionalProperties"] is False for t in (await client.list_tools()).tools)
    misspelt = await refused(client, "list_claims", subject="maya", valdi_at="2024-01-01")
    assert misspelt == {"code": "invalid_input", "message": "unknown field", "field": "valdi_at"}
    assert (await refused(client, "orient", bogus=1))["field"] == "bogus"  # a tool that takes no arguments
    claim = {"subject": "unwritten", "predicate": "p", "object": {"entity": "o"}}
    unknown_option = await refused(client, "write_claims", claims=[claim], dry_run=True)
    rest = api.post("/v1/claims", json={"claims": [claim], "dry_run": True})
    assert rest.status_code == 422 and rest.json() == {"error": unknown_option}
    assert unknown_option["field"] == "dry_run" and api.list(subject="unwritten") == []


# A request the SDK's strict JSON parser refuses (a lone surrogate escape) and Python's json reads.
LONE_SURROGATE = (
    '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"write_claims","arguments":'
    '{"claims":[{"subject":"\\ud800","predicate":"p","object":{"entity":"o"}}]}}}'
)


def test_stdio_answers_every_line_it_cannot_read_and_goes_on_serving(settings, client, memory, workspace):
    issued = memory.keys.create(workspace)

    async def scenario() -> None:
        async with over_raw_stdio(settings, issued.key) as wire:
            await wire.send("not json at all")
            not_json = await wire.receive()
            assert not_json["id"] is None and not_json["error"]["code"] == -32700
            assert not_json["error"]["message"].startswith("Parse error")

            await wire.send(LONE_SURROGATE)  # answered under its own id, so the caller fails at once
            surrogate = await wire.receive()
            assert surrogate["id"] == 2 and surrogate["error"]["code"] == -32700

            await wire.send('{"jsonrpc":"2.0","id":3,"method":5}')  # JSON, but no JSON-RPC request
            assert await wire.receive() == {
                "jsonrpc": "2.0",
                "id": 3,
                "error": {"code": -32600, "message": "Invalid Request: method: Input should be a valid string"},
            }

            # Still serving: requests in flight together, a notification and a bad line among them.
            await wire.request(4, "tools/call", name="list_claims", arguments={"subject": "maya"})
            await wire.send(
                {"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 9, "progress": 1}}
            )
            await wire.request(5, "tools/call", name="list_claims", arguments={"valdi_at": "2024-01-01"})
            await wire.send("{")
            await wire.request(6, "tools/list")
            answers = {}
            for _ in range(4):
                answer = await wire.receive()
                answers[answer["id"]] = answer
            assert answers.keys() == {4, 5, 6, None}
            assert answers[4]["result"]["structuredContent"]["claims"] == []
            assert answers[5]["result"]["isError"] is True
            assert answers[5]["result"]["structuredContent"]["error"]["field"] == "valdi_at"
            assert {t["name"] for t in answers[6]["result"]["tools"]} == TOOLS
            assert answers[None]["error"]["code"] == -32700
        assert Api(client, workspace).list(predicate="p") == []  # nothing reached write_claims

    anyio.run(scenario)


@pytest.mark.parametrize(
    ("line", "answer"),
    [
        ("\n", None),  # no request: nobody waits
        ('{"jsonrpc":"2.0","id":7,"result":5}', None),  # a response, even a malformed one, is never answered
        ('{"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":"\\ud800"}}', (7, -32700)),
        ('{"jsonrpc":"2.0","id":"\\udc00","method":"ping"}', (None, -32700)),  # an id that cannot be sent back
        ('{"jsonrpc":"1.0","id":"a","method":"ping"}', ("a", -32600)),
        ('[{"jsonrpc":"2.0","id":1,"method":"ping"}]', (None, -32600)),  # a batch: MCP has none
        ('{"jsonrpc":"2.0","method":"notifications/initialized","params":7}', (None, -32600)),
    ],
)
def test_stdio_answers_a_line_it_cannot_read_under_its_id_when_someone_waits(line, answer):
    with pytest.raises(ValidationError) as refused_by_the_sdk:
        jsonrpc_message_adapter.validate_json(line, by_name=False)
    refusal = refusal_of(line, refused_by_the_sdk.value)
    assert (refusal and (refusal.id, refusal.error.code)) == answer


def model_runtime_mapped(pid: int) -> bool:
    """Whether the process has mapped a model runtime's library (torch or ONNX Runtime): loading the
    embedding model does, and nothing else `donto mcp` does before a tool needs the model."""
    maps = Path(f"/proc/{pid}/maps").read_text()
    return "torch" in maps or "onnxruntime" in maps


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="reads /proc/<pid>/maps (Linux)")
def test_stdio_lists_its_tools_before_loading_the_model_and_loads_it_when_a_tool_needs_it(
    settings, client, memory, workspace
):
    issued = memory.keys.create(workspace)
    hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "timer", "version": "0"}}

    async def scenario() -> float:
        started = time.monotonic()
        command = [sys.executable, "-m", "donto.cli", "mcp"]
        async with await anyio.open_process(
            command, env=stdio_env(settings, issued.key), cwd=REPO, stderr=None
        ) as process:
            wire = Wire(process)
            await wire.request(1, "initialize", **hello)
            assert "result" in await wire.receive()
            await wire.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            await wire.request(2, "tools/list")
            listed = await wire.receive()
            took = time.monotonic() - started
            assert {t["name"] for t in listed["result"]["tools"]} == TOOLS
            assert not model_runtime_mapped(process.pid)
            await wire.request(3, "tools/call", name="recall", arguments={"query": "anything"})
            assert "items" in (await wire.receive())["result"]["structuredContent"]
            assert model_runtime_mapped(process.pid)
            await wire.stdin.aclose()
            with anyio.fail_after(60):
                await process.wait()
        return took

    took = anyio.run(scenario)
    print(f"donto mcp listed its tools {took:.2f} s after it was started")


def test_stdio_refuses_to_start_without_a_good_key(settings):
    for key, reason in ((None, "set DONTO_MCP_KEY"), ("donto_wrong", "unknown API key")):
        done = subprocess.run(
            [sys.executable, "-m", "donto.cli", "mcp"],
            env=stdio_env(settings, key),
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 1 and reason in done.stderr, done.stderr
        assert done.stdout == ""  # nothing on the wire, and no traceback
        assert "Traceback" not in done.stderr


def test_http_refuses_a_missing_wrong_or_foreign_key(port, memory, workspace):
    url = f"http://127.0.0.1:{port}/mcp"
    hello = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    accept = {"Accept": "application/json, text/event-stream"}
    foreign = memory.keys.create(workspace).key
    for headers, status, code in (
        ({}, 401, "unauthorized"),
        ({"Authorization": "Bearer donto_wrong"}, 401, "unauthorized"),
        ({"Authorization": f"Bearer {foreign}", "X-Donto-Workspace": "elsewhere"}, 403, "forbidden"),
    ):
        answer = httpx.post(url, json=hello, headers=accept | headers)
        assert answer.status_code == status and answer.json()["error"]["code"] == code

    async def client_with_a_wrong_key() -> None:
        async with over_http(port, "donto_wrong") as mcp:
            await mcp.list_tools()

    with pytest.raises(ExceptionGroup) as refused_by_the_server:  # the SDK client gets the 401 as an MCPError
        anyio.run(client_with_a_wrong_key)
    assert refused_by_the_server.group_contains(MCPError)


def test_http_keeps_each_key_in_its_workspace(port, client, memory):
    a, b = "mcp-a-" + uuid.uuid4().hex[:8], "mcp-b-" + uuid.uuid4().hex[:8]
    key_a, key_b = memory.keys.create(a).key, memory.keys.create(b).key

    async def scenario() -> None:
        async with over_http(port, key_a) as mcp_a, over_http(port, key_b) as mcp_b:
            written = await call(
                mcp_a, "write_claims", claims=[{"subject": "secret", "predicate": "is", "object": {"entity": "hidden"}}]
            )
            [claim_id] = (c["id"] for c in written["claims"])
            assert (await call(mcp_b, "list_claims", subject="secret"))["claims"] == []
            assert (await refused(mcp_b, "get_claim", claim_id=claim_id))["code"] == "not_found"
            bundle = await call(mcp_b, "recall", query="what is secret?", include_provenance=True)
            assert all(claim_id not in item["provenance"]["claim_ids"] for item in bundle["items"])
        async with over_http(port, ADMIN_KEY, workspace=a) as admin:  # the admin key picks its workspace
            assert [c["id"] for c in (await call(admin, "list_claims", subject="secret"))["claims"]] == [claim_id]

    anyio.run(scenario)
    assert [c["id"] for c in Api(client, a).list(subject="secret")] and Api(client, b).list(subject="secret") == []


def test_a_conversation_is_read_back_paged_retracted_and_cleared_over_mcp(port, client, memory, workspace):
    issued = memory.keys.create(workspace)
    other = memory.keys.create("mcp-other-" + uuid.uuid4().hex[:8])
    turns = [
        {"external_id": f"m{i}", "speaker": "user" if i % 2 else "assistant", "text": f"message {i}"} for i in range(5)
    ]
    turns[1]["metadata"] = {"role": "user", "ids": ["a", "b"], "名前": {"nested": True}}

    async def scenario() -> None:
        async with over_http(port, issued.key) as mcp, over_http(port, other.key) as foreign:
            added = await call(mcp, "add_turns", session={"external_id": "mcp-chat"}, turns=turns)
            latest = await call(mcp, "session_turns", session="mcp-chat", limit=2, latest=True)
            assert [t["text"] for t in latest["turns"]] == ["message 3", "message 4"]
            earlier = await call(mcp, "session_turns", session="mcp-chat", limit=3, before=latest["next_before"])
            assert [t["text"] for t in earlier["turns"]] == ["message 0", "message 1", "message 2"]
            assert earlier["turns"][1]["metadata"] == turns[1]["metadata"] and earlier["next_before"] is None
            assert (await call(mcp, "session_turns", session="mcp-chat", after="3"))["turns"][0]["text"] == "message 4"
            [listed] = (await call(mcp, "list_sessions"))["sessions"]
            assert listed["external_id"] == "mcp-chat" and listed["turn_count"] == 5

            turn_id = added["turns"][2]["id"]
            retracted = await call(mcp, "retract_turn", turn_id=turn_id, reason="wrong chat")
            assert retracted["was_live"] is True
            assert (await call(mcp, "get_turn", turn_id=turn_id))["retracted_at"] == retracted["retracted_at"]
            now = await call(mcp, "session_turns", session="mcp-chat")
            assert [t["external_id"] for t in now["turns"]] == ["m0", "m1", "m3", "m4"]
            then = await call(mcp, "session_turns", session="mcp-chat", known_at=added["recorded_at"])
            assert len(then["turns"]) == 5
            assert (await call(mcp, "clear_session", session="mcp-chat"))["retracted"] == 4
            assert (await call(mcp, "session_turns", session="mcp-chat"))["turns"] == []

            missing = await refused(mcp, "session_turns", session="no-such-chat")
            assert missing["code"] == "not_found" and missing["field"] == "session"
            assert (await refused(mcp, "session_turns", session="mcp-chat", limit=0))["field"] == "limit"
            assert (await refused(foreign, "get_turn", turn_id=turn_id))["code"] == "not_found"
            assert (await refused(foreign, "clear_session", session="mcp-chat"))["code"] == "not_found"
            assert (await call(foreign, "list_sessions"))["sessions"] == []

    anyio.run(scenario)
    rest = Api(client, workspace).get("/v1/sessions/mcp-chat/turns").json()  # REST reads what MCP cleared
    assert rest["turns"] == [] and rest["session_id"]


NOTES = (
    "Minutes of the garden committee.\n"
    "Priya will order the compost bins before the spring fair.\n"
    "The shed key now hangs in the library's back office."
)


def test_an_agent_hands_donto_what_it_reads_and_follows_the_job_over_mcp(settings, llm: ScriptedLLM, client, memory):
    """memorize, the jobs and documents tools and the resources, over HTTP as an agent uses them:
    a document kept is recallable at once, its text readable as a resource at the offsets recall
    gives; extraction run now or queued, followed and cancelled; and bad arguments name the field."""
    workspace = "mcp-read-" + uuid.uuid4().hex[:10]
    issued = memory.keys.create(workspace)
    api = Api(client, workspace)

    async def scenario(port: int) -> None:
        async with over_http(port, issued.key) as mcp:
            kept = await call(mcp, "register_document", text=NOTES, title="Garden minutes", occurred_at="2026-03-02")
            assert kept["revision"] == 1 and kept["passages"] == 3 and kept["occurred_at"].startswith("2026-03-02")
            detail = await call(mcp, "get_document", document_id=kept["id"])
            assert detail["title"] == "Garden minutes" and detail["length"] == len(NOTES)
            [text] = (await mcp.read_resource(f"donto://documents/{kept['id']}")).contents
            assert text.text == NOTES and text.mime_type == "text/plain"
            found = await call(mcp, "recall", query="Where is the shed key kept?", k=3, include_provenance=True)
            first = found["items"][0]["provenance"]
            assert first["document_id"] == kept["id"]
            assert NOTES[first["start"] : first["end"]] == "The shed key now hangs in the library's back office."

            llm.queue(lines(RACE, KM))
            done = await call(mcp, "memorize", text=TEXT, occurred_at="2026-11-16T09:00:00Z", **{"async": False})
            assert done["extraction"] == "succeeded" and done["summary"]["claimsCreated"] == 2
            job = await call(mcp, "get_job", job_id=done["job_id"])
            assert job["state"] == "succeeded" and job["source_id"] == done["source_id"]
            queued = await call(mcp, "memorize", document_id=kept["id"], mode="sequential", lenses="default")
            assert queued["extraction"] == "queued" and queued["queue_position"] >= 1 and queued["mode"] == "deep"
            lensed = await call(mcp, "get_job", job_id=queued["job_id"])  # seed 001's name for deep, the default lenses
            assert lensed["request"]["lenses"] == list(DEFAULT_LENSES)
            listed = await call(mcp, "list_jobs", state="queued")
            assert [j["id"] for j in listed["jobs"]] == [queued["job_id"]]
            assert (await call(mcp, "cancel_job", job_id=queued["job_id"]))["state"] == "cancelled"
            shot = base64.b64encode(text_image(["Invoice 4471 is paid."])).decode()  # bare base64: a screenshot
            read = await call(mcp, "memorize", text="From the call.", images=[shot])
            assert read["images"][0]["format"] == "png" and read["images"][0]["chars"] > 0
            [text] = (await mcp.read_resource(f"donto://documents/{read['source_id']}")).contents
            assert text.text.startswith("[OCR text from image #1]\nInvoice") and text.text.endswith(
                "\n\nFrom the call."
            )
            assert (await call(mcp, "cancel_job", job_id=read["job_id"]))["state"] == "cancelled"

            # Resources: a claim and an entity's profile, as JSON, by URI.
            templates = {t.uri_template for t in (await mcp.list_resource_templates()).resource_templates}
            assert templates == {"donto://claims/{id}", "donto://entities/{key}", "donto://documents/{id}"}
            [race] = api.list(subject="melanie", predicate="ran")
            [as_json] = (await mcp.read_resource(f"donto://claims/{race['id']}")).contents
            assert as_json.mime_type == "application/json" and json.loads(as_json.text)["id"] == race["id"]
            [profile] = (await mcp.read_resource("donto://entities/melanie")).contents
            assert {g["predicate"] for g in json.loads(profile.text)["predicates"]} == {"ran"}
            with pytest.raises(MCPError) as missing:
                await mcp.read_resource("donto://documents/no-such-document")
            assert missing.value.error.data["error"] == {
                "code": "not_found",
                "message": "no document 'no-such-document' in this workspace",
                "field": "id",
            }

            # Bad arguments name the field, and nothing is kept.
            assert (await refused(mcp, "memorize", text="x", occurred_at="sometime"))["field"] == "occurred_at"
            assert (await refused(mcp, "memorize", text="x", mode="sequentially"))["field"] == "mode"
            assert (await refused(mcp, "memorize", text="x", lenses="all of them"))["field"] == "lenses"
            assert (await refused(mcp, "memorize", text="x", images=["not base64!"]))["field"] == "images[0]"
            assert (await refused(mcp, "list_jobs", state="lost"))["field"] == "state"
            assert (await refused(mcp, "get_job", job_id="no-such-job"))["code"] == "not_found"
            assert (await refused(mcp, "register_document", text=""))["field"] == "text"
        assert len(api.get("/v1/jobs").json()["jobs"]) == 3

    with served_api(with_llm(settings, llm)) as port:
        anyio.run(scenario, port)
