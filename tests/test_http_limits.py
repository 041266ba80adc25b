"""The limits a shared service needs, tried over a real socket against uvicorn as `donto serve`
runs it: slow or idle connections are closed, bodies are bounded in size and in time."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator

import httpx
import pytest

from support import ADMIN_KEY, Api, served_api

HEADER_TIMEOUT_S = 1.0
BODY_TIMEOUT_S = 1.0
MAX_BODY = 64 * 1024


@pytest.fixture(scope="module")
def served(settings) -> Iterator[int]:
    limited = settings.model_copy(
        update={
            "api": settings.api.model_copy(
                update={
                    "header_timeout_s": HEADER_TIMEOUT_S,
                    "body_timeout_s": BODY_TIMEOUT_S,
                    "max_body_bytes": MAX_BODY,
                    "run_workers": False,
                }
            )
        }
    )
    with served_api(limited) as port:
        yield port


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """True when the server closes the connection within `seconds`."""
    sock.settimeout(seconds)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_a_connection_that_sends_nothing_is_closed(served: int) -> None:
    with socket.create_connection(("127.0.0.1", served)) as sock:
        assert closed_within(sock, HEADER_TIMEOUT_S + 3)


def test_a_request_head_trickled_byte_by_byte_is_cut_off(served: int) -> None:
    with socket.create_connection(("127.0.0.1", served)) as sock:
        started = time.monotonic()
        head = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000
        try:
            for byte in head:
                sock.send(bytes([byte]))
                time.sleep(0.05)
                if time.monotonic() - started > HEADER_TIMEOUT_S + 3:
                    break
        except (BrokenPipeError, ConnectionResetError):
            pass  # closed under us: what we want
        assert closed_within(sock, 3)
        assert time.monotonic() - started < HEADER_TIMEOUT_S + 5


def test_a_body_sent_too_slowly_gets_408(served: int) -> None:
    with socket.create_connection(("127.0.0.1", served)) as sock:
        sock.sendall(
            b"POST /v1/claims HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + f"Authorization: Bearer {ADMIN_KEY}\r\nContent-Length: 100\r\n\r\n".encode()
            + b'{"claims": ['
        )
        sock.settimeout(BODY_TIMEOUT_S + 5)
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 408")


def test_a_chunked_body_over_the_limit_gets_413(served: int) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(MAX_BODY // 1024 + 10):
            yield b" " * 1024

    response = httpx.post(
        f"http://127.0.0.1:{served}/v1/claims",
        content=chunks(),
        headers={"Authorization": f"Bearer {ADMIN_KEY}", "Content-Type": "application/json"},
    )
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"


def test_kept_alive_connections_still_serve_many_requests(served: int) -> None:
    with httpx.Client(base_url=f"http://127.0.0.1:{served}") as client:
        assert [client.get("/health").status_code for _ in range(5)] == [200] * 5


def test_an_episode_with_too_much_text_for_one_request_is_refused_naming_the_field(api: Api) -> None:
    turns = [{"external_id": f"t{i}", "speaker": "a", "text": "word " * 3_000} for i in range(3)]
    response = api.post("/v1/episodes", json={"session": {"external_id": "long"}, "turns": turns})
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "turns"


def test_past_the_connection_cap_the_answer_is_donto_s_503_with_retry_after(settings) -> None:
    capped = settings.model_copy(
        update={"api": settings.api.model_copy(update={"max_connections": 3, "run_workers": False})}
    )
    with served_api(capped) as port:
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(3)]  # the cap, held open
        try:
            time.sleep(0.2)  # the server has taken them
            refused = httpx.get(f"http://127.0.0.1:{port}/health")
        finally:
            for sock in idle:
                sock.close()
        assert refused.status_code == 503
        assert refused.headers["Retry-After"] == "1"
        assert refused.headers["content-type"] == "application/json"
        assert refused.json()["error"]["code"] == "server_busy"
        time.sleep(0.2)  # the server has seen them close
        assert httpx.get(f"http://127.0.0.1:{port}/health").status_code == 200
