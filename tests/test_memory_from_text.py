"""What donto reads by itself becomes dated, walkable, recallable memory: text in through memorize
(the production LLM client talking to a scripted endpoint on a real socket), then the question,
the as-of read and the premise walk on what came of it, on a real Neo4j."""

from __future__ import annotations

import pytest
from scripted_llm import ScriptedLLM
from scripted_llm import memorize_facts as memorize

from support import Api

LISBON_TEXT = "Ann lives in Lisbon. Because of that she rides the Lisbon metro to the harbour every day."
PORTO_TEXT = "News from Ann: she moved to Porto last month and loves it there."
LISBON = {"id": "f1", "s": "Ann", "p": "lives_in", "o": "Lisbon", "q": "Ann lives in Lisbon", "c": 0.95}
METRO = {
    "id": "f2",
    "s": "Ann",
    "p": "rides",
    "o": "Lisbon metro",
    "q": "she rides the Lisbon metro",
    "from": ["f1"],
    "c": 0.8,
}
PORTO = {
    "id": "f1",
    "s": "Ann",
    "p": "lives_in",
    "o": "Porto",
    "vf": "last month",
    "q": "she moved to Porto last month",
}


pytestmark = pytest.mark.usefixtures("fresh_script")


def by_object(api: Api, predicate: str) -> dict[str, dict]:
    return {c["object"]["entity"]: c for c in api.list(predicate=predicate, include_retracted="true")}


def profile(api: Api, valid_at: str | None = None) -> dict[str, list[dict]]:
    params = {"valid_at": valid_at} if valid_at else {}
    response = api.get("/v1/entities/ann/profile", params=params)
    assert response.status_code == 200, response.text
    return {g["predicate"]: g["claims"] for g in response.json()["predicates"]}


def status(api: Api, claim_id: str, **scope) -> str:
    response = api.get(f"/v1/claims/{claim_id}/status", params=scope)
    assert response.status_code == 200, response.text
    return response.json()["status"]


def claim_items(api: Api, query: str, **scope) -> dict[str, dict]:
    response = api.post("/v1/recall", json={"query": query, "k": 20, **scope})
    assert response.status_code == 200, response.text
    return {i["object"]: i for i in response.json()["items"] if i["predicate"] == "lives_in"}


def test_a_move_read_from_text_supersedes_the_old_home_in_the_walk_the_profile_and_the_bundle(
    xapi: Api, llm: ScriptedLLM
):
    first = memorize(xapi, llm, LISBON_TEXT, "2024-01-10", LISBON, METRO)
    asked = llm.requests[-1]["messages"][0]["content"]
    assert "It was written or said on 10 January 2024." in asked  # the model is told when
    assert first["summary"]["singleValued"] == ["lives_in"]  # one of donto's default single-valued predicates
    memorize(xapi, llm, PORTO_TEXT, "2024-06-03", PORTO)

    homes = by_object(xapi, "lives_in")
    # "Ann lives in Lisbon" holds from when it was said; "last month" is resolved by donto against 3 June.
    assert homes["lisbon"]["valid_from"] == "2024-01-10T00:00:00Z" and homes["lisbon"]["valid_to"] is None
    assert homes["porto"]["valid_from"] == "2024-05-01T00:00:00Z"
    metro = by_object(xapi, "rides")["lisbon-metro"]

    # The walk: the claim derived from the old home is stale now, and was not in March.
    assert status(xapi, metro["id"]) == "POTENTIALLY_STALE"
    assert status(xapi, metro["id"], valid_at="2024-03-01") == "UNVERIFIED"

    # The profile as of then and as of now agree with the walk.
    then = {c["object"]: c["current"] for c in profile(xapi, "2024-03-01")["lives_in"]}
    assert then == {"lisbon": True, "porto": False}  # Porto was not yet her home in March
    now = {c["object"]: c for c in profile(xapi)["lives_in"]}
    assert now["porto"]["current"] and not now["lisbon"]["current"]
    assert now["lisbon"]["superseded_by"] == [homes["porto"]["id"]]

    # The bundle says which home is current, in the request's scope.
    items = claim_items(xapi, "Where does Ann live?")
    assert items["lisbon"]["state"] == "superseded" and items["porto"]["state"] == "current"
    assert items["porto"]["text"].startswith("[1 May 2024] ann lives_in porto")
    back_then = claim_items(xapi, "Where does Ann live?", valid_at="2024-03-01")
    assert set(back_then) == {"lisbon"} and back_then["lisbon"]["state"] == "current"


def test_a_users_declaration_wins_over_the_default_and_the_models_mark(xapi: Api, llm: ScriptedLLM):
    assert xapi.put("/v1/predicates/lives_in", json={"cardinality": "many"}).status_code == 200
    out = memorize(xapi, llm, LISBON_TEXT, "2024-01-10", {**LISBON, "sv": True})
    memorize(xapi, llm, PORTO_TEXT, "2024-06-03", {**PORTO, "sv": True})
    assert out["summary"]["singleValued"] == []
    registry = {p["name"]: p for p in xapi.get("/v1/predicates").json()}
    assert registry["lives_in"]["cardinality"] == "many" and registry["lives_in"]["declared_by"] == "user"
    assert all(i["state"] == "current" for i in claim_items(xapi, "Where does Ann live?").values())


def test_a_fact_the_model_marks_single_valued_registers_its_predicate(xapi: Api, llm: ScriptedLLM):
    fact = {"s": "Ann", "p": "plays_for", "o": "FC Porto", "q": "Ann", "sv": True}
    out = memorize(xapi, llm, "Ann joined a team.", "2024-01-10", fact)
    assert out["summary"]["singleValued"] == ["plays_for"]
    registry = {p["name"]: p for p in xapi.get("/v1/predicates").json()}
    assert registry["plays_for"]["cardinality"] == "one" and registry["plays_for"]["declared_by"] == "model"


def test_a_fact_that_negates_a_held_claim_contradicts_it_and_both_show_contested(xapi: Api, llm: ScriptedLLM):
    likes = {"s": "Ann", "p": "likes", "o": "fado", "q": "Ann likes fado"}
    memorize(xapi, llm, "Ann likes fado.", "2024-01-10", likes)
    out = memorize(
        xapi, llm, "Ann said she does not like fado at all.", "2024-02-01",
        {"s": "Ann", "p": "likes", "o": "fado", "mod": "negated", "q": "she does not like fado"},
    )  # fmt: skip
    assert out["summary"]["contradictions"] == 1
    claims = xapi.list(predicate="likes")
    asserted = next(c for c in claims if c["context"] is None)
    detail = xapi.get(f"/v1/claims/{asserted['id']}").json()
    assert detail["contradicted_by"] == [next(c["id"] for c in claims if c["context"] == "negated")]
    response = xapi.post("/v1/recall", json={"query": "Does Ann like fado?", "k": 20})
    states = {i["text"]: i["state"] for i in response.json()["items"] if "state" in i}
    assert states and set(states.values()) == {"contested"}


def test_a_time_donto_cannot_resolve_is_kept_as_stated_and_said_so(xapi: Api, llm: ScriptedLLM, memory):
    fact = {"s": "Ann", "p": "lived_in", "o": "Faro", "q": "Ann lived in Faro", "vf": "when she was a child"}
    out = memorize(xapi, llm, "Ann lived in Faro as a girl.", "2024-01-10", fact)
    assert out["summary"]["datesUnresolved"] == 1 and out["summary"]["datesResolved"] == 0
    [claim] = xapi.list(predicate="lived_in")
    assert claim["valid_from"] is None and claim["valid_when"] == "when she was a child"  # unknown, not "when said"
    edge = memory.graph.read(
        lambda tx: tx.run(
            "MATCH (:Job {id: $job})-[e:EXTRACTED]->(:Claim {id: $claim}) RETURN e.datesUnresolved AS unresolved, "
            "e.validFromAsStated AS stated",
            job=out["job_id"],
            claim=claim["id"],
        ).single()
    )
    assert edge["unresolved"] == ["when she was a child"] and edge["stated"] == "when she was a child"


def test_a_new_predicate_phrased_like_a_registered_one_is_proposed_as_its_alias(xapi: Api, llm: ScriptedLLM):
    memorize(xapi, llm, LISBON_TEXT, "2024-01-10", LISBON)  # lives_in: registered as a default
    resides = {"s": "Bo", "p": "resides_in", "o": "Braga", "q": "Bo resides in Braga"}
    out = memorize(xapi, llm, "Bo resides in Braga.", "2024-01-11", resides)
    [proposal] = out["summary"]["aliasProposals"]
    assert proposal.startswith("resides_in ~ lives_in")
    registry = {p["name"]: p for p in xapi.get("/v1/predicates").json()}
    assert [a["alias"] for a in registry["lives_in"]["proposed_aliases"]] == ["resides_in"]
    assert registry["lives_in"]["aliases"] == []  # proposed, not applied

    rejected = xapi.request("DELETE", "/v1/predicates/lives_in/proposed-aliases/resides_in")
    assert rejected.status_code == 204
    again = memorize(xapi, llm, "Bo resides in Braga, still.", "2024-01-12", {**resides, "q": "Bo resides in Braga"})
    assert again["summary"]["aliasProposals"] == []  # a rejection sticks
    assert xapi.request("DELETE", "/v1/predicates/lives_in/proposed-aliases/nope").status_code == 404
