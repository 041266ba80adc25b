"""Entity identity: SAME_AS links between entity keys, in transaction time, never merging the
entities; identity-expanded reads; and the links extraction proposes (scripted LLM, real Neo4j)."""

from __future__ import annotations

import pytest
from scripted_llm import ScriptedLLM, lines

from support import Api, claim


def link(api: Api, a: str, b: str, status: int = 201, **body) -> dict:
    response = api.post("/v1/identity/links", json={"a": a, "b": b, "reason": "same person", **body})
    assert response.status_code == status, response.text
    return response.json()


def identity(api: Api, key: str, **params) -> dict:
    response = api.get(f"/v1/entities/{key}/identity", params=params)
    assert response.status_code == 200, response.text
    return response.json()


@pytest.fixture
def melanie(api: Api) -> dict[str, str]:
    """Three keys for one person, a claim under each, and one unrelated."""
    written = api.write(
        claim("mel", "ran", "charity-race"),
        claim("melanie", "paints", "sunsets"),
        claim("melanie-smith", "lives_in", "boston"),
        claim("caroline", "paints", "lakes"),
    )
    return dict(zip(("mel", "melanie", "melanie-smith", "caroline"), (c["id"] for c in written["claims"])))


def test_linked_keys_form_an_identity_set_read_across_hops_and_directions(api: Api, melanie):
    first = link(api, "mel", "melanie", score=0.9)
    assert first["created"] is True
    link(api, "melanie-smith", "melanie")
    for key in ("mel", "melanie", "melanie-smith"):
        found = identity(api, key)
        assert found["entity"] == key and found["keys"][0] == key
        assert sorted(found["keys"]) == ["mel", "melanie", "melanie-smith"]
    found = identity(api, "mel")
    assert {(x["from"], x["to"], x["method"]) for x in found["links"]} == {
        ("mel", "melanie", "asserted"),
        ("melanie-smith", "melanie", "asserted"),
    }
    [scored] = [x for x in found["links"] if x["id"] == first["id"]]
    assert scored["score"] == 0.9 and scored["reason"] == "same person" and scored["tx_to"] is None
    assert scored["recorded_by"].startswith("key:")
    assert identity(api, "caroline")["keys"] == ["caroline"]  # unlinked: itself alone
    # never merged: each entity keeps its own claims
    assert [c["subject"] for c in api.list(subject="melanie")] == ["melanie"]


def test_linking_a_pair_again_either_way_is_a_no_op(api: Api, melanie):
    first = link(api, "mel", "melanie")
    again = link(api, "melanie", "mel", reason="said twice")
    assert (again["id"], again["created"]) == (first["id"], False)
    assert len(identity(api, "mel")["links"]) == 1


@pytest.mark.parametrize(
    "body, status, field",
    [
        ({"a": "mel", "b": "mel", "reason": "x"}, 422, "b"),
        ({"a": "mel", "b": "nobody", "reason": "x"}, 404, "b"),
        ({"a": "nobody", "b": "mel", "reason": "x"}, 404, "a"),
        ({"a": "mel", "b": "melanie", "reason": "  "}, 422, "reason"),
        ({"a": "mel", "b": "melanie"}, 422, "reason"),
        ({"a": "", "b": "melanie", "reason": "x"}, 422, "a"),
        ({"a": "mel", "b": "melanie", "reason": "x", "score": 2}, 422, "score"),
        ({"a": "mel", "b": "melanie", "reason": "x", "merge": True}, 422, "merge"),
    ],
)
def test_bad_links_name_the_field_and_write_nothing(api: Api, melanie, body, status, field):
    response = api.post("/v1/identity/links", json=body)
    assert response.status_code == status, response.text
    assert response.json()["error"]["field"] == field
    assert identity(api, "mel")["links"] == []
    assert api.get("/v1/entities/nobody/identity").status_code == 404  # no entity minted by a failed link


def test_a_retracted_link_leaves_the_set_now_but_not_as_known_before(api: Api, melanie):
    link(api, "mel", "melanie")
    second = link(api, "melanie", "melanie-smith")
    before = identity(api, "mel")["known_at"]
    retracted = api.post(f"/v1/identity/links/{second['id']}/retract", json={"reason": "two people"})
    assert retracted.status_code == 200, retracted.text
    assert identity(api, "mel")["keys"] == ["mel", "melanie"]
    assert sorted(identity(api, "mel", known_at=before)["keys"]) == ["mel", "melanie", "melanie-smith"]
    assert identity(api, "mel", known_at=second["recorded_at"])["links"][-1]["tx_to"] is not None
    assert identity(api, "melanie-smith")["keys"] == ["melanie-smith"]
    assert api.post(f"/v1/identity/links/{second['id']}/retract").status_code == 409
    assert api.post("/v1/identity/links/no-such-link/retract").status_code == 404
    # the same pair linked again by a client gets a new link
    renewed = link(api, "melanie", "melanie-smith")
    assert renewed["created"] is True and renewed["id"] != second["id"]


def test_claims_and_profile_take_in_the_identity_set_on_request_under_the_keys_recorded(api: Api, melanie):
    link(api, "mel", "melanie")
    link(api, "melanie", "melanie-smith")
    plain = api.get("/v1/claims", params={"subject": "mel"}).json()
    assert [c["id"] for c in plain["claims"]] == [melanie["mel"]] and "identity" not in plain
    wide = api.get("/v1/claims", params={"subject": "mel", "identity": "true"}).json()
    assert {(c["subject"], c["id"]) for c in wide["claims"]} == {
        (key, melanie[key]) for key in ("mel", "melanie", "melanie-smith")
    }
    assert sorted(wide["identity"]["subject"]) == ["mel", "melanie", "melanie-smith"]
    painted = api.get("/v1/claims", params={"subject": "melanie", "predicate": "paints", "identity": "true"}).json()
    assert [c["object"] for c in painted["claims"]] == [{"entity": "sunsets"}]
    # an unknown key reads as itself: an empty listing, not a 404
    assert api.get("/v1/claims", params={"subject": "nobody", "identity": "true"}).json()["claims"] == []

    profile = api.get("/v1/entities/mel/profile", params={"identity": "true"}).json()
    assert {g["predicate"]: g["claims"][0]["subject"] for g in profile["predicates"]} == {
        "ran": "mel",
        "paints": "melanie",
        "lives_in": "melanie-smith",
    }
    assert profile["identity"][0] == "mel" and len(profile["identity"]) == 3
    assert [g["predicate"] for g in api.get("/v1/entities/mel/profile").json()["predicates"]] == ["ran"]


def test_identity_is_private_to_its_workspace(api: Api, client, melanie):
    made = link(api, "mel", "melanie")
    other = Api(client, api.workspace + "-other")
    other.write(claim("mel", "ran", "marathon"))
    assert other.get("/v1/entities/melanie/identity").status_code == 404
    assert identity(other, "mel")["keys"] == ["mel"]
    assert other.post(f"/v1/identity/links/{made['id']}/retract").status_code == 404
    assert other.post("/v1/identity/links", json={"a": "mel", "b": "melanie", "reason": "x"}).status_code == 404
    assert other.get("/v1/claims", params={"subject": "mel", "identity": "true"}).json()["identity"] == {
        "subject": ["mel"]
    }
    assert identity(api, "mel")["links"][0]["tx_to"] is None  # untouched by the other workspace's retract


# -- extraction proposes links ------------------------------------------------------------------

TEXT = "Mel (Melanie to her boss) met José at the café. Jose paints; Melanie runs."


def test_extraction_links_stated_identities_and_keys_alike_but_never_undoes_a_retraction(
    extracting, llm: ScriptedLLM, workspace
):
    xapi = Api(extracting, workspace)
    facts = [
        {"s": "Mel", "p": "same_as", "o": "Melanie", "q": "Mel (Melanie to her boss)", "c": 0.9},
        {"s": "Mel", "p": "met", "o": "José", "q": "met José"},
        {"s": "Jose", "p": "paints", "o": "nothing", "q": "Jose paints"},
        {"s": "Melanie", "p": "not_same_as", "o": "José", "q": "Melanie runs"},
        {"s": "Melanie", "p": "same_as", "o": "café", "mod": "negated", "q": "at the café"},
    ]
    llm.queue(lines(*facts))
    out = xapi.post("/v1/memorize", json={"text": TEXT, "async": False}).json()
    assert out["extraction"] == "succeeded", out
    assert "same_as" in llm.requests[-1]["messages"][0]["content"]  # the prompt asks for it
    assert out["summary"]["identityLinks"] == 2, out["summary"]
    mel = identity(xapi, "mel")
    assert mel["keys"] == ["mel", "melanie"]
    [stated] = mel["links"]
    assert (stated["method"], stated["score"], stated["recorded_by"]) == ("extracted", 0.9, f"job:{out['job_id']}")
    assert "same_as" in stated["reason"]
    jose = identity(xapi, "jose")
    assert sorted(jose["keys"]) == ["jose", "josé"] and jose["links"][0]["method"] == "normalised"
    assert identity(xapi, "café")["keys"] == ["café"]  # a negated identity links nothing
    # every entity kept its node and its claims
    assert {c["subject"] for c in xapi.list(limit=1000)} >= {"mel", "melanie", "jose"}

    retracted = xapi.post(f"/v1/identity/links/{jose['links'][0]['id']}/retract")
    assert retracted.status_code == 200
    llm.queue(lines(*facts))
    again = xapi.post("/v1/memorize", json={"text": TEXT + " Again.", "async": False}).json()
    assert again["summary"]["identityLinks"] == 0, again["summary"]
    assert identity(xapi, "jose")["keys"] == ["jose"]
    assert len(identity(xapi, "mel")["links"]) == 1


def test_recall_follows_identity_links_to_what_was_said_under_another_key(api: Api, melanie):
    def subjects(query: str) -> set[str]:
        response = api.post("/v1/recall", json={"query": query, "k": 10, "arms": ["fulltext"]})
        assert response.status_code == 200, response.text
        return {i["subject"] for i in response.json()["items"]}

    assert subjects("Tell me about Mel") == {"mel"}  # the full-text arm alone: "mel" is not "melanie"
    retracted = link(api, "mel", "melanie")
    assert {"mel", "melanie"} <= subjects("Tell me about Mel")
    api.post(f"/v1/identity/links/{retracted['id']}/retract", json={"reason": "not her"})
    assert subjects("Tell me about Mel") == {"mel"}  # a retracted link is not followed


def test_entity_paths_with_identity_start_from_every_key_of_the_set(api: Api, melanie):
    def ends(**params) -> set[str]:
        response = api.get("/v1/entities/mel/paths", params={"max_hops": 1, **params})
        assert response.status_code == 200, response.text
        return {p["entities"][-1] for p in response.json()["paths"]}

    link(api, "mel", "melanie")
    assert ends() == {"charity-race"}
    assert ends(identity="true") == {"charity-race", "sunsets"}
    between = api.get("/v1/entities/mel/paths", params={"to": "sunsets", "identity": "true"}).json()["paths"]
    assert [p["entities"] for p in between] == [["melanie", "sunsets"]]
    assert api.get("/v1/entities/mel/paths", params={"to": "sunsets"}).json()["paths"] == []
