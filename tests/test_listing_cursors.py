"""The subject, job and memory-event listings page on with what they hand out (next_cursor,
next_before), and refuse with a 422 naming the query parameter a value they could not have handed
out, instead of answering with the first page."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest

from donto import cursors
from donto.ids import uuid7
from support import Api


def invalid(response, field: str) -> None:
    assert response.status_code == 422, response.text
    assert response.json()["error"]["field"] == field, response.text


def pages(api: Api, path: str, items: str, param: str, following: str, **params) -> list[list[dict]]:
    """Every page of a listing, following its cursor until it hands out none."""
    out: list[list[dict]] = []
    cursor = None
    while True:
        response = api.get(path, params={**params, **({param: cursor} if cursor else {})})
        assert response.status_code == 200, response.text
        body = response.json()
        out.append(body[items])
        cursor = body[following]
        if cursor is None:
            return out
        assert len(out) < 20, "the cursor does not move on"


# -- subjects ---------------------------------------------------------------------------------------


def test_subjects_page_by_name_through_every_subject_once(api: Api):
    names = ["Ada", "Babbage", "Lovelace", "Menabrea", "Somerville", "ZZ top"]
    for name in reversed(names):
        assert api.post("/v1/subjects", json={"name": name}).status_code == 201
    listed = pages(api, "/v1/subjects", "subjects", "cursor", "next_cursor", limit=2)
    assert [[s["name"] for s in page] for page in listed] == [names[0:2], names[2:4], names[4:6]]
    whole = api.get("/v1/subjects").json()
    assert [s["name"] for s in whole["subjects"]] == names and whole["next_cursor"] is None


def test_a_subject_page_cut_exactly_at_the_end_hands_out_no_cursor(api: Api):
    for name in ("a", "b"):
        assert api.post("/v1/subjects", json={"name": name}).status_code == 201
    body = api.get("/v1/subjects", params={"limit": 2}).json()
    assert [s["name"] for s in body["subjects"]] == ["a", "b"] and body["next_cursor"] is None
    assert api.get("/v1/subjects", params={"limit": 1}).json()["next_cursor"] is not None


@pytest.mark.parametrize(
    "cursor",
    [
        "garbage",
        "",
        "!!!",
        cursors.encode_claim(str(uuid.uuid4())),  # the claim listing's
        cursors.encode_event(datetime.now(UTC), uuid7()),  # the event log's
    ],
)
def test_a_subject_cursor_not_handed_out_is_invalid(api: Api, cursor: str):
    assert api.post("/v1/subjects", json={"name": "Ada"}).status_code == 201
    invalid(api.get("/v1/subjects", params={"cursor": cursor}), "cursor")


# -- jobs -------------------------------------------------------------------------------------------


def make_jobs(api: Api, memory, count: int) -> list[str]:
    """Jobs of the workspace, cancelled at once so no extraction worker runs them meanwhile."""
    document = api.post("/v1/documents", json={"text": "Ada met Babbage.", "title": "t"}).json()["id"]
    made = []
    for _ in range(count):
        job, _ = memory.jobs.create(api.workspace, "extract", {"mode": "single"}, "single", "document", document, 1)
        memory.jobs.cancel(api.workspace, job)
        made.append(job)
    return made


def test_jobs_page_newest_first_through_every_job_once(api: Api, memory):
    made = make_jobs(api, memory, 5)
    listed = pages(api, "/v1/jobs", "jobs", "before", "next_before", limit=2)
    assert [len(page) for page in listed] == [2, 2, 1]
    assert [j["id"] for page in listed for j in page] == [j["id"] for j in api.get("/v1/jobs").json()["jobs"]]
    assert sorted(j["id"] for page in listed for j in page) == sorted(made)


def test_jobs_page_in_their_listed_order_even_where_ids_sort_otherwise(api: Api, memory):
    # Two jobs made in one millisecond may sort by id otherwise than by createdAt; paging by id alone
    # then skipped one. Here every id sorts against its job's place in the listing.
    made = make_jobs(api, memory, 4)
    memory.graph.write(
        lambda tx: tx.run(
            """UNWIND range(0, size($ids) - 1) AS i
               MATCH (j:Job {id: $ids[i]})
               SET j.createdAt = datetime('2026-01-01T00:00:00Z') + duration({seconds: i})""",
            ids=sorted(made, reverse=True),  # the highest id is the oldest
        ).consume()
    )
    listed = pages(api, "/v1/jobs", "jobs", "before", "next_before", limit=1)
    assert [j["id"] for page in listed for j in page] == sorted(made)


def test_a_job_cursor_not_handed_out_is_invalid(api: Api, client, memory):
    [job] = make_jobs(api, memory, 1)
    foreign = Api(client, "t-" + uuid.uuid4().hex[:12])
    [foreign_job] = make_jobs(foreign, memory, 1)
    for before in ("garbage", "", str(uuid.uuid4()), foreign_job, "x" * 129):
        invalid(api.get("/v1/jobs", params={"before": before}), "before")
    # A job no longer in the state filtered on (it was listed when it was) still pages on.
    filtered = api.get("/v1/jobs", params={"before": job, "state": "queued"})
    assert filtered.status_code == 200 and filtered.json()["jobs"] == [], filtered.text


# -- memory events ----------------------------------------------------------------------------------


def record_events(memory, workspace: str, session: str, count: int, at: datetime) -> None:
    """Events sharing one time, as the events of one write do."""

    def work(tx):
        for n in range(count):
            memory.graph.run(
                tx,
                "memory_event_record",
                id=uuid7(),
                workspace=workspace,
                session=session,
                operation="test",
                detail=f'{{"n": {n}}}',
                recorded_at=at,
            )

    memory.graph.write(work)


def test_events_page_newest_first_through_every_event_once(api: Api):
    for name in ("a", "b", "c", "d", "e"):
        assert api.post("/v1/subjects", json={"name": name}, headers={"X-Donto-Session": "s1"}).status_code == 201
    whole = api.get("/v1/memory/events").json()
    assert len(whole["events"]) == 5 and whole["next_before"] is None
    listed = pages(api, "/v1/memory/events", "events", "before", "next_before", limit=2)
    assert [len(page) for page in listed] == [2, 2, 1]
    assert [e for page in listed for e in page] == whole["events"]


def test_events_of_one_time_are_paged_through_without_loss(api: Api, memory):
    at = datetime(2026, 1, 1, 12, 0, 0, 123456, tzinfo=UTC)
    record_events(memory, api.workspace, "s1", 5, at)
    record_events(memory, api.workspace, "s2", 3, at)
    listed = pages(api, "/v1/memory/events", "events", "before", "next_before", limit=2, session_id="s1")
    assert [len(page) for page in listed] == [2, 2, 1]
    details = sorted(e["detail"] for page in listed for e in page)
    assert details == sorted(f'{{"n": {n}}}' for n in range(5))
    assert {e["session_id"] for page in listed for e in page} == {"s1"}


@pytest.mark.parametrize(
    "before",
    [
        "garbage",
        "",
        "2026-01-01T00:00:00Z",
        str(uuid.uuid4()),
        cursors.encode_subject("Ada"),  # the subject listing's
        cursors.encode(cursors.EVENTS, "not a time", str(uuid.uuid4())),
    ],
)
def test_an_event_cursor_not_handed_out_is_invalid(api: Api, before: str):
    assert api.post("/v1/subjects", json={"name": "Ada"}).status_code == 201
    invalid(api.get("/v1/memory/events", params={"before": before}), "before")
