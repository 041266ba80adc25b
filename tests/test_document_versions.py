"""A document's revisions are versions in the world or corrections: a refund policy's 30-day version
from June leaves the 14-day one in force before it, for recall, the documents API and the export,
each as of valid_at and as known at known_at; a typo fixed is a correction, in transaction time
only, as every revision was before versions; and what fits neither is refused with nothing written."""

from __future__ import annotations

from donto.temporal.instants import parse_instant, utc_now
from support import Api

POLICY = "refund-policy"
FOURTEEN = "Customers can return items within 14 days of delivery."
THIRTY = "Customers can return items within 30 days of delivery."
QUESTION = "Within how many days can customers return items?"
MARCH = "2024-03-01T00:00:00Z"


def register(api: Api, status: int = 201, **body) -> dict:
    response = api.post("/v1/documents", json={"external_id": POLICY, **body})
    assert response.status_code == status, response.text
    return response.json()


def recalled(api: Api, **scope) -> dict[str, str]:
    """The document revisions recall's items come from, each with its item's text."""
    response = api.post("/v1/recall", json={"query": QUESTION, "include_provenance": True, "k": 5, **scope})
    assert response.status_code == 200, response.text
    items = response.json()["items"]
    return {i["provenance"]["document_id"]: i["text"] for i in items if i.get("provenance", {}).get("document_id")}


def listed(api: Api, **params) -> list[dict]:
    response = api.get("/v1/documents", params={"external_id": POLICY, **params})
    assert response.status_code == 200, response.text
    return response.json()["documents"]


def the_two_versions(api: Api) -> tuple[dict, str, dict]:
    first = register(api, text=FOURTEEN, occurred_at="2024-01-15T00:00:00Z")
    between = api.get(f"/v1/documents/{first['id']}").json()["recorded_at"]
    second = register(api, text=THIRTY, occurred_at="2024-06-01T00:00:00Z")
    return first, between, second


def test_a_later_dated_text_is_a_new_version_and_recall_answers_each_time_with_its_own(api):
    first, between, second = the_two_versions(api)
    assert (first["revision_kind"], first["valid_from"]) == ("version", "2024-01-15T00:00:00Z")
    assert (second["revision_kind"], second["valid_from"]) == ("version", "2024-06-01T00:00:00Z")

    in_march = recalled(api, valid_at=MARCH)
    assert list(in_march) == [first["id"]]
    assert in_march[first["id"]].startswith("[15 January 2024; until 1 June 2024") and FOURTEEN in in_march[first["id"]]
    now = recalled(api)
    assert (
        list(now) == [second["id"]]
        and now[second["id"]].startswith("[1 June 2024")
        and "until" not in now[second["id"]]
    )
    # As known before the new version came, the 14-day rule was the policy, open-ended: now too.
    known_then = recalled(api, known_at=between)
    assert list(known_then) == [first["id"]] and "until" not in known_then[first["id"]]


def test_the_documents_api_reads_each_version_as_of_valid_at_and_known_at(api):
    first, between, second = the_two_versions(api)
    [march] = listed(api, valid_at=MARCH)
    assert (march["id"], march["valid_from"], march["valid_to"]) == (
        first["id"],
        "2024-01-15T00:00:00Z",
        "2024-06-01T00:00:00Z",
    )
    [now] = listed(api)
    assert (now["id"], now["valid_to"]) == (second["id"], None)
    [known_then] = listed(api, known_at=between)
    assert (known_then["id"], known_then["valid_to"]) == (first["id"], None)
    assert listed(api, valid_at="2023-12-31") == []  # before the policy's first version

    detail = api.get(f"/v1/documents/{first['id']}").json()
    assert detail["replaced_at"] is None and detail["valid_to"] == "2024-06-01T00:00:00Z"  # still known: it held then
    assert [(r["revision_kind"], r["valid_from"], r["valid_to"]) for r in detail["revisions"]] == [
        ("version", "2024-01-15T00:00:00Z", "2024-06-01T00:00:00Z"),
        ("version", "2024-06-01T00:00:00Z", None),
    ]


def test_the_graph_export_holds_the_version_in_force_as_known_then(api, memory):
    first, between, second = the_two_versions(api)

    def exported(valid_at: str | None, known_at: str | None = None) -> dict[str, dict]:
        graph = memory.analyst.claims_graph(
            api.workspace,
            valid_at=parse_instant(valid_at) if valid_at else None,
            known_at=parse_instant(known_at) if known_at else utc_now(),
        )
        return {data["id"]: data for _, data in graph.nodes(data=True) if data["label"] == "Document"}

    march = exported(MARCH)
    assert list(march) == [first["id"]] and march[first["id"]]["validTo"] == "2024-06-01T00:00:00Z"
    assert "text" not in march[first["id"]] and march[first["id"]]["length"] == len(FOURTEEN)
    assert list(exported("2024-07-01")) == [second["id"]]
    known_then = exported("2024-07-01", between)
    assert list(known_then) == [first["id"]] and "validTo" not in known_then[first["id"]]


def test_a_typo_fixed_with_the_same_date_or_none_is_a_correction_in_transaction_time_only(api):
    first = register(api, text="Customers can retrun items within 14 days of delivery.", occurred_at="2024-01-15")
    same_date = register(api, text="Customers can return items within 14 day of delivery.", occurred_at="2024-01-15")
    no_date = register(api, text=FOURTEEN)
    for fix in (same_date, no_date):
        assert (fix["revision_kind"], fix["valid_from"]) == ("correction", "2024-01-15T00:00:00Z")
    assert no_date["occurred_at"] is None  # what was sent: the fix keeps the corrected one's valid start

    detail = api.get(f"/v1/documents/{first['id']}").json()
    assert detail["replaced_at"] is not None and detail["valid_to"] is None  # replaced as known, not ended
    assert list(recalled(api, valid_at=MARCH)) == [no_date["id"]]
    assert list(recalled(api)) == [no_date["id"]]
    [now] = listed(api)
    assert now["id"] == no_date["id"]


def test_revision_kind_overrides_the_dates_both_ways(api):
    undated = register(api, text=FOURTEEN)
    version = register(api, text=THIRTY, occurred_at="2024-06-01", revision_kind="version")
    assert version["revision_kind"] == "version"  # unasked, a dated text after an undated one is a correction
    assert list(recalled(api, valid_at=MARCH)) == [undated["id"]]
    assert list(recalled(api)) == [version["id"]]

    fixed = register(
        api, text="Customers can return items within 30 days of the delivery.", occurred_at="2024-07-01",
        revision_kind="correction",
    )  # fmt: skip
    assert (fixed["revision_kind"], fixed["valid_from"]) == ("correction", "2024-06-01T00:00:00Z")
    assert list(recalled(api, valid_at="2024-06-15")) == [fixed["id"]]  # the fix holds from the start it fixed
    assert api.get(f"/v1/documents/{version['id']}").json()["replaced_at"] is not None


def test_what_fits_neither_kind_is_a_422_naming_its_field_and_writes_nothing(api):
    first = register(api, text=FOURTEEN, occurred_at="2024-01-15")
    for body, field in [
        ({"text": THIRTY, "occurred_at": "2024-06-01", "revision_kind": "edit"}, "revision_kind"),
        ({"text": THIRTY, "occurred_at": "2023-12-01"}, "occurred_at"),  # dated before the version it follows
        ({"text": THIRTY, "occurred_at": "2024-01-15", "revision_kind": "version"}, "occurred_at"),
        ({"text": THIRTY, "revision_kind": "version"}, "occurred_at"),  # a version needs its date
        ({"text": THIRTY, "external_id": "new-one", "revision_kind": "correction"}, "revision_kind"),
        ({"text": THIRTY, "external_id": None, "revision_kind": "version"}, "revision_kind"),
    ]:
        response = api.post("/v1/documents", json={"external_id": POLICY, **body})
        assert response.status_code == 422, (body, response.text)
        assert response.json()["error"]["field"] == field, (body, response.text)
    detail = api.get(f"/v1/documents/{first['id']}").json()
    assert [r["id"] for r in detail["revisions"]] == [first["id"]] and detail["replaced_at"] is None
    assert listed(api, external_id=["new-one"]) == []


def test_a_document_registered_before_versions_reads_as_before_and_a_version_can_follow_it(api, memory):
    old = register(api, text=FOURTEEN, occurred_at="2024-01-15")
    memory.graph.write(  # as a store written before versions holds it: no kind, no valid interval
        lambda tx: tx.run(
            "MATCH (d:Document {id: $id}) OPTIONAL MATCH (d)-[:HAS_PASSAGE]->(p:Passage) "
            "REMOVE d.revisionKind, d.validFrom, p.validFrom",
            id=old["id"],
        ).consume()
    )
    assert list(recalled(api, valid_at=MARCH)) == [old["id"]]
    assert recalled(api, valid_at="2024-01-01") == {}  # not before it was written, as always
    assert api.get(f"/v1/documents/{old['id']}").json()["valid_from"] == "2024-01-15T00:00:00Z"

    later = register(api, text=THIRTY, occurred_at="2024-06-01")
    assert later["revision_kind"] == "version"
    assert list(recalled(api, valid_at=MARCH)) == [old["id"]]
    assert list(recalled(api)) == [later["id"]]
    earlier = api.post("/v1/documents", json={"external_id": POLICY, "text": "x", "occurred_at": "2024-05-01"})
    assert earlier.status_code == 422 and earlier.json()["error"]["field"] == "occurred_at"
