"""Memorize: keep a text and extract claims from it."""

from __future__ import annotations

from fastapi import APIRouter, Response

from app.api.deps import MemoryDep, WorkspaceDep
from app.api.schemas.common import KEYED, WITH_BODY
from app.api.schemas.memorize import MemorizeIn, MemorizeOut
from app.jobs.extraction import worker_id
from app.memorize.service import MemorizeRequest

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
    outcome = memory.memorize.memorize(
        workspace,
        MemorizeRequest(
            text=body.text,
            document_id=body.document_id,
            session_id=body.session_id,
            title=body.title,
            occurred_at=body.occurred_at,
            mode=body.mode,
            passes=body.passes,
            lenses=tuple(body.lenses),
            run_async=body.run_async,
        ),
        runner=worker_id(),
    )
    if outcome.extraction != "queued":
        response.status_code = 200
    return MemorizeOut(
        source_kind=outcome.source_kind,
        source_id=outcome.source_id,
        extraction=outcome.extraction,
        job_id=outcome.job_id,
        queue_position=outcome.queue_position,
        eta_s=outcome.eta_s,
        summary=outcome.summary,
    )
