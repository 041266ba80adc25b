"""The pure pieces of the conversation surface: turn and session cursors, a turn's metadata bounds
(as the request model refuses them, naming the field), and what an empty turn is embedded as (nothing)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from donto import cursors, metadata
from donto.api.schemas.episodes import EpisodeIn
from donto.embedding.turns import embed_turns, exchange_text, turn_texts
from donto.errors import InvalidInput, invalid_input


@pytest.mark.parametrize("session", ["chat-1", "team/chat 1", 'Zoë "quoted" 名前'])
def test_a_turn_cursor_round_trips_its_seq_within_its_session(session: str):
    cursor = cursors.encode_turn(session, 41)
    assert cursors.decode_turn(cursor, session, "after") == 41
    assert cursor.isascii() and not cursor.isdigit()  # never read as a bare seq


def test_a_bare_number_is_a_turns_seq():
    assert cursors.decode_turn("0", "s", "after") == 0
    assert cursors.decode_turn("41", "s", "before") == 41


@pytest.mark.parametrize(
    "cursor",
    [
        cursors.encode_turn("other-session", 3),
        cursors.encode_claim("01a2073e-6b4d-7d01-8000-000000000000"),
        cursors.encode("turns", "s", "x"),
        "-1",
        "1" * 19,
        "²",
        "not a cursor",
    ],
)
def test_a_turn_cursor_this_session_never_handed_out_is_refused_naming_the_parameter(cursor: str):
    with pytest.raises(InvalidInput) as refused:
        cursors.decode_turn(cursor, "s", "before")
    assert refused.value.field == "before"


def test_a_session_cursor_round_trips_its_id_and_refuses_a_turn_cursor():
    assert cursors.decode_session(cursors.encode_session("01a2073e-9a7b")) == "01a2073e-9a7b"
    with pytest.raises(InvalidInput) as refused:
        cursors.decode_session(cursors.encode_turn("s", 1))
    assert refused.value.field == "cursor"


def test_metadata_depth_counts_objects_and_arrays():
    assert metadata.depth({}) == 1
    assert metadata.depth({"a": [1, {"b": None}]}) == 3
    assert metadata.depth({"a": 1, "b": [[[]]]}) == 4


def test_metadata_within_its_bounds_is_kept_as_given_and_read_back_exactly():
    given = {"role": "user", "n": [1, 2.5, True, None], "名前": "Zoë ☕", "deep": {"a": {"b": {"c": {"d": {"e": {}}}}}}}
    assert metadata.depth(given) == 7
    assert metadata.read(metadata.serialise(metadata.check(given))) == given
    assert metadata.read(None) is None


def episode(turn_metadata: object) -> dict:
    turns = [{"external_id": "a", "speaker": "x", "text": "hi"}, {"external_id": "b", "speaker": "x", "text": "",
                                                                   "metadata": turn_metadata}]  # fmt: skip
    return {"session": {"external_id": "s"}, "turns": turns}


@pytest.mark.parametrize(
    "turn_metadata, says",
    [
        ({"blob": "x" * metadata.MAX_METADATA_BYTES}, "bytes as JSON; at most 16,384"),
        ({"é": "é" * 8190}, "bytes as JSON"),  # counted in UTF-8 bytes, not characters
        ({"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {}}}}}}}}}, "nests 9 levels deep; at most 8"),
        ([1, 2], "dictionary"),
        ("text", "dictionary"),
    ],
)
def test_metadata_past_its_bounds_is_refused_naming_the_turns_field(turn_metadata: object, says: str):
    with pytest.raises(ValidationError) as refused:
        EpisodeIn.model_validate(episode(turn_metadata))
    message, field = invalid_input({**refused.value.errors()[0], "loc": ("body", *refused.value.errors()[0]["loc"])})
    assert field == "turns[1].metadata" and says in message


def test_an_empty_turn_is_a_turn_and_metadata_may_be_left_out():
    body = EpisodeIn.model_validate(episode(None))
    assert [t.text for t in body.new_turns()] == ["hi", ""] and body.new_turns()[1].metadata is None


class Recording:
    def __init__(self) -> None:
        self.asked: list[list[str]] = []

    def encode(self, texts: list[str]) -> list[list[float]]:
        self.asked.append(texts)
        return [[float(i)] for i, _ in enumerate(texts)]


def test_an_empty_or_blank_turn_is_not_embedded_nor_the_context_of_the_next():
    turns = [
        {"speaker": "a", "text": "Where to?", "passages": [{"text": "Where to?"}]},
        {"speaker": "b", "text": "", "passages": []},
        {"speaker": "b", "text": " \n", "passages": []},
        {"speaker": "a", "text": "Lisbon.", "passages": [{"text": "Lisbon."}]},
    ]
    before = [None, turns[0], turns[1], turns[2]]
    assert turn_texts(turns, before) == ["a: Where to?", "a: Lisbon.", "a: Where to?", "a: Lisbon.", "a: Where to?",
                                         "a: Lisbon."]  # fmt: skip
    assert exchange_text(turns[2], turns[3]) == "a: Lisbon."
    encoder = Recording()
    embed_turns(encoder, turns, before)  # type: ignore[arg-type]
    assert [t["embedding"] is None for t in turns] == [False, True, True, False]
    assert [t["contextEmbedding"] is None for t in turns] == [False, True, True, False]
    nothing = [{"speaker": "a", "text": "", "passages": []}]
    embed_turns(encoder, nothing, [None])  # type: ignore[arg-type]
    assert nothing[0]["embedding"] is None and len(encoder.asked) == 1  # no call for nothing to encode
