"""Two copies of donto side by side, each in its own home, on a real Neo4j: the first is the suite's
server and API, made a home by what `donto up` would record; the second a real `donto up` on other
ports. A second `up` refused for a port the first holds starts nothing and names the port; run from
inside either home, with no variable set, the CLI and donto.Client reach that home's servers only.
One Neo4j start (the second home's) beyond the suite's."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from donto.home import read_record, write_record
from donto.settings import LocalNeo4jSettings
from support import ADMIN_KEY, REPO, free_ports, served_api

RUNTIME = LocalNeo4jSettings().runtime
RUNTIME = RUNTIME if RUNTIME.is_absolute() else REPO / RUNTIME


def bare_env(**extra: str) -> dict[str, str]:
    """The environment of a user who set nothing of donto's."""
    kept = {k: v for k, v in os.environ.items() if k.startswith("DONTO_EMBEDDING_")}  # where this machine's model is
    return {k: v for k, v in os.environ.items() if not k.startswith(("DONTO_", "NEO4J_"))} | kept | extra


def donto(
    cwd: Path, *args: str, env: dict[str, str] | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "donto", *args],
        cwd=cwd,
        env=env or bare_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def neo4j_of(home: Path) -> list[int]:
    """The pids of any JVM running Neo4j out of this home."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if "org.neo4j.server." in command and f"--home-dir={home}" in command:
                found.append(int(proc.name))
    return found


@pytest.fixture(scope="module")
def first(tmp_path_factory, settings, neo4j_connection) -> Iterator[tuple[Path, str, int]]:
    """The running copy: its project folder, API URL and Bolt port, kept in its home as `donto up` keeps them."""
    uri, _, password = neo4j_connection
    if urlsplit(uri).hostname not in ("127.0.0.1", "localhost"):
        pytest.skip("the suite's Neo4j is not a local server")
    project = tmp_path_factory.mktemp("first")
    home = project / ".donto"
    (home / "neo4j").mkdir(parents=True)
    (home / "neo4j" / "password").write_text(password + "\n")
    (home / "api-key").write_text(ADMIN_KEY + "\n")
    served = settings.model_copy(update={"api": settings.api.model_copy(update={"run_workers": False})})
    with served_api(served) as port:
        write_record(home, {"DONTO_URL": f"http://127.0.0.1:{port}", "DONTO_NEO4J_BOLT_PORT": urlsplit(uri).port})
        yield project, f"http://127.0.0.1:{port}", urlsplit(uri).port or 7687


def second_env(bolt: int, http: int, **extra: str) -> dict[str, str]:
    neo4j = {
        "RUNTIME": str(RUNTIME),
        "BOLT_PORT": str(bolt),
        "HTTP_PORT": str(http),
        "HEAP": "512m",
        "PAGECACHE": "256m",
        "START_TIMEOUT_S": os.environ.get("DONTO_NEO4J_START_TIMEOUT_S", "300"),  # a busy machine starts slowly
    }
    return bare_env(**{f"DONTO_NEO4J_{k}": v for k, v in neo4j.items()}, **extra)


def test_up_refused_for_ports_the_first_copy_holds_names_them_and_starts_nothing(first, tmp_path):
    _, url, bolt = first
    [http] = free_ports(1)
    began = time.monotonic()
    refused = donto(tmp_path, "up", env=second_env(bolt, http, DONTO_URL=url))
    took = time.monotonic() - began
    assert refused.returncode == 1, refused.stdout + refused.stderr
    said = refused.stderr
    assert f"port {bolt} on 127.0.0.1 (Neo4j Bolt) is already in use" in said
    assert f"port {urlsplit(url).port} on 127.0.0.1 (the API) is already in use" in said
    assert "nothing was started" in said and "DONTO_NEO4J_BOLT_PORT" in said and "DONTO_URL" in said
    assert not neo4j_of(tmp_path / ".donto" / "neo4j") and not (tmp_path / ".donto" / "config.toml").exists()
    print(f"refused in {took:.1f} s")
    assert took < 20  # the CLI's imports; no Neo4j, app or model was started


@pytest.fixture(scope="module")
def second(tmp_path_factory, first) -> Iterator[tuple[Path, str]]:
    """A real `donto up` in a second home, on other ports, beside the first: its project folder and API URL."""
    project = tmp_path_factory.mktemp("second")
    bolt, http, api = free_ports(3)
    env = second_env(bolt, http, DONTO_PORT=str(api))  # the older name for the API's port still works
    up = subprocess.Popen(
        [sys.executable, "-m", "donto", "up"],
        cwd=project,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{api}"
    try:
        deadline = time.monotonic() + 600
        while True:
            assert up.poll() is None, up.stdout.read().decode() if up.stdout else ""
            assert time.monotonic() < deadline, "the second donto did not answer"
            try:
                if httpx.get(f"{url}/health", timeout=2).status_code == 200:  # its Neo4j answers it
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.5)
        yield project, url
    finally:
        if up.poll() is None:
            os.killpg(up.pid, signal.SIGINT)  # Ctrl-C: the API stops, and the Neo4j it started
            up.wait(timeout=60)
        stopped = donto(project, "neo4j", "stop")  # nothing left to stop: said, exit 0
        assert stopped.returncode == 0, stopped.stderr
        assert not neo4j_of(project / ".donto" / "neo4j")


def test_up_keeps_the_addresses_it_started_on_in_its_home(second):
    project, url = second
    record = read_record(project / ".donto")
    assert record["DONTO_URL"] == url and "DONTO_HOST" not in record and "DONTO_PORT" not in record
    assert {"DONTO_NEO4J_BOLT_PORT", "DONTO_NEO4J_HTTP_PORT"} <= set(record)


def test_commands_and_the_client_run_in_each_home_reach_that_homes_servers(first, second):
    first_project, first_url, _ = first
    second_project, second_url = second
    below = second_project / "notes"
    below.mkdir(exist_ok=True)
    made = donto(below, "keys", "create", "--workspace", "only-second")
    assert made.returncode == 0, made.stderr
    [key_id] = re.findall(r"key id (\S+) for workspace only-second", made.stderr)
    assert key_id in donto(below, "keys", "list").stdout
    assert key_id not in donto(first_project, "keys", "list").stdout
    status = donto(below, "neo4j", "status")
    assert f"bolt://127.0.0.1:{read_record(second_project / '.donto')['DONTO_NEO4J_BOLT_PORT']}" in status.stdout

    probe = "import donto; c = donto.Client(); print(c.base_url, c.request('GET', '/v1/predicates').status_code)"
    for project, url in ((below, second_url), (first_project, first_url)):
        asked = subprocess.run(
            [sys.executable, "-c", probe], cwd=project, env=bare_env(), capture_output=True, text=True, timeout=60
        )
        assert asked.returncode == 0, asked.stderr
        assert asked.stdout.split() == [url, "200"]  # and its home's admin key let it in
