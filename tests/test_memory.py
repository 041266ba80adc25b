"""The agent's curated memory end to end over REST (seed 002): orient, remember, understandings and
their history, bring_to_mind with heartbeat tokens and seen filtering, recall, search, consolidation,
merges, signals, and a long scripted agent session."""

from __future__ import annotations

import pytest

from support import Api


def session(api: Api, session_id: str) -> Api:
    """The same caller, in one conversation (X-Donto-Session on every request)."""
    scoped = Api(api.client, api.workspace)
    scoped.headers = {**api.headers, "X-Donto-Session": session_id}
    return scoped


def ok(response, status: int = 200) -> dict:
    assert response.status_code == status, response.text
    return response.json()


def remember(api: Api, text: str, *subjects: str, **extra) -> dict:
    return ok(api.post("/v1/memory/remember", json={"text": text, "subjects": list(subjects), **extra}), 201)


def understand(api: Api, subjects: list[str], text: str, summary: str, **extra) -> dict:
    body = {"subject_names": subjects, "text": text, "summary": summary, **extra}
    return ok(api.post("/v1/understandings", json=body), 201)


def revise(api: Api, understanding_id: str, text: str, summary: str, **extra) -> dict:
    body = {"understanding_id": understanding_id, "new_text": text, "new_summary": summary, **extra}
    return ok(api.post("/v1/understandings/update", json=body))


def bring(api: Api, topic: str, **extra) -> dict:
    return ok(api.post("/v1/memory/bring-to-mind", json={"topic_or_context": topic, **extra}))


def orient(api: Api) -> dict:
    return ok(api.post("/v1/memory/orient"))


def age_session(memory, workspace: str, session_id: str, hours: float) -> None:
    """Move a session's last activity back in time: a gap the client's clock would have seen."""
    memory.graph.driver.execute_query(
        "MATCH (s:MemorySession {workspace: $w, id: $s}) "
        "SET s.lastSeenAt = s.lastSeenAt - duration({minutes: $m}), "
        "    s.lastBringAt = s.lastBringAt - duration({minutes: $m})",
        {"w": workspace, "s": session_id, "m": int(hours * 60)},
    )


# -- remember, subjects, aliases, concurrency --------------------------------------------------


def test_remember_creates_missing_subjects_and_says_which(api: Api):
    first = remember(api, "James and Audrey are married.", "James", "Audrey", kind="fact", confidence=0.9)
    assert sorted(first["subjects_created"]) == ["Audrey", "James"] and first["created"] is True
    assert first["observation"]["kind"] == "fact" and first["observation"]["confidence"] == 0.9
    again = remember(api, "Audrey paints.", "audrey")  # a name in another case is the same subject
    assert again["subjects_created"] == [] and again["observation"]["subjects"] == ["Audrey"]
    assert ok(api.get("/v1/subjects/James"))["observations"] == 1


def test_aliases_resolve_and_a_name_belongs_to_one_subject(api: Api):
    made = ok(api.post("/v1/subjects", json={"name": "wealth simulator", "aliases": ["wealth_sim"]}), 201)
    assert ok(api.get("/v1/subjects/WEALTH_SIM"))["id"] == made["id"]
    clash = api.post("/v1/subjects", json={"name": "Wealth_Sim"})
    assert clash.status_code == 409 and clash.json()["error"]["field"] == "name"
    ok(api.post("/v1/subjects", json={"name": "finance tool"}), 201)
    taken = api.patch("/v1/subjects/finance tool", json={"version": 1, "aliases": ["wealth simulator"]})
    assert taken.status_code == 409 and taken.json()["error"]["field"] == "aliases"


def test_a_stale_subject_version_is_a_conflict_and_writes_nothing(api: Api):
    made = ok(api.post("/v1/subjects", json={"name": "James", "summary": "a person"}), 201)
    changed = ok(api.patch("/v1/subjects/James", json={"version": 1, "summary": "an engineer", "tags": ["person"]}))
    assert changed["version"] == 2 and changed["summary"] == "an engineer" and changed["tags"] == ["person"]
    stale = api.patch("/v1/subjects/James", json={"version": 1, "summary": "a painter"})
    assert stale.status_code == 409 and stale.json()["error"]["field"] == "version"
    assert ok(api.get(f"/v1/subjects/{made['id']}"))["summary"] == "an engineer"


def test_observations_can_be_deleted_only_in_the_session_that_made_them(api: Api):
    mine, other = session(api, "conv-1"), session(api, "conv-2")
    kept = remember(other, "Written in another conversation.", "James")["observation"]["id"]
    typo = remember(mine, "Jmes likes tea.", "James")["observation"]["id"]
    out = ok(mine.post("/v1/subjects/observations/delete", json={"ids": [typo, kept, "nope"]}))
    assert out["deleted"] == [typo]
    assert {r["id"]: r["reason"].split(":")[0] for r in out["rejected"]} == {
        kept: "session mismatch",
        "nope": "not found",
    }
    no_session = ok(api.post("/v1/subjects/observations/delete", json={"ids": [kept]}))
    assert no_session["deleted"] == [] and no_session["rejected"][0]["id"] == kept
    assert ok(api.get("/v1/subjects/James"))["observations"] == 1


def test_related_to_and_cites_must_name_what_exists(api: Api):
    remember(api, "James builds things.", "James")
    u = understand(api, ["James"], "James builds memory systems.", "James: builder")
    claim = api.write({"subject": "james", "predicate": "builds", "object": {"entity": "donto"}})["claims"][0]["id"]
    linked = remember(api, "James said donto is his.", "James", related_to=[u["id"]], cites=[claim])
    assert linked["created"] is True
    bad = api.post("/v1/memory/remember", json={"text": "x", "subjects": ["James"], "related_to": [claim]})
    assert bad.status_code == 404 and bad.json()["error"]["field"] == "related_to[0]"
    bad = api.post("/v1/memory/remember", json={"text": "y", "subjects": ["Nobody"], "cites": ["missing"]})
    assert bad.status_code == 404 and bad.json()["error"]["field"] == "cites[0]"
    assert api.get("/v1/subjects/Nobody").status_code == 404  # nothing was written


# -- understandings ----------------------------------------------------------------------------


def test_an_understanding_update_supersedes_and_history_walks_the_chain(api: Api):
    remember(api, "James and Audrey are married.", "James", "Audrey")
    first = understand(api, ["James", "Audrey"], "They are married.", "married")
    assert first["kind"] == "relationship" and first["active"] and first["subjects"] == ["Audrey", "James"]
    second = revise(api, first["id"], "Married, both in computing.", "married; computing", reason="more detail")
    third = revise(api, second["new_understanding_id"], "Married; compare notes on AI continuity.", "married; AI")
    assert third["old_understanding_id"] == second["new_understanding_id"]

    stale = api.post(
        "/v1/understandings/update", json={"understanding_id": first["id"], "new_text": "x", "new_summary": "x"}
    )
    assert stale.status_code == 409 and stale.json()["error"]["field"] == "understanding_id"

    history = ok(api.get(f"/v1/understandings/{first['id']}/history"))
    assert [v["summary"] for v in history["versions"]] == ["married", "married; computing", "married; AI"]
    assert [v["active"] for v in history["versions"]] == [False, False, True]
    # each version as GET /v1/understandings/{id} shows it: its subjects and what superseded it
    assert [v["subjects"] for v in history["versions"]] == [["Audrey", "James"]] * 3
    assert history["versions"][0] == ok(api.get(f"/v1/understandings/{first['id']}"))
    assert [(r["old"], r["reason"]) for r in history["revisions"]] == [
        (first["id"], "more detail"),
        (second["new_understanding_id"], None),
    ]
    assert ok(api.get(f"/v1/understandings/{third['new_understanding_id']}/history")) == history
    active = ok(api.post("/v1/understandings/about", json={"subject_names": ["Audrey", "James"]}))["understandings"]
    assert [u["id"] for u in active] == [third["new_understanding_id"]]


def test_a_subject_has_one_active_single_subject_and_structural_understanding(api: Api):
    remember(api, "The simulator is written in Julia.", "simulator")
    one = understand(api, ["simulator"], "A Julia wealth simulator.", "Julia simulator")
    two = understand(api, ["simulator"], "A wealth simulator, Julia and C++.", "Julia + C++ simulator")
    assert one["kind"] == two["kind"] == "single_subject"
    assert ok(api.get(f"/v1/understandings/{one['id']}"))["superseded_by"] == [two["id"]]
    ok(api.post("/v1/subjects/structure", json={"subject_name": "simulator", "text": "alias: wealth_sim"}), 201)
    detail = ok(api.post("/v1/subjects/get", json={"names": ["simulator"]}))["subjects"][0]
    assert detail["single_subject_understanding"]["id"] == two["id"]
    assert detail["structural_understanding"]["summary"] == "structure of simulator"
    assert detail["last_observation_at"] is not None
    bad = api.post(
        "/v1/understandings", json={"subject_names": ["simulator"], "text": "t", "summary": "s", "kind": "relationship"}
    )
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "subject_names"


# -- bring_to_mind -----------------------------------------------------------------------------


def test_bring_to_mind_shows_each_item_once_per_session_until_the_token_is_lost(api: Api):
    conv = session(api, "conv-a")
    for text in ("Audrey paints watercolours.", "Audrey exhibited in Lisbon.", "Audrey teaches painting on Sundays."):
        remember(conv, text, "Audrey")
    first = bring(conv, "Audrey's painting", limit=2)
    assert first["compaction_detected"] is False and len(first["results"]) == 2
    assert first["compaction_note"].startswith("DISPOSABLE")
    shown = {r["id"] for r in first["results"]}
    second = bring(conv, "Audrey's painting", limit=2, last_token=first["heartbeat_token"])
    assert second["compaction_detected"] is False
    assert shown.isdisjoint(r["id"] for r in second["results"]) and len(second["results"]) == 1
    assert bring(conv, "Audrey's painting", last_token=second["heartbeat_token"], include_seen=True)["results"]

    lost = bring(conv, "Audrey's painting", limit=3, last_token=12345)  # a compacted context lost the token
    assert lost["compaction_detected"] is True and lost["reason"] == "last_token does not match"
    assert len(lost["results"]) == 3  # everything is new again
    missing = bring(conv, "Audrey's painting", limit=1)
    assert missing["compaction_detected"] is True and missing["reason"] == "last_token missing"

    other = bring(session(api, "conv-b"), "Audrey's painting", limit=3)  # another conversation saw nothing yet
    assert other["compaction_detected"] is False and len(other["results"]) == 3


def test_a_long_silence_resets_what_bring_to_mind_has_shown(memory, api: Api):
    conv = session(api, "conv-gap")
    remember(conv, "The garden needs watering on Fridays.", "garden")
    first = bring(conv, "garden chores")
    assert len(first["results"]) == 1
    second = bring(conv, "garden chores", last_token=first["heartbeat_token"])
    assert second["results"] == [] and second["compaction_detected"] is False
    age_session(memory, api.workspace, "conv-gap", hours=2)
    later = bring(conv, "garden chores", last_token=second["heartbeat_token"])
    assert later["compaction_detected"] is True and later["reason"].endswith("since the last bring_to_mind")
    assert len(later["results"]) == 1


def test_an_understanding_outranks_the_observations_it_covers(api: Api):
    o1 = remember(api, "Maya moved to Lisbon in March.", "Maya")["observation"]["id"]
    o2 = remember(api, "Maya found a flat in Alfama.", "Maya")["observation"]["id"]
    u = understand(
        api,
        ["Maya"],
        "Maya lives in Lisbon, in a flat in Alfama.",
        "Maya lives in Lisbon",
        source_observation_ids=[o1, o2],
    )
    results = ok(api.post("/v1/memory/search", json={"query": "Where does Maya live?"}))["results"]
    assert results[0]["id"] == u["id"] and results[0]["source"] == "understanding"
    assert {r["id"] for r in results[1:3]} == {o1, o2}
    assert all(r["matched_perspective"] for r in results)
    text = ok(api.post("/v1/memory/search", json={"query": "Alfama flat", "mode": "text"}))["results"]
    assert {r["id"] for r in text} == {o2, u["id"]}


# -- recall, open_around, intersections, similar subjects, merges ------------------------------


def test_recall_by_subject_reaches_its_understandings_observations_and_claims(api: Api):
    claim = api.write({"subject": "maya", "predicate": "lives_in", "object": {"entity": "lisbon"}})["claims"][0]["id"]
    cited = api.write({"subject": "flat", "predicate": "in", "object": {"entity": "alfama"}})["claims"][0]["id"]
    remember(api, "Maya has a flat in Alfama.", "Maya", cites=[cited])
    understand(api, ["Maya"], "Maya lives in Lisbon.", "Lisbon")
    out = ok(api.post("/v1/memory/recall", json={"subject": "maya"}))
    assert out["mode"] == "subject" and out["subject"]["name"] == "Maya"
    assert out["single_subject_understanding"]["summary"] == "Lisbon"
    assert [o["text"] for o in out["recent_observations"]] == ["Maya has a flat in Alfama."]
    assert {(c["id"], c["via"]) for c in out["claims"]} == {(claim, "named"), (cited, "cited")}
    question = ok(api.post("/v1/memory/recall", json={"question": "Where does Maya live?"}))
    assert question["mode"] == "question" and question["best_answer"]["content"] == "Maya lives in Lisbon."
    both = api.post("/v1/memory/recall", json={"question": "x", "subject": "Maya"})
    assert both.status_code == 422 and both.json()["error"]["field"] == "question"


def test_open_around_ranks_neighbours_by_intersection_with_similarity_and_understanding(api: Api):
    remember(api, "James and Audrey married in 2010.", "James", "Audrey")
    remember(api, "James and Audrey compare notes on Claude.", "James", "Audrey")
    remember(api, "James builds the memory system.", "James", "memory system")
    rel = understand(api, ["James", "Audrey"], "James and Audrey are married.", "married")
    around = ok(api.post("/v1/subjects/around", json={"subject": "James"}))
    assert [(n["subject"]["name"], n["intersection_size"]) for n in around["neighbors"]] == [
        ("Audrey", 3),  # two observations and the relationship understanding
        ("memory system", 1),
    ]
    assert around["neighbors"][0]["intersection_understanding"] == {"id": rel["id"], "summary": "married"}
    assert all(-1 <= n["similarity_score"] <= 1 for n in around["neighbors"])

    inter = ok(api.post("/v1/subjects/intersection", json={"subjects": ["James", "Audrey"]}))
    assert inter["relationship_understanding"]["id"] == rel["id"]
    assert inter["count"] == 2 and inter["intersection_size"] == 3


def test_similarity_means_the_same_on_any_model_so_unrelated_subjects_stay_out(memory, api: Api):
    # e5-small-v2 puts every cosine high (two unrelated sentences near 0.7): a raw cosine of 0.6 would
    # call everything similar. donto's scale starts from where the model puts unrelated texts.
    encoder = memory.encoder
    unrelated, paraphrase = (
        encoder.encode(["I water the tomatoes every morning.", "The bond yields rose sharply."]),
        encoder.encode(["melanie enjoys pottery", "melanie likes pottery"]),
    )
    assert encoder.similarity(sum(a * b for a, b in zip(*unrelated))) < 0.3
    assert encoder.similarity(sum(a * b for a, b in zip(*paraphrase))) > 0.9
    remember(api, "The wealth sim runs nightly.", "wealth simulator")
    remember(api, "wealth_sim got a C++ core.", "wealth_sim")
    remember(api, "Grandmother's birthday party was lovely.", "grandmother")
    pairs = ok(api.post("/v1/subjects/similar", json={"max_shared": 5}))["pairs"]  # min_similarity 0.6
    found = {frozenset((p["subject_a"], p["subject_b"])) for p in pairs}
    assert found == {frozenset(("wealth simulator", "wealth_sim"))}
    assert all(0.6 <= p["similarity_score"] <= 1 for p in pairs)


def test_merge_is_reversible(api: Api):
    remember(api, "The wealth sim runs nightly.", "wealth simulator")
    remember(api, "wealth_sim got a C++ core.", "wealth_sim")
    remember(api, "Both names, one thing.", "wealth simulator", "wealth_sim")
    pairs = ok(api.post("/v1/subjects/similar", json={"min_similarity": 0.5, "max_shared": 5}))["pairs"]
    assert ("wealth simulator", "wealth_sim") in {(p["subject_a"], p["subject_b"]) for p in pairs} | {
        (p["subject_b"], p["subject_a"]) for p in pairs
    }
    merged = ok(api.post("/v1/subjects/merge", json={"primary": "wealth simulator", "duplicate": "wealth_sim"}))
    assert merged["tags_moved"] == 1
    assert ok(api.get("/v1/subjects/wealth_sim"))["name"] == "wealth simulator"  # the old name resolves
    assert ok(api.get("/v1/subjects/wealth simulator"))["observations"] == 3
    assert [s["name"] for s in ok(api.get("/v1/subjects"))["subjects"]] == ["wealth simulator"]

    undone = ok(api.post("/v1/subjects/unmerge", json={"merge": "wealth_sim"}))
    assert undone["merge_id"] == merged["merge_id"] and undone["tags_moved"] == 1
    assert ok(api.get("/v1/subjects/wealth simulator"))["observations"] == 2
    assert ok(api.get("/v1/subjects/wealth_sim"))["observations"] == 2
    again = api.post("/v1/subjects/unmerge", json={"merge": merged["merge_id"]})
    assert again.status_code == 404


# -- signals, consolidation, perspectives, stats -----------------------------------------------


def test_signals_feed_ranking_and_the_consolidation_report(api: Api):
    doubtful = remember(api, "Audrey might move to Porto.", "Audrey")["observation"]["id"]
    useful = ok(api.post("/v1/memory/useful", json={"id": doubtful, "reason": "helped plan"}), 201)
    assert (useful["useful"], useful["questionable"]) == (1, 0)
    for reason in ("she denied it", "old rumour"):
        flagged = ok(api.post("/v1/memory/questionable", json={"id": doubtful, "reason": reason}), 201)
    assert (flagged["useful"], flagged["questionable"]) == (1, 2)
    report = ok(api.get("/v1/memory/consolidation"))
    assert [(q["id"], q["reason"]) for q in report["questionable_items"]] == [(doubtful, "old rumour")]
    missing = api.post("/v1/memory/useful", json={"id": "nope"})
    assert missing.status_code == 404 and missing.json()["error"]["field"] == "id"


def test_consolidation_report_and_generations(api: Api):
    remember(api, "James and Audrey married in 2010.", "James", "Audrey")
    remember(api, "James and Audrey live in Lisbon.", "James", "Audrey")
    remember(api, "James and Audrey both code.", "James", "Audrey")
    remember(api, "James builds the memory system.", "James", "memory system")
    report = ok(api.get("/v1/memory/consolidation", params={"min_similarity": -1}))
    assert report["generation"] == 0
    assert {s["name"] for s in report["subjects_needing_understanding"]} == {"James", "Audrey", "memory system"}
    pairs = {(i["subject_a"], i["subject_b"]): i for i in report["intersections_needing_synthesis"]}
    assert (
        pairs[("Audrey", "James")]["new_generation_count"] == 3 and pairs[("Audrey", "James")]["intersection_size"] == 3
    )
    assert [(d["subject_a"], d["subject_b"]) for d in report["semantically_dense_intersections"]] == [
        ("Audrey", "James")
    ]
    assert len(report["unlinked_observations"]) == 4

    understand(api, ["James", "Audrey"], "Married, in Lisbon, both code.", "married")
    understand(api, ["James"], "Engineer, married to Audrey.", "James")
    after = ok(api.get("/v1/memory/consolidation", params={"min_similarity": -1}))
    assert after["semantically_dense_intersections"] == []
    assert {s["name"] for s in after["subjects_needing_understanding"]} == {"Audrey", "memory system"}
    assert [o["text"] for o in after["unlinked_observations"]] == ["James builds the memory system."] or len(
        after["unlinked_observations"]
    ) == 0

    closed = ok(api.post("/v1/memory/consolidation"))
    assert (closed["previous_generation"], closed["generation"]) == (0, 1)
    new = remember(api, "Audrey started a pottery class.", "Audrey")
    assert new["observation"]["generation"] == 1
    assert ok(api.get("/v1/memory/consolidation"))["intersections_needing_synthesis"] == []
    remember(api, "James joined the pottery class too.", "James", "Audrey")
    latest = ok(api.get("/v1/memory/consolidation"))["intersections_needing_synthesis"]
    assert [(i["new_generation_count"], i["existing_understanding"]["summary"]) for i in latest] == [(1, "married")]


def test_perspectives_stats_and_events(api: Api):
    names = [p["name"] for p in ok(api.get("/v1/memory/perspectives"))["perspectives"]]
    assert names == ["general", "technical", "relational", "temporal", "project"]
    remember(session(api, "s1"), "The API runs on FastAPI.", "donto")
    ok(
        api.post("/v1/memory/perspectives", json={"name": "legal", "instruction": "Represent for legal questions:"}),
        201,
    )
    dup = api.post("/v1/memory/perspectives", json={"name": "legal", "instruction": "again"})
    assert dup.status_code == 409 and dup.json()["error"]["field"] == "name"
    remember(api, "The licence is Apache-2.0.", "donto")
    stats = ok(api.get("/v1/memory/stats"))
    assert (stats["subjects"], stats["observations"], stats["generation"]) == (1, 2, 0)
    assert stats["perspectives"][-1] == "legal" and stats["embedding_model"] == "e5-small-v2"
    assert stats["embedding_coverage"] == 0.5  # the first observation predates the sixth perspective
    events = ok(api.get("/v1/memory/events", params={"session_id": "s1"}))["events"]
    assert [e["operation"] for e in events] == ["remember"]


def test_memory_stats_counts_kept_conversations_apart_from_agent_sessions(api: Api):
    for conversation in ("chat-1", "chat-2"):  # two conversations kept, as add_turns keeps them
        turns = [{"external_id": "t1", "speaker": "ann", "text": f"Hello from {conversation}."}]
        ok(api.post("/v1/episodes", json={"session": {"external_id": conversation}, "turns": turns}), 201)
    assert (ok(api.get("/v1/memory/stats"))["sessions"], ok(api.get("/v1/memory/stats"))["agent_sessions"]) == (2, 0)
    orient(session(api, "agent-1"))  # an agent session of the curated memory is no kept conversation
    stats = ok(api.get("/v1/memory/stats"))
    assert (stats["sessions"], stats["agent_sessions"]) == (2, 1)


def test_memory_is_isolated_between_workspaces(client, api: Api):
    other = Api(client, api.workspace + "-other")
    remember(api, "Secret plans for the launch.", "launch")
    assert ok(other.post("/v1/memory/search", json={"query": "launch plans"}))["results"] == []
    assert bring(other, "launch plans")["results"] == []
    assert ok(other.get("/v1/memory/stats"))["observations"] == 0
    assert other.post("/v1/memory/recall", json={"subject": "launch"}).status_code == 404


# -- a long scripted agent session -------------------------------------------------------------


SUBJECTS = ["James", "Audrey", "memory system", "continuity", "wealth simulator"]


def test_a_long_agent_session(memory, api: Api):
    """orient on an empty memory; write soul, protocol and orientation; remember thirty observations
    across overlapping subjects; open an intersection; update an understanding twice and read its
    history; bring memory to mind; then a compaction gap, and orient reports it."""
    conv = session(api, "session-1")
    empty = orient(conv)
    assert empty["soul"] is None and empty["pending_consolidation_count"] == 0 and empty["session"]["new"] is True

    understand(conv, [], "Curious, candid, careful with claims.", "soul", kind="soul")
    understand(conv, [], "Tag only what an observation is about.", "protocol", kind="protocol")
    understand(conv, [], "Working on donto's subject layer.", "orientation", kind="orientation")

    pairs = [(a, b) for i, a in enumerate(SUBJECTS) for b in SUBJECTS[i + 1 :]]
    for n in range(30):
        a, b = pairs[n % len(pairs)]
        tagged = [a, b] if n % 3 else [a]
        remember(conv, f"Observation {n}: {a} and {b} came up in conversation {n // 5}.", *tagged)

    oriented = orient(conv)
    assert [oriented[k]["summary"] for k in ("soul", "protocol", "orientation")] == ["soul", "protocol", "orientation"]
    assert (
        oriented["soul"]["compaction_note"].startswith("CRITICAL")
        and oriented["orientation"]["compaction_note"] is None
    )
    assert oriented["pending_consolidation_count"] == 30
    assert set(oriented["recent_activity"]["subjects_with_new_observations"]) == set(SUBJECTS)
    assert oriented["session"]["compaction_suspected"] is False  # nothing was shown yet: a re-orient is harmless

    inter = ok(conv.post("/v1/subjects/intersection", json={"subjects": ["James", "Audrey"]}))
    assert inter["count"] == 2 and inter["relationship_understanding"] is None
    first = understand(conv, ["James", "Audrey"], "They talk often.", "v1")
    second = revise(conv, first["id"], "They are married and talk often.", "v2")
    third = revise(conv, second["new_understanding_id"], "Married; compare notes on AI continuity.", "v3")
    history = ok(conv.get(f"/v1/understandings/{third['new_understanding_id']}/history"))
    assert [v["summary"] for v in history["versions"]] == ["v1", "v2", "v3"]
    assert (
        ok(conv.post("/v1/subjects/intersection", json={"subjects": ["Audrey", "James"]}))[
            "relationship_understanding"
        ]["summary"]
        == "v3"
    )

    brought = bring(conv, "Are James and Audrey married?", limit=5)
    ids = [r["id"] for r in brought["results"]]
    assert third["new_understanding_id"] in ids  # the active version, never a superseded one
    assert first["id"] not in ids and second["new_understanding_id"] not in ids
    pending = orient(conv)["pending_consolidation_count"]
    assert pending == 28  # the two James–Audrey observations are covered by the newer relationship understanding

    age_session(memory, api.workspace, "session-1", hours=3)  # the client went quiet, then came back compacted
    resumed = orient(conv)
    assert resumed["session"]["compaction_suspected"] is True and resumed["seen_cleared"] == 0
    assert "minutes since this session's last call" in resumed["session"]["reason"]

    reoriented = bring(conv, "Are James and Audrey married?", limit=5)
    assert reoriented["compaction_detected"] is True  # the heartbeat was never passed back

    next_session = orient(session(api, "session-2"))
    assert next_session["session"]["new"] is True and next_session["session"]["previous_session_id"] == "session-1"
    stats = ok(api.get("/v1/memory/stats"))
    assert (stats["subjects"], stats["observations"], stats["active_understandings"]) == (5, 30, 4)
    assert stats["embedding_coverage"] == 1.0 and stats["agent_sessions"] == 2


@pytest.mark.parametrize(
    "header",
    ["", "has space", "x" * 129],
)
def test_a_bad_session_header_is_422(api: Api, header: str):
    response = api.post("/v1/memory/orient", headers={"X-Donto-Session": header})
    assert response.status_code == 422 and response.json()["error"]["field"].lower() == "x-donto-session"


def test_reembed_gives_every_memory_item_the_configured_models_vectors(memory, api: Api):
    remember(api, "Maya runs on Saturdays.", "Maya")
    understand(api, ["Maya"], "Maya is a runner.", "runner")
    memory.graph.driver.execute_query(  # as vectors from another model would be: not read by search
        "MATCH (v:PerspectiveVector {workspace: $w}) SET v.model = 'old-model'", {"w": api.workspace}
    )
    assert ok(api.get("/v1/memory/stats"))["embedding_coverage"] == 0.0
    assert ok(api.post("/v1/memory/search", json={"query": "running"}))["results"] == []
    done = memory.reembed(report=lambda _: None)
    assert done["observations"] >= 1 and done["understandings"] >= 1 and done["subjects"] >= 1
    assert ok(api.get("/v1/memory/stats"))["embedding_coverage"] == 1.0
    assert ok(api.post("/v1/memory/search", json={"query": "running"}))["results"][0]["content"] == "Maya is a runner."
