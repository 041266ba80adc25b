"""A conversation read back, through REST: a session's turns in order on both time axes, paged both
ways; the workspace's sessions; per-turn metadata kept exactly; empty messages; retraction of a turn
or of a whole session (gone from every read as known now, recall included, and still there as known
before); recall kept to sessions; 404s naming the thing; one workspace never reaching another's."""

from __future__ import annotations

import uuid

import pytest

from support import Api

NESTED = {
    "role": "assistant",
    "tool_calls": [{"id": "call_1", "function": {"name": "lookup", "arguments": '{"q": "Zoë"}'}}],
    "scores": [1, 2.5, -3, True, None],
    "note": 'naïve café ☕ 名前 \u2028 "quoted" \\ backslash',
    "deep": {"a": {"b": {"c": {"d": {"e": {"f": "seven levels"}}}}}},
}


def post(api: Api, session: str, turns: list[dict], started: str | None = "2026-03-01T09:00:00Z") -> dict:
    body: dict = {"session": {"external_id": session}, "turns": turns}
    if started is not None:
        body["session"]["started_at"] = started
    response = api.post("/v1/episodes", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def said(n: int, prefix: str = "m", **extra) -> list[dict]:
    return [{"external_id": f"{prefix}-{i}", "speaker": "user" if i % 2 else "bot", "text": f"line {i}", **extra}
            for i in range(n)]  # fmt: skip


def turns(api: Api, session: str, **params) -> dict:
    response = api.get(f"/v1/sessions/{session}/turns", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def texts(page: dict) -> list[str]:
    return [t["text"] for t in page["turns"]]


def recall(api: Api, query: str, **extra) -> dict:
    response = api.post("/v1/recall", json={"query": query, "include_provenance": True, **extra})
    assert response.status_code == 200, response.text
    return response.json()


def recalled_turns(bundle: dict) -> set[str]:
    return {t for item in bundle["items"] if item.get("provenance") for t in item["provenance"]["turn_ids"]}


def test_a_sessions_turns_come_back_in_order_with_their_metadata_exactly(api: Api):
    posted = post(
        api,
        "chat",
        [
            {"external_id": "u1", "speaker": "user", "text": "Where is the key?", "metadata": {"role": "user"}},
            {"external_id": "a1", "speaker": "assistant", "text": "In the blue box.", "metadata": NESTED},
            {"external_id": "u2", "speaker": "user", "text": "Thanks", "occurred_at": "2026-03-01T09:05:00Z"},
        ],
    )
    page = turns(api, "chat")
    assert [t["external_id"] for t in page["turns"]] == ["u1", "a1", "u2"]
    assert [t["seq"] for t in page["turns"]] == [0, 1, 2]
    assert [t["metadata"] for t in page["turns"]] == [{"role": "user"}, NESTED, None]
    first, _, last = page["turns"]
    assert first["occurred_at"] == "2026-03-01T09:00:00Z"  # no time of its own: the session's start
    assert last["occurred_at"] == "2026-03-01T09:05:00Z"
    assert first["recorded_at"] == posted["recorded_at"] and first["retracted_at"] is None
    assert first["session"] == "chat" and page["session_id"] == posted["session_id"]
    assert page["next_after"] is None and page["next_before"] is None
    one = api.get(f"/v1/turns/{posted['turns'][1]['id']}")
    assert one.status_code == 200 and one.json() == page["turns"][1]


def test_a_session_named_with_slashes_and_spaces_reads_back(api: Api):
    post(api, "team/chat 1", said(2))
    assert texts(turns(api, "team%2Fchat%201")) == ["line 0", "line 1"]
    assert api.request("POST", "/v1/sessions/team/chat 1/clear").json()["retracted"] == 2


def test_metadata_is_never_searched(api: Api):
    post(api, "s", [{"external_id": "t", "speaker": "bot", "text": "Hello there.", "metadata": {"x": "zanzibarquux"}}])
    assert recall(api, "zanzibarquux", arms=["fulltext"])["items"] == []


@pytest.mark.parametrize(
    "metadata, says",
    [
        ({"blob": "x" * (16 * 1024)}, "bytes as JSON"),
        ({"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {}}}}}}}}}, "levels deep"),
        ("not an object", "dictionary"),
    ],
)
def test_metadata_past_its_bounds_is_refused_naming_the_field_and_nothing_is_written(api: Api, metadata, says):
    body = {
        "session": {"external_id": "bounded"},
        "turns": [{"external_id": "ok", "speaker": "a", "text": "fine"}, {"external_id": "big", "speaker": "a",
                                                                          "text": "x", "metadata": metadata}],
    }  # fmt: skip
    response = api.post("/v1/episodes", json=body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["field"] == "turns[1].metadata" and says in error["message"]
    assert api.get("/v1/sessions/bounded/turns").status_code == 404  # not even the first turn


def test_paging_forwards_and_backwards_hands_out_every_turn_once(api: Api):
    post(api, "long", said(23))
    everything = [f"line {i}" for i in range(23)]

    forwards, page = [], turns(api, "long", limit=5)
    while True:
        forwards += texts(page)
        if page["next_after"] is None:
            break
        page = turns(api, "long", limit=5, after=page["next_after"])
    assert forwards == everything

    backwards, page = [], turns(api, "long", limit=5, latest="true")
    assert texts(page) == everything[-5:]  # the last five, still in order
    while True:
        backwards = texts(page) + backwards
        if page["next_before"] is None:
            break
        page = turns(api, "long", limit=5, before=page["next_before"])
    assert backwards == everything

    # A turn's seq is a cursor too: what an agent keeps to ask for what came after.
    assert texts(turns(api, "long", after="20")) == ["line 21", "line 22"]
    middle = turns(api, "long", after="9", limit=3)
    assert texts(middle) == ["line 10", "line 11", "line 12"] and middle["next_before"] and middle["next_after"]
    assert texts(turns(api, "long", before=middle["next_before"], limit=2)) == ["line 8", "line 9"]


@pytest.mark.parametrize(
    "params, field",
    [
        ({"after": "not-a-cursor"}, "after"),
        ({"after": "1", "before": "5"}, "before"),
        ({"latest": "true", "before": "3"}, "latest"),
        ({"limit": 0}, "limit"),
        ({"limit": 1001}, "limit"),
        ({"valid_at": "someday"}, "valid_at"),
        ({"known_at": "someday"}, "known_at"),
        ({"cursor": "x"}, "cursor"),  # not a parameter of this read
    ],
)
def test_bad_turn_reads_are_refused_naming_the_parameter(api: Api, params, field):
    post(api, "p", said(3))
    response = api.get("/v1/sessions/p/turns", params=params)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["field"] == field


def test_a_cursor_of_another_session_is_refused(api: Api):
    post(api, "one", said(4))
    post(api, "two", said(4))
    cursor = turns(api, "one", limit=2)["next_after"]
    response = api.get("/v1/sessions/two/turns", params={"after": cursor})
    assert response.status_code == 422 and response.json()["error"]["field"] == "after"


def test_valid_at_keeps_the_turns_said_by_then(api: Api):
    post(
        api,
        "dated",
        [
            {"external_id": "a", "speaker": "x", "text": "first", "occurred_at": "2026-03-01T10:00:00Z"},
            {"external_id": "b", "speaker": "x", "text": "second", "occurred_at": "2026-03-02T10:00:00Z"},
            {"external_id": "c", "speaker": "x", "text": "undated"},  # said at the session's start
        ],
        started="2026-02-28T00:00:00Z",
    )
    assert texts(turns(api, "dated", valid_at="2026-03-01T12:00:00Z")) == ["first", "undated"]
    assert texts(turns(api, "dated", valid_at="2026-02-27")) == []
    assert texts(turns(api, "dated")) == ["first", "second", "undated"]  # no valid_at: no cut


def test_a_retracted_turn_leaves_every_read_as_known_now_and_stays_as_known_before(api: Api):
    written = post(api, "r", said(3))
    before = written["recorded_at"]
    middle = written["turns"][1]["id"]
    response = api.request("POST", f"/v1/turns/{middle}/retract", json={"reason": "sent by mistake"})
    assert response.status_code == 200, response.text
    retraction = response.json()
    assert retraction["id"] == middle and retraction["was_live"] is True

    assert texts(turns(api, "r")) == ["line 0", "line 2"]
    then = turns(api, "r", known_at=before)
    assert texts(then) == ["line 0", "line 1", "line 2"]
    assert then["turns"][1]["retracted_at"] == retraction["retracted_at"]  # and says when it left
    one = api.get(f"/v1/turns/{middle}").json()
    assert one["retracted_at"] == retraction["retracted_at"] and one["retraction_reason"] == "sent by mistake"

    [listed] = api.get("/v1/sessions").json()["sessions"]
    assert listed["turn_count"] == 2
    [listed_then] = api.get("/v1/sessions", params={"known_at": before}).json()["sessions"]
    assert listed_then["turn_count"] == 3

    again = api.request("POST", f"/v1/turns/{middle}/retract").json()
    assert again == {"id": middle, "retracted_at": retraction["retracted_at"], "was_live": False}


def test_reposting_a_retracted_turns_external_id_writes_nothing(api: Api):
    written = post(api, "again", said(2))
    api.request("POST", f"/v1/turns/{written['turns'][0]['id']}/retract")
    reposted = post(api, "again", said(2))
    assert [t["created"] for t in reposted["turns"]] == [False, False]
    assert [t["id"] for t in reposted["turns"]] == [t["id"] for t in written["turns"]]
    assert texts(turns(api, "again")) == ["line 1"]


def test_clearing_a_session_retracts_its_live_turns_and_lets_new_ones_follow(api: Api, memory):
    written = post(api, "clear", said(4))
    api.request("POST", f"/v1/turns/{written['turns'][0]['id']}/retract")
    response = api.request("POST", "/v1/sessions/clear/clear", json={"reason": "user asked"})
    assert response.status_code == 200, response.text
    cleared = response.json()
    assert cleared["retracted"] == 3 and cleared["session_id"] == written["session_id"]
    assert turns(api, "clear")["turns"] == []
    assert len(turns(api, "clear", known_at=written["recorded_at"])["turns"]) == 4
    assert api.request("POST", "/v1/sessions/clear/clear").json()["retracted"] == 0
    [listed] = api.get("/v1/sessions").json()["sessions"]
    assert listed["turn_count"] == 0 and listed["first_at"] is None and listed["last_at"] is None

    post(api, "clear", [{"external_id": "new", "speaker": "user", "text": "Starting over."}])
    [new] = turns(api, "clear")["turns"]
    assert new["text"] == "Starting over." and new["seq"] == 4
    # Embedded without the retracted turn before it: its exchange is itself alone.
    [cosine] = memory.graph.read(
        lambda tx: tx.run(
            "MATCH (t:Turn {id: $id}) RETURN vector.similarity.cosine(t.embedding, t.contextEmbedding) AS c",
            id=new["id"],
        ).value()
    )
    assert cosine == pytest.approx(1.0, abs=1e-4)


def test_a_retracted_turn_is_not_recalled_now_but_is_as_known_before(api: Api):
    written = post(
        api,
        "secret",
        [
            {"external_id": "s0", "speaker": "Ann", "text": "My locker combination is 4471 at the Riverside gym."},
            {"external_id": "s1", "speaker": "Bob", "text": "Got it, I will remember that."},
        ],
    )
    question = "What is Ann's locker combination at the Riverside gym?"
    assert "s0" in recalled_turns(recall(api, question))
    api.request("POST", f"/v1/turns/{written['turns'][0]['id']}/retract")
    for arm in (None, ["fulltext"], ["turn_vector"], ["passage_vector"], ["exchange_vector"], ["session_cover_text"]):
        extra = {"arms": arm} if arm else {}
        now = recall(api, question, **extra)
        assert "s0" not in recalled_turns(now) and all("4471" not in i["text"] for i in now["items"]), arm
    assert "s0" in recalled_turns(recall(api, question, known_at=written["recorded_at"]))

    api.request("POST", "/v1/sessions/secret/clear")
    assert recalled_turns(recall(api, question)) == set()


def test_an_empty_message_is_kept_read_back_and_never_recalled(api: Api, memory):
    written = post(
        api,
        "quiet",
        [
            {"external_id": "q", "speaker": "Paola", "text": "Did Paola book the ferry to Naxos?"},
            {"external_id": "e", "speaker": "Paola", "text": "", "metadata": {"tool_call": "book_ferry"}},
            {"external_id": "b", "speaker": "Paola", "text": "  \n "},
            {"external_id": "a", "speaker": "Marco", "text": "Yes, the ferry to Naxos leaves at nine."},
        ],
    )
    page = turns(api, "quiet")
    assert texts(page) == ["Did Paola book the ferry to Naxos?", "", "  \n ", "Yes, the ferry to Naxos leaves at nine."]
    assert page["turns"][1]["metadata"] == {"tool_call": "book_ferry"}
    empty_ids = [written["turns"][1]["id"], written["turns"][2]["id"]]
    held = memory.graph.read(
        lambda tx: tx.run(
            "MATCH (t:Turn) WHERE t.id IN $ids RETURN t.embedding IS NULL AND t.contextEmbedding IS NULL AS bare, "
            "COUNT { (t)-[:HAS_PASSAGE]->() } AS passages",
            ids=empty_ids,
        ).data()
    )
    assert held == [{"bare": True, "passages": 0}] * 2
    for question in ("Paola", "What did Paola say about the ferry?"):
        bundle = recall(api, question)
        assert bundle["items"] and not recalled_turns(bundle) & {"e", "b"}, question
        assert all(i["text"].strip() for i in bundle["items"])


def test_recall_kept_to_sessions_finds_only_their_turns(api: Api):
    post(api, "monday", [{"external_id": "m", "speaker": "Ann", "text": "I adopted a grey cat named Pixel."}])
    post(api, "tuesday", [{"external_id": "t", "speaker": "Ann", "text": "I adopted a ginger cat named Toffee."}])
    api.post("/v1/documents", json={"text": "Ann adopted a black cat named Soot.", "title": "notes"})
    question = "What cat did Ann adopt?"
    both = recall(api, question)
    assert {"m", "t"} <= recalled_turns(both)
    scoped = recall(api, question, sessions=["tuesday"])
    assert scoped["items"] and recalled_turns(scoped) == {"t"}
    assert all(i["provenance"]["session_id"] == "tuesday" for i in scoped["items"])  # no document's passage
    assert recall(api, question, sessions=["no-such-session"])["items"] == []
    for bad in ([], ["x"] * 101, [""]):
        response = api.post("/v1/recall", json={"query": question, "sessions": bad})
        assert response.status_code == 422 and response.json()["error"]["field"].startswith("sessions"), bad


def test_the_workspaces_sessions_are_listed_in_the_order_they_began_a_page_at_a_time(api: Api):
    for i in range(5):
        post(api, f"s{i}", said(i + 1), started=f"2026-03-0{i + 1}T08:00:00Z")
    first = api.get("/v1/sessions", params={"limit": 3}).json()
    assert [s["external_id"] for s in first["sessions"]] == ["s0", "s1", "s2"] and first["next_cursor"]
    rest = api.get("/v1/sessions", params={"limit": 3, "cursor": first["next_cursor"]}).json()
    assert [s["external_id"] for s in rest["sessions"]] == ["s3", "s4"] and rest["next_cursor"] is None
    s4 = rest["sessions"][1]
    assert s4["turn_count"] == 5 and s4["started_at"] == "2026-03-05T08:00:00Z"
    assert s4["first_at"] == s4["last_at"] == "2026-03-05T08:00:00Z" and s4["recorded_at"]
    assert api.get("/v1/sessions", params={"known_at": "2020-01-01"}).json()["sessions"] == []


def test_sessions_listed_under_a_prefix_are_only_those_whose_external_id_starts_with_it(api: Api):
    for name in ("adk:app/ann/1", "adk:app/bob/1", "adk:app/ann/2", "other", "adk:app/ann%2F/3"):
        post(api, name, said(1))
    names = lambda page: [s["external_id"] for s in page["sessions"]]  # noqa: E731
    ann = api.get("/v1/sessions", params={"prefix": "adk:app/ann/"}).json()
    assert names(ann) == ["adk:app/ann/1", "adk:app/ann/2"]
    first = api.get("/v1/sessions", params={"prefix": "adk:", "limit": 2}).json()
    rest = api.get("/v1/sessions", params={"prefix": "adk:", "limit": 2, "cursor": first["next_cursor"]}).json()
    assert names(first) + names(rest) == ["adk:app/ann/1", "adk:app/bob/1", "adk:app/ann/2", "adk:app/ann%2F/3"]
    assert names(api.get("/v1/sessions", params={"prefix": "zzz"}).json()) == []
    # A prefix is text, never a pattern: nothing matches a regex or a LIKE wildcard.
    assert names(api.get("/v1/sessions", params={"prefix": ".*"}).json()) == []
    refused = api.get("/v1/sessions", params={"prefix": ""})
    assert refused.status_code == 422 and "prefix" in refused.text


def test_what_the_workspace_does_not_hold_is_a_404_naming_it(api: Api):
    for method, path, field, named in [
        ("GET", "/v1/sessions/nowhere/turns", "session", "'nowhere'"),
        ("POST", "/v1/sessions/nowhere/clear", "session", "'nowhere'"),
        ("GET", "/v1/turns/no-such-turn", "turn_id", "'no-such-turn'"),
        ("POST", "/v1/turns/no-such-turn/retract", "turn_id", "'no-such-turn'"),
    ]:
        response = api.request(method, path)
        assert response.status_code == 404, (method, path)
        error = response.json()["error"]
        assert error["code"] == "not_found" and error["field"] == field and named in error["message"], error


def test_one_workspace_never_reaches_anothers_sessions(client, memory, api: Api):
    written = post(api, "private", said(2))
    turn_id = written["turns"][0]["id"]
    other = Api(client, "t-" + uuid.uuid4().hex[:12])
    assert other.get("/v1/sessions/private/turns").status_code == 404
    assert other.get(f"/v1/turns/{turn_id}").status_code == 404
    assert other.request("POST", f"/v1/turns/{turn_id}/retract").status_code == 404
    assert other.request("POST", "/v1/sessions/private/clear").status_code == 404
    assert other.get("/v1/sessions").json()["sessions"] == []
    assert len(turns(api, "private")["turns"]) == 2  # untouched

    issued = memory.keys.create(other.workspace)
    bound = Api(client, api.workspace, key=issued.key)  # a key of one workspace naming another
    assert bound.get("/v1/sessions/private/turns").status_code == 403
    own = Api(client, other.workspace, key=issued.key)
    assert own.get("/v1/sessions/private/turns").status_code == 404 and own.get("/v1/sessions").json()["sessions"] == []
