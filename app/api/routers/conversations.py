"""Conversations read back: a session's turns in order on both time axes, the workspace's sessions,
one turn by id; and retraction, of one turn or of all a session's turns."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Query

from donto.api.deps import INSTANT_HELP, MemoryDep, WorkspaceDep, instant_param
from donto.api.schemas.claims import RetractIn
from donto.api.schemas.common import KEYED, WITH_BODY, errors
from donto.api.schemas.conversations import SessionClearOut, SessionPageOut, TurnOut, TurnPageOut, TurnRetractOut
from donto.episodes.conversations import MAX_SESSIONS_PAGE, MAX_TURNS_PAGE
from donto.temporal.instants import utc_now

router = APIRouter(tags=["conversations"], responses=KEYED)

CURSOR = "a cursor a page handed out (next_after / next_before), or a turn's seq"
KnownAt = Annotated[str | None, Query(description="as donto knew it at this instant; " + INSTANT_HELP)]


@router.get("/v1/sessions", response_model=SessionPageOut)
def list_sessions(
    memory: MemoryDep,
    workspace: WorkspaceDep,
    limit: Annotated[int, Query(ge=1, le=MAX_SESSIONS_PAGE)] = 50,
    cursor: Annotated[str | None, Query(max_length=512, description="next_cursor of the page before")] = None,
    known_at: KnownAt = None,
    prefix: Annotated[
        str | None, Query(min_length=1, max_length=512, description="only sessions whose external id starts with this")
    ] = None,
) -> SessionPageOut:
    """The workspace's sessions in the order they began, as known at `known_at` (default now): each
    with its live turns' count and when the first and last of them were said; with `prefix`, only
    the sessions whose external id starts with it (a cursor pages on under the same prefix)."""
    known = instant_param(known_at, "known_at") or utc_now()
    page = memory.conversations.sessions(workspace, limit=limit, cursor=cursor, known_at=known, prefix=prefix or "")
    return SessionPageOut.of(page)


@router.get("/v1/sessions/{session:path}/turns", response_model=TurnPageOut, responses=errors(404))
def session_turns(
    session: str,
    memory: MemoryDep,
    workspace: WorkspaceDep,
    limit: Annotated[int, Query(ge=1, le=MAX_TURNS_PAGE)] = 50,
    after: Annotated[str | None, Query(min_length=1, max_length=512, description="the turns after: " + CURSOR)] = None,
    before: Annotated[
        str | None, Query(min_length=1, max_length=512, description="the turns just before: " + CURSOR)
    ] = None,
    latest: Annotated[bool, Query(description="the session's last `limit` turns (still in order)")] = False,
    valid_at: Annotated[
        str | None,
        Query(
            description="only turns said by this instant (a turn with no time: its session's start); " + INSTANT_HELP
        ),
    ] = None,
    known_at: KnownAt = None,
) -> TurnPageOut:
    """A session's turns (`session`: its external id) in the order they were said: the first `limit`,
    or with `latest` the last `limit`; `after` / `before` page on from a cursor or a turn's seq. As
    known at `known_at` (default now: retracted turns are left out; as known before a retraction the
    turn is still there); with `valid_at`, only the turns said by then (default: no cut). 404 for a
    session the workspace does not hold."""
    page = memory.conversations.session_turns(
        workspace,
        session,
        limit=limit,
        after=after,
        before=before,
        latest=latest,
        valid_at=instant_param(valid_at, "valid_at"),
        known_at=instant_param(known_at, "known_at") or utc_now(),
    )
    return TurnPageOut.of(page)


@router.post(
    "/v1/sessions/{session:path}/clear", response_model=SessionClearOut, responses={**WITH_BODY, **errors(404)}
)
def clear_session(
    session: str, memory: MemoryDep, workspace: WorkspaceDep, body: Annotated[RetractIn | None, Body()] = None
) -> SessionClearOut:
    """Retract every live turn of the session, in one transaction (the session stays; new turns may
    follow). Reads as known before still hold them; purge erases."""
    clearing = memory.conversations.clear_session(workspace, session, body.reason if body else None)
    return SessionClearOut.of(clearing)


@router.get("/v1/turns/{turn_id}", response_model=TurnOut, responses=errors(404))
def get_turn(turn_id: str, memory: MemoryDep, workspace: WorkspaceDep) -> TurnOut:
    """One turn by its donto id, live or retracted (`retracted_at` says when)."""
    return TurnOut.of(memory.conversations.get_turn(workspace, turn_id))


@router.post("/v1/turns/{turn_id}/retract", response_model=TurnRetractOut, responses={**WITH_BODY, **errors(404)})
def retract_turn(
    turn_id: str, memory: MemoryDep, workspace: WorkspaceDep, body: Annotated[RetractIn | None, Body()] = None
) -> TurnRetractOut:
    """Retract a turn and its passages: it leaves every read as known from now on (session turns,
    listings, recall), and stays in reads as known before. Retracting again answers with the first
    retraction (`was_live: false`, where a claim's second retraction is a 409: chat frameworks pop and
    clear from several places at once, and the second of two is not an error)."""
    return TurnRetractOut.of(memory.conversations.retract_turn(workspace, turn_id, body.reason if body else None))
