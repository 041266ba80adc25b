"""Episodes: what an agent heard, kept whole."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.deps import MemoryDep, WorkspaceDep
from app.api.schemas.episodes import EpisodeIn, EpisodeOut, TurnOutcomeOut
from app.episodes.service import NewTurn
from app.memorize.service import MemorizeRequest
from app.temporal.instants import iso

router = APIRouter(prefix="/v1/episodes", tags=["episodes"])


@router.post("", status_code=201, response_model=EpisodeOut)
def write_episode(body: EpisodeIn, memory: MemoryDep, workspace: WorkspaceDep) -> EpisodeOut:
    """Keep what was heard: a session's turns, split into dated, embedded passages. Posting the same
    session and turn external ids again writes nothing new. With `extract`, an extraction job over
    the whole session is queued (claims already found are found again, not written twice)."""
    result = memory.episodes.write(
        workspace,
        body.session.external_id,
        body.session.started_at,
        [NewTurn(t.external_id, t.speaker, t.text, t.occurred_at) for t in body.turns],
    )
    job_id = None
    extract = body.extract if body.extract is not None else memory.workspaces.settings(workspace).extract_sessions
    if extract:
        job_id = memory.memorize.memorize(workspace, MemorizeRequest(session_id=result.session_id), "api").job_id
    return EpisodeOut(
        extraction_job_id=job_id,
        recorded_at=iso(result.recorded_at) or "",
        session_id=result.session_id,
        turns=[TurnOutcomeOut(id=t.id, external_id=t.external_id, created=t.created) for t in result.turns],
    )
