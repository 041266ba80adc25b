"""Claude's memory tool on donto (donto.integrations.anthropic: DontoMemoryTool, DontoAsyncMemoryTool),
through the real client against the real server (uvicorn on a loopback port, the suite's Neo4j) and
the real Anthropic SDK: every command, blocking and async, with the SDK backend's answers; edits as
corrections read as known before; delete and rename retracting, read as known before; paths that
leave /memories refused with nothing written; a file recalled by donto's recall; and the SDK's own
tool runner, blocking and async, driving the tool from a scripted Messages endpoint on a real socket
(no LLM), as it would from Claude's replies."""

from __future__ import annotations

import asyncio
import json
import threading
import uuid
from collections import deque
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

pytest.importorskip("anthropic", reason='the anthropic extra: pip install "donto-memory[anthropic]"')

import anthropic  # noqa: E402
from anthropic.lib.tools import ToolError  # noqa: E402

import donto  # noqa: E402
from donto.integrations.anthropic import DontoAsyncMemoryTool, DontoMemoryTool  # noqa: E402
from support import ADMIN_KEY  # noqa: E402

ESCAPES = [
    "/memories/../x",
    "/memories/a/../../x",
    "/memories/%2e%2e/x",
    "/memories/\uff0e\uff0e/x",
    "/memories\\..\\x",
    "/memories/a\\b",
    "/memories/a\x00b",
    "/etc/passwd",
    "/memoriesX/y",
    "memories/x",
    "/memories//x",
]


@pytest.fixture
def workspace() -> str:
    return f"claude-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def client(url, workspace) -> Iterator[donto.Client]:
    with donto.Client(url, api_key=ADMIN_KEY, workspace=workspace) as made:
        yield made


@pytest.fixture
def tool(url, workspace) -> Iterator[DontoMemoryTool]:
    with DontoMemoryTool(base_url=url, api_key=ADMIN_KEY, workspace=workspace) as made:
        yield made


def run(tool: DontoMemoryTool, **command: Any) -> str:
    """The tool called as the SDK's runner calls it: with a tool_use block's input."""
    return str(tool.call(command))


def refused(tool: DontoMemoryTool, **command: Any) -> str:
    with pytest.raises(ToolError) as error:
        tool.call(command)
    return str(error.value.content)


def documents(client: donto.Client, **params: Any) -> list[Any]:
    return list(client.iter_documents(**params))


def test_every_command_answers_as_the_sdk_s_backend(tool, client):
    assert run(
        tool, command="create", path="/memories/notes.md", file_text="Ann drinks tea.\nBob drinks coffee.\n"
    ) == ("File created successfully at: /memories/notes.md")
    assert run(tool, command="view", path="/memories/notes.md") == (
        "Here's the content of /memories/notes.md with line numbers:\n"
        "     1\tAnn drinks tea.\n     2\tBob drinks coffee.\n     3\t"
    )
    assert run(tool, command="view", path="/memories/notes.md", view_range=[2, -1]) == (
        "Here's the content of /memories/notes.md with line numbers:\n     2\tBob drinks coffee.\n     3\t"
    )
    assert run(tool, command="str_replace", path="/memories/notes.md", old_str="tea", new_str="green tea") == (
        "The memory file has been edited. Here is the snippet showing the change (with line numbers):\n"
        "     1\tAnn drinks green tea.\n     2\tBob drinks coffee.\n     3\t"
    )
    assert run(tool, command="insert", path="/memories/notes.md", insert_line=0, insert_text="# Drinks\n") == (
        "The file /memories/notes.md has been edited."
    )
    assert tool.read("/memories/notes.md") == "# Drinks\nAnn drinks green tea.\nBob drinks coffee.\n"
    run(tool, command="create", path="/memories/projects/donto/plan.md", file_text="ship it")
    assert run(tool, command="view", path="/memories") == (
        "Here're the files and directories up to 2 levels deep in /memories, excluding hidden items:\n"
        "57B\t/memories\n"
        "50B\t/memories/notes.md\n"
        "7B\t/memories/projects/\n"
        "7B\t/memories/projects/donto/"
    )
    assert run(tool, command="rename", old_path="/memories/notes.md", new_path="/memories/drinks.md") == (
        "Successfully renamed /memories/notes.md to /memories/drinks.md"
    )
    assert run(tool, command="delete", path="/memories/projects") == "Successfully deleted /memories/projects"
    assert [d.external_id for d in documents(client)] == ["memory:/memories/drinks.md"]
    assert tool.read("/memories/drinks.md") == "# Drinks\nAnn drinks green tea.\nBob drinks coffee.\n"


def test_refusals_are_the_sdk_backend_s(tool):
    run(tool, command="create", path="/memories/a.txt", file_text="tea\ncoffee\ntea\n")
    run(tool, command="create", path="/memories/dir/b.txt", file_text="b")
    assert (
        refused(tool, command="create", path="/memories/a.txt", file_text="x") == "File /memories/a.txt already exists"
    )
    assert refused(tool, command="create", path="/memories/dir", file_text="x") == "File /memories/dir already exists"
    assert "is a file, not a directory" in refused(tool, command="create", path="/memories/a.txt/c", file_text="x")
    assert refused(tool, command="view", path="/memories/nope") == (
        "The path /memories/nope does not exist. Please provide a valid path."
    )
    assert refused(tool, command="str_replace", path="/memories/a.txt", old_str="juice", new_str="x") == (
        "No replacement was performed, old_str `juice` did not appear verbatim in /memories/a.txt."
    )
    assert refused(tool, command="str_replace", path="/memories/a.txt", old_str="tea", new_str="x") == (
        "No replacement was performed. Multiple occurrences of old_str `tea` in lines: 1, 3. Please ensure it is unique"
    )
    assert refused(tool, command="str_replace", path="/memories/dir", old_str="b", new_str="x") == (
        "The path /memories/dir is not a file."
    )
    assert refused(tool, command="insert", path="/memories/a.txt", insert_line=9, insert_text="x") == (
        "Invalid `insert_line` parameter: 9. It should be within the range [0, 3]."
    )
    assert refused(tool, command="insert", path="/memories/none", insert_line=0, insert_text="x") == (
        "The path /memories/none does not exist. Please provide a valid path."
    )
    assert refused(tool, command="delete", path="/memories") == "Cannot delete the /memories directory itself"
    assert refused(tool, command="delete", path="/memories/none") == "The path /memories/none does not exist"
    assert refused(tool, command="rename", old_path="/memories", new_path="/memories/x") == (
        "Cannot rename the /memories directory itself"
    )
    assert refused(tool, command="rename", old_path="/memories/a.txt", new_path="/memories/dir/b.txt") == (
        "The destination /memories/dir/b.txt already exists"
    )
    assert refused(tool, command="rename", old_path="/memories/none", new_path="/memories/y") == (
        "The path /memories/none does not exist"
    )
    assert "into itself" in refused(tool, command="rename", old_path="/memories/dir", new_path="/memories/dir/sub")
    assert refused(tool, command="create", path="/memories/c.txt") == "The `file_text` parameter is required."
    assert tool.read("/memories/a.txt") == "tea\ncoffee\ntea\n"  # nothing a refusal touched changed


def test_an_edit_is_a_correction_and_the_text_before_reads_as_known_before(tool, client):
    run(tool, command="create", path="/memories/city.md", file_text="Ann lives in Lisbon.\n")
    [first] = documents(client, prefix="memory:/memories/city.md")
    run(tool, command="str_replace", path="/memories/city.md", old_str="Lisbon", new_str="Porto")
    [second] = documents(client, prefix="memory:/memories/city.md")
    run(tool, command="insert", path="/memories/city.md", insert_line=1, insert_text="She cycles to work.")
    assert tool.read("/memories/city.md") == "Ann lives in Porto.\nShe cycles to work.\n"
    assert tool.read("/memories/city.md", known_at=first.recorded_at) == "Ann lives in Lisbon.\n"
    assert tool.read("/memories/city.md", known_at=second.recorded_at) == "Ann lives in Porto.\n"
    detail = client.get_document(documents(client)[0].id)
    assert [r.revision_kind for r in detail.revisions] == ["version", "correction", "correction"]
    assert detail.source == "claude-memory-tool" and detail.title == "/memories/city.md"
    assert detail.metadata == {
        "memory_path": "/memories/city.md",
        "bytes": len(b"Ann lives in Porto.\nShe cycles to work.\n"),
    }


def test_a_delete_retracts_the_file_and_it_reads_as_known_before(tool, client):
    run(tool, command="create", path="/memories/todo/a.md", file_text="buy milk")
    run(tool, command="create", path="/memories/todo/b.md", file_text="call Ann")
    run(tool, command="create", path="/memories/keep.md", file_text="kept")
    before = max(d.recorded_at for d in documents(client))
    run(tool, command="delete", path="/memories/todo/a.md")
    assert tool.read("/memories/todo/a.md") is None
    assert tool.read("/memories/todo/a.md", known_at=before) == "buy milk"
    run(tool, command="delete", path="/memories/todo/")
    assert [d.external_id for d in documents(client)] == ["memory:/memories/keep.md"]
    assert tool.read("/memories/todo/b.md", known_at=before) == "call Ann"
    assert "does not exist" in refused(tool, command="view", path="/memories/todo")
    # Made again after a delete: a new revision of the same document, its history kept.
    run(tool, command="create", path="/memories/todo/a.md", file_text="buy oat milk")
    [again] = documents(client, prefix="memory:/memories/todo/a.md")
    assert again.revision == 2 and tool.read("/memories/todo/a.md") == "buy oat milk"


def test_a_rename_moves_files_and_the_old_paths_read_as_known_before(tool, client):
    run(tool, command="create", path="/memories/old.md", file_text="Miso is a grey cat.")
    run(tool, command="create", path="/memories/proj/x/one.md", file_text="one")
    run(tool, command="create", path="/memories/proj/two.md", file_text="two")
    before = max(d.recorded_at for d in documents(client))
    run(tool, command="rename", old_path="/memories/old.md", new_path="/memories/pets/cat.md")
    run(tool, command="rename", old_path="/memories/proj", new_path="/memories/archive/proj")
    assert tool.read("/memories/old.md") is None
    assert tool.read("/memories/old.md", known_at=before) == "Miso is a grey cat."
    assert tool.read("/memories/pets/cat.md") == "Miso is a grey cat."
    assert [d.external_id for d in documents(client)] == [
        "memory:/memories/archive/proj/two.md",
        "memory:/memories/archive/proj/x/one.md",
        "memory:/memories/pets/cat.md",
    ]
    assert tool.read("/memories/proj/x/one.md", known_at=before) == "one"
    [cat] = documents(client, prefix="memory:/memories/pets/")
    assert cat.metadata == {"memory_path": "/memories/pets/cat.md", "bytes": 19, "renamed_from": "/memories/old.md"}


@pytest.mark.parametrize("path", ESCAPES)
def test_a_path_outside_memories_is_refused_and_nothing_is_written(tool, client, path):
    for command in (
        {"command": "create", "path": path, "file_text": "escaped"},
        {"command": "str_replace", "path": path, "old_str": "a", "new_str": "b"},
        {"command": "insert", "path": path, "insert_line": 0, "insert_text": "escaped"},
        {"command": "view", "path": path},
        {"command": "delete", "path": path},
        {"command": "rename", "old_path": "/memories/x", "new_path": path},
        {"command": "rename", "old_path": path, "new_path": "/memories/x"},
    ):
        message = refused(tool, **command)
        assert "/memories" in message
        assert "does not exist" not in message  # refused for the path itself, before any read
    assert documents(client) == []


def test_a_memory_file_is_recalled_by_donto_recall(tool, client):
    run(
        tool,
        command="create",
        path="/memories/preferences.md",
        file_text="# Preferences\nThe user takes their coffee black and hates oat milk.\n",
    )
    bundle = client.recall("How does the user take their coffee?", include_provenance=True)
    hits = [i for i in bundle.items if i.provenance and i.provenance.external_id == "memory:/memories/preferences.md"]
    assert hits and "coffee black" in hits[0].text


def test_the_async_tool_runs_every_command_in_any_event_loop(url, workspace, client):
    tool = DontoAsyncMemoryTool(base_url=url, api_key=ADMIN_KEY, workspace=workspace)

    async def first() -> list[str]:
        answers = [
            str(await tool.call({"command": "create", "path": "/memories/a.md", "file_text": "alpha\nbeta\n"})),
            str(
                await tool.call(
                    {"command": "str_replace", "path": "/memories/a.md", "old_str": "beta", "new_str": "gamma"}
                )
            ),
            str(
                await tool.call(
                    {"command": "insert", "path": "/memories/a.md", "insert_line": 2, "insert_text": "delta"}
                )
            ),
            str(await tool.call({"command": "view", "path": "/memories/a.md", "view_range": [2, 3]})),
        ]
        with pytest.raises(ToolError, match="would escape"):
            await tool.call({"command": "create", "path": "/memories/../a", "file_text": "x"})
        await tool.close()
        return answers

    async def second() -> list[str]:  # a new loop: a client of its own
        answers = [
            str(await tool.call({"command": "rename", "old_path": "/memories/a.md", "new_path": "/memories/d/a.md"})),
            str(await tool.call({"command": "view", "path": "/memories"})),
            str(await tool.call({"command": "delete", "path": "/memories/d"})),
            str(await tool.clear_all_memory()),
            str(await tool.read("/memories/d/a.md")),
        ]
        await tool.close()
        return answers

    created, replaced, inserted, viewed = asyncio.run(first())
    assert created == "File created successfully at: /memories/a.md"
    assert replaced.endswith("     1\talpha\n     2\tgamma\n     3\t")
    assert inserted == "The file /memories/a.md has been edited."
    assert viewed == "Here's the content of /memories/a.md with line numbers:\n     2\tgamma\n     3\tdelta"
    renamed, listing, deleted, cleared, gone = asyncio.run(second())
    assert renamed == "Successfully renamed /memories/a.md to /memories/d/a.md"
    assert listing.splitlines()[1:] == ["18B\t/memories", "18B\t/memories/d/", "18B\t/memories/d/a.md"]
    assert (deleted, cleared, gone) == ("Successfully deleted /memories/d", "All memory cleared", "None")
    assert documents(client) == []


def test_a_tool_takes_a_client_of_the_right_kind_or_the_keywords_not_both(url, client):
    with pytest.raises(TypeError, match="not both"):
        DontoMemoryTool(client=client, workspace="w")
    with pytest.raises(TypeError, match="donto.Client"):
        DontoMemoryTool(client=donto.AsyncClient(url))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="donto.AsyncClient"):
        DontoAsyncMemoryTool(client=client)  # type: ignore[arg-type]
    assert DontoMemoryTool(client=client).to_dict() == {"type": "memory_20250818", "name": "memory"}


# -- the SDK's tool runner, against a scripted Messages endpoint --------------------------------------


class ScriptedMessages:
    """POST /v1/messages on a loopback port: each request gets the next queued assistant content
    (a list of blocks; a tool_use block stops for its result), every request body kept."""

    def __init__(self) -> None:
        self.replies: deque[list[dict[str, Any]]] = deque()
        self.requests: list[dict[str, Any]] = []
        scripted = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)))
                scripted.requests.append(body)
                content = scripted.replies.popleft() if scripted.replies else [{"type": "text", "text": "Done."}]
                uses_tool = any(block["type"] == "tool_use" for block in content)
                message = {
                    "id": f"msg_{len(scripted.requests)}",
                    "type": "message",
                    "role": "assistant",
                    "model": body["model"],
                    "content": content,
                    "stop_reason": "tool_use" if uses_tool else "end_turn",
                    "stop_sequence": None,
                    "usage": {"input_tokens": 10, "output_tokens": 5},
                }
                data = json.dumps(message).encode()
                self.send_response(200)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}"
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def tool_use(self, n: int, **command: Any) -> list[dict[str, Any]]:
        return [
            {"type": "text", "text": "Let me check my memory."},
            {"type": "tool_use", "id": f"toolu_{n}", "name": "memory", "input": command},
        ]

    def results(self) -> list[dict[str, Any]]:
        """The tool_result blocks the runner sent back, in order."""
        return [
            block
            for request in self.requests
            for message in request["messages"]
            if message["role"] == "user" and isinstance(message["content"], list)
            for block in message["content"]
            if block.get("type") == "tool_result"
        ]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def messages() -> Iterator[ScriptedMessages]:
    server = ScriptedMessages()
    yield server
    server.close()


def script(messages: ScriptedMessages) -> None:
    messages.replies.extend(
        [
            messages.tool_use(1, command="view", path="/memories"),
            messages.tool_use(2, command="create", path="/memories/user.md", file_text="Name: Ann\nCoffee: black\n"),
            messages.tool_use(3, command="str_replace", path="/memories/user.md", old_str="tea", new_str="milk"),
            messages.tool_use(
                4, command="str_replace", path="/memories/user.md", old_str="black", new_str="flat white"
            ),
            messages.tool_use(5, command="create", path="/memories/../../etc/cron.d/x", file_text="* * * * * rm -rf /"),
            [{"type": "text", "text": "I'll remember that you now drink flat whites."}],
        ]
    )


def check_the_run(messages: ScriptedMessages, final: Any, client: donto.Client) -> None:
    assert final.content[0].text == "I'll remember that you now drink flat whites."
    results = messages.results()
    assert [r["tool_use_id"] for r in results] == ["toolu_1", "toolu_2", "toolu_3", "toolu_4", "toolu_5"]
    assert [bool(r.get("is_error")) for r in results] == [False, False, True, False, True]
    text = [r["content"] if isinstance(r["content"], str) else r["content"][0]["text"] for r in results]
    assert text[0].splitlines()[1:] == ["0B\t/memories"]
    assert text[1] == "File created successfully at: /memories/user.md"
    assert "did not appear verbatim" in text[2]
    assert "Coffee: flat white" in text[3]
    assert "would escape /memories directory" in text[4]
    assert messages.requests[0]["tools"] == [{"type": "memory_20250818", "name": "memory"}]
    assert [d.external_id for d in documents(client)] == ["memory:/memories/user.md"]
    [document] = documents(client)
    assert client.get_document_text(document.id) == "Name: Ann\nCoffee: flat white\n"


def test_the_sdk_s_tool_runner_drives_the_tool_from_claude_s_tool_use_blocks(messages, tool, client):
    script(messages)
    claude = anthropic.Anthropic(base_url=messages.base_url, api_key="scripted", max_retries=0)
    runner = claude.beta.messages.tool_runner(
        model="claude-scripted",
        max_tokens=1024,
        tools=[tool],
        messages=[{"role": "user", "content": "I switched from black coffee to flat whites."}],
    )
    check_the_run(messages, runner.until_done(), client)


def test_the_sdk_s_async_tool_runner_drives_the_async_tool(messages, url, workspace, client):
    script(messages)

    async def main() -> Any:
        async with DontoAsyncMemoryTool(base_url=url, api_key=ADMIN_KEY, workspace=workspace) as tool:
            claude = anthropic.AsyncAnthropic(base_url=messages.base_url, api_key="scripted", max_retries=0)
            runner = claude.beta.messages.tool_runner(
                model="claude-scripted",
                max_tokens=1024,
                tools=[tool],
                messages=[{"role": "user", "content": "I switched from black coffee to flat whites."}],
            )
            return await runner.until_done()

    check_the_run(messages, asyncio.run(main()), client)
