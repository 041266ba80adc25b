"""Subjects: create, read, list; observations about them; their intersections."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from app.api.deps import MemoryDep, WorkspaceDep
from app.api.schemas.common import KEYED, WITH_BODY, errors
from app.api.schemas.subjects import (
    AppendedOut,
    IntersectionIn,
    IntersectionOut,
    ObservationIn,
    SubjectIn,
    SubjectListOut,
    SubjectOut,
)

router = APIRouter(prefix="/v1/subjects", tags=["subjects"], responses=KEYED)


@router.post("", status_code=201, response_model=SubjectOut, responses={**WITH_BODY, **errors(409)})
def create_subject(body: SubjectIn, memory: MemoryDep, workspace: WorkspaceDep) -> SubjectOut:
    """Name a subject: an anchor observations can be about. A name is unique in a workspace (409)."""
    return SubjectOut.of(memory.subjects.create(workspace, body.name, body.summary, list(body.tags)))


@router.get("", response_model=SubjectListOut)
def list_subjects(
    memory: MemoryDep, workspace: WorkspaceDep, limit: Annotated[int, Query(ge=1, le=1000)] = 1000
) -> SubjectListOut:
    """The workspace's subjects by name, each with its observation count."""
    return SubjectListOut(subjects=[SubjectOut.of(s) for s in memory.subjects.all(workspace, limit)])


@router.post("/observations", status_code=201, response_model=AppendedOut, responses={**WITH_BODY, **errors(404)})
def append_observation(body: ObservationIn, memory: MemoryDep, workspace: WorkspaceDep) -> AppendedOut:
    """Append an observation about subjects (names or ids; each must exist: 404 names the first that
    does not). The same text again returns the stored observation with `created: false`."""
    return AppendedOut.of(memory.subjects.append(workspace, body.text, list(body.subjects)))


@router.post("/intersection", response_model=IntersectionOut, responses={**WITH_BODY, **errors(404)})
def open_intersection(body: IntersectionIn, memory: MemoryDep, workspace: WorkspaceDep) -> IntersectionOut:
    """The observations about ALL the subjects named, newest first, with their count; for two or more
    subjects also each one's observations in all and alone."""
    return IntersectionOut.of(memory.subjects.intersection(workspace, list(body.subjects), body.limit))


# `:path` so a name may hold '/', sent as is or as %2F.
@router.get("/{ref:path}", response_model=SubjectOut, responses=errors(404))
def get_subject(
    ref: Annotated[str, Path(min_length=1, max_length=512, pattern=r"\S", description="name or id")],
    memory: MemoryDep,
    workspace: WorkspaceDep,
) -> SubjectOut:
    return SubjectOut.of(memory.subjects.get(workspace, ref))
