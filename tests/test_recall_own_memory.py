"""A new user's own memory, as recall hands it back: a few chats and a document, the way one looks
in its first months. A turn's dates read the way its speaker meant them (a plan looks forward, the
past looks back, a recurring time is no date, a date is not said twice), a plan replaces nothing
while a real change still does, every item says how relevant it is, a question about something never
mentioned is flagged, and a document's sentence that answers ranks above chatter about it."""

from __future__ import annotations

import re

from support import Api


def bundle(api: Api, query: str, **extra) -> dict:
    response = api.post("/v1/recall", json={"query": query, **extra})
    assert response.status_code == 200, response.text
    return response.json()


def recall(api: Api, query: str, **extra) -> list[dict]:
    return bundle(api, query, **extra)["items"]


def by_turn(items: list[dict]) -> dict[str, dict]:
    """The turns' items by their turn's external id (recall asked with include_provenance)."""
    return {i["provenance"]["turn_ids"][0]: i for i in items if i.get("provenance", {}).get("turn_ids")}


def turn_order(items: list[dict]) -> list[str]:
    return [i["provenance"]["turn_ids"][0] for i in items if i.get("provenance", {}).get("turn_ids")]


def prefix(text: str) -> str:
    """The bracketed dates an item's text starts with: "[20 January 2025; in May: May 2025] ..." ->
    "20 January 2025; in May: May 2025"."""
    match = re.match(r"\[([^\]]*)\] ", text)
    assert match, text
    return match[1]


def lena(api: Api) -> None:
    """Lena, a nurse in Leeds who moved to Glasgow and changed jobs, then plans a trip."""
    api.episode(
        "february",
        "2024-02-10T19:00:00Z",
        [
            ("Lena", "I've been a nurse at St James's in Leeds for six years."),
            ("Lena", "I love my flat in Headingley."),
        ],
    )
    api.episode(
        "october",
        "2024-10-05T19:00:00Z",
        [
            ("Lena", "Big news since we last talked: I left nursing and moved to Glasgow in August."),
            ("Lena", "I'm a UX researcher at a health startup called Medly now."),
        ],
    )
    api.episode(
        "january", "2025-01-20T19:00:00Z", [("Lena", "Thinking about a hiking trip to Skye in May, if work lets me.")]
    )


# ------------------------------------------------------------------------------ dates as meant


def test_a_plan_said_in_january_for_may_is_tagged_may_of_that_year(api: Api):
    api.episode(
        "january", "2025-01-20T19:00:00Z", [("Lena", "Thinking about a hiking trip to Skye in May, if work lets me.")]
    )
    items = by_turn(recall(api, "When is the hiking trip to Skye?", k=5, include_provenance=True))
    text = items["january-0"]["text"]
    assert "May 2025" in text and "May 2024" not in text, text


def test_a_past_weekday_looks_back_and_a_future_one_forward(api: Api):
    # 20 November 2024 was a Wednesday: Friday ahead is the 22nd, Monday behind the 18th
    api.episode(
        "wednesday",
        "2024-11-20T12:00:00Z",
        [("Tom", "I'll call the landlord on Friday."), ("Tom", "I saw him on Monday.")],
    )
    items = by_turn(recall(api, "When does Tom talk to the landlord?", k=5, include_provenance=True))
    call, saw = items["wednesday-0"]["text"], items["wednesday-1"]["text"]
    assert "on Friday: 22 November 2024" in prefix(call) and "15 November" not in call, call
    assert "on Monday: 18 November 2024" in prefix(saw) and "25 November" not in saw, saw


def test_a_recurring_time_is_tagged_recurring_not_pinned_to_a_date(api: Api):
    api.episode("release", "2024-11-20T12:00:00Z", [("Priya", "The patient app ships every second Thursday.")])
    items = by_turn(recall(api, "When does the patient app ship?", k=5, include_provenance=True))
    text = items["release-0"]["text"]
    assert "every second Thursday: recurring" in text, text
    assert not re.search(r"Thursday: \d", text), text


def test_a_date_tag_does_not_repeat_itself(api: Api):
    api.episode("lease", "2024-09-01T12:00:00Z", [("Omar", "We signed the lease on 1 September 2024.")])
    items = by_turn(recall(api, "When did Omar sign the lease?", k=5, include_provenance=True))
    text = items["lease-0"]["text"]
    tags = [t.split(": ")[-1] for t in prefix(text).split("; ")]
    assert len(tags) == len(set(tags)), text
    assert prefix(text).count("1 September 2024") == 1, text


# ------------------------------------------------------------------------------ what replaces what


def test_a_plan_by_the_same_speaker_replaces_nothing(api: Api):
    lena(api)
    items = recall(api, "Where does Lena live now?", k=10, include_provenance=True)
    turns, texts = turn_order(items), [i["text"] for i in items]
    assert "october-0" in turns, texts
    glasgow = by_turn(items)["october-0"]
    assert "replaced_by" not in glasgow, glasgow
    assert "(a later statement:" not in glasgow["text"], glasgow["text"]
    assert all(i.get("replaced_by") != "january-0" for i in items), [(i["text"], i.get("replaced_by")) for i in items]
    if "january-0" in turns:
        assert turns.index("october-0") < turns.index("january-0"), texts


def test_a_real_change_still_replaces_the_earlier_statement(api: Api):
    api.episode("january", "2024-01-10T18:00:00Z", [("Sam", "I teach maths at a school in Bristol.")])
    api.episode(
        "september",
        "2024-09-01T18:00:00Z",
        [("Sam", "We moved to Cardiff over the summer, I teach at a school there now.")],
    )
    items = recall(api, "Where does Sam teach now?", k=10, include_provenance=True)
    turns, texts = turn_order(items), [i["text"] for i in items]
    assert "september-0" in turns and "january-0" in turns, texts
    assert turns.index("september-0") < turns.index("january-0"), texts
    bristol = by_turn(items)["january-0"]
    assert bristol.get("replaced_by") == "september-0", bristol


# ------------------------------------------------------------------------------ relevance


def test_every_item_carries_a_relevance_between_zero_and_one(api: Api):
    lena(api)
    answer = bundle(api, "Where does Lena live now?", k=10)
    read = [(i["text"], i.get("relevance")) for i in answer["items"]]
    assert read, answer
    for _, relevance in read:
        assert isinstance(relevance, float) and 0.0 <= relevance <= 1.0, read
    assert answer.get("nothing_relevant") is False, (answer.get("nothing_relevant"), read)


def test_a_question_about_something_never_mentioned_is_flagged_nothing_relevant(api: Api):
    lena(api)
    answers = {
        query: bundle(api, query, k=10)
        for query in (
            "Where does Lena live now?",
            "What car does Lena drive?",
            "What is Lena's favourite football team?",
        )
    }
    seen = {  # what each bundle said: its flag and its best items with their relevance
        query: (a.get("nothing_relevant"), [(i["text"], i.get("relevance")) for i in a["items"][:3]])
        for query, a in answers.items()
    }
    answerable, *never = answers.values()
    assert answerable.get("nothing_relevant") is False, seen
    best = answerable["items"][0].get("relevance")
    assert isinstance(best, float), seen
    for answer in never:
        assert answer.get("nothing_relevant") is True, seen
        if answer["items"]:
            assert answer["items"][0]["relevance"] < best, seen


# ------------------------------------------------------------------------------ documents beside chat


def test_a_document_sentence_that_answers_ranks_above_chatter_about_it(api: Api):
    policy = (
        "Refunds are paid to the original card or as store credit. Items must be returned within 30 days. "
        "Sale items cannot be refunded."
    )
    response = api.post("/v1/documents", json={"text": policy, "title": "Refund policy", "occurred_at": "2024-03-01"})
    assert response.status_code == 201, response.text
    api.episode(
        "shop",
        "2024-05-02T10:00:00Z",
        [
            ("Ana", "A customer asked about refunds again today."),
            ("Ben", "Point them to the policy page."),
            ("Ana", "Will do, thanks."),
        ],
    )
    items = recall(api, "Can refunds be paid as store credit?", k=10)
    assert items and "store credit" in items[0]["text"], [i["text"] for i in items]
