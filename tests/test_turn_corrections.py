"""A later turn that corrects an earlier one ("sorry, it was July, not August"), through REST: the
earlier turn's read and its recall item say so, with the correcting turn's external id; as known
before the correction, nothing does; a doubt or another speaker corrects nothing; retracting the
correction takes the mark off current reads; an export restores the link."""

from __future__ import annotations

import io
import uuid

from donto.memory import Memory
from support import Api

STARTED = "2026-03-01T09:00:00Z"
WEDDING = "We got married at the lake in August, the whole family came."
QUESTION = "When did Maya get married at the lake?"


def post(api: Api, session: str, turns: list[dict]) -> dict:
    body = {"session": {"external_id": session, "started_at": STARTED}, "turns": turns}
    response = api.post("/v1/episodes", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def said(external_id: str, speaker: str, text: str, minute: int) -> dict:
    return {
        "external_id": external_id,
        "speaker": speaker,
        "text": text,
        "occurred_at": f"2026-03-01T09:{minute:02d}:00Z",
    }


def turns(api: Api, session: str, **params) -> dict[str, dict]:
    response = api.get(f"/v1/sessions/{session}/turns", params=params)
    assert response.status_code == 200, response.text
    return {t["external_id"]: t for t in response.json()["turns"]}


def recalled(api: Api, query: str, **extra) -> dict[str, dict]:
    """The recall items of turns, by their turn's external id."""
    response = api.post("/v1/recall", json={"query": query, "include_provenance": True, "k": 10, **extra})
    assert response.status_code == 200, response.text
    return {i["provenance"]["turn_ids"][0]: i for i in response.json()["items"] if i["provenance"]["turn_ids"]}


def wedding(api: Api) -> tuple[dict, dict]:
    first = post(
        api,
        "chat",
        [
            said("u1", "Maya", WEDDING, 0),
            said("a1", "assistant", "Congratulations! August by the lake sounds lovely.", 1),
        ],
    )
    second = post(api, "chat", [said("u2", "Maya", "Sorry, it was July, not August.", 2)])
    return first, second


def test_a_turn_corrected_later_says_so_in_its_read_and_its_recall_item(api: Api):
    first, second = wedding(api)
    page = turns(api, "chat")
    corrector = second["turns"][0]["id"]
    assert page["u1"]["corrected_by"] == "u2" and page["u1"]["corrected_by_id"] == corrector
    assert page["a1"]["corrected_by"] is None  # another speaker's turn: never corrected by Maya
    assert page["u2"]["corrected_by"] is None
    one = api.get(f"/v1/turns/{first['turns'][0]['id']}")
    assert one.status_code == 200 and one.json() == page["u1"]

    items = recalled(api, QUESTION)
    assert items["u1"]["corrected_by"] == "u2"  # the same id recall's provenance names turns by
    assert items["u1"]["text"].endswith("(corrected later: [1 March 2026] Sorry, it was July, not August.)")
    assert WEDDING in items["u1"]["text"]  # the words as said stay
    assert all("corrected_by" not in item for tid, item in items.items() if tid != "u1")


def test_as_known_before_the_correcting_turn_nothing_is_corrected(api: Api):
    first, second = wedding(api)
    before = turns(api, "chat", known_at=first["recorded_at"])
    assert before["u1"]["corrected_by"] is None and "u2" not in before
    assert turns(api, "chat", known_at=second["recorded_at"])["u1"]["corrected_by"] == "u2"
    said_before = turns(api, "chat", valid_at="2026-03-01T09:01:00Z")  # the correction not said by then
    assert said_before["u1"]["corrected_by"] is None
    items = recalled(api, QUESTION, known_at=first["recorded_at"])
    assert "corrected_by" not in items["u1"] and "corrected later" not in items["u1"]["text"]


def test_a_doubt_or_another_speaker_corrects_nothing(api: Api):
    post(
        api,
        "chat",
        [
            said("u1", "Maya", WEDDING, 0),
            said("u2", "Maya", "I'm not sure about August.", 1),
            said("a1", "Sam", "Sorry, it was July, not August.", 2),
            said("u3", "Maya", "Was it July, not August?", 3),
        ],
    )
    page = turns(api, "chat")
    assert {tid: t["corrected_by"] for tid, t in page.items()} == dict.fromkeys(page)
    assert all("corrected_by" not in item for item in recalled(api, QUESTION).values())


def test_a_correction_in_the_same_request_corrects_the_nearest_earlier_turn_only(api: Api):
    post(
        api,
        "chat",
        [
            said("u1", "Maya", "My sister's birthday is in August.", 0),
            said("u2", "Maya", WEDDING, 1),
            said("u3", "Maya", "Sorry, it was July, not August.", 2),
        ],
    )
    page = turns(api, "chat")
    assert page["u2"]["corrected_by"] == "u3" and page["u1"]["corrected_by"] is None


def test_retracting_the_correction_takes_the_mark_off_current_reads(api: Api):
    _, second = wedding(api)
    retracted = api.post(f"/v1/turns/{second['turns'][0]['id']}/retract", json={"reason": "sent by mistake"})
    assert retracted.status_code == 200, retracted.text
    page = turns(api, "chat")
    assert page["u1"]["corrected_by"] is None and "u2" not in page
    u1 = page["u1"]["id"]
    assert api.get(f"/v1/turns/{u1}").json()["corrected_by"] is None
    assert "corrected_by" not in recalled(api, QUESTION)["u1"]
    # As known before the retraction, the correction is still there.
    assert turns(api, "chat", known_at=second["recorded_at"])["u1"]["corrected_by"] == "u2"
    assert recalled(api, QUESTION, known_at=second["recorded_at"])["u1"]["corrected_by"] == "u2"


def test_a_restored_workspace_keeps_its_turn_corrections(client, memory: Memory, api: Api):
    _, second = wedding(api)
    before = turns(api, "chat")
    past = turns(api, "chat", known_at=second["recorded_at"])
    out = io.BytesIO()
    counts = memory.portability.export(api.workspace, out)
    assert counts.relationships["CORRECTS"] == 1
    memory.purges.purge(api.workspace, None, by="test")  # ids are unique across the store
    target = Api(client, "t-corr-" + uuid.uuid4().hex[:12])
    restored = memory.portability.import_(target.workspace, io.BytesIO(out.getvalue()))
    assert restored.relationships["CORRECTS"] == 1
    assert turns(target, "chat") == before and before["u1"]["corrected_by"] == "u2"
    assert turns(target, "chat", known_at=second["recorded_at"]) == past
    assert recalled(target, QUESTION)["u1"]["corrected_by"] == "u2"
