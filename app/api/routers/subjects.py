"""Subjects: create, read, change, list; observations about them; intersections, neighbourhoods,
similar subjects, merges."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from donto.api.deps import MemoryDep, SessionDep, WorkspaceDep
from donto.api.schemas.common import KEYED, WITH_BODY, errors
from donto.api.schemas.subjects import (
    AppendedListOut,
    AppendedOut,
    AroundIn,
    AroundOut,
    DeletedOut,
    DeleteObservationsIn,
    IntersectionIn,
    IntersectionOut,
    MergeIn,
    MergeOut,
    ObservationsIn,
    RejectedOut,
    SimilarIn,
    SimilarOut,
    SimilarPairOut,
    StructureIn,
    SubjectDetailOut,
    SubjectIn,
    SubjectListOut,
    SubjectOut,
    SubjectPatchIn,
    SubjectsGetIn,
    SubjectsGetOut,
    UnderstandingOut,
    UnmergeIn,
)

router = APIRouter(prefix="/v1/subjects", tags=["subjects"], responses=KEYED)


@router.post("", status_code=201, response_model=SubjectOut, responses={**WITH_BODY, **errors(409)})
def create_subject(body: SubjectIn, memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep) -> SubjectOut:
    """Name a subject: an anchor observations and understandings can be about. A name or alias
    belongs to one subject per workspace, compared without regard to case (409 names the field)."""
    return SubjectOut.of(
        memory.subjects.create(workspace, body.name, body.summary, list(body.tags), list(body.aliases), session)
    )


@router.get("", response_model=SubjectListOut)
def list_subjects(
    memory: MemoryDep,
    workspace: WorkspaceDep,
    limit: Annotated[int, Query(ge=1, le=1000)] = 1000,
    cursor: Annotated[
        str | None, Query(min_length=1, max_length=4096, description="the next_cursor of the page before")
    ] = None,
) -> SubjectListOut:
    """The workspace's subjects by name, each with its observation count; `cursor` pages on (422 when
    it is not a next_cursor this API handed out)."""
    page = memory.subjects.page(workspace, limit, cursor)
    return SubjectListOut(subjects=[SubjectOut.of(s) for s in page.subjects], next_cursor=page.next_cursor)


@router.post("/get", response_model=SubjectsGetOut, responses={**WITH_BODY, **errors(404)})
def get_subjects(body: SubjectsGetIn, memory: MemoryDep, workspace: WorkspaceDep) -> SubjectsGetOut:
    """Several subjects in full: each with its single-subject and structural understandings."""
    return SubjectsGetOut(
        subjects=[
            SubjectDetailOut.of_detail(memory.subjects.detail(workspace, s.id))
            for s in memory.subjects.get_many(workspace, list(body.names))
        ]
    )


@router.post("/structure", status_code=201, response_model=UnderstandingOut, responses={**WITH_BODY, **errors(404)})
def set_structure(
    body: StructureIn, memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep
) -> UnderstandingOut:
    """Write (or replace: the old one is superseded) a subject's structural understanding."""
    summary = body.summary or f"structure of {body.subject_name}"
    return UnderstandingOut.of(
        memory.subjects.create_understanding(
            workspace,
            [body.subject_name],
            body.text,
            summary,
            kind="structural",
            session=session,
            subjects_field="subject_name",
        )
    )


@router.post("/observations", status_code=201, response_model=AppendedListOut, responses={**WITH_BODY, **errors(404)})
def append_observations(
    body: ObservationsIn, memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep
) -> AppendedListOut:
    """Append observations (all or none) about existing subjects (404 names the first that does not
    exist: `remember` creates them). The same text again returns the stored one, `created: false`."""
    appended = memory.subjects.append(workspace, [o.to_draft() for o in body.observations], session)
    return AppendedListOut(observations=[AppendedOut.of(a) for a in appended])


@router.post("/observations/delete", response_model=DeletedOut, responses=WITH_BODY)
def delete_observations(
    body: DeleteObservationsIn, memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep
) -> DeletedOut:
    """Delete observations made in this session (X-Donto-Session): a correction in the same
    conversation. Any other is rejected with its reason; observations are otherwise permanent."""
    deleted, rejected = memory.subjects.delete_observations(workspace, list(body.ids), session)
    return DeletedOut(deleted=deleted, rejected=[RejectedOut(id=i, reason=r) for i, r in rejected])


@router.post("/intersection", response_model=IntersectionOut, responses={**WITH_BODY, **errors(404)})
def open_intersection(body: IntersectionIn, memory: MemoryDep, workspace: WorkspaceDep) -> IntersectionOut:
    """What is about ALL the subjects named: the relationship understanding, other understandings,
    the observations newest first with their count; for two or more subjects also each one's count
    in all and alone."""
    return IntersectionOut.of(memory.subjects.intersection(workspace, list(body.subjects), body.limit))


@router.post("/around", response_model=AroundOut, responses={**WITH_BODY, **errors(404)})
def open_around(body: AroundIn, memory: MemoryDep, workspace: WorkspaceDep) -> AroundOut:
    """A subject's neighbourhood: the subjects it shares anything with, by intersection size, each
    with the similarity of the two subjects and their relationship understanding."""
    return AroundOut.of(memory.subjects.around(workspace, body.subject, body.limit))


@router.post("/similar", response_model=SimilarOut, responses={**WITH_BODY, **errors(404)})
def find_similar_subjects(body: SimilarIn, memory: MemoryDep, workspace: WorkspaceDep) -> SimilarOut:
    """Subject pairs close in meaning that share few observations: merge or cross-tag candidates."""
    pairs = memory.subjects.similar(workspace, body.subject, body.min_similarity, body.max_shared, body.limit)
    return SimilarOut(pairs=[SimilarPairOut.of(p) for p in pairs])


@router.post("/merge", response_model=MergeOut, responses={**WITH_BODY, **errors(404)})
def merge_subjects(body: MergeIn, memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep) -> MergeOut:
    """Merge a duplicate into a primary: everything about the duplicate becomes about the primary,
    which answers to its names. Reversible: POST /v1/subjects/unmerge."""
    return MergeOut.of(memory.subjects.merge(workspace, body.primary, body.duplicate, session))


@router.post("/unmerge", response_model=MergeOut, responses={**WITH_BODY, **errors(404, 409)})
def unmerge_subjects(body: UnmergeIn, memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep) -> MergeOut:
    """Undo a merge (by merge id or the merged subject's name); 409 if its name was taken since."""
    return MergeOut.of(memory.subjects.unmerge(workspace, body.merge, session))


SubjectPath = Annotated[str, Path(min_length=1, max_length=512, pattern=r"\S", description="name, alias or id")]


@router.patch("/{ref:path}", response_model=SubjectOut, responses={**WITH_BODY, **errors(404, 409)})
def update_subject(
    ref: SubjectPath, body: SubjectPatchIn, memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep
) -> SubjectOut:
    """Change a subject's summary, tags or aliases (omitted: unchanged). Send the version you read:
    if the subject changed since, the answer is 409 and nothing is written."""
    tags = list(body.tags) if body.tags is not None else None
    aliases = list(body.aliases) if body.aliases is not None else None
    return SubjectOut.of(memory.subjects.update(workspace, ref, body.version, body.summary, tags, aliases, session))


# `:path` so a name may hold '/', sent as is or as %2F.
@router.get("/{ref:path}", response_model=SubjectOut, responses=errors(404))
def get_subject(ref: SubjectPath, memory: MemoryDep, workspace: WorkspaceDep) -> SubjectOut:
    return SubjectOut.of(memory.subjects.get(workspace, ref))
