"""An OpenAI-compatible chat endpoint on a local socket that answers memorize with facts an LLM
already wrote: `bench locomo --replay-observations` replays LoCoMo's per-session `observation`
field (facts about each session, each naming the turn it rests on) through donto's production
extraction path, so the claim arm is judged with facts of LLM quality and no model at hand.

Each fact quotes its evidence turn's words; a request is answered with the facts whose quote stands
in the text it carries, so a session cut into several chunks gets each fact once, in its chunk."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

TEXT_MARK = "TEXT:\n"  # extraction/prompts.py puts the source after this line


class ReplayLLM:
    def __init__(self) -> None:
        self.facts: list[dict[str, Any]] = []  # the current session's
        self.requests = 0
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def answer(self, prompt: str) -> str:
        text = prompt.split(TEXT_MARK, 1)[-1]
        with self._lock:
            self.requests += 1
            return "\n".join(json.dumps(f) for f in self.facts if f["q"] in text)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        llm = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
                prompt = "\n".join(str(m.get("content", "")) for m in body.get("messages", []))
                reply = json.dumps(
                    {
                        "choices": [{"message": {"content": llm.answer(prompt)}, "finish_reason": "stop"}],
                        "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": 0},
                    }
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(reply)))
                self.end_headers()
                self.wfile.write(reply)

        return Handler


@contextmanager
def replay_llm() -> Iterator[ReplayLLM]:
    llm = ReplayLLM()
    thread = threading.Thread(target=llm._server.serve_forever, daemon=True)
    thread.start()
    try:
        yield llm
    finally:
        llm._server.shutdown()
        llm._server.server_close()


def observation_facts(observations: dict[str, Any], turn_text: dict[str, str]) -> list[dict[str, Any]]:
    """One session's observations ({speaker: [[sentence, dia_id(s)], ...]}) as facts in the prompt's
    format: the speaker noted the sentence, quoting the first evidence turn's words."""
    facts = []
    for speaker, items in observations.items():
        for sentence, evidence in items:
            ids = [e for e in str(evidence).replace(",", " ").replace(";", " ").split() if e in turn_text]
            if ids:
                facts.append({"s": speaker, "p": "noted", "o": sentence, "dt": "xsd:string", "q": turn_text[ids[0]]})
    return facts
