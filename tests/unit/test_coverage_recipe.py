"""Recall's coverage arms are off by default, and on when asked for by name or weighed in."""

from __future__ import annotations

from donto.recall.coverage import COVER_ARMS, cover_params
from donto.recall.recipes import route


def test_coverage_arms_are_off_by_default_and_on_when_named_or_weighed():
    recipe = route("What are Kate's hobbies?")
    assert all(recipe.weights[arm] == 0.0 for arm in COVER_ARMS)
    named = recipe.only(["turn_vector", "session_cover"])
    assert named.weights == {"turn_vector": 1.0, "session_cover": 1.0}
    weighed = recipe.weighed({"session_cover_text": 0.5, "fulltext": 0.0})
    assert weighed.weights["session_cover_text"] == 0.5 and weighed.weights["fulltext"] == 0.0
    assert weighed.weights["session_cover"] == 0.0


def test_a_question_names_people_by_its_longer_words_and_a_wordless_one_leaves_the_text_arm_out():
    names = cover_params("speaker_cover", "Which cities have both Kate and Elise been to?", [0.1], 20)
    assert names is not None and {"kate", "elise", "cities"} <= set(names["cover_names"])
    assert "both" not in names["cover_names"]
    assert cover_params("session_cover_text", "and or the?", None, 20) is None
