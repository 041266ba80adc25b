"""donto.Client and donto.AsyncClient against the real server (uvicorn on a loopback port, the
suite's Neo4j): an agent developer's session, as-of reads, the walk, recall of a document, paging,
agent memory and the errors donto answers with, all through the typed client."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import uuid
from collections.abc import Iterator

import pytest

import donto
from donto.api.schemas.recall import RecallIn
from support import ADMIN_KEY, REPO


@pytest.fixture
def memory(url) -> Iterator[donto.Client]:
    with donto.Client(url, api_key=ADMIN_KEY, workspace=f"client-{uuid.uuid4().hex[:10]}", session="s1") as client:
        yield client


def claim(subject: str, predicate: str, entity: str, **more: object) -> dict[str, object]:
    return {"subject": subject, "predicate": predicate, "object": {"entity": entity}, **more}


def test_claims_written_read_back_as_of_both_axes_and_walked(memory):
    assert memory.health().status == "ok"
    memory.declare_predicate("lives_in", cardinality="one")
    first = memory.write_claims(claims=[claim("ann", "lives_in", "lisbon", valid_from="2019-06-01")])
    [lisbon] = first.claims
    [commute] = memory.write_claims(
        claims=[claim("ann", "commutes_by", "metro", valid_from="2019-06-01", derived_from=[lisbon.id])]
    ).claims
    assert memory.claim_status(commute.id).status == "UNVERIFIED"
    memory.write_claims(claims=[claim("ann", "lives_in", "porto", valid_from="2024-09-01")])

    assert memory.claim_status(commute.id).status == "POTENTIALLY_STALE"
    in_2020 = memory.list_claims(subject="ann", predicate="lives_in", valid_at="2020-01-01T00:00:00Z")
    assert [c.object for c in in_2020.claims] == [{"entity": "lisbon"}]
    before_the_move = memory.list_claims(subject="ann", predicate="lives_in", known_at=first.recorded_at)
    assert [c.object for c in before_the_move.claims] == [{"entity": "lisbon"}]
    assert [p.name for p in memory.list_predicates()] == ["lives_in"]
    assert memory.get_claim(lisbon.id).superseded_by  # Porto replaced it, now
    assert memory.get_claim(lisbon.id, valid_at="2020-01-01T00:00:00Z").superseded_by == []  # not yet then


def test_iter_claims_follows_the_cursor_through_every_page(memory):
    memory.write_claims(claims=[claim(f"person-{i:02d}", "likes", "tea") for i in range(23)])
    pages = memory.list_claims(predicate="likes", limit=10)
    assert len(pages.claims) == 10 and pages.next_cursor
    subjects = [c.subject for c in memory.iter_claims(predicate="likes", page_size=10)]
    assert sorted(subjects) == [f"person-{i:02d}" for i in range(23)]


def test_a_document_is_recalled_at_its_offsets_and_its_text_reads_back(memory):
    text = "Minutes of the board.\nThe Porto office opens in March 2025, led by Rui Costa.\nNothing else."
    document = memory.register_document(text=text, title="Board minutes", occurred_at="2024-11-20T10:00:00Z")
    assert memory.get_document(document.id).title == "Board minutes"
    assert memory.get_document_text(document.id) == text

    bundle = memory.recall(RecallIn(query="When does the Porto office open?", k=5, include_provenance=True))
    passage = next(item for item in bundle.items if item.provenance and item.provenance.document_id == document.id)
    assert passage.provenance is not None
    start, end = passage.provenance.start, passage.provenance.end
    assert text[start:end] == "The Porto office opens in March 2025, led by Rui Costa."


def test_memorize_without_an_llm_keeps_the_text_and_says_so(memory):
    out = memory.memorize(text="Ada joined Initech in 2021.", title="note", run_async=False)
    assert out.extraction == "not_configured" and out.source_kind == "document"
    assert memory.list_jobs().jobs == []


def test_an_agent_session_remembers_and_brings_to_mind(memory):
    memory.create_subject(name="Ada Lovelace", summary="mathematician")
    memory.remember(text="Ada prefers tea to coffee in the mornings.", subjects=["Ada Lovelace"])
    assert memory.get_subject("Ada Lovelace").observations
    assert memory.orient().session
    found = memory.search_memory("what does Ada drink in the morning?", mode="text")
    assert any("tea" in str(result) for result in found.results)
    names = [s.name for s in memory.iter_subjects(page_size=1)]
    assert names == ["Ada Lovelace"]


def test_a_conversation_is_read_back_paged_retracted_and_cleared_through_the_client(memory):
    turns = [
        {"external_id": f"m{i}", "speaker": "user" if i % 2 else "assistant", "text": f"message {i}"} for i in range(7)
    ]
    turns[3] |= {"metadata": {"role": "user", "attachments": [{"name": "café.png", "bytes": 2048}]}}
    turns[4] |= {"text": ""}  # a message with no words
    added = memory.add_turns(session={"external_id": "chat-7"}, turns=turns)

    latest = memory.session_turns("chat-7", limit=3, latest=True)
    assert [t.external_id for t in latest.turns] == ["m4", "m5", "m6"] and latest.next_after is None
    earlier = memory.session_turns("chat-7", limit=3, before=latest.next_before)
    assert [t.seq for t in earlier.turns] == [1, 2, 3] and earlier.turns[2].metadata == turns[3]["metadata"]
    assert [t.text for t in memory.session_turns("chat-7", after=4).turns] == ["message 5", "message 6"]
    assert [t.external_id for t in memory.iter_session_turns("chat-7", page_size=2)] == [f"m{i}" for i in range(7)]
    assert [t.text for t in memory.iter_session_turns("chat-7")][4] == ""

    memory.add_turns(session={"external_id": "chat-8"}, turns=turns[:1])
    assert [s.external_id for s in memory.iter_sessions(page_size=1)] == ["chat-7", "chat-8"]
    assert memory.list_sessions(limit=1).sessions[0].turn_count == 7

    retracted = memory.retract_turn(added.turns[0].id, reason="wrong chat")
    assert retracted.was_live and memory.retract_turn(added.turns[0].id).retracted_at == retracted.retracted_at
    assert memory.get_turn(added.turns[0].id).retraction_reason == "wrong chat"
    assert memory.session_turns("chat-7").turns[0].external_id == "m1"
    assert len(memory.session_turns("chat-7", known_at=added.recorded_at).turns) == 7
    assert memory.clear_session("chat-7", reason="user asked").retracted == 6
    assert memory.session_turns("chat-7").turns == []

    with pytest.raises(donto.NotFoundError) as missing:
        memory.session_turns("no-such-chat")
    assert missing.value.field == "session"
    with pytest.raises(donto.InvalidRequest) as refused:
        memory.add_turns(session={"external_id": "c"}, turns=[{**turns[0], "metadata": {"x": "y" * 20_000}}])
    assert refused.value.field == "turns[0].metadata"  # checked before anything is sent


def test_donto_s_refusals_arrive_as_typed_exceptions_with_its_error_body(memory, url):
    with pytest.raises(donto.NotFoundError) as missing:
        memory.get_claim("0190f000-0000-7000-8000-000000000000")
    assert missing.value.status == 404 and missing.value.code == "not_found"

    unknown_premise = "0190f000-0000-7000-8000-000000000001"
    with pytest.raises(donto.InvalidRequest) as refused:  # valid as a model; refused by the service
        memory.write_claims(claims=[claim("bob", "manages", "team", derived_from=[unknown_premise])])
    assert (refused.value.status, refused.value.field) == (422, "claims[0].derived_from[0]")

    with donto.Client(url, api_key="not-a-key") as stranger, pytest.raises(donto.Unauthorized) as unknown:
        stranger.list_predicates()
    assert unknown.value.status == 401
    assert f"[GET {url}/v1/predicates answered 401]" in str(unknown.value)  # which donto refused the key


def test_the_bundle_names_the_workspace_it_read(url):
    workspace = f"client-said-{uuid.uuid4().hex[:10]}"
    with donto.Client(url, api_key=ADMIN_KEY, workspace=workspace) as memory:
        bundle = memory.recall("where does ada work?")
        response = memory.request("POST", "/v1/recall", json={"query": "where does ada work?"})
    assert (bundle.items, bundle.workspace, bundle.workspace_empty) == ([], workspace, True)
    assert response.headers["X-Donto-Workspace"] == workspace


def test_the_async_client_does_the_same_over_asyncio(url):
    async def session() -> tuple[int, list[str]]:
        workspace = f"client-async-{uuid.uuid4().hex[:10]}"
        async with donto.AsyncClient(url, api_key=ADMIN_KEY, workspace=workspace) as memory:
            await memory.write_claims(claims=[claim(f"p{i}", "knows", "q") for i in range(5)])
            statuses = await asyncio.gather(*(memory.list_claims(subject=f"p{i}") for i in range(5)))
            subjects = [c.subject async for c in memory.iter_claims(predicate="knows", page_size=2)]
            await memory.add_turns(
                session={"external_id": "a"}, turns=[{"external_id": "t", "speaker": "x", "text": "hi"}]
            )
            said = [t.text async for t in memory.iter_session_turns("a")]
            assert said == ["hi"] and [s.external_id async for s in memory.iter_sessions()] == ["a"]
            return sum(len(s.claims) for s in statuses), sorted(subjects)

    assert asyncio.run(session()) == (5, ["p0", "p1", "p2", "p3", "p4"])


def run_example(example: str, url: str, cwd) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("DONTO_")}
    env |= {"DONTO_URL": url, "DONTO_API_KEY": ADMIN_KEY}
    return subprocess.run(
        [sys.executable, "-c", example], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_the_readme_python_example_runs_as_written(url, tmp_path):
    readme = (REPO / "README.md").read_text()
    [example] = re.findall(r"## From Python\n.*?```python\n(.*?)```", readme, re.DOTALL)
    run = run_example(example, url, tmp_path)
    assert run.returncode == 0, run.stderr
    assert "(current)" in run.stdout and "(superseded)" in run.stdout, run.stdout
    assert run.stdout.rstrip().endswith("{'entity': 'initech'}"), run.stdout


def test_the_two_memories_agent_loop_runs_as_written(url, tmp_path):
    page = (REPO / "docs" / "explanation" / "two-memories.md").read_text()
    [example] = re.findall(r"## One agent loop, both memories\n.*?```python\n(.*?)```", page, re.DOTALL)
    run = run_example(example, url, tmp_path)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert any("ann lives_in porto" in line and "(current)" in line for line in lines), run.stdout
    assert any("ann lives_in lisbon" in line and "(superseded)" in line for line in lines), run.stdout
    assert any(line.startswith("recall:") and "moved from Lisbon to Porto" in line for line in lines), run.stdout
    assert "understanding: Ann: in Porto, wants short answers" in lines, run.stdout
    assert lines[-1] == "sessions 1, agent sessions 1, observations 1", run.stdout
