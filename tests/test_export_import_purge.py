"""Backup and erasure of a workspace: `donto export` / `donto import` round-trip bit for bit and
answer every read the same; a bad file names its line and writes nothing; `donto purge` leaves
nothing to recall, list, fetch or walk, through any index, and touches no other workspace."""

from __future__ import annotations

import hashlib
import io
import json
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from fastapi.testclient import TestClient
from scripted_llm import CARES, KM, RACE, TEXT, ScriptedLLM, lines, with_llm

from donto.cli import main as donto
from donto.errors import Conflict, InvalidInput
from donto.memory import Memory
from donto.settings import Settings
from donto.temporal.instants import iso, utc_now
from donto.workspaces import portability
from support import Api, claim

STRING = "xsd:string"
DOCUMENT = "Tim Cook became CEO of Apple in August 2011. Jane signs for Apple. Zebraquux audits Apple."
SESSION = {"X-Donto-Session": "chat-42"}  # the agent memory's session (the client's id)
MEMORY_LABELS = {
    "Understanding",
    "Perspective",
    "PerspectiveVector",
    "MemorySession",
    "UtilitySignal",
    "MemoryEvent",
    "MergedSubject",
}


@pytest.fixture(scope="module")
def extracting(settings: Settings, llm: ScriptedLLM) -> Iterator[TestClient]:
    """An app with an LLM endpoint (so workspaces get jobs) and no workers (a queued job stays queued)."""
    from donto.api.main import create_app

    with TestClient(create_app(with_llm(settings, llm))) as client:
        yield client
        # The queued jobs these tests keep on purpose would be run by the next module's workers,
        # with that module's scripted replies: cancel them.
        memory = client.app.state.memory
        queued = memory.graph.read(
            lambda tx: tx.run(
                "MATCH (j:Job) WHERE j.workspace STARTS WITH $prefix AND j.state = 'queued' "
                "RETURN j.workspace AS w, j.id AS id",
                prefix=PREFIX,
            ).data()
        )
        for job in queued:
            memory.jobs.cancel(job["w"], job["id"])


@pytest.fixture
def memory(extracting) -> Memory:
    return extracting.app.state.memory


PREFIX = "t-export-"


def fresh() -> str:
    return PREFIX + uuid.uuid4().hex[:12]


@pytest.fixture
def workspace() -> str:
    return fresh()


def export(memory: Memory, workspace: str) -> bytes:
    out = io.BytesIO()
    memory.portability.export(workspace, out)
    return out.getvalue()


def populate(api: Api, llm: ScriptedLLM | None = None) -> dict[str, Any]:
    """A workspace with every kind of thing donto keeps: registry, document revisions, claims of
    each object kind with valid times, every claim-to-claim link, evidence in a document and in a
    turn, a retraction, an episode (with a turn that corrects another), workspace settings, and
    (with an LLM) a finished and a queued job."""
    assert api.put("/v1/predicates/ceo_of", json={"cardinality": "one", "aliases": ["chief"]}).status_code == 200
    registry = api.client.app.state.memory.predicates  # extraction's proposal of an alias, as a job makes one
    assert registry.propose_aliases(api.workspace, [("chief_executive_of", "ceo_of", 0.93)], "job:test")
    doc = api.post("/v1/documents", json={"text": DOCUMENT, "title": "newsroom", "external_id": "apple"}).json()
    revised = api.post("/v1/documents", json={"text": DOCUMENT + " More.", "external_id": "apple"}).json()
    jane_at = DOCUMENT.index("Jane signs for Apple")
    first = api.write(
        claim("apple", "ceo_of", "tim-cook", valid_from="2011-08-24", evidence=[_ev(doc, 0, 8)]),
        claim("apple", "founded_on", object={"literal": {"value": "1976-04-01", "datatype": "xsd:date"}}),
        claim("apple", "employees", object={"literal": {"value": 164000, "datatype": "xsd:integer"}}),
        claim("apple", "margin", object={"literal": {"value": 0.46, "datatype": "xsd:decimal"}}, confidence=0.7),
    )
    cook, founded, employees, margin = (c["id"] for c in first["claims"])
    for name in ("apple", "leadership"):
        assert api.post("/v1/subjects", json={"name": name}).status_code == 201
    observed = {"text": "Cook has led Apple since 2011.", "subjects": ["apple", "leadership"]}
    assert api.post("/v1/subjects/observations", json={"observations": [observed]}).status_code == 201
    agent = remember(api, cites=[cook, doc["id"]])
    second = api.write(
        claim(
            "jane",
            "has_signing_authority_for",
            "apple",
            valid_from="2024-01-01",
            valid_to="2030-01-01",
            derived_from=[cook, founded, margin],
            evidence=[_ev(revised, jane_at, jane_at + 20), _ev(revised, 0, 8)],
        ),
        claim("apple", "ceo_of", "john-ternus", valid_from="2026-06-01", supersedes=[cook]),
        claim("apple", "founded_on", object={"literal": {"value": "1977", "datatype": STRING}}, contradicts=[founded]),
        claim("zebraquux", "audits", "apple", supports=[cook], context="annual report"),
        claim("analyst", "rates", "apple", supports=[cook]),
    )
    retracted = api.post(f"/v1/claims/{employees}/retract", json={"reason": "wrong year"})
    assert retracted.status_code == 200
    for other in ("zebraquux", "jane"):  # identity: one link kept, one retracted
        linked = api.post("/v1/identity/links", json={"a": "analyst", "b": other, "reason": "one firm", "score": 0.8})
        assert linked.status_code == 201, linked.text
    assert api.post(f"/v1/identity/links/{linked.json()['id']}/retract").status_code == 200
    episode = api.post(
        "/v1/episodes",
        json={
            "session": {"external_id": "chat-1", "started_at": "2026-11-20T18:00:00Z"},
            "turns": [
                {"external_id": "t1", "speaker": "Maya", "text": "I ran my first half marathon last Saturday!"},
                {"external_id": "t2", "speaker": "Sam", "text": "Congrats! Zebraquux said you would."},
                {"external_id": "t3", "speaker": "Maya", "text": "Lisbon is next month, in May 2027."},
                {"external_id": "t4", "speaker": "Maya", "text": "Sorry, I meant June, not May."},  # CORRECTS t3
            ],
        },
    ).json()
    turn = episode["turns"][0]["id"]
    api.write(claim("maya", "ran", "half-marathon", evidence=[{"document_id": turn, "start": 0, "end": 30}]))
    assert api.put("/v1/workspace", json={"extract_sessions": False}).status_code == 200
    jobs = []
    if llm is not None:
        llm.queue(lines(RACE, KM, CARES))
        done = api.post("/v1/memorize", json={"text": TEXT, "async": False}).json()
        queued = api.post("/v1/memorize", json={"text": TEXT + " Again."})
        assert done["extraction"] == "succeeded" and queued.status_code == 202, queued.text
        jobs = [done["job_id"], queued.json()["job_id"]]
    # A recall embeds the workspace's pending claims, so no background embedder changes it later.
    assert api.post("/v1/recall", json={"query": "apple"}).status_code == 200
    return {
        "claims": [c["id"] for c in api.list(include_retracted="true", limit=1000)],  # the job's too
        **agent,
        "jobs": jobs,
        "known_before_retraction": second["recorded_at"],
        "known_after": iso(utc_now()),  # after every write above
    }


def remember(api: Api, cites: Sequence[str] = ()) -> dict[str, Any]:
    """Agent memory with every kind of node and link: observations that create subjects, cite and
    are related to an understanding; an understanding sourced from one, revised (SUPERSEDED_BY) and
    marked useful; a subject merged into another (an observation's and an understanding's tags
    moved); a session that was brought to mind (its heartbeat token and what it was shown)."""

    def post(path: str, body: dict[str, Any], status: int = 201) -> Any:
        response = api.post(path, json=body, headers=SESSION)
        assert response.status_code == status, response.text
        return response.json()

    post("/v1/memory/remember", {"text": "Apple's leadership is stable.", "subjects": ["apple", "leadership"]})
    ternus = {"text": "Ternus follows Cook as Apple's CEO.", "subjects": ["apple", "ternus"], "cites": list(cites)}
    source = post("/v1/memory/remember", ternus)["observation"]["id"]
    post("/v1/memory/remember", {"text": "John Ternus ran hardware engineering at Apple.", "subjects": ["john-ternus"]})
    first = post(
        "/v1/understandings",
        {
            "subject_names": ["apple", "leadership"],
            "text": "Cook leads Apple; Ternus is next.",
            "summary": "Apple's leadership",
            "source_observation_ids": [source],
        },
    )
    post("/v1/understandings", {"subject_names": ["ternus"], "text": "Ternus is Apple's next CEO.", "summary": "Heir"})
    revision = {"understanding_id": first["id"], "new_text": "Ternus leads Apple from 2026.", "new_summary": "Ternus"}
    revised = post("/v1/understandings/update", revision, 200)["new_understanding_id"]
    board = {"text": "The board confirmed Ternus as CEO.", "subjects": ["apple"], "related_to": [revised]}
    post("/v1/memory/remember", board)
    post("/v1/memory/useful", {"id": revised})
    assert post("/v1/subjects/merge", {"primary": "john-ternus", "duplicate": "ternus"}, 200)["tags_moved"] == 2
    brought = post("/v1/memory/bring-to-mind", {"topic_or_context": "Who leads Apple?", "limit": 2}, 200)
    return {
        "understanding": revised,
        "heartbeat_token": brought["heartbeat_token"],
        "brought": [r["id"] for r in brought["results"]],
    }


def memory_reads(api: Api, facts: dict[str, Any]) -> dict[str, Any]:
    """What the agent memory answers without writing: an understanding's history, intersections
    (the merged subject's names answer through the primary), subjects, stats and the event log."""

    def call(method: str, path: str, **kw: Any) -> Any:
        response = api.request(method, path, **kw)
        assert response.status_code == 200, response.text
        return response.json()

    return {
        "history": call("GET", f"/v1/understandings/{facts['understanding']}/history"),
        "understanding": call("GET", f"/v1/understandings/{facts['understanding']}"),
        "apple_and_leadership": call("POST", "/v1/subjects/intersection", json={"subjects": ["apple", "leadership"]}),
        "apple_and_ternus": call("POST", "/v1/subjects/intersection", json={"subjects": ["apple", "ternus"]}),
        "subjects": call("GET", "/v1/subjects"),
        "stats": call("GET", "/v1/memory/stats"),
        "events": call("GET", "/v1/memory/events"),
    }


def _ev(document: dict, start: int, end: int) -> dict:
    return {"document_id": document["id"], "start": start, "end": end}


def unordered(value: Any) -> Any:
    """Every list sorted, all the way down: for answers whose lists follow the order Neo4j happens to
    keep a node's relationships in, which it does not keep across a restore (nor promises at all)."""
    if isinstance(value, dict):
        return {k: unordered(v) for k, v in value.items()}
    if isinstance(value, list):
        return sorted((unordered(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    return value


def reads(api: Api, facts: dict[str, Any]) -> dict[str, Any]:
    """What a client can ask of the workspace, with every scope explicit (so 'now' does not move).
    Ordered answers (listings, walks, jobs) are compared as they come; the linked claims, evidence
    and neighbours of one claim as sets (see `unordered`); recall as the set of items it found
    (its ranking, and so which arm an item is credited to, also rests on the store-wide full-text
    statistics, which other workspaces and deleted documents move; an item's text lists its
    quotes in storage order)."""
    now = {"known_at": facts["known_after"], "valid_at": "2026-07-01"}
    past = {"known_at": facts["known_before_retraction"], "valid_at": "2025-01-01"}

    def get(path: str, **params: Any) -> Any:
        response = api.get(path, params=params)
        assert response.status_code == 200, response.text
        return response.json()

    def answer(path: str, **params: Any) -> Any:
        response = api.get(path, params=params)
        return response.status_code, response.json()

    out: dict[str, Any] = {
        "list_now": get("/v1/claims", include_retracted="true", limit=1000, **now),
        "list_past": get("/v1/claims", include_retracted="true", limit=1000, **past),
        "list_apple_2020": get("/v1/claims", subject="apple", valid_at="2020-01-01", known_at=facts["known_after"]),
        "profile": unordered(get("/v1/entities/apple/profile", **now)),
        "paths": get("/v1/entities/jane/paths", to="tim-cook", max_hops=3),
        "identity": get("/v1/entities/analyst/identity", **now),
        "identity_past": get("/v1/entities/analyst/identity", known_at=facts["known_before_retraction"]),
        "list_analyst_identity": get("/v1/claims", subject="analyst", identity="true", **now),
        "jobs": [get(f"/v1/jobs/{j}") for j in facts["jobs"]] + [get(f"/v1/jobs/{j}/raw") for j in facts["jobs"]],
        "settings": {k: v for k, v in get("/v1/workspace").items() if k != "workspace"},
        "predicates": get("/v1/predicates"),
        "turns": get("/v1/sessions/chat-1/turns", known_at=facts["known_after"]),  # t3 corrected_by t4
        "memory": memory_reads(api, facts),
    }
    for claim_id in facts["claims"]:
        out[claim_id] = {
            "claim": unordered(get(f"/v1/claims/{claim_id}")),
            "status_now": get(f"/v1/claims/{claim_id}/status", **now),
            "status_past": answer(f"/v1/claims/{claim_id}/status", **past),  # 422 for claims recorded later
            "neighbourhood": unordered(get(f"/v1/claims/{claim_id}/neighbourhood", depth=2)),
        }
    for query in ("When did Maya run a half marathon?", "Who is the CEO of Apple?", "Zebraquux"):
        body = {"query": query, "k": 200, "include_provenance": True, **now}  # all it finds, not a cut
        response = api.post("/v1/recall", json=body)
        assert response.status_code == 200, response.text
        found = [{k: v for k, v in item.items() if k not in ("text", "source")} for item in response.json()["items"]]
        out[query] = unordered(found)
        assert out[query]
    return out


def body_and_header(export_bytes: bytes) -> tuple[dict[str, Any], list[bytes]]:
    head, *body = export_bytes.splitlines()
    return json.loads(head), body


# -- export / import ---------------------------------------------------------------------------------


def test_a_restored_workspace_exports_the_same_bytes_and_answers_every_read_the_same(
    extracting, memory, llm, workspace
):
    source = Api(extracting, workspace)
    facts = populate(source, llm)
    before = reads(source, facts)
    first = export(memory, workspace)

    # ids are unique across the store: purge the original, then restore under another name.
    memory.purges.purge(workspace, None, by="test")
    assert memory.purges.holdings(workspace) == {}
    target = fresh()
    counts = memory.portability.import_(target, io.BytesIO(first))
    second = export(memory, target)

    head1, body1 = body_and_header(first)
    head2, body2 = body_and_header(second)
    assert body1 == body2  # every node, property, label and relationship, byte for byte
    assert {**head1, "exported_at": None, "workspace": None} == {**head2, "exported_at": None, "workspace": None}
    assert head1["counts"] == counts.as_dict()
    assert counts.nodes["Claim"] == len(facts["claims"]) == 13  # nine written, one in a turn, three extracted
    assert set(counts.nodes) == set(portability.LABELS)  # every kind of node was in the test
    assert set(counts.relationships) == portability.RELATIONSHIP_TYPES
    assert reads(Api(extracting, target), facts) == before


def test_a_restored_memory_session_goes_on_bringing_to_mind_what_it_was_not_shown(extracting, memory, workspace):
    api = Api(extracting, workspace)
    facts = remember(api)
    before = memory_reads(api, facts)
    backup = export(memory, workspace)

    def bring_next() -> list[tuple[str, float, str]]:
        """Everything the session was not shown yet (a limit above what the workspace holds, so every
        item of it is found: the vector index is asked for up to all its vectors)."""
        body = {"topic_or_context": "Who leads Apple?", "last_token": facts["heartbeat_token"], "limit": 50}
        response = api.post("/v1/memory/bring-to-mind", json=body, headers=SESSION)
        assert response.status_code == 200, response.text
        assert not response.json()["compaction_detected"], response.json()["reason"]  # the token was the last one
        return [(r["id"], r["similarity"], r["matched_perspective"]) for r in response.json()["results"]]

    going_on = bring_next()  # what the original shows next
    assert len(facts["brought"]) == 2 and going_on and not {i for i, _, _ in going_on} & set(facts["brought"])

    memory.purges.purge(workspace, None, by="test")
    memory.portability.import_(workspace, io.BytesIO(backup))  # the session as it was exported

    assert memory_reads(api, facts) == before
    assert before["history"]["revisions"] and before["stats"]["merged_subjects"] == 1
    assert bring_next() == going_on  # its heartbeat token and what it was shown came back


def test_the_export_keeps_times_vectors_and_retractions_exactly(extracting, memory, workspace):
    api = Api(extracting, workspace)
    populate(api)
    stored = memory.graph.read(
        lambda tx: tx.run(
            "MATCH (c:Claim {workspace: $w}) RETURN c.id AS id, toString(c.txFrom) AS txFrom, toString(c.txTo) AS txTo,"
            " c.embedding AS embedding, c.retractionReason AS reason",
            w=workspace,
        ).data()
    )
    nodes = {r["ref"]: r for r in map(json.loads, export(memory, workspace).splitlines()[1:]) if r["type"] == "node"}
    for row in stored:
        props = nodes[row["id"]]["properties"]
        assert props["txFrom"] == {"$datetime": row["txFrom"]} and props["embedding"] == row["embedding"]
        assert props.get("txTo") == (row["txTo"] and {"$datetime": row["txTo"]})
        assert props.get("retractionReason") == row["reason"] and "workspace" not in props
    assert any(r["txTo"] for r in stored)


def test_import_into_a_workspace_that_holds_anything_is_refused(extracting, memory, workspace):
    populate(Api(extracting, workspace))
    backup = export(memory, workspace)
    memory.purges.purge(workspace, None, by="test")
    target = Api(extracting, fresh())
    target.write(claim("already", "here", "x"))
    with pytest.raises(Conflict, match="not empty"):
        memory.portability.import_(target.workspace, io.BytesIO(backup))
    assert [c["subject"] for c in target.list()] == ["already"]


def test_import_refuses_ids_that_another_workspace_of_the_store_holds(extracting, memory, workspace):
    populate(Api(extracting, workspace))
    target = fresh()
    with pytest.raises(Conflict, match="already exists in this store"):
        memory.portability.import_(target, io.BytesIO(export(memory, workspace)))
    assert memory.purges.holdings(target) == {}


def _edit(backup: bytes, line: int, change) -> bytes:
    rows = backup.splitlines()
    rows[line - 1] = change(rows[line - 1])
    return b"\n".join(rows) + b"\n"


def _set(key: str, value: Any):
    def change(raw: bytes) -> bytes:
        record = json.loads(raw)
        record[key] = value
        return json.dumps(record).encode()

    return change


def _claim_line(backup: bytes) -> int:
    return next(i for i, raw in enumerate(backup.splitlines(), 1) if b'"labels":["Claim"' in raw)


def _predicate_line(backup: bytes) -> int:
    return next(i for i, raw in enumerate(backup.splitlines(), 1) if b'"labels":["Predicate"' in raw)


def _aliases(*aliases: str):
    def change(raw: bytes) -> bytes:
        record = json.loads(raw)
        record["properties"]["aliases"] = list(aliases)
        return json.dumps(record).encode()

    return change


def _second_predicate(name: str, *aliases: str):
    """The file with one more predicate, after the first (the header's count raised to match)."""

    def damage(backup: bytes) -> bytes:
        rows = backup.splitlines()
        header = json.loads(rows[0])
        header["counts"]["nodes"]["Predicate"] += 1
        first = json.loads(rows[_predicate_line(backup) - 1])
        first["ref"] = first["ref"].replace("ceo_of", name)
        first["properties"].update(name=name, aliases=list(aliases))
        at = _predicate_line(backup)
        rows[0] = json.dumps(header).encode()
        return b"\n".join([*rows[:at], json.dumps(first).encode(), *rows[at:]]) + b"\n"

    return damage


@pytest.mark.parametrize(
    "damage, line, message",
    [
        (lambda b: _edit(b, 3, lambda raw: raw[:-5]), 3, "not JSON"),
        (lambda b: _edit(b, 3, _set("labels", ["Secret"])), 3, "labels"),
        (lambda b: _edit(b, 3, _set("type", "edge")), 3, "'type'"),
        (lambda b: _edit(b, 1, _set("format", "something-else")), 1, "not a donto export"),
        (lambda b: b"\n".join(b.splitlines()[:-1]) + b"\n", 1, "cut off"),  # the last line lost
        (lambda b: b + b"\xff\xfe\n", "last", "not UTF-8"),
        (lambda b: _edit(b, len(b.splitlines()), _set("end", "no-such-node")), "last", "no node of the file has"),
        (lambda b: _edit(b, _claim_line(b), lambda raw: raw.replace(b'"$datetime"', b'"$when"', 1)), "claim", "tag"),
        (lambda b: _edit(b, _claim_line(b), lambda raw: raw.replace(b'"ref":"', b'"ref":"x', 1)), "claim", "ref"),
        (lambda b: _edit(b, _predicate_line(b), _aliases("ceo_of")), "predicate", "own name"),
        (lambda b: _edit(b, _predicate_line(b), _aliases("chief", "chief")), "predicate", "listed twice"),
        (_second_predicate("boss_of", "chief"), "second predicate", "'chief' already names the predicate 'ceo_of'"),
        (_second_predicate("runs", "ceo_of"), "second predicate", "'ceo_of' already names"),
    ],
    ids=["json", "label", "type", "header", "truncated", "utf8", "dangling", "temporal", "ref"]
    + ["own-alias", "alias-twice", "alias-taken", "name-taken"],
)
def test_a_malformed_file_is_refused_naming_its_line_and_nothing_is_written(
    extracting, memory, workspace, damage, line, message
):
    populate(Api(extracting, workspace))
    backup = export(memory, workspace)
    memory.purges.purge(workspace, None, by="test")
    broken = damage(backup)
    number = {
        "last": len(broken.splitlines()),
        "claim": _claim_line(backup),
        "predicate": _predicate_line(backup),
        "second predicate": _predicate_line(backup) + 1,
    }.get(line, line)
    with pytest.raises(InvalidInput, match=message) as refused:
        memory.portability.import_(workspace, io.BytesIO(broken))
    assert refused.value.message.startswith(f"line {number}: ") and refused.value.field == f"line {number}"
    assert memory.purges.holdings(workspace) == {}
    memory.portability.import_(workspace, io.BytesIO(backup))  # the intact file still restores
    assert export(memory, workspace).splitlines()[1:] == backup.splitlines()[1:]


def test_an_import_the_store_refuses_halfway_is_undone(extracting, memory, workspace, monkeypatch):
    populate(Api(extracting, workspace))
    backup = export(memory, workspace)
    memory.purges.purge(workspace, None, by="test")
    # A date Cypher refuses (30 February) passes the file check; small batches mean some were written.
    claim_line = max(i for i, raw in enumerate(backup.splitlines(), 1) if b'"labels":["Claim"' in raw)

    def impossible_date(raw: bytes) -> bytes:
        record = json.loads(raw)
        record["properties"]["txFrom"] = {"$datetime": "2026-02-30T00:00Z"}
        return json.dumps(record).encode()

    broken = _edit(backup, claim_line, impossible_date)
    monkeypatch.setattr(portability, "BATCH", 2)
    with pytest.raises(Exception, match="nothing was imported"):
        memory.portability.import_(workspace, io.BytesIO(broken))
    assert memory.purges.holdings(workspace) == {}
    memory.portability.import_(workspace, io.BytesIO(backup))  # its ids were freed again
    assert export(memory, workspace).splitlines()[1:] == backup.splitlines()[1:]


# -- purge -------------------------------------------------------------------------------------------


def _probes(memory: Memory, workspace: str) -> list[dict[str, Any]]:
    """The workspace's indexed nodes: ids, exact texts and exact vectors, to ask the indexes with."""
    return memory.graph.read(
        lambda tx: tx.run(
            "MATCH (n) WHERE n.workspace = $w AND (n:Claim OR n:Turn OR n:Passage OR n:Session OR n:Observation "
            "OR n:Understanding OR n:Subject OR n:PerspectiveVector OR n:Document) "
            "RETURN coalesce(n.id, n.targetId) AS id, labels(n)[0] AS label, n.text AS text, "
            "n.embedding AS embedding, n.contextEmbedding AS context",
            w=workspace,
        ).data()
    )


def _query_indexes(memory: Memory, probes: list[dict[str, Any]]) -> set[str]:
    """Ids of every node any index returns for these probes (exact text, exact vectors)."""
    vector_index = {
        "Claim": "claim_embedding",
        "Turn": "turn_embedding",
        "Passage": "passage_embedding",
        "Subject": "subject_embedding",
        "PerspectiveVector": "perspective_embedding",  # found by the item it embeds
    }
    found: set[str] = set()
    for probe in probes:
        words = " ".join(w for w in "".join(ch if ch.isalnum() else " " for ch in probe["text"] or "").split())
        for index in ("recall_search", "session_text", "memory_text", "document_text"):
            if words:
                hits = memory.graph.read(
                    lambda tx, i=index, q=words: tx.run(
                        "CALL db.index.fulltext.queryNodes($i, $q) YIELD node RETURN node.id AS id", i=i, q=q
                    ).value()
                )
                found.update(hits)
        context_index = "passage_context_embedding" if probe["label"] == "Passage" else "turn_context_embedding"
        vectors = [(vector_index.get(probe["label"]), probe["embedding"]), (context_index, probe["context"])]
        for index, vector in vectors:
            if index and vector:
                hits = memory.graph.read(
                    lambda tx, i=index, v=vector: tx.run(
                        "CALL db.index.vector.queryNodes($i, 100, $v) YIELD node "
                        "RETURN coalesce(node.id, node.targetId) AS id",
                        i=i,
                        v=v,
                    ).value()
                )
                found.update(hits)
    return found


def test_a_purged_workspace_cannot_be_recalled_listed_fetched_walked_or_found_in_any_index(
    extracting, memory, llm, workspace
):
    api, other = Api(extracting, workspace), Api(extracting, fresh())
    facts = populate(api, llm)
    populate(other)  # the same texts and vectors, in another workspace
    for embedded in (workspace, other.workspace):  # documents' passages get their vectors, to be probed with
        memory.claim_embeddings.drain(embedded)
    other_before = export(memory, other.workspace)
    probes = _probes(memory, workspace)
    assert {"Document", "Passage"} <= {p["label"] for p in probes if p["embedding"] or p["label"] == "Document"}
    purged_ids = {p["id"] for p in probes}
    assert purged_ids & _query_indexes(memory, probes)  # the probes find the workspace's nodes before

    report = memory.purges.purge(workspace, None, by="test")

    assert report.counts["Claim"] == len(facts["claims"]) and report.counts["Turn"] == 4  # t4 corrects t3
    assert set(report.counts) >= MEMORY_LABELS and report.counts["MemorySession"] == 1
    assert memory.purges.holdings(workspace) == {}
    assert not purged_ids & _query_indexes(memory, probes)  # the exact texts and vectors find none of them
    assert api.list(include_retracted="true") == []
    for claim_id in facts["claims"]:
        assert api.get(f"/v1/claims/{claim_id}").status_code == 404
        walked = api.get(f"/v1/claims/{claim_id}/status")
        assert walked.status_code == 404 and walked.json()["error"]["message"].startswith("no claim")
        assert other.get(f"/v1/claims/{claim_id}").status_code == 404
    for query in ("Zebraquux", "When did Maya run a half marathon?", "apple ceo_of tim-cook"):
        assert api.post("/v1/recall", json={"query": query}).json()["items"] == []
    assert api.get("/v1/entities/apple/profile").status_code == 404
    assert api.get("/v1/jobs").json()["jobs"] == []
    stats = api.get("/v1/memory/stats").json()
    kinds = ("subjects", "merged_subjects", "observations", "understandings", "sessions", "agent_sessions")
    kinds += ("signals", "events")
    assert [stats[k] for k in kinds] == [0] * len(kinds)
    assert api.get(f"/v1/understandings/{facts['understanding']}").status_code == 404
    history = api.get(f"/v1/understandings/{facts['understanding']}/history")  # 200 with no versions, for now
    assert history.status_code == 404 or history.json()["versions"] == []
    left = memory.graph.read(
        lambda tx: tx.run("MATCH (n) WHERE n.workspace = $w RETURN labels(n) AS labels", w=workspace).value()
    )
    # Only the audit record, the counts of key use (access, not memory: kept, like the keys) and the
    # workspace's transaction clock (kept, so times after the purge stay later than before it).
    assert ["Purge"] in left
    assert {label for labels in left for label in labels} <= {"Purge", "KeyUsage", "TransactionClock"}
    # The other workspace, the same texts and all, is untouched: its export is the same bytes.
    assert export(memory, other.workspace).splitlines()[1:] == other_before.splitlines()[1:]


def test_the_audit_record_outlives_the_purge_and_holds_none_of_the_purged_content(extracting, memory, workspace):
    api = Api(extracting, workspace)
    populate(api)
    report = memory.purges.purge(workspace, "zebraquux", by="cli:auditor")
    [record] = memory.graph.read(
        lambda tx: tx.run("MATCH (p:Purge {id: $id}) RETURN properties(p) AS p", id=report.id).value()
    )
    assert record["subjectSha256"] == hashlib.sha256(b"zebraquux").hexdigest()
    assert record["by"] == "cli:auditor" and record["scope"] == "subject" and record["finishedAt"] is not None
    assert json.loads(record["counts"]) == report.counts == {"claims": 1, "entities": 1, "spans": 0}
    text = json.dumps(record, default=str).lower()
    assert "zebraquux" not in text and "apple" not in text and "audits" not in text


def test_a_subject_purge_removes_its_claims_spans_and_entity_and_leaves_other_subjects(extracting, memory, workspace):
    api = Api(extracting, workspace)
    doc = api.post("/v1/documents", json={"text": "Alice met Bob in Paris. Bob lives in Rome."}).json()
    alice = api.write(
        claim("alice", "met", "bob", evidence=[_ev(doc, 0, 22)]),  # the span Bob's claim also cites
        claim("alice", "visited", "paris", evidence=[_ev(doc, 13, 22)]),
        claim("carol", "knows", "alice"),  # alice as the entity object: about alice too
    )["claims"]
    bob = api.write(
        claim("bob", "met", "alice-smith", evidence=[_ev(doc, 0, 22)]),
        claim("bob", "lives_in", "rome", evidence=[_ev(doc, 24, 42)]),
        claim("carol", "knows", "bob", derived_from=[alice[0]["id"]]),
    )["claims"]
    assert api.post("/v1/recall", json={"query": "alice"}).status_code == 200  # embeds them
    alice_probes = [r for r in _probes(memory, workspace) if r["id"] in {c["id"] for c in alice}]
    report = memory.purges.purge(workspace, "alice", by="test")

    assert report.counts == {"claims": 3, "spans": 1, "entities": 2}  # the 13-22 span; alice and paris
    for c in alice:
        assert api.get(f"/v1/claims/{c['id']}").status_code == 404
    assert not {c["id"] for c in alice} & _query_indexes(memory, alice_probes)
    kept = {c["id"]: api.get(f"/v1/claims/{c['id']}").json() for c in bob}
    assert [e["text"] for e in kept[bob[0]["id"]]["evidence"]] == ["Alice met Bob in Paris"]  # the shared span
    assert kept[bob[2]["id"]]["derived_from"] == []  # its premise was about alice
    assert api.get("/v1/entities/alice/profile").status_code == 404
    assert {c["subject"] for c in api.list()} == {"bob", "carol"}
    entities = memory.graph.read(
        lambda tx: tx.run("MATCH (e:Entity {workspace: $w}) RETURN e.key ORDER BY e.key", w=workspace).value()
    )
    assert entities == ["alice-smith", "bob", "carol", "rome"]
    items = api.post("/v1/recall", json={"query": "alice visited paris", "include_provenance": True}).json()["items"]
    assert not {i for item in items for i in item["provenance"]["claim_ids"]} & {c["id"] for c in alice}


# -- the command line --------------------------------------------------------------------------------


class Pipe(io.BytesIO):
    def seekable(self) -> bool:
        return False


@pytest.fixture
def cli_env(settings, monkeypatch):
    monkeypatch.setenv("NEO4J_URI", settings.neo4j.uri)
    monkeypatch.setenv("NEO4J_USER", settings.neo4j.user)
    monkeypatch.setenv("NEO4J_PASSWORD", settings.neo4j.password.get_secret_value())


def test_donto_export_purge_import_round_trip_on_the_command_line(
    extracting, memory, workspace, cli_env, tmp_path, capsys, monkeypatch
):
    facts = populate(Api(extracting, workspace))
    before = reads(Api(extracting, workspace), facts)
    backup = tmp_path / "backup.jsonl"
    assert donto(["export", "--workspace", workspace, "--out", str(backup)]) == 0
    assert not (tmp_path / "backup.jsonl.partial").exists()

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"")))  # not a terminal, no --yes
    assert donto(["purge", "--workspace", workspace]) == 2
    assert "pass --yes" in capsys.readouterr().err and memory.purges.holdings(workspace)["Claim"] > 0

    assert donto(["purge", "--workspace", workspace, "--yes"]) == 0
    assert "audit record" in capsys.readouterr().out and memory.purges.holdings(workspace) == {}

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(Pipe(backup.read_bytes())))  # read once, as a pipe is
    assert donto(["import", "--workspace", workspace, "-"]) == 0
    assert capsys.readouterr().out.startswith(f"imported into workspace {workspace}: ")
    again = tmp_path / "again.jsonl"
    assert donto(["export", "--workspace", workspace, "--out", str(again)]) == 0
    assert again.read_bytes().splitlines()[1:] == backup.read_bytes().splitlines()[1:]
    assert reads(Api(extracting, workspace), facts) == before

    assert donto(["import", "--workspace", workspace, str(backup)]) == 1  # not empty now
    assert "is not empty" in capsys.readouterr().err


def test_an_embedded_claim_from_an_export_made_before_schema_version_9_comes_back_into_full_text(
    extracting, memory, workspace
):
    # Before version 9 every claim was in recall's full-text index and an export named no :Searchable.
    api = Api(extracting, workspace)
    api.write(claim("maya", "adopted", "a greyhound called biscuit"))
    memory.claim_embeddings.drain(workspace)

    def without_searchable(raw: bytes) -> bytes:
        record = json.loads(raw)
        if "labels" in record:
            record["labels"] = [lb for lb in record["labels"] if lb != "Searchable"]
        return json.dumps(record).encode()

    lines = export(memory, workspace).splitlines()
    old = b"\n".join([lines[0], *map(without_searchable, lines[1:])])
    assert b"Searchable" not in old
    memory.purges.purge(workspace, None, by="test")  # ids are unique across the store
    target = fresh()
    memory.portability.import_(target, io.BytesIO(old + b"\n"))
    [labels] = memory.graph.read(
        lambda tx: tx.run("MATCH (c:Claim {workspace: $w}) RETURN labels(c) AS labels", w=target).value()
    )
    assert sorted(labels) == ["Claim", "Searchable"]
    assert [
        i["object"]
        for i in Api(extracting, target)
        .post("/v1/recall", json={"query": "greyhound", "arms": ["fulltext"]})
        .json()["items"]
    ] == ["a greyhound called biscuit"]
