"""The subject layer through the REST API: subjects, observations about them, intersections."""

from __future__ import annotations

import anyio
import pytest

from app.mcp.tools import build_server
from support import Api


def subject(api: Api, name: str, **extra) -> dict:
    response = api.post("/v1/subjects", json={"name": name, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def observe(api: Api, text: str, *subjects: str) -> dict:
    response = api.post("/v1/subjects/observations", json={"text": text, "subjects": list(subjects)})
    assert response.status_code == 201, response.text
    return response.json()


def intersect(api: Api, *subjects: str, **extra) -> dict:
    response = api.post("/v1/subjects/intersection", json={"subjects": list(subjects), **extra})
    assert response.status_code == 200, response.text
    return response.json()


def texts(out: dict) -> list[str]:
    return [o["text"] for o in out["observations"]]


def test_subject_is_created_read_by_name_or_id_and_listed(api: Api):
    made = subject(api, "James", summary="a person", tags=["person"])
    assert made["name"] == "James" and made["summary"] == "a person" and made["tags"] == ["person"]
    assert made["version"] == 1 and made["observations"] == 0 and made["created_at"].endswith("Z")
    assert api.get("/v1/subjects/James").json() == made
    assert api.get(f"/v1/subjects/{made['id']}").json() == made
    subject(api, "Audrey")
    assert [s["name"] for s in api.get("/v1/subjects").json()["subjects"]] == ["Audrey", "James"]


def test_a_duplicate_name_is_a_conflict_and_an_unknown_subject_is_not_found(api: Api):
    subject(api, "James")
    again = api.post("/v1/subjects", json={"name": "James", "summary": "another"})
    assert again.status_code == 409 and again.json()["error"]["field"] == "name"
    assert api.get("/v1/subjects/James").json()["summary"] is None  # the first one stands
    assert api.get("/v1/subjects/nobody").status_code == 404


def test_the_same_observation_twice_is_stored_once(api: Api):
    subject(api, "James")
    subject(api, "Audrey")
    first = observe(api, "James and Audrey are married.", "James")
    assert first["created"] is True and first["observation"]["subjects"] == ["James"]
    assert first["observation"]["generation"] == 0 and len(first["observation"]["content_hash"]) == 64
    again = observe(api, "James and Audrey are married.", "Audrey")
    assert again["created"] is False and again["observation"]["id"] == first["observation"]["id"]
    assert again["observation"]["subjects"] == ["Audrey", "James"]  # tags only ever add
    assert api.get("/v1/subjects/James").json()["observations"] == 1


def test_an_observation_about_an_unknown_subject_writes_nothing(api: Api):
    subject(api, "James")
    response = api.post("/v1/subjects/observations", json={"text": "hello", "subjects": ["James", "ghost"]})
    assert response.status_code == 404 and response.json()["error"]["field"] == "subjects[1]"
    assert api.get("/v1/subjects/James").json()["observations"] == 0
    assert intersect(api, "James")["count"] == 0


def test_intersections_of_two_and_three_subjects_hold_exactly_the_shared_observations(api: Api):
    for name in ("James", "Audrey", "continuity"):
        subject(api, name)
    observe(api, "J only", "James")
    observe(api, "A only", "Audrey")
    observe(api, "C only", "continuity")
    observe(api, "J and A 1", "James", "Audrey")
    observe(api, "J and A 2", "James", "Audrey")
    observe(api, "A and C", "Audrey", "continuity")
    observe(api, "J and C", "James", "continuity")
    observe(api, "all three", "James", "Audrey", "continuity")

    two = intersect(api, "James", "Audrey")
    assert texts(two) == ["all three", "J and A 2", "J and A 1"]  # newest first
    assert two["count"] == 3 and two["subjects"] == ["James", "Audrey"]
    assert [(c["name"], c["total"], c["alone"]) for c in two["alone"]] == [("James", 5, 2), ("Audrey", 5, 2)]

    three = intersect(api, "James", "Audrey", "continuity")
    assert texts(three) == ["all three"] and three["count"] == 1
    assert [(c["name"], c["total"], c["alone"]) for c in three["alone"]] == [
        ("James", 5, 1),
        ("Audrey", 5, 1),
        ("continuity", 4, 1),
    ]

    one = intersect(api, "continuity", limit=2)
    assert one["count"] == 4 and texts(one) == ["all three", "J and C"] and one["alone"] == []


def test_workspaces_are_isolated(client, api: Api):
    other = Api(client, api.workspace + "-other")
    subject(api, "James")
    subject(other, "James")  # the same name in another workspace is no conflict
    observe(api, "shared text", "James")
    assert observe(other, "shared text", "James")["created"] is True  # dedup is per workspace
    observe(other, "other only", "James")
    assert texts(intersect(api, "James")) == ["shared text"]
    assert [s["observations"] for s in other.get("/v1/subjects").json()["subjects"]] == [2]
    theirs = other.get("/v1/subjects/James").json()["id"]
    assert api.get(f"/v1/subjects/{theirs}").status_code == 404


@pytest.mark.parametrize(
    "path, body, field",
    [
        ("/v1/subjects", {"name": ""}, "name"),
        ("/v1/subjects", {"name": "x", "tags": "person"}, "tags"),
        ("/v1/subjects", {"name": "x", "colour": "red"}, "colour"),
        ("/v1/subjects/observations", {"text": "   "}, "text"),
        ("/v1/subjects/observations", {"text": "t", "subjects": "James"}, "subjects"),
        ("/v1/subjects/intersection", {"subjects": []}, "subjects"),
        ("/v1/subjects/intersection", {"subjects": ["a"], "limit": 0}, "limit"),
    ],
)
def test_bad_input_is_422_naming_the_field(api: Api, path, body, field):
    response = api.post(path, json=body)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["field"] == field


def test_naming_a_subject_twice_in_an_intersection_is_422(api: Api):
    made = subject(api, "James")
    response = api.post("/v1/subjects/intersection", json={"subjects": ["James", made["id"]]})
    assert response.status_code == 422 and response.json()["error"]["field"] == "subjects"


def test_mcp_tools_open_the_same_intersection(memory, api: Api):
    server = build_server(memory, lambda ctx: api.workspace)

    async def call(tool: str, **arguments) -> dict:
        result = await server.call_tool(tool, arguments)
        assert not result.is_error, result
        return result.structured_content

    async def scenario() -> dict:
        await call("create_subject", name="James")
        await call("create_subject", name="Audrey")
        await call("append_observation", text="married", subjects=["James", "Audrey"])
        await call("append_observation", text="codes", subjects=["James"])
        return await call("open_intersection", subjects=["James", "Audrey"])

    out = anyio.run(scenario)
    assert texts(out) == ["married"] and out["count"] == 1
    assert intersect(api, "Audrey", "James")["count"] == 1  # REST sees what MCP wrote
