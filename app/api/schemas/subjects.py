"""The agent's curated memory: subjects, observations, understandings, and the verbs over them."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from donto.api.schemas.common import Id, Instant, Key, Strict
from donto.claims.models import statement
from donto.subjects.models import (
    OBSERVATION_KINDS,
    UNDERSTANDING_KINDS,
    Appended,
    Around,
    History,
    Intersection,
    Merge,
    Observation,
    SimilarPair,
    Subject,
    SubjectDetail,
    Understanding,
)
from donto.temporal.instants import iso

if TYPE_CHECKING:  # the domain types the converters take; the models alone stay light for donto.Client
    from donto.subjects.attention import Brought, Item, Orientation, Report, Signal, Stats, SubjectRecall
    from donto.subjects.service import ObservationDraft

MAX_SUBJECTS = 100  # per observation, understanding or intersection
MAX_BATCH = 100  # observations per append
SubjectRef = Annotated[Key, Field(description="a subject's name, one of its aliases, or its id")]
Text = Annotated[str, StringConstraints(min_length=1, max_length=20_000, pattern=r"\S")]
Summary = Annotated[str, StringConstraints(min_length=1, max_length=4000, pattern=r"\S")]
Reason = Annotated[str, StringConstraints(max_length=2000)]
ObservationKind = Literal["fact", "inference", "preference", "task_state", "reflection"]
UnderstandingKind = Literal["single_subject", "relationship", "structural", "soul", "protocol", "orientation"]
assert set(ObservationKind.__args__) == set(OBSERVATION_KINDS)  # type: ignore[attr-defined]
assert set(UnderstandingKind.__args__) == set(UNDERSTANDING_KINDS)  # type: ignore[attr-defined]


def _iso(value: datetime | None) -> str | None:
    return iso(value) if value is not None else None


# -- subjects ---------------------------------------------------------------------------------


class SubjectIn(Strict):
    name: Key
    summary: Annotated[str, StringConstraints(max_length=4000)] | None = None
    tags: list[Key] = Field(default_factory=list, max_length=50)
    aliases: list[Key] = Field(default_factory=list, max_length=50, description="other names it answers to")


class SubjectPatchIn(Strict):
    version: int = Field(ge=1, description="the version you read: a stale one is a 409")
    summary: Annotated[str, StringConstraints(max_length=4000)] | None = None
    tags: list[Key] | None = Field(default=None, max_length=50)
    aliases: list[Key] | None = Field(default=None, max_length=50)


class SubjectOut(BaseModel):
    id: str
    name: str
    summary: str | None
    tags: list[str]
    aliases: list[str]
    created_at: str
    updated_at: str
    version: int = Field(description="send it back to change the subject (optimistic concurrency)")
    observations: int = Field(description="how many observations are about it")

    @classmethod
    def of(cls, s: Subject) -> SubjectOut:
        return cls(
            id=s.id,
            name=s.name,
            summary=s.summary,
            tags=s.tags,
            aliases=s.aliases,
            created_at=iso(s.created_at),
            updated_at=iso(s.updated_at),
            version=s.version,
            observations=s.observations,
        )


class SubjectListOut(BaseModel):
    subjects: list[SubjectOut]
    next_cursor: str | None = Field(default=None, description="pass as `cursor` for the next page; null: no more")


class SubjectsGetIn(Strict):
    names: list[SubjectRef] = Field(min_length=1, max_length=MAX_SUBJECTS)


class SubjectDetailOut(SubjectOut):
    single_subject_understanding: UnderstandingBriefOut | None
    structural_understanding: UnderstandingBriefOut | None
    last_observation_at: str | None

    @classmethod
    def of_detail(cls, d: SubjectDetail) -> SubjectDetailOut:
        return cls(
            **SubjectOut.of(d.subject).model_dump(),
            single_subject_understanding=brief(d.understanding),
            structural_understanding=brief(d.structural),
            last_observation_at=_iso(d.last_observation_at),
        )


class SubjectsGetOut(BaseModel):
    subjects: list[SubjectDetailOut]


class StructureIn(Strict):
    subject_name: SubjectRef
    text: Text = Field(description="freeform: aliases, containment, merge history, overlap notes")
    summary: Summary | None = None


# -- observations -----------------------------------------------------------------------------


class ObservationIn(Strict):
    text: Text
    subjects: list[SubjectRef] = Field(default_factory=list, max_length=MAX_SUBJECTS)
    kind: ObservationKind | None = None
    confidence: float | None = Field(default=None, ge=0, le=1)
    observed_at: Instant | None = Field(default=None, description="when it was observed; default now")
    related_to: list[Id] = Field(
        default_factory=list,
        max_length=20,
        description="understandings this observation is direct evidence for (not merely topical)",
    )
    cites: list[Id] = Field(default_factory=list, max_length=50, description="claim or document ids it rests on")
    model_tier: Annotated[str, StringConstraints(max_length=64)] | None = None

    def to_draft(self) -> ObservationDraft:
        from donto.subjects.service import ObservationDraft  # here, not at the top: only the server converts

        return ObservationDraft(
            self.text,
            list(self.subjects),
            self.kind,
            self.confidence,
            self.observed_at,
            list(self.related_to),
            list(self.cites),
            self.model_tier,
        )


class ObservationsIn(Strict):
    observations: list[ObservationIn] = Field(min_length=1, max_length=MAX_BATCH)


class RememberIn(ObservationIn):
    subjects: list[SubjectRef] = Field(
        min_length=1, max_length=MAX_SUBJECTS, description="names; a name no subject answers to creates one"
    )


class ObservationOut(BaseModel):
    id: str
    text: str
    content_hash: str = Field(description="sha256 of the text; one observation per hash per workspace")
    kind: str | None
    confidence: float | None
    generation: int
    observed_at: str | None
    created_at: str
    session_id: str | None
    subjects: list[str] = Field(description="names of the subjects it is about")

    @classmethod
    def of(cls, o: Observation) -> ObservationOut:
        return cls(
            id=o.id,
            text=o.text,
            content_hash=o.content_hash,
            kind=o.kind,
            confidence=o.confidence,
            generation=o.generation,
            observed_at=_iso(o.observed_at),
            created_at=iso(o.created_at),
            session_id=o.session_id,
            subjects=o.subjects,
        )


class AppendedOut(BaseModel):
    observation: ObservationOut
    created: bool = Field(description="false: the same text was already observed; the stored one is returned")
    subjects_created: list[str] = Field(description="subjects this call named into existence")

    @classmethod
    def of(cls, a: Appended) -> AppendedOut:
        return cls(observation=ObservationOut.of(a.observation), created=a.created, subjects_created=a.subjects_created)


class AppendedListOut(BaseModel):
    observations: list[AppendedOut]


class DeleteObservationsIn(Strict):
    ids: list[Id] = Field(min_length=1, max_length=MAX_BATCH)


class RejectedOut(BaseModel):
    id: str
    reason: str


class DeletedOut(BaseModel):
    deleted: list[str]
    rejected: list[RejectedOut]


# -- understandings ---------------------------------------------------------------------------


class UnderstandingIn(Strict):
    subject_names: list[SubjectRef] = Field(
        max_length=MAX_SUBJECTS, description="one or more; a soul, protocol or orientation may have none"
    )
    text: Text
    summary: Summary = Field(description="required: donto does not write summaries")
    kind: UnderstandingKind | None = Field(
        default=None, description="default: single_subject for one subject, relationship for more"
    )
    source_observation_ids: list[Id] = Field(default_factory=list, max_length=500)
    supersedes: list[Id] = Field(default_factory=list, max_length=20, description="active understandings this revises")
    reason: Reason | None = None
    model_tier: Annotated[str, StringConstraints(max_length=64)] | None = None


class UnderstandingUpdateIn(Strict):
    understanding_id: Id
    new_text: Text
    new_summary: Summary
    subject_names: list[SubjectRef] | None = Field(default=None, min_length=1, max_length=MAX_SUBJECTS)
    reason: Reason | None = None
    model_tier: Annotated[str, StringConstraints(max_length=64)] | None = None


class UnderstandingsAboutIn(Strict):
    subject_names: list[SubjectRef] = Field(min_length=1, max_length=MAX_SUBJECTS)
    kinds: list[UnderstandingKind] = Field(default_factory=list, max_length=6)
    limit: int = Field(default=50, ge=1, le=500)


class UnderstandingBriefOut(BaseModel):
    id: str
    summary: str
    generation: int
    updated_at: str


class UnderstandingOut(BaseModel):
    id: str
    kind: str
    text: str
    summary: str
    generation: int
    created_at: str
    session_id: str | None
    model_tier: str | None
    subjects: list[str]
    active: bool = Field(description="false: superseded (see superseded_by)")
    superseded_by: list[str]
    useful: int
    questionable: int

    @classmethod
    def of(cls, u: Understanding) -> UnderstandingOut:
        return cls(
            id=u.id,
            kind=u.kind,
            text=u.text,
            summary=u.summary,
            generation=u.generation,
            created_at=iso(u.created_at),
            session_id=u.session_id,
            model_tier=u.model_tier,
            subjects=u.subjects,
            active=u.active,
            superseded_by=u.superseded_by,
            useful=u.useful,
            questionable=u.questionable,
        )


def brief(u: Understanding | None) -> UnderstandingBriefOut | None:
    if u is None:
        return None
    return UnderstandingBriefOut(id=u.id, summary=u.summary, generation=u.generation, updated_at=iso(u.created_at))


class UnderstandingUpdatedOut(BaseModel):
    old_understanding_id: str
    new_understanding_id: str
    subject_names: list[str]
    understanding: UnderstandingOut


class UnderstandingListOut(BaseModel):
    understandings: list[UnderstandingOut]


class RevisionOut(BaseModel):
    old: str
    new: str
    at: str
    reason: str | None


class HistoryOut(BaseModel):
    versions: list[UnderstandingOut] = Field(description="oldest first")
    revisions: list[RevisionOut] = Field(description="the SUPERSEDED_BY edges")

    @classmethod
    def of(cls, h: History) -> HistoryOut:
        return cls(
            versions=[UnderstandingOut.of(v) for v in h.versions],
            revisions=[RevisionOut(old=r.old, new=r.new, at=iso(r.at), reason=r.reason) for r in h.revisions],
        )


# -- intersections, neighbourhoods, similar subjects, merges ----------------------------------


class IntersectionIn(Strict):
    subjects: list[SubjectRef] = Field(min_length=1, max_length=MAX_SUBJECTS)
    limit: int = Field(default=50, ge=1, le=1000)


class SubjectCountOut(BaseModel):
    id: str
    name: str
    total: int = Field(description="observations about it")
    alone: int = Field(description="observations about it and none of the other subjects asked")


class SubjectBriefOut(BaseModel):
    name: str
    summary: str | None


class IntersectionOut(BaseModel):
    subjects: list[SubjectBriefOut]
    count: int = Field(description="observations about every subject asked (the page holds at most `limit`)")
    intersection_size: int = Field(description="observations and active understandings about every subject")
    relationship_understanding: UnderstandingOut | None
    other_understandings: list[UnderstandingOut]
    observations: list[ObservationOut] = Field(description="newest first")
    alone: list[SubjectCountOut] = Field(description="for two or more subjects, each one's own counts")

    @classmethod
    def of(cls, i: Intersection) -> IntersectionOut:
        return cls(
            subjects=[SubjectBriefOut(name=s.name, summary=s.summary) for s in i.subjects],
            count=i.count,
            intersection_size=i.count + len(i.understandings) + (i.relationship is not None),
            relationship_understanding=UnderstandingOut.of(i.relationship) if i.relationship else None,
            other_understandings=[UnderstandingOut.of(u) for u in i.understandings],
            observations=[ObservationOut.of(o) for o in i.observations],
            alone=[SubjectCountOut(id=c.id, name=c.name, total=c.total, alone=c.alone) for c in i.alone],
        )


class AroundIn(Strict):
    subject: SubjectRef
    limit: int = Field(default=25, ge=1, le=500)


class NeighbourOut(BaseModel):
    subject: SubjectBriefOut
    intersection_size: int = Field(description="observations and active understandings about both")
    similarity_score: float | None = Field(
        description="similarity of the two subjects' embeddings (name and summary): 0 unrelated, 1 the same"
    )
    intersection_understanding: dict[str, str | None] | None


class AroundOut(BaseModel):
    subject: SubjectOut
    neighbors: list[NeighbourOut] = Field(description="by intersection size, largest first")

    @classmethod
    def of(cls, a: Around) -> AroundOut:
        return cls(
            subject=SubjectOut.of(a.subject),
            neighbors=[
                NeighbourOut(
                    subject=SubjectBriefOut(name=n.name, summary=n.summary),
                    intersection_size=n.intersection,
                    similarity_score=round(n.similarity, 4) if n.similarity is not None else None,
                    intersection_understanding={"id": n.understanding_id, "summary": n.understanding_summary}
                    if n.understanding_id
                    else None,
                )
                for n in a.neighbours
            ],
        )


class SimilarIn(Strict):
    subject: SubjectRef | None = Field(default=None, description="pairs with this subject; default all subjects")
    min_similarity: float = Field(default=0.6, ge=0, le=1)
    max_shared: int = Field(default=1, ge=0, le=1_000_000, description="at most this many shared observations")
    limit: int = Field(default=20, ge=1, le=200)


class SimilarPairOut(BaseModel):
    subject_a: str
    subject_b: str
    similarity_score: float
    shared_observations: int

    @classmethod
    def of(cls, p: SimilarPair) -> SimilarPairOut:
        return cls(subject_a=p.a, subject_b=p.b, similarity_score=round(p.similarity, 4), shared_observations=p.shared)


class SimilarOut(BaseModel):
    pairs: list[SimilarPairOut]


class MergeIn(Strict):
    primary: SubjectRef
    duplicate: SubjectRef


class UnmergeIn(Strict):
    merge: Key = Field(description="the merge id, or the merged subject's name")


class MergeOut(BaseModel):
    merge_id: str
    primary: str
    duplicate: str
    tags_moved: int

    @classmethod
    def of(cls, m: Merge) -> MergeOut:
        return cls(merge_id=m.merge_id, primary=m.primary, duplicate=m.duplicate, tags_moved=m.moved)


# -- attention: orient, bring_to_mind, recall, search -----------------------------------------


class PointerOut(BaseModel):
    id: str
    text: str
    summary: str
    updated_at: str
    compaction_note: str | None = None


class SessionOut(BaseModel):
    id: str
    new: bool = Field(description="first call of this session_id")
    previous_session_id: str | None = Field(description="for a new session: the one before it (it has ended)")
    previous_session_last_seen_at: str | None
    compaction_suspected: bool
    reason: str | None


class RecentActivityOut(BaseModel):
    since: str | None
    subjects_with_new_observations: list[str]
    subjects_with_new_understandings: list[str]


class OrientOut(BaseModel):
    soul: PointerOut | None
    protocol: PointerOut | None
    orientation: PointerOut | None
    generation: int
    pending_consolidation_count: int = Field(
        description="observations of the current generation no active understanding covers (counted up to 10,000)"
    )
    recent_activity: RecentActivityOut
    session: SessionOut
    seen_cleared: int

    @classmethod
    def of(cls, o: Orientation, soul_note: str, protocol_note: str) -> OrientOut:
        def pointer(kind: str, note: str | None) -> PointerOut | None:
            p = o.pointers.get(kind)
            if p is None:
                return None
            return PointerOut(
                id=p.id, text=p.text, summary=p.summary, updated_at=iso(p.updated_at), compaction_note=note
            )

        s = o.session
        return cls(
            soul=pointer("soul", soul_note),
            protocol=pointer("protocol", protocol_note),
            orientation=pointer("orientation", None),
            generation=o.generation,
            pending_consolidation_count=o.pending_consolidation,
            recent_activity=RecentActivityOut(
                since=_iso(o.since),
                subjects_with_new_observations=o.subjects_with_new_observations,
                subjects_with_new_understandings=o.subjects_with_new_understandings,
            ),
            session=SessionOut(
                id=s.id,
                new=s.new,
                previous_session_id=s.previous_id,
                previous_session_last_seen_at=_iso(s.previous_last_seen_at),
                compaction_suspected=s.compaction_suspected,
                reason=s.reason,
            ),
            seen_cleared=o.cleared,
        )


class BringIn(Strict):
    topic_or_context: Text
    last_token: int | None = Field(default=None, ge=0, le=2**31, description="heartbeat_token of the previous call")
    include_seen: bool = False
    limit: int = Field(default=8, ge=1, le=50)


class ItemOut(BaseModel):
    id: str
    source: Literal["understanding", "observation"]
    kind: str | None
    subject_names: list[str]
    summary: str | None
    content: str
    relevance_score: float = Field(description="similarity weighted by the retrieval penalty")
    similarity: float
    matched_perspective: str | None
    generation: int
    created_at: str

    @classmethod
    def of(cls, i: Item) -> ItemOut:
        return cls(
            id=i.id,
            source=i.source,  # type: ignore[arg-type]
            kind=i.kind,
            subject_names=i.subjects,
            summary=i.summary,
            content=i.text,
            relevance_score=i.score,
            similarity=i.similarity,
            matched_perspective=i.perspective,
            generation=i.generation,
            created_at=iso(i.created_at),
        )


class BringOut(BaseModel):
    compaction_note: str
    heartbeat_token: int = Field(description="pass it as last_token next time; nothing else here is worth keeping")
    compaction_detected: bool
    reason: str | None
    results: list[ItemOut]

    @classmethod
    def of(cls, b: Brought, note: str) -> BringOut:
        return cls(
            compaction_note=note,
            heartbeat_token=b.heartbeat_token,
            compaction_detected=b.compaction_detected,
            reason=b.reason,
            results=[ItemOut.of(i) for i in b.items],
        )


class MemoryRecallIn(Strict):
    question: Text | None = None
    subject: SubjectRef | None = None
    limit: int = Field(default=10, ge=1, le=100)


class RecalledClaimOut(BaseModel):
    id: str
    statement: str = Field(description="what it says, its modality in the words: 'ann does NOT like fado'")
    subject: str
    predicate: str
    object: str
    context: str | None = Field(default=None, description="its modality (negated, possible, ...); null: asserted")
    hypothesis: bool = Field(default=False, description="inferred or conceivable, not stated by its source")
    valid_from: str | None
    valid_to: str | None
    valid_when: str | None = Field(default=None, description="words of a time donto could not resolve")
    via: Literal["cited", "named"]


class MemoryRecallOut(BaseModel):
    mode: Literal["question", "subject"]
    best_answer: ItemOut | None = None
    supporting: list[ItemOut] = Field(default_factory=list)
    subject: SubjectOut | None = None
    single_subject_understanding: UnderstandingOut | None = None
    structural_understanding: UnderstandingOut | None = None
    relationship_understandings: list[UnderstandingOut] = Field(default_factory=list)
    recent_observations: list[ObservationBriefOut] = Field(default_factory=list)
    claims: list[RecalledClaimOut] = Field(default_factory=list)

    @classmethod
    def of_question(cls, items: list[Item]) -> MemoryRecallOut:
        return cls(
            mode="question",
            best_answer=ItemOut.of(items[0]) if items else None,
            supporting=[ItemOut.of(i) for i in items[1:]],
        )

    @classmethod
    def of_subject(cls, r: SubjectRecall) -> MemoryRecallOut:
        return cls(
            mode="subject",
            subject=SubjectOut.of(r.subject),
            single_subject_understanding=UnderstandingOut.of(r.understanding) if r.understanding else None,
            structural_understanding=UnderstandingOut.of(r.structural) if r.structural else None,
            relationship_understandings=[UnderstandingOut.of(u) for u in r.relationships],
            recent_observations=[ObservationBriefOut.of(o) for o in r.observations],
            claims=[
                RecalledClaimOut(
                    id=c["id"],
                    statement=statement(
                        c["subject"], c["predicate"], c["object"], c.get("context"), bool(c.get("hypothesis"))
                    ),
                    subject=c["subject"],
                    predicate=c["predicate"],
                    object=c["object"],
                    context=c.get("context"),
                    hypothesis=bool(c.get("hypothesis")),
                    valid_from=_iso(c["validFrom"]),
                    valid_to=_iso(c["validTo"]),
                    valid_when=c.get("validWhen"),
                    via=c["via"],
                )
                for c in r.claims
            ],
        )


class ObservationBriefOut(BaseModel):
    id: str
    text: str
    kind: str | None
    observed_at: str | None
    subjects: list[str]

    @classmethod
    def of(cls, o: dict[str, Any]) -> ObservationBriefOut:
        return cls(
            id=o["id"], text=o["text"], kind=o["kind"], observed_at=_iso(o["observed_at"]), subjects=o["subjects"]
        )


class SearchIn(Strict):
    query: Text
    subject_names: list[SubjectRef] = Field(default_factory=list, max_length=MAX_SUBJECTS)
    mode: Literal["embedding", "text"] = "embedding"
    limit: int = Field(default=10, ge=1, le=100)


class SearchOut(BaseModel):
    results: list[ItemOut]


class ResetOut(BaseModel):
    cleared: int


# -- signals, consolidation, perspectives, stats, events --------------------------------------


class SignalIn(Strict):
    id: Id = Field(description="an observation's or understanding's id")
    reason: Reason | None = None


class SignalOut(BaseModel):
    id: str
    target_id: str
    signal: str
    reason: str | None
    created_at: str
    useful: int
    questionable: int

    @classmethod
    def of(cls, s: Signal) -> SignalOut:
        return cls(
            id=s.id,
            target_id=s.target_id,
            signal=s.signal,
            reason=s.reason,
            created_at=iso(s.created_at),
            useful=s.useful,
            questionable=s.questionable,
        )


class NeedsUnderstandingOut(BaseModel):
    """A subject with observations and no single-subject understanding yet."""

    name: str
    observation_count: int
    new_observations: int
    generation: int = Field(description="its newest observation's generation")


class StaleUnderstandingOut(BaseModel):
    """A single-subject understanding with observations newer than it."""

    id: str
    subject_names: list[str]
    summary: str | None
    generation: int
    last_updated: str
    newer_observations: int


class UnderstandingRefOut(BaseModel):
    id: str
    summary: str | None


class SynthesisNeededOut(BaseModel):
    """A subject pair whose intersection gained observations this generation."""

    subject_a: str
    subject_b: str
    intersection_size: int
    new_generation_count: int
    existing_understanding: UnderstandingRefOut | None = Field(description="its active relationship understanding")


class DenseIntersectionOut(BaseModel):
    """Two subjects alike in meaning that share observations and no relationship understanding."""

    subject_a: str
    subject_b: str
    similarity_score: float = Field(description="similarity of the two subjects' embeddings: 0 unrelated, 1 the same")
    intersection_size: int


class UnlinkedObservationOut(BaseModel):
    """An observation nothing has placed yet."""

    id: str
    subject_names: list[str]
    text: str
    generation: int
    created_at: str


class QuestionableItemOut(BaseModel):
    """An observation or understanding marked questionable more often than useful."""

    id: str
    source: Literal["observation", "understanding"]
    reason: str | None = Field(description="the latest questionable mark's reason")
    flagged_at: str
    questionable: int
    useful: int


class ReportOut(BaseModel):
    generation: int
    last_consolidated_at: str | None
    subjects_needing_understanding: list[NeedsUnderstandingOut]
    stale_understandings: list[StaleUnderstandingOut]
    intersections_needing_synthesis: list[SynthesisNeededOut]
    semantically_dense_intersections: list[DenseIntersectionOut]
    unlinked_observations: list[UnlinkedObservationOut]
    questionable_items: list[QuestionableItemOut]

    @classmethod
    def of(cls, r: Report) -> ReportOut:
        def clean(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return [{k: iso(v) if isinstance(v, datetime) else v for k, v in row.items()} for row in rows]

        return cls.model_validate(
            {
                "generation": r.generation,
                "last_consolidated_at": _iso(r.last_consolidated_at),
                "subjects_needing_understanding": clean(r.subjects_needing_understanding),
                "stale_understandings": clean(r.stale_understandings),
                "intersections_needing_synthesis": clean(r.intersections_needing_synthesis),
                "semantically_dense_intersections": clean(r.semantically_dense_intersections),
                "unlinked_observations": clean(r.unlinked_observations),
                "questionable_items": clean(r.questionable_items),
            }
        )


class GenerationOut(BaseModel):
    previous_generation: int
    generation: int
    last_consolidated_at: str


class PerspectiveIn(Strict):
    name: Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]
    instruction: Annotated[str, StringConstraints(min_length=1, max_length=500, pattern=r"\S")]


class PerspectiveOut(BaseModel):
    name: str
    instruction: str | None
    is_default: bool


class PerspectivesOut(BaseModel):
    perspectives: list[PerspectiveOut]


class StatsOut(BaseModel):
    subjects: int
    merged_subjects: int
    observations: int
    understandings: int
    active_understandings: int
    sessions: int = Field(description="conversations kept: add_turns (POST /v1/episodes) sessions")
    agent_sessions: int = Field(
        description="agent sessions that used the curated memory: X-Donto-Session ids, MCP conversations"
    )
    signals: int
    events: int
    generation: int
    last_consolidated_at: str | None
    perspectives: list[str]
    embedding_model: str
    embedding_coverage: float = Field(description="share of items with a current-model vector from every perspective")

    @classmethod
    def of(cls, s: Stats) -> StatsOut:
        c = s.counts
        return cls(
            subjects=c["subjects"],
            merged_subjects=c["merged"],
            observations=c["observations"],
            understandings=c["understandings"],
            active_understandings=c["activeUnderstandings"],
            sessions=c["sessions"],
            agent_sessions=c["agentSessions"],
            signals=c["signals"],
            events=c["events"],
            generation=s.generation,
            last_consolidated_at=_iso(s.last_consolidated_at),
            perspectives=s.perspectives,
            embedding_model=s.embedding_model,
            embedding_coverage=s.embedding_coverage,
        )


class EventOut(BaseModel):
    at: str
    session_id: str | None
    operation: str
    detail: str = Field(description="JSON")


class EventsOut(BaseModel):
    events: list[EventOut]
    next_before: str | None = Field(
        default=None, description="pass as `before` for the next (older) page; null: no more"
    )


SubjectDetailOut.model_rebuild()
MemoryRecallOut.model_rebuild()
