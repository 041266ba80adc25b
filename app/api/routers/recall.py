"""Episodes in, memory bundles out; the entity dossier."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import ServicesDep, WorkspaceDep
from app.api.routers.claims import instant_param
from app.api.schemas import EpisodeIn, EpisodeOut, RecallIn, RecallOut, TurnOutcomeOut
from app.episodes.service import NewTurn
from app.recall.service import RecallRequest, public
from app.timeutil import iso

router = APIRouter(tags=["recall"])


@router.post("/v1/episodes", status_code=201, response_model=EpisodeOut)
def write_episode(body: EpisodeIn, svc: ServicesDep, workspace: WorkspaceDep) -> EpisodeOut:
    """Keep what was heard: a session's turns, split into dated, embedded passages. Posting the same
    session and turn external ids again writes nothing new."""
    result = svc.episodes.write(
        workspace, body.session.external_id, body.session.started_at,
        [NewTurn(t.external_id, t.speaker, t.text, t.occurred_at) for t in body.turns],
    )
    return EpisodeOut(recorded_at=iso(result.recorded_at), session_id=result.session_id,
                      turns=[TurnOutcomeOut(id=t.id, external_id=t.external_id, created=t.created) for t in result.turns])


@router.post("/v1/recall", response_model=RecallOut)
def recall(body: RecallIn, svc: ServicesDep, workspace: WorkspaceDep) -> RecallOut:
    """A small, dated, evidence-anchored memory bundle for a question."""
    items, took_ms = svc.recall.recall(workspace, RecallRequest(
        query=body.query, k=body.k, valid_at=body.valid_at, known_at=body.known_at,
        arms=tuple(body.arms) if body.arms is not None else None, max_tokens=body.max_tokens,
        include_provenance=body.include_provenance,
    ))
    return RecallOut(items=public(items), took_ms=round(took_ms, 2))


@router.get("/v1/entities/{key}/profile")
def entity_profile(key: str, svc: ServicesDep, workspace: WorkspaceDep,
                   valid_at: str | None = None, known_at: str | None = None,
                   limit: Annotated[int, Query(ge=1, le=5000)] = 1000) -> dict:
    """Everything donto holds about one entity, grouped by predicate, dated, contradictions shown."""
    return svc.explore.profile(workspace, key, instant_param(valid_at, "valid_at"),
                               instant_param(known_at, "known_at"), limit)
