"""Jobs: what the background queue did with each request, pass by pass."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from donto.api.deps import MemoryDep, WorkspaceDep
from donto.api.schemas.common import KEYED, errors
from donto.api.schemas.jobs import JobCancelOut, JobFactOut, JobFactsOut, JobOut, JobPageOut, JobRawOut, JobRawPassOut
from donto.jobs.store import MAX_FACTS_PAGE, MAX_PAGE

router = APIRouter(prefix="/v1/jobs", tags=["jobs"], responses=KEYED)


@router.get("", response_model=JobPageOut)
def list_jobs(
    memory: MemoryDep,
    workspace: WorkspaceDep,
    state: Annotated[str | None, Query(max_length=16)] = None,
    before: Annotated[
        str | None, Query(min_length=1, max_length=128, description="a job id: the next_before of the page before")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
) -> JobPageOut:
    """This workspace's jobs, newest first; `state` filters, `before` pages on (422 when it names no
    job of this workspace)."""
    jobs = memory.jobs.page(workspace, state, before, limit)
    return JobPageOut(jobs=[JobOut.from_view(j) for j in jobs], next_before=jobs[-1].id if len(jobs) == limit else None)


@router.get("/{job_id}", response_model=JobOut, responses=errors(404))
def get_job(job_id: str, memory: MemoryDep, workspace: WorkspaceDep) -> JobOut:
    """One job: its request, state, place in the queue, and every pass's yields."""
    return JobOut.from_view(memory.jobs.get(workspace, job_id))


@router.get("/{job_id}/raw", response_model=JobRawOut, responses=errors(404))
def job_raw(job_id: str, memory: MemoryDep, workspace: WorkspaceDep) -> JobRawOut:
    """What the model said, reply by reply, pass by pass."""
    rows = memory.jobs.raw(workspace, job_id)
    return JobRawOut(id=job_id, passes=[JobRawPassOut(**r) for r in rows])


@router.get("/{job_id}/facts", response_model=JobFactsOut, responses=errors(404))
def job_facts(
    job_id: str,
    memory: MemoryDep,
    workspace: WorkspaceDep,
    after: Annotated[int, Query(ge=0, description="a seq: the next_after of the page before")] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_FACTS_PAGE)] = 500,
) -> JobFactsOut:
    """Every fact the model stated, in order: its pass and lens, its quote, where it was anchored or
    why not, and what became of it (created, existing, corroborated, repeated: a claim id each;
    rejected: why). Empty until the job has written its claims."""
    rows = memory.jobs.facts(workspace, job_id, after, limit)
    facts = [JobFactOut.of(r) for r in rows]
    return JobFactsOut(id=job_id, facts=facts, next_after=facts[-1].seq if len(facts) == limit else None)


@router.post("/{job_id}/cancel", response_model=JobCancelOut, responses=errors(404))
def cancel_job(job_id: str, memory: MemoryDep, workspace: WorkspaceDep) -> JobCancelOut:
    """A queued job is cancelled at once; a running one stops at its next pass."""
    return JobCancelOut.model_validate({"id": job_id, "state": memory.jobs.cancel(workspace, job_id)})
