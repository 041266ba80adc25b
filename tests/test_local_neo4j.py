"""The local Neo4j Community server donto runs from Maven-resolved jars: a real JVM, no mocks.
Two server starts in all (one managed server for this module, one throwaway_server); the refusals
are checked before anything is launched, so they cost no start."""

from __future__ import annotations

import os
import socket
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from neo4j import GraphDatabase
from pydantic import SecretStr

from app.neo4j_local import LocalNeo4j, LocalNeo4jError, PortInUseError, throwaway_server
from app.settings import LocalNeo4jSettings
from support import REPO, free_ports

PASSWORD = "-starts-with-a-dash"  # the AdminTool once read such a password as an option


@pytest.fixture(scope="session")
def runtime() -> Path:
    """<runtime> of the default settings, installed if needed (seconds when ~/.m2 is warm)."""
    runtime = LocalNeo4jSettings().runtime
    runtime = runtime if runtime.is_absolute() else REPO / runtime
    LocalNeo4j(LocalNeo4jSettings(runtime=runtime)).install()
    return runtime


def local_settings(home: Path, runtime: Path) -> LocalNeo4jSettings:
    bolt, http = free_ports(2)
    return LocalNeo4jSettings(
        home=home,
        runtime=runtime,
        bolt_port=bolt,
        http_port=http,
        password=SecretStr(PASSWORD),
        heap="512m",
        pagecache="256m",
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory, runtime) -> Iterator[LocalNeo4j]:
    local = LocalNeo4j(local_settings(tmp_path_factory.mktemp("neo4j-home"), runtime))
    started = local.start()
    assert started.running and started.message.startswith("started")
    try:
        yield local
    finally:
        local.stop()


def run(local: LocalNeo4j, query: str, **params) -> list[dict]:
    with GraphDatabase.driver(local.settings.bolt_uri, auth=("neo4j", PASSWORD)) as driver:
        records, _, _ = driver.execute_query(query, params, database_="neo4j")
        return [record.data() for record in records]


def test_status_reports_the_running_server(server):
    status = server.status()
    assert status.running and status.pid
    assert status.bolt_uri == server.settings.bolt_uri
    assert status.browser_url == f"http://127.0.0.1:{server.settings.http_port}/browser/"
    assert status.user == "neo4j"
    assert status.data_dir == server.home / "data" and status.data_dir.is_dir()


def test_bolt_answers(server):
    assert run(server, "RETURN 1 AS one") == [{"one": 1}]


def test_browser_is_served(server):
    with urllib.request.urlopen(server.status().browser_url, timeout=10) as response:
        assert response.status == 200
        assert b"<html" in response.read().lower()


def test_vector_index_finds_the_nearest_node(server):
    run(
        server,
        "CREATE VECTOR INDEX vec_test IF NOT EXISTS FOR (n:VecTest) ON n.embedding "
        "OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}",
    )
    run(
        server,
        "UNWIND $rows AS row CREATE (:VecTest {name: row.name, embedding: row.embedding})",
        rows=[
            {"name": "x", "embedding": [1.0, 0.0, 0.0]},
            {"name": "y", "embedding": [0.0, 1.0, 0.0]},
            {"name": "z", "embedding": [0.0, 0.0, 1.0]},
        ],
    )
    run(server, "CALL db.awaitIndexes(60)")
    nearest = run(
        server,
        "CALL db.index.vector.queryNodes('vec_test', 1, $vector) YIELD node, score RETURN node.name AS name, score",
        vector=[0.1, 0.9, 0.05],
    )
    assert [row["name"] for row in nearest] == ["y"]


def test_fulltext_index_matches_words(server):
    run(server, "CREATE FULLTEXT INDEX ft_test IF NOT EXISTS FOR (n:FtTest) ON EACH [n.text]")
    run(
        server,
        "UNWIND $texts AS text CREATE (:FtTest {text: text})",
        texts=["the heron waded in the marsh", "a train left the station", "marsh birds at dawn"],
    )
    run(server, "CALL db.awaitIndexes(60)")
    hits = run(server, "CALL db.index.fulltext.queryNodes('ft_test', 'heron') YIELD node RETURN node.text AS text")
    assert hits == [{"text": "the heron waded in the marsh"}]


def test_start_when_already_running_says_so(server):
    status = server.start()
    assert status.running and status.message == "already running"
    assert status.pid == server.status().pid


def test_start_refuses_when_the_bolt_port_is_taken(tmp_path, runtime):
    local = LocalNeo4j(local_settings(tmp_path / "home", runtime))
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", local.settings.bolt_port))
        squatter.listen()
        with pytest.raises(PortInUseError, match=f"port {local.settings.bolt_port} .*already in use"):
            local.start()
    assert not local.status().running and not local.pid_file.exists()


def test_start_refuses_without_java(tmp_path, runtime):
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = str(tmp_path / "empty-bin")  # a PATH on which there is no java
    local = LocalNeo4j(local_settings(tmp_path / "home", runtime), env=env)
    with pytest.raises(LocalNeo4jError, match="Java is not installed"):
        local.start()


def test_start_refuses_without_jars(tmp_path):
    local = LocalNeo4j(local_settings(tmp_path / "home", tmp_path / "no-runtime"))
    with pytest.raises(LocalNeo4jError, match="donto neo4j install"):
        local.start()


def test_the_server_is_launched_with_the_main_class_its_jar_names(tmp_path, runtime):
    # 5.26 declares CommunityEntryPoint; 2026.x renamed it Neo4jCommunity (DONTO_NEO4J_VERSION=2026.x,
    # with a Java 21 in JAVA_HOME, starts that one).
    assert LocalNeo4j(local_settings(tmp_path, runtime))._entry_point() == "org.neo4j.server.CommunityEntryPoint"
    lib = tmp_path / "newer" / "lib"
    lib.mkdir(parents=True)
    with zipfile.ZipFile(lib / "neo4j-2026.08.1.jar", "w") as jar:
        jar.writestr("META-INF/services/org.neo4j.server.startup.EntryPoint", "org.neo4j.server.Neo4jCommunity\n")
    newer = local_settings(tmp_path, tmp_path / "newer").model_copy(update={"version": "2026.08.1"})
    assert LocalNeo4j(newer)._entry_point() == "org.neo4j.server.Neo4jCommunity"


def test_stop_leaves_no_process(server):
    # Runs last among this module's server tests (pytest keeps file order); the fixture's stop() repeats it.
    pid = server.status().pid
    server.stop()
    assert not _pid_alive(pid)  # not even a zombie: stop() reaps its own child
    assert not server.status().running and not server.pid_file.exists()
    server.stop()  # idempotent


def test_throwaway_server_runs_and_leaves_nothing_behind(tmp_path, runtime):
    with throwaway_server(runtime, parent=tmp_path) as (uri, user, password):
        (home,) = tmp_path.iterdir()
        pid = int((home / "run" / "donto-neo4j.pid").read_text())
        with GraphDatabase.driver(uri, auth=(user, password)) as driver:
            records, _, _ = driver.execute_query("RETURN 2 AS two")
            assert records[0]["two"] == 2
    assert not _pid_alive(pid)
    assert list(tmp_path.iterdir()) == []


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
