"""What is true now: a question about the present gets the latest word first, an earlier statement
says what replaced it, current claims compete with text on relevance, a document's claim comes
with its sentence."""

from __future__ import annotations

from support import Api, claim


def recall(api: Api, query: str, **extra) -> list[dict]:
    response = api.post("/v1/recall", json={"query": query, **extra})
    assert response.status_code == 200, response.text
    return response.json()["items"]


def maria_moves(api: Api) -> None:
    api.episode(
        "march",
        "2024-03-10T18:00:00Z",
        [
            ("Maria", "I live in Kreuzberg now, Berlin is home."),
            ("Ben", "How is the new flat?"),
            ("Maria", "Small but sunny. The weather in Berlin is grey though."),
        ],
    )
    api.episode(
        "june",
        "2024-06-02T18:00:00Z",
        [("Ben", "Did you see the match?"), ("Maria", "Berlin was loud all night after the match.")],
    )
    api.episode(
        "august",
        "2024-08-20T18:00:00Z",
        [
            ("Maria", "Actually I moved to Amsterdam last month."),
            ("Ben", "Wow, big change!"),
            ("Maria", "I miss the Berlin bakeries sometimes."),
        ],
    )


def test_a_question_about_now_puts_the_later_statement_first_and_the_earlier_says_it_was_replaced(api: Api):
    maria_moves(api)
    items = recall(api, "Where does Maria live now?", k=10, include_provenance=True)
    turns = [i["provenance"]["turn_ids"][0] for i in items]
    assert turns.index("august-0") < turns.index("march-0")
    assert "august-0" in turns[:3]
    earlier = items[turns.index("march-0")]
    assert earlier["replaced_by"] == "august-0"
    assert earlier["text"].endswith("(a later statement: [20 August 2024] Actually I moved to Amsterdam last month.)")
    assert "replaced_by" not in items[turns.index("august-0")]


def test_a_small_bundle_about_now_leads_with_the_later_statement_ranked_below_it(api: Api):
    api.episode(
        "january",
        "2024-01-02T10:00:00Z",
        [
            ("Ann", "I do not like fado at all."),
            ("Ann", "Maybe I will take up jazz piano next year."),
            ("Ann", "I drive a red Fiat these days."),
        ],
    )
    api.episode("august", "2024-08-02T10:00:00Z", [("Ann", "I sold the Fiat, I take the tram now.")])
    api.episode("august-bo", "2024-08-02T11:00:00Z", [("Bo", "The tram in Lisbon is old and yellow.")])
    items = recall(api, "What does Ann drive now?", k=2, include_provenance=True)
    turns = [i["provenance"]["turn_ids"][0] for i in items]
    assert turns == ["august-0", "january-2"], [i["text"] for i in items]
    assert items[1]["replaced_by"] == "august-0"


def test_a_chain_of_later_statements_reads_newest_first_each_above_the_one_it_replaced(api: Api):
    maria_moves(api)
    api.episode("november", "2024-11-23T18:00:00Z", [("Maria", "I bought a cargo bike for the Amsterdam streets.")])
    items = recall(api, "Where does Maria live now?", k=10, include_provenance=True)
    turns = [i["provenance"]["turn_ids"][0] for i in items]
    # the move is a link between the first home and the bike: above the home, below the bike
    assert turns.index("november-0") < turns.index("august-0") < turns.index("march-0"), turns
    assert turns[:2] == ["november-0", "august-0"], [i["text"] for i in items]
    for earlier in ("march-0", "august-0"):
        item = items[turns.index(earlier)]
        assert item["replaced_by"] == "november-0"
        assert item["text"].endswith(
            "(a later statement: [23 November 2024] I bought a cargo bike for the Amsterdam streets.)"
        )


def test_a_question_about_now_still_runs_a_full_text_arm_it_names(api: Api):
    maria_moves(api)
    items = recall(api, "Where does Maria live now?", k=5, arms=["fulltext"])
    assert items and {i["source"] for i in items} == {"fulltext"}


def test_a_question_not_about_now_leaves_earlier_statements_unmarked(api: Api):
    maria_moves(api)
    items = recall(api, "Where did Maria live in March?", k=10)
    assert all("replaced_by" not in i and "a later statement" not in i["text"] for i in items)


def test_a_current_claim_ranks_above_chatter_and_above_the_claim_it_replaced(api: Api):
    maria_moves(api)
    assert api.put("/v1/predicates/lives_in", json={"cardinality": "one"}).status_code == 200
    [berlin] = api.write(claim("maria", "lives_in", "berlin", valid_from="2024-03-01"))["claims"]
    [amsterdam] = api.write(claim("maria", "lives_in", "amsterdam", valid_from="2024-08-01"))["claims"]
    items = recall(api, "Where does Maria live now?", k=10)
    claims = [(i["object"], i["state"]) for i in items if i["object"] is not None]
    assert claims == [("amsterdam", "current"), ("berlin", "superseded")]
    at = [i["object"] for i in items].index("amsterdam")
    assert at < 3, [i["text"] for i in items]
    chatter = [i for i in items if "loud all night" in i["text"] or "bakeries" in i["text"]]
    assert all(items.index(c) > at for c in chatter)
    assert berlin["id"] != amsterdam["id"]


def test_a_claim_from_a_document_comes_with_its_whole_sentence(api: Api):
    text = (
        "Project notes.\n\nThe Falcon launch moved to 14 May because the supplier was late. The team meets on Fridays."
    )
    response = api.post("/v1/documents", json={"text": text, "title": "Falcon notes", "occurred_at": "2024-04-02"})
    assert response.status_code == 201, response.text
    document = response.json()
    start = text.index("moved to 14 May")
    api.write(
        claim(
            "falcon-launch",
            "moved_to",
            "14-may",
            valid_from="2024-04-02",
            evidence=[{"document_id": document["id"], "start": start, "end": start + len("moved to 14 May")}],
        )
    )
    items = recall(api, "When is the Falcon launch?", k=5, arms=["claim_vector"])
    [item] = [i for i in items if i["object"] == "14-may"]
    assert item["state"] == "current"
    assert item["text"].endswith(
        "— from the document (Falcon notes): The Falcon launch moved to 14 May because the supplier was late."
    )
