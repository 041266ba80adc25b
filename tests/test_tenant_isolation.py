"""One tenant's load never holds up another's requests, nor its data crowds out another's results."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

from donto.jobs.claim_embeddings import ClaimEmbeddings
from donto.temporal.scope import TimeScope
from support import Api, claim


def test_recall_waits_for_its_own_workspace_backlog_only(client, memory, workspace: str) -> None:
    quiet, noisy = Api(client, workspace), Api(client, workspace + "-noisy")
    quiet.write(claim("marie", "discovered", "polonium"))
    noisy.write(*[claim(f"n{i}", "knows", f"m{i}") for i in range(300)])

    held = memory.claim_embeddings._lock(noisy.workspace)  # as if a long drain of the noisy backlog ran
    with held, ThreadPoolExecutor(1) as pool:
        answer = pool.submit(quiet.post, "/v1/recall", json={"query": "who discovered polonium?"}).result(timeout=60)
    assert answer.status_code == 200
    assert any("polonium" in item["text"] for item in answer.json()["items"])  # its own write, embedded


def test_background_embedding_takes_a_batch_from_every_workspace_in_turn(client, memory, workspace: str) -> None:
    first, second = Api(client, workspace + "-a"), Api(client, workspace + "-b")
    first.write(*[claim(f"a{i}", "knows", f"b{i}") for i in range(memory.claim_embeddings.batch * 3)])
    second.write(claim("lonely", "knows", "someone"))

    # A round of its own: the app's background worker runs too, and a workspace whose lock it held
    # at that moment would be skipped by this round (by design: it is being drained), a race, not a rule.
    ClaimEmbeddings(memory.graph, memory.encoder, batch=memory.claim_embeddings.batch).run_once()
    pending = memory.graph.read_query("claims_pending_workspaces")
    left = {r["workspace"]: r["pending"] for r in pending}
    assert second.workspace not in left  # served in the first round despite the other's backlog


def _turns(api: Api, session: str, texts: list[str]) -> None:
    response = api.post(
        "/v1/episodes",
        json={
            "session": {"external_id": session, "started_at": "2024-05-01T10:00:00Z"},
            "turns": [{"external_id": f"{session}-{i}", "speaker": "Ann", "text": t} for i, t in enumerate(texts)],
        },
    )
    assert response.status_code == 201, response.text


def test_another_tenants_many_better_matches_leave_full_text_recall_its_own(client, memory, workspace: str) -> None:
    # The crowd's short turns outscore ours on BM25 and outnumber the candidates the arm ranks (4 x 60
    # for k = 20): filtered after Lucene, our one turn and session were crowded out of the ranking. (A
    # name that holds ours whole, "t-1-crowd" for "t-1", still can: cypher/recall_fulltext.cypher says why.)
    mine, crowd = Api(client, workspace), Api(client, "crowd-" + uuid.uuid4().hex[:12])
    for s in range(3):
        _turns(crowd, f"crowd-{s}", [f"Tomatoes {s} {i}." for i in range(120)])
    _turns(mine, "garden", ["I planted tomatoes along the old stone fence this spring, next to the basil."])

    bundle = mine.post("/v1/recall", json={"query": "tomatoes", "arms": ["fulltext"], "include_provenance": True})
    assert bundle.status_code == 200, bundle.text
    assert [t for item in bundle.json()["items"] for t in item["provenance"]["turn_ids"]] == ["garden-0"]
    sessions = memory.graph.read_list(
        "recall_session_fulltext",
        workspace=workspace,
        lucene="tomatoes",
        fulltext_candidates=2,  # fewer than the crowd's sessions
        limit=1,
        sessions=None,
        **TimeScope.now().params(),
    )
    assert [s["sessionExternalId"] for s in sessions] == ["garden"]


def test_another_tenants_many_better_matches_leave_memory_text_search_its_own(client, workspace: str) -> None:
    mine, crowd = Api(client, workspace), Api(client, "crowd-" + uuid.uuid4().hex[:12])
    for batch in range(2):  # more than the 100 candidates a search for one ranks
        observations = [{"text": f"Tomatoes {batch} {i}."} for i in range(100)]
        assert crowd.post("/v1/subjects/observations", json={"observations": observations}).status_code == 201
    body = {"observations": [{"text": "Ann planted tomatoes along the old stone fence, next to the basil."}]}
    assert mine.post("/v1/subjects/observations", json=body).status_code == 201

    found = mine.post("/v1/memory/search", json={"query": "tomatoes", "mode": "text", "limit": 1})
    assert found.status_code == 200, found.text
    assert [r["content"] for r in found.json()["results"]] == [body["observations"][0]["text"]]


def test_a_claim_made_by_hand_without_its_text_does_not_stop_the_embedder(client, memory, workspace: str) -> None:
    by_hand, other = workspace + "-browser", Api(client, workspace)
    memory.graph.write(
        lambda tx: tx.run(
            "CREATE (:Claim:PendingEmbedding {id: $w + '-1', workspace: $w, subject: 'ada', predicate: 'wrote', "
            "object: 'notes', txFrom: datetime()})",
            w=by_hand,
        ).consume()
    )
    other.write(claim("marie", "discovered", "polonium"))
    for w in (by_hand, other.workspace):  # a batch that raised would stop every workspace's round
        memory.claim_embeddings.drain(w, max_claims=10)
    left = {r["workspace"] for r in memory.graph.read_query("claims_pending_workspaces")}
    assert by_hand not in left and other.workspace not in left
