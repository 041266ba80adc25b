"""What a claim says is what was said, no more: a denial reads as a denial, a guess as a guess, a
time donto cannot resolve never replaces the present, every read names the same replacement, and
the same fact from a second source corroborates the claim. Text in through memorize (a scripted
endpoint on a real socket), read back through recall, the claims API, the profile and the walk, on
a real Neo4j: the assertions are on the words an agent reads."""

from __future__ import annotations

import pytest
from scripted_llm import ScriptedLLM, lines
from scripted_llm import memorize_facts as memorize

from support import Api

pytestmark = pytest.mark.usefixtures("fresh_script")


def recall(api: Api, query: str, predicate: str, **scope) -> dict[str, dict]:
    """The bundle's claim items of `predicate`, by object."""
    response = api.post("/v1/recall", json={"query": query, "k": 20, **scope})
    assert response.status_code == 200, response.text
    return {i["object"]: i for i in response.json()["items"] if i["predicate"] == predicate}


def profile(api: Api, key: str) -> dict[str, list[dict]]:
    response = api.get(f"/v1/entities/{key}/profile")
    assert response.status_code == 200, response.text
    return {g["predicate"]: g["claims"] for g in response.json()["predicates"]}


def test_a_denial_reads_as_a_denial_in_recall_the_claims_api_and_the_profile(xapi: Api, llm: ScriptedLLM):
    denial = {"s": "Ann", "p": "likes", "o": "fado", "mod": "negated", "q": "I don't like fado at all"}
    memorize(xapi, llm, "Ann: I don't like fado at all.", "2024-03-01", denial)

    [item] = recall(xapi, "Does Ann like fado?", "likes").values()
    assert item["text"] == (
        '[1 March 2024] ann does NOT like fado "I don\'t like fado at all"'
        " — from the document: Ann: I don't like fado at all."
    )
    assert item["context"] == "negated" and item["standing"] == "asserted" and item["hypothesis"] is False
    [claim] = xapi.list(predicate="likes")
    assert claim["statement"] == "ann does NOT like fado" and claim["context"] == "negated"
    assert xapi.get(f"/v1/claims/{claim['id']}").json()["statement"] == "ann does NOT like fado"
    [fact] = profile(xapi, "ann")["likes"]
    assert fact["statement"] == "ann does NOT like fado" and fact["context"] == "negated"


def test_a_guess_reads_as_a_guess_and_its_hypothesis_lives_on_the_claim(xapi: Api, llm: ScriptedLLM):
    guess = {
        "s": "Ann",
        "p": "takes_up",
        "o": "jazz piano",
        "mod": "possible",
        "hyp": True,
        "q": "Maybe I'll take up jazz piano next year",
    }
    memorize(xapi, llm, "Ann: Maybe I'll take up jazz piano next year.", "2024-03-01", guess)

    [claim] = xapi.list(predicate="takes_up")
    assert claim["statement"] == "possibly: ann takes_up jazz-piano"
    assert claim["hypothesis"] is True and claim["standing"] == "hypothetical" and claim["context"] == "possible"
    detail = xapi.get(f"/v1/claims/{claim['id']}").json()
    assert detail["standing"] == "hypothetical" and detail["statement"] == claim["statement"]
    [item] = recall(xapi, "Will Ann take up jazz piano?", "takes_up").values()
    assert item["text"].startswith("[1 March 2024] possibly: ann takes_up jazz-piano")
    assert item["hypothesis"] is True and item["standing"] == "hypothetical"
    [fact] = profile(xapi, "ann")["takes_up"]
    assert fact["statement"] == "possibly: ann takes_up jazz-piano" and fact["standing"] == "hypothetical"


def test_a_hypothetical_value_never_replaces_a_stated_one(xapi: Api, llm: ScriptedLLM):
    memorize(xapi, llm, "Ann lives in Lisbon.", "2024-01-05", {"s": "Ann", "p": "lives_in", "o": "Lisbon"})
    maybe = {"s": "Ann", "p": "lives_in", "o": "Porto", "hyp": True, "vf": "2024-02-01"}
    memorize(xapi, llm, "Ann might live in Porto by now.", "2024-03-01", maybe)
    homes = {f["object"]: f for f in profile(xapi, "ann")["lives_in"]}
    assert homes["lisbon"]["current"] and homes["lisbon"]["superseded_by"] == []
    assert homes["porto"]["statement"] == "possibly: ann lives_in porto"


def test_a_time_donto_cannot_resolve_keeps_its_words_and_never_replaces_the_present(xapi: Api, llm: ScriptedLLM):
    lisbon = {"s": "Ann", "p": "lives_in", "o": "Lisbon", "vf": "since 2019", "q": "I have lived in Lisbon since 2019"}
    memorize(xapi, llm, "Ann: I have lived in Lisbon since 2019.", "2024-01-05", lisbon)
    faro = {"s": "Ann", "p": "lived_in", "o": "Faro", "vf": "as a child", "q": "As a child I lived in Faro"}
    faro["p"] = "lives_in"  # as a model gives it: the same single-valued predicate
    memorize(xapi, llm, "Ann: As a child I lived in Faro.", "2024-01-10", faro)

    homes = {c["object"]["entity"]: c for c in xapi.list(predicate="lives_in")}
    assert homes["faro"]["valid_from"] is None and homes["faro"]["valid_when"] == "as a child"
    assert homes["lisbon"]["superseded_by"] == [] and homes["faro"]["superseded_by"] == []
    now = {f["object"]: f for f in profile(xapi, "ann")["lives_in"]}
    assert now["lisbon"]["current"] and not now["faro"]["current"]
    assert now["faro"]["valid_when"] == "as a child"
    status = xapi.get(f"/v1/claims/{homes['lisbon']['id']}/status").json()
    assert status["status"] == "UNVERIFIED"

    items = recall(xapi, "Where does Ann live?", "lives_in")
    assert items["lisbon"]["state"] == "current"
    assert items["lisbon"]["text"].startswith("[1 January 2019] ann lives_in lisbon")
    assert items["faro"]["state"] == "time_unknown"
    assert items["faro"]["text"] == (
        '[time unknown: as a child] ann lives_in faro "As a child I lived in Faro"'
        " — from the document: Ann: As a child I lived in Faro."
    )


def test_every_read_names_the_same_claim_as_what_replaced_the_old_home(xapi: Api, llm: ScriptedLLM):
    memorize(xapi, llm, "Ann lives in Lisbon.", "2024-01-10", {"s": "Ann", "p": "lives_in", "o": "Lisbon"})
    porto = {"s": "Ann", "p": "lives_in", "o": "Porto", "vf": "last month", "q": "she moved to Porto last month"}
    memorize(xapi, llm, "News from Ann: she moved to Porto last month.", "2024-06-03", porto)

    homes = {c["object"]["entity"]: c for c in xapi.list(predicate="lives_in")}
    replaced = [homes["porto"]["id"]]
    assert homes["lisbon"]["superseded_by"] == replaced  # the listing
    assert xapi.get(f"/v1/claims/{homes['lisbon']['id']}").json()["superseded_by"] == replaced  # one claim
    assert {f["object"]: f for f in profile(xapi, "ann")["lives_in"]}["lisbon"]["superseded_by"] == replaced
    walk = xapi.get(f"/v1/claims/{homes['lisbon']['id']}/status").json()
    assert [r["by"] for r in walk["reasons"] if r["kind"] == "superseded"] == [replaced]
    items = recall(xapi, "Where does Ann live?", "lives_in")
    assert items["lisbon"]["state"] == "superseded" and items["porto"]["state"] == "current"
    # As of March, nothing had replaced it, in every read.
    then = xapi.get(f"/v1/claims/{homes['lisbon']['id']}", params={"valid_at": "2024-03-01"}).json()
    assert then["superseded_by"] == []


def test_the_same_fact_from_another_source_corroborates_the_claim(xapi: Api, llm: ScriptedLLM):
    team = {"s": "Carl", "p": "works_at", "o": "Acme", "q": "Carl works at Acme"}
    first = memorize(xapi, llm, "Our team: Carl works at Acme.", "2024-03-01", team, title="Team page")
    news = {"s": "Carl", "p": "works_at", "o": "Acme", "vf": "these days", "q": "Carl is at Acme these days"}
    second = memorize(xapi, llm, "Newsletter: Carl is at Acme these days.", "2024-03-05", news, title="Newsletter")
    assert first["summary"]["claimsCreated"] == 1
    assert second["summary"]["claimsCreated"] == 0 and second["summary"]["corroborations"] == 1

    [claim] = xapi.list(predicate="works_at")
    assert claim["valid_from"] == "2024-03-01T00:00:00Z"  # the earliest source
    assert claim["sources"] == 2 and claim["standing"] == "corroborated"
    detail = xapi.get(f"/v1/claims/{claim['id']}").json()
    assert sorted(e["text"] for e in detail["evidence"]) == ["Carl is at Acme these days", "Carl works at Acme"]
    [item] = recall(xapi, "Where does Carl work?", "works_at").values()
    assert item["text"].startswith("[1 March 2024] carl works_at acme (2 sources)")
    assert item["standing"] == "corroborated"

    # The same source read again adds no source; a genuinely different period is a claim of its own.
    llm.queue(lines(news))
    reread = xapi.post("/v1/memorize", json={"document_id": second["source_id"], "async": False}).json()
    assert reread["summary"]["corroborations"] == 0, reread
    llm.queue(lines(news))  # so is the same text registered again, under another title
    copy = {"text": "Newsletter: Carl is at Acme these days.", "occurred_at": "2024-03-07", "title": "Copy"}
    again = xapi.post("/v1/memorize", json={**copy, "async": False}).json()
    assert again["summary"]["corroborations"] == 0 and again["summary"]["claimsCreated"] == 0, again
    past = {"s": "Carl", "p": "works_at", "o": "Acme", "vf": "2010", "vt": "2012", "q": "from 2010 to 2012"}
    memorize(xapi, llm, "Carl was at Acme from 2010 to 2012.", "2024-03-06", past)
    claims = xapi.list(predicate="works_at", valid_at="2011-06-01")
    assert [c["valid_from"] for c in claims] == ["2010-01-01T00:00:00Z"]
    [now] = xapi.list(predicate="works_at")
    assert now["id"] == claim["id"] and now["sources"] == 2
