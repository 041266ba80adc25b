"""Google ADK's memory as donto turns and back (donto.integrations.adk_events): session names that keep
apps and users apart, an event's words as a turn with what its MemoryEntry needs in the metadata,
recall items back as the entries they were. Pure: no ADK (the unit tier has none), no server."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime
from typing import Any

import pytest

from donto.api.schemas.episodes import MAX_TURN_CHARS, TurnIn
from donto.integrations import adk_events as m

pytestmark = pytest.mark.unit

WHEN = datetime(2026, 3, 2, 9, 30, 15, 250000, tzinfo=UTC).timestamp()


def event(parts: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    return {
        "id": "evt-1",
        "author": "office",
        "timestamp": WHEN,
        "invocation_id": "inv-1",
        "partial": None,
        "content": {"role": "model", "parts": parts},
    } | fields


def item_of(turn: dict[str, Any], prefix: str = "[2 March 2026] ", suffix: str = "") -> dict[str, Any]:
    """The recall item donto makes of a turn: its text dated in front, perhaps noted after."""
    return {
        "subject": turn["speaker"],
        "text": prefix + turn["text"] + suffix,
        "relevance": 0.8,
        "metadata": turn["metadata"],
        "provenance": {"turn_ids": [turn["external_id"]], "session_id": "adk:office/ann/chat-1", "claim_ids": []},
    }


def test_a_session_is_named_by_app_user_and_id_and_none_can_pass_for_another():
    assert m.session_external_id("office", "ann", "chat-1") == "adk:office/ann/chat-1"
    assert m.session_prefix("office", "ann") == "adk:office/ann/"
    # A slash in a name is escaped, so user "ann/x" is never user "ann"'s session "x/…".
    tricky = m.session_external_id("office", "ann/x", "chat")
    assert tricky == "adk:office/ann%2Fx/chat" and not tricky.startswith(m.session_prefix("office", "ann"))
    names = [("office", "ann", "a/b"), ("office", "ann", "a%2Fb"), ("office", "ann/a", "b"), ("office/ann", "a", "b")]
    assert len({m.session_external_id(*n) for n in names}) == len(names)
    assert m.memories_external_id("office", "ann") == "adk:office/ann/%memories"
    assert m.session_external_id("office", "ann", "%memories") != m.memories_external_id("office", "ann")


def test_a_session_id_too_long_is_named_by_its_hash_and_names_too_long_are_refused():
    named = m.session_external_id("office", "ann", "s" * 600)
    assert len(named) <= 512 and named.startswith("adk:office/ann/%h")
    assert named == m.session_external_id("office", "ann", "s" * 600)
    with pytest.raises(ValueError, match="too long"):
        m.session_prefix("a" * 300, "u" * 300)
    with pytest.raises(ValueError, match="app_name"):
        m.session_prefix("", "ann")
    with pytest.raises(ValueError, match="user_id"):
        m.session_prefix("office", "")


def test_an_event_s_words_are_a_turn_keyed_by_its_id_spoken_by_its_author_when_it_happened():
    turn = m.turn_of_event(event([{"text": "thinking", "thought": True}, {"text": "Booked."}, {"text": "Code 4417."}]))
    assert turn is not None
    assert (turn["external_id"], turn["speaker"], turn["text"]) == ("evt-1", "office", "Booked.\nCode 4417.")
    assert turn["occurred_at"] == "2026-03-02T09:30:15.250000+00:00"
    kept = turn["metadata"][m.EVENT_KEY]
    assert (kept["role"], kept["timestamp"], kept["invocation_id"], kept["parts"]) == ("model", WHEN, "inv-1", [7, 10])
    TurnIn.model_validate(turn)  # what POST /v1/episodes takes


def test_an_event_with_no_words_or_still_streaming_is_not_a_turn():
    call = {"function_call": {"name": "book_room", "args": {"city": "Lisbon"}}}
    assert m.turn_of_event(event([call])) is None
    assert m.turn_of_event(event([{"function_response": {"name": "book_room", "response": {"ok": True}}}])) is None
    assert m.turn_of_event(event([{"text": "only thinking", "thought": True}])) is None
    assert m.turn_of_event(event([{"text": ""}])) is None
    assert m.turn_of_event(event([], content=None)) is None
    assert m.turn_of_event(event([{"text": "Boo"}], partial=True)) is None


def test_a_text_over_a_turn_s_bound_is_cut_there():
    turn = m.turn_of_event(event([{"text": "a" * MAX_TURN_CHARS}, {"text": "b" * 10}]))
    assert turn is not None and len(turn["text"]) == MAX_TURN_CHARS
    TurnIn.model_validate(turn)


def test_a_turn_s_recall_item_comes_back_as_its_event_was_whatever_donto_writes_around_it():
    turn = m.turn_of_event(event([{"text": "Booked [Lisbon] "}, {"text": "Code 4417."}]))
    assert turn is not None
    for prefix, suffix in (("[2 March 2026] ", ""), ("[2 March 2026; Thursday] ", " (a later statement: …)"), ("", "")):
        entry = m.entry_of_item(item_of(turn, prefix, suffix))
        assert entry is not None
        assert entry["content"] == {"role": "model", "parts": [{"text": "Booked [Lisbon] "}, {"text": "Code 4417."}]}
        assert (entry["id"], entry["author"]) == ("evt-1", "office")
        assert entry["timestamp"] == "2026-03-02T09:30:15.250000+00:00"
        assert entry["custom_metadata"] == {"donto": {"session": "adk:office/ann/chat-1", "relevance": 0.8}}


def test_an_explicit_memory_is_kept_once_with_its_own_fields_and_comes_back_as_given():
    given = {
        "content": {"role": "user", "parts": [{"text": "Ann's badge is B-7731."}]},
        "author": "ann",
        "timestamp": "2026-03-02T09:00:00",
        "custom_metadata": {"source": "hr"},
    }
    turn = m.turn_of_memory(given)
    assert turn is not None and turn == m.turn_of_memory(dict(given))  # the same entry: the same key
    assert turn["external_id"].startswith("memory-") and turn["occurred_at"] == "2026-03-02T09:00:00+00:00"
    assert m.turn_of_memory(given | {"id": "mem-1"})["external_id"] == "mem-1"  # type: ignore[index]
    assert m.turn_of_memory(given | {"timestamp": "last spring"})["occurred_at"] is None  # type: ignore[index]
    entry = m.entry_of_item(item_of(turn))
    assert entry is not None
    assert entry["content"] == given["content"] and (entry["author"], entry["timestamp"]) == ("ann", given["timestamp"])
    assert entry["custom_metadata"]["source"] == "hr" and entry["custom_metadata"]["donto"]["relevance"] == 0.8


def test_a_memory_whose_custom_metadata_donto_cannot_keep_is_refused_saying_so():
    too_big = {"content": {"parts": [{"text": "x"}]}, "custom_metadata": {"blob": "x" * 20_000}}
    with pytest.raises(ValueError, match="custom_metadata"):
        m.turn_of_memory(too_big)


def test_another_writer_s_turn_and_a_claim_come_back_as_donto_says_them_and_a_passage_not_at_all():
    other = {
        "subject": "user",
        "text": "[2 March 2026] hello",
        "relevance": 0.6,
        "metadata": None,
        "provenance": {"turn_ids": ["t-9"], "session_id": "adk:office/ann/chat-1", "claim_ids": []},
    }
    entry = m.entry_of_item(other)
    assert entry is not None and entry["content"] == {"role": "user", "parts": [{"text": "[2 March 2026] hello"}]}
    claim = {"subject": "ann", "text": "ann likes oat milk", "provenance": {"turn_ids": [], "claim_ids": ["c-1"]}}
    assert m.entry_of_item(claim)["id"] == "c-1"  # type: ignore[index]
    passage = {"subject": "Minutes", "text": "…", "provenance": {"turn_ids": [], "claim_ids": [], "document_id": "d"}}
    assert m.entry_of_item(passage) is None


def test_without_adk_the_adapter_refuses_to_import_naming_the_extra():
    blocked = "import sys; sys.modules['google.adk'] = None; import donto.integrations.adk"
    result = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True)
    assert result.returncode != 0
    assert 'pip install "donto-memory[adk]"' in result.stderr
