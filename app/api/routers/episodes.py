"""Episodes: what an agent heard, kept whole."""

from __future__ import annotations

from fastapi import APIRouter

from donto.api.deps import MemoryDep, WorkspaceDep
from donto.api.schemas.common import KEYED, WITH_BODY, errors
from donto.api.schemas.episodes import EpisodeIn, EpisodeOut
from donto.memorize.service import MemorizeRequest

router = APIRouter(prefix="/v1/episodes", tags=["episodes"], responses=KEYED)


@router.post("", status_code=201, response_model=EpisodeOut, responses={**WITH_BODY, **errors(409)})
def write_episode(body: EpisodeIn, memory: MemoryDep, workspace: WorkspaceDep) -> EpisodeOut:
    """Keep what was heard: a session's turns, split into dated, embedded passages. Posting the same
    session and turn external ids again writes nothing new. With `extract`, an extraction job over
    the whole session is queued (claims already found are found again, not written twice)."""
    result = memory.episodes.write(workspace, body.session.external_id, body.session.started_at, body.new_turns())
    job_id = None
    extract = body.extract if body.extract is not None else memory.workspaces.settings(workspace).extract_sessions
    if extract:
        job_id = memory.memorize.memorize(workspace, MemorizeRequest(session_id=result.session_id), "api").job_id
    return EpisodeOut.of(result, job_id)
