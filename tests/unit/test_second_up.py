"""A second `donto up` (or `donto serve`) in a home a copy already serves says that this copy runs
there, and where, and starts nothing: before, it found the API's port taken "by another process",
when that process was this very copy. The home records the serving copy (<home>/api.pid) for as
long as it runs; a record left by a copy that is gone is removed and the start goes on."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from donto import cli


@pytest.fixture
def other_donto():
    """A live process that is (by its command line) a donto."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "donto", "up"])
    yield process.pid
    process.kill()
    process.wait()


def test_a_second_up_in_a_served_home_names_the_copy_and_starts_nothing(tmp_path, monkeypatch, capsys, other_donto):
    home = tmp_path / ".donto"
    home.mkdir()
    (home / "api.pid").write_text(json.dumps({"pid": other_donto, "command": "up", "url": "http://127.0.0.1:8799"}))
    monkeypatch.setenv("DONTO_HOME", str(home))
    monkeypatch.setattr(cli, "_api_listener", lambda *a, **k: pytest.fail("a port was taken"))
    for command in (["up"], ["serve", "--port", "8799"]):
        assert cli.main(command) == 1
        said = capsys.readouterr().err
        assert said == (
            f"donto: donto is already running in this home ({home}): `donto up`, pid {other_donto}, API at "
            f"http://127.0.0.1:8799; nothing was started. Stop it with Ctrl-C where it runs, or `kill {other_donto}`\n"
        )
    assert (home / "api.pid").exists()  # still its record


class Listened(Exception):
    pass


def test_another_api_on_another_port_beside_a_served_home_is_no_second_copy(tmp_path, monkeypatch, other_donto):
    # several APIs against one store is a deployment (docs: beyond one machine), not a second copy
    home = tmp_path / ".donto"
    home.mkdir()
    (home / "api.pid").write_text(json.dumps({"pid": other_donto, "command": "up", "url": "http://127.0.0.1:8799"}))
    monkeypatch.setenv("DONTO_HOME", str(home))

    def listener(*args, **kwargs):
        raise Listened

    monkeypatch.setattr(cli, "_api_listener", listener)
    with pytest.raises(Listened):
        cli.main(["serve", "--port", "8798"])


def test_a_record_left_by_a_copy_that_is_gone_is_removed(tmp_path):
    gone = subprocess.Popen([sys.executable, "-c", "pass", "donto"])
    gone.wait()
    home = tmp_path / ".donto"
    home.mkdir()
    (home / "api.pid").write_text(json.dumps({"pid": gone.pid, "command": "up", "url": "http://127.0.0.1:8799"}))
    assert cli._running_copy(home) is None
    assert not (home / "api.pid").exists()


def test_a_live_process_that_is_no_donto_is_not_taken_for_one(tmp_path):
    stranger = subprocess.Popen(["sleep", "30"])
    try:
        home = tmp_path / ".donto"
        home.mkdir()
        (home / "api.pid").write_text(json.dumps({"pid": stranger.pid, "command": "up", "url": "http://x:1"}))
        assert cli._running_copy(home) is None  # a reused pid
    finally:
        stranger.kill()
        stranger.wait()


def test_the_serving_copy_is_recorded_while_it_runs_and_forgotten_after(tmp_path):
    from donto.home import ApiAddress

    home = tmp_path / ".donto"
    with cli._this_copy(home, ApiAddress("127.0.0.1", 8799, "http://127.0.0.1:8799")):
        record = json.loads((home / "api.pid").read_text())
        assert record["url"] == "http://127.0.0.1:8799" and record["command"] in ("up", "serve")
        assert cli._running_copy(home) is None  # this process itself is no second copy
    assert not (home / "api.pid").exists()


def test_while_neo4j_starts_the_held_port_answers_starting_then_hands_over(tmp_path):
    """`donto up` answers on the API's port while Neo4j starts; the API takes the same socket over."""
    import socket

    import httpx

    from donto.home import ApiAddress

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    listener = cli._api_listener(ApiAddress("127.0.0.1", port, f"http://127.0.0.1:{port}"))
    try:
        with cli._AnswerStarting(listener):
            health = httpx.get(f"http://127.0.0.1:{port}/health?x=1", timeout=5)
            other = httpx.post(f"http://127.0.0.1:{port}/v1/recall", json={"query": "q"}, timeout=5)
        assert (health.status_code, health.headers["retry-after"]) == (503, "2")
        assert health.json() == {"status": "unavailable", "state": "starting", "neo4j": "unreachable"}
        assert other.status_code == 503 and other.json()["error"]["code"] == "backend_unavailable"
        with socket.create_connection(("127.0.0.1", port), timeout=5):  # still listening: waits for the API
            pass
        assert listener.gettimeout() is None  # as the API's server expects it
    finally:
        listener.close()
