"""A five-minute tour of donto over REST, runnable as it is against a running donto (`make up`):

    .venv/bin/python examples/tour.py

It finds the API and the admin key as donto.Client does: DONTO_URL and DONTO_API_KEY, else the address
`make up` recorded in its home and the key it kept there (`.donto/`, here or in a folder above, or
DONTO_HOME); with neither it stops, sending nothing (`eval "$(donto env)"` names them); and it works in a
workspace of its own (DONTO_WORKSPACE, default a fresh `tour-...`), so it can run any number of
times. Every id it uses comes from an answer: nothing to copy by hand. tests/test_tour.py runs it
against the suite's server, so it cannot rot."""

from __future__ import annotations

import os
import sys
import time

import httpx

from donto.home import NoApiAddress, admin_key, client_url  # as donto.Client finds them: the environment, else the home

NO_KEY = "no admin key: set DONTO_API_KEY, or run this where `make up` ran"


def show(title: str) -> None:
    print(f"\n== {title}")


def main() -> None:
    workspace = os.environ.get("DONTO_WORKSPACE") or f"tour-{time.strftime('%Y%m%d-%H%M%S')}"
    try:
        url = client_url()
    except NoApiAddress as exc:  # no default port: it may be another donto's, which would get this key
        sys.exit(str(exc))
    donto = httpx.Client(
        base_url=url,
        headers={"Authorization": f"Bearer {admin_key() or sys.exit(NO_KEY)}", "X-Donto-Workspace": workspace},
        timeout=60,
    )

    def call(method: str, path: str, **kwargs) -> dict:  # type: ignore[no-untyped-def]
        response = donto.request(method, path, **kwargs)
        response.raise_for_status()  # a 4xx body names the field at fault: print(response.json())
        return response.json()

    print(f"donto at {donto.base_url}, workspace {workspace}")

    show("1. A document, remembered without an LLM, recalled with its exact offsets and date")
    notes = (
        "Team notes, spring offsite.\n"
        "Ann moved to Lisbon in 2019 and takes the metro to the office.\n"
        "The Lisbon office opens at eight; the Porto office at nine."
    )
    doc = call("POST", "/v1/documents", json={"text": notes, "title": "Offsite notes", "occurred_at": "2023-04-05"})
    found = call("POST", "/v1/recall", json={"query": "How does Ann get to work?", "k": 3, "include_provenance": True})
    top = found["items"][0]
    print(f"  {top['text']}")
    where = top["provenance"]
    text = donto.get(f"/v1/documents/{doc['id']}/text").text
    start, end = where["start"], where["end"]
    print(f"  from {where['title']!r}, characters {start}-{end}: {text[start:end]!r}")

    show("2. Claims with valid time, one resting on another")
    call("PUT", "/v1/predicates/lives_in", json={"cardinality": "one"})  # one city at a time: a later one supersedes
    lisbon = call(
        "POST",
        "/v1/claims",
        json={
            "claims": [
                {"subject": "ann", "predicate": "lives_in", "object": {"entity": "lisbon"}, "valid_from": "2019-06-01"}
            ]
        },
    )["claims"][0]["id"]
    planned = call(
        "POST",
        "/v1/claims",
        json={
            "claims": [
                {
                    "subject": "ann",
                    "predicate": "commutes_by",
                    "object": {"entity": "lisbon-metro"},
                    "valid_from": "2019-06-01",
                    "derived_from": [lisbon],  # concluded from where she lives
                }
            ]
        },
    )
    commute = planned["claims"][0]["id"]
    status = call("GET", f"/v1/claims/{commute}/status")
    print(f"  ann commutes_by lisbon-metro, resting on ann lives_in lisbon: {status['status']}")

    show("3. The world changes: a new claim, nothing overwritten")
    known_then = planned["recorded_at"]  # donto's own transaction time of the last write before the move
    call(
        "POST",
        "/v1/claims",
        json={
            "claims": [
                {"subject": "ann", "predicate": "lives_in", "object": {"entity": "porto"}, "valid_from": "2024-09-01"}
            ]
        },
    )
    status = call("GET", f"/v1/claims/{commute}/status")
    reason = status["reasons"][0]
    print(f"  the commute claim is now {status['status']}: its premise was {reason['kind']}")

    show("4. As-of reads on both axes")

    def home(**scope: str) -> str:
        profile = call("GET", "/v1/entities/ann/profile", params=scope)
        [lives_in] = [p for p in profile["predicates"] if p["predicate"] == "lives_in"]
        return next(c["object"] for c in lives_in["claims"] if c["current"])

    for valid_at in ("2020-01-01", "2025-01-01"):
        print(f"  where did ann live on {valid_at}? {home(valid_at=valid_at)}")
    earlier = home(valid_at="2025-01-01", known_at=known_then)
    print(f"  on 2025-01-01, as donto knew it before the move was recorded: {earlier}")

    show("5. Recall: a small, dated bundle; each claim says whether it still holds")
    bundle = call("POST", "/v1/recall", json={"query": "Where does Ann live?", "k": 6})
    for item in bundle["items"]:
        state = f"  ({item['state']})" if "state" in item else ""
        print(f"  - {item['text']}{state}")

    show("6. A conversation, kept verbatim and dated")
    call(
        "POST",
        "/v1/episodes",
        json={
            "session": {"external_id": "call-1", "started_at": "2024-11-20T18:00:00Z"},
            "turns": [{"external_id": "t1", "speaker": "Ann", "text": "I ran my first half marathon last Saturday!"}],
        },
    )
    said = call("POST", "/v1/recall", json={"query": "When did Ann run a half marathon?", "k": 1})["items"][0]
    print(f"  {said['subject']} {said['predicate']}: {said['text']}")
    print("\nNext: the premise walk, identity, memorize with an LLM, MCP, the Browser guide: see the docs.")


if __name__ == "__main__":
    main()
