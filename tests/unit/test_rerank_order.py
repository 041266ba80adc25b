"""The reranking stage's reorder and the configured arm weights, pure: no graph, no model."""

from __future__ import annotations

import json

from donto.recall.fusion import Candidate
from donto.recall.question import read
from donto.recall.recipes import DEFAULT, route
from donto.recall.rerank import is_cross_encoder, reorder


def ids(ranking: list[Candidate]) -> list[str]:
    return [c.id for c in ranking]


def test_reranked_turns_take_the_turn_places_in_the_top_and_claims_keep_theirs():
    ranking = [Candidate("turn", "a"), Candidate("claim", "c"), Candidate("turn", "b"), Candidate("turn", "d")]
    out = reorder(ranking, depth=3, scores={"a": 0.1, "b": 0.9, "d": 5.0})
    assert ids(out) == ["b", "c", "a", "d"]  # d is past the depth: not reranked, whatever its score


def test_a_turn_the_reranker_did_not_score_keeps_its_place():
    ranking = [Candidate("turn", "a"), Candidate("turn", "x"), Candidate("turn", "b")]
    assert ids(reorder(ranking, depth=3, scores={"a": 0.1, "b": 0.9})) == ["b", "x", "a"]


def test_configured_arm_weights_multiply_the_routed_recipe():
    weighed = route(read("What did Melanie paint?")).weighed({"fulltext": 0.5, "session_fulltext": 0.0})
    assert weighed.weights["fulltext"] == 0.75  # a named entity lifts full text 1.5x, then halved
    assert weighed.weights["session_fulltext"] == 0.0
    assert weighed.weights["turn_vector"] == DEFAULT.weights["turn_vector"]
    assert DEFAULT.weighed({}) is DEFAULT


def test_a_cross_encoder_is_told_by_its_sequence_classification_head(tmp_path):
    (tmp_path / "config.json").write_text(json.dumps({"architectures": ["BertForSequenceClassification"]}))
    assert is_cross_encoder(tmp_path / "config.json")
    (tmp_path / "config.json").write_text(json.dumps({"architectures": ["Gemma3TextModel"]}))
    assert not is_cross_encoder(tmp_path / "config.json")
    assert not is_cross_encoder(tmp_path / "missing" / "config.json")
