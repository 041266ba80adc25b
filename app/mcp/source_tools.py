"""What an agent reads, handed to donto over MCP: documents, memorize and the jobs it queues, each
mapped to the service call its REST route makes (app/api/routers/documents.py, memorize.py,
jobs.py) and answered with the same response models; and MCP resources, read by URI, for a claim,
an entity's profile and a document's text (seed 000: affordances a client can attach to a
conversation without a tool call)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated

from mcp import MCPError
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import INTERNAL_ERROR, INVALID_PARAMS, CallToolResult
from pydantic import Field

from donto import errors
from donto.api.schemas.claims import ClaimOut, RetractIn, RetractOut
from donto.api.schemas.common import Id, Instant
from donto.api.schemas.documents import DocumentDetailOut, DocumentIn, DocumentOut, DocumentPageOut
from donto.api.schemas.explore import EntityProfileOut
from donto.api.schemas.jobs import JobCancelOut, JobOut, JobPageOut
from donto.api.schemas.memorize import MemorizeIn, MemorizeOut
from donto.documents.service import MAX_DOCUMENTS_PAGE, MAX_EXTERNAL_IDS
from donto.errors import error_body
from donto.jobs.store import MAX_PAGE
from donto.mcp.common import READS, WRITES, Describe, as_rest
from donto.mcp.common import result as _result
from donto.memory import Memory
from donto.temporal.instants import iso
from donto.temporal.scope import TimeScope

OCCURRED_AT = (
    "when the text was written or said (ISO-8601). It dates what the text says: 'last month' in it is "
    "resolved against this; default now"
)
DocumentId = Annotated[Id, Field(description="a document revision's id, as register_document or memorize gave it")]
JobId = Annotated[Id, Field(description="a job id, as memorize gave it")]


def register(server: MCPServer, memory: Memory, workspace_of: Callable[[Context], str]) -> None:
    """Add the documents, memorize and jobs tools and the resources to `server`."""

    @server.tool(annotations=WRITES)
    def register_document(
        body: Annotated[
            DocumentIn,
            Describe(
                text="verbatim: a note, a page, a transcript ('Name: line')",
                title="what it is called",
                source="where it came from, e.g. a URL",
                external_id="your own id for it: the same id with new text is a new revision",
                occurred_at=OCCURRED_AT,
                revision_kind="new text under an existing external_id: 'version' (the world changed: valid from "
                "occurred_at, the revision before valid until then) or 'correction' (a fix of the revision before); "
                "default: a later occurred_at is a version, the same or none a correction",
                metadata="a JSON object kept with it and handed back on reads and listings (never searched); "
                "with metadata the text may be empty",
            ),
        ],
        ctx: Context,
    ) -> Annotated[CallToolResult, DocumentOut]:
        """Keep a text so that recall finds its sentences (no LLM needed), and so that claims can cite it.

        It is cut into passages, each recallable with its exact character offsets. Registering the
        same text again changes nothing; new text under the same external_id is a new revision: a new
        version, valid from its occurred_at (recall as of an earlier time still finds the one before), or
        a correction, which reads from then on see instead of the one before. To also extract facts
        from it, use memorize."""
        doc = body.register_in(memory.documents, workspace_of(ctx))
        return _result(DocumentOut.of(doc))

    @server.tool(annotations=READS)
    def list_documents(
        ctx: Context,
        prefix: Annotated[
            str | None, Field(max_length=512, description="only documents whose external id starts with this")
        ] = None,
        external_id: Annotated[
            list[str] | None,
            Field(max_length=MAX_EXTERNAL_IDS, description="only the documents of exactly these external ids"),
        ] = None,
        known_at: Annotated[
            Instant | None, Field(description="as memory knew it at this instant, to see what it held; default now")
        ] = None,
        valid_at: Annotated[
            Instant | None,
            Field(description="the version in force at this instant (a price list, a policy as it was); default now"),
        ] = None,
        limit: Annotated[int, Field(ge=1, le=MAX_DOCUMENTS_PAGE, description="documents per page")] = 100,
        cursor: Annotated[str | None, Field(max_length=1024, description="next_cursor of the previous page")] = None,
    ) -> Annotated[CallToolResult, DocumentPageOut]:
        """The documents kept under an external id, each by its current revision, with its metadata.

        In external id order, as known at known_at and valid at valid_at (both default now): of a
        document's versions, the one in force then; retracted ones are left out."""
        if prefix is not None and external_id is not None:
            raise errors.InvalidInput("give prefix or external_id, not both", field="external_id")
        scope = TimeScope.resolve(valid_at, known_at)
        page = memory.documents.listing(
            workspace_of(ctx),
            known_at=scope.known_at,
            valid_at=scope.valid_at,
            prefix=prefix or "",
            external_ids=external_id,
            limit=limit,
            cursor=cursor,
        )
        return _result(DocumentPageOut.of(page))

    @server.tool(annotations=WRITES)
    def retract_document(
        document_id: DocumentId,
        body: Annotated[RetractIn, Describe(reason="why it was wrong")],
        ctx: Context,
    ) -> Annotated[CallToolResult, RetractOut]:
        """Withdraw a document's current revision: recall and reads from now on no longer find it.

        Nothing is deleted: reads as known before now still see it. Retracting twice is a conflict."""
        retracted_at = memory.documents.retract(workspace_of(ctx), document_id, body.reason)
        return _result(RetractOut(id=document_id, retracted_at=iso(retracted_at) or ""))

    @server.tool(annotations=READS)
    def get_document(document_id: DocumentId, ctx: Context) -> Annotated[CallToolResult, DocumentDetailOut]:
        """A document revision's title, dates, length and passage count, and all its revisions.

        Its text is the resource donto://documents/{id}."""
        return _result(DocumentDetailOut.of(memory.documents.get(workspace_of(ctx), document_id)))

    @server.tool(annotations=WRITES)
    def memorize(
        body: Annotated[
            MemorizeIn,
            Describe(
                text="text to keep and read (or document_id, or session_id)",
                session_id="a conversation's session id, as add_turns gave it",
                title="with text: the title it is kept under",
                occurred_at=OCCURRED_AT,
                mode="single: one pass; exhaustive: several angles; deep: passes until nothing new "
                "(sequential and iterative mean deep; multi and apertures mean exhaustive)",
                lenses="focused passes after the mode's own, e.g. ['kinship', 'health'], or \"default\" for the "
                "built-in set (people and roles, times, places, quantities, causes, who said what)",
                **{
                    "async": "true (the default): queue a job and answer with its id; false: extract now and "
                    "answer with the result (can take minutes)"
                },
            ),
        ],
        ctx: Context,
    ) -> Annotated[CallToolResult, MemorizeOut]:
        """Read a text (or a kept document or conversation) and remember the facts in it as dated claims.

        Images (screenshots, photos of pages) are read by OCR and their text kept with the text.
        The text is kept as a document at once, so recall finds it even before (or without) extraction.
        With an LLM endpoint configured, a job extracts claims: each dated against occurred_at, a later
        value of a single-valued fact (where someone lives) superseding the earlier one. Queued (the
        default, async: true) answers with job_id; follow it with get_job. extraction is not_configured
        when the server has no LLM: the text is still kept and recallable."""
        return _result(MemorizeOut.of(memory.memorize.memorize(workspace_of(ctx), body.to_request(), "mcp")))

    @server.tool(annotations=READS)
    def get_job(job_id: JobId, ctx: Context) -> Annotated[CallToolResult, JobOut]:
        """A memorize job: its state, place in the queue, and what each pass found.

        state is queued, running, succeeded, failed or cancelled; summary and passes count the facts
        found, the claims created and found again, and the dates resolved."""
        return _result(JobOut.from_view(memory.jobs.get(workspace_of(ctx), job_id)))

    @server.tool(annotations=READS)
    def list_jobs(
        ctx: Context,
        state: Annotated[
            str | None,
            Field(
                max_length=16, description="only jobs in this state: queued, running, succeeded, failed or cancelled"
            ),
        ] = None,
        before: Annotated[Id | None, Field(description="next_before of the page before, for older jobs")] = None,
        limit: Annotated[int, Field(ge=1, le=MAX_PAGE, description="jobs at most")] = 50,
    ) -> Annotated[CallToolResult, JobPageOut]:
        """This workspace's memorize jobs, newest first."""
        jobs = memory.jobs.page(workspace_of(ctx), state, before, limit)
        next_before = jobs[-1].id if len(jobs) == limit else None
        return _result(JobPageOut(jobs=[JobOut.from_view(j) for j in jobs], next_before=next_before))

    @server.tool(annotations=WRITES)
    def cancel_job(job_id: JobId, ctx: Context) -> Annotated[CallToolResult, JobCancelOut]:
        """Stop a memorize job: a queued one at once, a running one at its next pass.

        Claims it already wrote stay."""
        return _result(
            JobCancelOut.model_validate({"id": job_id, "state": memory.jobs.cancel(workspace_of(ctx), job_id)})
        )

    @server.resource("donto://claims/{id}", mime_type="application/json")
    def claim_resource(id: str, ctx: Context) -> str:
        """A claim in full: both time intervals, its premises and evidence."""
        with resource_errors():
            return as_rest(ClaimOut.from_domain(memory.claims.get(workspace_of(ctx), id, TimeScope.now())))[1]

    @server.resource("donto://entities/{key}", mime_type="application/json")
    def entity_resource(key: str, ctx: Context) -> str:
        """What memory holds now about an entity, by predicate: current and replaced values."""
        with resource_errors():
            workspace = workspace_of(ctx)
            profile = memory.explore.profile(workspace, key, TimeScope.resolve(None, None), 200, None)
            return as_rest(EntityProfileOut.model_validate(profile))[1]

    @server.resource("donto://documents/{id}", mime_type="text/plain")
    def document_resource(id: str, ctx: Context) -> str:
        """A document revision's text as registered: passages' and evidence spans' offsets index it."""
        with resource_errors():
            return memory.documents.text(workspace_of(ctx), id)


@contextmanager
def resource_errors() -> Iterator[None]:
    """A resource read's domain error as a protocol error carrying donto's error body in `data`:
    what the caller got wrong (an id of nothing) is invalid params, as the SDK's not-found is."""
    try:
        yield
    except errors.DontoError as exc:
        code = INVALID_PARAMS if isinstance(exc, errors.InvalidInput | errors.NotFound) else INTERNAL_ERROR
        raise MCPError(code=code, message=exc.message, data=error_body(exc.code, exc.message, exc.field)) from exc
