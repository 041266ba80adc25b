"""A chat calls a speaker by another name than their label: a question that uses that name finds them."""

from __future__ import annotations

from datetime import UTC, datetime

from donto.memory import Memory
from donto.recall.addressed import ADDRESSED_CANDIDATES, addressed_as
from donto.recall.english import ENGLISH
from support import Api

# The chat app labels her "Emi"; Elise calls her Kate. Elise paints too, and says so at length.
CHAT = {
    "mural": [
        ("Elise", "Hey Kate! How was your weekend?"),
        ("Emi", "Busy, I finally finished painting the mural on my balcony wall: sunflowers."),
        ("Elise", "That sounds gorgeous, Kate!"),
    ],
    "watercolours": [
        ("Elise", "I painted a watercolour of the harbour yesterday, my third painting this month."),
        ("Emi", "Wow, send me a picture."),
        ("Elise", "I love painting boats, painting the water is the hard part of the painting."),
    ],
    "run": [
        ("Elise", "Morning Kate, are you up?"),
        ("Emi", "Yes, just back from a run along the canal."),
        ("Elise", "Thanks for the podcast tip, Kate."),
    ],
}


def recall(api: Api, query: str) -> dict:
    response = api.post("/v1/recall", json={"query": query, "k": 4, "include_provenance": True})
    assert response.status_code == 200, response.text
    return response.json()


def turn_ids(bundle: dict) -> list[str]:
    return [t for item in bundle["items"] for t in item["provenance"]["turn_ids"]]


def test_a_question_naming_someone_as_the_chat_addresses_them_finds_what_they_said(api: Api):
    for i, (session, said) in enumerate(CHAT.items()):
        api.episode(session, f"2024-03-0{i + 1}T10:00:00Z", said)
    bundle = recall(api, "What did Kate paint?")
    # The bundle says whom it took Kate for: its items name her by her label.
    assert bundle["names_read_as"] == {"kate": "Emi"}
    by_name = turn_ids(bundle)
    # As asked by her label: her own turns, not Elise's that only say "Kate", lead.
    as_labelled = recall(api, "What did Emi paint?")
    assert by_name == turn_ids(as_labelled) and "names_read_as" not in as_labelled
    assert "mural-1" in by_name[:2]
    elise_saying_kate = [by_name.index(t) for t in ("mural-0", "mural-2", "run-0", "run-2") if t in by_name]
    assert by_name.index("mural-1") < min(elise_saying_kate, default=len(by_name))


def turns_saying(memory: Memory, workspace: str, name: str) -> list[dict]:
    """recall_addressed's rows: the turns holding the name in sessions of two, each with its addressee."""
    now = datetime.now(UTC)
    return memory.graph.read_list(
        "recall_addressed",
        workspace=workspace,
        addressed_names=[name],
        addressed_candidates=ADDRESSED_CANDIDATES,
        valid_at=now,
        known_at=now,
    )


def test_addresses_in_a_group_chat_name_no_one(api: Api, memory: Memory):
    """With three people in a session, "hey Kate" could address either of the other two."""
    group = [
        ("Elise", "Hey Kate! Ready for tonight?"),
        ("Emi", "Nearly, just ironing a shirt."),
        ("Noor", "Thanks, Kate, see you at eight."),
        ("Elise", "Morning Kate!"),
    ]
    api.episode("group", "2024-03-01T10:00:00Z", group)
    assert turns_saying(memory, api.workspace, "Kate") == []
    api.episode("pair", "2024-03-02T10:00:00Z", group[:2] + [("Elise", "Thanks, Kate!"), ("Elise", "Bye Kate!")])
    rows = turns_saying(memory, api.workspace, "Kate")
    assert {r["addressee"] for r in rows} == {"Emi"}
    assert addressed_as(rows, ENGLISH) == {"kate": "Emi"}
