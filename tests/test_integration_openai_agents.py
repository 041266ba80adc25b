"""DontoSession, the OpenAI Agents SDK's Session over donto's client, against the real server (uvicorn
on a loopback port, the suite's Neo4j) and the real SDK: items of every kind kept exactly and in
order, the latest N, pop (retracted, still readable as known before), clear, sessions apart, recall
of what was said, and Runner.run with the SDK's own scripted model remembering across runs."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import pytest

pytest.importorskip("agents", reason='the openai-agents extra: pip install "donto-memory[openai-agents]"')

from agents import Agent, RunConfig, Runner, function_tool  # noqa: E402
from agents.testing import ScriptedModel, assistant_message, function_call  # noqa: E402

import donto  # noqa: E402
from donto.integrations.openai_agents import DontoSession  # noqa: E402
from donto.metadata import MAX_METADATA_BYTES  # noqa: E402
from support import ADMIN_KEY  # noqa: E402

T = TypeVar("T")

ITEMS: list[Any] = [
    {"role": "user", "content": "Book the Lisbon office for Thursday."},
    {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Check the room calendar."}]},
    {"type": "function_call", "call_id": "call_1", "name": "book_room", "arguments": '{"city":"Lisbon","day":"thu"}'},
    {"type": "function_call_output", "call_id": "call_1", "output": "Booked: Lisbon boardroom, door code 4417."},
    {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "status": "completed",
        "content": [
            {"type": "output_text", "text": "Booked; the door code is 4417.", "annotations": [], "logprobs": []}
        ],
    },
    {"role": "user", "content": [{"type": "input_text", "text": "Thanks — ação ✓"}]},
    {"type": "item_reference", "id": "msg_0"},
]


@pytest.fixture
def workspace() -> str:
    return f"agents-{uuid.uuid4().hex[:10]}"


@pytest.fixture
def within(url, workspace) -> Callable[[Callable[[donto.AsyncClient], Awaitable[T]]], T]:
    """Run `work(client)` in one event loop with an AsyncClient of the test's workspace."""

    def run(work: Callable[[donto.AsyncClient], Awaitable[T]]) -> T:
        async def main() -> T:
            async with donto.AsyncClient(url, api_key=ADMIN_KEY, workspace=workspace) as client:
                return await work(client)

        return asyncio.run(main())

    return run


def test_items_of_every_kind_round_trip_exactly_and_in_order(within):
    big = {"type": "function_call_output", "call_id": "call_2", "output": 'rows: "a\\b" ✓ ' * (MAX_METADATA_BYTES // 4)}

    async def work(client):
        session = DontoSession("chat-every-kind", client=client)
        await session.add_items(ITEMS[:3])
        await session.add_items([*ITEMS[3:], big])
        page = await client.session_turns("chat-every-kind", limit=1000)
        return await session.get_items(), page

    items, page = within(work)
    assert items == [*ITEMS, big]
    said = [(t.speaker, t.text) for t in page.turns[:4]]
    assert said == [
        ("user", "Book the Lisbon office for Thursday."),
        ("reasoning", "Check the room calendar."),
        ("function_call", 'book_room({"city":"Lisbon","day":"thu"})'),
        ("function_call_output", "Booked: Lisbon boardroom, door code 4417."),
    ]
    assert len(page.turns) > len(ITEMS) + 1  # the big output went in parts


def test_get_items_with_a_limit_is_the_latest_in_order_and_settings_give_the_default(within):
    async def work(client):
        session = DontoSession("chat-limit", client=client)
        await session.add_items(ITEMS)
        limited = DontoSession("chat-limit", client=client, session_settings={"limit": 2})
        return await session.get_items(3), await session.get_items(100), await limited.get_items()

    three, all_of_them, by_settings = within(work)
    assert three == ITEMS[-3:]
    assert all_of_them == ITEMS
    assert by_settings == ITEMS[-2:]


def test_pop_item_returns_the_latest_gone_from_current_reads_but_known_before(within):
    async def work(client):
        session = DontoSession("chat-pop", client=client)
        assert await session.pop_item() is None  # nothing added yet
        await session.add_items(ITEMS[:4])
        before = (await client.session_turns("chat-pop", limit=10)).turns[-1].recorded_at
        popped = await session.pop_item()
        as_known_then = await client.session_turns("chat-pop", limit=10, known_at=before)
        return popped, await session.get_items(), as_known_then

    popped, now, then = within(work)
    assert popped == ITEMS[3]
    assert now == ITEMS[:3]
    assert [t.metadata for t in then.turns][-1] == {"openai_agents_item": ITEMS[3]}


def test_popping_a_split_item_retracts_all_its_parts(within):
    big = {"type": "function_call_output", "call_id": "c", "output": "x" * (3 * MAX_METADATA_BYTES)}

    async def work(client):
        session = DontoSession("chat-pop-big", client=client)
        await session.add_items([ITEMS[0], big])
        popped = await session.pop_item()
        return popped, await session.get_items(), await client.session_turns("chat-pop-big", limit=100)

    popped, items, page = within(work)
    assert popped == big and items == [ITEMS[0]]
    assert len(page.turns) == 1


def test_clear_session_empties_it_and_later_items_follow(within):
    async def work(client):
        session = DontoSession("chat-clear", client=client)
        await DontoSession("chat-never-used", client=client).clear_session()  # nothing to clear: no error
        await session.add_items(ITEMS)
        await session.clear_session()
        cleared = await session.get_items()
        await session.add_items(ITEMS[:1])
        return cleared, await session.get_items()

    cleared, after = within(work)
    assert cleared == []
    assert after == ITEMS[:1]


def test_two_sessions_keep_their_own_items(within):
    async def work(client):
        ada, bob = DontoSession("chat-ada", client=client), DontoSession("chat-bob", client=client)
        await asyncio.gather(ada.add_items(ITEMS[:2]), bob.add_items(ITEMS[2:4]))
        await ada.clear_session()
        return await ada.get_items(), await bob.get_items()

    ada, bob = within(work)
    assert ada == []
    assert bob == ITEMS[2:4]


def test_concurrent_writers_to_one_session_keep_every_item_and_each_call_s_order(within):
    calls = [[{"role": "user", "content": f"writer {w} line {i}"} for i in range(5)] for w in range(4)]

    async def work(client):
        writers = [DontoSession("chat-shared", client=client) for _ in calls]
        await asyncio.gather(*(s.add_items(items) for s, items in zip(writers, calls)))
        return await writers[0].get_items()

    items = within(work)
    assert sorted(i["content"] for i in items) == sorted(i["content"] for c in calls for i in c)
    for call in calls:  # each call's items side by side, in its order
        start = items.index(call[0])
        assert items[start : start + len(call)] == call


def test_what_was_said_is_recalled_like_any_conversation(within):
    async def work(client):
        await DontoSession("chat-recall", client=client).add_items(ITEMS)
        await DontoSession("chat-elsewhere", client=client).add_items(
            [{"role": "user", "content": "The Porto office door code is 9921."}]
        )
        return await client.recall("What is the Lisbon boardroom door code?", k=5, sessions=["chat-recall"])

    bundle = within(work)
    assert any("4417" in item.text for item in bundle.items)
    assert not any("9921" in item.text for item in bundle.items)


def test_a_session_made_from_the_environment_reaches_the_same_donto(url, workspace, monkeypatch):
    monkeypatch.setenv("DONTO_URL", url)
    monkeypatch.setenv("DONTO_API_KEY", ADMIN_KEY)
    monkeypatch.setenv("DONTO_WORKSPACE", workspace)

    async def work():
        async with DontoSession("chat-env") as session:
            await session.add_items(ITEMS[:1])
        async with donto.AsyncClient(url, api_key=ADMIN_KEY, workspace=workspace) as client:
            return await DontoSession("chat-env", client=client).get_items()

    assert asyncio.run(work()) == ITEMS[:1]


def test_a_session_refuses_a_blank_id_a_sync_client_and_a_client_with_an_address(url):
    with pytest.raises(ValueError, match="external id"):
        DontoSession("  ", base_url=url)
    with donto.Client(url, api_key=ADMIN_KEY) as sync, pytest.raises(TypeError, match="donto.AsyncClient"):
        DontoSession("chat", client=sync)  # type: ignore[arg-type]

    async def both():
        async with donto.AsyncClient(url, api_key=ADMIN_KEY) as client:
            DontoSession("chat", client=client, workspace="elsewhere")

    with pytest.raises(TypeError, match="not both"):
        asyncio.run(both())


@function_tool
def book_room(city: str, day: str) -> str:
    """Book the city's office for the day."""
    return f"Booked: {city} boardroom on {day}, door code 4417."


def test_runner_runs_with_a_donto_session_and_the_second_run_sees_the_first(within):
    model = ScriptedModel(
        [
            [function_call("book_room", {"city": "Lisbon", "day": "thu"}, call_id="call_1")],
            [assistant_message("Booked; the door code is 4417.")],
            [assistant_message("You booked Lisbon for Thursday.")],
        ]
    )
    agent = Agent(name="office", instructions="Book offices.", model=model, tools=[book_room])
    config = RunConfig(tracing_disabled=True)

    async def work(client):
        session = DontoSession("chat-runner", client=client)
        first = await Runner.run(agent, "Book Lisbon for Thursday.", session=session, run_config=config)
        second = await Runner.run(agent, "What did I book?", session=session, run_config=config)
        bundle = await client.recall("door code for the Lisbon boardroom", k=5, sessions=["chat-runner"])
        return first.final_output, second.final_output, await session.get_items(), bundle

    first, second, items, bundle = within(work)
    assert (first, second) == ("Booked; the door code is 4417.", "You booked Lisbon for Thursday.")
    model.assert_complete()
    seen = model.last_call.input  # the second run's model call: the first run's history, then the question
    assert [i.get("role") or i.get("type") for i in seen] == [
        "user",
        "function_call",
        "function_call_output",
        "assistant",
        "user",
    ]
    assert seen[2]["output"] == "Booked: Lisbon boardroom on thu, door code 4417."
    assert items[:-1] == seen and items[-1]["role"] == "assistant"
    assert any("4417" in item.text for item in bundle.items)
