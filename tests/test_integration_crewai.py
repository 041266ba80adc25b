"""donto.integrations.crewai.DontoMemory, CrewAI's Memory over donto's client, against the real stack: the
API under uvicorn on a loopback port over the suite's Neo4j, and CrewAI itself (its Memory API, then a Crew
and an Agent on a scripted BaseLLM, no model) in .venv-crewai, its own virtualenv, because crewai pins mcp
and pydantic below what the server needs. tests/frameworks/crewai_scenario.py drives CrewAI and reports
what it saw; each test here asserts on one part of that report."""

from __future__ import annotations

from typing import Any

import pytest

from support import framework_scenario

DOOR = "The Lisbon boardroom door code is 4417."
PARKING = "The Porto office parking spot is P-12."


@pytest.fixture(scope="module")
def report(url, tmp_path_factory) -> dict[str, Any]:
    """The scenario's report, run once in .venv-crewai against this suite's server and a fresh workspace."""
    home = tmp_path_factory.mktemp("crewai-home")  # CrewAI writes its settings under the home
    return framework_scenario(url, "crewai", "CrewAI", env={"HOME": str(home)})


def contents(found: list[dict[str, Any]]) -> list[str]:
    return [m["content"] for m in found]


def test_a_remembered_record_is_recalled_by_its_meaning_as_the_record_it_was(report):
    [first, *_] = report["lisbon"]
    assert first["content"] == DOOR and first["id"] == report["door_id"]
    assert first["scope"] == "/office/lisbon" and first["categories"] == ["access"]
    assert first["metadata"] == {"floor": 3} and first["importance"] == 0.9
    assert 0.5 <= first["score"] <= 1  # donto's relevance
    assert DOOR in contents(report["everywhere"]) and PARKING in contents(report["everywhere"])


def test_a_record_under_one_scope_is_never_recalled_for_another(report):
    assert DOOR not in contents(report["porto_asked_for_door"])
    assert {m["scope"] for m in report["porto_asked_for_door"]} <= {"/office/porto"}
    # /office holds /office/lisbon and /office/porto, never /officex (a name that merely starts alike)
    assert all(m["scope"].startswith("/office/") for m in report["office_asked_for_vending"])
    assert contents(report["officex_asked_for_vending"])[0].startswith("The officex vending machine")


def test_scopes_and_categories_list_and_filter_as_crewai_s_memory_does(report):
    assert report["scopes"] == ["/office/lisbon", "/office/porto"]
    assert report["root_scopes"] == ["/office", "/officex"]
    assert report["office_info"] == {"count": 3, "categories": ["access", "parking"], "children": report["scopes"]}
    assert contents(report["parking_category"]) == [PARKING]


def test_a_private_record_is_recalled_only_for_its_own_source(report):
    assert "Ann's gym locker code is 9921." not in contents(report["locker_no_source"])
    assert "Ann's gym locker code is 9921." in contents(report["locker_as_ann"])


def test_a_forgotten_record_leaves_current_reads_and_is_read_as_known_before(report):
    assert report["forgot"] == 1
    assert PARKING not in contents(report["porto_after_forget"])
    assert report["porto_records_now"] == [] and report["parking_record_now"] is False
    assert report["porto_records_before"] == [PARKING]
    assert report["parking_record_before"] == PARKING


def test_an_updated_record_is_recalled_by_its_new_text(report):
    [first, *_] = report["vending_after_update"]
    assert first["content"] == "The officex vending machine now takes cards." and first["id"] == report["vending_id"]


def test_a_crew_s_agent_is_prompted_with_what_the_memory_recalls_and_its_result_is_kept(report):
    assert report["crew_prompt_had_memory"]
    assert report["crew_answer"] == "The boardroom door code is 4417."
    [kept] = report["kept_by_crew"]
    assert "Find the door code of the Lisbon boardroom." in kept and "4417" in kept


def test_crew_memory_survives_a_crew_copy_and_an_agent_s_is_rebuilt_as_crewai_s_own(report):
    assert report["crew_copy_memory_type"] == "DontoMemory"
    assert report["agent_memory_type"] == "DontoMemory"
    # Agent.copy() dumps its memory to a dict and builds a plain Memory from it (documented gap)
    assert report["agent_copy_memory_type"] == "Memory"


def test_a_reset_scope_holds_nothing(report):
    assert report["reset_left"] == []
