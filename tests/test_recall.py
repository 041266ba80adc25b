"""Episodes in, memory bundles out: passages, resolved dates, the recall arms, provenance, scope."""

from __future__ import annotations

import gc
import logging
from typing import Any

import pytest

from donto.errors import IndexUnavailable
from donto.graph.client import GraphClient
from donto.recall.arms import ARMS, ArmsFound, QueryVectors, arm_params, run_arms
from donto.recall.fusion import Candidate
from donto.recall.question import read
from donto.recall.service import RecallRequest, read_places
from donto.temporal.scope import TimeScope
from support import Api, claim

SESSION_1 = {
    "session": {"external_id": "s1", "started_at": "2023-05-08T13:56:00Z"},
    "turns": [
        {"external_id": "D1:1", "speaker": "Caroline", "text": "Hey Mel! Good to see you! How have you been?"},
        {"external_id": "D1:2", "speaker": "Melanie", "text": "Swamped with the kids and work. What's up with you?"},
        {
            "external_id": "D1:3",
            "speaker": "Caroline",
            "text": "I went to a LGBTQ support group yesterday and it was so powerful.",
        },
        {"external_id": "D1:4", "speaker": "Melanie", "text": "That's great! What did you talk about there?"},
        {
            "external_id": "D1:5",
            "speaker": "Caroline",
            "text": "Transgender stories. It made me want to study counseling and psychology.",
        },
    ],
}
SESSION_2 = {
    "session": {"external_id": "s2", "started_at": "2023-07-01T10:00:00Z"},
    "turns": [
        {
            "external_id": "D2:1",
            "speaker": "Melanie",
            "text": "We went camping at the lake last weekend with the kids.",
        },
        {"external_id": "D2:2", "speaker": "Caroline", "text": "Lovely! I adopted a puppy named Oscar last month."},
        {
            "external_id": "D2:3",
            "speaker": "Melanie",
            "text": "I painted a sunrise over the lake, it is my favourite painting.",
        },
    ],
}


@pytest.fixture
def remembered(api: Api) -> dict:
    first = api.post("/v1/episodes", json=SESSION_1)
    assert first.status_code == 201, first.text
    second = api.post("/v1/episodes", json=SESSION_2)
    return {"first": first.json(), "second": second.json()}


def recall(api: Api, query: str, **extra) -> dict:
    response = api.post("/v1/recall", json={"query": query, **extra})
    assert response.status_code == 200, response.text
    return response.json()


def turn_ids(bundle: dict) -> list[str]:
    return [t for item in bundle["items"] for t in item["provenance"]["turn_ids"]]


def episode(api: Api, session: str, said: list[tuple[str, str]], first: int = 0) -> dict:
    response = api.post(
        "/v1/episodes",
        json={
            "session": {"external_id": session, "started_at": "2024-05-01T10:00:00Z"},
            "turns": [
                {"external_id": f"{session}-{i}", "speaker": who, "text": text}
                for i, (who, text) in enumerate(said, start=first)
            ],
        },
    )
    response.raise_for_status()
    return response.json()


def test_posting_an_episode_keeps_every_turn_and_is_idempotent(api: Api, remembered, settings):
    out = remembered["first"]
    assert [t["external_id"] for t in out["turns"]] == ["D1:1", "D1:2", "D1:3", "D1:4", "D1:5"]
    assert all(t["created"] for t in out["turns"])
    again = api.post("/v1/episodes", json=SESSION_1).json()
    assert [t["id"] for t in again["turns"]] == [t["id"] for t in out["turns"]]
    assert not any(t["created"] for t in again["turns"])
    appended = api.post(
        "/v1/episodes",
        json={
            "session": {"external_id": "s1"},
            "turns": [{"external_id": "D1:6", "speaker": "Melanie", "text": "That sounds like a good path for you."}],
        },
    ).json()
    assert appended["session_id"] == out["session_id"] and appended["turns"][0]["created"]
    with GraphClient(settings) as graph:
        order = graph.read(
            lambda tx: tx.run(
                "MATCH (s:Session {workspace: $w, externalId: 's1'})-[:HAS_TURN]->(first:Turn) "
                "WHERE NOT ()-[:NEXT]->(first) MATCH path = (first)-[:NEXT]->*(last) WHERE NOT (last)-[:NEXT]->() "
                "RETURN [t IN nodes(path) | t.externalId] AS order",
                w=api.workspace,
            ).single()["order"]
        )
    assert order == ["D1:1", "D1:2", "D1:3", "D1:4", "D1:5", "D1:6"]


def test_passages_carry_offsets_and_resolved_dates(api: Api, remembered, settings):
    with GraphClient(settings) as graph:
        rows = graph.read(
            lambda tx: [
                r.data()
                for r in tx.run(
                    "MATCH (t:Turn {workspace: $w, externalId: 'D1:3'})-[:HAS_PASSAGE]->(p:Passage) "
                    "RETURN t.text AS turn, p.start AS start, p.end AS end, p.text AS text, "
                    "toString(p.dateFrom) AS day, p.dateResolved AS resolved",
                    w=api.workspace,
                )
            ]
        )
    [p] = rows
    assert p["turn"][p["start"] : p["end"]] == p["text"]
    assert (p["day"], p["resolved"]) == ("2023-05-07", True)


def test_recall_returns_a_small_dated_bundle(api: Api, remembered):
    bundle = recall(api, "When did Caroline go to the support group?", k=5)
    top = bundle["items"][0]
    assert set(top) == {"subject", "predicate", "object", "text", "source", "relevance"}
    assert top["subject"] == "Caroline" and top["predicate"] == "said" and top["relevance"] >= 0.5
    assert bundle["nothing_relevant"] is False
    assert top["text"] == (
        "[8 May 2023; yesterday: 7 May 2023] I went to a LGBTQ support group yesterday and it was so powerful."
    )
    assert len(bundle["items"]) <= 5 and bundle["took_ms"] > 0


def test_provenance_names_turns_and_sessions(api: Api, remembered):
    bundle = recall(api, "What did Melanie paint?", k=3, include_provenance=True)
    assert turn_ids(bundle)[0] == "D2:3"
    assert bundle["items"][0]["provenance"] == {
        "turn_ids": ["D2:3"],
        "session_id": "s2",
        "claim_ids": [],
        "status": None,
    }


def test_each_arm_can_be_asked_alone(api: Api, remembered):
    for arm in ("turn_vector", "passage_vector", "exchange_vector", "fulltext"):
        bundle = recall(api, "puppy named Oscar", k=3, arms=[arm], include_provenance=True)
        assert "D2:2" in turn_ids(bundle)[:2], arm  # an exchange also holds the turn after it
        assert {item["source"] for item in bundle["items"]} == {arm}
    bad = api.post("/v1/recall", json={"query": "x", "arms": ["turn_vector", "telepathy"]})
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "arms[1]"


def test_neighbours_join_the_strongest_hits(api: Api, remembered):
    bundle = recall(api, "Transgender stories", k=3, arms=["fulltext", "neighbours"], include_provenance=True)
    assert turn_ids(bundle)[0] == "D1:5"
    assert "neighbours" in {item["source"] for item in bundle["items"]}


def test_a_question_naming_a_date_reaches_what_was_said_then(api: Api, remembered):
    bundle = recall(api, "What happened on 1 July 2023?", k=3, arms=["time_window"], include_provenance=True)
    assert set(turn_ids(bundle)) <= {"D2:1", "D2:2", "D2:3"} and bundle["items"]
    assert recall(api, "What happened?", arms=["time_window"])["items"] == []


def test_recall_respects_valid_at_and_known_at(api: Api, remembered):
    before_july = recall(api, "camping at the lake", valid_at="2023-06-01", include_provenance=True)
    assert not {"D2:1", "D2:2", "D2:3"} & set(turn_ids(before_july))
    known_then = recall(
        api, "camping at the lake", known_at=remembered["first"]["recorded_at"], include_provenance=True
    )
    assert set(turn_ids(known_then)) <= {f"D1:{i}" for i in range(1, 6)}


def test_max_tokens_trims_the_lowest_ranked_items(api: Api, remembered):
    full = recall(api, "lake", k=8)
    trimmed = recall(api, "lake", k=8, max_tokens=120)
    assert 0 < len(trimmed["items"]) < len(full["items"])
    assert trimmed["items"] == full["items"][: len(trimmed["items"])]


def test_claims_are_recalled_and_promote_the_turns_they_cite(api: Api, remembered):
    turn = next(t for t in remembered["second"]["turns"] if t["external_id"] == "D2:2")
    text = SESSION_2["turns"][1]["text"]
    start = text.index("a puppy")
    [adopted] = [
        c["id"]
        for c in api.write(
            claim(
                "caroline",
                "adopted",
                "oscar",
                valid_from="2023-06-01",
                evidence=[{"document_id": turn["id"], "start": start, "end": start + len("a puppy named Oscar")}],
            )
        )["claims"]
    ]
    bundle = recall(api, "caroline adopted oscar", k=3, arms=["claim_vector"], include_provenance=True)
    assert bundle["items"][0]["provenance"] == {
        "turn_ids": ["D2:2"],
        "session_id": "s2",
        "claim_ids": [adopted],
        "status": "UNVERIFIED",
    }
    [pet] = [c["id"] for c in api.write(claim("caroline", "plans", "dog-training", derived_from=[adopted]))["claims"]]
    api.post(f"/v1/claims/{adopted}/retract")
    stale = recall(api, "caroline plans dog-training", k=3, arms=["claim_vector"], include_provenance=True)
    item = stale["items"][0]
    assert (item["subject"], item["predicate"], item["object"]) == ("caroline", "plans", "dog-training")
    assert item["provenance"]["claim_ids"] == [pet] and item["provenance"]["status"] == "POTENTIALLY_STALE"


def test_a_turn_found_only_through_a_claim_is_weighed_by_its_place_too(api: Api, remembered, memory):
    # The arms say where the turns they find sit; a turn that only a claim's evidence cites is read.
    turns = {t["external_id"]: t["id"] for t in remembered["first"]["turns"] + remembered["second"]["turns"]}
    found_by_an_arm = [{"turnId": turns["D1:1"], "place": {"sessionExternalId": "s1", "speaker": "Caroline"}}]
    cited_by_a_claim = [{"claimId": "c", "turnIds": [turns["D2:3"]]}]
    r = memory.recall.begin(api.workspace, RecallRequest("what did they do?", TimeScope.now(), k=2))
    r.ranking = [Candidate("turn", turns["D1:1"]), Candidate("turn", turns["D2:3"])]
    r.found = ArmsFound([found_by_an_arm, cited_by_a_claim], {"turns": True, "claims": True, "documents": False})
    read_places(r)
    assert r.places == {
        turns["D1:1"]: {"sessionExternalId": "s1", "speaker": "Caroline"},
        turns["D2:3"]: {"id": turns["D2:3"], "sessionExternalId": "s2", "speaker": "Melanie"},
    }


def test_every_turn_arm_says_where_its_turns_sit(api: Api, remembered, memory):
    scope = TimeScope.now()
    vector = QueryVectors(*[memory.encoder.encode_query("painting at the lake")] * 2)
    found = run_arms(
        memory.graph,
        [ARMS[n] for n in ("turn_vector", "passage_vector", "exchange_vector", "fulltext")],
        api.workspace,
        read("painting at the lake", scope.known_at),
        vector,
        5,
        scope,
    )
    rows = [row for arm_rows in found.rows for row in arm_rows]
    assert rows and all(row["place"]["sessionExternalId"] in {"s1", "s2"} and row["place"]["speaker"] for row in rows)


def test_recall_never_crosses_workspaces(client, remembered, workspace):
    other = Api(client, workspace + "-other")
    assert other.post("/v1/recall", json={"query": "support group"}).json()["items"] == []


def test_entity_profile_groups_by_predicate_with_contradictions(api: Api):
    [old] = [
        c["id"]
        for c in api.write(claim("caroline", "works-as", "counselor", valid_from="2022-01-01", valid_to="2023-01-01"))[
            "claims"
        ]
    ]
    [new] = [
        c["id"]
        for c in api.write(claim("caroline", "works-as", "artist", valid_from="2023-01-01", contradicts=[old]))[
            "claims"
        ]
    ]
    api.write(claim("melanie", "friend-of", "caroline"))
    profile = api.get("/v1/entities/caroline/profile").json()
    [group] = profile["predicates"]
    assert group["predicate"] == "works-as"
    by_object = {c["object"]: c for c in group["claims"]}
    assert by_object["artist"]["current"] is True and by_object["counselor"]["current"] is False
    assert by_object["counselor"]["contradicted_by"] == [new]
    assert profile["mentioned_in"][0]["subject"] == "melanie"
    assert api.get("/v1/entities/nobody/profile").status_code == 404


@pytest.mark.parametrize(
    "body, field",
    [
        ({"session": {"external_id": "s"}, "turns": []}, "turns"),
        (
            {
                "session": {"external_id": "s"},
                "turns": [{"external_id": "t", "speaker": "a", "text": "hi", "occurred_at": "last tuesday"}],
            },
            "turns[0].occurred_at",
        ),
        (
            {
                "session": {"external_id": "s", "started_at": 5},
                "turns": [{"external_id": "t", "speaker": "a", "text": "hi"}],
            },
            "session.started_at",
        ),
        (
            {"session": {"external_id": "s"}, "turns": [{"external_id": "t", "speaker": "a", "text": "x" * 20_001}]},
            "turns[0].text",
        ),
        (
            {"session": {"external_id": "s"}, "turns": [{"external_id": "t", "speaker": "a", "text": "x", "mood": 1}]},
            "turns[0].mood",
        ),
        (
            {
                "session": {"external_id": "s"},
                "turns": [
                    {"external_id": "t", "speaker": "a", "text": "x"},
                    {"external_id": "t", "speaker": "b", "text": "y"},
                ],
            },
            "turns[1].external_id",
        ),
    ],
)
def test_bad_episodes_are_rejected_naming_the_field(api: Api, body, field):
    response = api.post("/v1/episodes", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["field"] == field
    assert api.post("/v1/recall", json={"query": "hi"}).json()["items"] == []


@pytest.mark.parametrize(
    "body, field",
    [
        ({"query": ""}, "query"),
        ({"query": "x", "k": 0}, "k"),
        ({"query": "x", "k": "ten"}, "k"),
        ({"query": "x", "valid_at": "someday"}, "valid_at"),
        ({"query": "x", "max_tokens": -1}, "max_tokens"),
        ({"query": "x", "arms": "fulltext"}, "arms"),
    ],
)
def test_bad_recall_requests_are_rejected_naming_the_field(api: Api, body, field):
    response = api.post("/v1/recall", json=body)
    assert response.status_code == 422 and response.json()["error"]["field"] == field


def test_reembed_rebuilds_every_vector(api: Api, remembered, memory):
    # Spoil one turn's vectors, as a model change would.
    memory.graph.write(
        lambda tx: tx.run(
            "MATCH (t:Turn {workspace: $w, externalId: 'D2:3'}) "
            "SET t.embedding = [x IN t.embedding | 0.0] + [], t.contextEmbedding = null "
            "WITH t MATCH (s:Session)-[:HAS_TURN]->(t)-[:HAS_PASSAGE]->(p) "
            "SET s.text = null, p.speaker = null",  # as a version-1 graph held them
            w=api.workspace,
        ).consume()
    )
    done = memory.reembed(report=lambda _: None)
    restored = memory.graph.read(
        lambda tx: tx.run(
            "MATCH (s:Session)-[:HAS_TURN]->(t:Turn {workspace: $w, externalId: 'D2:3'})-[:HAS_PASSAGE]->(p) "
            "RETURN t.contextEmbedding IS NOT NULL AND s.text IS NOT NULL AND p.speaker = 'Melanie' AS ok",
            w=api.workspace,
        ).single()["ok"]
    )
    assert done["turns"] >= 8 and done["passages"] >= 8 and done["sessions"] >= 2 and restored
    assert turn_ids(recall(api, "What did Melanie paint?", k=1, arms=["turn_vector"], include_provenance=True)) == [
        "D2:3"
    ]


def test_recall_runs_without_an_arm_whose_index_is_still_building(api: Api, remembered, memory, monkeypatch, caplog):
    # A large graph's rebuilt vector index (after `donto reembed` or a schema upgrade) takes minutes to
    # populate, and Neo4j refuses every query of it meanwhile: recall answers from its other arms and
    # names the one left out, other reads of the index answer 503, and /health says how far it has got.
    graph, filler = memory.graph, api.workspace + "-filler"
    for _ in range(3):  # 15,000 vectors to read: the index populates for seconds, not milliseconds
        graph.write(
            lambda tx: tx.run(
                "UNWIND range(1, 5000) AS i CREATE (:Claim {workspace: $w, id: randomUUID(), "
                "embedding: [x IN range(1, $d) | rand() - 0.5]})",
                w=filler,
                d=memory.encoder.dimensions,
            ).consume()
        )
    graph.write_query("index_drop", name="claim_embedding")
    # Applying the schema makes it again and returns without waiting for it (as the API starts), here at once.
    monkeypatch.setattr("donto.graph.client.INDEX_WAIT_S", 0.0)
    with caplog.at_level(logging.WARNING, logger="donto.graph.client"):
        graph.apply_schema(memory.encoder.name, memory.encoder.dimensions)
    try:
        bundle = recall(api, "What did Melanie paint?", include_provenance=True)
        health = api.client.get("/health").json()
        with pytest.raises(IndexUnavailable):
            graph.read_list("recall_claim_vector", **claim_vector_params(api.workspace, memory.encoder.dimensions))
    finally:
        left = graph.await_indexes(300)
        graph.write(lambda tx: tx.run("MATCH (c:Claim {workspace: $w}) DELETE c", w=filler).consume())
    assert "index claim_embedding (VECTOR) is POPULATING" in caplog.text
    assert bundle["arms_unavailable"] == ["claim_vector"]
    assert "D2:3" in turn_ids(bundle)  # the turn arms still answer
    assert [(i["name"], i["state"]) for i in health["indexes_not_online"]] == [("claim_embedding", "POPULATING")]
    assert left == []
    assert "arms_unavailable" not in recall(api, "What did Melanie paint?")
    assert api.client.get("/health").json()["indexes_not_online"] == []


def test_recall_runs_without_an_arm_whose_index_is_missing_until_the_schema_makes_it(api: Api, remembered, memory):
    # `donto reembed` drops the vector indexes while it encodes everything again (hours on a large graph).
    memory.graph.write_query("index_drop", name="turn_context_embedding")
    try:
        bundle = recall(api, "What did Melanie paint?", include_provenance=True)
        health = api.client.get("/health").json()
    finally:
        memory.graph.apply_schema(memory.encoder.name, memory.encoder.dimensions)
    assert bundle["arms_unavailable"] == ["exchange_vector"] and "D2:3" in turn_ids(bundle)
    assert health["indexes_not_online"] == [
        {"name": "turn_context_embedding", "type": "VECTOR", "state": "MISSING", "percent": 0.0}
    ]
    assert "arms_unavailable" not in recall(api, "What did Melanie paint?")


def test_a_question_naming_someone_is_answered_while_the_full_text_index_is_missing(api: Api, remembered, memory):
    # Whom a question's names address is read from the full-text index too: without it the names are
    # read as they are written, and the arms that need it are left out, named.
    memory.graph.write_query("index_drop", name="recall_search")
    try:
        response = api.post("/v1/recall", json={"query": "What did Melanie paint?", "include_provenance": True})
    finally:
        memory.graph.apply_schema(memory.encoder.name, memory.encoder.dimensions)
        memory.graph.await_indexes(300)
    assert response.status_code == 200, response.text
    bundle = response.json()
    assert set(bundle["arms_unavailable"]) >= {"fulltext"} and "D2:3" in turn_ids(bundle)
    assert "arms_unavailable" not in recall(api, "What did Melanie paint?")


def claim_vector_params(workspace: str, dimensions: int) -> dict[str, Any]:
    vector = [1.0] + [0.0] * (dimensions - 1)
    return {
        "workspace": workspace,
        **TimeScope.now().params(),
        "claim_vector": vector,
        "candidates": 20,
        "limit": 20,
        "sessions": None,
        "documents": None,
    }


def test_entity_profile_shows_a_later_single_value_as_superseding_the_earlier(api: Api):
    api.put("/v1/predicates/ceo", json={"cardinality": "one", "aliases": ["chief-executive"]})
    [cook] = [c["id"] for c in api.write(claim("apple", "ceo", "tim-cook", valid_from="2011-08-24"))["claims"]]
    [ternus] = [
        c["id"] for c in api.write(claim("apple", "chief-executive", "john-ternus", valid_from="2026-06-01"))["claims"]
    ]
    by_id = lambda profile: {c["id"]: c for g in profile["predicates"] for c in g["claims"]}  # noqa: E731
    now = by_id(api.get("/v1/entities/apple/profile").json())
    assert now[cook]["current"] is False and now[cook]["superseded_by"] == [ternus]
    assert now[ternus]["current"] is True and now[ternus]["superseded_by"] == []
    january = by_id(api.get("/v1/entities/apple/profile", params={"valid_at": "2026-01-15"}).json())
    assert january[cook]["current"] is True and january[cook]["superseded_by"] == []
    assert january[ternus]["current"] is False


def test_a_recalled_claim_without_a_turn_reads_as_a_dated_statement(api: Api, remembered):
    api.write(claim("caroline", "visited", "lisbon", valid_from="2023-09-02"))
    [item] = recall(api, "caroline visited lisbon", k=1, arms=["claim_vector"])["items"]
    assert item["text"] == "[2 September 2023] caroline visited lisbon"


def test_a_turn_gains_from_a_session_where_the_topic_keeps_coming_up(api: Api):
    episode(
        api,
        "garden",
        [
            ("Ann", "I planted tomatoes along the fence this spring."),
            ("Ann", "The weather was lovely all week."),
            ("Ann", "Those tomatoes need water every single morning."),
            ("Ann", "My tomatoes finally turned red today."),
        ],
    )
    episode(api, "market", [("Ann", "Tomatoes!"), ("Ann", "We also bought bread and cheese.")])
    alone = recall(api, "tomatoes", k=4, arms=["fulltext"], include_provenance=True)
    assert turn_ids(alone)[0] == "market-0"  # the shortest mention scores highest on its own
    together = recall(api, "tomatoes", k=4, arms=["fulltext", "sessions"], include_provenance=True)
    assert turn_ids(together)[0].startswith("garden-")
    assert set(turn_ids(together)) == set(turn_ids(alone))


def test_a_session_keeps_its_whole_text_for_full_text_search(api: Api, remembered, settings):
    api.post(
        "/v1/episodes",
        json={
            "session": {"external_id": "s2"},
            "turns": [{"external_id": "D2:4", "speaker": "Caroline", "text": "Oscar loves the lake too."}],
        },
    ).raise_for_status()
    with GraphClient(settings) as graph:
        text = graph.read(
            lambda tx: tx.run(
                "MATCH (s:Session {workspace: $w, externalId: 's2'}) RETURN s.text AS text", w=api.workspace
            ).single()["text"]
        )
    assert text.splitlines() == [f"{t['speaker']}: {t['text']}" for t in SESSION_2["turns"]] + [
        "Caroline: Oscar loves the lake too."
    ]


def test_a_turn_gains_when_its_whole_session_matches_the_question(api: Api):
    episode(api, "trip", [("Ann", "I finally bought a kayak."), ("Ann", "The river was calm all day.")])
    episode(api, "walk", [("Ann", "The river was calm all day."), ("Ann", "We had soup after.")])
    alone = recall(api, "kayak on the river", k=4, arms=["fulltext"], include_provenance=True)
    both = recall(api, "kayak on the river", k=4, arms=["fulltext", "session_fulltext"], include_provenance=True)
    ranked = turn_ids(both)
    assert ranked.index("trip-1") < ranked.index("walk-0")  # same words, but only one session is about kayaks
    assert set(ranked) == set(turn_ids(alone))  # the session arm re-weighs; it adds no turns
    assert {item["source"] for item in both["items"]} == {"fulltext"}
    assert recall(api, "kayak on the river", arms=["session_fulltext"])["items"] == []


def test_a_question_naming_a_speaker_prefers_what_they_said(api: Api):
    episode(
        api, "chat", [("Caroline Doe", "I painted the lake at sunrise."), ("Melanie", "I painted the lake at sunrise.")]
    )
    for name, first in (("Melanie", "chat-1"), ("Caroline", "chat-0")):
        bundle = recall(api, f"What did {name} paint?", k=2, arms=["turn_vector", "speakers"], include_provenance=True)
        assert turn_ids(bundle)[0] == first, name
    by_text = recall(api, "Melanie painted", k=2, arms=["fulltext"], include_provenance=True)
    assert turn_ids(by_text)[0] == "chat-1"  # full-text searches the speaker with the words


def test_a_session_lifts_its_turns_only_with_the_text_known_at_the_time(api: Api):
    episode(api, "trip", [("Ann", "I finally bought a kayak."), ("Ann", "The river was calm all day.")])
    then = episode(api, "walk", [("Ann", "The river was calm all day."), ("Ann", "We had soup after.")])["recorded_at"]
    episode(api, "walk", [("Ann", "Kayak, kayak, kayak: we rented a kayak!"), ("Ann", "Best kayak day ever.")], first=2)
    ask = {"k": 8, "arms": ["fulltext", "session_fulltext"], "include_provenance": True}
    now = turn_ids(recall(api, "kayak on the river", **ask))
    assert now.index("walk-0") < now.index("trip-1")  # the walk is now the kayak session
    as_of = turn_ids(recall(api, "kayak on the river", known_at=then, **ask))
    assert as_of.index("trip-1") < as_of.index("walk-0") and "walk-2" not in as_of


def test_a_workspace_of_claims_alone_is_recalled_without_turn_arms(api: Api):
    api.write(claim("maya", "ran", "half-marathon", valid_from="2026-11-14"))
    [item] = recall(api, "maya ran a half marathon", k=1)["items"]
    assert (item["subject"], item["object"]) == ("maya", "half-marathon")
    assert item["source"] in {"claim_vector", "fulltext"}


def test_a_current_read_asks_the_claim_index_again_when_ended_claims_crowd_out_the_live_one(
    api: Api, memory, monkeypatch
):
    # 80 ended claims nearer the question than the one still true: the arm's first ask (its limit
    # of 60) holds none that is valid now, and the index gave all it was asked for, so it asks again.
    ended = [
        claim("maya", "lived_in", f"harbour-town-{i}", valid_from=f"2001-01-{1 + i % 28:02d}", valid_to="2002-01-01")
        for i in range(80)
    ]
    live = claim("maya", "owns", "a red bicycle", valid_from="2026-01-01")
    api.write(*ended, live)
    asked: list[str] = []
    read_list = memory.graph.read_list
    monkeypatch.setattr(
        memory.graph, "read_list", lambda name, /, **params: asked.append(name) or read_list(name, **params)
    )
    items = recall(api, "maya lived in harbour town", k=5, arms=["claim_vector"])["items"]
    assert [(i["subject"], i["object"]) for i in items] == [("maya", "a red bicycle")]
    assert "recall_claim_vector" in asked


class CountingModel:
    """The real model, recording every text it is asked to encode."""

    def __init__(self, model: Any):
        self.model, self.texts = model, []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.model, name)

    def encode(self, texts: list[str], **options: Any) -> Any:
        self.texts += texts
        return self.model.encode(texts, **options)


def test_each_distinct_text_is_encoded_once_and_a_one_sentence_turn_is_its_own_passage(api: Api, memory, monkeypatch):
    counting = CountingModel(memory.encoder.model)
    monkeypatch.setitem(memory.encoder.__dict__, "model", counting)
    said = [
        ("Ann", "I adopted a puppy named Oscar."),
        ("Bob", "That is lovely news. What breed is he?"),
        ("Ann", "I adopted a puppy named Oscar."),  # said again: the same vectors, not a second encoding
    ]
    episode(api, "pets", said)
    ours = [text for text in counting.texts if text.startswith(("Ann: ", "Bob: "))]  # not a worker's claims
    assert len(ours) == len(set(ours)) and ours.count("Ann: I adopted a puppy named Oscar.") == 1
    vectors = memory.graph.read(
        lambda tx: {
            r["id"]: r.data()
            for r in tx.run(
                "MATCH (t:Turn {workspace: $w})-[:HAS_PASSAGE]->(p:Passage) WITH t, collect(p.embedding) AS passages "
                "RETURN t.externalId AS id, t.embedding AS turn, t.contextEmbedding AS exchange, passages",
                w=api.workspace,
            )
        }
    )
    first, second, again = vectors["pets-0"], vectors["pets-1"], vectors["pets-2"]
    assert first["passages"] == [first["turn"]] and first["exchange"] == first["turn"]
    assert len(second["passages"]) == 2 and second["turn"] not in second["passages"]
    assert again["turn"] == first["turn"] and again["exchange"] != first["exchange"]


def test_an_as_of_recall_finds_the_old_turn_under_hundreds_of_nearer_newer_ones(api: Api):
    # The vector index returns the workspace's nearest turns first, the time scope filters after it:
    # here the 300 nearest were all said later, so the arm has to ask for more than its first 240.
    then = episode(api, "old", [("Ann", "I keep a few beehives behind the house.")])["recorded_at"]
    episode(api, "new", [("Ann", f"Bees in the garden again, note {i}.") for i in range(300)])
    ask = {"k": 5, "arms": ["turn_vector"], "include_provenance": True}
    assert "old-0" not in turn_ids(recall(api, "bees in the garden", **ask))
    assert turn_ids(recall(api, "bees in the garden", known_at=then, **ask)) == ["old-0"]


def test_in_one_statement_each_vector_arm_asks_the_index_for_its_limit_not_the_full_text_arms_headroom(
    api: Api, memory, workspace
):
    # The full-text arm asks Lucene for 4x its limit; sharing the parameter's name made every vector
    # arm in the same statement ask its index for that too (an HNSW search costs more the more it
    # is asked for: 240 cost 46 ms where 60 cost 26 over a million vectors).
    episode(api, "many", [("Ann", f"Bees in the garden again, note {i}.") for i in range(100)])
    question, scope = "bees in the garden", TimeScope.now()
    vector = QueryVectors(*[memory.encoder.encode_query(question)] * 2)
    found = run_arms(
        memory.graph, [ARMS["turn_vector"], ARMS["fulltext"]], workspace, read(question), vector, 20, scope
    )
    vector_rows, text_rows = found.rows
    assert len(vector_rows) == len(text_rows) == 20
    assert {row["searched"] for row in vector_rows} == {20}


def test_all_arms_in_one_statement_rank_what_each_ranks_alone(api: Api, remembered, memory, workspace):
    turn = next(t for t in remembered["second"]["turns"] if t["external_id"] == "D2:2")
    api.write(claim("caroline", "adopted", "oscar", evidence=[{"document_id": turn["id"], "start": 0, "end": 10}]))
    question = "When did Caroline adopt Oscar in July 2023?"  # every arm fires, the time window too
    memory.claim_embeddings.drain(workspace)
    vector = QueryVectors(*[memory.encoder.encode_query(question)] * 2)
    scope = TimeScope.now()
    arms = [arm for arm in ARMS.values() if "documents" not in arm.holds or "turns" in arm.holds]  # no documents here
    together = run_arms(memory.graph, arms, workspace, read(question, scope.known_at), vector, 20, scope)
    assert together.holds == {"turns": True, "claims": True, "documents": False}
    for arm, rows in zip(arms, together.rows):
        own = arm_params(arm, read(question, scope.known_at), vector, 20)
        assert own is not None, arm.name
        alone = memory.graph.read_list(
            arm.query, workspace=workspace, **scope.params(), sessions=None, documents=None, **own
        )
        assert rows == alone and rows, arm.name


def test_a_served_memory_keeps_what_startup_made_out_of_full_collections(memory):
    # The model is loaded by then: a full collection walks only what requests made since, not
    # torch and the model (it stalled one recall in a few hundred by 270 ms).
    assert "model" in memory.encoder.__dict__
    assert gc.get_freeze_count() > 100_000


def test_a_past_read_asks_no_arm_again_when_the_index_gave_all_the_workspace_holds(
    api: Api, remembered, memory, monkeypatch
):
    asked: list[str] = []
    read_list = memory.graph.read_list
    monkeypatch.setattr(
        memory.graph, "read_list", lambda name, /, **params: asked.append(name) or read_list(name, **params)
    )
    # Five turns were said by then, too few for any arm's limit, but each vector arm's index gave
    # fewer than it asked for (all the workspace holds), so none asks again; the claim arm (no claims
    # here) is not asked again either, and no claims are looked for to embed.
    found = recall(api, "camping at the lake", valid_at="2023-06-01")
    assert found["items"]
    assert not [name for name in asked if name.endswith("_vector")]
    assert "claims_pending_embedding" not in asked


def test_a_claim_joins_the_full_text_index_with_its_embedding_and_recall_finds_it_as_soon_as_it_is_written(
    api: Api, memory
):
    # Lucene's work on a claim is the background embedder's (schema version 9), not the write's commit;
    # recall embeds its workspace's waiting claims first, so its full-text arm still reads its own writes.
    def state(claim_id: str) -> tuple[bool, bool]:
        row = memory.graph.read(
            lambda tx: tx.run(
                "MATCH (c:Claim {id: $id}) RETURN c:Searchable AS searchable, c.embedding IS NOT NULL AS embedded",
                id=claim_id,
            ).single()
        )
        return row["searchable"], row["embedded"]

    [written] = api.write(claim("maya", "adopted", "a greyhound called zanzibar"))["claims"]
    searchable, embedded = state(written["id"])
    assert searchable == embedded  # in the full-text index exactly when the embedder has been by
    [item] = recall(api, "zanzibar", arms=["fulltext"])["items"]
    assert (item["object"], item["source"]) == ("a greyhound called zanzibar", "fulltext")
    assert state(written["id"]) == (True, True)


def test_an_as_of_recall_joins_no_neighbour_recorded_after_its_known_at(api: Api):
    # A turn appended later is linked to the one before it (NEXT); a recall as of before the append
    # must not hand it back as that turn's neighbour.
    then = episode(api, "lake", [("Ann", "I finally bought a kayak for the lake.")])["recorded_at"]
    episode(api, "lake", [("Bob", "Congratulations, that is wonderful news!")], first=1)
    ask = {"k": 5, "arms": ["fulltext", "neighbours"], "include_provenance": True}
    assert turn_ids(recall(api, "kayak", **ask)) == ["lake-0", "lake-1"]  # now the neighbour joins
    assert turn_ids(recall(api, "kayak", known_at=then, **ask)) == ["lake-0"]


def test_an_as_of_recall_joins_no_neighbour_said_after_its_valid_at(api: Api):
    api.post(
        "/v1/episodes",
        json={
            "session": {"external_id": "trip", "started_at": "2024-05-01T10:00:00Z"},
            "turns": [
                {
                    "external_id": "trip-0",
                    "speaker": "Ann",
                    "text": "I finally bought a kayak for the lake.",
                    "occurred_at": "2024-05-01T10:00:00Z",
                },
                {
                    "external_id": "trip-1",
                    "speaker": "Bob",
                    "text": "Congratulations, that is wonderful news!",
                    "occurred_at": "2024-06-01T10:00:00Z",
                },
            ],
        },
    ).raise_for_status()
    ask = {"k": 5, "arms": ["fulltext", "neighbours"], "include_provenance": True}
    assert turn_ids(recall(api, "kayak", **ask)) == ["trip-0", "trip-1"]
    assert turn_ids(recall(api, "kayak", valid_at="2024-05-15", **ask)) == ["trip-0"]


def _searches(plan) -> int:
    """Database hits of the plan's vector-index searches (the operators that walk the index)."""
    kind = plan["operatorType"]
    own = plan.get("dbHits", 0) if "Vector" in kind or "Search" in kind else 0
    return own + sum(_searches(child) for child in plan.get("children", []))


def test_a_vector_arm_leaves_its_index_alone_where_the_workspace_holds_none_of_its_kind(
    api: Api, remembered, memory, workspace
):
    # A filtered search of an index holding none of the workspace's vectors still walks the index
    # (about 2 ms of each recall of a workspace without claims): the arm asks only where there is any.
    other = f"{workspace}-claims"
    Api(api.client, other).write(claim("ann", "likes", "bees"))
    memory.claim_embeddings.drain(other)
    scope, vector = TimeScope.now(), QueryVectors(*[memory.encoder.encode_query("who likes bees?")] * 2)
    profiled = {}
    for arm in ("claim_vector", "turn_vector", "passage_vector", "exchange_vector"):
        query = memory.graph.queries[ARMS[arm].query]
        for ws in (workspace, other):
            params = {
                "workspace": ws,
                **scope.params(),
                "sessions": None,
                "documents": None,
                **arm_params(ARMS[arm], read("bees", scope.known_at), vector, 20),
            }
            summary = memory.graph.read(lambda tx: tx.run("PROFILE " + query.text, params).consume())  # noqa: B023
            profiled[arm, ws] = _searches(summary.profile)
    # Each arm searched where its kind is, and only there.
    assert profiled["claim_vector", other] > 0 and profiled["claim_vector", workspace] == 0
    for arm in ("turn_vector", "passage_vector", "exchange_vector"):
        assert profiled[arm, workspace] > 0 and profiled[arm, other] == 0, arm
