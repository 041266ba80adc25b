"""What `bench episodes` counts as encoded: a request per session, or a request per turn."""

from datetime import UTC, datetime

from bench.episodes import request_texts

WHEN = datetime(2024, 1, 1, tzinfo=UTC)
TURNS = [
    {"speaker": "ann", "text": "Been to Lisbon?"},
    {"speaker": "bob", "text": "Yes, twice, with my sister in May. We loved the trams."},
]


def test_a_session_posted_whole_is_one_request_that_encodes_each_text_once():
    assert request_texts([("s1", WHEN, TURNS)], turn_by_turn=False) == [
        ["ann: Been to Lisbon?", f"bob: {TURNS[1]['text']}", f"ann: Been to Lisbon?\nbob: {TURNS[1]['text']}",
         "bob: Yes, twice, with my sister in May.", "bob: We loved the trams."]
    ]  # fmt: skip


def test_a_turn_posted_alone_is_encoded_with_the_turn_the_session_held_before_it():
    first, second = request_texts([("s1", WHEN, TURNS)], turn_by_turn=True)
    assert first == ["ann: Been to Lisbon?"]
    assert f"ann: Been to Lisbon?\nbob: {TURNS[1]['text']}" in second
    assert "ann: Been to Lisbon?" not in second
