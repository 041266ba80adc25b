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


def test_an_aggregate_question_finds_each_of_the_three_sessions_that_answer_it(api: Api):
    api.episode("pottery", "2024-01-02T10:00:00Z", POTTERY)
    for i, said in enumerate(CHATTER):
        api.episode(f"chatter-{i}", f"2024-01-0{3 + i}T10:00:00Z", said)
    api.episode("climbing", "2024-01-08T10:00:00Z", CLIMBING)
    api.episode("chess", "2024-01-09T10:00:00Z", CHESS)
    answers = {"pottery-0", "climbing-1", "chess-1"}
    found = recall(api, "What are Kate's hobbies?", k=5, arms=list(ARM_NAMES))  # every arm, coverage's too
    assert answers <= set(found)
    # The coverage arm alone: one turn from each session, the sessions that speak of pastimes first.
    covered = recall(api, "What are Kate's hobbies?", k=3, arms=["session_cover"])
    assert len(covered) == 3 and len({t.split("-")[0] for t in covered}) == 3
    assert "pottery-0" in covered or "pottery-2" in covered
