"""donto's TCK adapter (tests/tck_bridge.py) and `bench tck`'s runner: donto's answers mapped onto the
agent-memory TCK's data model, the kit's registry and report read, and the bridge's answers to what
donto does not do (no kit, no server)."""

import uuid

from fastapi.testclient import TestClient
from tck_bridge import (
    DontoBridge,
    bridge_app,
    claim_hits,
    conversation_of,
    entity_claims,
    entity_of,
    fact_of,
    message_of,
    preference_claim,
    preference_of,
    session_info_of,
    step_text,
    tool_stats_of,
    trace_of,
    turn_hits,
)

from bench.tck import outcomes_of, registry_test_id, scenario_ids, tiers_of

TURN = {
    "id": "01a23503-5c0c-7ab7-a0f6-21e7b2237caa",
    "external_id": "m-1",
    "session": "chat-1",
    "seq": 0,
    "speaker": "assistant",
    "text": "",
    "occurred_at": "2026-12-02T10:00:00Z",
    "recorded_at": "2026-12-02T10:00:01Z",
    "retracted_at": None,
    "retraction_reason": None,
    "metadata": {"source": "test", "nested": {"count": 42}},
}
SESSION = {
    "id": "01a23503-4507-7dca-b4f4-31e2a521cb0c",
    "external_id": "chat-1",
    "started_at": None,
    "recorded_at": "2026-12-02T10:00:01Z",
    "turn_count": 3,
    "first_at": "2026-12-02T10:00:00Z",
    "last_at": "2026-12-02T10:05:00Z",
}


def test_a_turn_is_a_message_its_speaker_the_role_its_metadata_as_kept():
    assert message_of(TURN) == {
        "id": TURN["id"],
        "role": "assistant",
        "content": "",
        "timestamp": "2026-12-02T10:00:00Z",
        "embedding": None,
        "metadata": {"source": "test", "nested": {"count": 42}},
    }
    assert message_of({**TURN, "occurred_at": None, "metadata": None})["timestamp"] == TURN["recorded_at"]
    assert message_of({**TURN, "metadata": None})["metadata"] == {}


def test_a_session_is_session_info_with_its_live_turns_counted():
    assert session_info_of(SESSION) == {
        "session_id": "chat-1",
        "message_count": 3,
        "created_at": "2026-12-02T10:00:01Z",  # no started_at: when donto recorded it
        "updated_at": "2026-12-02T10:05:00Z",
    }


def test_a_conversation_is_the_session_with_its_turns_and_one_never_held_has_none():
    held = conversation_of("chat-1", SESSION, [TURN], "ws")
    assert held["id"] == SESSION["id"] and [m["id"] for m in held["messages"]] == [TURN["id"]]
    never = conversation_of("chat-2", None, [], "ws")
    assert never["messages"] == [] and never["session_id"] == "chat-2"
    assert uuid.UUID(never["id"]) and never["id"] == conversation_of("chat-2", None, [], "ws")["id"]
    assert never["id"] != conversation_of("chat-2", None, [], "other")["id"]


def test_an_entity_is_its_type_claim_with_its_description_beside_it():
    claims = entity_claims("Café de 世界", "LOCATION", "a café")
    assert [c["predicate"] for c in claims] == ["is_a", "description"]
    assert entity_claims("Bob", "PERSON", None) == [
        {"subject": "Bob", "predicate": "is_a", "object": {"literal": {"datatype": "xsd:string", "value": "PERSON"}}}
    ]
    entity = entity_of({**claims[0], "id": "c1", "tx_from": "2026-12-02T10:00:00Z"}, "a café")
    assert (entity["id"], entity["name"], entity["type"], entity["description"]) == (
        "c1",
        "Café de 世界",
        "LOCATION",
        "a café",
    )
    assert entity["created_at"] == "2026-12-02T10:00:00Z"


def test_a_preference_keeps_its_category_in_the_predicate_and_its_context_as_the_claims():
    claim = preference_claim("food", "Likes pizza", "at work")
    assert (claim["subject"], claim["predicate"], claim["context"]) == ("user", "prefers:food", "at work")
    assert "context" not in preference_claim("food", "Likes pizza", None)
    assert preference_of({**claim, "id": "p1"}) == {
        "id": "p1", "category": "food", "preference": "Likes pizza", "context": "at work", "embedding": None
    }  # fmt: skip
    fact = {"id": "f1", "subject": "Alice", "predicate": "WORKS_AT", "object": {"entity": "Acme"}}
    assert preference_of(fact) is None
    assert fact_of(fact) == {
        "id": "f1",
        "subject": "Alice",
        "predicate": "WORKS_AT",
        "object": "Acme",
        "embedding": None,
    }


def test_a_bundles_turns_are_read_best_first_once_each_and_below_the_threshold_left_out():
    items = [
        {"predicate": "said", "relevance": 0.9, "provenance": {"session_id": "a", "turn_ids": ["t1", "t2"]}},
        {"predicate": "said", "relevance": 0.3, "provenance": {"session_id": "a", "turn_ids": ["t3"]}},
        {"predicate": "said", "provenance": {"session_id": "b", "turn_ids": ["t1", "t2"]}},
        {"predicate": "said", "provenance": {"session_id": "a", "turn_ids": ["t2"]}},
        {"predicate": "works_at", "object": "acme", "provenance": {"session_id": None, "claim_ids": ["c1"]}},
        {"predicate": "lives_in", "object": "paris", "provenance": {"claim_ids": ["c2", "c1"]}},
    ]
    assert turn_hits(items, 0.5) == [("a", "t1"), ("a", "t2"), ("b", "t1"), ("b", "t2")]
    assert ("a", "t3") in turn_hits(items, 0.0)
    assert claim_hits(items) == ["c1", "c2"]


def test_the_kits_registry_and_report_are_read(tmp_path):
    registry = tmp_path / "tck" / "registry"
    registry.mkdir(parents=True)
    (registry / "scenario_ids.yaml").write_text(
        "# header\nSCN-B-001:\n  spec_clause: SPEC-1.1.1\n  test_id: test_schema::TestA::test_one\n  tier: bronze\n"
    )
    assert scenario_ids(tmp_path) == {"test_schema::TestA::test_one": "SCN-B-001"}
    assert registry_test_id("tck/tests/v1/test_schema.py::TestA::test_one") == "test_schema::TestA::test_one"
    report = {
        "tests": [
            {"nodeid": "x.py::A::ok", "outcome": "passed", "call": {"outcome": "passed"}},
            {"nodeid": "x.py::A::no", "outcome": "failed", "call": {"crash": {"message": "E\nRuntimeError: 501"}}},
            {"nodeid": "x.py::A::er", "outcome": "error", "setup": {"longrepr": "boom"}},
        ]
    }
    assert [(o.outcome, o.reason) for o in outcomes_of(report)] == [
        ("passed", ""), ("failed", "RuntimeError: 501"), ("failed", "boom")
    ]  # fmt: skip
    assert tiers_of("bronze,silver") == ["bronze", "silver-long-term", "silver-reasoning"]


def test_the_bridge_answers_501_for_what_donto_does_not_do_and_a_fresh_workspace_for_clear_all_data():
    bridge = DontoBridge("http://127.0.0.1:9", "key", "tck-test")  # nothing here reaches a server
    with TestClient(bridge_app(bridge)) as http:
        assert http.post("/setup").json()["ok"] is True
        first = bridge.workspace
        assert http.post("/clear_all_data").status_code == 204
        assert bridge.workspace != first and bridge.workspaces == ["tck-test-0", "tck-test-1"]
        for method in ("merge_duplicate_entities", "create_conversation"):
            answer = http.post(f"/{method}", json={})
            assert answer.status_code == 501 and answer.json()["error"].startswith("not implemented: ")
        assert http.post("/add_message", json={"nonsense": 1}).status_code == 400


def trace_turn(seq: int, text: str, metadata: dict, speaker: str = "agent") -> dict:
    return {
        **TURN,
        "id": f"00000000-0000-4000-8000-{seq:012d}",
        "session": "trace:t-1",
        "seq": seq,
        "speaker": speaker,
        "text": text,
        "metadata": metadata,
    }


def test_a_trace_is_its_sessions_turns_the_task_steps_with_their_tool_calls_and_the_outcome():
    step_kept = {"kind": "step", "step_number": 1, "thought": "look", "action": "search", "observation": None}
    call_kept = {
        "kind": "tool_call",
        "step_id": "00000000-0000-4000-8000-000000000001",
        "tool_name": "find",
        "arguments": {"q": "Alice"},
        "result": [1],
        "status": "success",
        "duration_ms": 12,
        "error": None,
    }
    turns = [
        trace_turn(0, "Find Alice", {"kind": "task", "session_id": "s-A"}),
        trace_turn(1, step_text("look", "search", None), step_kept),
        trace_turn(2, 'find({"q": "Alice"})', call_kept, speaker="tool:find"),
        trace_turn(3, "Found her", {"kind": "outcome", "success": True}),
    ]
    trace = trace_of("t-1", turns)
    assert (trace["task"], trace["session_id"], trace["outcome"], trace["success"]) == (
        "Find Alice",
        "s-A",
        "Found her",
        True,
    )
    assert turns[1]["text"] == "thought: look\naction: search"
    [step] = trace["steps"]
    assert (step["step_number"], step["thought"], step["action"], step["observation"]) == (1, "look", "search", None)
    assert step["tool_calls"] == [
        {
            "id": turns[2]["id"],
            "tool_name": "find",
            "arguments": {"q": "Alice"},
            "result": [1],
            "status": "success",
            "duration_ms": 12,
            "error": None,
        }
    ]
    assert trace_of("t-1", turns[:1])["completed_at"] is None and trace_of("t-1", turns[:1])["steps"] == []


def test_tool_stats_count_successes_and_failures_per_tool_and_pending_as_neither():
    calls = [
        {"tool_name": "a", "status": "success", "duration_ms": 100},
        {"tool_name": "a", "status": "timeout", "duration_ms": None},
        {"tool_name": "a", "status": "pending", "duration_ms": 300},
        {"tool_name": "b", "status": "error", "duration_ms": None},
    ]
    a, b = tool_stats_of(calls)
    assert (a["name"], a["total_calls"], a["successful_calls"], a["failed_calls"]) == ("a", 3, 1, 1)
    assert abs(a["success_rate"] - 1 / 3) < 1e-9 and a["avg_duration_ms"] == 200
    assert (b["failed_calls"], b["success_rate"], b["avg_duration_ms"]) == (1, 0.0, None)
