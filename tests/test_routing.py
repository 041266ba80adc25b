"""donto through Neo4j's routing scheme (`neo4j://`, what Aura and clusters are reached by), against
the suite's single server, which answers routing requests with itself as the writer and reader."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from neo4j import Result
from neo4j.exceptions import ClientError, SessionExpired

from donto.graph.client import RETRY_DELAY_S
from donto.settings import Settings
from support import Api, claim


@pytest.fixture(scope="module")
def routed(settings: Settings) -> Iterator[TestClient]:
    from donto.api.main import create_app

    uri = settings.neo4j.uri
    assert uri and uri.startswith("bolt://")
    routed_settings = settings.model_copy(
        update={"neo4j": settings.neo4j.model_copy(update={"uri": "neo4j://" + uri.removeprefix("bolt://")})}
    )
    with TestClient(create_app(routed_settings)) as client:
        yield client


def test_the_routing_scheme_serves_writes_reads_walks_and_recall(routed: TestClient, workspace: str):
    graph = routed.app.state.memory.graph
    assert type(graph.driver).__name__ == "Neo4jDriver"  # the routing driver, not a direct Bolt one
    api = Api(routed, workspace)
    premise = api.write(claim("ada", "works-at", "analytical-engines"))["claims"][0]["id"]
    derived = api.write(claim("ada", "lives-in", "london", derived_from=[premise]))["claims"][0]["id"]

    # Read straight after write: the process's bookmarks make the read wait for the write.
    assert api.get(f"/v1/claims/{derived}").json()["object"] == {"entity": "london"}
    assert api.get(f"/v1/claims/{derived}/status").json()["status"] != "POTENTIALLY_STALE"
    assert api.post(f"/v1/claims/{premise}/retract").status_code == 200
    assert api.get(f"/v1/claims/{derived}/status").json()["status"] == "POTENTIALLY_STALE"

    episode = api.post(
        "/v1/episodes",
        json={
            "session": {"external_id": "s1", "started_at": "2024-05-01T10:00:00Z"},
            "turns": [{"external_id": "s1-0", "speaker": "Ada", "text": "I moved to London for the engine work."}],
        },
    )
    assert episode.status_code == 201, episode.text
    items = api.post("/v1/recall", json={"query": "Where did Ada move?"}).json()["items"]
    assert items, "recall found nothing through the routing driver"


def test_a_write_inside_a_read_transaction_is_refused_as_a_cluster_reader_would(routed: TestClient):
    # Reads run as read transactions, which a cluster routes to secondaries: a query that writes
    # there fails on this single server too, so the suite would catch one on a read path.
    graph = routed.app.state.memory.graph
    with pytest.raises(ClientError):
        graph.read(lambda tx: tx.run("CREATE (:RoutingProbe) RETURN 1").consume())


def test_a_one_statement_read_that_writes_is_refused_as_a_cluster_reader_would(routed: TestClient):
    # read_query, read_list and read_lists run one auto-commit statement in a read session: routed to
    # a secondary like a read transaction, so a write there must fail here too.
    graph = routed.app.state.memory.graph
    with pytest.raises(ClientError):
        graph._read_statement("CREATE (:RoutingProbe) RETURN 1 AS one", {}, "probe", lambda result: result.single())
    assert graph.read_query("server_version")[0]["version"]


def test_a_one_statement_read_is_retried_after_a_retryable_error_and_answers(routed: TestClient):
    graph = routed.app.state.memory.graph
    attempts = []

    def answer(result: Result) -> int:
        attempts.append(1)
        if len(attempts) == 1:  # a leader switch or a lost connection, as the driver reports it
            raise SessionExpired("the member this read was routed to left the cluster")
        return result.single(strict=True)["one"]

    assert graph._read_statement("RETURN 1 AS one", {}, "probe", answer) == 1
    assert len(attempts) == 2


def test_a_one_statement_read_is_not_retried_after_an_error_that_would_come_again(routed: TestClient):
    graph = routed.app.state.memory.graph
    started = time.monotonic()
    with pytest.raises(ClientError):
        graph._read_statement("RETURN 1 +", {}, "probe", lambda result: result.single())
    assert time.monotonic() - started < RETRY_DELAY_S  # no retry waited for
