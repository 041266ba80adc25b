"""The bitemporal claim store through the REST API."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from support import Api, claim


def test_written_claim_reads_back_with_both_intervals(api: Api):
    out = api.write(
        claim(
            "apple",
            "ceo",
            "tim-cook",
            valid_from="2011-08-24",
            valid_to="2026-06-01T00:00:00Z",
            context="press",
            confidence=0.9,
        )
    )
    [written] = out["claims"]
    assert written["created"] is True
    got = api.get(f"/v1/claims/{written['id']}").json()
    assert got["subject"] == "apple" and got["predicate"] == "ceo" and got["object"] == {"entity": "tim-cook"}
    assert got["valid_from"] == "2011-08-24T00:00:00Z"  # a date means midnight UTC
    assert got["valid_to"] == "2026-06-01T00:00:00Z"
    assert got["tx_from"] == out["recorded_at"] and got["tx_to"] is None
    assert got["context"] == "press" and got["confidence"] == 0.9


def test_typed_literals_round_trip(api: Api):
    literals = [
        ("xsd:string", "hello"),
        ("xsd:integer", 42),
        ("xsd:decimal", "3.1400"),
        ("xsd:boolean", True),
        ("xsd:date", "2023-05-08"),
        ("xsd:dateTime", "2023-05-08T13:56:00+02:00"),
    ]
    out = api.write(
        *[
            {"subject": "s", "predicate": f"p{i}", "object": {"literal": {"value": v, "datatype": t}}}
            for i, (t, v) in enumerate(literals)
        ]
    )
    values = [api.get(f"/v1/claims/{c['id']}").json()["object"]["literal"] for c in out["claims"]]
    assert values == [
        {"value": "hello", "datatype": "xsd:string"},
        {"value": 42, "datatype": "xsd:integer"},
        {"value": "3.14", "datatype": "xsd:decimal"},
        {"value": True, "datatype": "xsd:boolean"},
        {"value": "2023-05-08", "datatype": "xsd:date"},
        {"value": "2023-05-08T11:56:00Z", "datatype": "xsd:dateTime"},
    ]


def test_rewriting_the_same_claim_returns_its_id_and_writes_nothing(api: Api):
    first = api.write(claim("maya", "role", "chief-of-staff", valid_from="2024-01-08"))["claims"][0]
    again = api.write(claim("maya", "role", "chief-of-staff", valid_from="2024-01-08T00:00:00Z"))["claims"][0]
    assert again == {"id": first["id"], "created": False}
    assert len(api.list(subject="maya", valid_at="2024-02-01")) == 1


def test_same_statement_for_another_valid_interval_is_a_claim_of_its_own(api: Api):
    a = api.write(claim("maya", "role", "cos", valid_from="2024-01-01", valid_to="2024-06-01"))["claims"][0]
    b = api.write(claim("maya", "role", "cos", valid_from="2025-01-01"))["claims"][0]
    assert b["created"] is True and b["id"] != a["id"]


def test_duplicates_inside_one_batch_collapse_to_the_first(api: Api):
    out = api.write(claim("x", "likes", "tea"), claim("x", "likes", "tea"))
    assert out["claims"][0]["created"] is True
    assert out["claims"][1] == {"id": out["claims"][0]["id"], "created": False}


def test_a_batch_larger_than_a_write_slice_is_one_transaction_at_one_recorded_at(api: Api):
    """The service writes a batch's new claims in slices (giving way to light requests between them),
    inside the batch's one transaction: every claim, one transaction time, none seen half-written."""
    from donto.claims.service import WRITE_SLICE

    size = 2 * WRITE_SLICE + 7
    out = api.write(*(claim(f"sliced-{i}", "in_batch", "big") for i in range(size)))
    assert len(out["claims"]) == size and all(c["created"] for c in out["claims"])
    written = api.list(predicate="in_batch", limit=1000)
    assert len(written) == size and {c["tx_from"] for c in written} == {out["recorded_at"]}


def test_as_of_valid_time(api: Api):
    api.write(
        claim("apple", "ceo", "tim-cook", valid_from="2011-08-24", valid_to="2026-06-01"),
        claim("apple", "ceo", "sarah-chen", valid_from="2026-06-01"),
    )

    def ceo_at(t):
        return [c["object"]["entity"] for c in api.list(subject="apple", predicate="ceo", valid_at=t)]

    assert ceo_at("2020-01-01") == ["tim-cook"]
    assert ceo_at("2026-05-31T23:59:59Z") == ["tim-cook"]
    assert ceo_at("2026-06-01") == ["sarah-chen"]  # validTo is exclusive, validFrom inclusive
    assert ceo_at("2001-01-01") == []


def test_as_of_transaction_time_sees_a_write_at_its_recorded_at_and_no_later_one(api: Api):
    r1 = api.write(claim("k", "p", "one"))["recorded_at"]
    r2 = api.write(claim("k", "p", "two"))["recorded_at"]
    assert r2 > r1

    def objects(known_at):
        return sorted(c["object"]["entity"] for c in api.list(subject="k", known_at=known_at))

    assert objects(r1) == ["one"]
    assert objects(r2) == ["one", "two"]
    assert objects("2000-01-01") == []


def test_retraction_closes_transaction_time_and_deletes_nothing(api: Api):
    written = api.write(claim("k", "p", "v"))
    cid, recorded = written["claims"][0]["id"], written["recorded_at"]
    retracted = api.post(f"/v1/claims/{cid}/retract", json={"reason": "wrong source"})
    assert retracted.status_code == 200
    retracted_at = retracted.json()["retracted_at"]
    assert retracted_at > recorded
    assert api.list(subject="k") == []
    assert [c["id"] for c in api.list(subject="k", known_at=recorded)] == [cid]
    assert [c["id"] for c in api.list(subject="k", include_retracted="true")] == [cid]
    got = api.get(f"/v1/claims/{cid}").json()
    assert got["tx_to"] == retracted_at and got["retraction_reason"] == "wrong source"


def test_retracting_twice_is_a_conflict_and_unknown_ids_are_404(api: Api):
    cid = api.write(claim("k", "p", "v"))["claims"][0]["id"]
    assert api.post(f"/v1/claims/{cid}/retract").status_code == 200
    second = api.post(f"/v1/claims/{cid}/retract")
    assert second.status_code == 409 and second.json()["error"]["code"] == "conflict"
    assert api.post("/v1/claims/nope/retract").status_code == 404
    missing = api.get("/v1/claims/nope")
    assert missing.status_code == 404 and missing.json()["error"]["field"] == "id"


def test_a_retracted_claim_can_be_asserted_again_as_a_new_claim(api: Api):
    cid = api.write(claim("k", "p", "v"))["claims"][0]["id"]
    api.post(f"/v1/claims/{cid}/retract")
    again = api.write(claim("k", "p", "v"))["claims"][0]
    assert again["created"] is True and again["id"] != cid


def test_contradictory_claims_coexist_side_by_side(api: Api):
    a = api.write(claim("pluto", "is-a", "planet"))["claims"][0]["id"]
    b = api.write(claim("pluto", "is-a", "dwarf-planet", contradicts=[a]))["claims"][0]["id"]
    assert sorted(c["id"] for c in api.list(subject="pluto")) == sorted([a, b])
    assert api.get(f"/v1/claims/{a}").json()["contradicted_by"] == [b]
    assert api.get(f"/v1/claims/{b}").json()["contradicts"] == [a]


def test_relationships_show_in_both_directions(api: Api):
    ceo = api.write(claim("apple", "ceo", "tim-cook"))["claims"][0]["id"]
    cos = api.write(claim("maya", "role", "chief-of-staff", derived_from=[ceo]))["claims"][0]["id"]
    sign = api.write(claim("maya", "can-sign-for", "apple", derived_from=[cos], supports=[cos]))["claims"][0]["id"]
    new = api.write(claim("apple", "ceo", "sarah-chen", supersedes=[ceo]))["claims"][0]["id"]
    assert api.get(f"/v1/claims/{sign}").json()["derived_from"] == [cos]
    got = api.get(f"/v1/claims/{cos}").json()
    assert got["derived_from"] == [ceo] and got["derived_by"] == [sign] and got["supported_by"] == [sign]
    assert api.get(f"/v1/claims/{ceo}").json()["superseded_by"] == [new]


def test_evidence_spans_carry_offsets_and_exact_text(api: Api):
    text = "On 1 June Sarah Chen became CEO of Apple."
    doc = api.post("/v1/documents", json={"text": text, "title": "memo"}).json()
    start = text.index("Sarah Chen")
    cid = api.write(
        claim("apple", "ceo", "sarah-chen", evidence=[{"document_id": doc["id"], "start": start, "end": start + 10}])
    )["claims"][0]["id"]
    [span] = api.get(f"/v1/claims/{cid}").json()["evidence"]
    assert (span["document_id"], span["start"], span["end"], span["text"]) == (
        doc["id"],
        start,
        start + 10,
        "Sarah Chen",
    )


def test_evidence_offsets_out_of_range_are_rejected_with_the_field(api: Api):
    doc = api.post("/v1/documents", json={"text": "short"}).json()
    bad = api.post(
        "/v1/claims",
        json={
            "claims": [
                claim("a", "b", "c"),
                claim("a", "b", "d", evidence=[{"document_id": doc["id"], "start": 0, "end": 99}]),
            ]
        },
    )
    assert bad.status_code == 422
    assert bad.json()["error"]["field"] == "claims[1].evidence[0].end"
    assert api.list(subject="a") == []  # nothing of the batch was written
    reversed_span = api.post(
        "/v1/claims",
        json={"claims": [claim("a", "b", "c", evidence=[{"document_id": doc["id"], "start": 3, "end": 2}])]},
    )
    assert reversed_span.status_code == 422 and reversed_span.json()["error"]["field"] == "claims[0].evidence[0]"
    unknown = api.post(
        "/v1/claims", json={"claims": [claim("a", "b", "c", evidence=[{"document_id": "nope", "start": 0, "end": 1}])]}
    )
    assert unknown.status_code == 422 and unknown.json()["error"]["field"] == "claims[0].evidence[0].document_id"


def test_documents_make_revisions_and_old_offsets_stay_valid(api: Api):
    v1 = api.post("/v1/documents", json={"text": "Alpha beta.", "external_id": "doc-1"})
    assert v1.status_code == 201 and v1.json()["revision"] == 1
    same = api.post("/v1/documents", json={"text": "Alpha beta.", "external_id": "doc-1"})
    assert same.status_code == 200 and same.json() == v1.json()
    v2 = api.post("/v1/documents", json={"text": "Gamma.", "external_id": "doc-1"}).json()
    assert v2["revision"] == 2 and v2["id"] != v1.json()["id"]
    cid = api.write(claim("a", "b", "c", evidence=[{"document_id": v1.json()["id"], "start": 6, "end": 10}]))
    span = api.get(f"/v1/claims/{cid['claims'][0]['id']}").json()["evidence"][0]
    assert span["text"] == "beta"


def test_listing_is_keyset_paginated(api: Api):
    api.write(*[claim("pager", "item", f"v{i}") for i in range(7)])
    seen, cursor = [], None
    while True:
        params = {"subject": "pager", "limit": 3, **({"cursor": cursor} if cursor else {})}
        page = api.get("/v1/claims", params=params).json()
        seen += [c["object"]["entity"] for c in page["claims"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert sorted(seen) == [f"v{i}" for i in range(7)]
    assert len(set(seen)) == 7


def test_listing_filters_by_predicate_and_object(api: Api):
    api.write(claim("a", "likes", "tea"), claim("b", "likes", "coffee"), claim("c", "owns", "tea"))
    assert sorted(c["subject"] for c in api.list(predicate="likes")) == ["a", "b"]
    assert sorted(c["subject"] for c in api.list(object="tea")) == ["a", "c"]
    assert [c["subject"] for c in api.list(predicate="likes", object="tea")] == ["a"]


def test_transaction_times_strictly_increase_across_concurrent_writes(api: Api):
    with ThreadPoolExecutor(max_workers=8) as pool:
        times = list(pool.map(lambda i: api.write(claim("clock", "tick", f"t{i}"))["recorded_at"], range(40)))
    assert len(set(times)) == 40
    # each write sees exactly the writes recorded at or before its own time
    for t in sorted(times)[::8]:
        assert len(api.list(subject="clock", known_at=t, limit=100)) == sorted(times).index(t) + 1


def test_predicates_registry(api: Api):
    put = api.put("/v1/predicates/ceo", json={"cardinality": "one", "aliases": ["chief-executive"]})
    assert put.status_code == 200
    api.put("/v1/predicates/likes", json={"cardinality": "many"})
    assert api.get("/v1/predicates").json() == [
        {
            "name": "ceo",
            "cardinality": "one",
            "aliases": ["chief-executive"],
            "declared_by": "user",
            "proposed_aliases": [],
        },
        {"name": "likes", "cardinality": "many", "aliases": [], "declared_by": "user", "proposed_aliases": []},
    ]
    bad = api.put("/v1/predicates/ceo", json={"cardinality": "several"})
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "cardinality"
