"""FastAPI dependencies: the Memory, the caller's workspace, and the time scope of a read."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import datetime
from typing import Annotated

from fastapi import Depends, Header, Query, Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.concurrency import run_in_threadpool

from donto.api.fairness import carries_images
from donto.api.workspace_said import say_workspace
from donto.auth.keys import Principal
from donto.errors import BackendUnavailable, InvalidInput, RateLimited
from donto.memory import Memory
from donto.temporal.instants import parse_instant
from donto.temporal.scope import TimeScope

INSTANT_HELP = "ISO-8601 date or date-time (a date means midnight UTC, no offset means UTC); default now"


def _query_names(dependant: Dependant) -> frozenset[str]:
    """The query parameters a route declares, its dependencies' included."""
    names = {param.alias for param in dependant.query_params}
    for sub in dependant.dependencies:
        names |= _query_names(sub)
    return frozenset(names)


async def known_query_parameters(request: Request) -> None:
    """A query parameter the route does not take is refused, as an unknown body field is: a misspelt
    `valdi_at` was ignored into an answer as of now."""
    route = request.scope.get("route")
    # A CORS preflight carries the query of the request it asks for (Browser's :play of the guide).
    if not isinstance(route, APIRoute) or request.method == "OPTIONS":
        return
    known = getattr(route, _KNOWN_QUERY, None)  # routes are not hashable: kept on the route itself
    if known is None:
        known = _query_names(route.dependant)
        setattr(route, _KNOWN_QUERY, known)
    for name in request.query_params:
        if name not in known:
            raise InvalidInput("unknown query parameter", field=name)


_KNOWN_QUERY = "_donto_query_names"


# Dependencies that do no I/O are async: FastAPI runs a sync one on a worker thread, a hop per
# dependency per request.
async def memory(request: Request) -> Memory:
    return request.app.state.memory


async def principal(
    request: Request,
    authorization: Annotated[str | None, Header()] = None,
    x_donto_workspace: Annotated[str | None, Header()] = None,
) -> Principal:
    memory: Memory = request.app.state.memory
    if not memory.opened.is_set():  # starting: nothing runs before the schema is applied
        retry = memory.settings.api.backend_retry_after_s
        if memory.start_failure is not None:
            raise BackendUnavailable("donto could not start: see the server's log", retry)
        doing = "applying the schema" if memory.reached.is_set() else "Neo4j has not answered yet"
        raise BackendUnavailable(f"donto is starting: {doing}", retry)
    if len(request.headers.getlist("x-donto-workspace")) > 1:  # the first or the last? Readers differ.
        raise InvalidInput("send X-Donto-Workspace once", field="X-Donto-Workspace")
    key = None
    if authorization and authorization[:7].lower() == "bearer ":
        key = authorization[7:].strip()
    address = request.client.host if request.client else None
    try:
        # A worker thread: a workspace key is looked up in the graph.
        caller = await run_in_threadpool(memory.keys.authenticate, key, x_donto_workspace, address)
    except RateLimited as exc:
        # A failing request past its address's limit is answered late, holding no worker thread.
        await asyncio.sleep(exc.delay_s)
        raise
    say_workspace(request, caller.workspace)  # the answer's X-Donto-Workspace: which workspace it read
    return caller


async def workspace(request: Request, p: Annotated[Principal, Depends(principal)]) -> AsyncIterator[str]:
    """The caller's workspace, for as long as the request runs: one of its workspace's turns
    (app/api/fairness.py), so that one tenant's flood cannot take every worker thread."""
    turns = request.app.state.workspace_turns
    heavy = turns.heavy(request.headers)
    if not heavy and request.method == "POST" and request.url.path == "/v1/memorize":
        heavy = carries_images(await request.body())  # read already: FastAPI parses the body before this
    async with turns.turn(p.workspace, heavy):
        yield p.workspace


def instant_param(value: str | None, name: str) -> datetime | None:
    if value is None:
        return None
    try:
        return parse_instant(value)
    except ValueError as exc:
        raise InvalidInput(str(exc), field=name) from None


def time_scope(
    valid_at: Annotated[str | None, Query(description="what was true at this instant; " + INSTANT_HELP)] = None,
    known_at: Annotated[str | None, Query(description="as donto knew it at this instant; " + INSTANT_HELP)] = None,
) -> TimeScope:
    """The scope of a GET: `valid_at` and `known_at` query parameters, each defaulting to now."""
    return TimeScope.resolve(instant_param(valid_at, "valid_at"), instant_param(known_at, "known_at"))


def memory_session(
    x_donto_session: Annotated[
        str | None,
        Header(
            min_length=1,
            max_length=128,
            pattern=r"^\S+$",
            description="the conversation this call belongs to (the agent memory's implicit session)",
        ),
    ] = None,
) -> str | None:
    return x_donto_session


MemoryDep = Annotated[Memory, Depends(memory)]
SessionDep = Annotated[str | None, Depends(memory_session)]
WorkspaceDep = Annotated[str, Depends(workspace)]
ScopeDep = Annotated[TimeScope, Depends(time_scope)]
