"""The agent's attention over its curated memory: orient at the start of a session, bring_to_mind
as it talks, recall and search when it asks, utility signals, consolidation and stats.

Sessions are implicit: the client sends a session_id per conversation and never says when one ends
(a new id appearing is the boundary). Per session donto keeps what bring_to_mind and recall have
shown, so they show something new each time, and a heartbeat token: a client whose context was
compacted cannot echo the last token, and then (or after a long silence) the seen log is reset and
memory is surfaced afresh. Ranking is app/subjects/ranking.py's retrieval penalty."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from donto import cursors
from donto.errors import Conflict, NotFound
from donto.graph.client import GraphClient, next_transaction_time
from donto.ids import uuid7
from donto.recall.english import STOPWORDS
from donto.recall.lucene import lucene_query
from donto.settings import MemorySettings
from donto.subjects.models import MemoryState, Subject, Understanding
from donto.subjects.perspectives import Perspectives
from donto.subjects.ranking import Candidate, score
from donto.subjects.service import SubjectService, alias_key, record_event
from donto.temporal.instants import to_native, utc_now

DEFAULT_SESSION = "default"  # the session of a client that sends no session_id
PENDING_CAP = 10_000  # orient counts observations awaiting consolidation up to this many
MAX_FETCH = 20_000  # the most of a workspace's perspective vectors one search looks at
SOUL_NOTE = (
    "CRITICAL: This content establishes the fundamental character and values for this session. "
    "It must be preserved during context compaction. Do not remove."
)
PROTOCOL_NOTE = (
    "CRITICAL: This content contains operational rules required for correct system behaviour. "
    "Preserve during compaction."
)
DISPOSABLE_NOTE = (
    "DISPOSABLE: This entire response is ephemeral. All content is retrievable on demand from the memory "
    "database. This response should be the first candidate for removal during context compaction."
)


@dataclass(frozen=True)
class Item:
    """An observation or understanding as retrieval returns it."""

    id: str
    source: str  # "understanding" | "observation"
    kind: str | None
    subjects: list[str]
    summary: str | None
    text: str
    generation: int
    created_at: datetime
    score: float
    similarity: float
    perspective: str | None = None
    covered: bool = False
    session_id: str | None = None
    model_tier: str | None = None
    confidence: float | None = None


@dataclass(frozen=True)
class Pointer:
    kind: str
    id: str
    text: str
    summary: str
    updated_at: datetime


@dataclass(frozen=True)
class SessionInfo:
    id: str
    new: bool
    previous_id: str | None
    previous_last_seen_at: datetime | None
    compaction_suspected: bool
    reason: str | None


@dataclass(frozen=True)
class Orientation:
    pointers: dict[str, Pointer]
    generation: int
    pending_consolidation: int
    since: datetime | None
    subjects_with_new_observations: list[str]
    subjects_with_new_understandings: list[str]
    session: SessionInfo
    cleared: int


@dataclass(frozen=True)
class Brought:
    heartbeat_token: int
    compaction_detected: bool
    reason: str | None
    items: list[Item]


@dataclass(frozen=True)
class SubjectRecall:
    subject: Subject
    understanding: Understanding | None
    structural: Understanding | None
    relationships: list[Understanding]
    observations: list[dict[str, Any]]
    claims: list[dict[str, Any]]


@dataclass(frozen=True)
class Signal:
    id: str
    target_id: str
    signal: str
    reason: str | None
    created_at: datetime
    useful: int
    questionable: int


@dataclass(frozen=True)
class Report:
    generation: int
    last_consolidated_at: datetime | None
    subjects_needing_understanding: list[dict[str, Any]]
    stale_understandings: list[dict[str, Any]]
    intersections_needing_synthesis: list[dict[str, Any]]
    semantically_dense_intersections: list[dict[str, Any]]
    unlinked_observations: list[dict[str, Any]]
    questionable_items: list[dict[str, Any]]


@dataclass(frozen=True)
class Stats:
    counts: dict[str, int]
    generation: int
    last_consolidated_at: datetime | None
    perspectives: list[str]
    embedding_model: str
    embedding_coverage: float
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class EventPage:
    events: list[dict[str, Any]]  # at, session_id, operation, detail
    next_before: str | None  # None: no older event


class AttentionService:
    def __init__(
        self, graph: GraphClient, subjects: SubjectService, perspectives: Perspectives, settings: MemorySettings
    ):
        self.graph = graph
        self.subjects = subjects
        self.perspectives = perspectives
        self.settings = settings

    # -- orient -------------------------------------------------------------------------------

    def orient(self, workspace: str, session: str | None) -> Orientation:
        """Soul, protocol and orientation, what is pending consolidation, what changed since the
        last consolidation; resets the session's seen log. Orienting again in a session that has
        been shown memory means its context was compacted, and the answer says so."""
        session = session or DEFAULT_SESSION

        def work(tx: ManagedTransaction) -> tuple[Any, ...]:
            now = next_transaction_time(self.graph, tx, workspace)
            state = self.perspectives.ensure(tx, workspace, now)
            before = self.graph.run(
                tx, "memory_session_begin", workspace=workspace, session=session, token=0, now=now, bring=False
            )[0]
            previous = self.graph.run(tx, "memory_session_previous", workspace=workspace, session=session)
            cleared = self.graph.run(
                tx, "memory_seen_reset", workspace=workspace, session=session, now=now, oriented=True
            )[0]["cleared"]
            return now, state, before, previous, cleared

        now, state, before, previous, cleared = self.graph.write(work, name="orient")
        reason = None
        if not before["created"]:
            idle = (now - to_native(before["lastSeenAt"])).total_seconds() if before["lastSeenAt"] else 0.0
            if before["surfaced"] or before["previousBringAt"]:
                reason = "orient called again in a session that had been shown memory"
            if idle > self.settings.seen_gap_s:
                reason = f"{idle / 60:.0f} minutes since this session's last call"
        row = self.graph.read_query(
            "orient_read",
            workspace=workspace,
            generation=state.generation,
            since=state.last_consolidated_at,
            cap=PENDING_CAP,
        )[0]
        pointers = {
            p["kind"]: Pointer(p["kind"], p["id"], p["text"], p["summary"], to_native(p["createdAt"]))
            for p in row["pointers"]
        }
        prev = previous[0] if previous and before["created"] else None
        return Orientation(
            pointers,
            state.generation,
            row["pending"],
            state.last_consolidated_at,
            sorted(row["newObservations"]),
            sorted(row["newUnderstandings"]),
            SessionInfo(
                session,
                bool(before["created"]),
                prev["id"] if prev else None,
                to_native(prev["lastSeenAt"]) if prev else None,
                reason is not None,
                reason,
            ),
            cleared,
        )

    def reset_seen(self, workspace: str, session: str | None) -> int:
        def work(tx: ManagedTransaction) -> int:
            now = next_transaction_time(self.graph, tx, workspace)
            return int(
                self.graph.run(
                    tx,
                    "memory_seen_reset",
                    workspace=workspace,
                    session=session or DEFAULT_SESSION,
                    now=now,
                    oriented=False,
                )[0]["cleared"]
            )

        return self.graph.write(work, name="memory_seen_reset")

    # -- bring_to_mind ------------------------------------------------------------------------

    def bring_to_mind(
        self, workspace: str, session: str | None, topic: str, last_token: int | None, include_seen: bool, limit: int
    ) -> Brought:
        """Understandings and observations relevant to the topic that this session has not been
        shown yet, best first by the retrieval penalty. A missing or wrong last_token (the client's
        context was compacted) or a long silence resets the seen log first."""
        session = session or DEFAULT_SESSION
        token = secrets.randbelow(900_000) + 100_000
        vector = self.perspectives.encoder.encode_query(topic)

        def begin(tx: ManagedTransaction) -> tuple[str | None, set[str], MemoryState]:
            now = next_transaction_time(self.graph, tx, workspace)
            state = self.perspectives.state(workspace, tx)  # read once, here, for the whole call
            before = self.graph.run(
                tx, "memory_session_begin", workspace=workspace, session=session, token=token, now=now, bring=True
            )[0]
            reason = None
            if before["previousToken"] is not None and last_token != before["previousToken"]:
                reason = "last_token missing" if last_token is None else "last_token does not match"
            elif before["previousBringAt"] is not None:
                idle = (now - to_native(before["previousBringAt"])).total_seconds()
                if idle > self.settings.seen_gap_s:
                    reason = f"{idle / 60:.0f} minutes since the last bring_to_mind"
            if reason:
                self.graph.run(tx, "memory_seen_reset", workspace=workspace, session=session, now=now, oriented=False)
                return reason, set(), state
            seen = {r["id"] for r in self.graph.run(tx, "memory_seen", workspace=workspace, session=session)}
            return reason, seen, state

        reason, seen, state = self.graph.write(begin, name="bring_to_mind")
        # what was shown is left out inside the query, so a long session asks the index for no more
        items = self._semantic(workspace, state, vector, limit, [], exclude=[] if include_seen else sorted(seen))
        self._mark(workspace, session, [i.id for i in items])
        return Brought(token, reason is not None, reason, items)

    def _mark(self, workspace: str, session: str, ids: list[str]) -> None:
        if not ids:
            return

        def work(tx: ManagedTransaction) -> None:
            now = next_transaction_time(self.graph, tx, workspace)
            self.graph.run(tx, "memory_surfaced_mark", workspace=workspace, session=session, ids=ids, now=now)

        self.graph.write(work, name="memory_surfaced_mark")

    # -- search and recall --------------------------------------------------------------------

    def search(
        self, workspace: str, query: str, subjects: Sequence[str] = (), mode: str = "embedding", limit: int = 10
    ) -> list[Item]:
        """Observations and active understandings matching the query (by meaning across every
        perspective, or by words), optionally only those about all the given subjects."""
        subject_ids = (
            [s.id for s in self.subjects.get_many(workspace, list(subjects), "subject_names")] if subjects else []
        )
        state = self.perspectives.state(workspace)
        if mode == "text":
            lucene = lucene_query(query, STOPWORDS)
            if lucene is None:
                return []
            rows = self.graph.read_query("memory_text_search", workspace=workspace, text=lucene, limit=limit * 5)
            top = max((r["score"] for r in rows), default=1.0) or 1.0
            hits: dict[str, tuple[float, str | None]] = {r["id"]: (r["score"] / top, None) for r in rows}
            return self._rank(workspace, hits, subject_ids, state.generation)[:limit]
        vector = self.perspectives.encoder.encode_query(query)
        return self._semantic(workspace, state, vector, limit, subject_ids)

    def _semantic(
        self,
        workspace: str,
        state: MemoryState,
        vector: list[float],
        limit: int,
        subject_ids: list[str],
        exclude: Sequence[str] = (),
    ) -> list[Item]:
        """Nearest items over every perspective, ranked by the retrieval penalty. The index search is of
        this workspace's vectors only; it is asked for more while the subjects asked for, or what the
        session was already shown, leave too few items."""
        want = limit * 3 if not subject_ids else limit * 10  # the penalty reorders: rank from a wider pool
        fetch = max(100, want * len(state.perspectives) * 2)
        found = -1  # items the last, narrower search found
        while True:
            rows = self.graph.read_query(
                "memory_vector_search",
                workspace=workspace,
                vector=vector,
                fetch=fetch,
                model=self.perspectives.encoder.name,
                exclude=list(exclude),
                limit=want,
            )
            # the index scores cosine as (1 + cos) / 2: rank on the similarity itself (see ranking.py)
            similarity = self.perspectives.encoder.similarity
            hits = {r["id"]: (max(0.0, similarity(2 * r["score"] - 1)), r["perspective"]) for r in rows}
            ranked = self._rank(workspace, hits, subject_ids, state.generation)
            # No new item from 4x the vectors: the workspace has no more (its search is of its vectors only).
            if len(ranked) >= limit or len(rows) >= want or fetch >= MAX_FETCH or len(rows) == found:
                return ranked[:limit]
            found, fetch = len(rows), min(fetch * 4, MAX_FETCH)

    def _rank(
        self, workspace: str, hits: dict[str, tuple[float, str | None]], subject_ids: list[str], generation: int
    ) -> list[Item]:
        if not hits:
            return []
        now = utc_now()
        rows = self.graph.read_query("memory_items", workspace=workspace, ids=list(hits), subject_ids=subject_ids)
        items = []
        for r in rows:
            similarity, perspective = hits[r["id"]]
            created_at = to_native(r["createdAt"])
            candidate = Candidate(
                r["source"],
                similarity,
                r["generation"],
                created_at,
                to_native(r["reinforcedAt"]) or created_at,
                bool(r["covered"]),
                r["confidence"],
                r["useful"],
                r["questionable"],
            )
            items.append(
                Item(
                    r["id"],
                    r["source"],
                    r["kind"],
                    list(r["subjects"]),
                    r["summary"],
                    r["text"],
                    r["generation"],
                    created_at,
                    round(score(candidate, generation, now), 6),
                    round(similarity, 6),
                    perspective,
                    bool(r["covered"]),
                    r["sessionId"],
                    r["modelTier"],
                    r["confidence"],
                )
            )
        return sorted(items, key=lambda i: (-i.score, i.id))

    def recall_question(self, workspace: str, session: str | None, question: str, limit: int) -> list[Item]:
        """The best answer first, then what supports it; what is returned counts as shown."""
        items = self.search(workspace, question, limit=limit)
        self._mark(workspace, session or DEFAULT_SESSION, [i.id for i in items])
        return items

    def recall_subject(self, workspace: str, session: str | None, ref: str, limit: int) -> SubjectRecall:
        """A subject's active understandings, its newest observations, and the claims beneath it
        (cited by its observations, or naming it or an alias as an entity)."""
        subject = self.subjects.get(workspace, ref, "subject")
        understandings = self.subjects.understandings_about(workspace, [subject.id], limit=100)
        single = next((u for u in understandings if u.kind == "single_subject"), None)
        structural = next((u for u in understandings if u.kind == "structural"), None)
        relationships = [u for u in understandings if u.kind == "relationship"]
        intersection = self.subjects.intersection(workspace, [subject.id], limit)
        names = [subject.name, *subject.aliases]
        keys = list(dict.fromkeys([*names, *(alias_key(n) for n in names)]))
        claims = self.graph.read_query(
            "subject_claims", workspace=workspace, subject_id=subject.id, keys=keys, limit=limit
        )
        observations = [
            {"id": o.id, "text": o.text, "kind": o.kind, "observed_at": o.observed_at, "subjects": o.subjects}
            for o in intersection.observations
        ]
        shown = [u.id for u in understandings] + [o.id for o in intersection.observations]
        self._mark(workspace, session or DEFAULT_SESSION, shown)
        return SubjectRecall(subject, single, structural, relationships, observations, claims)

    # -- signals ------------------------------------------------------------------------------

    def signal(self, workspace: str, session: str | None, target_id: str, signal: str, reason: str | None) -> Signal:
        def work(tx: ManagedTransaction) -> Signal:
            now = next_transaction_time(self.graph, tx, workspace)
            rows = self.graph.run(
                tx,
                "utility_signal_record",
                workspace=workspace,
                id=uuid7(),
                target_id=target_id,
                signal=signal,
                reason=reason,
                session=session,
                recorded_at=now,
            )
            if not rows:
                raise NotFound(f"no observation or understanding {target_id!r} in this workspace", field="id")
            r = rows[0]
            record_event(self.graph, tx, workspace, session, f"mark_{signal}", now, id=target_id)
            return Signal(
                r["id"],
                r["targetId"],
                r["signal"],
                r["reason"],
                to_native(r["createdAt"]),
                r["useful"],
                r["questionable"],
            )

        return self.graph.write(work, name="utility_signal_record")

    # -- consolidation ------------------------------------------------------------------------

    def report(self, workspace: str, limit: int, min_similarity: float = 0.3, min_shared: int = 3) -> Report:
        """What consolidation should look at, most valuable first (see each query's header)."""
        state = self.perspectives.state(workspace)
        subjects = self.graph.read_query("consolidation_subjects", workspace=workspace, limit=limit * 2)
        intersections = self.graph.read_query(
            "consolidation_intersections", workspace=workspace, generation=state.generation, limit=limit
        )
        dense = self.graph.read_query(
            "consolidation_dense",
            workspace=workspace,
            min_shared=min_shared,
            min_similarity=self.perspectives.encoder.cosine_for(min_similarity),
            limit=limit,
        )
        unlinked = self.graph.read_query("consolidation_unlinked", workspace=workspace, limit=limit)
        questionable = self.graph.read_query("consolidation_questionable", workspace=workspace, limit=limit)
        return Report(
            state.generation,
            state.last_consolidated_at,
            [
                {
                    "name": s["name"],
                    "observation_count": s["observations"],
                    "new_observations": s["newer"],
                    "generation": s["generation"],
                }
                for s in subjects
                if s["understandingId"] is None
            ][:limit],
            [
                {
                    "id": s["understandingId"],
                    "subject_names": [s["name"]],
                    "summary": s["understandingSummary"],
                    "generation": s["understandingGeneration"],
                    "last_updated": to_native(s["understandingAt"]),
                    "newer_observations": s["newer"],
                }
                for s in subjects
                if s["understandingId"] is not None
            ][:limit],
            [
                {
                    "subject_a": r["a"],
                    "subject_b": r["b"],
                    "intersection_size": r["size"],
                    "new_generation_count": r["newCount"],
                    "existing_understanding": {"id": r["understandingId"], "summary": r["understandingSummary"]}
                    if r["understandingId"]
                    else None,
                }
                for r in intersections
            ],
            [
                {
                    "subject_a": r["a"],
                    "subject_b": r["b"],
                    "similarity_score": round(self.perspectives.encoder.similarity(r["similarity"]), 4),
                    "intersection_size": r["shared"],
                }
                for r in dense
            ],
            [
                {
                    "id": r["id"],
                    "subject_names": r["subjects"],
                    "text": r["text"],
                    "generation": r["generation"],
                    "created_at": to_native(r["createdAt"]),
                }
                for r in unlinked
            ],
            [
                {
                    "id": r["id"],
                    "source": r["source"],
                    "reason": r["reason"],
                    "flagged_at": to_native(r["flaggedAt"]),
                    "questionable": r["questionable"],
                    "useful": r["useful"],
                }
                for r in questionable
            ],
        )

    def advance_generation(self, workspace: str, session: str | None) -> tuple[int, int, datetime]:
        """Close a consolidation pass: what is written from now on is the next generation's."""

        def work(tx: ManagedTransaction) -> tuple[int, int, datetime]:
            now = next_transaction_time(self.graph, tx, workspace)
            self.perspectives.ensure(tx, workspace, now)
            row = self.graph.run(tx, "generation_advance", workspace=workspace, now=now)[0]
            record_event(self.graph, tx, workspace, session, "consolidate", now, generation=row["generation"])
            return row["previous"], row["generation"], to_native(row["lastConsolidatedAt"])

        return self.graph.write(work, name="generation_advance")

    # -- perspectives, stats, events ----------------------------------------------------------

    def add_perspective(self, workspace: str, name: str, instruction: str, session: str | None) -> bool:
        def work(tx: ManagedTransaction) -> bool:
            now = next_transaction_time(self.graph, tx, workspace)
            self.perspectives.ensure(tx, workspace, now)
            created = bool(
                self.graph.run(
                    tx, "perspective_create", workspace=workspace, name=name, instruction=instruction, now=now
                )[0]["created"]
            )
            if created:
                record_event(self.graph, tx, workspace, session, "add_perspective", now, name=name)
            return created

        created = self.graph.write(work, name="perspective_create")
        if not created:
            raise Conflict(f"a perspective named {name!r} exists in this workspace", field="name")
        return created

    def stats(self, workspace: str) -> Stats:
        state = self.perspectives.state(workspace)
        row = self.graph.read_query(
            "memory_stats",
            workspace=workspace,
            model=self.perspectives.encoder.name,
            perspectives=len(state.perspectives),
        )[0]
        items = row["observations"] + row["activeUnderstandings"]
        return Stats(
            {k: int(v) for k, v in row.items()},
            state.generation,
            state.last_consolidated_at,
            [p.name for p in state.perspectives],
            self.perspectives.encoder.name,
            round(row["embedded"] / items, 4) if items else 1.0,
        )

    def event_page(self, workspace: str, session: str | None, limit: int, before: str | None = None) -> EventPage:
        """Up to `limit` events, newest first, older than the one `before` names (a next_before this
        handed out; anything else is a 422 naming `before`)."""
        before_at, before_id = cursors.decode_event(before) if before is not None else (None, None)
        rows = self.graph.read_query(
            "memory_events",
            workspace=workspace,
            session=session,
            before_at=before_at,
            before_id=before_id,
            limit=limit + 1,
        )
        events = [
            {"at": to_native(r["at"]), "session_id": r["sessionId"], "operation": r["operation"], "detail": r["detail"]}
            for r in rows[:limit]
        ]
        last = rows[limit - 1] if len(rows) > limit else None
        return EventPage(events, cursors.encode_event(to_native(last["at"]), last["id"]) if last else None)
