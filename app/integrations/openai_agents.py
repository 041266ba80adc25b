"""DontoSession: the OpenAI Agents SDK's `Session` (an agent's conversation history) kept in donto,
over donto's client alone, so that what an agent and its tools said is recallable memory, readable
as it was known at any time, rather than rows in a private table.

    from agents import Agent, Runner
    from donto.integrations.openai_agents import DontoSession

    session = DontoSession("chat-42")  # DONTO_URL / DONTO_API_KEY / DONTO_WORKSPACE, or the home's
    result = await Runner.run(agent, "Where did we leave off?", session=session)

Each item is a turn of the donto session `session_id` (see donto.integrations.response_items for the
mapping): get_items reads the session's live turns back, in order, each item exactly as added;
pop_item retracts the latest (its transaction time closes: it leaves current reads, and a read as
known before still holds it); clear_session retracts them all (nothing is deleted; purge erases).

Needs the `openai-agents` extra: `pip install "donto-memory[openai-agents]"`."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from datetime import UTC, datetime
from typing import Any, cast

try:
    from agents.items import TResponseInputItem
    from agents.memory.session import SessionABC
    from agents.memory.session_settings import SessionSettings, coerce_session_settings, resolve_session_limit
except ImportError as exc:  # the SDK is an extra: say which, not just "no module named agents"
    raise ImportError(
        'donto.integrations.openai_agents needs the OpenAI Agents SDK: pip install "donto-memory[openai-agents]"'
    ) from exc

from donto.api.schemas.conversations import TurnOut, TurnPageOut
from donto.api.schemas.episodes import MAX_EPISODE_CHARS
from donto.client import AsyncClient, NotFoundError
from donto.integrations.response_items import ItemTooLarge, ReadItem, batches, items_of, turns_of

__all__ = ["DontoSession", "ItemTooLarge"]

PAGE = 1000  # turns per read: the most one page of GET /v1/sessions/{id}/turns hands out
MAX_TURNS_PER_WRITE = 2000  # POST /v1/episodes takes at most this many turns
MAX_BODY_BYTES = 2 * 1024 * 1024  # a write's body, well inside donto's default bound (8 MiB)


class DontoSession(SessionABC):
    """An OpenAI Agents SDK session whose items are the turns of the donto session `session_id`.

    base_url, api_key, workspace: as donto.AsyncClient takes them (from the environment or the
    donto home when not given); or `client`, an AsyncClient of your own (then those are its, and
    closing it is yours). session_settings: the SDK's (its `limit` is get_items' default)."""

    session_settings: SessionSettings | None = None

    def __init__(
        self,
        session_id: str,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        workspace: str | None = None,
        client: AsyncClient | None = None,
        session_settings: SessionSettings | dict[str, Any] | None = None,
        timeout: float = 120.0,
    ):
        if not isinstance(session_id, str) or not session_id.strip() or len(session_id) > 512:
            raise ValueError("session_id is a donto session's external id: 1 to 512 characters, not blank")
        if client is not None and (base_url, api_key, workspace) != (None, None, None):
            raise TypeError("pass a client, or base_url / api_key / workspace to make one, not both")
        if client is not None and not isinstance(client, AsyncClient):
            raise TypeError(
                f"client is a donto.AsyncClient (the SDK's sessions are async), not a {type(client).__name__}"
            )
        self.session_id = session_id
        self.session_settings = (
            coerce_session_settings(session_settings) if session_settings is not None else SessionSettings()
        )
        self._owns_client = client is None
        self.client = (
            client
            if client is not None
            else AsyncClient(base_url, api_key=api_key, workspace=workspace, timeout=timeout)
        )
        # One instance's writes, pops and clears in the order they were asked for: a pop after an
        # add in the same task sees that add.
        self._lock = asyncio.Lock()

    async def __aenter__(self) -> DontoSession:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the client this session made (one passed in stays open)."""
        if self._owns_client:
            await self.client.aclose()

    # -- the Session protocol ----------------------------------------------------------------------

    async def get_items(self, limit: int | None = None) -> list[TResponseInputItem]:
        """The session's items in the order they were added: all, or the latest `limit` (default: the
        session settings' limit). A session donto does not hold has none."""
        wanted = resolve_session_limit(limit, self.session_settings)
        if wanted == 0:
            return []
        # A negative limit is no limit, as SQLiteSession (the SDK's own) reads it.
        found = await self._all() if wanted is None or wanted < 0 else await self._latest(wanted)
        return [cast(TResponseInputItem, read.item) for read in found]

    async def add_items(self, items: list[TResponseInputItem]) -> None:
        """Append the items, in order, one turn each (a large one split). Every item is mapped before
        anything is sent, so one that cannot be kept (ItemTooLarge, not JSON) writes nothing."""
        if not items:
            return
        now = datetime.now(UTC)
        # A fresh id per item: unique among concurrent writers, and the same on the client's own
        # re-sends (donto writes a turn external id once), so a retried request never doubles a turn.
        turns = [t for item in items for t in turns_of(cast(dict[str, Any], item), f"oai-{uuid.uuid4().hex}", now)]
        requests = batches(turns, max_turns=MAX_TURNS_PER_WRITE, max_chars=MAX_EPISODE_CHARS, max_bytes=MAX_BODY_BYTES)
        async with self._lock:
            for batch in requests:
                await self.client.add_turns(session={"external_id": self.session_id}, turns=batch)

    async def pop_item(self) -> TResponseInputItem | None:
        """Retract the latest item and hand it back; None when the session has none. It leaves every
        read as known from now on and stays in reads as known before (`known_at`)."""
        async with self._lock:
            while True:
                found = await self._latest(1)
                if not found:
                    return None
                [latest] = found
                first, *rest = latest.turn_ids
                if not (await self.client.retract_turn(first)).was_live:
                    continue  # another writer popped it first: the next latest is this pop's
                for turn_id in rest:
                    await self.client.retract_turn(turn_id)
                return cast(TResponseInputItem, latest.item)

    async def clear_session(self) -> None:
        """Retract every item of the session, in one transaction (the session stays: items may follow)."""
        async with self._lock:
            with contextlib.suppress(NotFoundError):  # a session donto never held has nothing to clear
                await self.client.clear_session(self.session_id)

    # -- reads -------------------------------------------------------------------------------------

    async def _all(self) -> list[ReadItem]:
        turns: list[TurnOut] = []
        after: str | None = None
        while True:
            page = await self._page(limit=PAGE, after=after)
            if page is None:
                return []
            turns += page.turns
            if page.next_after is None:
                return items_of(turns)
            after = page.next_after

    async def _latest(self, wanted: int) -> list[ReadItem]:
        """The latest `wanted` items: the session's last turns, read backwards page by page until they
        hold that many whole items (a split item's parts may reach back past the first page)."""
        turns: list[TurnOut] = []
        page = await self._page(limit=min(wanted, PAGE), latest=True)
        while page is not None:
            turns = [*page.turns, *turns]
            found = items_of(turns)
            if len(found) >= wanted or page.next_before is None:
                return found[-wanted:]
            page = await self._page(limit=PAGE, before=page.next_before)
        return []

    async def _page(self, **params: Any) -> TurnPageOut | None:
        try:
            return await self.client.session_turns(self.session_id, **params)
        except NotFoundError:
            return None  # no turn was ever added to it
