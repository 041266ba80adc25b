"""The premise walk, scenario by scenario (seed 004): status scoped to valid time and transaction time."""

from __future__ import annotations

import pytest

from donto.graph.client import GraphClient
from support import Api, claim


def status(api: Api, claim_id: str, **params) -> dict:
    response = api.get(f"/v1/claims/{claim_id}/status", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def ids(out: dict) -> list[str]:
    return [c["id"] for c in out["claims"]]


@pytest.fixture
def apple(api: Api) -> dict:
    """Seed 004's example: signing authority <- chief of staff <- CEO; a new CEO on Jun 1."""
    api.put("/v1/predicates/ceo", json={"cardinality": "one", "aliases": ["chief-executive"]})
    [ceo] = ids(api.write(claim("apple", "ceo", "tim-cook", valid_from="2026-01-01")))
    [cos] = ids(api.write(claim("maya-patel", "role", "chief-of-staff", valid_from="2026-01-08", derived_from=[ceo])))
    before_news = api.write(
        claim("maya-patel", "signing-authority", "apple-legal", valid_from="2026-01-15", derived_from=[cos])
    )
    news = api.write(claim("apple", "ceo", "sarah-chen", valid_from="2026-06-01"))
    return {
        "ceo": ceo,
        "cos": cos,
        "sign": ids(before_news)[0],
        "new_ceo": ids(news)[0],
        "before_news": before_news["recorded_at"],
        "news_recorded": news["recorded_at"],
    }


def test_answer_resting_on_a_superseded_premise_is_potentially_stale(api: Api, apple):
    s = status(api, apple["sign"], valid_at="2026-07-01")
    assert s["status"] == "POTENTIALLY_STALE"
    assert s["reasons"] == [
        {
            "claim_id": apple["ceo"],
            "depth": 2,
            "path": [apple["sign"], apple["cos"], apple["ceo"]],
            "kind": "superseded",
            "by": [apple["new_ceo"]],
        }
    ]
    assert (s["walked"], s["truncated"], s["skipped"]) == (3, False, 0)


def test_asking_about_january_is_not_stale(api: Api, apple):
    s = status(api, apple["sign"], valid_at="2026-01-20")
    assert s["status"] == "UNVERIFIED" and s["reasons"] == []


def test_a_correction_recorded_after_known_at_changes_nothing(api: Api, apple):
    s = status(api, apple["sign"], valid_at="2026-07-01", known_at=apple["before_news"])
    assert s["status"] == "UNVERIFIED"
    assert (
        status(api, apple["sign"], valid_at="2026-07-01", known_at=apple["news_recorded"])["status"]
        == "POTENTIALLY_STALE"
    )


def test_aliases_count_as_the_same_predicate(api: Api):
    api.put("/v1/predicates/ceo", json={"cardinality": "one", "aliases": ["chief-executive"]})
    [old] = ids(api.write(claim("acme", "ceo", "ann", valid_from="2025-01-01")))
    [answer] = ids(api.write(claim("bob", "reports-to", "ann", derived_from=[old])))
    [new] = ids(api.write(claim("acme", "chief-executive", "carl", valid_from="2025-06-01")))
    s = status(api, answer, valid_at="2025-07-01")
    assert [(r["claim_id"], r["kind"], r["by"]) for r in s["reasons"]] == [(old, "superseded", [new])]


def test_retraction_mid_chain_is_stale_from_then_on(api: Api, apple):
    retracted = api.post(f"/v1/claims/{apple['cos']}/retract").json()["retracted_at"]
    s = status(api, apple["sign"], valid_at="2026-02-01")
    assert [(r["claim_id"], r["kind"], r["depth"]) for r in s["reasons"]] == [(apple["cos"], "retracted", 1)]
    assert s["walked"] == 2  # the walk does not continue through a retracted premise
    assert status(api, apple["sign"], valid_at="2026-02-01", known_at=apple["news_recorded"])["status"] == "UNVERIFIED"
    assert status(api, apple["sign"], valid_at="2026-02-01", known_at=retracted)["status"] == "POTENTIALLY_STALE"


def test_expiry_mid_chain_unless_something_continues_it(api: Api):
    [role] = ids(api.write(claim("maya", "role", "cos", valid_from="2026-01-01", valid_to="2026-03-01")))
    [answer] = ids(api.write(claim("maya", "can-sign", "legal", derived_from=[role])))
    assert status(api, answer, valid_at="2026-02-01")["status"] == "UNVERIFIED"
    s = status(api, answer, valid_at="2026-03-01")  # validTo is exclusive: ended at valid_at
    assert [(r["claim_id"], r["kind"]) for r in s["reasons"]] == [(role, "expired")]
    api.write(claim("maya", "role", "cos", valid_from="2026-03-01"))
    assert status(api, answer, valid_at="2026-04-01")["status"] == "UNVERIFIED"


def test_multi_valued_predicates_never_supersede_by_themselves(api: Api):
    api.put("/v1/predicates/likes", json={"cardinality": "many"})
    [tea] = ids(api.write(claim("ann", "likes", "tea", valid_from="2025-01-01")))
    [undeclared] = ids(api.write(claim("ann", "lives-in", "paris", valid_from="2025-01-01")))
    [answer] = ids(api.write(claim("ann", "visits", "cafe", derived_from=[tea, undeclared])))
    api.write(
        claim("ann", "likes", "coffee", valid_from="2025-06-01"),
        claim("ann", "lives-in", "rome", valid_from="2025-06-01"),
    )
    assert status(api, answer, valid_at="2025-07-01")["status"] == "UNVERIFIED"


def test_an_explicit_supersedes_link_in_scope_makes_stale(api: Api):
    [old] = ids(api.write(claim("plan", "step", "a")))
    [answer] = ids(api.write(claim("plan", "next", "b", derived_from=[old])))
    api.write(claim("plan", "step", "a-revised", valid_from="2030-01-01", supersedes=[old]))
    assert status(api, answer, valid_at="2029-01-01")["status"] == "UNVERIFIED"  # starts after valid_at
    s = status(api, answer, valid_at="2030-02-01")
    assert [(r["claim_id"], r["kind"]) for r in s["reasons"]] == [(old, "superseded")]


def test_a_chain_ten_deep_is_walked_to_its_root(api: Api):
    api.put("/v1/predicates/holds", json={"cardinality": "one"})
    [root] = ids(api.write(claim("root", "holds", "v1", valid_from="2024-01-01")))
    chain = [root]
    for i in range(9):
        chain += ids(api.write(claim(f"n{i}", "follows", f"n{i - 1}", derived_from=[chain[-1]])))
    api.write(claim("root", "holds", "v2", valid_from="2025-01-01"))
    s = status(api, chain[-1], valid_at="2025-02-01")
    assert s["walked"] == 10
    [reason] = s["reasons"]
    assert reason["claim_id"] == root and reason["depth"] == 9 and reason["path"] == chain[::-1]
    truncated = status(api, chain[-1], valid_at="2025-02-01", max_depth=3)
    assert truncated["truncated"] is True and truncated["skipped"] == 1 and truncated["walked"] == 4
    assert truncated["status"] == "UNVERIFIED"


def test_a_cycle_terminates_and_each_claim_is_reported_once(api: Api, settings):
    api.put("/v1/predicates/state", json={"cardinality": "one"})
    [a] = ids(api.write(claim("x", "state", "on", valid_from="2024-01-01")))
    [b] = ids(api.write(claim("y", "depends", "x", derived_from=[a])))
    [c] = ids(api.write(claim("z", "depends", "y", derived_from=[b])))
    with GraphClient(settings) as graph:  # the API never makes cycles; a power user's Cypher can
        graph.write(
            lambda tx: tx.run(
                "MATCH (a:Claim {id: $a}), (c:Claim {id: $c}) CREATE (a)-[:DERIVED_FROM]->(c)", a=a, c=c
            ).consume()
        )
    api.write(claim("x", "state", "off", valid_from="2024-06-01"))
    s = status(api, c, valid_at="2024-07-01")
    assert s["walked"] == 3 and [r["claim_id"] for r in s["reasons"]] == [a]


def test_fan_out_cap_is_reported_not_silent(api: Api):
    premises = ids(api.write(*[claim("p", "fact", f"f{i}") for i in range(5)]))
    [answer] = ids(api.write(claim("q", "uses", "facts", derived_from=premises)))
    s = status(api, answer, fan_out=2)
    assert (s["walked"], s["truncated"], s["skipped"]) == (3, True, 3)
    assert status(api, answer)["walked"] == 6


def test_contradictions_on_the_walk_are_surfaced_not_resolved(api: Api):
    [premise] = ids(api.write(claim("earth", "shape", "round")))
    [answer] = ids(api.write(claim("ship", "can-sail", "around", derived_from=[premise])))
    [objection] = ids(api.write(claim("earth", "shape", "flat", contradicts=[premise])))
    s = status(api, answer)
    assert s["status"] == "UNVERIFIED"
    assert s["contested"] == [{"claim_id": premise, "by": [objection]}]
    got = api.get(f"/v1/claims/{premise}").json()
    assert got["corroboration"] == {"supported_by": 0, "contradictions": 1}


def test_batch_status_answers_many_claims_in_order(api: Api, apple):
    response = api.post(
        "/v1/claims/status", json={"ids": [apple["sign"], apple["new_ceo"], apple["cos"]], "valid_at": "2026-07-01"}
    )
    assert response.status_code == 200
    statuses = response.json()["statuses"]
    assert [s["claim_id"] for s in statuses] == [apple["sign"], apple["new_ceo"], apple["cos"]]
    assert [s["status"] for s in statuses] == ["POTENTIALLY_STALE", "UNVERIFIED", "POTENTIALLY_STALE"]


def test_status_of_unknown_claims_is_a_4xx_naming_the_field(api: Api, apple):
    unknown = api.get("/v1/claims/nope/status")
    assert unknown.status_code == 404 and unknown.json()["error"]["field"] == "id"
    bad = api.post("/v1/claims/status", json={"ids": [apple["sign"], "nope"]})
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "ids[1]"
    early = api.get(f"/v1/claims/{apple['new_ceo']}/status", params={"known_at": apple["before_news"]})
    assert early.status_code == 422 and early.json()["error"]["field"] == "known_at"
    assert api.get(f"/v1/claims/{apple['sign']}/status", params={"max_depth": 99}).status_code == 422


def test_two_hop_paths_between_entities(api: Api, apple):
    body = api.get("/v1/entities/tim-cook/paths", params={"to": "sarah-chen"}).json()
    assert body["paths"][0]["entities"] == ["tim-cook", "apple", "sarah-chen"]
    assert [c["predicate"] for c in body["paths"][0]["claims"]] == ["ceo", "ceo"]
    everywhere = api.get("/v1/entities/apple/paths", params={"max_hops": 1}).json()["paths"]
    assert sorted(p["entities"][-1] for p in everywhere) == ["sarah-chen", "tim-cook"]
    january = api.get("/v1/entities/tim-cook/paths", params={"to": "sarah-chen", "valid_at": "2026-02-01"}).json()
    assert january["paths"] == []


def test_paths_from_or_to_an_entity_the_workspace_lacks_are_404_naming_it(api: Api, apple):
    for params, path, field in (
        ({}, "/v1/entities/nobody/paths", "key"),
        ({"to": "tim-cook"}, "/v1/entities/nobody/paths", "key"),
        ({"to": "nobody"}, "/v1/entities/tim-cook/paths", "to"),
    ):
        missing = api.get(path, params=params)
        assert missing.status_code == 404 and missing.json()["error"]["field"] == field, missing.text
    unconnected = api.get("/v1/entities/tim-cook/paths", params={"to": "sarah-chen", "max_hops": 1})
    assert unconnected.status_code == 200 and unconnected.json()["paths"] == []


def test_neighbourhood_is_drawable(api: Api, apple):
    body = api.get(f"/v1/claims/{apple['cos']}/neighbourhood", params={"depth": 1}).json()
    node_ids = {n["id"] for n in body["nodes"]}
    assert {f"claim:{apple['cos']}", f"claim:{apple['ceo']}", f"claim:{apple['sign']}", "entity:maya-patel"} <= node_ids
    assert {"type": "DERIVED_FROM", "start": f"claim:{apple['cos']}", "end": f"claim:{apple['ceo']}"} in body[
        "relationships"
    ]
    assert all(r["start"] in node_ids and r["end"] in node_ids for r in body["relationships"])
