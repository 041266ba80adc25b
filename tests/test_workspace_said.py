"""Every answer says which workspace it read: the X-Donto-Workspace header on each authenticated
answer (errors too), and recall's bundle names it and says when the workspace holds nothing at all.
An admin key sent without X-Donto-Workspace reads `default`, and now says so."""

from __future__ import annotations

from support import ADMIN_KEY, Api, claim

ADMIN = {"Authorization": f"Bearer {ADMIN_KEY}"}


def test_an_admin_key_without_a_workspace_is_told_it_read_default(client) -> None:
    answer = client.post("/v1/recall", headers=ADMIN, json={"query": "where does ada work?"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["X-Donto-Workspace"] == "default"
    assert answer.json()["workspace"] == "default"


def test_an_empty_bundle_says_the_workspace_holds_nothing_and_names_it(api: Api) -> None:
    empty = api.post("/v1/recall", json={"query": "where does ada work?"})
    assert empty.status_code == 200, empty.text
    assert empty.headers["X-Donto-Workspace"] == api.workspace
    body = empty.json()
    assert (body["items"], body["workspace"], body["workspace_empty"]) == ([], api.workspace, True)

    api.write(claim("ada", "works_at", "initech"))
    found = api.post("/v1/recall", json={"query": "where does ada work?"}).json()
    assert found["items"] and found["workspace"] == api.workspace
    assert "workspace_empty" not in found  # items came back: nothing to say


def test_every_authenticated_answer_names_its_workspace_and_a_refused_key_none(client, memory, api: Api) -> None:
    listed = api.get("/v1/claims")
    missing = api.get("/v1/claims/0190f000-0000-7000-8000-000000000000")
    assert (listed.status_code, missing.status_code) == (200, 404)
    assert listed.headers["X-Donto-Workspace"] == missing.headers["X-Donto-Workspace"] == api.workspace

    bound = memory.keys.create(api.workspace + "-own")
    own = client.get("/v1/claims", headers={"Authorization": f"Bearer {bound.key}"})
    assert own.status_code == 200 and own.headers["X-Donto-Workspace"] == api.workspace + "-own"

    refused = client.get("/v1/claims", headers={"Authorization": "Bearer not-a-key", "X-Donto-Workspace": "x"})
    assert refused.status_code == 401 and "X-Donto-Workspace" not in refused.headers
    assert "X-Donto-Workspace" not in client.get("/health").headers  # no key asked, no workspace read
