"""Neo4j stopped and started under load: clients get fast 503s with Retry-After, nothing
acknowledged is lost, and the service recovers by itself."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from donto.neo4j_local import LocalNeo4j
from donto.settings import ApiSettings, LocalNeo4jSettings, Neo4jSettings, Settings
from support import ADMIN_KEY, REPO, Api, claim, free_ports

# A request caught in flight as Neo4j shuts down waits out the shutdown (~4 s), then 3 s of retries
# with their backoff and a 2 s connect: ~12 s at worst on a loaded machine; every later one fails
# at once (the breaker), which the median shows.
SLOWEST_503_S = 20.0


@pytest.fixture
def own_neo4j(tmp_path: Path) -> Iterator[LocalNeo4j]:
    """A Neo4j of this test's own, to stop and start (the session's server is shared)."""
    bolt, http = free_ports(2)
    runtime = LocalNeo4jSettings().runtime
    local = LocalNeo4j(
        LocalNeo4jSettings(
            home=tmp_path / "neo4j",
            runtime=runtime if runtime.is_absolute() else REPO / runtime,
            bolt_port=bolt,
            http_port=http,
            password=SecretStr("outage-test"),
            heap="512m",
            pagecache="128m",
        )
    )
    local.install()
    local.start()
    try:
        yield local
    finally:
        local.stop()


def test_neo4j_stopped_under_load_gives_fast_503s_and_loses_nothing_acknowledged(own_neo4j: LocalNeo4j) -> None:
    settings = Settings(
        neo4j=Neo4jSettings(uri=own_neo4j.settings.bolt_uri, user="neo4j", password=SecretStr("outage-test")),
        api=ApiSettings(api_key=SecretStr(ADMIN_KEY), rate_limit_per_s=0),
    )
    from donto.api.main import create_app

    with TestClient(create_app(settings)) as client:
        api = Api(client, "outage")
        acknowledged: list[str] = []
        down: list[
            tuple[float, float, int, str | None, str]
        ] = []  # (sent after stop, seconds, status, Retry-After, body)
        stopped_at = [0.0]
        stop = threading.Event()

        def writer(n: int) -> None:
            i = 0
            while not stop.is_set():
                batch = [claim(f"w{n}-{i}-{k}", "holds", "x") for k in range(20)]
                started = time.monotonic()
                response = api.post("/v1/claims", json={"claims": batch})
                took = time.monotonic() - started
                if response.status_code == 201:
                    acknowledged.extend(c["id"] for c in response.json()["claims"])
                else:
                    down.append(
                        (
                            round(started - stopped_at[0], 1),
                            took,
                            response.status_code,
                            response.headers.get("Retry-After"),
                            response.text,
                        )
                    )
                i += 1

        threads = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
        for t in threads:
            t.start()
        time.sleep(2)
        stopped_at[0] = time.monotonic()
        own_neo4j.stop()
        time.sleep(8)  # writers keep writing against a stopped server
        health_started = time.monotonic()
        health = client.get("/health")
        health_took = time.monotonic() - health_started
        own_neo4j.start()
        recovered = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if client.get("/health").status_code == 200:
                recovered = time.monotonic()
                break
            time.sleep(0.5)
        time.sleep(2)  # writers succeed again
        stop.set()
        for t in threads:
            t.join(timeout=60)

        assert recovered is not None, "the API did not recover after Neo4j came back"
        assert down, "no request saw the outage"
        assert {status for _, _, status, _, _ in down} == {503}
        assert all(retry_after and int(retry_after) >= 1 for *_, retry_after, _ in down)
        tooks = sorted(took for _, took, *_ in down)
        print(
            f"503s: {len(tooks)}, median {tooks[len(tooks) // 2]:.2f} s, max {tooks[-1]:.2f} s; "
            f"health {health_took:.2f} s"
        )
        assert max(took for _, took, *_ in down) < SLOWEST_503_S and tooks[len(tooks) // 2] < 1.0
        assert health.status_code == 503 and health_took < SLOWEST_503_S
        assert "127.0.0.1" not in health.text and "bolt" not in health.text.lower()
        assert all("127.0.0.1" not in body and "bolt" not in body.lower() for *_, body in down)

        held = client.app.state.memory.graph.read(
            lambda tx: tx.run(
                "MATCH (c:Claim {workspace: 'outage'}) WHERE c.id IN $ids RETURN count(c) AS n", ids=acknowledged
            ).single()["n"]
        )
        assert held == len(acknowledged) == len(set(acknowledged))


def _settings_for(local: LocalNeo4j, password: str = "outage-test") -> Settings:
    return Settings(
        neo4j=Neo4jSettings(uri=local.settings.bolt_uri, user="neo4j", password=SecretStr(password)),
        api=ApiSettings(api_key=SecretStr(ADMIN_KEY), rate_limit_per_s=0),
    )


def test_the_api_started_before_neo4j_answers_503s_then_serves_once_it_does(own_neo4j: LocalNeo4j) -> None:
    # After a reboot, or in a compose file without a health dependency, the API may start first.
    own_neo4j.stop()
    from donto.api.main import create_app

    with TestClient(create_app(_settings_for(own_neo4j))) as client:
        api = Api(client, "late-neo4j")
        started = time.monotonic()
        health = client.get("/health")
        health_took = time.monotonic() - started
        assert health.status_code == 503
        assert health.json() == {"status": "unavailable", "state": "starting", "neo4j": "unreachable"}
        assert health_took < 3.0  # one try, no retries: a load balancer's check must not time out
        refused = api.post("/v1/claims", json={"claims": [claim("apple", "ceo_of", "tim-cook")]})
        assert refused.status_code == 503 and int(refused.headers["Retry-After"]) >= 1
        assert refused.json()["error"]["code"] == "backend_unavailable"

        own_neo4j.start()
        deadline = time.monotonic() + 60
        while client.get("/health").status_code != 200 and time.monotonic() < deadline:
            time.sleep(0.5)
        assert client.get("/health").json()["schema_version"] >= 8  # the schema was applied on first contact
        written = api.post("/v1/claims", json={"claims": [claim("apple", "ceo_of", "tim-cook")]})
        assert written.status_code == 201
        assert api.get("/v1/claims", params={"subject": "apple"}).json()["claims"][0]["object"] == {
            "entity": "tim-cook"
        }


def test_a_refused_neo4j_login_stops_the_start_with_a_reason_rather_than_waiting(own_neo4j: LocalNeo4j) -> None:
    from donto.api.main import create_app
    from donto.errors import Neo4jLoginRefused

    with (
        pytest.raises(Neo4jLoginRefused, match="refused the login"),
        TestClient(create_app(_settings_for(own_neo4j, password="not-the-password"))),
    ):
        pass
