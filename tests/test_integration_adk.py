"""donto.integrations.adk.DontoMemoryService, Google ADK's memory service over donto's client, against the
real stack: the API under uvicorn on a loopback port over the suite's Neo4j, and ADK itself (a Runner, its
InMemorySessionService, a scripted agent, no model) in .venv-adk, its own virtualenv, because google-adk
pins what the server needs to other versions. tests/frameworks/adk_scenario.py drives ADK and reports
what it saw; each test here asserts on one part of that report."""

from __future__ import annotations

from typing import Any

import pytest

from support import framework_scenario

QUESTION_ANSWER = "Booked: the Lisbon boardroom on Thursday, door code 4417."


@pytest.fixture(scope="module")
def report(url) -> dict[str, Any]:
    """The scenario's report, run once in .venv-adk against this suite's server and a fresh workspace."""
    return framework_scenario(url, "adk", "Google ADK")


def texts(entries: list[dict[str, Any]]) -> list[str]:
    return [" ".join(e["texts"]) for e in entries]


def test_each_event_that_says_something_is_kept_once_however_often_the_session_is_added(report):
    said = [e["id"] for e in report["events"] if e["words"]]
    assert len(said) == 4  # two user messages, two replies; the function call and its response say nothing
    first_turn, second_turn = report["kept_after_each_turn"]
    assert first_turn == said[:2]  # saved from the agent's after_agent_callback, the reply included
    assert second_turn == said
    assert report["kept_after_adding_again"] == said


def test_events_without_words_are_not_kept(report):
    silent = [e for e in report["events"] if not e["words"]]
    assert len(silent) == 2  # the book_room call and its response
    assert not {e["id"] for e in silent} & set(report["kept_after_adding_again"])


def test_an_agent_answers_from_an_earlier_session_through_the_runner_s_memory_service(report):
    assert report["answer_from_memory"][-1] == "From memory: " + QUESTION_ANSWER


def test_a_search_finds_what_was_said_as_the_event_it_was(report):
    [first, *_] = report["ann_search"]
    event = next(e for e in report["events"] if e["id"] == first["id"])
    assert first["texts"] == event["texts"] == [QUESTION_ANSWER]  # its thought left out
    assert first["author"] == "office" and first["role"] == "model"
    assert first["timestamp"] is not None and first["timestamp"].endswith("+00:00")
    assert first["custom_metadata"]["donto"]["session"] == "adk:office/ann/chat-1"
    assert 0.5 <= first["custom_metadata"]["donto"]["relevance"] <= 1


def test_another_user_of_the_app_never_sees_ann_s_memory(report):
    ann = {e["id"] for e in report["events"]}
    for search in ("bob_search", "bob_locker"):
        assert not {e["id"] for e in report[search]} & ann
        assert {e["custom_metadata"]["donto"]["session"] for e in report[search]} <= {"adk:office/bob/chat-9"}
    assert "Noted: your gym locker is 9921." in texts(report["bob_locker"])
    assert report["nobody_search"] == []


def test_another_app_never_sees_this_app_s_memory_and_this_app_never_sees_it(report):
    assert all("4417" not in t for t in texts(report["frontdesk_search"]))
    assert {e["custom_metadata"]["donto"]["session"] for e in report["frontdesk_search"]} <= {
        "adk:frontdesk/ann/chat-1"
    }
    assert all("9921" not in t for t in texts(report["ann_locker"]))  # ann told only the front desk


def test_a_delta_of_events_is_kept_once(report):
    assert report["delta_kept"] == ["evt-late"]


def test_an_explicit_memory_is_kept_once_and_found_with_its_own_fields(report):
    assert len(report["memories_kept"]) == 1
    [badge] = [e for e in report["badge_search"] if "B-7731" in " ".join(e["texts"])]
    assert badge["texts"] == ["Ann's badge number is B-7731."]
    assert (badge["author"], badge["timestamp"], badge["role"]) == ("ann", "2026-03-02T09:00:00+00:00", "user")
    assert badge["custom_metadata"]["source"] == "hr-import"
    assert badge["id"] == report["memories_kept"][0]


def test_a_deleted_memory_leaves_searches_and_is_not_kept_again(report):
    assert report["milk_event"] in report["milk_before"]
    assert report["milk_event"] in report["milk_after_bob_deletes"]  # another user cannot delete it
    assert report["milk_event"] not in report["milk_after"]


def test_the_service_works_from_a_second_event_loop_as_runner_run_makes_one_per_call(report):
    assert report["second_loop"] and report["second_loop"] == report["door_code"]


def test_an_app_or_user_left_empty_is_refused_naming_it(report):
    assert len(report["scoping_refused"]) == 2
    assert "app_name" in report["scoping_refused"][0] and "user_id" in report["scoping_refused"][1]
