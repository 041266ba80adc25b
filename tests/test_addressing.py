"""What a URL path can address: entity keys and predicate names holding '/', and no slash redirects."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from support import Api, claim

ADA = "https://example.org/people/ada"


@pytest.mark.parametrize("encode", [False, True], ids=["raw", "percent-encoded"])
def test_an_entity_key_with_slashes_has_a_profile_and_paths(api: Api, encode):
    api.write(claim(ADA, "member_of", "team/alpha"), claim("team/alpha", "based_in", "london"))
    key = quote(ADA, safe="") if encode else ADA

    profile = api.get(f"/v1/entities/{key}/profile")
    paths = api.get(f"/v1/entities/{key}/paths", params={"to": "london"})

    assert profile.status_code == 200, profile.text
    assert profile.json()["entity"] == ADA
    assert [g["predicate"] for g in profile.json()["predicates"]] == ["member_of"]
    assert paths.status_code == 200, paths.text
    assert [p["entities"] for p in paths.json()["paths"]] == [[ADA, "team/alpha", "london"]]


def test_a_key_ending_like_a_route_is_still_the_whole_key(api: Api):
    api.write(claim("notes/paths", "about", "x"), claim("notes/profile", "about", "y"))

    assert api.get("/v1/entities/notes/paths/profile").json()["entity"] == "notes/paths"
    assert api.get("/v1/entities/notes/profile/paths").json()["from"] == "notes/profile"
    assert api.get("/v1/entities/notes/profile").status_code == 404  # the entity 'notes' is not held


def test_a_blank_entity_key_is_rejected(api: Api):
    response = api.get("/v1/entities/%20/profile")
    assert response.status_code == 422
    assert response.json()["error"]["field"] == "key"


@pytest.mark.parametrize("encode", [False, True], ids=["raw", "percent-encoded"])
def test_a_predicate_name_with_slashes_can_be_declared(api: Api, encode):
    name = "https://schema.org/worksFor"
    path = quote(name, safe="") if encode else name

    response = api.put(f"/v1/predicates/{path}", json={"cardinality": "one"})

    assert response.status_code == 200, response.text
    assert response.json()["name"] == name
    assert name in [p["name"] for p in api.get("/v1/predicates").json()]


def test_a_trailing_slash_is_not_redirected_to_the_host_the_request_named(api: Api):
    response = api.client.get("/v1/claims/", headers={**api.headers, "Host": "evil.example"}, follow_redirects=False)

    assert response.status_code == 404
    assert "location" not in response.headers
    assert response.json()["error"]["code"] == "not_found"
