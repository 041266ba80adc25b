"""Responses-API items as donto turns and back (donto.integrations.response_items): what each kind
of item says in words, the item kept exactly, large and deep items split into parts that join back,
other writers' turns read as messages. Pure: no SDK, no server."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest

from donto.api.schemas.episodes import MAX_TURN_CHARS, TurnIn
from donto.integrations.response_items import (
    ITEM_KEY,
    MAX_ITEM_BYTES,
    PART_KEY,
    ItemTooLarge,
    batches,
    items_of,
    split,
    turns_of,
)
from donto.metadata import MAX_METADATA_BYTES, serialise

pytestmark = pytest.mark.unit

ITEMS: list[dict[str, Any]] = [
    {"role": "user", "content": "What's the weather in Lisbon?"},
    {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [{"type": "output_text", "text": "Let me check.", "annotations": [], "logprobs": []}],
    },
    {"type": "function_call", "call_id": "call_1", "name": "get_weather", "arguments": '{"city":"Lisbon"}'},
    {"type": "function_call_output", "call_id": "call_1", "output": "sunny, 24 °C"},
    {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "The user wants weather."}]},
    {"type": "item_reference", "id": "msg_0"},
]


@dataclass(frozen=True)
class Stored:
    """A turn as a read hands it back (TurnOut's fields that matter here)."""

    id: str
    speaker: str
    text: str
    metadata: dict[str, Any] | None


def stored(turns: list[dict[str, Any]]) -> list[Stored]:
    # Through donto's own request model and its stored form (compact JSON), as a write and a read go.
    kept = [TurnIn.model_validate_json(json.dumps(t)) for t in turns]
    return [
        Stored(f"turn-{i}", t.speaker, t.text, json.loads(serialise(t.metadata)) if t.metadata else None)
        for i, t in enumerate(kept)
    ]


def test_each_kind_of_item_is_one_turn_saying_its_words_as_its_role_or_type():
    turns = [t for i, item in enumerate(ITEMS) for t in turns_of(item, f"item-{i}")]
    assert [(t["speaker"], t["text"]) for t in turns] == [
        ("user", "What's the weather in Lisbon?"),
        ("assistant", "Let me check."),
        ("function_call", 'get_weather({"city":"Lisbon"})'),
        ("function_call_output", "sunny, 24 °C"),
        ("reasoning", "The user wants weather."),
        ("item_reference", ""),
    ]
    assert [t["metadata"] for t in turns] == [{ITEM_KEY: item} for item in ITEMS]
    assert [t["external_id"] for t in turns] == [f"item-{i}" for i in range(len(ITEMS))]


def test_items_read_back_exactly_and_in_order():
    turns = [t for i, item in enumerate(ITEMS) for t in turns_of(item, f"item-{i}", datetime.now(UTC))]
    read = items_of(stored(turns))
    assert [r.item for r in read] == ITEMS
    assert [r.turn_ids for r in read] == [(f"turn-{i}",) for i in range(len(ITEMS))]


def test_a_tool_output_over_the_metadata_bound_is_split_into_parts_that_join_back_exactly():
    output = ('He said "stop" \\ then ' + "ação ✓ 🚀 \n\t" * 40) * 200  # escapes, non-ASCII, astral
    item = {"type": "function_call_output", "call_id": "call_9", "output": output}
    turns = turns_of(item, "big")
    assert len(turns) > 1 and [t["external_id"] for t in turns] == [f"big.{i}" for i in range(len(turns))]
    assert all(len(serialise(t["metadata"]).encode("utf-8")) <= MAX_METADATA_BYTES for t in turns)
    assert turns[0]["text"] == output[:MAX_TURN_CHARS] and {t["text"] for t in turns[1:]} == {""}
    [read] = items_of(stored(turns))
    assert read.item == item and read.turn_ids == tuple(f"turn-{i}" for i in range(len(turns)))


def test_an_item_nested_deeper_than_donto_keeps_is_split_too():
    deep: dict[str, Any] = {"leaf": "x"}
    for _ in range(10):
        deep = {"in": deep}
    item = {"type": "mcp_call", "name": "tool", "arguments": "{}", "output": "ok", "extra": deep}
    turns = turns_of(item, "deep")
    assert PART_KEY in turns[0]["metadata"]
    assert [r.item for r in items_of(stored(turns))] == [item]


def test_a_split_item_missing_a_part_is_left_out_not_handed_back_broken():
    big = {"type": "function_call_output", "call_id": "c", "output": "y" * (3 * MAX_METADATA_BYTES)}
    turns = [*turns_of(ITEMS[0], "a"), *turns_of(big, "big"), *turns_of(ITEMS[1], "b")]
    held = stored(turns)
    del held[2]  # one part retracted
    assert [r.item for r in items_of(held)] == [ITEMS[0], ITEMS[1]]


def test_an_item_over_the_item_bound_is_refused_naming_its_size():
    with pytest.raises(ItemTooLarge, match="over the 4,194,304"):
        turns_of({"type": "function_call_output", "call_id": "c", "output": "z" * MAX_ITEM_BYTES}, "huge")


def test_an_item_that_is_not_json_is_refused_saying_so():
    with pytest.raises(TypeError, match="must be JSON"):
        turns_of({"role": "user", "content": {1, 2}}, "set")
    with pytest.raises(TypeError, match="is a dict"):
        turns_of("hello", "str")  # type: ignore[arg-type]


def test_other_writers_turns_read_as_messages_and_empty_ones_are_left_out():
    held = [
        Stored("t1", "user", "hi", None),
        Stored("t2", "Ada", "I moved to Porto.", None),
        Stored("t3", "assistant", "   ", {"model": "x"}),
        Stored("t4", "assistant", "Noted.", {"model": "x"}),
    ]
    assert [r.item for r in items_of(held)] == [
        {"role": "user", "content": "hi"},
        {"role": "user", "content": "Ada: I moved to Porto."},
        {"role": "assistant", "content": "Noted."},
    ]


def test_split_pieces_fit_their_budget_and_join_to_the_text():
    text = '"\\' * 50 + "é" * 100 + "\x00" * 7
    pieces = split(text, 40)
    assert "".join(pieces) == text
    assert all(len(json.dumps(p, ensure_ascii=False).encode()) - 2 <= 40 for p in pieces)


def test_writes_are_cut_into_requests_within_donto_s_bounds_keeping_order():
    turns = [{"external_id": str(i), "speaker": "user", "text": "x" * 30, "metadata": None} for i in range(10)]
    cut = batches(turns, max_turns=4, max_chars=100, max_bytes=10_000)
    assert [[t["external_id"] for t in b] for b in cut] == [["0", "1", "2"], ["3", "4", "5"], ["6", "7", "8"], ["9"]]
    assert [len(b) for b in batches(turns, max_turns=4, max_chars=1000, max_bytes=10_000)] == [4, 4, 2]


def test_without_the_sdk_the_adapter_refuses_to_import_naming_the_extra():
    blocked = "import sys; sys.modules['agents'] = None; import donto.integrations.openai_agents"
    result = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True)
    assert result.returncode != 0
    assert 'pip install "donto-memory[openai-agents]"' in result.stderr
