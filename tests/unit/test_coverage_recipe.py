"""Recall's coverage arms are on for a question that gathers across sessions, off for others unless
asked for by name or weighed in."""

from __future__ import annotations

from donto.recall.coverage import COVER_ARMS, cover_params
from donto.recall.english import ENGLISH
from donto.recall.question import read
from donto.recall.recipes import route

GATHERING = [
    "What are Kate's hobbies?",
    "Which cities have both Kate and Elise been to?",
    "What books did Emi read?",
    "What kinds of music does Tim like?",
    "Where has Melanie camped?",
    "How many pets does Nate have?",
    "Has Ann ever been to Peru?",
]
ONE_THING = [
    "Where does Maria live now?",
    "What is Kate's job?",
    "What does Ann like to eat?",
    "Which city did Tim visit in May?",
    "When did Melanie go camping?",
    "What has to be done before Friday?",
    "Why was Paola late?",
]


def test_a_question_that_gathers_across_sessions_is_told_from_one_about_one_thing():
    assert [q for q in GATHERING if not ENGLISH.gathers(q)] == []
    assert [q for q in ONE_THING if ENGLISH.gathers(q)] == []


def test_coverage_arms_are_on_for_a_gathering_question_and_otherwise_on_when_named_or_weighed():
    assert all(route(read(GATHERING[0])).weights[arm] == 1.0 for arm in COVER_ARMS)
    assert all(
        route(read(GATHERING[0])).weighed({arm: 0.0 for arm in COVER_ARMS}).weights[arm] == 0.0 for arm in COVER_ARMS
    )
    recipe = route(read("What is Kate's job?"))
    assert all(recipe.weights[arm] == 0.0 for arm in COVER_ARMS)
    named = recipe.only(["turn_vector", "session_cover"])
    assert named.weights == {"turn_vector": 1.0, "session_cover": 1.0}
    weighed = recipe.weighed({"session_cover_text": 0.5, "fulltext": 0.0})
    assert weighed.weights["session_cover_text"] == 0.5 and weighed.weights["fulltext"] == 0.0
    assert weighed.weights["session_cover"] == 0.0


def test_a_question_names_people_by_its_longer_words_and_a_wordless_one_leaves_the_text_arm_out():
    names = cover_params("speaker_cover", read("Which cities have both Kate and Elise been to?"), [0.1], 20)
    assert names is not None and {"kate", "elise", "cities"} <= set(names["cover_names"])
    assert "both" not in names["cover_names"]
    assert cover_params("session_cover_text", read("and or the?"), None, 20) is None


def test_the_kind_a_question_asks_after_is_the_words_before_its_verb():
    assert ENGLISH.asked_for("What animals are Nicolas and Nebraas discussing?") == "animals"
    assert ENGLISH.asked_for("What kind of films does Joanna enjoy?") == "films"
    assert ENGLISH.asked_for("Which cities has Kate visited?") == "cities"
    assert ENGLISH.asked_for("What movies or tv shows did Emi recommend to Paola?") == "movies or tv shows"
    assert ENGLISH.asked_for("How many pets does Nate have?") == "pets"
    assert ENGLISH.asked_for("What are Kate's hobbies?") == "hobbies"
    assert ENGLISH.asked_for("What are the names of Melanie's pets?") == "pets"
    assert ENGLISH.asked_for("What are some tips that Kate gave Elise?") == "tips"
    assert ENGLISH.asked_for("What were the books she read?") == "books"
    # no kind named, or a clause rather than a kind
    assert ENGLISH.asked_for("What is Kate doing?") is None
    assert ENGLISH.asked_for("What did Kate paint?") is None
    assert ENGLISH.asked_for("Where has Emi traveled?") is None
    assert ENGLISH.asked_for("What are they?") is None
    assert ENGLISH.asked_for("How many times has Elise been to Galveston?") is None  # a count of times
    assert ENGLISH.asked_for("How many hours of lessons did Paola have?") is None
    assert ENGLISH.asked_for("What it was that she said to him on the phone does matter?") is None


def test_only_a_gathering_question_blends_its_kind_into_the_vector_query():
    assert route(read("What books did Emi read?")).asked_for_weight > 0
    assert route(read("What book is Jon reading?")).asked_for_weight == 0
