"""Extraction writes corrections: a text that corrects itself ("I moved to Glasgow in August." ...
"sorry, it was July, not August") makes the July claim the August claim's new version, when exactly
one live claim is what the fact says it replaces (else a plain claim, and the job says why); and a
source dated before a claim's start but read after it moves that start back (a new version citing
both sources). REST in, the production LLM client talking to a scripted endpoint on a real socket,
a real Neo4j; reads on both time axes and the premise walk."""

from __future__ import annotations

import pytest
from scripted_llm import ScriptedLLM, lines
from scripted_llm import memorize_facts as memorize

from support import Api, claim

TEXT = "Lena: I moved to Glasgow in August. I love living by the Clyde. Oh, sorry, it was July, not August."
AUGUST = {"id": "f1", "s": "Lena", "p": "moved_to", "o": "Glasgow", "vf": "in August", "q": "I moved to Glasgow"}
NEAR = {"id": "f2", "s": "Lena", "p": "lives_near", "o": "the Clyde", "hyp": True, "from": ["f1"], "q": "by the Clyde"}
JULY = {**AUGUST, "id": "f3", "vf": "July", "corr": "August", "q": "sorry, it was July, not August"}


pytestmark = pytest.mark.usefixtures("fresh_script")


def facts_of(api: Api, job_id: str) -> list[dict]:
    response = api.get(f"/v1/jobs/{job_id}/facts")
    assert response.status_code == 200, response.text
    return list(response.json()["facts"])


def again(api: Api, llm: ScriptedLLM, source_id: str, *facts: dict) -> dict:
    """The kept document extracted once more, the endpoint answering the same facts."""
    llm.queue(lines(*facts))
    response = api.post("/v1/memorize", json={"document_id": source_id, "async": False})
    assert response.status_code == 200 and response.json()["extraction"] == "succeeded", response.text
    return dict(response.json())


def test_a_text_that_corrects_itself_makes_the_new_value_the_old_claims_new_version(xapi: Api, llm: ScriptedLLM):
    out = memorize(xapi, llm, TEXT, "2024-09-10", AUGUST, NEAR, JULY)
    assert out["summary"]["corrections"] == 1 and out["summary"]["claimsCreated"] == 3

    [july] = xapi.list(predicate="moved_to")
    assert july["valid_from"] == "2024-07-01T00:00:00Z"
    detail = xapi.get(f"/v1/claims/{july['id']}").json()
    [august_id] = detail["corrects"]
    august = xapi.get(f"/v1/claims/{august_id}").json()
    assert august["valid_from"] == "2024-08-01T00:00:00Z" and august["corrected_by"] == [july["id"]]
    assert august["tx_to"] == detail["tx_from"] and august["retraction_reason"] == f"corrected by {july['id']}"
    # As known before the correction: August; as known now: July.
    believed = xapi.list(predicate="moved_to", valid_at="2024-08-15T00:00:00Z", known_at=august["tx_from"])
    assert [c["id"] for c in believed] == [august_id]
    assert xapi.list(predicate="moved_to", valid_at="2024-07-15T00:00:00Z", known_at=august["tx_from"]) == []
    assert [c["id"] for c in xapi.list(predicate="moved_to", valid_at="2024-07-15T00:00:00Z")] == [july["id"]]

    # What was concluded from August rests on a corrected premise, and says by what.
    [near] = xapi.list(predicate="lives_near")
    status = xapi.get(f"/v1/claims/{near['id']}/status").json()
    assert status["status"] == "POTENTIALLY_STALE"
    [reason] = status["reasons"]
    assert (reason["claim_id"], reason["kind"], reason["by"]) == (august_id, "corrected", [july["id"]])

    # The job says which fact corrected which claim.
    stated_august, _, stated_july = facts_of(xapi, out["job_id"])
    assert (stated_august["outcome"], stated_august["correction"]) == ("created", None)
    assert (stated_july["outcome"], stated_july["corrects"], stated_july["claim_id"]) == (
        "corrected",
        august_id,
        july["id"],
    )
    assert stated_july["correction"] == f"corrects claim {august_id}, which said August"


def test_running_the_job_again_corrects_nothing_twice_and_never_brings_back_the_old_value(xapi: Api, llm: ScriptedLLM):
    out = memorize(xapi, llm, TEXT, "2024-09-10", AUGUST, NEAR, JULY)
    before = {c["id"] for c in xapi.list(limit=100)}
    rerun = again(xapi, llm, out["source_id"], AUGUST, NEAR, JULY)
    assert (rerun["summary"]["claimsCreated"], rerun["summary"]["corrections"]) == (0, 0), rerun["summary"]
    assert {c["id"] for c in xapi.list(limit=100)} == before
    [july] = xapi.list(predicate="moved_to")
    assert july["valid_from"] == "2024-07-01T00:00:00Z"
    stated_august, _, stated_july = facts_of(xapi, rerun["job_id"])
    assert stated_august["outcome"] == "existing"
    assert stated_august["correction"].endswith(f"was corrected since (by {july['id']}): not written again")
    assert (stated_july["outcome"], stated_july["claim_id"], stated_july["corrects"]) == ("existing", july["id"], None)
    assert stated_july["correction"] == f"claim {july['id']} states it already: nothing corrected again"


def test_a_correction_that_matches_no_claim_or_several_is_written_as_its_own_claim_and_the_job_says_why(
    xapi: Api, llm: ScriptedLLM
):
    # Two moves in August (moved_to is not single-valued): "it was July, not August" could mean either.
    xapi.write(
        claim("lena", "moved_to", "glasgow", valid_from="2024-08-01"),
        claim("lena", "moved_to", "edinburgh", valid_from="2024-08-20"),
    )
    march = {**JULY, "o": "Leeds", "corr": "March"}  # and none of Lena's moves started in March
    out = memorize(xapi, llm, TEXT, "2024-09-10", JULY, march)
    assert (out["summary"]["corrections"], out["summary"]["claimsCreated"]) == (0, 2)
    moves = xapi.list(predicate="moved_to", limit=100)
    assert sorted((c["object"]["entity"], c["valid_from"][:10]) for c in moves) == [
        ("edinburgh", "2024-08-20"),
        ("glasgow", "2024-07-01"),
        ("glasgow", "2024-08-01"),
        ("leeds", "2024-07-01"),
    ]
    assert all(xapi.get(f"/v1/claims/{c['id']}").json()["corrects"] == [] for c in moves)  # none is guessed
    several, none = facts_of(xapi, out["job_id"])
    assert several["outcome"] == "created" and several["corrects"] is None
    assert several["correction"].startswith("not a correction: 2 live claims of lena moved_to say August (")
    assert several["correction"].endswith("); written as a claim of its own")
    assert (none["outcome"], none["corrects"]) == ("created", None)
    assert none["correction"] == (
        "not a correction: no live claim of lena moved_to says March; written as a claim of its own"
    )


def test_a_source_dated_before_a_claims_start_but_read_after_it_moves_the_start_back_citing_both(
    xapi: Api, llm: ScriptedLLM
):
    team = {"s": "Carl", "p": "works_at", "o": "Acme", "q": "Carl works at Acme"}
    page = memorize(xapi, llm, "Our team: Carl works at Acme.", "2024-03-05", team, title="Team page")
    [first] = xapi.list(predicate="works_at")
    assert first["valid_from"] == "2024-03-05T00:00:00Z"
    news = {"s": "Carl", "p": "works_at", "o": "Acme", "q": "Carl is at Acme"}
    earlier = memorize(xapi, llm, "Newsletter: Carl is at Acme these days.", "2024-03-01", news, title="Newsletter")
    assert (earlier["summary"]["corrections"], earlier["summary"]["claimsCreated"]) == (1, 1)

    [moved] = xapi.list(predicate="works_at")
    assert moved["valid_from"] == "2024-03-01T00:00:00Z" and moved["sources"] == 2
    detail = xapi.get(f"/v1/claims/{moved['id']}").json()
    assert detail["corrects"] == [first["id"]]
    assert sorted(e["text"] for e in detail["evidence"]) == ["Carl is at Acme", "Carl works at Acme"]
    assert [c["id"] for c in xapi.list(predicate="works_at", valid_at="2024-03-02T00:00:00Z")] == [moved["id"]]
    old = xapi.get(f"/v1/claims/{first['id']}").json()
    as_known_then = xapi.list(predicate="works_at", valid_at="2024-03-02T00:00:00Z", known_at=old["tx_from"])
    assert as_known_then == []  # before the newsletter was read, nothing said Carl was there on 2 March
    [stated] = facts_of(xapi, earlier["job_id"])
    assert (stated["outcome"], stated["corrects"]) == ("corrected", first["id"])
    assert stated["correction"] == (
        f"an earlier source: the start of claim {first['id']} moves back from 2024-03-05 to 2024-03-01"
    )

    # Either source read again changes nothing.
    for source, fact in ((earlier["source_id"], news), (page["source_id"], team)):
        rerun = again(xapi, llm, source, fact)
        assert (rerun["summary"]["claimsCreated"], rerun["summary"]["corrections"]) == (0, 0), rerun["summary"]
    assert [c["id"] for c in xapi.list(predicate="works_at")] == [moved["id"]]


def test_an_earlier_source_of_a_single_valued_value_another_value_came_between_is_a_stint_of_its_own(
    xapi: Api, llm: ScriptedLLM
):
    xapi.write(
        claim("dana", "works_at", "initech", valid_from="2024-02-15"),
        claim("dana", "works_at", "acme", valid_from="2024-03-05"),
    )
    said = {"s": "Dana", "p": "works_at", "o": "Acme", "q": "Dana is at Acme"}
    out = memorize(xapi, llm, "Dana is at Acme.", "2024-02-01", said)
    assert (out["summary"]["corrections"], out["summary"]["claimsCreated"]) == (0, 1)
    acme = xapi.list(predicate="works_at", object="acme", valid_at="2024-02-02T00:00:00Z")
    assert [c["valid_from"] for c in acme] == ["2024-02-01T00:00:00Z"]
    stints = xapi.list(predicate="works_at", subject="dana", limit=100, valid_at="2024-03-10T00:00:00Z")
    assert len(stints) == 3  # 1 February's Acme, Initech, 5 March's Acme: each its own stint
