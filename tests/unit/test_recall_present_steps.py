"""Recall's present step and claims' competition on hand-made rankings: no graph, no model."""

from __future__ import annotations

from datetime import UTC, datetime

from donto.recall.english import ENGLISH
from donto.recall.fusion import Candidate
from donto.recall.present import claims_compete, latest_first
from donto.recall.question import read
from donto.recall.recipes import route


def unit(id: str, speaker: str, source: str, month: int, embedding: list[float], text: str | None = None) -> dict:
    return {
        "id": id,
        "externalId": id,
        "speaker": speaker,
        "source": source,
        "occurredAt": f"2024-{month:02}-01T00:00:00Z",  # as Cypher's toString() writes it
        "text": text or f"It is {id} now.",  # a statement of what holds now, which can replace
        "embedding": embedding,
    }


def test_questions_about_now_are_told_by_their_words():
    assert read("Where does Maria live now?").about_now and read("Does Sam still play the cello?").about_now
    assert not read("Where did Maria live in March?").about_now
    for question in (
        "Where does Maria work today?",
        "What is Tom's latest job?",
        "Is Sam no longer teaching?",
        "Which car did Maria buy most recently?",
        "What is Priya's most recent diet?",
    ):
        assert read(question).about_now, question
    # "recently" alone tells of a past occasion ("What workshop did Caroline attend recently?")
    assert not read("What workshop did Caroline attend recently?").about_now
    # a time named that is not today: the question is about then
    assert not read("What was John currently doing as a volunteer in August 2023?").about_now
    assert read("Is Sam still in Cardiff today?").about_now
    assert read("What is John currently doing in August 2023?", datetime(2023, 8, 20, tzinfo=UTC)).about_now


def test_a_question_about_now_is_asked_without_the_full_text_arms_unless_it_names_one():
    now, then = route(read("Where does Maria live now?")), route(read("Where did Maria live in March?"))
    assert now.latest_first and not then.latest_first
    off = [arm for arm, weight in now.weights.items() if weight == 0 and then.weights[arm] > 0]
    assert sorted(off) == ["document_fulltext", "fulltext", "session_fulltext"]
    assert now.only(["fulltext", "turn_vector"]).weights == {"turn_vector": 1.0, "fulltext": 1.0}


def test_configured_weights_leave_the_full_text_arms_off_for_a_question_about_now_and_zero_keeps_a_named_arm_off():
    question = "Where does Maria live now?"
    halved = route(read(question)).weighed({"fulltext": 0.5, "session_fulltext": 0.5})  # the quality profile's
    assert halved.weights["fulltext"] == 0.0 and halved.weights["session_fulltext"] == 0.0
    assert route(read(question)).only(["fulltext"]).weighed({"fulltext": 0.5}).weights == {"fulltext": 0.5}
    assert route(read("What is Kate's job?")).only(["fulltext"]).weighed({"fulltext": 0.0}).weights == {"fulltext": 0.0}


def test_the_order_earlier_steps_set_stays_where_nothing_was_replaced():
    # "elsewhere" was put first by an earlier step (the first items spread over sessions), not by score
    ranking = [
        Candidate("turn", "elsewhere", 1.0),
        Candidate("turn", "berlin", 3.0),
        Candidate("turn", "chatter", 2.0),
        Candidate("turn", "moved", 0.5),
    ]
    units = {
        "elsewhere": unit("elsewhere", "Ben", "may", 5, [0.0, 0.0, 1.0]),
        "berlin": unit("berlin", "Maria", "march", 3, [1.0, 0.1, 0.0]),
        "chatter": unit("chatter", "Ben", "june", 6, [0.0, 1.0, 0.0]),
        "moved": unit("moved", "Maria", "august", 8, [1.0, 0.2, 0.0]),
    }
    ranked, _ = latest_first(ranking, units, top=4, replaces=ENGLISH.replaces, asks=ENGLISH.asks)
    assert [c.id for c in ranked] == ["elsewhere", "moved", "berlin", "chatter"]
    unmoved, replaced = latest_first(
        ranking[:1] + ranking[2:3], units, top=2, replaces=ENGLISH.replaces, asks=ENGLISH.asks
    )
    assert [c.id for c in unmoved] == ["elsewhere", "chatter"] and replaced == {}


def test_the_later_statement_on_the_same_matter_takes_the_earlier_ones_place_and_is_named():
    ranking = [Candidate("turn", "berlin", 3.0), Candidate("turn", "chatter", 2.0), Candidate("turn", "moved", 1.0)]
    units = {
        "berlin": unit("berlin", "Maria", "march", 3, [1.0, 0.1, 0.0]),
        "chatter": unit("chatter", "Ben", "june", 6, [1.0, 0.1, 0.0]),  # alike, but someone else said it
        "moved": unit("moved", "Maria", "august", 8, [1.0, 0.2, 0.0]),
    }
    ranked, replaced = latest_first(ranking, units, top=3, replaces=ENGLISH.replaces, asks=ENGLISH.asks)
    assert [c.id for c in ranked] == ["moved", "berlin", "chatter"]
    assert list(replaced) == ["berlin"] and replaced["berlin"].external_id == "moved"


def test_a_chain_of_replacements_reads_newest_first_each_link_above_the_one_it_replaced():
    ranking = [
        Candidate("turn", "berlin", 3.0),
        Candidate("turn", "other", 2.5),
        Candidate("turn", "moved", 2.0),
        Candidate("turn", "bike", 1.0),
    ]
    units = {
        "berlin": unit("berlin", "Maria", "march", 3, [1.0, 0.1, 0.0]),
        "other": unit("other", "Ben", "may", 5, [0.0, 0.0, 1.0]),
        "moved": unit("moved", "Maria", "august", 8, [1.0, 0.2, 0.0]),
        "bike": unit("bike", "Maria", "november", 11, [1.0, 0.15, 0.0]),
    }
    ranked, replaced = latest_first(ranking, units, top=4, replaces=ENGLISH.replaces, asks=ENGLISH.asks)
    # berlin's most to-the-point successor is the move, the move's the bike: the move is lifted just
    # above berlin, the bike just above the move
    assert [c.id for c in ranked] == ["bike", "moved", "berlin", "other"]
    assert {k: v.external_id for k, v in replaced.items()} == {"berlin": "bike", "moved": "bike"}


def test_a_plan_a_visit_or_a_guess_by_the_same_speaker_replaces_nothing():
    ranking = [Candidate("turn", "glasgow", 3.0), Candidate("turn", "skye", 2.0)]
    for later in (
        "Thinking about a hiking trip to Skye in May, if work lets me.",
        "I visited Skye for a weekend, the hills were lovely.",
        "Maybe I will get a dog someday, not sure.",
    ):
        units = {
            "glasgow": unit("glasgow", "Lena", "october", 10, [1.0, 0.1], "I left nursing and moved to Glasgow."),
            "skye": unit("skye", "Lena", "january", 12, [1.0, 0.12], later),
        }
        ranked, replaced = latest_first(ranking, units, top=2, replaces=ENGLISH.replaces, asks=ENGLISH.asks)
        assert [c.id for c in ranked] == ["glasgow", "skye"] and replaced == {}, later


def test_a_question_stated_nothing_so_nothing_replaces_it():
    ranking = [Candidate("turn", "asked", 3.0), Candidate("turn", "said", 2.0)]
    units = {
        "asked": unit("asked", "Ann", "may", 5, [1.0, 0.1], "Hey Mel, what's been up since we talked?"),
        "said": unit("said", "Ann", "june", 6, [1.0, 0.12], "My friends have been my rock since the move."),
    }
    ranked, replaced = latest_first(ranking, units, top=2, replaces=ENGLISH.replaces, asks=ENGLISH.asks)
    assert [c.id for c in ranked] == ["asked", "said"] and replaced == {}


def test_statements_on_different_matters_are_left_in_place():
    ranking = [Candidate("turn", "home", 2.0), Candidate("turn", "car", 1.0)]
    units = {"home": unit("home", "Maria", "a", 3, [1.0, 0.0]), "car": unit("car", "Maria", "b", 8, [0.0, 1.0])}
    ranked, replaced = latest_first(ranking, units, top=2, replaces=ENGLISH.replaces, asks=ENGLISH.asks)
    assert [c.id for c in ranked] == ["home", "car"] and replaced == {}


def test_a_current_claim_passes_the_units_it_is_nearer_than_and_its_predecessor_is_not_lifted():
    ranking = [
        Candidate("turn", "chatter", 3.0),
        Candidate("turn", "words-only", 2.5),
        Candidate("claim", "berlin", 0.4),
        Candidate("claim", "amsterdam", 0.3),
    ]
    near = {("turn", "chatter"): 0.80, ("claim", "berlin"): 0.92, ("claim", "amsterdam"): 0.90}
    ranked = claims_compete(ranking, near, {"berlin": ["amsterdam"]})
    assert [c.id for c in ranked] == ["amsterdam", "chatter", "words-only", "berlin"]
