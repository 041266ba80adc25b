"""The subject layer through the REST API: subjects, observations about them, intersections."""

from __future__ import annotations

import io
import json

import pytest

from donto.graph import client as graph_client
from support import Api


def subject(api: Api, name: str, **extra) -> dict:
    response = api.post("/v1/subjects", json={"name": name, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def observe(api: Api, text: str, *subjects: str, **extra) -> dict:
    body = {"observations": [{"text": text, "subjects": list(subjects), **extra}]}
    response = api.post("/v1/subjects/observations", json=body)
    assert response.status_code == 201, response.text
    return response.json()["observations"][0]


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


def test_an_alias_that_is_the_name_or_an_earlier_alias_in_any_case_is_422_naming_it(api: Api):
    for aliases, field in ((["zed", "ZED"], "aliases[0]"), (["Z", "z"], "aliases[1]")):
        refused = api.post("/v1/subjects", json={"name": "Zed", "aliases": aliases})
        assert refused.status_code == 422 and refused.json()["error"]["field"] == field
    assert api.get("/v1/subjects/Zed").status_code == 404  # nothing written
    made = subject(api, "Zed", aliases=["Z"])
    patched = api.patch("/v1/subjects/Zed", json={"version": made["version"], "aliases": ["Z", "z"]})
    assert patched.status_code == 422 and patched.json()["error"]["field"] == "aliases[1]"


def test_merging_a_subject_already_merged_says_it_already_names_the_primary(api: Api):
    subject(api, "James")
    subject(api, "Jim")
    assert api.post("/v1/subjects/merge", json={"primary": "James", "duplicate": "Jim"}).status_code == 200
    again = api.post("/v1/subjects/merge", json={"primary": "James", "duplicate": "Jim"})
    assert again.status_code == 422
    assert again.json()["error"] == {
        "code": "invalid_input",
        "message": "'Jim' already names the subject 'James': nothing to merge",
        "field": "duplicate",
    }


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
    body = {"observations": [{"text": "hi", "subjects": ["James"]}, {"text": "hello", "subjects": ["James", "ghost"]}]}
    response = api.post("/v1/subjects/observations", json=body)
    assert response.status_code == 404 and response.json()["error"]["field"] == "observations[1].subjects[1]"
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
    assert two["count"] == 3 and [s["name"] for s in two["subjects"]] == ["James", "Audrey"]
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
        ("/v1/subjects/observations", {"observations": [{"text": "   "}]}, "observations[0].text"),
        (
            "/v1/subjects/observations",
            {"observations": [{"text": "t", "subjects": "James"}]},
            "observations[0].subjects",
        ),
        ("/v1/subjects/observations", {"observations": [{"text": "t", "kind": "rumour"}]}, "observations[0].kind"),
        ("/v1/subjects/observations", {"observations": [{"text": "t", "confidence": 2}]}, "observations[0].confidence"),
        ("/v1/subjects/observations", {"observations": []}, "observations"),
        ("/v1/memory/remember", {"text": "t", "subjects": []}, "subjects"),
        ("/v1/understandings", {"subject_names": ["a"], "text": "t"}, "summary"),
        ("/v1/understandings", {"subject_names": ["a"], "text": "t", "summary": "s", "kind": "gossip"}, "kind"),
        ("/v1/memory/bring-to-mind", {"topic_or_context": "x", "last_token": -1}, "last_token"),
        ("/v1/memory/recall", {"question": "x", "limit": 1000}, "limit"),
        ("/v1/memory/perspectives", {"name": "has space", "instruction": "x"}, "name"),
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


def test_resolving_by_id_or_name_reads_no_alias(memory, api: Api, monkeypatch):
    memory.graph.driver.execute_query(
        "UNWIND range(1, 300) AS i CREATE (:Subject {id: $w + '-' + i, workspace: $w, name: 'S' + i, version: 1,"
        " aliases: ['alias ' + i], aliasKeys: ['alias ' + i], createdAt: datetime()})",
        {"w": api.workspace},
    )
    queries = []
    real = memory.graph.run

    def run(tx, name, /, **params):
        queries.append(name)
        return real(tx, name, **params)

    monkeypatch.setattr(memory.graph, "run", run)

    def resolve(ref: str) -> tuple[str | None, list[str]]:
        queries.clear()
        found = api.get(f"/v1/subjects/{ref}")
        return found.json()["name"] if found.status_code == 200 else None, [q for q in queries if "resolve" in q]

    assert resolve("S7") == ("S7", ["subjects_resolve"])  # by name: the 300 subjects' aliases are not read
    assert resolve(f"{api.workspace}-7") == ("S7", ["subjects_resolve"])  # by id: neither
    assert resolve("ALIAS 7") == ("S7", ["subjects_resolve", "subjects_resolve_alias"])
    assert resolve("nobody") == (None, ["subjects_resolve", "subjects_resolve_alias"])


def test_an_understanding_understands_its_subjects_and_old_graphs_are_migrated(memory, api: Api, monkeypatch):
    for name in ("James", "Audrey", "Maya"):
        subject(api, name)
    made = api.post(
        "/v1/understandings", json={"subject_names": ["James", "Audrey"], "text": "married", "summary": "m"}
    )
    assert made.status_code == 201, made.text
    understanding = made.json()["id"]
    merged = api.post("/v1/subjects/merge", json={"primary": "Maya", "duplicate": "Audrey"})
    assert merged.status_code == 200, merged.text

    def edges() -> list[tuple[str, str, str | None]]:
        records, _, _ = memory.graph.driver.execute_query(
            "MATCH (u:Understanding {workspace: $w})-[r]->(s) WHERE type(r) IN ['ABOUT', 'UNDERSTANDS']"
            " RETURN type(r) AS type, s.name AS name, r.mergeId AS mergeId ORDER BY name",
            {"w": api.workspace},
        )
        return [(r["type"], r["name"], r["mergeId"] is not None) for r in records]

    assert edges() == [("UNDERSTANDS", "Audrey", False), ("UNDERSTANDS", "James", False), ("UNDERSTANDS", "Maya", True)]
    # the shape a version 5 graph has: understandings ABOUT their subjects
    memory.graph.driver.execute_query(
        "MATCH (u:Understanding {workspace: $w})-[r:UNDERSTANDS]->(s)"
        " CREATE (u)-[old:ABOUT]->(s) SET old = properties(r) DELETE r",
        {"w": api.workspace},
    )
    assert api.post("/v1/understandings/about", json={"subject_names": ["James"]}).json()["understandings"] == []
    monkeypatch.setattr(graph_client, "MIGRATION_BATCH", 2)  # three edges: two batches and a last empty one
    assert memory.apply_schema() == 10
    assert edges() == [("UNDERSTANDS", "Audrey", False), ("UNDERSTANDS", "James", False), ("UNDERSTANDS", "Maya", True)]
    about = api.post("/v1/understandings/about", json={"subject_names": ["James"]}).json()["understandings"]
    assert [u["id"] for u in about] == [understanding]
    # the merge's edge kept its id: unmerging removes it again
    assert api.post("/v1/subjects/unmerge", json={"merge": "Audrey"}).status_code == 200
    assert edges() == [("UNDERSTANDS", "Audrey", False), ("UNDERSTANDS", "James", False)]


def test_an_export_from_before_schema_6_imports_with_understandings_understanding_their_subjects(memory, api: Api):
    subject(api, "James")
    made = api.post("/v1/understandings", json={"subject_names": ["James"], "text": "a person", "summary": "James"})
    assert made.status_code == 201, made.text
    out = io.BytesIO()
    memory.portability.export(api.workspace, out)
    header, *records = [json.loads(line) for line in out.getvalue().splitlines()]
    for record in records:  # the shape a version 5 store exported
        if record.get("rel") == "UNDERSTANDS":
            record["rel"] = "ABOUT"
    counts = header["counts"]["relationships"]
    counts["ABOUT"] = counts.get("ABOUT", 0) + counts.pop("UNDERSTANDS")
    memory.purges.purge(api.workspace, None, by="test")  # ids are unique across the store
    target = Api(api.client, api.workspace + "-restored")
    memory.portability.import_(
        target.workspace, io.BytesIO(b"".join(json.dumps(r).encode() + b"\n" for r in [header, *records]))
    )
    about = target.post("/v1/understandings/about", json={"subject_names": ["James"]}).json()["understandings"]
    assert [u["id"] for u in about] == [made.json()["id"]]
