"""`donto reembed`: rebuild every vector for the configured embedding model (after
DONTO_EMBEDDING_MODEL changed): drop the vector indexes, encode turns, exchanges and passages
again (giving passages their turn's speaker), queue every claim and document passage for the embedder, derive every
session's text, then re-create the indexes at the model's dimension."""

from __future__ import annotations

from collections.abc import Callable

from donto.embedding.encoder import Encoder
from donto.embedding.turns import embed_turns
from donto.graph.client import VECTOR_INDEXES, GraphClient

PAGE = 256
CLAIM_PAGE = 10_000  # claims queued for the embedder per transaction


def reembed(
    graph: GraphClient, encoder: Encoder, embed_claims: Callable[[], int], report: Callable[[str], None] = print
) -> dict[str, int]:
    """`embed_claims` drains the embedding queue of claims and document passages (the job kind owns that work)."""
    for name in VECTOR_INDEXES:
        graph.write_query("index_drop", name=name)
    turns = passages = 0
    after = ""
    sessions: set[str] = set()
    while True:
        page = graph.read_query("reembed_turns_page", after=after, limit=PAGE)
        if not page:
            break
        before = [
            {"speaker": t["previousSpeaker"], "text": t["previousText"]} if t["previousText"] else None for t in page
        ]
        embed_turns(encoder, page, before)
        turn_rows = [
            {"id": t["id"], "embedding": t["embedding"], "contextEmbedding": t["contextEmbedding"]} for t in page
        ]
        passage_rows = [p for t in page for p in t["passages"]]
        graph.write_query("reembed_turns_write", turns=turn_rows, passages=passage_rows)
        sessions.update(t["sessionId"] for t in page)
        turns, passages, after = turns + len(turn_rows), passages + len(passage_rows), page[-1]["id"]
        report(f"  {turns} turns, {passages} passages")

    def requeue(page: Callable[[str], dict], kind: str) -> None:
        queued, after = 0, ""
        while (queued_page := page(after))["queued"]:
            queued, after = queued + queued_page["queued"], queued_page["last"]
            report(f"  {queued} {kind} queued")

    requeue(
        lambda after: graph.write_query("claims_queue_all_for_embedding", after=after, limit=CLAIM_PAGE)[0], "claims"
    )
    requeue(
        lambda after: graph.write_query("passages_queue_all_for_embedding", after=after, limit=CLAIM_PAGE)[0],
        "document passages",
    )
    claims = embed_claims()
    ordered = sorted(sessions)
    for start in range(0, len(ordered), PAGE):
        graph.write_query("session_text_write", session_ids=ordered[start : start + PAGE])
    graph.apply_schema(encoder.name, encoder.dimensions, replacing_vectors=True)
    # The indexes rebuild from the vectors on the nodes (minutes for a million); reembed ends when they
    # are online, while recall meanwhile runs without the arms whose index is building.
    while building := [row for row in graph.await_indexes(30) if row["state"] == "POPULATING"]:
        report("  indexes building: " + ", ".join(f"{row['name']} {row['percent']:.0f}%" for row in building))
    return {"turns": turns, "passages": passages, "claims": claims, "sessions": len(ordered)}
