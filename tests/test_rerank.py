"""Recall's configurable fusion and its optional reranking stage, on a real graph: arm weights by
configuration, and the fused top turns re-scored by a second model (here the suite's own model as a
bi-encoder, the stand-in for a cross-encoder where none can be had offline)."""

from __future__ import annotations

import pytest
from test_recall import SESSION_1, SESSION_2

from donto.errors import InvalidInput
from donto.recall.rerank import Reranker
from donto.recall.service import RecallRequest, RecallService
from donto.temporal.scope import TimeScope
from support import Api


@pytest.fixture
def remembered(api: Api) -> None:
    for body in (SESSION_1, SESSION_2):
        assert api.post("/v1/episodes", json=body).status_code == 201


def service(memory, reranker: Reranker | None = None, **weights: float) -> RecallService:
    """A second recall service over the suite's graph and model, configured as a test needs."""
    return RecallService(memory.graph, memory.encoder, memory.walk, memory.claim_embeddings, weights, reranker)


def ask(recall: RecallService, workspace: str, query: str, **extra) -> list[tuple[str, str]]:
    request = RecallRequest(query, TimeScope.now(), k=8, include_provenance=True, **extra)
    return [(i.provenance.turn_ids[0], i.source) for i in recall.recall(workspace, request).items if i.provenance]


class Reversed(Reranker):
    """Scores the fused order backwards: whatever it reorders is plainly the reranker's doing."""

    def score(self, question: str, texts):
        return [float(i) for i in range(len(texts))]


def test_reranking_by_the_bi_encoder_puts_the_answer_first(memory, api: Api, remembered):
    reranked = ask(service(memory, Reranker(memory.encoder, depth=50)), api.workspace, "What did Melanie paint?")
    assert reranked[0][0] == "D2:3"


def test_the_reranker_reorders_the_fused_top_turns_and_can_be_skipped_per_request(memory, api: Api, remembered):
    question = "Where did Melanie go camping?"
    fused = [t for t, _ in ask(service(memory), api.workspace, question)]
    recall = service(memory, Reversed(memory.encoder, depth=4))
    assert [t for t, _ in ask(recall, api.workspace, question)] == fused[:4][::-1] + fused[4:]
    assert [t for t, _ in ask(recall, api.workspace, question, rerank=False)] == fused


def test_arm_weights_switch_arms_off_by_configuration_and_per_request(memory, api: Api, remembered):
    question = "Oscar puppy"
    vectors = ("turn_vector", "passage_vector", "exchange_vector", "claim_vector", "time_window")
    lexical_only = service(memory, session_fulltext=0.0, **dict.fromkeys(vectors, 0.0))
    found = ask(lexical_only, api.workspace, question)
    assert ("D2:2", "fulltext") in found and {s for _, s in found} <= {"fulltext", "neighbours"}
    vector_only = service(memory, fulltext=0.0, session_fulltext=0.0)
    assert {s for _, s in ask(vector_only, api.workspace, question)} <= {*vectors, "neighbours"}
    per_request = ask(service(memory), api.workspace, question, arm_weights={"fulltext": 0.0, "session_fulltext": 0.0})
    assert per_request == ask(vector_only, api.workspace, question)


def test_an_unknown_arm_or_a_negative_weight_is_refused_naming_it(memory):
    with pytest.raises(InvalidInput) as unknown:
        service(memory, bm25=1.0)
    assert unknown.value.field == "arm_weights.bm25"
    with pytest.raises(InvalidInput) as negative:
        service(memory, fulltext=-1.0)
    assert negative.value.field == "arm_weights.fulltext"


def test_a_model_with_a_sequence_classification_head_scores_as_a_cross_encoder(memory, api: Api, remembered, tmp_path):
    """A tiny untrained cross-encoder made here (the suite's model's tokenizer, one small layer)."""
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    from donto.embedding.encoder import Encoder

    tokenizer = AutoTokenizer.from_pretrained(memory.encoder.locate()[0])
    config = BertConfig(
        vocab_size=tokenizer.vocab_size, hidden_size=32, num_hidden_layers=1, num_attention_heads=2, num_labels=1
    )
    BertForSequenceClassification(config).save_pretrained(tmp_path)
    tokenizer.save_pretrained(tmp_path)
    scorer = Encoder(memory.settings.embedding.model_copy(update={"model": str(tmp_path)}))
    reranker = Reranker(scorer, depth=50)
    found = ask(service(memory, reranker), api.workspace, "What did Melanie paint?")
    assert reranker.cross_encoder is not None and len(reranker.score("q", ["a", "b"])) == 2
    assert {t for t, _ in found} == {t for t, _ in ask(service(memory), api.workspace, "What did Melanie paint?")}
