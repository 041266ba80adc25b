"""Two tiers. tests/unit/ is the fast tier (marked `unit`): pure Python, no Java, Maven, Neo4j or
model; `pytest -m unit` runs it in seconds. Everything else is a graph test.

Every graph test runs against a real Neo4j server:
- default: a throwaway local Neo4j Community started for the session from the Maven-resolved jars;
- DONTO_TEST_NEO4J=docker: a testcontainers Neo4jContainer (neo4j:<LocalNeo4jSettings.version>-community),
  needs a Docker engine;
- DONTO_TEST_NEO4J=external: the server named by NEO4J_URI / NEO4J_USER / NEO4J_PASSWORD.
Tests share one database and isolate themselves by workspace, so none needs a wipe."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from scripted_llm import Reply, ScriptedLLM, scripted_llm, with_llm

from donto.embedding.encoder import Encoder
from donto.memory import Memory
from donto.settings import ApiSettings, EmbeddingSettings, LocalNeo4jSettings, Neo4jSettings, Settings
from support import ADMIN_KEY, REPO, Api, served_api

UNIT = REPO / "tests" / "unit"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(UNIT):
            item.add_marker(pytest.mark.unit)


@pytest.fixture(scope="session")
def neo4j_connection() -> Iterator[tuple[str, str, str]]:
    mode = os.environ.get("DONTO_TEST_NEO4J", "local")
    if mode == "docker":
        from testcontainers.neo4j import Neo4jContainer

        with Neo4jContainer(f"neo4j:{LocalNeo4jSettings().version}-community") as container:
            yield container.get_connection_url(), "neo4j", container.password
    elif mode == "external":
        yield os.environ["NEO4J_URI"], os.environ.get("NEO4J_USER", "neo4j"), os.environ["NEO4J_PASSWORD"]
    else:
        from donto.neo4j_local import throwaway_server

        runtime = LocalNeo4jSettings().runtime
        with throwaway_server(runtime if runtime.is_absolute() else REPO / runtime) as connection:
            yield connection


@pytest.fixture(scope="session")
def settings(neo4j_connection) -> Settings:
    uri, user, password = neo4j_connection
    # The API loads its model in the background after it starts (recall answers 503 model_warming_up
    # meanwhile); loaded once here, every app a test makes in this process starts with it ready.
    Encoder(EmbeddingSettings()).load()
    return Settings(
        neo4j=Neo4jSettings(uri=uri, user=user, password=SecretStr(password), database="neo4j"),
        # The suite shares this app, the admin key and one client address: limits high enough never to bite
        # (tests/test_keys_and_limits.py makes apps of its own with tight ones).
        api=ApiSettings(
            api_key=SecretStr(ADMIN_KEY),
            max_body_bytes=1024 * 1024,
            rate_limit_per_s=100_000,
            rate_limit_burst=100_000,
            auth_failure_limit=100_000,
        ),
    )


@pytest.fixture(scope="session")
def client(settings) -> Iterator[TestClient]:
    from donto.api.main import create_app

    with TestClient(create_app(settings)) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def memory(client) -> Memory:
    """The API's own Memory (app/memory.py): tests drive services and raw Cypher through it."""
    return client.app.state.memory


@pytest.fixture
def workspace() -> str:
    return "t-" + uuid.uuid4().hex[:12]


@pytest.fixture
def api(client, workspace) -> Api:
    return Api(client, workspace)


@pytest.fixture(scope="module")
def url(settings) -> Iterator[str]:
    """The API under uvicorn on a loopback port, one per test module, no background workers: its
    base URL, for a test that talks to donto over the network as a client or a framework does."""
    served = settings.model_copy(update={"api": settings.api.model_copy(update={"run_workers": False})})
    with served_api(served) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def llm() -> Iterator[ScriptedLLM]:
    """A scripted OpenAI-compatible endpoint on a real socket, one per test module."""
    with scripted_llm() as server:
        yield server


@pytest.fixture(scope="module")
def extracting(settings: Settings, llm: ScriptedLLM) -> Iterator[TestClient]:
    """An app whose LLM endpoint is the module's scripted one, and no workers: a test runs the jobs
    it queues itself. A module that needs another app defines its own."""
    from donto.api.main import create_app

    with TestClient(create_app(with_llm(settings, llm))) as client:
        yield client


@pytest.fixture
def xapi(extracting, workspace) -> Api:
    return Api(extracting, workspace)


@pytest.fixture
def fresh_script(llm: ScriptedLLM) -> None:
    """The scripted endpoint with no replies queued and none received: a module scripting each test
    names it in `pytestmark = pytest.mark.usefixtures("fresh_script")`."""
    llm.replies.clear()
    llm.requests.clear()
    llm.default = Reply("")
