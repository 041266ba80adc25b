"""DontoMemoryService: Google ADK's `BaseMemoryService` (an agent's long-term memory across sessions)
kept in donto, over donto's client alone, so that what a user and an agent said is recalled by
meaning, words and date, and reads as it was known at any time, rather than matched by keyword.

    from google.adk.runners import Runner
    from donto.integrations.adk import DontoMemoryService

    memory = DontoMemoryService(workspace="my-agent")  # DONTO_URL / DONTO_API_KEY, or the home's
    runner = Runner(app_name="office", agent=agent, session_service=sessions, memory_service=memory)

Each ADK session is a donto session (adk_events.py says how it is named and what an event keeps):
add_session_to_memory writes the events donto does not hold yet, one turn each, keyed by the
event's id, so the whole session sent again after every turn keeps each event once. search_memory
is donto's recall kept to that app's and user's sessions. add_events_to_memory (a delta),
add_memory (explicit entries) and delete_memory (a turn retracted) are implemented too.

Needs the `adk` extra: `pip install "donto-memory[adk]"`."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

try:
    from google.adk.memory.base_memory_service import BaseMemoryService, SearchMemoryResponse
    from google.adk.memory.memory_entry import MemoryEntry
    from google.genai import types
except ImportError as exc:  # ADK is an extra: say which, not just "no module named google.adk"
    raise ImportError('donto.integrations.adk needs Google ADK: pip install "donto-memory[adk]"') from exc

from donto.api.schemas.episodes import MAX_EPISODE_CHARS
from donto.api.schemas.recall import RecallIn
from donto.client import AsyncClient, NotFoundError
from donto.integrations import adk_events as mapping
from donto.integrations.response_items import batches

if TYPE_CHECKING:
    from google.adk.events.event import Event
    from google.adk.sessions.session import Session

__all__ = ["DontoMemoryService"]

DEFAULT_K: int = RecallIn.model_fields["k"].default  # memories a search returns unless told: donto's own
MAX_QUERY_CHARS = 4000  # recall's question (RecallIn.query); an agent's longer message is asked by its start
MAX_SESSIONS_PER_RECALL = 100  # RecallIn.sessions
SESSIONS_PAGE = 1000  # the most one page of GET /v1/sessions hands out
MAX_TURNS_PER_WRITE = 2000  # POST /v1/episodes takes at most this many turns
MAX_BODY_BYTES = 2 * 1024 * 1024  # a write's body, well inside donto's default bound (8 MiB)


class DontoMemoryService(BaseMemoryService):
    """Google ADK's memory service over donto (see the module's docstring).

    base_url, api_key, workspace: as donto.AsyncClient takes them (from the environment or the donto
    home when not given); or `client`, an AsyncClient of your own (then those are its, and closing it
    is yours). k: the most memories a search returns (donto's recall default)."""

    def __init__(
        self,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        workspace: str | None = None,
        client: AsyncClient | None = None,
        k: int = DEFAULT_K,
        timeout: float = 120.0,
    ):
        if client is not None and (base_url, api_key, workspace) != (None, None, None):
            raise TypeError("pass a client, or base_url / api_key / workspace to make one, not both")
        if client is not None and not isinstance(client, AsyncClient):
            raise TypeError(
                f"client is a donto.AsyncClient (ADK's memory service is async), not a {type(client).__name__}"
            )
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 200:
            raise ValueError(f"k is how many memories a search returns, 1 to 200, not {k!r}")
        self.k = k
        self._given = client
        # Made now, so that a service with nowhere to connect fails here (donto.NoAddress), not at its
        # first search; it serves the first event loop that asks. Runner.run runs each call in a new
        # loop, and an httpx pool's connections belong to the loop that opened them: each later loop
        # gets a client of its own.
        self._unbound: AsyncClient | None = (
            AsyncClient(base_url, api_key=api_key, workspace=workspace, timeout=timeout) if client is None else None
        )
        self._made = dict(api_key=api_key, workspace=workspace, timeout=timeout)
        self._per_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, AsyncClient] = weakref.WeakKeyDictionary()
        self.base_url = client.base_url if client is not None else self._unbound.base_url  # type: ignore[union-attr]

    @property
    def client(self) -> AsyncClient:
        """The client for the running event loop: the one given, else this loop's own."""
        if self._given is not None:
            return self._given
        loop = asyncio.get_running_loop()
        if (client := self._per_loop.get(loop)) is None:
            if self._unbound is not None:
                client, self._unbound = self._unbound, None
            else:
                client = AsyncClient(self.base_url, **self._made)  # type: ignore[arg-type]  # the keywords above
            self._per_loop[loop] = client
        return client

    async def close(self) -> None:
        """Close the client this service made for the running loop (one passed in stays open)."""
        if self._given is None and (client := self._per_loop.pop(asyncio.get_running_loop(), None)) is not None:
            await client.aclose()

    async def __aenter__(self) -> DontoMemoryService:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    # -- writes ------------------------------------------------------------------------------------

    async def add_session_to_memory(self, session: Session) -> None:
        """Keep the session's events that say something, once each: ADK sends the whole session again
        after each turn, so the events after the latest one donto holds are all that is sent."""
        donto_session = mapping.session_external_id(session.app_name, session.user_id, session.id)
        turns = turns_of_events(session.events)
        if not turns:
            return
        try:
            page = await self.client.session_turns(donto_session, latest=True, limit=1)
        except NotFoundError:
            page = None  # nothing of it kept yet
        held = page.turns[-1].external_id if page is not None and page.turns else None
        ids = [t["external_id"] for t in turns]
        # Re-sending held turns would write nothing, but each write still takes the workspace's
        # transaction clock; when the latest held one is not among them (another writer's, a rewound
        # session), all are sent and donto keeps each new one once.
        await self._write(donto_session, turns[ids.index(held) + 1 :] if held in ids else turns)

    async def add_events_to_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        events: Sequence[Event],
        session_id: str | None = None,
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Keep these events (a delta: the latest turn, say) in the session `session_id`; an event
        kept before is kept once. Without a session id they go with add_memory's entries.
        custom_metadata is not read: donto has no per-write options to give it."""
        del custom_metadata
        donto_session = (
            mapping.session_external_id(app_name, user_id, session_id)
            if session_id is not None
            else mapping.memories_external_id(app_name, user_id)
        )
        await self._write(donto_session, turns_of_events(events))

    async def add_memory(
        self,
        *,
        app_name: str,
        user_id: str,
        memories: Sequence[MemoryEntry],
        custom_metadata: Mapping[str, object] | None = None,
    ) -> None:
        """Keep explicit memories, each a turn of the app's and user's memories session (its author the
        speaker, its text parts the text, its custom_metadata kept), found by search_memory with the
        rest. Each is mapped before anything is written, so one that cannot be kept writes nothing
        (ValueError). An entry is kept once: by its id, else by what it says, who said it and when."""
        del custom_metadata  # not read: as add_events_to_memory
        turns = [
            turn
            for entry in memories
            if (turn := mapping.turn_of_memory(entry.model_dump(mode="json", exclude_none=True))) is not None
        ]
        await self._write(mapping.memories_external_id(app_name, user_id), turns)

    async def _write(self, donto_session: str, turns: list[dict[str, Any]]) -> None:
        requests = batches(turns, max_turns=MAX_TURNS_PER_WRITE, max_chars=MAX_EPISODE_CHARS, max_bytes=MAX_BODY_BYTES)
        for batch in requests:
            await self.client.add_turns(session={"external_id": donto_session}, turns=batch)

    # -- reads -------------------------------------------------------------------------------------

    async def search_memory(self, *, app_name: str, user_id: str, query: str) -> SearchMemoryResponse:
        """donto's recall over this app's and user's sessions only: at most k memories, best first, each
        an event (or an entry given to add_memory) as it was kept, or a claim extraction drew from
        them; `custom_metadata["donto"]` holds its session and recall's relevance (0 to 1)."""
        sessions = await self._sessions(app_name, user_id)
        if not sessions or not query.strip():
            return SearchMemoryResponse()
        items = []
        for start in range(0, len(sessions), MAX_SESSIONS_PER_RECALL):
            bundle = await self.client.recall(
                query[:MAX_QUERY_CHARS],
                k=self.k,
                sessions=sessions[start : start + MAX_SESSIONS_PER_RECALL],
                include_provenance=True,
            )
            items += bundle.items
        if len(sessions) > MAX_SESSIONS_PER_RECALL:  # several bundles: relevance is comparable across them
            items.sort(key=lambda item: -(item.relevance or 0.0))
        memories: dict[str, MemoryEntry] = {}
        for item in items:
            fields = mapping.entry_of_item(item.model_dump())
            if fields is not None and fields["id"] not in memories:
                content = types.Content.model_validate(fields.pop("content"))
                memories[fields["id"]] = MemoryEntry(content=content, **fields)
        return SearchMemoryResponse(memories=list(memories.values())[: self.k])

    async def delete_memory(self, *, app_name: str, user_id: str, memory_id: str | None = None) -> None:
        """Retract the turn a memory is (its MemoryEntry.id, an event's id): gone from searches from now
        on, still in reads as known before, and not kept again when its session is added again. An id
        of none of this app's and user's turns (a claim's) retracts nothing."""
        if not memory_id:
            return
        for donto_session in await self._sessions(app_name, user_id):
            async for turn in self.client.iter_session_turns(donto_session, page_size=1000):
                if turn.external_id == memory_id:
                    await self.client.retract_turn(turn.id, reason="deleted from ADK memory")
                    return

    async def _sessions(self, app_name: str, user_id: str) -> list[str]:
        """The donto sessions of this app's and user's memory that hold live turns."""
        prefix = mapping.session_prefix(app_name, user_id)
        return [
            session.external_id
            async for session in self.client.iter_sessions(page_size=SESSIONS_PAGE, prefix=prefix)
            if session.turn_count
        ]


def turns_of_events(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The turns that keep the events that say something, in order, each once (by its id)."""
    turns: dict[str, dict[str, Any]] = {}
    for event in events:
        content = event.content.model_dump(mode="json", exclude_none=True) if event.content is not None else None
        fields = {
            "id": event.id,
            "author": event.author,
            "timestamp": event.timestamp,
            "invocation_id": event.invocation_id,
            "partial": event.partial,
            "content": content,
        }
        if (turn := mapping.turn_of_event(fields)) is not None:
            turns.setdefault(turn["external_id"], turn)
    return list(turns.values())
