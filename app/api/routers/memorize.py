"""Memorize: keep a text and extract claims from it."""

from __future__ import annotations

from fastapi import APIRouter, Response

from donto.api.deps import MemoryDep, WorkspaceDep
from donto.api.schemas.common import KEYED, WITH_BODY
from donto.api.schemas.memorize import MemorizeBatchIn, MemorizeBatchOut, MemorizeIn, MemorizeOut
from donto.errors import InvalidInput
from donto.jobs.extraction import worker_id

router = APIRouter(prefix="/v1/memorize", tags=["memorize"], responses=KEYED)


@router.post(
    "",
    response_model=MemorizeOut,
    status_code=202,
    responses={200: {"model": MemorizeOut, "description": "ran now (async: false), or no LLM"}, **WITH_BODY},
)
def memorize(body: MemorizeIn, memory: MemoryDep, workspace: WorkspaceDep, response: Response) -> MemorizeOut:
    """Keep `text` as a document (or read a stored `document_id` or `session_id`) and extract claims
    from it: 202 with the queued job, or with `async: false` 200 and the finished job's summary.
    With no LLM endpoint configured the text is still kept, and `extraction` says `not_configured`."""
    outcome = memory.memorize.memorize(workspace, body.to_request(), runner=worker_id())
    if outcome.extraction != "queued":
        response.status_code = 200
    return MemorizeOut.of(outcome)


@router.post(
    "/batch",
    response_model=MemorizeBatchOut,
    status_code=202,
    responses={200: {"model": MemorizeBatchOut, "description": "no LLM: every text kept, none queued"}, **WITH_BODY},
)
def memorize_batch(
    body: MemorizeBatchIn, memory: MemoryDep, workspace: WorkspaceDep, response: Response
) -> MemorizeBatchOut:
    """Many texts (or kept documents, sessions) in one request, one queued job each, `results` in
    order. Every item is checked before any is kept: one bad item is a 422 naming `items[i].field`
    and keeps nothing. Items are always queued (`async: false` is refused): follow the jobs."""
    for i, item in enumerate(body.items):
        if item.images:
            raise InvalidInput("images are read in POST /v1/memorize, one request each", f"items[{i}].images")
        if not item.run_async:
            raise InvalidInput("a batch's items are queued: leave async true and follow the jobs", f"items[{i}].async")
    outcomes = memory.memorize.memorize_many(workspace, [item.to_request() for item in body.items], worker_id())
    if not any(o.extraction == "queued" for o in outcomes):
        response.status_code = 200
    return MemorizeBatchOut(results=[MemorizeOut.of(o) for o in outcomes])
