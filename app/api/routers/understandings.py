"""Understandings: consolidated, revisable views about subjects; a revision supersedes, never edits."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from donto.api.deps import MemoryDep, SessionDep, WorkspaceDep
from donto.api.schemas.common import KEYED, WITH_BODY, Id, errors
from donto.api.schemas.subjects import (
    HistoryOut,
    UnderstandingIn,
    UnderstandingListOut,
    UnderstandingOut,
    UnderstandingsAboutIn,
    UnderstandingUpdatedOut,
    UnderstandingUpdateIn,
)

router = APIRouter(prefix="/v1/understandings", tags=["understandings"], responses=KEYED)


@router.post("", status_code=201, response_model=UnderstandingOut, responses={**WITH_BODY, **errors(404, 409)})
def create_understanding(
    body: UnderstandingIn, memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep
) -> UnderstandingOut:
    """Write an understanding about subjects: single_subject (one subject) or relationship (two or
    more) by default; soul, protocol and orientation are the workspace's (orient reads them). A new
    soul, protocol, orientation, or single-subject or structural understanding of a subject,
    supersedes the active one; `supersedes` names others it consolidates (409 if already revised)."""
    return UnderstandingOut.of(
        memory.subjects.create_understanding(
            workspace,
            list(body.subject_names),
            body.text,
            body.summary,
            kind=body.kind,
            sources=list(body.source_observation_ids),
            supersedes=list(body.supersedes),
            reason=body.reason,
            model_tier=body.model_tier,
            session=session,
        )
    )


@router.post("/update", response_model=UnderstandingUpdatedOut, responses={**WITH_BODY, **errors(404, 409)})
def update_understanding(
    body: UnderstandingUpdateIn, memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep
) -> UnderstandingUpdatedOut:
    """Revise an active understanding: a new one (its kind, and its subjects unless given) that the
    old one is SUPERSEDED_BY. 409 if it was revised already: read the newest and revise that."""
    old, new = memory.subjects.update_understanding(
        workspace,
        body.understanding_id,
        body.new_text,
        body.new_summary,
        list(body.subject_names) if body.subject_names is not None else None,
        body.reason,
        body.model_tier,
        session,
    )
    return UnderstandingUpdatedOut(
        old_understanding_id=old.id,
        new_understanding_id=new.id,
        subject_names=new.subjects,
        understanding=UnderstandingOut.of(new),
    )


@router.post("/about", response_model=UnderstandingListOut, responses={**WITH_BODY, **errors(404)})
def get_understandings(body: UnderstandingsAboutIn, memory: MemoryDep, workspace: WorkspaceDep) -> UnderstandingListOut:
    """The active understandings about ALL the subjects named, newest first."""
    found = memory.subjects.understandings_about(workspace, list(body.subject_names), list(body.kinds), body.limit)
    return UnderstandingListOut(understandings=[UnderstandingOut.of(u) for u in found])


UnderstandingId = Annotated[Id, Path(description="an understanding's id")]


@router.get("/{understanding_id}/history", response_model=HistoryOut, responses=errors(404))
def understanding_history(understanding_id: UnderstandingId, memory: MemoryDep, workspace: WorkspaceDep) -> HistoryOut:
    """Every version of an understanding, oldest first, and the SUPERSEDED_BY edges between them."""
    return HistoryOut.of(memory.subjects.history(workspace, understanding_id))


@router.get("/{understanding_id}", response_model=UnderstandingOut, responses=errors(404))
def get_understanding(
    understanding_id: UnderstandingId, memory: MemoryDep, workspace: WorkspaceDep
) -> UnderstandingOut:
    [found] = memory.subjects.understandings(workspace, [understanding_id], field="understanding_id")
    return UnderstandingOut.of(found)
