"""A scripted OpenAI-compatible endpoint on a real socket: tests queue the replies it gives, and
donto's production client talks to it over HTTP like to any server.

Each queued `Reply` is served once, in order, to POST /v1/chat/completions; with none left, the
server answers `default` (an empty completion), or, when `respond` is set, what it answers for
the request's body (for requests that arrive in no fixed order: chunks extracted concurrently).
Every request body is kept in `requests`; `peak` is the most requests it ever had in flight at once."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from donto.settings import LLMSettings, Settings


@dataclass
class Reply:
    content: str = ""
    status: int = 200
    finish_reason: str = "stop"
    usage: dict[str, int] | None = field(default_factory=lambda: {"prompt_tokens": 100, "completion_tokens": 50})
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    refuse_response_format: bool = False  # answer 400 when the request carries response_format
    body: str | None = None  # a raw body instead of a completion


# A line of conversation and facts a model might find in it, shared by the extraction tests.
TEXT = "Melanie: I ran a charity race for mental health last Saturday. It was 5 km and my kids cheered."
RACE = {"id": "f1", "s": "Melanie", "p": "ran", "o": "charity race", "q": "I ran a charity race", "c": 0.95}
KM = {"id": "f2", "s": "charity race", "p": "distance_km", "o": 5, "q": "It was 5 km", "c": 0.9}
CARES = {
    "id": "f3",
    "s": "Melanie",
    "p": "cares about",
    "o": "mental health",
    "q": "for mental health",
    "hyp": True,
    "c": 0.6,
    "from": ["f1"],
}


def lines(*facts: dict[str, Any]) -> str:
    """Facts as the JSON lines the prompt asks for."""
    return "\n".join(json.dumps(f) for f in facts)


class ScriptedLLM:
    def __init__(self) -> None:
        self.replies: deque[Reply] = deque()
        self.requests: list[dict[str, Any]] = []
        self.default = Reply("")
        self.respond: Callable[[dict[str, Any]], Reply] | None = None
        self.in_flight = 0
        self.peak = 0
        self._generation = 0  # reset_peak() starts a new one: a reply still out from before is not counted
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def queue(self, *replies: Reply | str) -> None:
        for r in replies:
            self.replies.append(r if isinstance(r, Reply) else Reply(r))

    def _next(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            if self.replies:
                return self.replies.popleft()
        return self.respond(body) if self.respond else self.default

    def reset_peak(self) -> None:
        """Count from now: requests still in flight (a slow reply a killed worker left behind) are
        left out of `in_flight` and `peak` from here on."""
        with self._lock:
            self._generation += 1
            self.in_flight = self.peak = 0

    def _enter(self) -> int:
        with self._lock:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            return self._generation

    def _exit(self, generation: int) -> None:
        with self._lock:
            if generation == self._generation:
                self.in_flight -= 1

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        llm = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:  # keep test output clean
                pass

            def do_GET(self) -> None:
                self._send(200, json.dumps({"data": [{"id": "scripted", "object": "model"}]}))

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                self.generation = llm._enter()
                self.counted = True  # out of flight once the reply is written, not after: see _send
                try:
                    self._answer(body)
                finally:
                    self._leave()

            def _leave(self) -> None:
                if getattr(self, "counted", False):
                    self.counted = False
                    llm._exit(self.generation)

            def _answer(self, body: dict[str, Any]) -> None:
                reply = llm._next(body)
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                if reply.refuse_response_format and "response_format" in body:
                    llm.replies.appendleft(reply)  # served again to the retry without response_format
                    self._send(400, json.dumps({"error": {"message": "response_format is not supported"}}))
                    return
                if reply.body is not None or reply.status != 200:
                    self._send(reply.status, reply.body or json.dumps({"error": "scripted"}), reply.headers)
                    return
                completion: dict[str, Any] = {
                    "id": "cmpl-1",
                    "object": "chat.completion",
                    "model": body.get("model", "scripted"),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": reply.content},
                            "finish_reason": reply.finish_reason,
                        }
                    ],
                }
                if reply.usage is not None:
                    completion["usage"] = {**reply.usage, "total_tokens": sum(reply.usage.values())}
                self._send(200, json.dumps(completion), reply.headers)

            def _send(self, status: int, text: str, headers: dict[str, str] | None = None) -> None:
                data = text.encode()
                self._leave()  # before the client can read the reply and send its next request
                try:
                    self.send_response(status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(data)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
                    pass

        return Handler

    def start(self) -> None:
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@contextmanager
def scripted_llm() -> Iterator[ScriptedLLM]:
    server = ScriptedLLM()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def with_llm(settings: Settings, llm: ScriptedLLM, **llm_fields: Any) -> Settings:
    """`settings` with `llm` as the LLM endpoint and no background workers: tests run workers
    themselves, and a job they queue stays queued until they do."""
    return settings.model_copy(
        update={
            "llm": LLMSettings(
                base_url=llm.base_url, model="scripted", max_retries=1, structured_output="never", **llm_fields
            ),
            "api": settings.api.model_copy(update={"run_workers": False}),
        }
    )


def memorize_facts(api: Any, llm: ScriptedLLM, text: str, occurred_at: str, *facts: dict, **extra: Any) -> dict:
    """`text` memorized through POST /v1/memorize (`api`: tests/support.Api), the endpoint answering
    with `facts`; the answer, after checking the extraction succeeded."""
    llm.queue(lines(*facts))
    body = {"text": text, "occurred_at": occurred_at, "async": False, **extra}
    response = api.post("/v1/memorize", json=body)
    assert response.status_code == 200 and response.json()["extraction"] == "succeeded", response.text
    return dict(response.json())
