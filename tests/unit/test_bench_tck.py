"""`bench tck`'s bridge: donto's answers mapped onto the agent-memory TCK's data model, the kit's
registry and report read, and the bridge's answers to what donto does not do (no kit, no server)."""

import uuid

from fastapi.testclient import TestClient

from bench.tck import (
    DontoBridge,
    bridge_app,
    claim_hits,
    conversation_of,
    entity_claims,
    entity_of,
    fact_of,
    message_of,
    outcomes_of,
    preference_claim,
    preference_of,
    registry_test_id,
    scenario_ids,
    session_info_of,
    tiers_of,
    turn_hits,
)

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
        for method in ("start_trace", "get_tool_stats", "merge_duplicate_entities", "create_conversation"):
            answer = http.post(f"/{method}", json={})
            assert answer.status_code == 501 and answer.json()["error"].startswith("not implemented: ")
        assert http.post("/add_message", json={"nonsense": 1}).status_code == 400
