"""API key lifecycle (create, list, revoke, rotate), per-key rate limits, per-address limits on
failed authentication, and the audit trail of key use."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import SecretStr

from donto.cli import main as donto
from donto.errors import Conflict, InvalidInput, NotFound
from donto.settings import ApiSettings
from support import ADMIN_KEY, Api, claim


@pytest.fixture
def cli_env(settings, monkeypatch):
    """`donto ...` (app.cli.main reads its settings from the environment) against the test Neo4j."""
    monkeypatch.setenv("NEO4J_URI", settings.neo4j.uri)
    monkeypatch.setenv("NEO4J_USER", settings.neo4j.user)
    monkeypatch.setenv("NEO4J_PASSWORD", settings.neo4j.password.get_secret_value())


@contextmanager
def limited_app(settings, **limits) -> Iterator[FastAPI]:
    """An app of its own with tight limits (the suite's shared app has none that bite)."""
    from donto.api.main import create_app

    api = ApiSettings(api_key=SecretStr(ADMIN_KEY), run_workers=False, **limits)
    with TestClient(create_app(settings.model_copy(update={"api": api}))) as client:
        yield client.app


def caller(app: FastAPI, address: str) -> TestClient:
    """Requests from one client address to a running app (its lifespan is the limited_app's)."""
    return TestClient(app, client=(address, 50000))


def bearer(key: str, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}", **headers}


def keys_list(capsys, *args: str) -> list[list[str]]:
    assert donto(["keys", "list", *args]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[0] == "id"
    return [line.split("  ") for line in lines[1:]]


def test_create_prints_only_the_key_on_stdout_and_its_id_on_stderr(cli_env, capsys, workspace):
    assert donto(["keys", "create", "--workspace", workspace]) == 0
    out, err = capsys.readouterr()
    key = out.strip()
    assert out == key + "\n" and key.startswith("donto_")
    key_id = err.split("key id ")[1].split()[0]
    [row] = keys_list(capsys, "--workspace", workspace)
    assert row[:3] == [key_id, workspace, key[:10]]  # the fingerprint is the key's first characters
    assert row[4:] == ["-", "-", "0", "0", "-"]  # never used, not revoked
    assert not any(key in cell for cell in row)


def test_list_shows_every_workspace_or_one(memory, workspace):
    other = workspace + "-other"
    a, b = memory.keys.create(workspace), memory.keys.create(other)
    listed = {k.id: k for k in memory.keys.list()}
    assert {a.id, b.id} <= listed.keys() and listed[b.id].workspace == other
    assert [k.id for k in memory.keys.list(workspace)] == [a.id]
    assert listed[a.id].created_at is not None and listed[a.id].revoked_at is None


def test_a_revoked_key_is_refused_on_the_very_next_request(client, cli_env, capsys, memory, workspace):
    issued = memory.keys.create(workspace)
    assert client.get("/v1/claims", headers=bearer(issued.key)).status_code == 200
    assert donto(["keys", "revoke", issued.id]) == 0
    assert f"revoked {issued.id} (workspace {workspace})" in capsys.readouterr().out
    refused = client.get("/v1/claims", headers=bearer(issued.key))
    assert refused.status_code == 401
    assert refused.json()["error"] == {
        "code": "unauthorized",
        "message": "this API key was revoked",
        "field": "Authorization",
    }
    [row] = keys_list(capsys, "--workspace", workspace)
    assert row[5] != "-"  # revoked_at
    assert donto(["keys", "revoke", issued.id]) == 1  # again: a conflict, said on stderr
    assert "was revoked at" in capsys.readouterr().err


def test_rotation_issues_a_working_key_and_refuses_the_old_one_at_once(client, cli_env, capsys, memory, workspace):
    old = memory.keys.create(workspace)
    assert donto(["keys", "rotate", old.id]) == 0
    out, err = capsys.readouterr()
    new_key = out.strip()
    new_id = err.split("new key id ")[1].split()[0]
    assert out == new_key + "\n" and "only copy" in err
    assert client.get("/v1/claims", headers=bearer(old.key)).status_code == 401
    assert client.get("/v1/claims", headers=bearer(new_key)).status_code == 200
    written = client.post("/v1/claims", headers=bearer(new_key), json={"claims": [claim("rotated", "p", "v")]})
    assert written.status_code == 201
    assert len(Api(client, workspace).list(subject="rotated")) == 1  # the new key acts in the old key's workspace
    listed = {k.id: k for k in memory.keys.list(workspace)}
    assert listed[old.id].replaced_by == new_id and listed[new_id].replaces == old.id
    assert listed[old.id].revoked_at is not None and listed[new_id].revoked_at is None
    with pytest.raises(Conflict):
        memory.keys.rotate(old.id)  # a revoked key is not rotated again
    assert [k.id for k in memory.keys.list(workspace) if k.id != "admin"] == [old.id, new_id]


def test_of_racing_rotations_of_one_key_exactly_one_wins(memory, workspace):
    old = memory.keys.create(workspace)
    with ThreadPoolExecutor(4) as pool:
        outcomes = list(pool.map(lambda _: _outcome(lambda: memory.keys.rotate(old.id)), range(4)))
    assert sorted(type(o).__name__ for o in outcomes) == ["Conflict", "Conflict", "Conflict", "IssuedKey"]
    assert len([k for k in memory.keys.list(workspace) if k.revoked_at is None]) == 1


def _outcome(call):
    try:
        return call()
    except Conflict as exc:
        return exc


def test_unknown_ids_and_the_admin_key_are_refused_by_revoke_and_rotate(memory):
    with pytest.raises(NotFound):
        memory.keys.revoke("no-such-key")
    with pytest.raises(NotFound):
        memory.keys.rotate("no-such-key")
    with pytest.raises(InvalidInput):
        memory.keys.revoke("admin")


def test_a_key_past_its_burst_gets_429_with_retry_after(settings, memory, workspace):
    key, other = memory.keys.create(workspace).key, memory.keys.create(workspace).key
    with limited_app(settings, rate_limit_per_s=0.1, rate_limit_burst=5) as app:
        http = caller(app, "10.1.0.1")
        statuses = [http.get("/v1/claims", headers=bearer(key)).status_code for _ in range(8)]
        assert statuses == [200] * 5 + [429] * 3
        limited = http.get("/v1/claims", headers=bearer(key))
        assert limited.status_code == 429
        assert 1 <= int(limited.headers["Retry-After"]) <= 10  # one token comes back every 10 s
        assert limited.json()["error"]["code"] == "rate_limited"
        assert limited.json()["error"]["field"] == "Authorization"
        assert http.get("/v1/claims", headers=bearer(other)).status_code == 200  # each key has its own bucket
        assert http.get("/health").status_code == 200  # no key, no limit


def test_a_bad_key_flood_is_refused_and_slowed_while_every_valid_key_from_that_address_still_works(
    settings, memory, workspace
):
    """Behind a proxy or a NAT every client shares one address: one client's failures must not shut
    the others out. Past its limit the address's failing requests are 429s, answered late."""
    good, revoked = memory.keys.create(workspace), memory.keys.create(workspace)
    memory.keys.revoke(revoked.id)
    limits = {"auth_failure_limit": 10, "auth_failure_window_s": 60, "auth_failure_delay_s": 0.3}
    with limited_app(settings, **limits) as app:
        shared, neighbour = caller(app, "10.2.0.1"), caller(app, "10.2.0.2")
        statuses = [shared.get("/v1/claims", headers=bearer(f"donto_guess{i}")).status_code for i in range(10)]
        assert statuses == [401] * 10
        well_formed_guess = "donto_" + "x" * 43  # the shape of a real key: looked up, and not found
        for headers in (bearer("donto_guess0"), {}, bearer(revoked.key), bearer(well_formed_guess), bearer("?")):
            started = time.monotonic()
            refused = shared.get("/v1/claims", headers=headers)
            assert refused.status_code == 429 and time.monotonic() - started >= 0.3
            assert 1 <= int(refused.headers["Retry-After"]) <= 60
            assert refused.json()["error"]["code"] == "rate_limited"
            assert "a valid key is still accepted" in refused.json()["error"]["message"]
        # The same address's valid keys, a workspace key and the admin key, work as if nothing happened.
        assert shared.get("/v1/claims", headers=bearer(good.key)).status_code == 200
        assert shared.get("/v1/claims", headers=bearer(ADMIN_KEY)).status_code == 200
        mcp = shared.post("/mcp", headers=bearer(good.key, Accept="application/json, text/event-stream"), json={})
        assert mcp.status_code != 429  # MCP over HTTP authenticates the same way
        assert shared.get("/v1/claims", headers=bearer(f"donto_guess{99}")).status_code == 429
        assert neighbour.get("/v1/claims", headers=bearer(f"donto_guess{99}")).status_code == 401  # its own count


def test_key_use_is_counted_in_memory_and_flushed_to_the_graph(settings, memory, cli_env, capsys, workspace):
    issued = memory.keys.create(workspace)
    with limited_app(settings, key_usage_flush_s=0.2) as app:
        http = caller(app, "10.3.0.1")
        for _ in range(3):
            assert http.get("/v1/claims", headers=bearer(issued.key)).status_code == 200
        wrong = http.get("/v1/claims", headers=bearer(issued.key, **{"X-Donto-Workspace": workspace + "-x"}))
        assert wrong.status_code == 403
        assert http.get("/v1/claims", headers=bearer(ADMIN_KEY, **{"X-Donto-Workspace": workspace})).status_code == 200
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:  # the flusher's thread writes every 0.2 s
            listed = {k.id: k for k in memory.keys.list(workspace)}
            if listed[issued.id].requests == 3 and listed[issued.id].rejected == 1 and "admin" in listed:
                break
            time.sleep(0.1)
    key = listed[issued.id]
    assert (key.requests, key.rejected) == (3, 1) and key.last_used_at is not None
    assert (listed["admin"].requests, listed["admin"].workspace) == (1, None)  # the admin key's use in this workspace
    rows = {row[0]: row for row in keys_list(capsys, "--workspace", workspace)}
    assert rows[issued.id][6:8] == ["3", "1"] and rows[issued.id][4] != "-"
    usage = memory.graph.read(
        lambda tx: tx.run(
            "MATCH (u:KeyUsage {keyId: $id}) RETURN u.workspace AS w, u.day AS day, u.requests AS r, u.rejected AS x",
            id=issued.id,
        ).data()
    )
    assert [(u["w"], u["r"], u["x"]) for u in usage] == [(workspace, 3, 1)]


def test_use_counted_before_shutdown_is_written_when_the_app_closes(settings, memory, workspace):
    issued = memory.keys.create(workspace)
    with limited_app(settings, key_usage_flush_s=3600) as app:  # the thread would not write for an hour
        for _ in range(2):
            assert caller(app, "10.4.0.1").get("/v1/claims", headers=bearer(issued.key)).status_code == 200
        assert next(k for k in memory.keys.list(workspace) if k.id == issued.id).requests == 0
    assert next(k for k in memory.keys.list(workspace) if k.id == issued.id).requests == 2


def test_a_revoked_key_still_presented_is_counted_as_rejected(client, memory, workspace):
    issued = memory.keys.create(workspace)
    memory.keys.revoke(issued.id)
    assert client.get("/v1/claims", headers=bearer(issued.key)).status_code == 401
    memory.keys.flush_usage()
    [key] = memory.keys.list(workspace)
    assert (key.requests, key.rejected, key.last_used_at) == (0, 1, None)


def test_cli_refuses_a_malformed_workspace_for_list(cli_env, capsys):
    with pytest.raises(SystemExit) as refused:  # refused as the arguments are read, as argparse refuses any
        donto(["keys", "list", "--workspace", "a b"])
    assert refused.value.code == 2
    assert "workspace name" in capsys.readouterr().err


def test_workspace_names_are_checked_before_keys_are_made(memory):
    with pytest.raises(InvalidInput):
        memory.keys.create("a/b " + uuid.uuid4().hex)
