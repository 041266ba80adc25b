"""Memorize and the job queue, end to end: REST in, the production LLM client talking to a scripted
OpenAI-compatible server on a real socket, claims with evidence and premises in a real Neo4j, and
a real worker process killed mid-job."""

from __future__ import annotations

import base64
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient
from scripted_llm import CARES, KM, RACE, TEXT, Reply, ScriptedLLM, lines, with_llm

from donto.extraction.prompts import DEFAULT_LENSES, PROMPTS_VERSION, load_prompts
from donto.jobs.extraction import ExtractionJobs
from donto.memory import Memory
from donto.settings import ExtractionSettings, Settings
from support import REPO, Api, claim, text_image

LEASE_S = 2.0


@pytest.fixture(scope="module")
def llm_settings(settings: Settings, llm: ScriptedLLM) -> Settings:
    """The suite's Neo4j, an LLM endpoint, and no background workers: tests run workers themselves."""
    return with_llm(settings, llm, lease_s=LEASE_S)


@pytest.fixture(scope="module")
def extracting(llm_settings: Settings) -> Iterator[TestClient]:
    from donto.api.main import create_app

    with TestClient(create_app(llm_settings)) as client:
        yield client


@pytest.fixture
def xapi(extracting, workspace) -> Api:
    return Api(extracting, workspace)


@pytest.fixture
def xmemory(extracting) -> Memory:
    return extracting.app.state.memory


@pytest.fixture(autouse=True)
def fresh_script(llm: ScriptedLLM) -> None:
    llm.replies.clear()
    llm.default = Reply("")
    llm.respond = None


def data_url(image: bytes, kind: str = "png") -> str:
    return f"data:image/{kind};base64,{base64.b64encode(image).decode()}"


SHED = ["The shed key hangs in the back office.", "Ask Tom at the front desk for it."]
SHOT = data_url(text_image(SHED))  # a screenshot whose words are known
BLANK = data_url(text_image([" "]))  # an image with no text in it


def memorize(api: Api, status: int = 200, **body) -> dict:
    response = api.post("/v1/memorize", json=body)
    assert response.status_code == status, response.text
    return response.json()


def run_worker(memory: Memory, name: str = "test-worker") -> int:
    return ExtractionJobs(memory.jobs, memory.memorize, worker=name).run_once()


def claims_by_predicate(api: Api) -> dict[str, dict]:
    return {c["predicate"]: c for c in api.list(limit=1000)}


def test_without_an_llm_the_text_is_kept_and_no_extraction_runs(api: Api):
    out = memorize(api, text=TEXT)
    assert out["extraction"] == "not_configured" and out["job_id"] is None and out["source_kind"] == "document"
    assert api.list() == []


def test_an_images_text_is_kept_as_the_document_and_recalled(api: Api):
    out = memorize(api, images=[SHOT], title="whiteboard")
    assert out["extraction"] == "not_configured"
    kept = api.get(f"/v1/documents/{out['source_id']}/text").text
    assert kept == "[OCR text from image #1]\n" + "\n".join(SHED)
    assert out["images"] == [
        {"index": 0, "format": "png", "bytes": out["images"][0]["bytes"], "chars": len("\n".join(SHED)), "error": None}
    ]
    items = api.post("/v1/recall", json={"query": "Where does the shed key hang?", "k": 3, "include_provenance": True})
    where = items.json()["items"][0]["provenance"]
    assert where["document_id"] == out["source_id"] and where["title"] == "whiteboard"
    assert "The shed key hangs in the back office." in kept[where["start"] : where["end"]]  # offsets count the OCR text


def test_images_text_goes_before_the_text_and_one_unread_is_reported_not_refused(api: Api):
    torn = base64.b64encode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR").decode()  # bare base64, a PNG cut short
    jpeg = data_url(text_image(["Invoice 4471 is paid."], "JPEG", quality=90), "jpeg")
    out = memorize(api, text="Notes from the call.", images=[BLANK, jpeg, torn])
    kept = api.get(f"/v1/documents/{out['source_id']}/text").text
    assert kept.startswith("[OCR text from image #2]\nInvoice") and kept.endswith("paid.\n\nNotes from the call.")
    blank, read, broken = out["images"]
    assert (blank["format"], blank["chars"], blank["error"]) == ("png", 0, "no text found in it")
    assert read["format"] == "jpeg" and read["chars"] == len(kept) - len(
        "[OCR text from image #2]\n\n\nNotes from the call."
    )
    assert broken["chars"] == 0 and broken["error"].startswith("a PNG that could not be decoded")
    out = memorize(api, text="Only words.", images=[BLANK])
    assert api.get(f"/v1/documents/{out['source_id']}/text").text == "Only words."


def test_a_request_with_images_takes_a_heavy_turn_however_small(api: Api, monkeypatch):
    turns = api.client.app.state.workspace_turns
    taken, turn = [], turns.turn

    def recorded(workspace: str, heavy: bool = False):
        taken.append(heavy)
        return turn(workspace, heavy)

    monkeypatch.setattr(turns, "turn", recorded)
    memorize(api, text="A short note.")
    memorize(api, text="A short note.", images=[SHOT])  # 12 kB: light by its size, heavy by its OCR
    assert taken == [False, True]


def test_an_image_is_extracted_from_like_text(xapi: Api, llm: ScriptedLLM):
    llm.queue(lines({"id": "f1", "s": "shed key", "p": "hangs_in", "o": "back office", "q": SHED[0], "c": 0.9}))
    out = memorize(xapi, images=[SHOT], **{"async": False})
    assert out["extraction"] == "succeeded" and out["images"][0]["chars"] == len("\n".join(SHED))
    assert "The shed key hangs in the back office." in llm.requests[-1]["messages"][-1]["content"]
    [found] = xapi.list()
    assert found["predicate"] == "hangs_in"
    [evidence] = xapi.get(f"/v1/claims/{found['id']}").json()["evidence"]
    kept = xapi.get(f"/v1/documents/{out['source_id']}/text").text
    assert evidence["text"] == SHED[0] == kept[evidence["start"] : evidence["end"]]  # offsets in the kept text


def test_memorize_now_writes_anchored_claims_with_evidence_and_premises(xapi: Api, llm: ScriptedLLM):
    llm.queue(lines(RACE, KM, CARES))
    out = memorize(xapi, text=TEXT, mode="single", **{"async": False})
    assert out["extraction"] == "succeeded"
    assert {k: out["summary"][k] for k in ("facts", "claimsCreated", "claimsExisting", "anchored", "premises")} == {
        "facts": 3,
        "claimsCreated": 3,
        "claimsExisting": 0,
        "anchored": 3,
        "premises": 1,
    }
    by_predicate = claims_by_predicate(xapi)
    race = xapi.get(f"/v1/claims/{by_predicate['ran']['id']}").json()
    assert (race["subject"], race["object"]) == ("melanie", {"entity": "charity-race"})
    assert race["evidence"][0]["document_id"] == out["source_id"]
    assert race["evidence"][0]["text"] == "I ran a charity race"
    assert by_predicate["distance_km"]["object"] == {"literal": {"value": 5, "datatype": "xsd:integer"}}
    cares = xapi.get(f"/v1/claims/{by_predicate['cares_about']['id']}").json()
    assert cares["derived_from"] == [race["id"]]
    assert xapi.get(f"/v1/claims/{cares['id']}/status").json()["status"] == "UNVERIFIED"
    xapi.post(f"/v1/claims/{race['id']}/retract")
    assert xapi.get(f"/v1/claims/{cares['id']}/status").json()["status"] == "POTENTIALLY_STALE"


def test_the_job_keeps_its_passes_raw_replies_and_links_to_its_claims(xapi: Api, llm: ScriptedLLM, xmemory):
    llm.queue(lines(RACE, KM))
    out = memorize(xapi, text=TEXT, **{"async": False})
    job = xapi.get(f"/v1/jobs/{out['job_id']}").json()
    assert job["state"] == "succeeded" and job["attempts"] == 1 and job["request"]["mode"] == "single"
    assert job["request"]["prompts_version"] == PROMPTS_VERSION and PROMPTS_VERSION.startswith("builtin-")
    [only] = job["passes"]
    assert (only["label"], only["raw"], only["new"], only["collisions"]) == ("single", 2, 2, 0)
    assert only["promptTokens"] == 100 and only["tokensEstimated"] is False
    raw = xapi.get(f"/v1/jobs/{out['job_id']}/raw").json()
    assert raw["passes"][0]["replies"] == [lines(RACE, KM)]
    linked = xmemory.graph.read(
        lambda tx: tx.run(
            "MATCH (:Job {id: $id})-[e:EXTRACTED]->(c:Claim) RETURN c.predicate AS p, e.pass AS pass, e.anchored AS a",
            id=out["job_id"],
        ).data()
    )
    assert sorted((r["p"], r["pass"], r["a"]) for r in linked) == [
        ("distance_km", "single", True),
        ("ran", "single", True),
    ]


def test_a_jobs_facts_say_in_order_where_each_was_anchored_and_what_became_of_it(xapi: Api, llm: ScriptedLLM, xmemory):
    xapi.write(claim("charity-race", "distance_km", object={"literal": {"value": 5, "datatype": "xsd:integer"}}))
    elsewhere = {"id": "f4", "s": "Melanie", "p": "has", "o": "kids", "q": "my three kids were there", "c": 0.7}
    no_subject = {"p": "likes", "o": "running"}
    reply = lines(RACE, KM, elsewhere, RACE, no_subject) + "\n{broken: json}"
    llm.queue(reply)
    out = memorize(xapi, text=TEXT, occurred_at="2026-11-16", **{"async": False})
    body = xapi.get(f"/v1/jobs/{out['job_id']}/facts").json()
    facts = body["facts"]
    assert body["next_after"] is None and [f["seq"] for f in facts] == [1, 2, 3, 4, 5, 6]
    race, km, kids, again, unreadable, broken = facts
    assert race["outcome"] == "created" and race["label"] == "single" and race["quote"] == "I ran a charity race"
    assert race["anchor"] == {"kind": "document", "id": out["source_id"], "start": 9, "end": 29}
    assert TEXT[race["anchor"]["start"] : race["anchor"]["end"]] == "I ran a charity race"
    assert km["outcome"] == "existing" and km["claim_id"] == claims_by_predicate(xapi)["distance_km"]["id"]
    assert kids["outcome"] == "created" and kids["anchor"] is None
    assert kids["unanchored_reason"] == "its quote is not in the text"
    assert (again["outcome"], again["repeats"], again["claim_id"]) == ("repeated", 1, race["claim_id"])
    assert (unreadable["outcome"], unreadable["reason"], unreadable["claim_id"]) == (
        "rejected",
        "empty field: subject",
        None,
    )
    assert unreadable["text"] == '{"p": "likes", "o": "running"}'
    assert (broken["outcome"], broken["reason"], broken["text"]) == ("rejected", "not valid JSON", "{broken: json}")
    # The same as a graph, for an analyst: (:Job)-[:STATED]->(:JobFact)-[:BECAME]->(:Claim)
    drawn = xmemory.graph.read(
        lambda tx: tx.run(
            "MATCH (:Job {id: $id})-[:STATED]->(f:JobFact) OPTIONAL MATCH (f)-[:BECAME]->(c:Claim)"
            " RETURN f.seq AS seq, c.id AS claim ORDER BY seq",
            id=out["job_id"],
        ).data()
    )
    assert [r["claim"] for r in drawn] == [f["claim_id"] for f in facts]
    slide = xmemory.graph.read_query("guide_job_facts", workspace=xapi.workspace, claim=race["claim_id"])
    assert [(r["seq"], r["outcome"], r["became"] is not None) for r in slide] == [
        (1, "created", True),
        (2, "existing", True),
        (3, "created", True),
        (4, "repeated", True),
        (5, "rejected", False),
        (6, "rejected", False),
    ]
    assert slide[4]["why"] == "empty field: subject" and slide[2]["why"] == "its quote is not in the text"
    page = xapi.get(f"/v1/jobs/{out['job_id']}/facts", params={"limit": 4}).json()
    assert [f["seq"] for f in page["facts"]] == [1, 2, 3, 4] and page["next_after"] == 4
    rest = xapi.get(f"/v1/jobs/{out['job_id']}/facts", params={"after": 4}).json()
    assert [f["seq"] for f in rest["facts"]] == [5, 6]
    assert xapi.get("/v1/jobs/no-such-job/facts").status_code == 404
    assert xapi.get(f"/v1/jobs/{out['job_id']}/facts", params={"limit": 0}).json()["error"]["field"] == "limit"


def test_a_fact_already_known_is_found_again_not_written_twice(xapi: Api, llm: ScriptedLLM):
    xapi.write(claim("melanie", "ran", "charity-race"))
    llm.queue(lines(RACE))
    out = memorize(xapi, text=TEXT, **{"async": False})
    assert (out["summary"]["claimsCreated"], out["summary"]["claimsExisting"]) == (0, 1)
    assert len(xapi.list(predicate="ran")) == 1


def test_predicates_take_their_registered_name_and_modality_becomes_the_context(xapi: Api, llm: ScriptedLLM):
    xapi.put("/v1/predicates/competed_in", json={"cardinality": "many", "aliases": ["ran"]})
    denied = {"s": "Melanie", "p": "won", "o": "charity race", "mod": "negated", "q": "I won the race", "c": 0.9}
    llm.queue(lines(RACE, denied))
    memorize(xapi, text=TEXT, **{"async": False})
    by_predicate = claims_by_predicate(xapi)
    assert "competed_in" in by_predicate and "ran" not in by_predicate
    won = by_predicate["won"]
    assert won["context"] == "negated" and won["confidence"] <= 0.5  # not anchored: its quote is not in the text
    assert xapi.get(f"/v1/claims/{won['id']}").json()["evidence"] == []


def test_a_session_is_read_turn_by_turn_and_evidence_cites_the_turn(xapi: Api, llm: ScriptedLLM):
    episode = xapi.post(
        "/v1/episodes",
        json={
            "session": {"external_id": "s1"},
            "turns": [
                {"external_id": "t1", "speaker": "Sam", "text": "How was your weekend?"},
                {"external_id": "t2", "speaker": "Melanie", "text": "I ran a charity race for mental health!"},
            ],
        },
    ).json()
    llm.queue(lines(RACE))
    out = memorize(xapi, session_id=episode["session_id"], **{"async": False})
    assert out["source_kind"] == "session" and out["summary"]["anchored"] == 1
    [race] = xapi.list(predicate="ran")
    [evidence] = xapi.get(f"/v1/claims/{race['id']}").json()["evidence"]
    turn = next(t for t in episode["turns"] if t["external_id"] == "t2")
    assert evidence["document_id"] == turn["id"] and (evidence["start"], evidence["end"]) == (0, 20)
    drawn = xapi.get(f"/v1/claims/{race['id']}/neighbourhood").json()
    assert {"type": "IN", "start": f"span:{evidence['span_id']}", "end": f"turn:{turn['id']}"} in drawn["relationships"]
    assert any(n["id"] == f"turn:{turn['id']}" and n["kind"] == "Turn" for n in drawn["nodes"])


def test_an_async_job_is_queued_then_run_by_a_worker(xapi: Api, llm: ScriptedLLM, xmemory):
    out = memorize(xapi, 202, text=TEXT, mode="deep", passes=3)
    assert out["extraction"] == "queued" and out["queue_position"] >= 1 and out["eta_s"] > 0
    assert xapi.get(f"/v1/jobs/{out['job_id']}").json()["state"] == "queued"
    llm.queue(lines(RACE), lines(RACE, KM), lines(KM), lines(RACE))
    while run_worker(xmemory):  # this job, and any other queued before it
        if xapi.get(f"/v1/jobs/{out['job_id']}").json()["state"] != "queued":
            break
    job = xapi.get(f"/v1/jobs/{out['job_id']}").json()
    assert job["state"] == "succeeded", job
    assert [(p["label"], p["new"], p["collisions"]) for p in job["passes"]] == [
        ("pass_1", 1, 0),
        ("pass_2", 1, 1),
        ("pass_3", 0, 1),
    ]
    listed = xapi.get("/v1/jobs", params={"state": "succeeded"}).json()["jobs"]
    assert out["job_id"] in [j["id"] for j in listed]


def test_a_queued_job_can_be_cancelled_and_no_worker_runs_it(xapi: Api, xmemory):
    out = memorize(xapi, 202, text=TEXT)
    assert xapi.post(f"/v1/jobs/{out['job_id']}/cancel").json() == {"id": out["job_id"], "state": "cancelled"}
    job = xapi.get(f"/v1/jobs/{out['job_id']}").json()
    assert job["state"] == "cancelled" and job["cancel_requested"] and job["finished_at"]


def test_jobs_are_private_to_their_workspace(xapi: Api, extracting):
    out = memorize(xapi, 202, text=TEXT)
    xapi.post(f"/v1/jobs/{out['job_id']}/cancel")
    other = Api(extracting, xapi.workspace + "-other")
    assert other.get(f"/v1/jobs/{out['job_id']}").status_code == 404
    assert other.get(f"/v1/jobs/{out['job_id']}/raw").status_code == 404
    assert other.post(f"/v1/jobs/{out['job_id']}/cancel").status_code == 404
    assert other.get("/v1/jobs").json()["jobs"] == []


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "text"),
        ({"text": "a", "document_id": "d"}, "document_id"),
        ({"text": "a", "mode": "telepathic"}, "mode"),
        ({"text": "a", "passes": 11}, "passes"),
        ({"text": "   "}, "text"),
        ({"document_id": "no-such-document"}, "document_id"),
        ({"session_id": "no-such-session"}, "session_id"),
        ({"text": "a", "lenses": [""]}, "lenses[0]"),
        ({"text": "a", "lenses": "everything"}, "lenses"),
        ({"text": "a", "lenses": ["kinship"] * 11}, "lenses"),
        ({"text": "a", "images": ["not base64!"]}, "images[0]"),
        ({"text": "a", "images": [SHOT, "data:image/svg+xml,<svg/>"]}, "images[1]"),
        ({"text": "a", "images": [SHOT, base64.b64encode(b"%PDF-1.4 a document").decode()]}, "images[1]"),
        ({"text": "a", "images": [SHOT] * 9}, "images"),
        ({"images": [BLANK]}, "images"),
        ({"document_id": "d", "images": [SHOT]}, "images"),
    ],
)
def test_bad_memorize_requests_name_the_field_and_keep_nothing(xapi: Api, body, field):
    response = xapi.post("/v1/memorize", json=body)
    assert response.status_code == 422 and response.json()["error"]["field"] == field, response.text
    assert xapi.get("/v1/jobs").json()["jobs"] == []


def test_images_over_the_size_limits_are_refused_before_any_is_read(xmemory):
    from donto.errors import InvalidInput
    from donto.extraction.ocr import MAX_IMAGE_BYTES, MAX_IMAGES_BYTES
    from donto.memorize.service import MemorizeRequest

    png = b"\x89PNG\r\n\x1a\n"
    half = png + bytes(MAX_IMAGES_BYTES // 2 + 1)  # under the limit for one image, two over the total
    # (through the API the suite's 1 MiB body limit answers 413 first; the default 8 MiB lets 5 MiB through)
    for images, field in [((png + bytes(MAX_IMAGE_BYTES),), "images[0]"), ((half, half), "images")]:
        with pytest.raises(InvalidInput) as refused:
            xmemory.memorize.check("t-limits", MemorizeRequest(text="a", images=images))
        assert refused.value.field == field


def test_seed_001s_names_for_the_modes_are_taken_and_answered_with_the_canonical_ones(xapi: Api, api: Api):
    for given, canonical in [
        ("sequential", "deep"),
        ("iterative", "deep"),
        ("multi", "exhaustive"),
        ("apertures", "exhaustive"),
    ]:
        out = memorize(xapi, 202, text=f"{TEXT} ({given})", mode=given)
        assert out["mode"] == canonical
        job = xapi.get(f"/v1/jobs/{out['job_id']}").json()
        assert job["mode"] == canonical and job["request"]["mode"] == canonical
        xapi.post(f"/v1/jobs/{out['job_id']}/cancel")
    assert memorize(api, text=TEXT, mode="multi")["mode"] == "exhaustive"  # no LLM: still said


def test_a_batch_queues_one_job_per_text_in_order(xapi: Api, xmemory):
    texts = [f"{TEXT} Note {i}." for i in range(3)]
    response = xapi.post(
        "/v1/memorize/batch",
        json={"items": [{"text": t, "title": f"note {i}", "mode": "iterative"} for i, t in enumerate(texts)]},
    )
    assert response.status_code == 202, response.text
    results = response.json()["results"]
    assert [r["extraction"] for r in results] == ["queued"] * 3 and [r["mode"] for r in results] == ["deep"] * 3
    assert [r["queue_position"] for r in results] == sorted(r["queue_position"] for r in results)
    for text, result in zip(texts, results):
        assert xapi.get(f"/v1/documents/{result['source_id']}/text").text == text
        assert xapi.post(f"/v1/jobs/{result['job_id']}/cancel").json()["state"] == "cancelled"


@pytest.mark.parametrize(
    "items, field",
    [
        ([{"text": "fine"}, {"document_id": "no-such-document"}], "items[1].document_id"),
        ([{"text": "fine"}, {"text": "also fine", "mode": "telepathic"}], "items[1].mode"),
        ([{"text": "fine", "async": False}], "items[0].async"),
        ([{"text": "fine"}, {"text": "also fine", "colour": "red"}], "items[1].colour"),
        ([{"text": "fine"}, {"text": "also fine", "lenses": "defaults"}], "items[1].lenses"),
        ([{"text": "fine"}, {"text": "also fine", "images": [SHOT]}], "items[1].images"),
        ([], "items"),
    ],
)
def test_a_batch_with_one_bad_item_is_refused_whole_and_keeps_nothing(xapi: Api, items, field):
    response = xapi.post("/v1/memorize/batch", json={"items": items})
    assert response.status_code == 422 and response.json()["error"]["field"] == field, response.text
    assert xapi.get("/v1/jobs").json()["jobs"] == []
    assert xapi.post("/v1/recall", json={"query": "fine"}).json()["items"] == []  # no text was kept


def test_a_job_whose_worker_is_killed_finishes_in_another_with_no_duplicate_claims(
    xapi: Api, llm: ScriptedLLM, xmemory, llm_settings: Settings
):
    out = memorize(xapi, 202, text=TEXT, mode="deep", passes=3)
    # The first worker gets a quick first pass, then a reply slow enough to be killed in.
    llm.queue(lines(RACE, KM), Reply(lines(CARES), delay_s=30))
    worker = subprocess.Popen(
        [sys.executable, "-m", "donto.cli", "worker"],
        cwd=REPO,
        env=worker_env(llm_settings),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while not xapi.get(f"/v1/jobs/{out['job_id']}").json()["passes"]:
            assert time.monotonic() < deadline and worker.poll() is None, "the worker never ran a pass"
            time.sleep(0.2)
    finally:
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait()
    assert xapi.get(f"/v1/jobs/{out['job_id']}").json()["state"] == "running"
    llm.replies.clear()
    llm.queue(lines(RACE, KM), lines(CARES), lines(RACE))
    time.sleep(LEASE_S + 0.5)  # the dead worker's lease lapses
    assert run_worker(xmemory, "survivor") == 1
    job = xapi.get(f"/v1/jobs/{out['job_id']}").json()
    assert job["state"] == "succeeded" and job["attempts"] == 2
    assert sorted(c["predicate"] for c in xapi.list()) == ["cares_about", "distance_km", "ran"]
    assert {p["attempt"] for p in job["passes"]} == {1, 2}


def worker_env(settings: Settings) -> dict[str, str]:
    assert settings.neo4j.uri and settings.llm.base_url
    return {
        **os.environ,
        "NEO4J_URI": settings.neo4j.uri,
        "NEO4J_USER": settings.neo4j.user,
        "NEO4J_PASSWORD": settings.neo4j.password.get_secret_value(),
        "DONTO_LLM_BASE_URL": settings.llm.base_url,
        "DONTO_LLM_MODEL": "scripted",
        "DONTO_LLM_LEASE_S": str(LEASE_S),
        "DONTO_LLM_MAX_RETRIES": "0",
        "DONTO_LLM_STRUCTURED_OUTPUT": "never",
        "DONTO_TEST_RUN": uuid.uuid4().hex,
    }


def test_the_command_line_memorizes_files_and_lists_jobs(
    xapi: Api, llm: ScriptedLLM, xmemory, llm_settings, monkeypatch, capsys, tmp_path
):
    from donto.cli import main as donto

    for name, value in worker_env(llm_settings).items():
        if name.startswith(("NEO4J_", "DONTO_LLM_")):
            monkeypatch.setenv(name, value)
    note = tmp_path / "race.txt"
    note.write_text(TEXT)
    with pytest.raises(SystemExit) as refused:  # a date it cannot read, refused as the arguments are read
        donto(["memorize", str(note), "--workspace", xapi.workspace, "--occurred-at", "last week"])
    assert refused.value.code == 2
    dated = ["--occurred-at", "2023-05-08"]
    assert donto(["memorize", str(note), "--workspace", xapi.workspace, "--no-wait", *dated]) == 0
    assert "job" in capsys.readouterr().out
    [job] = xapi.get("/v1/jobs").json()["jobs"]
    assert job["state"] == "queued" and job["request"]["mode"] == "single"
    assert xapi.get(f"/v1/documents/{job['source_id']}").json()["occurred_at"] == "2023-05-08T00:00:00Z"
    llm.queue(lines(RACE))
    while run_worker(xmemory):
        if xapi.get(f"/v1/jobs/{job['id']}").json()["state"] != "queued":
            break
    assert donto(["jobs", "--workspace", xapi.workspace]) == 0
    listing = capsys.readouterr().out
    assert job["id"] in listing and "succeeded" in listing and "1 facts" in listing


def test_the_command_line_reads_pdf_html_markdown_and_images_by_content_and_refuses_a_broken_one_keeping_nothing(
    api: Api, settings: Settings, monkeypatch, capsys, tmp_path
):
    from donto.cli import main as donto
    from support import PAGE, minimal_pdf

    for name, value in (("NEO4J_URI", settings.neo4j.uri), ("NEO4J_USER", settings.neo4j.user)):
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("NEO4J_PASSWORD", settings.neo4j.password.get_secret_value())
    monkeypatch.delenv("DONTO_LLM_BASE_URL", raising=False)  # no LLM: the files are memory all the same
    minutes = tmp_path / "scan-0042.pdf"
    minutes.write_bytes(minimal_pdf(["Minutes of the garden committee.", "Tom repaired the water pump."], "Minutes"))
    page = tmp_path / "allotments.html"
    page.write_text(PAGE)
    plans = tmp_path / "plans.md"
    plans.write_text("# Plans for May\n\nThe committee moves its meetings to the church hall.")
    image = tmp_path / "whiteboard.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")  # cut short
    shot = tmp_path / "screenshot.jpg"
    shot.write_bytes(text_image(["The shed key hangs in the back office."], "JPEG", quality=90))

    workspace = ["--workspace", api.workspace]
    assert donto(["memorize", str(minutes), str(image), *workspace]) == 1  # one it cannot read: none is kept
    assert "whiteboard.png: a PNG that could not be decoded" in capsys.readouterr().err
    assert api.post("/v1/recall", json={"query": "water pump"}).json()["items"] == []

    assert donto(["memorize", str(minutes), str(page), str(plans), str(shot), *workspace]) == 0
    said = capsys.readouterr().out
    assert "pdf 'Minutes'" in said and "html " in said and "markdown 'Plans for May'" in said and "image " in said
    for question, title, words in [
        ("Who repaired the water pump?", "Minutes", "Tom repaired the water pump."),
        ("Where does the shed key hang?", None, "The shed key now hangs in the library's back office."),
        ("Which office is the shed key in?", str(shot), "The shed key hangs in the back office."),
        ("Where are the meetings moving to?", "Plans for May", "The committee moves its meetings to the church hall."),
    ]:
        items = api.post("/v1/recall", json={"query": question, "k": 3, "include_provenance": True}).json()["items"]
        found = []
        for item in items:
            where = item["provenance"]
            kept = api.get(f"/v1/documents/{where['document_id']}/text").text
            assert "<p>" not in kept and "Cookie settings" not in kept and "About us" not in kept
            found.append((kept[where["start"] : where["end"]], where["title"]))
        assert any(words in text and title in (None, kept_title) for text, kept_title in found), (question, found)


def test_an_episode_posted_with_extract_queues_a_job_over_its_session(xapi: Api, llm: ScriptedLLM, xmemory):
    episode = xapi.post(
        "/v1/episodes",
        json={
            "session": {"external_id": "auto"},
            "extract": True,
            "turns": [{"external_id": "t1", "speaker": "Melanie", "text": "I ran a charity race for mental health!"}],
        },
    ).json()
    job = xapi.get(f"/v1/jobs/{episode['extraction_job_id']}").json()
    assert job["state"] == "queued" and (job["source_kind"], job["source_id"]) == ("session", episode["session_id"])
    llm.queue(lines(RACE))
    while run_worker(xmemory):
        if xapi.get(f"/v1/jobs/{job['id']}").json()["state"] != "queued":
            break
    assert xapi.get(f"/v1/jobs/{job['id']}").json()["state"] == "succeeded"
    assert [c["predicate"] for c in xapi.list()] == ["ran"]


def test_workers_racing_for_the_queue_run_each_job_exactly_once(xapi: Api, llm: ScriptedLLM, xmemory):
    from concurrent.futures import ThreadPoolExecutor

    jobs = [memorize(xapi, 202, text=f"{TEXT} ({i})")["job_id"] for i in range(6)]
    llm.default = Reply(lines(RACE), delay_s=0.05)

    def drain(name: str) -> int:
        ran = 0
        while run_worker(xmemory, name):
            ran += 1
        return ran

    with ThreadPoolExecutor(max_workers=3) as pool:
        ran = sum(pool.map(drain, ["racer-a", "racer-b", "racer-c"]))
    states = [xapi.get(f"/v1/jobs/{j}").json() for j in jobs]
    assert ran == 6 and all(s["state"] == "succeeded" and s["attempts"] == 1 for s in states)
    assert all(len(s["passes"]) == 1 for s in states)  # no job's pass was recorded by two workers


def test_workspaces_take_turns_so_one_tenants_burst_does_not_starve_another(extracting, llm: ScriptedLLM, xmemory):
    flood, quiet = Api(extracting, "flood-" + uuid.uuid4().hex[:8]), Api(extracting, "quiet-" + uuid.uuid4().hex[:8])
    flooded = [memorize(flood, 202, text=f"{TEXT} ({i})")["job_id"] for i in range(5)]
    waiting = memorize(quiet, 202, text=TEXT)
    assert waiting["queue_position"] == 6  # behind the burst by age ...
    llm.default = Reply(lines(RACE))
    order = []
    while run_worker(xmemory, "fair"):
        order += [
            j["id"]
            for j in [*flood.get("/v1/jobs").json()["jobs"], *quiet.get("/v1/jobs").json()["jobs"]]
            if j["state"] == "succeeded" and j["id"] not in order
        ]
    assert order.index(waiting["job_id"]) <= 1  # ... but served in turn: first or second, not sixth
    assert set(order) == {*flooded, waiting["job_id"]}


def test_a_long_source_is_not_extracted_while_the_request_waits(xapi: Api, xmemory):
    long = "Melanie ran a charity race. " * 1000  # 28,000 characters
    refused = xapi.post("/v1/memorize", json={"text": long, "async": False})
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "async"
    held = xmemory.graph.read(
        lambda tx: tx.run("MATCH (d:Document) WHERE d.workspace = $w RETURN count(d) AS n", w=xapi.workspace).single()
    )
    assert held["n"] == 0  # refused before anything was kept
    queued = memorize(xapi, 202, text=long)  # as a job it is fine
    assert queued["extraction"] == "queued"
    xapi.post(f"/v1/jobs/{queued['job_id']}/cancel")  # not left for the next test's worker


def test_a_lane_whose_jobs_left_the_queue_by_hand_does_not_hold_up_the_others(extracting, llm: ScriptedLLM, xmemory):
    stale, live = Api(extracting, "stale-" + uuid.uuid4().hex[:8]), Api(extracting, "live-" + uuid.uuid4().hex[:8])
    ended = memorize(stale, 202, text=TEXT)["job_id"]
    xmemory.graph.write(  # an operator ends the job in Browser: its lane still counts it
        lambda tx: tx.run("MATCH (j:Job {id: $id}) SET j.state = 'cancelled'", id=ended).consume()
    )
    waiting = memorize(live, 202, text=TEXT)["job_id"]
    llm.default = Reply(lines(RACE))
    while run_worker(xmemory, "after-drift"):
        if live.get(f"/v1/jobs/{waiting}").json()["state"] != "queued":
            break
    assert live.get(f"/v1/jobs/{waiting}").json()["state"] == "succeeded"


def test_a_paraphrase_corroborates_the_claim_it_restates_but_values_and_negations_never_merge(
    xapi: Api, llm: ScriptedLLM, xmemory
):
    xapi.write(
        claim("melanie", "likes", "pottery"),
        claim("charity-race", "distance_km", object={"literal": {"value": 10, "datatype": "xsd:integer"}}),
    )
    enjoys = {"s": "Melanie", "p": "enjoys", "o": "pottery", "q": "I ran a charity race"}
    dislikes = {"s": "Melanie", "p": "dislikes", "o": "pottery", "q": "I ran"}
    never = {"s": "Melanie", "p": "likes", "o": "pottery", "mod": "negated", "q": "I ran"}
    llm.queue(lines(enjoys, dislikes, never, KM))
    out = memorize(xapi, text=TEXT, **{"async": False})
    assert out["summary"]["corroborations"] == 1, out["summary"]  # enjoys ~ likes (0.97 here)
    predicates = {(c["predicate"], c["context"]) for c in xapi.list(limit=1000)}
    assert (
        ("enjoys", None) not in predicates and ("dislikes", None) in predicates and ("likes", "negated") in predicates
    )
    assert [c["object"] for c in xapi.list(predicate="distance_km")] == [
        {"literal": {"value": 10, "datatype": "xsd:integer"}},
        {"literal": {"value": 5, "datatype": "xsd:integer"}},
    ]
    [likes] = [c for c in xapi.list(predicate="likes") if c["context"] is None]
    linked = xmemory.graph.read(
        lambda tx: tx.run(
            "MATCH (:Job {id: $job})-[e:EXTRACTED {corroborates: true}]->(c:Claim) "
            "RETURN c.id AS id, e.asStated AS said",
            job=out["job_id"],
        ).data()
    )
    assert linked == [{"id": likes["id"], "said": "melanie enjoys pottery"}]


def test_a_workspace_can_extract_every_new_session_by_itself(xapi: Api, llm: ScriptedLLM, xmemory):
    assert xapi.get("/v1/workspace").json() == {
        "workspace": xapi.workspace,
        "extract_sessions": False,
        "updated_at": None,
    }
    assert xapi.put("/v1/workspace", json={"extract_sessions": True}).json()["extract_sessions"] is True
    said = {
        "session": {"external_id": "auto"},
        "turns": [{"external_id": "t1", "speaker": "Melanie", "text": "I ran a charity race for mental health!"}],
    }
    queued = xapi.post("/v1/episodes", json=said).json()["extraction_job_id"]
    assert xapi.get(f"/v1/jobs/{queued}").json()["state"] == "queued"
    opted_out = xapi.post("/v1/episodes", json={**said, "extract": False}).json()
    assert opted_out["extraction_job_id"] is None
    bad = xapi.put("/v1/workspace", json={"extract_sessions": "yes"})
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "extract_sessions"
    xapi.post(f"/v1/jobs/{queued}/cancel")


# -- throughput: jobs at once, chunks at once, one limit on requests in flight -------------------

NAMES = ["Ada", "Babbage", "Curie", "Darwin", "Euler", "Faraday"]
LONG = "\n\n".join(f"{name} wrote a paper. " + "Filler words about nothing at all. " * 110 for name in NAMES)


def by_text(delay_s: float, marker: str = "") -> Callable[[dict], Reply]:
    """Each request answered from its own text (requests arrive in no fixed order): a fact about each
    person its chunk names, one more in a later pass (it was shown facts), and Ada's again."""

    def respond(body: dict) -> Reply:
        prompt = body["messages"][0]["content"]
        text = prompt.split("TEXT:\n", 1)[1]
        later = "ALREADY FOUND" in prompt
        facts = [
            {
                "s": n,
                "p": "is_a" if later else "wrote",
                "o": "writer" if later else "a paper",
                "q": f"{n} wrote a paper",
            }
            for n in NAMES
            if f"{n} wrote" in text
        ]
        ada = {"s": "Ada", "p": "wrote", "o": "a paper", "q": "Ada wrote a paper"}
        return Reply(lines(*facts, ada), delay_s=delay_s)

    return respond


def job_facts(api: Api, job_id: str) -> list[tuple]:
    facts = api.get(f"/v1/jobs/{job_id}/facts", params={"limit": 1000}).json()["facts"]
    return [(f["seq"], f["label"], f["subject"], f["predicate"], f["object"], f["outcome"]) for f in facts]


def wait_for(api: Api, job_ids: list[str], timeout_s: float = 120.0, also: Callable[[], None] = lambda: None) -> list:
    deadline = time.monotonic() + timeout_s
    while True:
        jobs = [api.get(f"/v1/jobs/{j}").json() for j in job_ids]
        if all(j["state"] not in ("queued", "running") for j in jobs):
            return jobs
        assert time.monotonic() < deadline, jobs
        also()
        time.sleep(0.2)


def test_donto_worker_with_jobs_n_runs_n_jobs_at_once_and_each_exactly_once(
    xapi: Api, llm: ScriptedLLM, llm_settings: Settings
):
    texts = [f"{TEXT} (at once {i})" for i in range(6)]
    jobs = [memorize(xapi, 202, text=t, mode="single")["job_id"] for t in texts]
    # Replies slow enough that the three workers' jobs overlap even on a loaded machine (1 s did not).
    llm.respond = by_text(delay_s=3.0)
    llm.reset_peak()
    worker = subprocess.Popen(
        [sys.executable, "-m", "donto.cli", "worker", "--jobs", "3"],
        cwd=REPO,
        env={**worker_env(llm_settings), "DONTO_LLM_CONCURRENCY": "8"},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        done = wait_for(xapi, jobs, also=lambda: None if worker.poll() is None else pytest.fail("the worker died"))
    finally:
        worker.send_signal(signal.SIGTERM)
        out, _ = worker.communicate(timeout=60)
    assert "extraction ×3" in out
    assert all(j["state"] == "succeeded" and j["attempts"] == 1 and len(j["passes"]) == 1 for j in done), done
    asked = [r["messages"][0]["content"] for r in llm.requests]
    assert all(sum(t in a for a in asked) == 1 for t in texts)  # each job's text asked about once: run once
    assert llm.peak == 3  # three jobs at once (each a one-chunk, one-pass job: one request at a time)


def test_chunks_and_jobs_at_once_stay_within_the_process_limit_and_write_what_one_at_a_time_writes(
    extracting, llm: ScriptedLLM, llm_settings: Settings, xmemory
):
    from donto.extraction.llm import RequestLimit

    # One at a time: the same text extracted sequentially (a limit of 1, so one chunk at a time).
    llm.respond = by_text(delay_s=0.0)
    alone = Api(extracting, "alone-" + uuid.uuid4().hex[:8])
    job = memorize(alone, 202, text=LONG, mode="deep", passes=3)["job_id"]
    kept = xmemory.memorize.limit
    xmemory.memorize.limit = RequestLimit(1)
    try:
        while run_worker(xmemory, "one-at-a-time"):
            pass
    finally:
        xmemory.memorize.limit = kept
    expected = job_facts(alone, job)
    assert len({f[2] for f in expected}) == len(NAMES) and any(f[3] == "is_a" for f in expected)

    # Three jobs at once in three workspaces, their chunks concurrently, within one limit of 2.
    llm.respond = by_text(delay_s=0.2)
    llm.reset_peak()
    apis = [Api(extracting, f"at-once-{i}-" + uuid.uuid4().hex[:8]) for i in range(3)]
    jobs = [memorize(a, 202, text=LONG, mode="deep", passes=3)["job_id"] for a in apis]
    settings = llm_settings.model_copy(
        update={"llm": llm_settings.llm.model_copy(update={"jobs": 3, "concurrency": 2})}
    )
    with Memory(settings).open(apply_schema=False) as memory:
        memory.start_workers()
        done = [wait_for(a, [j])[0] for a, j in zip(apis, jobs)]
    assert all(j["state"] == "succeeded" and j["attempts"] == 1 for j in done)
    assert llm.peak == 2  # never more than the process's limit, with 3 jobs of 3 chunks each wanting more
    assert all(job_facts(a, j) == expected for a, j in zip(apis, jobs))


def test_lenses_default_runs_the_default_lens_passes_and_the_job_records_them(xapi: Api, llm: ScriptedLLM):
    llm.default = Reply(lines(RACE))  # every pass finds something: none is asked again
    llm.requests.clear()
    out = memorize(xapi, text=TEXT, lenses="default", **{"async": False})
    job = xapi.get(f"/v1/jobs/{out['job_id']}").json()
    assert job["request"]["lenses"] == list(DEFAULT_LENSES)
    assert [p["label"] for p in job["passes"]] == ["single", *(f"lens:{lens}" for lens in DEFAULT_LENSES)]
    asked = [r["messages"][0]["content"] for r in llm.requests]
    assert len(asked) == 1 + len(DEFAULT_LENSES)
    assert all(f"Focus only on: {lens}." in a for a, lens in zip(asked[1:], DEFAULT_LENSES, strict=True))
    batch = xapi.post("/v1/memorize/batch", json={"items": [{"text": f"{TEXT} Again.", "lenses": "default"}]})
    assert batch.status_code == 202, batch.text
    queued = xapi.get(f"/v1/jobs/{batch.json()['results'][0]['job_id']}").json()
    assert queued["request"]["lenses"] == list(DEFAULT_LENSES)
    xapi.post(f"/v1/jobs/{queued['id']}/cancel")


PROMPT_FILE = """# a corpus of parish registers
system = \"\"\"You read parish registers. A fact is subject, predicate, object, with the exact words it rests on.\"\"\"
default_lenses = ["kinship", "baptisms and burials"]
lens_focus = "This pass looks at {lens} only."

[modes]
deep = "Every baptism, marriage and burial is an event of its own."
"""


def test_a_prompt_file_is_what_the_model_is_asked_and_its_version_is_on_the_job(
    llm_settings: Settings, llm: ScriptedLLM, tmp_path, workspace
):
    from donto.api.main import create_app

    path = tmp_path / "registers.toml"
    path.write_text(PROMPT_FILE)
    version = load_prompts(path).version
    settings = llm_settings.model_copy(update={"extraction": ExtractionSettings(prompts=path)})
    with TestClient(create_app(settings)) as client:
        api = Api(client, workspace)
        llm.default = Reply(lines(RACE))  # every pass finds something: none is asked again
        llm.requests.clear()
        out = memorize(api, text=TEXT, mode="deep", passes=2, lenses="default", **{"async": False})
        job = api.get(f"/v1/jobs/{out['job_id']}").json()
    assert version.startswith("file:") and version.endswith("+" + PROMPTS_VERSION)
    assert job["request"]["prompts_version"] == version
    assert job["request"]["lenses"] == ["kinship", "baptisms and burials"]
    assert [p["label"] for p in job["passes"]] == ["pass_1", "pass_2", "lens:kinship", "lens:baptisms and burials"]
    asked = [r["messages"][0]["content"] for r in llm.requests]
    assert len(asked) == 4 and all(a.startswith("You read parish registers.") for a in asked)
    assert all("Every baptism, marriage and burial is an event of its own." in a for a in asked)
    assert "This pass looks at kinship only." in asked[2]
    assert "This pass looks at baptisms and burials only." in asked[3]
    assert not any("You extract facts" in a for a in asked)  # the built-in system prompt is replaced
