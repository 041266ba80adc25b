"""The FastAPI application: a thin shell over one Memory, made in the lifespan and kept on
app.state. The Memory's background workers run beside the requests, and the MCP server
(app/mcp) answers at /mcp."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from fastapi import Depends, FastAPI

from donto.api import deps, errors
from donto.api.body_limit import BodySizeLimit
from donto.api.fairness import WorkspaceTurns
from donto.api.foreground import MarkForeground
from donto.api.routers import (
    analyst,
    claims,
    conversations,
    documents,
    episodes,
    explore,
    health,
    identity,
    jobs,
    memorize,
    memory,
    predicates,
    recall,
    subjects,
    understandings,
    walk,
    workspaces,
)
from donto.api.workspace_said import SayWorkspace
from donto.mcp import http as mcp_http
from donto.memory import Memory, extraction_prompts
from donto.settings import APP_VERSION, Settings, load_settings

ROUTERS = (
    *(health, walk, claims, predicates, documents, episodes, recall, explore, memorize, jobs, workspaces, subjects),
    *(understandings, memory, identity, conversations),
    analyst,
)


@dataclass(frozen=True)
class StartInBackground:
    """How `donto up` and `donto serve` start the app: the lifespan only makes the Memory, so the server
    listens at once and /health answers `starting`, then `loading model`, then `ready`; Neo4j, the schema
    and the model are brought up on a thread (Memory.serve_in_background), saying each step through
    `say`. `on_failure` gets what stopped the start (a refused login: the server should end, saying it)."""

    say: Callable[[str], None]
    on_failure: Callable[[Exception], None]


def create_app(settings: Settings | None = None, in_background: StartInBackground | None = None) -> FastAPI:
    """The app. Without `in_background` (tests, an embedding host) its lifespan returns once Neo4j has
    answered and the schema is applied (or Neo4j is found unreachable: then it retries behind 503s), and
    a refused login fails the start itself."""
    settings = settings or load_settings()
    prompts = extraction_prompts(settings)  # a bad prompt file stops here, before the server starts

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        memory = Memory(settings, prompts)
        try:
            # Started before Neo4j answers, the API serves 503s (and /health says so) until it does; the
            # model loads in the background meanwhile. Without run_workers `donto worker` processes drain the queues.
            if in_background is not None:
                memory.serve_in_background(settings.api.run_workers, in_background.say, in_background.on_failure)
            else:
                memory.serve(run_workers=settings.api.run_workers)
            app.state.memory = memory
            async with mcp_http.serving(app.state, memory):  # MCP at /mcp, for as long as the API runs
                yield
        finally:
            memory.close()

    app = FastAPI(
        title="donto",
        version=APP_VERSION,
        lifespan=lifespan,
        description="Graph-database-native memory for AI agents, on Neo4j.",
        # A slash redirect builds its Location from the request's Host header; a 404 trusts nothing.
        redirect_slashes=False,
        dependencies=[Depends(deps.known_query_parameters)],
    )
    api = settings.api

    def light_in_flight() -> int:  # the Memory, and its Foreground, exist once the lifespan starts
        memory = getattr(app.state, "memory", None)
        return memory.foreground.light_in_flight() if memory is not None else 0

    app.state.workspace_turns = WorkspaceTurns(
        api.max_concurrent_per_workspace, api.max_heavy_per_workspace, api.heavy_request_bytes, light_in_flight
    )
    errors.install(app)
    for module in ROUTERS:
        app.include_router(module.router)
    app.router.routes.append(mcp_http.route())
    app.add_middleware(SayWorkspace)  # X-Donto-Workspace on every authenticated answer
    app.add_middleware(BodySizeLimit, max_bytes=settings.api.max_body_bytes, timeout_s=settings.api.body_timeout_s)
    app.add_middleware(MarkForeground)  # background jobs give way to requests
    return app
