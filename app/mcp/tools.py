"""donto's verbs as MCP tools, over one Memory, for whichever transport serves them.

Each tool takes the REST API's request shapes (app/api/schemas) as typed arguments and answers
with its response shapes, as compact JSON text and as structured content. A domain error, or an
argument that fails validation (an argument a tool does not take among them, as REST refuses an
unknown field), comes back as a tool error carrying the REST error body
(`{"error": {"code", "message", "field"}}`); anything else is the SDK's generic tool error, never a
traceback."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, cast

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp_types import CallToolResult, Icon, InputRequiredResult, ToolAnnotations
from pydantic import ConfigDict, Field, ValidationError

from donto import errors
from donto.api.schemas.claims import (
    MAX_BATCH,
    ClaimIn,
    ClaimOut,
    ClaimPage,
    ClaimsWriteOut,
    RetractOut,
    WriteOutcomeOut,
)
from donto.api.schemas.common import Id, Instant, Key
from donto.api.schemas.episodes import EpisodeIn, EpisodeOut, SessionIn, TurnIn
from donto.api.schemas.explore import EntityPathOut, EntityPathsOut, EntityProfileOut
from donto.api.schemas.identity import IdentityOut, SameAsOut
from donto.api.schemas.recall import RecallIn, RecallOut
from donto.api.schemas.walk import StatusBatchOut, StatusIn, StatusOut
from donto.errors import invalid_input
from donto.explore.service import MAX_HOPS
from donto.mcp import memory_tools, source_tools
from donto.mcp.common import READS, WRITES, WorkspaceOf
from donto.mcp.common import error as _error
from donto.mcp.common import result as _result
from donto.mcp.stdio_transport import stdio_streams
from donto.memorize.service import MemorizeRequest
from donto.memory import Memory
from donto.recall.service import RecallRequest
from donto.settings import APP_VERSION
from donto.temporal.instants import iso
from donto.temporal.scope import TimeScope
from donto.walk.limits import MAX_IDS

INSTRUCTIONS = """\
donto is a long-term memory. Keep what you hear with add_turns and the facts you learn with
write_claims (say when each was true: valid_from, valid_to). Hand it what you read with memorize
(text, with occurred_at: when it was written): it is kept and recallable at once, and its facts are
extracted into dated claims by a job you can follow with get_job. Before answering about the past, call
recall. Before acting on a remembered fact, call claim_status: POTENTIALLY_STALE means a premise it
rests on was superseded, retracted or has expired. Facts are never overwritten: a change is a new
claim with a later valid_from; retract_claim is only for facts that were wrong.
It also holds the memory you curate yourself: subjects, observations about them, understandings.
Call orient at the start of every conversation (and after your context is compacted), bring_to_mind
regularly as the conversation moves (pass back its heartbeat_token), and remember what is worth
keeping, tagged with the subjects it is genuinely about."""

ValidAt = Annotated[
    Instant | None, Field(description="what was true at this instant (ISO-8601 date or date-time); default now")
]
KnownAt = Annotated[
    Instant | None,
    Field(description="as memory knew it at this instant, to see what it believed then; default now"),
]
ClaimId = Annotated[Id, Field(description="a claim id, as write_claims or a read returned it")]
EntityKey = Annotated[Key, Field(description="an entity key, as used in claims' subject or object, e.g. 'apple'")]
WithIdentity = Annotated[
    bool, Field(description="also the claims of every key linked to it as the same thing (link_entities)")
]


class DontoMCP(MCPServer):
    """MCPServer whose tools refuse arguments they do not take, whose tool errors carry donto's
    error body (the SDK raises ToolError around what failed, with the domain error or the
    arguments' ValidationError as its cause), and whose stdio transport answers every line."""

    def add_tool(
        self,
        fn: Callable[..., Any],
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        annotations: ToolAnnotations | None = None,
        icons: list[Icon] | None = None,
        meta: dict[str, Any] | None = None,
        structured_output: bool | None = None,
    ) -> None:
        """Register the tool as the SDK does, then make its argument model forbid names it does not
        declare, as the REST request models do: a misspelt valid_at is refused ("unknown field"),
        not ignored into an unscoped answer. The published inputSchema, made again from that model,
        says so (additionalProperties: false)."""
        super().add_tool(fn, name, title, description, annotations, icons, meta, structured_output)
        tool = self._tool_manager.get_tool(name or fn.__name__)  # the SDK lends no public way to it
        assert tool is not None
        lax = tool.fn_metadata.arg_model
        strict = cast(type[ArgModelBase], type(lax.__name__, (lax,), {"model_config": ConfigDict(extra="forbid")}))
        tool.fn_metadata.arg_model = strict
        tool.parameters = strict.model_json_schema(by_alias=True)

    async def run_stdio_async(self) -> None:
        """Serve on stdin/stdout as the SDK does, but through donto's transport, which answers a line
        that is not a JSON-RPC message instead of dropping it (app/mcp/stdio_transport.py)."""
        async with stdio_streams() as (read_stream, write_stream):
            await self._lowlevel_server.run(
                read_stream, write_stream, self._lowlevel_server.create_initialization_options()
            )

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context | None = None
    ) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, errors.DontoError):
                return _error(cause.code, cause.message, cause.field)
            if isinstance(cause, ValidationError):
                first = cause.errors()[0]  # located like a REST body's, so `query` names the argument
                return _error("invalid_input", *invalid_input({**first, "loc": ("body", *first["loc"])}))
            raise


def build_server(memory: Memory, workspace_of: WorkspaceOf) -> DontoMCP:
    server = DontoMCP("donto", version=APP_VERSION, instructions=INSTRUCTIONS, log_level="WARNING")

    @server.tool(annotations=WRITES)
    def write_claims(
        claims: Annotated[list[ClaimIn], Field(min_length=1, max_length=MAX_BATCH)], ctx: Context
    ) -> Annotated[CallToolResult, ClaimsWriteOut]:
        """Remember facts as claims: subject, predicate, object, and when each was true.

        object is {"entity": "<key>"} for a thing, or {"literal": {"value": ..., "datatype": "xsd:string"}}
        for a value (xsd:integer, xsd:decimal, xsd:boolean, xsd:date, xsd:dateTime too). valid_from and
        valid_to (ISO-8601) bound when the fact held in the world; leave valid_to out while it holds.
        derived_from lists the claim ids it was concluded from (claim_status follows them); evidence
        cites characters of a stored turn or document: {"document_id", "start", "end"}. All or nothing;
        a claim already known comes back with its id and created=false."""
        result = memory.claims.write(workspace_of(ctx), [c.to_domain() for c in claims])
        return _result(
            ClaimsWriteOut(
                recorded_at=iso(result.recorded_at) or "",
                claims=[WriteOutcomeOut(id=o.id, created=o.created) for o in result.claims],
            )
        )

    @server.tool(annotations=READS)
    def list_claims(
        ctx: Context,
        subject: Annotated[Key | None, Field(description="only claims about this entity key")] = None,
        predicate: Annotated[Key | None, Field(description="only claims with this predicate")] = None,
        object: Annotated[Key | None, Field(description="only claims whose object is this entity key")] = None,
        valid_at: ValidAt = None,
        known_at: KnownAt = None,
        include_retracted: Annotated[bool, Field(description="also claims withdrawn as wrong")] = False,
        limit: Annotated[int, Field(ge=1, description="claims per page")] = 50,
        cursor: Annotated[str | None, Field(max_length=512, description="next_cursor of the previous page")] = None,
        identity: WithIdentity = False,
    ) -> Annotated[CallToolResult, ClaimPage]:
        """Find remembered claims by subject, predicate or object, as true at valid_at as known at known_at."""
        workspace, scope = workspace_of(ctx), TimeScope.resolve(valid_at, known_at)
        listing = memory.claims.list_as_of(
            workspace,
            subject=subject,
            predicate=predicate,
            object=object,
            scope=scope,
            include_retracted=include_retracted,
            limit=limit,
            cursor=cursor,
            identity=identity,
        )
        return _result(ClaimPage.from_domain(listing))

    @server.tool(annotations=READS)
    def get_claim(id: ClaimId, ctx: Context) -> Annotated[CallToolResult, ClaimOut]:
        """One claim in full: both time intervals, the claims it rests on and that rest on it, its evidence text."""
        return _result(ClaimOut.from_domain(memory.claims.get(workspace_of(ctx), id, TimeScope.now())))

    @server.tool(annotations=READS)
    def claim_status(
        ids: Annotated[list[Id], Field(min_length=1, max_length=MAX_IDS, description="claim ids")],
        ctx: Context,
        valid_at: ValidAt = None,
        known_at: KnownAt = None,
    ) -> Annotated[CallToolResult, StatusBatchOut]:
        """Is a remembered claim still safe to act on? Walks the premises it was derived from.

        POTENTIALLY_STALE, with reasons (a premise superseded, retracted or expired at valid_at), or
        UNVERIFIED when nothing on the walk is out of date; contested lists premises contradicted."""
        body = StatusIn(ids=ids, valid_at=valid_at, known_at=known_at)
        statuses = memory.walk.status(workspace_of(ctx), body.ids, body.scope(), body.max_depth, body.fan_out)
        return _result(StatusBatchOut(statuses=[StatusOut.model_validate(s) for s in statuses]))

    @server.tool(annotations=WRITES)
    def retract_claim(
        id: ClaimId,
        ctx: Context,
        reason: Annotated[str | None, Field(max_length=2000, description="why it was wrong")] = None,
    ) -> Annotated[CallToolResult, RetractOut]:
        """Withdraw a claim that was wrong. For a fact that stopped being true, write the new one instead.

        Nothing is deleted: reads as known before now still see it. Retracting twice is a conflict."""
        retracted_at = memory.claims.retract(workspace_of(ctx), id, reason)
        return _result(RetractOut(id=id, retracted_at=iso(retracted_at) or ""))

    @server.tool(annotations=READS)
    def recall(
        query: Annotated[str, Field(description="the question, in words")],
        ctx: Context,
        k: Annotated[int, Field(ge=1, le=200, description="items at most")] = 20,
        valid_at: ValidAt = None,
        known_at: KnownAt = None,
        max_tokens: Annotated[int | None, Field(ge=1, description="trim the lowest-ranked items to fit")] = None,
        include_provenance: Annotated[
            bool, Field(description="with each item: its turn, session and claim ids and the claims' status")
        ] = False,
    ) -> Annotated[CallToolResult, RecallOut]:
        """What the kept conversations and claims hold on a question: a small, dated, evidence-anchored bundle.

        Items are turns, passages and claims (add_turns, write_claims), each with its date in the text.
        No LLM is involved. For the subjects, observations and understandings you curate yourself, use
        recall_memory instead."""
        body = RecallIn(
            query=query,
            k=k,
            valid_at=valid_at,
            known_at=known_at,
            max_tokens=max_tokens,
            include_provenance=include_provenance,
        )
        request = RecallRequest(
            query=body.query,
            scope=body.scope(),
            k=body.k,
            max_tokens=body.max_tokens,
            include_provenance=body.include_provenance,
        )
        result = memory.recall.recall(workspace_of(ctx), request)
        return _result(RecallOut.of(result))

    @server.tool(annotations=WRITES)
    def add_turns(
        session: Annotated[Key, Field(description="the conversation's own id, e.g. 'chat-2026-11-20'")],
        turns: Annotated[list[TurnIn], Field(min_length=1, max_length=2000)],
        ctx: Context,
        started_at: Annotated[
            Instant | None, Field(description="when the conversation began; dates relative words in it")
        ] = None,
    ) -> Annotated[CallToolResult, EpisodeOut]:
        """Keep what was said, verbatim: append turns (speaker, text) to a conversation.

        Turns are split into dated passages that recall searches ("last Saturday" is resolved against
        the turn's occurred_at, else started_at). Sending the same session and turn external_ids
        again adds nothing."""
        workspace = workspace_of(ctx)
        body = EpisodeIn(session=SessionIn(external_id=session, started_at=started_at), turns=turns)
        result = memory.episodes.write(workspace, body.session.external_id, body.session.started_at, body.new_turns())
        job_id = None
        if memory.workspaces.settings(workspace).extract_sessions:  # as POST /v1/episodes without `extract`
            job_id = memory.memorize.memorize(workspace, MemorizeRequest(session_id=result.session_id), "mcp").job_id
        return _result(EpisodeOut.of(result, job_id))

    @server.tool(annotations=READS)
    def entity_profile(
        key: EntityKey,
        ctx: Context,
        valid_at: ValidAt = None,
        known_at: KnownAt = None,
        limit: Annotated[int, Field(ge=1, le=5000, description="claims at most")] = 200,
        identity: WithIdentity = False,
    ) -> Annotated[CallToolResult, EntityProfileOut]:
        """Everything memory holds about one entity, by predicate: current and replaced values, contradictions."""
        workspace, scope = workspace_of(ctx), TimeScope.resolve(valid_at, known_at)
        keys = memory.identity.keys(workspace, key, scope.known_at) if identity else None
        return _result(EntityProfileOut.model_validate(memory.explore.profile(workspace, key, scope, limit, keys)))

    @server.tool(annotations=WRITES)
    def link_entities(
        a: EntityKey,
        b: Annotated[Key, Field(description="another entity key that names the same person or thing")],
        reason: Annotated[str, Field(min_length=1, max_length=2000, pattern=r"\S", description="why they are one")],
        ctx: Context,
        score: Annotated[float | None, Field(ge=0.0, le=1.0, description="how sure, 0-1")] = None,
    ) -> Annotated[CallToolResult, SameAsOut]:
        """Record that two entity keys name the same person or thing ('mel' and 'melanie').

        Nothing is merged: each key keeps its claims; reads with identity=true take in both. Both keys
        must already be used by claims. Linking a pair twice is a no-op."""
        outcome = memory.identity.link(workspace_of(ctx), a, b, reason, score, "mcp")
        return _result(SameAsOut(id=outcome.id, created=outcome.created, recorded_at=iso(outcome.recorded_at) or ""))

    @server.tool(annotations=READS)
    def entity_identity(
        key: EntityKey, ctx: Context, known_at: KnownAt = None
    ) -> Annotated[CallToolResult, IdentityOut]:
        """Which keys name the same thing as this one (linked directly or through others), and why."""
        scope = TimeScope.resolve(None, known_at)
        return _result(IdentityOut.from_domain(memory.identity.identity(workspace_of(ctx), key, scope.known_at)))

    @server.tool(annotations=READS)
    def entity_paths(
        key: EntityKey,
        ctx: Context,
        to: Annotated[Key | None, Field(description="the entity to reach; leave out for every path out of key")] = None,
        max_hops: Annotated[int, Field(ge=1, le=MAX_HOPS, description="claims per path at most")] = 2,
        limit: Annotated[int, Field(ge=1, le=500, description="paths at most")] = 20,
        valid_at: ValidAt = None,
        known_at: KnownAt = None,
    ) -> Annotated[CallToolResult, EntityPathsOut]:
        """How entities connect: chains of claims from one entity to another (or to any within max_hops)."""
        scope = TimeScope.resolve(valid_at, known_at)
        paths = [
            EntityPathOut.model_validate(p)
            for p in memory.explore.paths(workspace_of(ctx), key, to, scope, max_hops, limit)
        ]
        return _result(EntityPathsOut.model_validate({"from": key, "to": to, "paths": paths}))

    memory_tools.register(server, memory, workspace_of)
    source_tools.register(server, memory, workspace_of)
    return server
