"""One tenant's flood does not starve another: a workspace's requests take turns (at most
DONTO_MAX_CONCURRENT_PER_WORKSPACE at once; the rest wait without a worker thread), and a write that
waits on its workspace's clock lock past the query timeout is a retryable 503, never a 500."""

from __future__ import annotations

import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from donto.errors import QueryTimedOut
from donto.graph.client import GraphClient, next_transaction_time
from support import Api, claim

FLOOD = 60  # more than the worker threads the server has (40), all queueing on one lock


def _holding_the_clock(settings, workspace: str):
    """An open transaction that holds `workspace`'s transaction clock: its writers queue behind it."""
    graph = GraphClient(settings)
    session = graph.driver.session(database=graph.database)
    tx = session.begin_transaction()
    next_transaction_time(graph, tx, workspace)  # type: ignore[arg-type]

    def release() -> None:
        tx.rollback()
        session.close()
        graph.close()

    return release


def test_a_tenant_whose_writes_queue_on_its_lock_leaves_another_tenant_served(client, settings):
    flooding, quiet = Api(client, f"flood-{uuid.uuid4().hex[:8]}"), Api(client, f"quiet-{uuid.uuid4().hex[:8]}")
    quiet.write(claim("ada", "knows", "grace"))
    with ThreadPoolExecutor(FLOOD) as pool:
        release = _holding_the_clock(settings, flooding.workspace)
        try:
            writes = [pool.submit(flooding.write, claim(f"subject-{i}", "knows", "grace")) for i in range(FLOOD)]
            time.sleep(1.0)  # the flood is in: its first turns wait on the lock, the rest on their turn
            started = time.monotonic()
            answer = quiet.get("/v1/claims", params={"subject": "ada"})
            waited = time.monotonic() - started
            held_up = sum(not w.done() for w in writes)
        finally:
            release()  # before the pool waits for the flood
        written = [w.result(timeout=120) for w in writes]
    assert answer.status_code == 200 and [c["object"] for c in answer.json()["claims"]] == [{"entity": "grace"}]
    assert waited < 5.0, f"the quiet tenant waited {waited:.1f} s behind another's flood"
    assert held_up == FLOOD  # the lock held the whole flood up: the test measured a flood
    times = sorted(w["recorded_at"] for w in written)
    assert len(set(times)) == FLOOD  # every write of the flood went in, each at its own transaction time


def test_a_write_waiting_on_its_workspace_lock_past_the_timeout_is_a_retryable_503(settings):
    workspace = f"locked-{uuid.uuid4().hex[:8]}"
    release = _holding_the_clock(settings, workspace)
    try:
        with GraphClient(settings) as graph:
            with pytest.raises(QueryTimedOut):
                graph.write(lambda tx: next_transaction_time(graph, tx, workspace), name="waits", timeout_s=1.0)
            assert graph.read_query("health")  # not counted as Neo4j being down
    finally:
        release()


def test_past_its_heavy_requests_in_flight_a_workspace_gets_429_while_its_light_ones_and_others_go_on(settings):
    from fastapi.testclient import TestClient
    from pydantic import SecretStr

    from donto.api.main import create_app
    from donto.settings import ApiSettings
    from support import ADMIN_KEY

    api = ApiSettings(
        api_key=SecretStr(ADMIN_KEY), run_workers=False, heavy_request_bytes=2048, max_heavy_per_workspace=3
    )
    batch = [claim(f"heavy-{i}", "knows", "grace") for i in range(40)]  # about 3 KB: heavy here
    with TestClient(create_app(settings.model_copy(update={"api": api}))) as client, ThreadPoolExecutor(3) as pool:
        busy, other = Api(client, f"busy-{uuid.uuid4().hex[:8]}"), Api(client, f"other-{uuid.uuid4().hex[:8]}")
        busy.write(claim("ada", "knows", "grace"))
        release = _holding_the_clock(settings, busy.workspace)
        try:
            # Three in flight: one running (waiting on the lock), two waiting for their turn.
            held = [pool.submit(busy.post, "/v1/claims", json={"claims": batch}) for _ in range(3)]
            time.sleep(1.0)
            refused = busy.post("/v1/claims", json={"claims": batch})
            light = busy.get("/v1/claims", params={"subject": "ada"})
            elsewhere = other.post("/v1/claims", json={"claims": batch})
        finally:
            release()
        answers = [h.result(timeout=60) for h in held]
        again = busy.post("/v1/claims", json={"claims": batch})
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
    assert refused.json()["error"]["code"] == "workspace_busy"
    assert light.status_code == 200 and elsewhere.status_code == 201  # light requests and other tenants go on
    assert [a.status_code for a in answers] == [201] * 3 and again.status_code == 201
