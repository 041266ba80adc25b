"""LangGraph's BaseStore on donto (donto.integrations.langgraph.DontoStore), through the real client
against the real server (uvicorn on a loopback port, the suite's Neo4j) and real LangGraph: ops in a
batch by position, exact values back, puts that never overwrite (as known before, the old value), a
delete that retracts, search by meaning within a namespace prefix, filters, paging, namespaces, the
sync and async paths, and a compiled StateGraph whose node keeps memories in the store."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from typing import TypedDict

import pytest
from langgraph.config import get_store
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import BaseStore, GetOp, ListNamespacesOp, PutOp, SearchOp

import donto
from donto.integrations.langgraph import DontoStore
from support import ADMIN_KEY


@pytest.fixture
def workspace() -> str:
    return f"lg-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def store(url, workspace) -> Iterator[DontoStore]:
    made = DontoStore(base_url=url, api_key=ADMIN_KEY, workspace=workspace)
    yield made
    made.close()


def test_a_batch_answers_each_op_by_position(store):
    results = store.batch(
        [
            PutOp(("users", "ann"), "prefs", {"food": "pizza"}),
            GetOp(("users", "ann"), "prefs"),
            GetOp(("users", "ann"), "missing"),
            SearchOp(("users",), limit=5),
            ListNamespacesOp(),
            PutOp(("users", "bob"), "prefs", {"food": "ramen"}),
        ]
    )
    assert len(results) == 6 and results[0] is None and results[5] is None
    assert results[1].value == {"food": "pizza"} and results[1].key == "prefs"
    assert results[1].namespace == ("users", "ann")
    assert results[2] is None
    assert [i.key for i in results[3]] == ["prefs"]
    assert results[4] == [("users", "ann")]
    assert store.list_namespaces() == [("users", "ann"), ("users", "bob")]


def test_values_come_back_exactly_nested_and_unicode(store):
    value = {
        "name": "Zoë 日本語 🐍",
        "nested": {"list": [1, 2.5, None, True, {"deep": ["a", {"b": "c"}]}], "empty": {}},
        "n": -3,
        "quote": 'he said "hi"\nand left',
    }
    store.put(("people", "z/ö#%"), "key with / and # and %", value)
    item = store.get(("people", "z/ö#%"), "key with / and # and %")
    assert item is not None and item.value == value
    assert item.namespace == ("people", "z/ö#%") and item.key == "key with / and # and %"
    assert item.created_at == item.updated_at


def test_a_second_put_is_a_new_revision_and_the_first_is_still_known_as_before(store):
    store.put(("users", "ann"), "city", {"city": "Lisbon"})
    first = store.get(("users", "ann"), "city")
    store.put(("users", "ann"), "city", {"city": "Porto"})
    now = store.get(("users", "ann"), "city")
    assert now.value == {"city": "Porto"}
    assert now.created_at == first.created_at and now.updated_at > first.updated_at
    then = store.get(("users", "ann"), "city", known_at=first.updated_at)
    assert then.value == {"city": "Lisbon"}


def test_a_delete_retracts_and_the_item_is_still_known_as_before(store):
    store.put(("users", "ann"), "mood", {"mood": "sunny"})
    kept = store.get(("users", "ann"), "mood")
    store.delete(("users", "ann"), "mood")
    assert store.get(("users", "ann"), "mood") is None
    assert store.search(("users", "ann")) == []
    assert store.get(("users", "ann"), "mood", known_at=kept.updated_at).value == {"mood": "sunny"}
    store.delete(("users", "ann"), "mood")  # deleting what is gone changes nothing
    store.put(("users", "ann"), "mood", {"mood": "sunny"})  # the same value again is the item again, new
    again = store.get(("users", "ann"), "mood")
    assert again.value == {"mood": "sunny"} and again.created_at > kept.created_at


def test_a_search_by_meaning_finds_the_matching_item_first_and_never_outside_the_prefix(store):
    store.put(("memories", "ann"), "food", {"text": "Ann's favourite food is spicy Thai green curry"})
    store.put(("memories", "ann"), "sport", {"text": "Ann plays tennis every Saturday morning"})
    store.put(("memories", "ann"), "work", {"text": "Ann works as a nurse at the city hospital"})
    store.put(("memories", "bob"), "food", {"text": "Bob's favourite food is spicy Thai green curry"})
    store.put(("memories", "ann"), "secret", {"text": "Ann's favourite food is curry"}, index=False)

    found = store.search(("memories", "ann"), query="What does Ann like to eat?", limit=3)
    assert found and found[0].key == "food" and found[0].namespace == ("memories", "ann")
    assert all(i.namespace == ("memories", "ann") for i in found)
    assert all(i.key != "secret" for i in found)  # index=False: gettable, never searched
    assert store.get(("memories", "ann"), "secret") is not None
    scores = [i.score for i in found]
    assert all(s is not None and 0 <= s <= 1 for s in scores) and scores == sorted(scores, reverse=True)


def test_the_indexed_fields_are_the_stores_or_the_puts(url, workspace):
    store = DontoStore(base_url=url, api_key=ADMIN_KEY, workspace=workspace, index={"fields": ["summary"]})
    store.put(("docs",), "cake", {"summary": "a recipe for lemon drizzle cake", "body": "tax return deadlines"})
    tax = {"summary": "lemon drizzle cake", "body": "tax return filing deadlines"}
    store.put(("docs",), "tax", tax, index=["body"])
    assert store.search(("docs",), query="How do I bake a lemon cake?")[0].key == "cake"
    assert store.search(("docs",), query="When is the tax return due?")[0].key == "tax"
    store.close()


@pytest.mark.parametrize(
    ("filter", "keys"),
    [
        ({"n": {"$eq": 2}}, ["k2"]),
        ({"n": {"$ne": 2}}, ["k1", "k3"]),
        ({"n": {"$gt": 2}}, ["k3"]),
        ({"n": {"$gte": 2}}, ["k2", "k3"]),
        ({"n": {"$lt": 2}}, ["k1"]),
        ({"n": {"$lte": 2}}, ["k1", "k2"]),
        ({"colour": "red"}, ["k1", "k3"]),
    ],
)
def test_a_filter_keeps_the_items_its_operator_passes(store, filter, keys):
    for n, colour in ((1, "red"), (2, "blue"), (3, "red")):
        store.put(("things",), f"k{n}", {"n": n, "colour": colour, "text": f"thing number {n}"})
    assert [i.key for i in store.search(("things",), filter=filter)] == keys
    with_query = store.search(("things",), query="thing number", filter=filter)
    assert sorted(i.key for i in with_query) == keys


def test_limit_and_offset_page_through_a_namespace(store):
    store.batch([PutOp(("pages",), f"k{i:02d}", {"i": i}) for i in range(7)])
    assert [i.key for i in store.search(("pages",), limit=3)] == ["k00", "k01", "k02"]
    assert [i.key for i in store.search(("pages",), limit=3, offset=3)] == ["k03", "k04", "k05"]
    assert [i.key for i in store.search(("pages",), limit=3, offset=6)] == ["k06"]
    assert [i.value["i"] for i in store.search(("pages",), filter={"i": {"$gte": 2}}, limit=2, offset=1)] == [3, 4]


def test_namespaces_are_listed_by_prefix_suffix_and_depth(store):
    for namespace in [("a", "b", "c"), ("a", "b", "d", "e"), ("a", "b", "d", "i"), ("a", "b", "f"), ("a", "c", "f")]:
        store.put(namespace, "k", {"v": 1})
    assert store.list_namespaces(prefix=("a", "b"), max_depth=3) == [("a", "b", "c"), ("a", "b", "d"), ("a", "b", "f")]
    assert store.list_namespaces(suffix=("f",)) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(prefix=("a", "*", "f")) == [("a", "b", "f"), ("a", "c", "f")]
    assert store.list_namespaces(max_depth=2) == [("a", "b"), ("a", "c")]
    assert store.list_namespaces(limit=2, offset=1) == [("a", "b", "d", "e"), ("a", "b", "d", "i")]


def test_the_async_path_works_alike_on_an_async_client(url, workspace):
    async def run() -> None:
        async with donto.AsyncClient(url, api_key=ADMIN_KEY, workspace=workspace) as client:
            store = DontoStore(client)
            await store.aput(("async", "ns"), "k", {"text": "the ferry leaves at nine", "n": 1})
            await store.aput(("async", "ns"), "k", {"text": "the ferry leaves at ten", "n": 2})
            item = await store.aget(("async", "ns"), "k")
            assert item.value["n"] == 2
            assert (await store.aget(("async", "ns"), "k", known_at=item.created_at)).value["n"] == 1
            [found] = await store.asearch(("async",), query="When does the ferry leave?")
            assert found.key == "k" and found.score is not None
            [batch_get, namespaces] = await store.abatch([GetOp(("async", "ns"), "k"), ListNamespacesOp()])
            assert batch_get.value["n"] == 2 and namespaces == [("async", "ns")]
            await store.adelete(("async", "ns"), "k")
            assert await store.aget(("async", "ns"), "k") is None
            with pytest.raises(TypeError, match="async"):
                store.get(("async", "ns"), "k")

    asyncio.run(run())


def test_a_sync_client_serves_the_async_methods_in_a_thread(url, workspace):
    with donto.Client(url, api_key=ADMIN_KEY, workspace=workspace) as client:
        store = DontoStore(client)
        asyncio.run(store.aput(("t",), "k", {"v": "x"}))
        assert store.get(("t",), "k").value == {"v": "x"}


class State(TypedDict):
    user: str
    said: str
    recalled: list[str]


def remember_and_recall(state: State) -> dict:
    store = get_store()
    namespace = ("memories", state["user"])
    store.put(namespace, f"m{len(store.search(namespace, limit=100))}", {"text": state["said"]})
    return {"recalled": [i.value["text"] for i in store.search(namespace, query="what pet does the user have?")]}


def answer(state: State, *, store: BaseStore) -> dict:
    kept = store.get(("memories", state["user"]), "m0")
    return {"recalled": [*state["recalled"], f"first memory: {kept.value['text']}"]}


def test_a_compiled_state_graph_keeps_and_reads_memories_in_the_store(store):
    builder = StateGraph(State)
    builder.add_node("remember_and_recall", remember_and_recall)
    builder.add_node("answer", answer)
    builder.add_edge(START, "remember_and_recall")
    builder.add_edge("remember_and_recall", "answer")
    builder.add_edge("answer", END)
    graph = builder.compile(store=store)

    graph.invoke({"user": "ann", "said": "I have a grey cat called Miso", "recalled": []})
    out = graph.invoke({"user": "ann", "said": "I work in a bakery", "recalled": []})
    assert out["recalled"][0] == "I have a grey cat called Miso"
    assert out["recalled"][-1] == "first memory: I have a grey cat called Miso"
    other = graph.invoke({"user": "bob", "said": "I like jazz", "recalled": []})
    assert "I have a grey cat called Miso" not in other["recalled"]
    assert store.list_namespaces(prefix=("memories",)) == [("memories", "ann"), ("memories", "bob")]
