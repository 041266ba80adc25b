"""Workspace isolation under fuzzed ids and headers. Workspace A holds claims, a document, an episode
and a job, every text of it carrying a marker string; workspace B asks for A's ids (and near misses of
them) through every route that takes one, and callers send fuzzed X-Donto-Workspace values with the
admin key and with keys bound to A or B. Nothing answers 5xx, nothing of A comes back in any other
workspace's name, an id of A's answers in B exactly as an id that exists nowhere, and a malformed
header is a 4xx naming it."""

from __future__ import annotations

import random
import string
import uuid
from dataclasses import dataclass
from urllib.parse import quote

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from donto.auth.keys import WORKSPACE_PATTERN
from support import ADMIN_KEY, Api, claim

MARK = "zq" + uuid.uuid4().hex  # in every text of A's: found in an answer, it came from A
RUN = uuid.uuid4().hex[:10]
A, B = f"iso-{RUN}-a", f"iso-{RUN}-b"
HEADER = "X-Donto-Workspace"
FUZZ = hsettings(
    max_examples=40,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@dataclass
class Tenants:
    a: Api
    b: Api
    ids: dict[str, list[str]]  # A's ids by kind: claim, entity, document, session, turn, job
    secrets: set[str]  # every id of A's and every string of A's holding MARK
    a_key: str  # keys bound to A and to B
    b_key: str

    def leaks(self, response, *sent: object) -> set[str]:
        """A's ids and texts in an answer, less those the request itself carried."""
        answer = response.text + str(response.headers)
        request = " ".join(map(str, sent))
        return {s for s in self.secrets if s in answer and s not in request}


@pytest.fixture(scope="module")
def tenants(client: TestClient, memory) -> Tenants:
    a, b = Api(client, A), Api(client, B)
    doc = a.post("/v1/documents", json={"text": f"{MARK} wrote this private note", "title": f"{MARK} title"}).json()
    first = a.write(
        claim(f"{MARK}-ada", "knows", f"{MARK}-grace", context=f"{MARK}-ctx", evidence=[_span(doc["id"])]),
        claim(f"{MARK}-ada", "note", object={"literal": {"datatype": "xsd:string", "value": f"{MARK} secret"}}),
    )["claims"]
    premise, note = (c["id"] for c in first)
    derived = a.write(claim(f"{MARK}-grace", "met", f"{MARK}-ada", derived_from=[premise]))["claims"][0]["id"]
    assert a.post(f"/v1/claims/{premise}/retract").status_code == 200  # so A's walk from `derived` finds it stale
    episode = a.post(
        "/v1/episodes",
        json={
            "session": {"external_id": f"{MARK}-session"},
            "turns": [{"external_id": f"{MARK}-turn", "speaker": f"{MARK}-speaker", "text": f"{MARK} said hello"}],
        },
    ).json()
    job, _ = memory.jobs.create(a.workspace, "extract", {"lens": MARK}, "single", "document", doc["id"], 1)
    a.post(f"/v1/jobs/{job}/cancel")  # never run by another test's extraction workers
    b.write(claim("bee", "likes", "honey"))  # B holds something of its own
    b.post("/v1/episodes", json={"session": {"external_id": "hive"}, "turns": [_turn("t1", "bees hum in the hive")]})

    nodes = memory.graph.read(
        lambda tx: tx.run(
            """MATCH (n) WHERE n.workspace = $w
               RETURN [k IN keys(n) WHERE n[k] IS :: STRING | n[k]] AS strings, n.id AS id""",
            w=a.workspace,
        ).data()
    )
    secrets = {n["id"] for n in nodes if n["id"]} | {s for n in nodes for s in n["strings"] if MARK in s}
    a_key, b_key = memory.keys.create(a.workspace), memory.keys.create(b.workspace)
    ids = {
        "claim": [premise, note, derived],
        "entity": [f"{MARK}-ada", f"{MARK}-grace"],
        "document": [doc["id"]],
        "session": [episode["session_id"]],
        "turn": [t["id"] for t in episode["turns"]],
        "job": [job],
    }
    return Tenants(a, b, ids, secrets | {MARK, a_key.id}, a_key.key, b_key.key)


def _span(document_id: str) -> dict:
    return {"document_id": document_id, "start": 0, "end": 10}


def _turn(external_id: str, text: str) -> dict:
    return {"external_id": external_id, "speaker": "keeper", "text": text}


def probes(x: str) -> list[tuple[str, str, dict | None]]:
    """Every request of B's that names an id or key (method, path, JSON body)."""
    q = quote(x, safe="")
    cite = {"subject": "probe", "predicate": "cites", "object": {"entity": "it"}}
    return [
        ("GET", f"/v1/claims/{q}", None),
        ("GET", f"/v1/claims/{q}/status", None),
        ("GET", f"/v1/claims/{q}/neighbourhood?depth=2", None),
        ("POST", "/v1/claims/status", {"ids": [x]}),
        ("POST", f"/v1/claims/{q}/retract", None),
        ("GET", f"/v1/claims?subject={q}&include_retracted=true", None),
        ("GET", f"/v1/claims?object={q}&include_retracted=true", None),
        ("GET", f"/v1/entities/{q}/profile", None),
        ("GET", f"/v1/entities/{q}/paths?max_hops=3", None),
        ("GET", f"/v1/entities/bee/paths?to={q}", None),
        ("GET", f"/v1/jobs/{q}", None),
        ("GET", f"/v1/jobs/{q}/raw", None),
        ("POST", f"/v1/jobs/{q}/cancel", None),
        ("POST", "/v1/memorize", {"document_id": x}),
        ("POST", "/v1/memorize", {"session_id": x}),
        ("POST", "/v1/claims", {"claims": [{**cite, "evidence": [_span(x)]}]}),
        ("POST", "/v1/claims", {"claims": [{**cite, "derived_from": [x]}]}),
    ]


def ask(api: Api, method: str, path: str, body: dict | None):
    return api.request(method, path, json=body) if body is not None else api.request(method, path)


def twin(x: str, rng: random.Random) -> str:
    """An id or key of the same shape that exists nowhere."""
    if MARK in x:
        return x.replace(MARK, "zq" + uuid.UUID(int=rng.getrandbits(128)).hex)
    return "".join(rng.choice("0123456789abcdef") if c in string.hexdigits else c for c in x)


def test_an_id_of_workspace_a_answers_in_b_as_one_that_exists_nowhere(tenants: Tenants) -> None:
    rng = random.Random(7)
    a_ids = [x for kind in tenants.ids.values() for x in kind]
    assert tenants.a.get(f"/v1/claims/{a_ids[0]}").status_code == 200  # the probes do reach A's data
    for x in a_ids:
        other = twin(x, rng)
        for (method, path, body), (_, other_path, other_body) in zip(probes(x), probes(other)):
            mine, nowhere = ask(tenants.b, method, path, body), ask(tenants.b, method, other_path, other_body)
            assert mine.status_code < 500, (method, path, mine.text)
            assert not tenants.leaks(mine, path, body), (method, path, mine.text)
            assert (mine.status_code, mine.text.replace(x, "<id>")) == (
                nowhere.status_code,
                nowhere.text.replace(other, "<id>"),
            ), (method, path)
    for query in (f"{MARK} said hello", f"what does {MARK}-ada know?", "who hums?"):
        answer = tenants.b.post("/v1/recall", json={"query": query, "include_provenance": True})
        assert answer.status_code == 200 and not tenants.leaks(answer, query), answer.text
    for path in ("/v1/claims?include_retracted=true&limit=1000", "/v1/jobs", "/v1/predicates", "/v1/workspace"):
        listing = tenants.b.get(path)
        assert listing.status_code == 200 and not tenants.leaks(listing), (path, listing.text)
    # and nothing B asked changed A: its claims are as they were (the premise retracted, the others live)
    live = {c["id"]: c["tx_to"] is None for c in tenants.a.list(include_retracted="true")}
    assert live == dict(zip(tenants.ids["claim"], (False, True, True)))


def near_misses(x: str) -> st.SearchStrategy[str]:
    return st.sampled_from(
        [
            x.upper(),
            x.swapcase(),
            x[:-1],
            x + x[-1],
            x + " ",
            " " + x,
            x + "/",
            x + "%",
            x + "\u200b",
            "../" + x,
            x.replace("-", "_"),
            x * 30,
            quote(x + "/x", safe=""),
        ]
    )


def fuzzed_ids(tenants: Tenants) -> st.SearchStrategy[str]:
    real = st.sampled_from([x for kind in tenants.ids.values() for x in kind])
    return st.one_of(real, real.flatmap(near_misses), st.text(min_size=1, max_size=80))


@FUZZ
@given(data=st.data())
def test_fuzzed_ids_from_workspace_b_never_reach_workspace_a(tenants: Tenants, data) -> None:
    x = data.draw(fuzzed_ids(tenants))
    for method, path, body in probes(x):
        response = ask(tenants.b, method, path, body)
        assert response.status_code < 500, (method, path, response.text)
        assert not tenants.leaks(response, path, body), (method, path, response.text)


# What a client can put in a header value: no CR, LF or NUL (HTTP servers refuse those before donto).
HEADER_TEXT = st.text(st.characters(blacklist_characters="\r\n\x00", blacklist_categories=("Cs",)), max_size=80)
ONE_VALUE = st.one_of(
    st.sampled_from([A, B, "", " ", "\t", "default", "a" * 64, "a" * 65, "x" * 10_000, "é", "ａ" + A[1:]]),
    st.sampled_from([A, B]).flatmap(near_misses),
    st.from_regex(WORKSPACE_PATTERN, fullmatch=True),
    HEADER_TEXT,
)
HEADER_VALUES = st.lists(ONE_VALUE.map(lambda v: v.encode("utf-8")), min_size=1, max_size=3)  # >1: repeated


def expected(values: list[bytes]) -> str | None:
    """The workspace a request names, or None when its header is malformed."""
    if len(values) != 1:
        return None  # repeated: which one counts would depend on who reads the request
    value = values[0].decode("latin-1")  # how the server reads a header's bytes
    return value if WORKSPACE_PATTERN.fullmatch(value) else None


def read_as(tenants: Tenants, key: str, values: list[bytes]) -> list[tuple[str, httpx.Response]]:
    """(path, answer) of reads of A's data with this key and these header values."""
    headers = [("Authorization", f"Bearer {key}")] + [(HEADER, v) for v in values]
    paths = [
        "/v1/claims?include_retracted=true&limit=1000",
        f"/v1/claims/{tenants.ids['claim'][0]}",
        f"/v1/entities/{MARK}-ada/profile",
    ]
    return [(path, tenants.a.client.get(path, headers=headers)) for path in paths]


# Always tried: case variants, a trailing newline (which `$` in a pattern lets through), repeats.
EDGES = [[A], [B], [A.upper()], [A.swapcase()], [A + "\n"], [B, A], [A, B], [A, A], [""], [" " + A], ["a" * 65]]


def with_edges(test):
    for edge in EDGES:
        test = example(values=[v.encode("utf-8") for v in edge])(test)
    return test


@FUZZ
@given(values=HEADER_VALUES)
@with_edges
def test_fuzzed_workspace_headers_with_the_admin_key(tenants: Tenants, values: list[bytes]) -> None:
    named = expected(values)
    for path, response in read_as(tenants, ADMIN_KEY, values):
        assert response.status_code < 500, response.text
        if named is None:
            assert response.status_code == 422, (values, response.status_code, response.text)
            assert response.json()["error"]["field"] == HEADER
        elif named != A:
            assert response.status_code in (200, 404), (values, response.text)
            assert not tenants.leaks(response, path), (values, response.text)
        else:
            assert response.status_code == 200, response.text  # A's own name reads A's data


@FUZZ
@given(values=HEADER_VALUES)
@with_edges
def test_fuzzed_workspace_headers_with_bound_keys(tenants: Tenants, values: list[bytes]) -> None:
    named = expected(values)
    for key, own in ((tenants.a_key, A), (tenants.b_key, B)):
        for path, response in read_as(tenants, key, values):
            assert response.status_code < 500, response.text
            if named is None:
                assert response.status_code == 422, (values, response.status_code, response.text)
            elif named != own:
                assert response.status_code == 403, (values, response.status_code, response.text)
            if named != own:
                assert response.json()["error"]["field"] == HEADER
            if own != A:
                assert not tenants.leaks(response, path), (values, response.text)
