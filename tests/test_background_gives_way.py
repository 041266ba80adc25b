"""The background claim embedder gives way to the API's requests, and still keeps up; when the
process is never quiet it takes slices, and only while no light request (a question) is in flight."""

from __future__ import annotations

import threading
import time

from donto.jobs.claim_embeddings import SLICE, ClaimEmbeddings
from donto.jobs.foreground import MAX_WAIT_S, QUIET_S
from support import Api, claim


def test_every_api_request_counts_as_foreground(client, memory, workspace: str) -> None:
    Api(client, workspace).get("/v1/claims")
    assert memory.foreground.quiet_for() < QUIET_S


def test_a_background_round_waits_for_a_quiet_moment_but_not_for_ever(client, memory, workspace: str) -> None:
    Api(client, workspace).write(claim("queued", "for", "embedding"))
    with memory.foreground.request():  # a request that runs for as long as the round does
        started = time.monotonic()
        memory.claim_embeddings.run_once()
        waited = time.monotonic() - started
    assert waited >= MAX_WAIT_S


def test_claims_get_embedded_in_the_background_while_requests_never_stop(client, memory, workspace: str) -> None:
    api = Api(client, workspace)
    api.write(*[claim(f"busy{i}", "knows", f"other{i}") for i in range(5)])
    deadline = time.monotonic() + 30
    with memory.foreground.request():  # the API's own worker thread has to take its batch anyway
        while time.monotonic() < deadline:
            if workspace not in {r["workspace"] for r in memory.graph.read_query("claims_pending_workspaces")}:
                break
            time.sleep(0.1)
    assert workspace not in {r["workspace"] for r in memory.graph.read_query("claims_pending_workspaces")}


def test_a_round_that_never_finds_a_quiet_moment_embeds_a_slice_once_no_light_request_runs(
    client, memory, workspace: str
) -> None:
    # A flood of batch writes (heavy) never leaves the process quiet; a recall (light) is in flight for
    # the first MAX_WAIT_S + 1 s. The round waits out both, then embeds a slice, not a whole batch.
    Api(client, workspace).write(*[claim(f"sliced{i}", "knows", f"other{i}") for i in range(3 * SLICE)])
    memory.workers.stop()  # this round alone drains the store meanwhile
    try:
        with memory.foreground.request(heavy=True):
            question = threading.Thread(target=_light_request, args=(memory, MAX_WAIT_S + 1.0))
            question.start()
            time.sleep(0.05)
            started = time.monotonic()
            memory.claim_embeddings.run_once()
            waited = time.monotonic() - started
            question.join()
        pending = memory.graph.read(
            lambda tx: tx.run("MATCH (c:PendingEmbedding {workspace: $w}) RETURN count(c) AS n", w=workspace).single()
        )["n"]
    finally:
        memory.workers.start()
    assert waited >= MAX_WAIT_S + 0.9
    assert pending == 2 * SLICE


def _light_request(memory, seconds: float) -> None:
    with memory.foreground.request():
        time.sleep(seconds)


def test_a_quiet_round_takes_batch_after_batch_until_its_workspace_is_embedded(client, memory, workspace: str) -> None:
    memory.workers.stop()  # this round alone drains the store meanwhile
    try:
        Api(client, workspace).write(*[claim(f"round{i}", "knows", f"other{i}") for i in range(3 * SLICE + 1)])
        # Nothing in flight for this one: quiet. A long round, so that a loaded machine's slow batches do not end it.
        embedded = ClaimEmbeddings(memory.graph, memory.encoder, batch=SLICE, round_s=600.0).run_once()
    finally:
        memory.workers.start()
    assert workspace not in {r["workspace"] for r in memory.graph.read_query("claims_pending_workspaces")}
    assert embedded >= 3 * SLICE + 1
