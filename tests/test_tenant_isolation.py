"""One tenant's load never holds up another's requests."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

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

    memory.claim_embeddings.run_once()
    pending = memory.graph.read_query("claims_pending_workspaces")
    left = {r["workspace"]: r["pending"] for r in pending}
    assert second.workspace not in left  # served in the first round despite the other's backlog
