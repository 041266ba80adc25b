"""donto's verbs as MCP tools, over one Memory, for whichever transport serves them.

Each tool takes the REST API's request shapes (app/api/schemas) as typed arguments and answers
with its response shapes, as compact JSON text and as structured content. A domain error, or an
argument that fails validation (an argument a tool does not take among them, as REST refuses an
unknown field), comes back as a tool error carrying the REST error body
(`{"error": {"code", "message", "field"}}`); anything else is the SDK's generic tool error, never a
traceback."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, ClassVar, cast

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp_types import CallToolResult, Icon, InputRequiredResult, ToolAnnotations
from mcp_types import Tool as MCPTool
from pydantic import BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic.fields import FieldInfo

from donto import errors
from donto.api.schemas.claims import (
    MAX_BATCH,
    ClaimOut,
    ClaimPage,
    ClaimsWriteIn,
    ClaimsWriteOut,
    RetractIn,
    RetractOut,
    WriteOutcomeOut,
)
from donto.api.schemas.common import Id, Instant, Key
from donto.api.schemas.conversations import SessionClearOut, SessionPageOut, TurnOut, TurnPageOut, TurnRetractOut
from donto.api.schemas.episodes import EpisodeIn, EpisodeOut
from donto.api.schemas.explore import EntityPathOut, EntityPathsOut, EntityProfileOut
from donto.api.schemas.identity import IdentityOut, SameAsIn, SameAsOut
from donto.api.schemas.recall import RecallIn, RecallOut
from donto.api.schemas.walk import StatusBatchOut, StatusIn, StatusOut
from donto.episodes.conversations import MAX_SESSIONS_PAGE, MAX_TURNS_PAGE
from donto.errors import invalid_input
from donto.explore.service import MAX_HOPS
from donto.mcp import memory_tools, source_tools
from donto.mcp.common import BODY, READS, WRITES, Describe, WorkspaceOf
from donto.mcp.common import error as _error
from donto.mcp.common import result as _result
from donto.mcp.stdio_transport import stdio_streams
from donto.memorize.service import MemorizeRequest
from donto.memory import Memory
from donto.settings import APP_VERSION
from donto.temporal.instants import iso
from donto.temporal.scope import TimeScope

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

VALID_AT = "what was true at this instant (ISO-8601 date or date-time); default now"
KNOWN_AT = "as memory knew it at this instant, to see what it believed then; default now"
ValidAt = Annotated[Instant | None, Field(description=VALID_AT)]
KnownAt = Annotated[Instant | None, Field(description=KNOWN_AT)]
ClaimId = Annotated[Id, Field(description="a claim id, as write_claims or a read returned it")]
EntityKey = Annotated[Key, Field(description="an entity key, as used in claims' subject or object, e.g. 'apple'")]
SessionKey = Annotated[Key, Field(description="a conversation's external_id, as add_turns was given it")]
TurnId = Annotated[Id, Field(description="a turn's id, as add_turns or a read of the session returned it")]
TurnCursor = Annotated[
    str | None,
    Field(min_length=1, max_length=512, description="next_after / next_before of a page, or a turn's seq"),
]
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
        """Register the tool as the SDK does, then make its argument model refuse names it does not
        declare, as the REST request models do: a misspelt valid_at is refused ("unknown field"),
        not ignored into an unscoped answer. A tool whose REST operation reads a JSON body declares
        it as its `body` parameter (the request model itself): its arguments are then that model's
        fields, flattened beside the tool's other parameters (the REST path's), validated by the
        model, and handed to the tool as one instance of it, so the two shapes cannot drift. The
        published inputSchema, made again from that model, says so (additionalProperties: false)."""
        super().add_tool(fn, name, title, description, annotations, icons, meta, structured_output)
        tool = self._tool_manager.get_tool(name or fn.__name__)  # the SDK lends no public way to it
        assert tool is not None
        lax = tool.fn_metadata.arg_model
        body = lax.model_fields.get(BODY)
        strict = _flattened(lax, body) if body is not None else _forbidding(lax)
        tool.fn_metadata.arg_model = strict
        tool.parameters = strict.model_json_schema(by_alias=True)
        if body is not None:
            _describe(tool.parameters, body)

    _after_listing: Callable[[], object] | None = None

    def after_first_listing(self, then: Callable[[], object]) -> None:
        """Call `then()` once, when the tools are first listed (stdio starts loading the model then)."""
        self._after_listing = then

    async def list_tools(self) -> list[MCPTool]:
        tools = await super().list_tools()
        if (then := self._after_listing) is not None:
            self._after_listing = None
            then()
        return tools

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


class _Flat(ArgModelBase):
    """A tool's arguments that are its REST request's body fields plus its path parameters: the SDK
    hands the tool the validated model as `body` and each path parameter by name."""

    path_parameters: ClassVar[tuple[str, ...]] = ()

    def model_dump_one_level(self) -> dict[str, Any]:
        return {BODY: self, **{p: getattr(self, p) for p in self.path_parameters}}


def _forbidding(lax: type[ArgModelBase]) -> type[ArgModelBase]:
    return cast(type[ArgModelBase], type(lax.__name__, (lax,), {"model_config": ConfigDict(extra="forbid")}))


def _flattened(lax: type[ArgModelBase], body: FieldInfo) -> type[ArgModelBase]:
    """The argument model of a tool that takes a REST body: a subclass of the request model (its
    validators, its strictness, `extra="forbid"`), with the tool's other parameters as fields."""
    request = body.annotation
    assert isinstance(request, type) and issubclass(request, BaseModel), "a tool's body is a REST request model"
    path = {n: (f.annotation, f) for n, f in lax.model_fields.items() if n != BODY}
    assert not set(path) & set(request.model_fields), f"{lax.__name__}: a path parameter shadows a body field"
    model = create_model(lax.__name__, __base__=(request, _Flat), **path)  # type: ignore[call-overload]
    model.path_parameters = tuple(path)
    return cast(type[ArgModelBase], model)


def _describe(schema: dict[str, Any], body: FieldInfo) -> None:
    for marker in body.metadata:
        if isinstance(marker, Describe):
            for field, description in marker.descriptions.items():
                assert field in schema["properties"], f"Describe names {field}, which the request has not"
                schema["properties"][field]["description"] = description


def build_server(memory: Memory, workspace_of: WorkspaceOf) -> DontoMCP:
    server = DontoMCP("donto", version=APP_VERSION, instructions=INSTRUCTIONS, log_level="WARNING")

    @server.tool(annotations=WRITES)
    def write_claims(
        body: Annotated[ClaimsWriteIn, Describe(claims=f"1 to {MAX_BATCH} claims, written all or none")],
        ctx: Context,
    ) -> Annotated[CallToolResult, ClaimsWriteOut]:
        """Remember facts as claims: subject, predicate, object, and when each was true.

        object is {"entity": "<key>"} for a thing, or {"literal": {"value": ..., "datatype": "xsd:string"}}
        for a value (xsd:integer, xsd:decimal, xsd:boolean, xsd:date, xsd:dateTime too). valid_from and
        valid_to (ISO-8601) bound when the fact held in the world; leave valid_to out while it holds.
        derived_from lists the claim ids it was concluded from (claim_status follows them); evidence
        cites characters of a stored turn or document: {"document_id", "start", "end"}. All or nothing;
        a claim already known comes back with its id and created=false."""
        result = memory.claims.write(workspace_of(ctx), [c.to_domain() for c in body.claims])
        return _result(
            ClaimsWriteOut(
                recorded_at=iso(result.recorded_at) or "",
                claims=[WriteOutcomeOut(id=o.id, created=o.created) for o in result.claims],
            )
        )

    @server.tool(annotations=READS)
    def list_claims(
        ctx: Context,
        subject: Annotated[str | None, Field(max_length=512, description="only claims about this entity key")] = None,
        predicate: Annotated[str | None, Field(max_length=512, description="only claims with this predicate")] = None,
        object: Annotated[
            str | None, Field(max_length=4096, description="only claims whose object is this entity key")
        ] = None,
        valid_at: ValidAt = None,
        known_at: KnownAt = None,
        include_retracted: Annotated[bool, Field(description="also claims withdrawn as wrong")] = False,
        limit: Annotated[int, Field(ge=1, description="claims per page")] = 100,
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
    def get_claim(
        claim_id: ClaimId, ctx: Context, valid_at: ValidAt = None, known_at: KnownAt = None
    ) -> Annotated[CallToolResult, ClaimOut]:
        """One claim in full: both time intervals, the claims it rests on and that rest on it, its evidence text.

        Its state and what replaced it are as of valid_at and known_at."""
        scope = TimeScope.resolve(valid_at, known_at)
        return _result(ClaimOut.from_domain(memory.claims.get(workspace_of(ctx), claim_id, scope)))

    @server.tool(annotations=READS)
    def claim_status(
        body: Annotated[
            StatusIn,
            Describe(
                ids="claim ids, as write_claims or a read returned them",
                valid_at=VALID_AT,
                known_at=KNOWN_AT,
                max_depth="derivation hops to walk at most",
                fan_out="premises to follow from one claim at most",
            ),
        ],
        ctx: Context,
    ) -> Annotated[CallToolResult, StatusBatchOut]:
        """Is a remembered claim still safe to act on? Walks the premises it was derived from.

        POTENTIALLY_STALE, with reasons (a premise superseded, retracted or expired at valid_at), or
        UNVERIFIED when nothing on the walk is out of date; contested lists premises contradicted."""
        statuses = memory.walk.status(workspace_of(ctx), body.ids, body.scope(), body.max_depth, body.fan_out)
        return _result(StatusBatchOut(statuses=[StatusOut.model_validate(s) for s in statuses]))

    @server.tool(annotations=WRITES)
    def retract_claim(
        claim_id: ClaimId, body: Annotated[RetractIn, Describe(reason="why it was wrong")], ctx: Context
    ) -> Annotated[CallToolResult, RetractOut]:
        """Withdraw a claim that was wrong. For a fact that stopped being true, write the new one instead.

        Nothing is deleted: reads as known before now still see it. Retracting twice is a conflict."""
        retracted_at = memory.claims.retract(workspace_of(ctx), claim_id, body.reason)
        return _result(RetractOut(id=claim_id, retracted_at=iso(retracted_at) or ""))

    @server.tool(annotations=READS)
    def recall(
        body: Annotated[
            RecallIn,
            Describe(
                query="the question, in words",
                k="items at most",
                arms="only these retrieval arms, by name (for diagnosis); default: every one",
                valid_at=VALID_AT,
                known_at=KNOWN_AT,
                max_tokens="trim the lowest-ranked items to fit",
                include_provenance="with each item: its turn, session and claim ids and the claims' status",
            ),
        ],
        ctx: Context,
    ) -> Annotated[CallToolResult, RecallOut]:
        """What the kept conversations and claims hold on a question: a small, dated, evidence-anchored bundle.

        Items are turns, passages and claims (add_turns, write_claims), each with its date in the text.
        No LLM is involved. For the subjects, observations and understandings you curate yourself, use
        recall_memory instead."""
        workspace = workspace_of(ctx)
        return _result(RecallOut.of(memory.recall.recall(workspace, body.request()), workspace))

    @server.tool(annotations=WRITES)
    def add_turns(
        body: Annotated[
            EpisodeIn,
            Describe(
                session="the conversation: {external_id: its own id, e.g. 'chat-2026-11-20', started_at: when it "
                "began (ISO-8601), which dates relative words in it}",
                turns="what was said, in order: {external_id, speaker, text (may be empty), occurred_at?, "
                "metadata? (a JSON object kept with the turn)} each",
                extract="queue an extraction job over the conversation (needs an LLM); default: the "
                "workspace's extract_sessions setting",
            ),
        ],
        ctx: Context,
    ) -> Annotated[CallToolResult, EpisodeOut]:
        """Keep what was said, verbatim: append turns (speaker, text) to a conversation.

        Turns are split into dated passages that recall searches ("last Saturday" is resolved against
        the turn's occurred_at, else the session's started_at). Sending the same session and turn
        external_ids again adds nothing."""
        workspace = workspace_of(ctx)
        result = memory.episodes.write(workspace, body.session.external_id, body.session.started_at, body.new_turns())
        extract = body.extract if body.extract is not None else memory.workspaces.settings(workspace).extract_sessions
        job_id = None
        if extract:  # as POST /v1/episodes
            job_id = memory.memorize.memorize(workspace, MemorizeRequest(session_id=result.session_id), "mcp").job_id
        return _result(EpisodeOut.of(result, job_id))

    @server.tool(annotations=READS)
    def session_turns(
        session: SessionKey,
        ctx: Context,
        limit: Annotated[int, Field(ge=1, le=MAX_TURNS_PAGE, description="turns at most")] = 50,
        after: Annotated[TurnCursor, Field(description="the turns after this: next_after of a page, or a seq")] = None,
        before: Annotated[
            TurnCursor, Field(description="the turns just before this: next_before of a page, or a seq")
        ] = None,
        latest: Annotated[bool, Field(description="the conversation's last `limit` turns (still in order)")] = False,
        valid_at: Annotated[
            Instant | None, Field(description="only turns said by this instant; default: no cut")
        ] = None,
        known_at: KnownAt = None,
    ) -> Annotated[CallToolResult, TurnPageOut]:
        """Read a conversation back, verbatim, in order: its turns as add_turns kept them.

        latest=true gives its last `limit` turns (what was said most recently); page on with next_before
        (earlier) or next_after (later). Retracted turns are left out, unless read as known before."""
        page = memory.conversations.session_turns(
            workspace_of(ctx),
            session,
            limit=limit,
            after=after,
            before=before,
            latest=latest,
            valid_at=valid_at,
            known_at=TimeScope.resolve(None, known_at).known_at,
        )
        return _result(TurnPageOut.of(page))

    @server.tool(annotations=READS)
    def list_sessions(
        ctx: Context,
        limit: Annotated[int, Field(ge=1, le=MAX_SESSIONS_PAGE, description="sessions per page")] = 50,
        cursor: Annotated[str | None, Field(max_length=512, description="next_cursor of the previous page")] = None,
        known_at: KnownAt = None,
        prefix: Annotated[
            str | None,
            Field(min_length=1, max_length=512, description="only sessions whose external id starts with this"),
        ] = None,
    ) -> Annotated[CallToolResult, SessionPageOut]:
        """The conversations kept (add_turns), in the order they began, a page at a time.

        Each with its live turn count and when its first and last turns were said; with `prefix`, only
        the sessions whose external id starts with it."""
        scope = TimeScope.resolve(None, known_at)
        page = memory.conversations.sessions(
            workspace_of(ctx), limit=limit, cursor=cursor, known_at=scope.known_at, prefix=prefix or ""
        )
        return _result(SessionPageOut.of(page))

    @server.tool(annotations=READS)
    def get_turn(turn_id: TurnId, ctx: Context) -> Annotated[CallToolResult, TurnOut]:
        """One turn by its id, live or retracted (retracted_at says when)."""
        return _result(TurnOut.of(memory.conversations.get_turn(workspace_of(ctx), turn_id)))

    @server.tool(annotations=WRITES)
    def retract_turn(
        turn_id: TurnId, body: Annotated[RetractIn, Describe(reason="why it should not be remembered")], ctx: Context
    ) -> Annotated[CallToolResult, TurnRetractOut]:
        """Take back one turn of a conversation: recall and reads no longer find it from now on.

        Nothing is deleted: reads as known before now still see it. Retracting it again answers with the
        first retraction (was_live=false)."""
        retraction = memory.conversations.retract_turn(workspace_of(ctx), turn_id, body.reason)
        return _result(TurnRetractOut.of(retraction))

    @server.tool(annotations=WRITES)
    def clear_session(
        session: SessionKey,
        body: Annotated[RetractIn, Describe(reason="why it should not be remembered")],
        ctx: Context,
    ) -> Annotated[CallToolResult, SessionClearOut]:
        """Take back every turn of a conversation at once: recall and reads no longer find them from now on.

        Nothing is deleted: reads as known before now still see them. New turns may still be added."""
        return _result(SessionClearOut.of(memory.conversations.clear_session(workspace_of(ctx), session, body.reason)))

    @server.tool(annotations=READS)
    def entity_profile(
        key: EntityKey,
        ctx: Context,
        valid_at: ValidAt = None,
        known_at: KnownAt = None,
        limit: Annotated[int, Field(ge=1, le=5000, description="claims at most")] = 1000,
        identity: WithIdentity = False,
    ) -> Annotated[CallToolResult, EntityProfileOut]:
        """Everything memory holds about one entity, by predicate: current and replaced values, contradictions."""
        workspace, scope = workspace_of(ctx), TimeScope.resolve(valid_at, known_at)
        keys = memory.identity.keys(workspace, key, scope.known_at) if identity else None
        return _result(EntityProfileOut.model_validate(memory.explore.profile(workspace, key, scope, limit, keys)))

    @server.tool(annotations=WRITES)
    def link_entities(body: SameAsIn, ctx: Context) -> Annotated[CallToolResult, SameAsOut]:
        """Record that two entity keys name the same person or thing ('mel' and 'melanie').

        Nothing is merged: each key keeps its claims; reads with identity=true take in both. Both keys
        must already be used by claims. Linking a pair twice is a no-op."""
        outcome = memory.identity.link(workspace_of(ctx), body.a, body.b, body.reason, body.score, "mcp")
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
        to: Annotated[
            str | None, Field(max_length=512, description="the entity to reach; leave out for every path out of key")
        ] = None,
        max_hops: Annotated[int, Field(ge=1, le=MAX_HOPS, description="claims per path at most")] = 2,
        limit: Annotated[int, Field(ge=1, le=500, description="paths at most")] = 50,
        identity: Annotated[
            bool, Field(description="from (and to) every key linked to the entity as the same thing (link_entities)")
        ] = False,
        valid_at: ValidAt = None,
        known_at: KnownAt = None,
    ) -> Annotated[CallToolResult, EntityPathsOut]:
        """How entities connect: chains of claims from one entity to another (or to any within max_hops)."""
        workspace, scope = workspace_of(ctx), TimeScope.resolve(valid_at, known_at)
        identities = None
        if identity:
            identities = (
                memory.identity.keys(workspace, key, scope.known_at),
                None if to is None else memory.identity.keys(workspace, to, scope.known_at),
            )
        paths = [
            EntityPathOut.model_validate(p)
            for p in memory.explore.paths(workspace, key, to, scope, max_hops, limit, identities)
        ]
        return _result(EntityPathsOut.model_validate({"from": key, "to": to, "paths": paths}))

    memory_tools.register(server, memory, workspace_of)
    source_tools.register(server, memory, workspace_of)
    return server
