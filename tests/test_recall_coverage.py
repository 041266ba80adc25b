"""Coverage: an aggregate question whose answer is spread over several sessions finds every one of them."""

from __future__ import annotations

from donto.recall.arms import ARM_NAMES
from support import Api


def recall(api: Api, query: str, **extra) -> list[str]:
    response = api.post("/v1/recall", json={"query": query, "include_provenance": True, **extra})
    assert response.status_code == 200, response.text
    return [t for item in response.json()["items"] for t in item["provenance"]["turn_ids"]]


# Kate speaks of her pastimes in three sessions: at length of pottery in one, once each of climbing and
# chess in two others; the rest of the chat is about other things.
POTTERY = [
    ("Kate", "My favourite hobby is pottery, I throw bowls on the wheel every weekend."),
    ("Elise", "Your pottery hobby sounds relaxing, do you glaze them yourself?"),
    ("Kate", "Yes, glazing is my favourite part of the pottery hobby."),
    ("Elise", "I'd love a pottery bowl as a gift."),
    ("Kate", "I'll make you one in the pottery studio next weekend."),
    ("Elise", "Pottery on weekends sounds like a great hobby to have."),
]
CLIMBING = [
    ("Elise", "How was your Saturday?"),
    ("Kate", "I spent it bouldering at the climbing gym, I go there most weeks for fun."),
    ("Elise", "Wow, sounds tiring."),
]
CHESS = [
    ("Elise", "Did you see the news about the train strike?"),
    ("Kate", "Yes, so I stayed in and played chess online all evening, I love a good game of chess."),
    ("Elise", "The strike is supposed to end on Friday."),
]
CHATTER = [
    [("Elise", "My landlord finally fixed the heating."), ("Kate", "About time, it was freezing.")],
    [("Kate", "Work was so busy today, three meetings back to back."), ("Elise", "Mine too, I am exhausted.")],
    [("Elise", "We should book the flights for March soon."), ("Kate", "Let me check the prices tonight.")],
    [("Kate", "The bakery on the corner closed down."), ("Elise", "Oh no, their bread was the best.")],
]


def kates_pastimes(api: Api, pottery: list[tuple[str, str]]) -> None:
    """Pottery on 2 January, four days of chatter, then climbing and chess, each said of once."""
    api.episode("pottery", "2024-01-02T10:00:00Z", pottery)
    for i, said in enumerate(CHATTER):
        api.episode(f"chatter-{i}", f"2024-01-0{3 + i}T10:00:00Z", said)
    api.episode("climbing", "2024-01-08T10:00:00Z", CLIMBING)
    api.episode("chess", "2024-01-09T10:00:00Z", CHESS)


def test_an_aggregate_question_finds_each_of_the_three_sessions_that_answer_it(api: Api):
    kates_pastimes(api, POTTERY)
    answers = {"pottery-0", "climbing-1", "chess-1"}
    found = recall(api, "What are Kate's hobbies?", k=5, arms=list(ARM_NAMES))  # every arm, coverage's too
    assert answers <= set(found)
    # The coverage arm alone: one turn from each session, the sessions that speak of pastimes first.
    covered = recall(api, "What are Kate's hobbies?", k=3, arms=["session_cover"])
    assert len(covered) == 3 and len({t.split("-")[0] for t in covered}) == 3
    assert "pottery-0" in covered or "pottery-2" in covered


# Three animals, each named once in its own session and never called an animal, among talk that
# shares the question's other words (talked, discussing, the two names).
ANIMALS = [
    [
        ("Nico", "Exams start on Monday, I have not opened a book."),
        ("Nebs", "Same, we should study together at the library."),
        ("Nico", "A stray cat followed me home tonight, she sat at my door for an hour."),
        ("Nebs", "Did you let her in?"),
    ],
    [
        ("Nebs", "Have you played the new co-op game yet?"),
        ("Nico", "Not yet, my laptop is too slow for it."),
        ("Nebs", "We took the ferry to the island and an orca swam right past the boat!"),
        ("Nico", "No way, that is so lucky."),
    ],
    [
        ("Nico", "My neighbour's parrot screams every morning at six."),
        ("Nebs", "Get earplugs, honestly."),
        ("Nico", "I talked to them about it but nothing changed."),
    ],
    [
        ("Nebs", "What did you talk about with your sister yesterday?"),
        ("Nico", "We talked about her new job and her move to Leeds."),
    ],
    [
        ("Nico", "We were discussing the football match all evening."),
        ("Nebs", "I talked about the referee for an hour, he was terrible."),
    ],
    [("Nebs", "I cooked a huge pot of chili for the week."), ("Nico", "Save me some, I will bring bread.")],
]


def test_a_question_after_a_kind_of_thing_finds_turns_that_name_one_without_the_kinds_word(api: Api):
    for i, said in enumerate(ANIMALS):
        api.episode(f"s{i}", f"2024-01-0{2 + i}T10:00:00Z", said)
    found = recall(api, "What animals have Nico and Nebs talked about?", k=10)
    # the cat, the orca and the parrot; asked by the question alone, the parrot stays below the talk
    # about talking. A cost of asking the vector arms without the speakers' names: the question is
    # then little but "talked about", and the parrot ranks tenth here (sixth with the names).
    assert {"s0-2", "s1-2", "s2-0"} <= set(found), found


# Kate's week of pottery, told at length: the hobby in every third message, chatter between.
POTTERY_WEEK = [
    turn
    for said in (
        "My favourite hobby is pottery, I throw bowls on the wheel every weekend.",
        "Glazing is my favourite part of the pottery hobby, I spend hours on it.",
        "My pottery hobby keeps me sane, the wheel is so calming.",
        "I signed up for a second pottery class, it is my favourite hobby by far.",
        "Pottery is the hobby I would pick over anything, I made six mugs on Sunday.",
        "My next pottery project is a big vase, this hobby never gets old.",
    )
    for turn in (("Kate", said), ("Elise", "Haha nice."), ("Elise", "Anyway, what's for dinner?"))
]


def test_a_gathering_questions_first_items_come_from_different_sessions(api: Api):
    kates_pastimes(api, POTTERY_WEEK)
    found = recall(api, "What are Kate's hobbies?", k=10)
    # Fused alone, the pottery session's hobby turns held the first six places and climbing the
    # seventh; the first items now name each session that speaks of a hobby, the best turn first.
    assert found[0] == "pottery-0"
    assert {t.split("-")[0] for t in found[:3]} == {"pottery", "climbing", "chess"}
    assert sum(t.startswith("pottery-") for t in found) >= 6  # the session's other hobby turns stay in the bundle
    # A bundle of three is the same three: the step reads the details of the turns past it that it weighs.
    assert recall(api, "What are Kate's hobbies?", k=3) == found[:3]


# A session that dwells on Kate's sister's work, and another that says where the sister lives once.
SISTER_WORK = [
    turn
    for said in (
        "My sister got promoted at the hospital, she is a nurse there.",
        "My sister works night shifts at the hospital most weeks.",
        "My sister says the hospital is short of nurses again.",
        "My sister wants to train as a midwife at the hospital next year.",
        "My sister's hospital is giving her a new ward to run.",
        "My sister loves her team at the hospital, they are like family.",
    )
    for turn in (("Kate", said), ("Elise", "Haha nice."), ("Elise", "Anyway, what's for dinner?"))
]
SISTER_HOME = [
    ("Elise", "Any news from your family?"),
    ("Kate", "My sister lives in Lisbon now, she found a flat by the river."),
    ("Elise", "Lucky her!"),
]


def test_a_fact_said_once_reaches_the_first_items_past_a_session_that_dwells_on_the_person(api: Api):
    api.episode("work", "2024-01-02T10:00:00Z", SISTER_WORK)
    for i, said in enumerate(CHATTER):
        api.episode(f"chatter-{i}", f"2024-01-0{3 + i}T10:00:00Z", said)
    api.episode("home", "2024-01-08T10:00:00Z", SISTER_HOME)
    found = recall(api, "Where does Kate's sister live?", k=5)
    # Fused alone, the work session's six turns about the sister came first and the Lisbon turn
    # seventh; one turn a session (and those beside it) first puts it in a bundle of five.
    assert "home-1" in found
    assert found[0].startswith("work-")
