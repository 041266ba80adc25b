"""Documents as a store of named records: metadata kept and handed back as it came, the listing by
external id (prefix or exact) as known at a time, retraction (gone from reads and recall from then
on, still there as known before), and recall kept to documents under external id prefixes."""

from __future__ import annotations

from support import Api


def register(api: Api, status: int = 201, **body) -> dict:
    response = api.post("/v1/documents", json=body)
    assert response.status_code == status, response.text
    return response.json()


def listing(api: Api, **params) -> dict:
    response = api.get("/v1/documents", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def test_metadata_is_handed_back_exactly_and_a_change_of_it_alone_is_a_new_revision(api):
    metadata = {"name": "Zoë", "tags": ["α", {"deep": [1, 2.5, None, True]}], "n": 3}
    first = register(api, text="Ann likes tea.", external_id="notes/ann", metadata=metadata)
    assert api.get(f"/v1/documents/{first['id']}").json()["metadata"] == metadata
    again = register(api, 200, text="Ann likes tea.", external_id="notes/ann", metadata=metadata)
    assert again["id"] == first["id"]

    changed = register(api, text="Ann likes tea.", external_id="notes/ann", metadata={**metadata, "n": 4})
    assert changed["revision"] == 2
    [listed] = listing(api, external_id="notes/ann")["documents"]
    assert listed["id"] == changed["id"] and listed["metadata"]["n"] == 4
    assert listed["first_recorded_at"] == api.get(f"/v1/documents/{first['id']}").json()["recorded_at"]
    assert listed["recorded_at"] > listed["first_recorded_at"]


def test_an_empty_text_is_kept_only_with_metadata_and_has_no_passages(api):
    kept = register(api, text="", external_id="empty-one", metadata={"only": "metadata"})
    assert kept["passages"] == 0
    refused = api.post("/v1/documents", json={"text": "", "external_id": "empty-two"})
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "text"


def test_metadata_over_its_bounds_is_refused_naming_the_field(api):
    deep: dict = {}
    node = deep
    for _ in range(9):
        node["x"] = {}
        node = node["x"]
    for metadata in (deep, {"big": "x" * 17_000}, ["not", "an", "object"]):
        response = api.post("/v1/documents", json={"text": "t", "metadata": metadata})
        assert response.status_code == 422 and response.json()["error"]["field"] == "metadata", response.text
    assert listing(api)["documents"] == []


def test_the_listing_keeps_to_its_prefix_in_external_id_order_and_pages(api):
    for name in ("lg:a/#3", "lg:a/#1", "lg:a/b/#2", "lg:ab/#x", "other"):
        register(api, text=f"text of {name}", external_id=name)
    page = listing(api, prefix="lg:a/", limit=2)
    assert [d["external_id"] for d in page["documents"]] == ["lg:a/#1", "lg:a/#3"]
    rest = listing(api, prefix="lg:a/", limit=2, cursor=page["next_cursor"])
    assert [d["external_id"] for d in rest["documents"]] == ["lg:a/b/#2"] and rest["next_cursor"] is None
    exact = listing(api, external_id=["other", "lg:ab/#x", "missing"])
    assert [d["external_id"] for d in exact["documents"]] == ["lg:ab/#x", "other"]


def test_bad_listing_parameters_name_the_field(api):
    for params, field in [
        ({"limit": 0}, "limit"),
        ({"limit": 5000}, "limit"),
        ({"cursor": "%%%"}, "cursor"),
        ({"known_at": "soon"}, "known_at"),
        ({"prefix": "a", "external_id": "b"}, "external_id"),
    ]:
        response = api.get("/v1/documents", params=params)
        assert response.status_code == 422 and response.json()["error"]["field"] == field, (params, response.text)


def test_a_retracted_document_leaves_reads_and_recall_now_and_stays_as_known_before(api):
    doc = register(api, text="The lighthouse keeper feeds the seagulls at dawn.", external_id="keeper")
    before = listing(api, external_id="keeper")["documents"][0]["recorded_at"]
    found = api.post("/v1/recall", json={"query": "Who feeds the seagulls?", "include_provenance": True}).json()
    assert any(i.get("provenance", {}).get("external_id") == "keeper" for i in found["items"])

    retracted = api.post(f"/v1/documents/{doc['id']}/retract", json={"reason": "wrong"})
    assert retracted.status_code == 200, retracted.text
    assert listing(api, external_id="keeper")["documents"] == []
    assert [d["id"] for d in listing(api, external_id="keeper", known_at=before)["documents"]] == [doc["id"]]
    assert api.get(f"/v1/documents/{doc['id']}").json()["retracted_at"] == retracted.json()["retracted_at"]
    after = api.post("/v1/recall", json={"query": "Who feeds the seagulls?", "include_provenance": True}).json()
    assert not any(i.get("provenance", {}).get("document_id") == doc["id"] for i in after["items"])
    twice = api.post(f"/v1/documents/{doc['id']}/retract")
    assert twice.status_code == 409 and twice.json()["error"]["field"] == "id"
    assert api.post("/v1/documents/no-such-id/retract").status_code == 404

    # The same text again after a retraction is the document again: a new revision, created now.
    back = register(api, text="The lighthouse keeper feeds the seagulls at dawn.", external_id="keeper")
    assert back["revision"] == 2
    [listed] = listing(api, external_id="keeper")["documents"]
    assert listed["id"] == back["id"] and listed["first_recorded_at"] == listed["recorded_at"]


def test_recall_kept_to_document_prefixes_finds_nothing_outside_them(api):
    register(api, text="Maria's favourite food is grilled sardines.", external_id="lg:users/maria/#food")
    register(api, text="Paulo's favourite food is grilled sardines too.", external_id="lg:users/paulo/#food")
    api.post(
        "/v1/episodes",
        json={
            "session": {"external_id": "chat", "started_at": "2024-01-01T00:00:00Z"},
            "turns": [{"external_id": "t1", "speaker": "Ana", "text": "My favourite food is grilled sardines."}],
        },
    )
    body = {"query": "favourite food sardines", "include_provenance": True, "documents": ["lg:users/maria/"]}
    items = api.post("/v1/recall", json=body).json()["items"]
    assert items and all(i["provenance"]["external_id"].startswith("lg:users/maria/") for i in items)
    assert all(i["relevance"] is not None for i in items)

    both = api.post("/v1/recall", json={"query": "food", "documents": ["x"], "sessions": ["chat"]})
    assert both.status_code == 422 and both.json()["error"]["field"] == "documents"
