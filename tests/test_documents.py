"""Registered documents are memory with no LLM: cut into passages with exact offsets, dated, embedded
and recalled; a new revision replaces the old one's passages as of its recording, not before."""

from __future__ import annotations

import time

from support import Api

NOTES = (
    "Quarterly notes from the Lisbon office.\n"
    "The team moved into the new building on Rua Augusta in March.\n"
    "Ana Costa now leads the data platform group, which grew to twelve engineers.\n"
    "The cafeteria serves pastel de nata every Friday morning.\n"
    "Budget for the next quarter was approved by the board last week."
)
REPORT = (
    "Quarterly notes from the Lisbon office. The team moved into the new building on Rua Augusta in March. "
    "Ana Costa now leads the data platform group, which grew to twelve engineers. "
    "The cafeteria serves pastel de nata every Friday morning. "
    "Budget for the next quarter was approved by the board last week."
)


def register(api: Api, text: str, **extra) -> dict:
    response = api.post("/v1/documents", json={"text": text, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def recall(api: Api, query: str, **extra) -> list[dict]:
    response = api.post("/v1/recall", json={"query": query, "include_provenance": True, **extra})
    assert response.status_code == 200, response.text
    return response.json()["items"]


def passages_of(items: list[dict]) -> list[dict]:
    return [i for i in items if i.get("provenance", {}).get("document_id")]


def test_a_document_is_recalled_by_a_sentence_with_its_exact_offsets_and_date(api):
    doc = register(api, NOTES, title="Lisbon office notes", occurred_at="2024-04-05T09:00:00Z")
    assert doc["passages"] == 5 and doc["occurred_at"] == "2024-04-05T09:00:00Z"

    items = recall(api, "Who leads the data platform group?", k=3)

    top = items[0]
    assert top["predicate"] == "says" and top["subject"] == "Lisbon office notes" and "state" not in top
    provenance = top["provenance"]
    assert provenance["document_id"] == doc["id"] and provenance["revision"] == 1
    assert provenance["title"] == "Lisbon office notes"
    sentence = NOTES[provenance["start"] : provenance["end"]]
    assert sentence == "Ana Costa now leads the data platform group, which grew to twelve engineers."
    assert top["text"] == f"[5 April 2024] {sentence}"
    text = api.get(f"/v1/documents/{doc['id']}/text")  # the text the offsets index, as registered
    assert text.status_code == 200 and text.headers["content-type"].startswith("text/plain")
    assert text.text[provenance["start"] : provenance["end"]] == sentence and text.text == NOTES


def test_a_passages_own_time_expression_is_resolved_against_the_documents_date(api):
    register(api, NOTES, occurred_at="2024-04-05")
    items = passages_of(recall(api, "When was the budget approved by the board?", k=5))
    budget = next(i for i in items if "Budget" in i["text"])
    assert budget["text"] == "[5 April 2024; last week: 25–31 March 2024] " + NOTES.splitlines()[-1]


def test_the_sentences_around_a_strong_hit_join_it_and_its_line_comes_back_as_one_item(api):
    register(api, REPORT)  # one paragraph: the neighbours of the hit are sentences of its line
    top = passages_of(recall(api, "Ana Costa data platform group engineers", k=5))[0]
    start, end = top["provenance"]["start"], top["provenance"]["end"]
    ana = REPORT.index("Ana Costa")
    sentence_end = REPORT.index("engineers.") + len("engineers.")
    assert start < ana < sentence_end < end  # the sentences just before and after it joined it
    assert top["text"].endswith("] " + REPORT[start:end])  # the run's sentences, exactly as the revision holds them

    notes = register(api, NOTES)["id"]  # a line each: the neighbours are items of their own
    spans = [
        NOTES[p["start"] : p["end"]]
        for i in passages_of(recall(api, "Ana Costa data platform group engineers", k=8))
        if (p := i["provenance"])["document_id"] == notes
    ]
    assert set(NOTES.splitlines()[1:4]) <= set(spans)


def test_a_transcripts_lines_are_said_by_their_speakers(api):
    chat = "Ann: I just got back from Porto.\nBo: How was the trip?\nAnn: Lovely. We ate francesinha every day."
    register(api, chat, occurred_at="2024-05-02")
    items = passages_of(recall(api, "What did Ann eat in Porto?", k=3))
    food = next(i for i in items if "francesinha" in i["text"])
    assert (food["subject"], food["predicate"]) == ("Ann", "said")
    assert food["text"] == "[2 May 2024; every day: recurring] Ann: Lovely. We ate francesinha every day."


def test_a_new_revision_replaces_the_old_passages_as_of_now_but_not_as_of_before(api):
    first = register(api, "Ann lives in Lisbon and works at the harbour.", external_id="ann-notes")
    time.sleep(0.01)
    between = api.get(f"/v1/documents/{first['id']}").json()["recorded_at"]
    time.sleep(0.01)
    second = register(api, "Ann moved to Porto, where she teaches piano.", external_id="ann-notes")
    assert second["revision"] == 2

    now = passages_of(recall(api, "Where does Ann live?"))
    assert {i["provenance"]["document_id"] for i in now} == {second["id"]}
    before = passages_of(recall(api, "Where does Ann live?", known_at=between))
    assert {i["provenance"]["document_id"] for i in before} == {first["id"]}

    detail = api.get(f"/v1/documents/{first['id']}").json()
    assert detail["replaced_at"] is not None and detail["passages"] == 1 and detail["length"] == 45
    assert [(r["revision"], r["replaced_at"] is None) for r in detail["revisions"]] == [(1, False), (2, True)]


def test_text_memorized_with_no_llm_is_recallable(api):
    response = api.post("/v1/memorize", json={"text": REPORT, "title": "notes", "occurred_at": "2024-04-05"})
    assert response.status_code == 200 and response.json()["extraction"] == "not_configured"
    items = passages_of(recall(api, "What does the cafeteria serve on Fridays?", k=3))
    assert items and "pastel de nata" in items[0]["text"]
    assert items[0]["provenance"]["document_id"] == response.json()["source_id"]


def test_an_unknown_document_is_a_404_and_a_date_out_of_range_a_422_naming_it(api):
    assert api.get("/v1/documents/nope").status_code == 404
    assert api.get("/v1/documents/nope/text").json()["error"]["field"] == "id"
    for bad in ("10000-01-01", "yesterday", "2024-02-30"):
        response = api.post("/v1/documents", json={"text": "x y z", "occurred_at": bad})
        assert response.status_code == 422, response.text
        assert response.json()["error"]["field"] == "occurred_at"
    response = api.post("/v1/memorize", json={"document_id": "x", "occurred_at": "2024-01-01"})
    assert response.status_code == 422 and response.json()["error"]["field"] == "occurred_at"


def test_documents_registered_before_schema_version_10_get_their_passages_on_the_next_start(memory, workspace):
    memory.graph.write(
        lambda tx: tx.run(
            "CREATE (old:Document {id: $w + '-1', workspace: $w, externalId: 'x', revision: 1, sha256: 'a', "
            "text: 'The first text. It has two sentences.', recordedAt: datetime('2024-01-01T00:00:00Z')}) "
            "CREATE (new:Document {id: $w + '-2', workspace: $w, externalId: 'x', revision: 2, sha256: 'b', "
            "text: 'The second text is this one.', recordedAt: datetime('2024-02-01T00:00:00Z')}) "
            "CREATE (new)-[:REVISES]->(old)",
            w=workspace,
        ).consume()
    )
    memory.apply_schema()  # as a start of this version does
    old, new = (memory.documents.get(workspace, f"{workspace}-{n}") for n in (1, 2))
    assert (old.passages, old.replaced_at and old.replaced_at.isoformat()) == (2, "2024-02-01T00:00:00+00:00")
    assert (new.passages, new.replaced_at) == (1, None)
    assert memory.documents.backfill_passages() == 0  # done once
