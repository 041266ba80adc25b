"""Helpers shared by the tests."""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

ADMIN_KEY = "test-admin-key"
REPO = Path(__file__).resolve().parent.parent  # the checkout under test


class Api:
    """The REST API as one workspace's admin caller sees it."""

    def __init__(self, client: TestClient, workspace: str, key: str = ADMIN_KEY):
        self.client = client
        self.workspace = workspace
        self.headers = {"Authorization": f"Bearer {key}", "X-Donto-Workspace": workspace}

    def request(self, method: str, path: str, **kw):
        return self.client.request(method, path, headers={**self.headers, **kw.pop("headers", {})}, **kw)

    def get(self, path: str, **kw):
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw):
        return self.request("POST", path, **kw)

    def put(self, path: str, **kw):
        return self.request("PUT", path, **kw)

    def patch(self, path: str, **kw):
        return self.request("PATCH", path, **kw)

    def write(self, *claims: dict) -> dict:
        response = self.post("/v1/claims", json={"claims": list(claims)})
        assert response.status_code == 201, response.text
        return response.json()

    def list(self, **params) -> list[dict]:
        response = self.get("/v1/claims", params=params)
        assert response.status_code == 200, response.text
        return response.json()["claims"]

    def episode(self, session: str, started: str, said: list[tuple[str, str]]) -> None:
        """A session of turns (speaker, text), their ids `<session>-<i>`."""
        response = self.post(
            "/v1/episodes",
            json={
                "session": {"external_id": session, "started_at": started},
                "turns": [
                    {"external_id": f"{session}-{i}", "speaker": who, "text": text}
                    for i, (who, text) in enumerate(said)
                ],
            },
        )
        assert response.status_code == 201, response.text


def claim(subject: str, predicate: str, obj: str | None = None, **extra) -> dict:
    """A claim body with an entity object (or pass object=... for a literal)."""
    body = {"subject": subject, "predicate": predicate}
    if obj is not None:
        body["object"] = {"entity": obj}
    body.update(extra)
    return body


def free_ports(count: int) -> list[int]:
    """Distinct free loopback ports (all held at once while chosen, so they differ)."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


@contextmanager
def served_api(settings) -> Iterator[int]:
    """The API under uvicorn on a free loopback port, in a thread, as `donto serve` runs it
    (app/api/server.py); yields the port."""
    import uvicorn

    from donto.api.main import create_app
    from donto.api.server import uvicorn_config

    [port] = free_ports(1)
    server = uvicorn.Server(uvicorn_config(create_app(settings), settings.api, "127.0.0.1", port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the API did not start"
        time.sleep(0.05)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def framework_scenario(url: str, framework: str, title: str, env: dict[str, str] | None = None) -> dict[str, Any]:
    """tests/frameworks/<framework>_scenario.py's report (JSON on its stdout), run once in
    .venv-<framework> against the API at `url` (the suite's `url` fixture) and a fresh workspace. A framework
    that pins what the server needs to other versions gets a virtualenv of its own: `make
    <framework>-venv` makes it, and `make test` makes it and names its python in
    DONTO_TEST_<FRAMEWORK>_PYTHON, so a missing one fails there and is skipped elsewhere."""
    variable = f"DONTO_TEST_{framework.upper()}_PYTHON"
    named = os.environ.get(variable)
    python = Path(named) if named else REPO / f".venv-{framework}" / "bin" / "python"
    if not python.exists():
        if named:
            pytest.fail(f"{variable}={named}: no such file (`make {framework}-venv` makes it)")
        pytest.skip(f"{title} runs in .venv-{framework}, not made here: `make {framework}-venv` makes it")
    scenario_env = {k: v for k, v in os.environ.items() if not k.startswith("DONTO_") and k != "PYTHONPATH"}
    scenario_env |= {"DONTO_URL": url, "DONTO_API_KEY": ADMIN_KEY}
    scenario_env["DONTO_WORKSPACE"] = f"{framework}-{uuid.uuid4().hex[:10]}"
    scenario_env.pop("OPENAI_API_KEY", None)  # a scenario asks no model: nothing may reach one
    scenario_env |= env or {}
    run = subprocess.run(
        [str(python), str(REPO / "tests" / "frameworks" / f"{framework}_scenario.py")],
        cwd=REPO,
        env=scenario_env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return json.loads(run.stdout)


def minimal_pdf(lines: list[str], title: str | None = None) -> bytes:
    """A one-page PDF whose text is `lines` (Helvetica, one per line), made here byte by byte as the
    PDF format lays it out: catalog, page tree, page, content stream, font, cross-reference table."""
    content = "BT /F1 12 Tf 72 720 Td 14 TL " + " ".join(f"({line}) Tj T*" for line in lines) + " ET"
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        " /Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(content)} >>\nstream\n{content}\nendstream",
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    if title is not None:
        objects.append(f"<< /Title ({title}) >>")
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    info = f" /Info {len(objects)} 0 R" if title is not None else ""
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R{info} >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return out


# A web page as served: navigation, a header and a footer around its main text.
PAGE = """<!doctype html><html><head><title>Garden committee minutes</title></head><body>
<nav><a href="/">Home</a> | <a href="/about">About us</a> | <a href="/contact">Contact</a></nav>
<header><h1>Riverside Allotments</h1></header>
<main><article><h2>Minutes, 2 March 2026</h2>
<p>Priya will order the compost bins before the spring fair. The committee agreed to spend up to 300 pounds.</p>
<p>The shed key now hangs in the library's back office. Ask Tom at the front desk for it.</p>
</article></main>
<footer>Copyright 2026 Riverside Allotments. Cookie settings. Privacy policy.</footer></body></html>"""


FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def text_image(lines: list[str], fmt: str = "PNG", size: int = 28, **save) -> bytes:
    """An image of `lines` drawn black on white with a real font (DejaVu Sans; Pillow's own scalable
    font where it is not installed), one line under another: a screenshot whose text is known."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(FONT), size) if FONT.exists() else ImageFont.load_default(size)
    width = max(int(font.getlength(line)) for line in lines) + 2 * size
    image = Image.new("RGB", (width, size * (2 * len(lines) + 1)), "white")
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((size, size * (2 * i + 1) - size // 2), line, fill="black", font=font)
    out = io.BytesIO()
    image.save(out, fmt, **save)
    return out.getvalue()


# What the retriever adapters' tests (tests/test_integration_langchain.py, tests/test_integration_llama_index.py)
# recall from: two chats, each a session, and a registered document.
MOVING = [
    ("Ann", "I'm moving to Porto in June; I found a flat near the river."),
    ("Bob", "Porto! What will you do about your cat?"),
    ("Ann", "My sister Clara will look after Miso the cat until I settle in."),
    ("Bob", "Are you keeping your job at Initech?"),
    ("Ann", "Yes, Initech lets me work remotely from Porto."),
    ("Bob", "Then let's have a farewell dinner on Friday at the Thai place."),
]
BOOK_CLUB = [
    ("Dee", "This month the book club reads The Left Hand of Darkness."),
    ("Eve", "I'll host the book club at my flat on the 14th."),
    ("Dee", "Great, I'll bring the cake to the book club."),
]
MINUTES = "Minutes of the board.\nThe Porto office opens in March 2025, led by Rui Costa.\nNothing else was decided."


def write_chats_and_minutes(memory) -> None:
    """Writes MOVING (session `moving`, 8 May 2023), BOOK_CLUB (session `book-club`, 2 June 2023) and MINUTES
    (a document, 20 November 2024) through `memory`, a donto.Client."""
    for session, started, said in (("moving", "2023-05-08", MOVING), ("book-club", "2023-06-02", BOOK_CLUB)):
        memory.add_turns(
            session={"external_id": session, "started_at": f"{started}T18:00:00Z"},
            turns=[
                {
                    "external_id": f"{session}-{i}",
                    "speaker": who,
                    "text": text,
                    "occurred_at": f"{started}T18:{i:02d}:00Z",
                }
                for i, (who, text) in enumerate(said)
            ],
        )
    memory.register_document(text=MINUTES, title="Board minutes", occurred_at="2024-11-20T10:00:00Z")


def workspace_with_chats_and_minutes(url: str, prefix: str) -> str:
    """A new workspace (named `prefix-<random>`) on the API at `url`, holding the two chats and the
    board minutes (write_chats_and_minutes); its name."""
    import donto

    workspace = f"{prefix}-{uuid.uuid4().hex[:10]}"
    with donto.Client(url, api_key=ADMIN_KEY, workspace=workspace) as memory:
        write_chats_and_minutes(memory)
    return workspace
