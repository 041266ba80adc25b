"""A deadlock among writers that outlasts the driver's retries is that request's 503 (backend_busy,
with Retry-After), not an outage: the next request runs at once, where an outage would refuse every
request for backend_retry_after_s."""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

from donto.api.errors import domain_response
from donto.errors import BackendBusy
from donto.graph.client import GraphClient


def test_a_deadlock_that_outlasts_the_retries_is_a_503_of_its_own_and_the_next_request_runs(settings):
    no_retries = settings.model_copy(update={"api": settings.api.model_copy(update={"backend_retry_s": 0.0})})
    first, second = f"busy-{uuid.uuid4().hex}", f"busy-{uuid.uuid4().hex}"
    both_hold_one = threading.Barrier(2, timeout=30)

    def lock_in_order(one: str, other: str):
        def work(tx):
            tx.run("MATCH (n:BusyProbe {id: $id}) SET n.touched = true", id=one).consume()
            both_hold_one.wait()  # each holds one node's lock and now asks for the other's
            tx.run("MATCH (n:BusyProbe {id: $id}) SET n.touched = true", id=other).consume()

        return work

    with GraphClient(no_retries) as graph:
        graph.write(lambda tx: tx.run("UNWIND $ids AS id CREATE (:BusyProbe {id: id})", ids=[first, second]).consume())
        try:
            with ThreadPoolExecutor(2) as pool:
                crossed = [
                    pool.submit(graph.write, lock_in_order(first, second), name="first-then-second"),
                    pool.submit(graph.write, lock_in_order(second, first), name="second-then-first"),
                ]
                outcomes = [f.exception(timeout=60) for f in crossed]
            busy = [e for e in outcomes if e is not None]
            assert len(busy) == 1 and isinstance(busy[0], BackendBusy), outcomes  # Neo4j picked one victim
            answer = domain_response(busy[0])
            assert answer.status_code == 503 and answer.headers["Retry-After"] == str(
                settings.api.backend_retry_after_s
            )
            assert b'"backend_busy"' in answer.body and b"deadlocks among concurrent writers" in answer.body
            assert graph.read_query("health")  # not counted as Neo4j being down
        finally:
            graph.write(
                lambda tx: tx.run("MATCH (n:BusyProbe) WHERE n.id IN $ids DELETE n", ids=[first, second]).consume()
            )
