"""The agent's attention over its curated memory: orient, bring_to_mind, recall, search, remember,
utility signals, consolidation, perspectives, stats and the event log. Calls carry the
conversation's id in X-Donto-Session (sessions are implicit: a new id is a new session)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from donto.api.deps import MemoryDep, SessionDep, WorkspaceDep
from donto.api.schemas.common import KEYED, WITH_BODY, errors
from donto.api.schemas.subjects import (
    AppendedOut,
    BringIn,
    BringOut,
    EventOut,
    EventsOut,
    GenerationOut,
    ItemOut,
    MemoryRecallIn,
    MemoryRecallOut,
    OrientOut,
    PerspectiveIn,
    PerspectiveOut,
    PerspectivesOut,
    RememberIn,
    ReportOut,
    ResetOut,
    SearchIn,
    SearchOut,
    SignalIn,
    SignalOut,
    StatsOut,
)
from donto.errors import InvalidInput
from donto.subjects.attention import DISPOSABLE_NOTE, PROTOCOL_NOTE, SOUL_NOTE
from donto.temporal.instants import iso

router = APIRouter(prefix="/v1/memory", tags=["memory"], responses=KEYED)


@router.post("/orient", response_model=OrientOut)
def orient(memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep) -> OrientOut:
    """Call at the start of a session or after a compaction: soul, protocol and orientation in that
    order, what awaits consolidation, what changed since the last one; resets the seen log."""
    return OrientOut.of(memory.attention.orient(workspace, session), SOUL_NOTE, PROTOCOL_NOTE)


@router.post("/bring-to-mind", response_model=BringOut, responses=WITH_BODY)
def bring_to_mind(body: BringIn, memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep) -> BringOut:
    """What memory holds about the topic that this session has not been shown yet. Pass the last
    heartbeat_token back: a missing or wrong one means your context was compacted, and memory is
    surfaced afresh."""
    brought = memory.attention.bring_to_mind(
        workspace, session, body.topic_or_context, body.last_token, body.include_seen, body.limit
    )
    return BringOut.of(brought, DISPOSABLE_NOTE)


@router.post("/recall", response_model=MemoryRecallOut, responses={**WITH_BODY, **errors(404)})
def recall(body: MemoryRecallIn, memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep) -> MemoryRecallOut:
    """A question (the best answer, then what supports it) or a subject (its understandings, newest
    observations and the claims beneath it): exactly one of `question` and `subject`."""
    if (body.question is None) == (body.subject is None):
        raise InvalidInput("send exactly one of question and subject", field="question")
    if body.question is not None:
        return MemoryRecallOut.of_question(
            memory.attention.recall_question(workspace, session, body.question, body.limit)
        )
    assert body.subject is not None
    return MemoryRecallOut.of_subject(memory.attention.recall_subject(workspace, session, body.subject, body.limit))


@router.post("/reset-seen", response_model=ResetOut)
def reset_seen(memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep) -> ResetOut:
    """Forget what this session has been shown: bring_to_mind surfaces it again."""
    return ResetOut(cleared=memory.attention.reset_seen(workspace, session))


@router.post("/remember", status_code=201, response_model=AppendedOut, responses={**WITH_BODY, **errors(404)})
def remember(body: RememberIn, memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep) -> AppendedOut:
    """Append an observation about subjects, creating any subject not yet named (listed in
    subjects_created). related_to: understandings it is direct evidence for; leave it empty when in
    doubt (unplaced observations surface as pending consolidation)."""
    [appended] = memory.subjects.append(workspace, [body.to_draft()], session, create_subjects=True, field=None)
    return AppendedOut.of(appended)


@router.post("/search", response_model=SearchOut, responses={**WITH_BODY, **errors(404)})
def search(body: SearchIn, memory: MemoryDep, workspace: WorkspaceDep) -> SearchOut:
    """Observations and active understandings by meaning (every perspective) or by words, ranked
    by the retrieval penalty; optionally only those about all the subjects named."""
    items = memory.attention.search(workspace, body.query, list(body.subject_names), body.mode, body.limit)
    return SearchOut(results=[ItemOut.of(i) for i in items])


@router.post("/useful", status_code=201, response_model=SignalOut, responses={**WITH_BODY, **errors(404)})
def mark_useful(body: SignalIn, memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep) -> SignalOut:
    """An observation or understanding paid rent: it ranks higher and counts as reinforced."""
    return SignalOut.of(memory.attention.signal(workspace, session, body.id, "useful", body.reason))


@router.post("/questionable", status_code=201, response_model=SignalOut, responses={**WITH_BODY, **errors(404)})
def mark_questionable(body: SignalIn, memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep) -> SignalOut:
    """An observation or understanding may be wrong or stale: it ranks lower and is listed in the
    consolidation report."""
    return SignalOut.of(memory.attention.signal(workspace, session, body.id, "questionable", body.reason))


@router.get("/consolidation", response_model=ReportOut)
def consolidation_report(
    memory: MemoryDep,
    workspace: WorkspaceDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    min_similarity: Annotated[
        float, Query(ge=-1, le=1, description="similarity of the two subjects: 0 unrelated, 1 the same")
    ] = 0.3,
    min_shared: Annotated[int, Query(ge=1, le=1_000_000)] = 3,
) -> ReportOut:
    """What a consolidation pass should look at, most valuable first: subjects without an
    understanding, stale understandings, intersections with new content, dense intersections no
    relationship understanding covers, unplaced observations, questionable items."""
    return ReportOut.of(memory.attention.report(workspace, limit, min_similarity, min_shared))


@router.post("/consolidation", response_model=GenerationOut)
def close_consolidation(memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep) -> GenerationOut:
    """Close a consolidation pass: what is written from now on is the next generation's."""
    previous, generation, at = memory.attention.advance_generation(workspace, session)
    return GenerationOut(previous_generation=previous, generation=generation, last_consolidated_at=iso(at))


@router.get("/perspectives", response_model=PerspectivesOut)
def list_perspectives(memory: MemoryDep, workspace: WorkspaceDep) -> PerspectivesOut:
    """The embedding angles every observation and understanding is embedded from."""
    state = memory.subjects.perspectives.state(workspace)
    return PerspectivesOut(
        perspectives=[
            PerspectiveOut(name=p.name, instruction=p.instruction, is_default=p.is_default) for p in state.perspectives
        ]
    )


@router.post("/perspectives", status_code=201, response_model=PerspectiveOut, responses={**WITH_BODY, **errors(409)})
def add_perspective(
    body: PerspectiveIn, memory: MemoryDep, workspace: WorkspaceDep, session: SessionDep
) -> PerspectiveOut:
    """Add a perspective: new items are embedded from it too (`donto reembed` embeds the older ones)."""
    memory.attention.add_perspective(workspace, body.name, body.instruction, session)
    return PerspectiveOut(name=body.name, instruction=body.instruction, is_default=False)


@router.get("/stats", response_model=StatsOut)
def stats(memory: MemoryDep, workspace: WorkspaceDep) -> StatsOut:
    """Counts, the current generation, the perspectives and how much of memory has vectors."""
    return StatsOut.of(memory.attention.stats(workspace))


@router.get("/events", response_model=EventsOut)
def events(
    memory: MemoryDep,
    workspace: WorkspaceDep,
    session_id: Annotated[str | None, Query(min_length=1, max_length=128)] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    before: Annotated[
        str | None, Query(min_length=1, max_length=1024, description="the next_before of the page before")
    ] = None,
) -> EventsOut:
    """The memory's event log, newest first: which verb wrote what, in which session; `before` pages
    on (422 when it is not a next_before this API handed out)."""
    page = memory.attention.event_page(workspace, session_id, limit, before)
    return EventsOut(
        events=[
            EventOut(at=iso(r["at"]), session_id=r["session_id"], operation=r["operation"], detail=r["detail"])
            for r in page.events
        ],
        next_before=page.next_before,
    )
