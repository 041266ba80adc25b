"""Google ADK's memory over donto, driven by ADK itself: run in .venv-adk (`make adk-venv`) by
tests/test_integration_adk.py against the suite's server (DONTO_URL, DONTO_API_KEY, DONTO_WORKSPACE),
never collected by the main suite. It prints one JSON report of what it saw; the test asserts on it.

A real Runner over an InMemorySessionService drives a scripted agent (no model): it books a room
through a function call and its response (events with no words), says the door code, and saves its
session to memory after each turn from its after_agent_callback, as ADK's docs suggest; in a later
session it answers from memory through the invocation's memory service, as ADK's load_memory tool
does. The scenario then adds the sessions again, searches as other users and apps, and uses
add_events_to_memory, add_memory and delete_memory."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections.abc import AsyncGenerator
from typing import Any

from google.adk.agents.base_agent import BaseAgent
from google.adk.agents.invocation_context import InvocationContext
from google.adk.events.event import Event
from google.adk.memory.memory_entry import MemoryEntry
from google.adk.runners import Runner
from google.adk.sessions.in_memory_session_service import InMemorySessionService
from google.adk.sessions.session import Session
from google.genai import types

import donto
from donto.integrations.adk import DontoMemoryService

REPLIES = {
    "Book the Lisbon office for Thursday.": "Booked: the Lisbon boardroom on Thursday, door code 4417.",
    "My locker at the gym is number 9921.": "Noted: your gym locker is 9921.",
    "I take my coffee with oat milk.": "Noted: oat milk in your coffee.",
}


class OfficeAgent(BaseAgent):
    """Books rooms and answers from memory, scripted: what it says follows from the user's words."""

    async def _run_async_impl(self, ctx: InvocationContext) -> AsyncGenerator[Event, None]:
        said = " ".join(p.text for p in (ctx.user_content.parts or []) if p.text) if ctx.user_content else ""
        if said.startswith("What"):
            assert ctx.memory_service is not None
            found = await ctx.memory_service.search_memory(
                app_name=ctx.session.app_name, user_id=ctx.session.user_id, query=said
            )
            first = found.memories[0].content.parts[0].text if found.memories else "nothing"
            yield self.says(ctx, f"From memory: {first}")
            return
        if "Book" in said:
            call = types.Part.from_function_call(name="book_room", args={"city": "Lisbon", "day": "Thursday"})
            yield Event(
                invocation_id=ctx.invocation_id, author=self.name, content=types.Content(role="model", parts=[call])
            )
            response = types.Part.from_function_response(name="book_room", response={"door_code": "4417"})
            yield Event(
                invocation_id=ctx.invocation_id, author=self.name, content=types.Content(role="user", parts=[response])
            )
        yield self.says(ctx, REPLIES[said])

    def says(self, ctx: InvocationContext, text: str) -> Event:
        parts = [types.Part(text="(checking the calendar)", thought=True), types.Part(text=text)]
        content = types.Content(role="model", parts=parts)
        return Event(invocation_id=ctx.invocation_id, author=self.name, content=content)


async def save_to_memory(callback_context: Any) -> None:
    await callback_context.add_session_to_memory()


def message(text: str) -> types.Content:
    return types.Content(role="user", parts=[types.Part(text=text)])


async def converse(runner: Runner, user_id: str, session_id: str, text: str) -> list[Event]:
    events = []
    async for event in runner.run_async(user_id=user_id, session_id=session_id, new_message=message(text)):
        events.append(event)
    return events


def entry(memory: MemoryEntry) -> dict[str, Any]:
    return {
        "id": memory.id,
        "author": memory.author,
        "timestamp": memory.timestamp,
        "role": memory.content.role,
        "texts": [p.text for p in memory.content.parts or []],
        "custom_metadata": memory.custom_metadata,
    }


async def search(memory: DontoMemoryService, app_name: str, user_id: str, query: str) -> list[dict[str, Any]]:
    return [entry(m) for m in (await memory.search_memory(app_name=app_name, user_id=user_id, query=query)).memories]


def event_view(event: Event) -> dict[str, Any]:
    parts = event.content.parts if event.content and event.content.parts else []
    return {
        "id": event.id,
        "author": event.author,
        "timestamp": event.timestamp,
        "texts": [p.text for p in parts if p.text and not p.thought],
        "words": any(p.text and not p.thought for p in parts),
    }


async def donto_turns(memory: DontoMemoryService, donto_session: str) -> list[str]:
    try:
        return [t.external_id async for t in memory.client.iter_session_turns(donto_session)]
    except donto.NotFoundError:
        return []


async def scenario(report: dict[str, Any]) -> None:
    memory = DontoMemoryService()  # DONTO_URL, DONTO_API_KEY, DONTO_WORKSPACE: as donto.Client finds them
    sessions = InMemorySessionService()
    agent = OfficeAgent(name="office", after_agent_callback=save_to_memory)
    runner = Runner(app_name="office", agent=agent, session_service=sessions, memory_service=memory)
    chat = "chat-1"
    donto_chat = f"adk:office/ann/{chat}"

    await sessions.create_session(app_name="office", user_id="ann", session_id=chat)
    kept_after_each_turn = []
    for said in ("Book the Lisbon office for Thursday.", "I take my coffee with oat milk."):
        await converse(runner, "ann", chat, said)
        kept_after_each_turn.append(await donto_turns(memory, donto_chat))
    session = await sessions.get_session(app_name="office", user_id="ann", session_id=chat)
    assert isinstance(session, Session)
    for _ in range(2):  # the whole session again, twice: nothing new to keep
        await memory.add_session_to_memory(session)
    report["kept_after_each_turn"] = kept_after_each_turn
    report["kept_after_adding_again"] = await donto_turns(memory, donto_chat)
    report["events"] = [event_view(e) for e in session.events]

    # Other users and apps, each with memories of their own.
    other_app = Runner(app_name="frontdesk", agent=OfficeAgent(name="office"), session_service=sessions)
    for app, user, said in (("office", "bob", "My locker at the gym is number 9921."),):
        await sessions.create_session(app_name=app, user_id=user, session_id="chat-9")
        await converse(runner, user, "chat-9", said)
    await sessions.create_session(app_name="frontdesk", user_id="ann", session_id="chat-1")
    await converse(other_app, "ann", "chat-1", "My locker at the gym is number 9921.")
    frontdesk = await sessions.get_session(app_name="frontdesk", user_id="ann", session_id="chat-1")
    assert frontdesk is not None
    await memory.add_session_to_memory(frontdesk)

    # A later session of ann's answers from the first one's memory.
    await sessions.create_session(app_name="office", user_id="ann", session_id="chat-2")
    answered = await converse(runner, "ann", "chat-2", "What is the door code of the Lisbon office?")
    report["answer_from_memory"] = [p.text for e in answered if e.content for p in e.content.parts or [] if p.text]

    query = "What is the door code of the Lisbon office?"
    report["ann_search"] = await search(memory, "office", "ann", query)
    report["bob_search"] = await search(memory, "office", "bob", query)
    report["bob_locker"] = await search(memory, "office", "bob", "gym locker number")
    report["frontdesk_search"] = await search(memory, "frontdesk", "ann", query)
    report["ann_locker"] = await search(memory, "office", "ann", "gym locker number")
    report["nobody_search"] = await search(memory, "office", "carol", query)

    # A delta: the latest events only, given twice.
    desk = message("My desk is by the window on floor 3.")
    late = Event(id="evt-late", invocation_id="inv-late", author="user", timestamp=time.time(), content=desk)
    for _ in range(2):
        await memory.add_events_to_memory(app_name="office", user_id="ann", events=[late], session_id="chat-3")
    report["delta_kept"] = await donto_turns(memory, "adk:office/ann/chat-3")

    # Explicit memories, one given twice.
    note = MemoryEntry(
        content=types.Content(role="user", parts=[types.Part(text="Ann's badge number is B-7731.")]),
        author="ann",
        timestamp="2026-03-02T09:00:00+00:00",
        custom_metadata={"source": "hr-import"},
    )
    for _ in range(2):
        await memory.add_memory(app_name="office", user_id="ann", memories=[note])
    report["memories_kept"] = await donto_turns(memory, "adk:office/ann/%memories")
    report["badge_search"] = await search(memory, "office", "ann", "badge number")

    # Forget the oat milk: gone from searches, and adding the session again does not bring it back.
    milk = next(e.id for e in session.events if e.author == "user" and "oat milk" in " ".join(event_view(e)["texts"]))
    report["milk_event"] = milk
    report["milk_before"] = [e["id"] for e in await search(memory, "office", "ann", "How do I take my coffee?")]
    await memory.delete_memory(app_name="office", user_id="bob", memory_id=milk)  # not bob's: nothing
    report["milk_after_bob_deletes"] = [
        e["id"] for e in await search(memory, "office", "ann", "How do I take my coffee?")
    ]
    await memory.delete_memory(app_name="office", user_id="ann", memory_id=milk)
    await memory.add_session_to_memory(session)
    report["milk_after"] = [e["id"] for e in await search(memory, "office", "ann", "How do I take my coffee?")]
    report["door_code"] = [e["id"] for e in await search(memory, "office", "ann", "door code")]
    await memory.close()

    report["scoping_refused"] = []
    for app, user in (("", "ann"), ("office", "")):
        try:
            await memory.search_memory(app_name=app, user_id=user, query=query)
        except ValueError as refused:
            report["scoping_refused"].append(str(refused))


def main() -> None:
    report: dict[str, Any] = {}
    asyncio.run(scenario(report))

    async def again() -> list[str]:  # a second event loop, as each Runner.run call is: a client of its own
        async with DontoMemoryService() as memory:
            found = await memory.search_memory(app_name="office", user_id="ann", query="door code")
            return [m.id or "" for m in found.memories]

    report["second_loop"] = asyncio.run(again())
    report["workspace"] = os.environ["DONTO_WORKSPACE"]
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
