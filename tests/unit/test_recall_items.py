"""What the document-backed adapters (LangGraph's store, CrewAI's memory) make of a recall bundle:
each document under the adapter's prefix once, scored by its best passage. Pure: no server."""

from __future__ import annotations

from donto.api.schemas.recall import ProvenanceOut, RecallItemOut
from donto.integrations.recall_items import MAX_RECALL_K, best_by_document, recall_k


def item(external_id: str | None, relevance: float | None) -> RecallItemOut:
    provenance = ProvenanceOut(turn_ids=[], session_id=None, claim_ids=[], status=None, external_id=external_id)
    return RecallItemOut(
        subject="s", predicate="p", object=None, text="t", source="passages", provenance=provenance, relevance=relevance
    )


def test_a_document_is_scored_by_its_best_passage_and_kept_in_recalls_order():
    items = [item("lg:b", 0.4), item("lg:a", 0.7), item("lg:b", 0.9), item("lg:c", None)]
    scores = best_by_document(items, "lg:")
    assert scores == {"lg:b": 0.9, "lg:a": 0.7, "lg:c": 0.0}
    assert list(scores) == ["lg:b", "lg:a", "lg:c"]


def test_passages_of_other_documents_turns_and_claims_are_left_out():
    items = [item("other:x", 0.99), item(None, 0.8), item("lg:a", 0.5)]
    items.append(RecallItemOut(subject="s", predicate="said", object=None, text="t", source="turns", relevance=0.9))
    assert best_by_document(items, "lg:") == {"lg:a": 0.5}


def test_recall_asks_for_four_items_a_record_at_least_twenty_and_never_past_recalls_most():
    assert [recall_k(n) for n in (1, 5, 10, 50, 1000)] == [20, 20, 40, 200, MAX_RECALL_K]
