"""Helpers shared by the tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

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

    from app.api.main import create_app
    from app.api.server import uvicorn_config

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
