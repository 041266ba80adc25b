"""A query Neo4j stops at DONTO_QUERY_TIMEOUT_S is a 503 the client may retry, never a 500, and
not an outage: the next request runs as usual."""

from __future__ import annotations

import time

import pytest

from donto.api.errors import domain_response
from donto.errors import QueryTimedOut
from donto.graph.client import GraphClient

ENDLESS = "UNWIND range(1, 10000000000) AS x WITH x WHERE x < 0 RETURN count(*) AS n"


def test_a_query_past_its_timeout_is_a_retryable_503_and_the_next_query_runs(settings):
    with GraphClient(settings) as graph:
        started = time.monotonic()
        with pytest.raises(QueryTimedOut) as stopped:
            graph.read(lambda tx: tx.run(ENDLESS).single(), name="endless", timeout_s=1.0)
        assert time.monotonic() - started < 20  # Neo4j's monitor stops it within seconds of its timeout
        answer = domain_response(stopped.value)
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "5"
        assert b'"query_timeout"' in answer.body
        assert graph.read_query("health")  # not counted as Neo4j being down
