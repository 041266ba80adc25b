"""Subjects, observations and understandings: the agent's own curated memory (seed 002's Venn model).

A subject is a named anchor the agent stipulates; observations (immutable, append-only, one per
text per workspace) are ABOUT any number of subjects, and understandings (consolidated, revisable)
UNDERSTAND any number (a relationship type of their own, so neither is read to reach the other).
Subjects relate only through what they share: the intersection of two or more subjects is what is
ABOUT all of them, read in Cypher when asked and never stored as an edge. An understanding is never
changed: a revision is a new node the old one points to by SUPERSEDED_BY, so its history is a DAG.

Every write runs in one managed transaction that first takes the transaction clock's lock, so the
checks it makes (a name is free, an understanding is still active, a version is the one the caller
read) hold when it commits: a stale write is a 409, never a lost update."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from donto import cursors
from donto.errors import Conflict, InvalidInput, NotFound
from donto.graph.client import GraphClient, next_transaction_time
from donto.ids import uuid7
from donto.subjects.models import (
    OBSERVATION_KINDS,
    POINTER_KINDS,
    Appended,
    Around,
    History,
    Intersection,
    MemoryState,
    Merge,
    Neighbour,
    Observation,
    Revision,
    SimilarPair,
    Subject,
    SubjectCount,
    SubjectDetail,
    SubjectPage,
    Understanding,
)
from donto.subjects.perspectives import Perspectives
from donto.temporal.instants import to_native


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def alias_key(name: str) -> str:
    """How names and aliases are compared: letter case and surrounding spaces do not matter (the
    same as subjects_resolve's toLower(trim(ref)))."""
    return name.strip().lower()


def labelled(subjects: Sequence[str], text: str) -> str:
    """What an observation or understanding is embedded as: its subjects' names, then its text, as
    a turn is embedded with its speaker (the text alone rarely names whom it is about)."""
    return f"{', '.join(sorted(subjects))}: {text}" if subjects else text


def subject_text(name: str, summary: str | None) -> str:
    return f"{name}: {summary}" if summary else name


@dataclass(frozen=True)
class ObservationDraft:
    text: str
    subjects: list[str]  # names or ids
    kind: str | None = None
    confidence: float | None = None
    observed_at: datetime | None = None
    related_to: Sequence[str] = ()  # understandings this is direct evidence for
    cites: Sequence[str] = ()  # claims or documents
    model_tier: str | None = None


def record_event(
    graph: GraphClient,
    tx: ManagedTransaction,
    workspace: str,
    session: str | None,
    operation: str,
    at: datetime,
    **detail: Any,
) -> None:
    graph.run(
        tx,
        "memory_event_record",
        id=uuid7(),
        workspace=workspace,
        session=session,
        operation=operation,
        detail=json.dumps(detail, default=str, sort_keys=True),
        recorded_at=at,
    )


class SubjectService:
    def __init__(self, graph: GraphClient, perspectives: Perspectives):
        self.graph = graph
        self.perspectives = perspectives

    # -- subjects -----------------------------------------------------------------------------

    def create(
        self,
        workspace: str,
        name: str,
        summary: str | None,
        tags: list[str],
        aliases: Sequence[str] = (),
        session: str | None = None,
    ) -> Subject:
        embedding = self.perspectives.encoder.encode_one(subject_text(name, summary))

        def work(tx: ManagedTransaction) -> Subject:
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            subject = self._create(tx, workspace, name, summary, tags, list(aliases), embedding, session, recorded_at)
            record_event(self.graph, tx, workspace, session, "create_subject", recorded_at, subject=name)
            return subject

        return self.graph.write(work, name="subject_create")

    def _create(
        self,
        tx: ManagedTransaction,
        workspace: str,
        name: str,
        summary: str | None,
        tags: list[str],
        aliases: list[str],
        embedding: list[float],
        session: str | None,
        recorded_at: datetime,
    ) -> Subject:
        _check_alias_list(name, aliases)
        keys = _alias_keys(name, aliases)
        self._check_names_free(tx, workspace, name, keys, None)
        row = self.graph.run(
            tx,
            "subject_create",
            workspace=workspace,
            id=uuid7(),
            name=name,
            summary=summary,
            tags=tags,
            aliases=aliases,
            alias_keys=keys,
            embedding=embedding,
            model=self.perspectives.encoder.name,
            session=session,
            recorded_at=recorded_at,
        )[0]
        if not row["created"]:
            raise Conflict(f"a subject named {name!r} exists in this workspace", field="name")
        return Subject.of(row)

    def _check_names_free(
        self, tx: ManagedTransaction, workspace: str, name: str, keys: list[str], except_id: str | None
    ) -> None:
        """A name or alias belongs to one subject: 409 naming `name` or `aliases`, whichever clashes."""
        taken = self.graph.run(tx, "subject_alias_owners", workspace=workspace, keys=keys, except_id=except_id)
        if taken:
            key, owner = taken[0]["key"], taken[0]["name"]
            field = "name" if key == alias_key(name) and except_id is None else "aliases"
            raise Conflict(f"{key!r} already names the subject {owner!r}", field=field)

    def update(
        self,
        workspace: str,
        ref: str,
        version: int,
        summary: str | None,
        tags: list[str] | None,
        aliases: list[str] | None,
        session: str | None = None,
    ) -> Subject:
        """A new version of the subject's summary, tags or aliases (None: unchanged); 409 when the
        subject is no longer at `version` (someone else changed it since the caller read it)."""
        current = self.get(workspace, ref)
        summary = current.summary if summary is None else summary
        embedding = self.perspectives.encoder.encode_one(subject_text(current.name, summary))

        def work(tx: ManagedTransaction) -> Subject:
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            [now] = self._resolve(tx, workspace, [ref], "ref")
            subject_id = now.id
            if now.version != version:
                raise Conflict(
                    f"subject {now.name!r} is at version {now.version}, not {version}: read it again", field="version"
                )
            new_aliases = now.aliases if aliases is None else aliases
            if aliases is not None:
                _check_alias_list(now.name, aliases)
            keys = _alias_keys(now.name, new_aliases)
            self._check_names_free(tx, workspace, now.name, keys, subject_id)
            row = self.graph.run(
                tx,
                "subject_update",
                workspace=workspace,
                id=subject_id,
                summary=summary,
                tags=now.tags if tags is None else tags,
                aliases=new_aliases,
                alias_keys=keys,
                embedding=embedding,
                model=self.perspectives.encoder.name,
                recorded_at=recorded_at,
            )[0]
            record_event(self.graph, tx, workspace, session, "update_subject", recorded_at, subject=now.name)
            return Subject.of(row)

        return self.graph.write(work, name="subject_update")

    def get(self, workspace: str, ref: str, field: str = "ref") -> Subject:
        rows = self.graph.read(lambda tx: self._lookup(tx, workspace, [ref]), name="subjects_resolve")
        if ref not in rows:
            raise NotFound(f"no subject {ref!r} in this workspace", field=field)
        return Subject.of(rows[ref])

    def get_many(self, workspace: str, refs: list[str], field: str = "names") -> list[Subject]:
        """Several subjects by name, alias or id, in order; 404 names the first unknown (`names[i]`)."""
        rows = self.graph.read(lambda tx: self._lookup(tx, workspace, refs), name="subjects_resolve")
        for i, ref in enumerate(refs):
            if ref not in rows:
                raise NotFound(f"no subject {ref!r} in this workspace", field=f"{field}[{i}]")
        return [Subject.of(rows[ref]) for ref in refs]

    def detail(self, workspace: str, ref: str) -> SubjectDetail:
        """A subject with its active single-subject and structural understandings."""
        subject = self.get(workspace, ref)
        about = self.understandings_about(workspace, [subject.id], kinds=["single_subject", "structural"])
        newest = self.intersection(workspace, [subject.id], 1).observations
        return SubjectDetail(
            subject,
            next((u for u in about if u.kind == "single_subject"), None),
            next((u for u in about if u.kind == "structural"), None),
            newest[0].created_at if newest else None,
        )

    def page(self, workspace: str, limit: int, cursor: str | None = None) -> SubjectPage:
        """Up to `limit` subjects by name, after the one `cursor` names (a next_cursor this handed
        out; anything else is a 422 naming `cursor`)."""
        after = cursors.decode_subject(cursor) if cursor is not None else None
        rows = self.graph.read_query("subjects_list", workspace=workspace, after=after, limit=limit + 1)
        subjects = [Subject.of(r) for r in rows[:limit]]
        more = len(rows) > limit
        return SubjectPage(subjects, cursors.encode_subject(subjects[-1].name) if more else None)

    # -- observations -------------------------------------------------------------------------

    def append(
        self,
        workspace: str,
        drafts: Sequence[ObservationDraft],
        session: str | None = None,
        create_subjects: bool = False,
        field: str | None = "observations",
    ) -> list[Appended]:
        """Append observations (all or none). Each is ABOUT its subjects: with `create_subjects` a
        name no subject answers to is created (and reported), otherwise it is a 404 naming it. The
        same text again in the workspace returns the stored observation, tagged with any new
        subjects. related_to must name active understandings, cites claims or documents."""
        for i, draft in enumerate(drafts):
            if draft.kind is not None and draft.kind not in OBSERVATION_KINDS:
                raise InvalidInput(f"kind must be one of {', '.join(OBSERVATION_KINDS)}", field=_at(field, i, "kind"))
        planned_ids = [uuid7() for _ in drafts]
        state, names = self._prepare(workspace, [ref for d in drafts for ref in d.subjects])
        texts = [labelled([names.get(r) or r for r in d.subjects], d.text) for d in drafts]
        rows = self.perspectives.vectors(state.perspectives, list(zip(planned_ids, texts, strict=True)))
        new_names = [ref for ref in dict.fromkeys(r for d in drafts for r in d.subjects) if ref not in names]
        new_vectors = (
            dict(zip(new_names, self.perspectives.encoder.encode(new_names), strict=True)) if create_subjects else {}
        )

        def work(tx: ManagedTransaction) -> list[Appended]:
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            now_state = self.perspectives.ensure(tx, workspace, recorded_at)
            self._check_targets(tx, workspace, drafts, field)
            results = []
            for i, (draft, observation_id) in enumerate(zip(drafts, planned_ids, strict=True)):
                created_subjects: list[str] = []
                ids = []
                for j, ref in enumerate(draft.subjects):
                    found = self._resolve_optional(tx, workspace, ref)
                    if found is None:
                        if not create_subjects:
                            raise NotFound(
                                f"no subject {ref!r} in this workspace", field=_at(field, i, f"subjects[{j}]")
                            )
                        embedding = new_vectors.get(ref) or self.perspectives.encoder.encode_one(ref)
                        found = self._create(tx, workspace, ref, None, [], [], embedding, session, recorded_at).id
                        created_subjects.append(ref)
                    ids.append(found)
                row = self.graph.run(
                    tx,
                    "observation_append",
                    workspace=workspace,
                    id=observation_id,
                    text=draft.text,
                    content_hash=content_hash(draft.text),
                    kind=draft.kind,
                    confidence=draft.confidence,
                    observed_at=draft.observed_at or recorded_at,
                    generation=now_state.generation,
                    session=session,
                    model_tier=draft.model_tier,
                    recorded_at=recorded_at,
                    subject_ids=ids,
                    related_ids=list(draft.related_to),
                    cite_ids=list(draft.cites),
                )[0]
                if row["created"]:
                    mine = [r for r in rows if r["targetId"] == observation_id]
                    missing = [p for p in now_state.perspectives if p.name not in {r["perspective"] for r in mine}]
                    mine += self.perspectives.vectors(missing, [(observation_id, texts[i])])
                    self.perspectives.write(tx, workspace, mine)
                results.append(Appended(Observation.of(row), row["created"], created_subjects))
            record_event(
                self.graph,
                tx,
                workspace,
                session,
                "remember" if create_subjects else "append_observations",
                recorded_at,
                observations=[r.observation.id for r in results],
                subjects_created=[s for r in results for s in r.subjects_created],
            )
            return results

        return self.graph.write(work, name="observation_append")

    def _check_targets(
        self, tx: ManagedTransaction, workspace: str, drafts: Sequence[ObservationDraft], field: str | None
    ) -> None:
        wanted = [id for d in drafts for id in (*d.related_to, *d.cites)]
        if not wanted:
            return
        found = {r["id"]: r for r in self.graph.run(tx, "memory_targets_exist", workspace=workspace, ids=wanted)}
        for i, draft in enumerate(drafts):
            for j, id in enumerate(draft.related_to):
                row = found.get(id)
                if row is None or row["kind"] != "Understanding":
                    raise NotFound(
                        f"no understanding {id!r} in this workspace", field=_at(field, i, f"related_to[{j}]")
                    )
            for j, id in enumerate(draft.cites):
                row = found.get(id)
                if row is None or row["kind"] not in ("Claim", "Document"):
                    raise NotFound(f"no claim or document {id!r} in this workspace", field=_at(field, i, f"cites[{j}]"))

    def delete_observations(
        self, workspace: str, ids: list[str], session: str | None
    ) -> tuple[list[str], list[tuple[str, str]]]:
        """Delete observations written in this session (a correction within the conversation that
        made them); the others stay, each with the reason. Returns (deleted, rejected)."""

        def work(tx: ManagedTransaction) -> tuple[list[str], list[tuple[str, str]]]:
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            if session is None:
                return [], [
                    (id, "no session: only an observation made in the current session can be deleted") for id in ids
                ]
            rows = self.graph.run(tx, "observations_delete", workspace=workspace, ids=ids, session=session)
            deleted = [r["id"] for r in rows if r["deleted"]]
            rejected = [
                (r["id"], "not found" if not r["found"] else "session mismatch: made in another session")
                for r in rows
                if not r["deleted"]
            ]
            if deleted:
                record_event(
                    self.graph, tx, workspace, session, "delete_observations", recorded_at, observations=deleted
                )
            return deleted, rejected

        return self.graph.write(work, name="observations_delete")

    # -- understandings -----------------------------------------------------------------------

    def create_understanding(
        self,
        workspace: str,
        subjects: list[str],
        text: str,
        summary: str,
        kind: str | None = None,
        sources: Sequence[str] = (),
        supersedes: Sequence[str] = (),
        reason: str | None = None,
        model_tier: str | None = None,
        session: str | None = None,
        field_prefix: str = "",
        subjects_field: str = "subject_names",
    ) -> Understanding:
        """Write an understanding of the subjects. kind defaults to single_subject for one subject
        and relationship for more. A soul, protocol or orientation is one per workspace, and a
        single-subject or structural understanding one per subject: writing another while one is
        active revises it (the old one is SUPERSEDED_BY the new). `supersedes` names active
        understandings this one revises (several: a consolidation of them)."""
        kind = kind or ("single_subject" if len(subjects) == 1 else "relationship")
        if not subjects and kind not in POINTER_KINDS:
            raise InvalidInput(
                f"a {kind} understanding is about at least one subject", field=f"{field_prefix}{subjects_field}"
            )
        if kind in ("single_subject", "structural") and len(subjects) != 1:
            raise InvalidInput(
                f"a {kind} understanding is about exactly one subject", field=f"{field_prefix}{subjects_field}"
            )
        if kind == "relationship" and len(set(subjects)) < 2:
            raise InvalidInput(
                "a relationship understanding is about two or more subjects", field=f"{field_prefix}{subjects_field}"
            )
        new_id = uuid7()
        state, names = self._prepare(workspace, subjects)
        embedded = labelled([names.get(r) or r for r in subjects], f"{summary}\n{text}")
        rows = self.perspectives.vectors(state.perspectives, [(new_id, embedded)])

        def work(tx: ManagedTransaction) -> Understanding:
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            now_state = self.perspectives.ensure(tx, workspace, recorded_at)
            subject_ids = [s.id for s in self._resolve(tx, workspace, subjects, f"{field_prefix}{subjects_field}")]
            if len(set(subject_ids)) != len(subject_ids):
                raise InvalidInput("a subject is named twice", field=f"{field_prefix}{subjects_field}")
            revised = self._check_revisable(tx, workspace, list(supersedes), "supersedes")
            revised += [u for u in self._singletons(tx, workspace, kind, subject_ids) if u not in revised]
            self._check_sources(tx, workspace, sources, f"{field_prefix}source_observation_ids")
            row = self.graph.run(
                tx,
                "understanding_create",
                workspace=workspace,
                id=new_id,
                kind=kind,
                text=text,
                summary=summary,
                generation=now_state.generation,
                session=session,
                model_tier=model_tier,
                recorded_at=recorded_at,
                subject_ids=subject_ids,
                source_ids=list(sources),
                supersedes=revised,
                reason=reason,
            )[0]
            mine = rows + self.perspectives.vectors(
                [p for p in now_state.perspectives if p.name not in {r["perspective"] for r in rows}],
                [(new_id, embedded)],
            )
            self.perspectives.write(tx, workspace, mine)
            record_event(
                self.graph,
                tx,
                workspace,
                session,
                "create_understanding",
                recorded_at,
                id=new_id,
                kind=kind,
                supersedes=revised,
            )
            return Understanding.of(row)

        return self.graph.write(work, name="understanding_create")

    def update_understanding(
        self,
        workspace: str,
        understanding_id: str,
        text: str,
        summary: str,
        subjects: list[str] | None = None,
        reason: str | None = None,
        model_tier: str | None = None,
        session: str | None = None,
    ) -> tuple[Understanding, Understanding]:
        """Revise an active understanding: a new one, of its kind and (unless given) its subjects,
        that the old one is SUPERSEDED_BY. 409 when it was revised already (by someone else)."""
        [old] = self.understandings(workspace, [understanding_id], field="understanding_id")
        if not old.active:
            raise Conflict(
                f"understanding {understanding_id} was revised already, by {', '.join(old.superseded_by)}",
                field="understanding_id",
            )
        new = self.create_understanding(
            workspace,
            subjects if subjects is not None else old.subjects,
            text,
            summary,
            kind=old.kind,
            supersedes=[understanding_id],
            reason=reason,
            model_tier=model_tier,
            session=session,
        )
        return old, new

    def understandings(self, workspace: str, ids: list[str], field: str = "ids") -> list[Understanding]:
        rows = {r["id"]: r for r in self.graph.read_query("understandings_get", workspace=workspace, ids=ids)}
        for i, id in enumerate(ids):
            if id not in rows:
                raise NotFound(
                    f"no understanding {id!r} in this workspace", field=field if len(ids) == 1 else f"{field}[{i}]"
                )
        return [Understanding.of(rows[id]) for id in ids]

    def understandings_about(
        self, workspace: str, subjects: list[str], kinds: Sequence[str] = (), limit: int = 100
    ) -> list[Understanding]:
        ids = [s.id for s in self.get_many(workspace, subjects, "subject_names")]
        rows = self.graph.read_query(
            "understandings_about",
            workspace=workspace,
            subject_ids=list(dict.fromkeys(ids)),
            kinds=list(kinds),
            limit=limit,
        )
        return [Understanding.of(r) for r in rows]

    def history(self, workspace: str, understanding_id: str) -> History:
        rows = self.graph.read_query("understanding_history", workspace=workspace, id=understanding_id)
        if not rows:
            raise NotFound(f"no understanding {understanding_id!r} in this workspace", field="understanding_id")
        versions = sorted((Understanding.of(v) for v in rows[0]["versions"]), key=lambda u: (u.created_at, u.id))
        revisions = sorted(
            (Revision(e["from"], e["to"], to_native(e["at"]), e["reason"]) for e in rows[0]["edges"]),
            key=lambda r: r.at,
        )
        return History(versions, revisions)

    def _check_revisable(self, tx: ManagedTransaction, workspace: str, ids: list[str], field: str) -> list[str]:
        if not ids:
            return []
        rows = {r["id"]: r for r in self.graph.run(tx, "memory_targets_exist", workspace=workspace, ids=ids)}
        for i, id in enumerate(ids):
            row = rows.get(id)
            if row is None or row["kind"] != "Understanding":
                raise NotFound(f"no understanding {id!r} in this workspace", field=f"{field}[{i}]")
            if not row["active"]:
                raise Conflict(f"understanding {id} was already revised: revise the newest one", field=f"{field}[{i}]")
        return list(dict.fromkeys(ids))

    def _singletons(self, tx: ManagedTransaction, workspace: str, kind: str, subject_ids: list[str]) -> list[str]:
        """The active understanding a new one of this kind replaces: the workspace's soul, protocol or
        orientation, or the subject's single-subject or structural understanding."""
        if kind in POINTER_KINDS:
            rows = self.graph.run(tx, "understandings_of_kind", workspace=workspace, kind=kind, subject_id=None)
        elif kind in ("single_subject", "structural"):
            rows = self.graph.run(
                tx, "understandings_of_kind", workspace=workspace, kind=kind, subject_id=subject_ids[0]
            )
        else:
            return []
        return [r["id"] for r in rows]

    def _check_sources(self, tx: ManagedTransaction, workspace: str, ids: Sequence[str], field: str) -> None:
        if not ids:
            return
        rows = {r["id"]: r for r in self.graph.run(tx, "memory_targets_exist", workspace=workspace, ids=list(ids))}
        for i, id in enumerate(ids):
            if rows.get(id, {}).get("kind") != "Observation":
                raise NotFound(f"no observation {id!r} in this workspace", field=f"{field}[{i}]")

    # -- intersections and neighbourhoods -----------------------------------------------------

    def intersection(self, workspace: str, subjects: list[str], limit: int) -> Intersection:
        """What is about ALL the subjects: observations newest first with their count, the active
        relationship understanding and other understandings; for two or more subjects also each
        one's count in all and alone (about none of the others)."""

        def work(tx: ManagedTransaction) -> Intersection:
            resolved = self._resolve(tx, workspace, subjects, "subjects")
            ids = [s.id for s in resolved]
            if len(set(ids)) != len(ids):
                raise InvalidInput("a subject is named twice", field="subjects")
            row = self.graph.run(tx, "subjects_intersection", workspace=workspace, subject_ids=ids, limit=limit)[0]
            alone = []
            if len(ids) > 1:
                rows = self.graph.run(tx, "subjects_alone_counts", workspace=workspace, subject_ids=ids)
                alone = [SubjectCount(r["id"], r["name"], r["total"], r["alone"]) for r in rows]
            understandings = [
                Understanding.of(r)
                for r in self.graph.run(
                    tx, "understandings_about", workspace=workspace, subject_ids=ids, kinds=[], limit=limit
                )
            ]
            relationship = next((u for u in understandings if u.kind == "relationship"), None) if len(ids) > 1 else None
            return Intersection(
                resolved,
                row["count"],
                [Observation.of(o) for o in row["observations"]],
                alone,
                relationship,
                [u for u in understandings if u is not relationship],
            )

        return self.graph.read(work, name="subjects_intersection")

    def around(self, workspace: str, ref: str, limit: int) -> Around:
        subject = self.get(workspace, ref, "subject")
        rows = self.graph.read_query("subject_around", workspace=workspace, subject_id=subject.id, limit=limit)
        return Around(
            subject,
            [
                Neighbour(
                    r["id"],
                    r["name"],
                    r["summary"],
                    r["intersection"],
                    None if r["similarity"] is None else self.perspectives.encoder.similarity(r["similarity"]),
                    r["understandingId"],
                    r["understandingSummary"],
                )
                for r in rows
            ],
        )

    def similar(
        self, workspace: str, ref: str | None, min_similarity: float, max_shared: int, limit: int
    ) -> list[SimilarPair]:
        """Subject pairs close in meaning that share at most `max_shared` observations: candidates
        for merge_subjects or for tagging across; from one subject, or from all of them."""
        ids = [self.get(workspace, ref, "subject").id] if ref else [s.id for s in self.page(workspace, 10_000).subjects]
        rows = self.graph.read_query(
            "subjects_similar",
            workspace=workspace,
            subject_ids=ids,
            fetch=max(50, limit * 4),
            min_similarity=self.perspectives.encoder.cosine_for(min_similarity),
            max_shared=max_shared,
            limit=limit,
        )
        similarity = self.perspectives.encoder.similarity
        return [SimilarPair(r["a"], r["b"], similarity(r["similarity"]), r["shared"]) for r in rows]

    # -- merging ------------------------------------------------------------------------------

    def merge(self, workspace: str, primary: str, duplicate: str, session: str | None = None) -> Merge:
        """Everything about the duplicate becomes about the primary too, and the primary answers to
        the duplicate's names; reversible with unmerge (the merge id, or the duplicate's name)."""

        def work(tx: ManagedTransaction) -> Merge:
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            primary_id = self._resolve(tx, workspace, [primary], "primary")[0].id
            [dup] = self._resolve(tx, workspace, [duplicate], "duplicate")
            duplicate_id = dup.id
            if primary_id == duplicate_id:
                # Its own name, one of its aliases, or a subject merged into it before.
                raise InvalidInput(
                    f"{duplicate!r} already names the subject {dup.name!r}: nothing to merge", field="duplicate"
                )
            aliases = [dup.name, *dup.aliases]
            merge_id = uuid7()
            row = self.graph.run(
                tx,
                "subjects_merge",
                workspace=workspace,
                primary_id=primary_id,
                duplicate_id=duplicate_id,
                merge_id=merge_id,
                aliases=aliases,
                alias_keys=_alias_keys(*aliases),
                recorded_at=recorded_at,
            )[0]
            record_event(self.graph, tx, workspace, session, "merge_subjects", recorded_at, merge_id=merge_id, **row)
            return Merge(merge_id, row["primary"], row["duplicate"], row["moved"])

        return self.graph.write(work, name="subjects_merge")

    def unmerge(self, workspace: str, ref: str, session: str | None = None) -> Merge:
        def work(tx: ManagedTransaction) -> Merge:
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            rows = self.graph.run(tx, "subject_merge_find", workspace=workspace, ref=ref)
            if not rows:
                raise NotFound(f"no merged subject or merge {ref!r} in this workspace", field="merge")
            found = rows[0]
            if found["nameTaken"]:
                raise Conflict(f"a subject named {found['duplicate']!r} exists again: rename it first", field="merge")
            row = self.graph.run(
                tx, "subjects_unmerge", workspace=workspace, merge_id=found["mergeId"], recorded_at=recorded_at
            )[0]
            record_event(self.graph, tx, workspace, session, "unmerge_subjects", recorded_at, merge_id=found["mergeId"])
            return Merge(found["mergeId"], row["primary"], row["duplicate"], row["removed"])

        return self.graph.write(work, name="subjects_unmerge")

    # -- re-embedding -------------------------------------------------------------------------

    def reembed(self, report: Callable[[str], None], page: int = 256) -> dict[str, int]:
        """Every subject, observation and understanding embedded again with the configured model,
        from every perspective of its workspace (`donto reembed`, after the model changed)."""
        counts = {"subjects": 0, "observations": 0, "understandings": 0}
        after = ""
        while rows := self.graph.read_query("memory_reembed_page", after=after, limit=page):
            subjects = [r for r in rows if r["label"] == "Subject"]
            if subjects:
                vectors = self.perspectives.encoder.encode([subject_text(r["name"], r["summary"]) for r in subjects])
                self.graph.write_query(
                    "subject_embeddings_write",
                    model=self.perspectives.encoder.name,
                    rows=[{"id": r["id"], "embedding": v} for r, v in zip(subjects, vectors, strict=True)],
                )
            by_workspace: dict[str, list[dict[str, Any]]] = {}
            for r in rows:
                if r["label"] != "Subject":
                    by_workspace.setdefault(r["workspace"], []).append(r)
            for workspace, items in by_workspace.items():
                state = self.perspectives.state(workspace)
                texts = [
                    (
                        r["id"],
                        labelled(
                            r["subjects"], r["text"] if r["label"] == "Observation" else f"{r['summary']}\n{r['text']}"
                        ),
                    )
                    for r in items
                ]
                vector_rows = self.perspectives.vectors(state.perspectives, texts)
                self.graph.write(
                    lambda tx, w=workspace, v=vector_rows: self.perspectives.write(tx, w, v), name="reembed"
                )
            for r in rows:
                counts[
                    {"Subject": "subjects", "Observation": "observations", "Understanding": "understandings"}[
                        r["label"]
                    ]
                ] += 1
            after = rows[-1]["id"]
            report(", ".join(f"{n} {kind}" for kind, n in counts.items()))
        return counts

    # -- resolving names ----------------------------------------------------------------------

    def _resolve(self, tx: ManagedTransaction, workspace: str, refs: list[str], field: str) -> list[Subject]:
        """The subjects named (by id, name or alias), in order; NotFound naming the first unknown."""
        found = {ref: Subject.of(r) for ref, r in self._lookup(tx, workspace, refs).items()}
        for i, ref in enumerate(refs):
            if ref not in found:
                raise NotFound(
                    f"no subject {ref!r} in this workspace",
                    field=f"{field}[{i}]" if len(refs) > 1 or field.endswith("s") else field,
                )
        return [found[ref] for ref in refs]

    def _prepare(self, workspace: str, refs: list[str]) -> tuple[MemoryState, dict[str, str]]:
        """What a write embeds with before it starts, in one read: the workspace's perspectives, and
        subject names by ref for the refs that name a subject. The write reads its state again
        under the lock (ensure): the generation it records must be the one current when it commits."""

        def work(tx: ManagedTransaction) -> tuple[MemoryState, dict[str, str]]:
            state = self.perspectives.state(workspace, tx)
            if not refs:
                return state, {}
            return state, {ref: r["name"] for ref, r in self._lookup(tx, workspace, refs).items()}

        return self.graph.read(work, name="memory_write_prepare")

    def _resolve_optional(self, tx: ManagedTransaction, workspace: str, ref: str) -> str | None:
        row = self._lookup(tx, workspace, [ref]).get(ref)
        return row["id"] if row else None

    def _lookup(self, tx: ManagedTransaction, workspace: str, refs: list[str]) -> dict[str, dict[str, Any]]:
        """Subject rows by ref, for the refs that name one: by id or name from their indexes, and only
        the refs neither found by alias (every subject's aliases are read for those)."""
        refs = list(dict.fromkeys(refs))
        found = {r["ref"]: r for r in self.graph.run(tx, "subjects_resolve", workspace=workspace, refs=refs)}
        if missing := [ref for ref in refs if ref not in found]:
            found.update(
                (r["ref"], r) for r in self.graph.run(tx, "subjects_resolve_alias", workspace=workspace, refs=missing)
            )
        return found


def _at(field: str | None, i: int, rest: str) -> str:
    """Where in the request an observation's input is: `observations[2].kind`, or for a request of
    one flat observation (remember) `kind`."""
    return rest if field is None else f"{field}[{i}].{rest}"


def _check_alias_list(name: str, aliases: Sequence[str]) -> None:
    """422 naming `aliases[i]` for an alias that is the subject's own name or an earlier alias again
    (in any letter case: names resolve case-insensitively)."""
    seen = {alias_key(name): "its own name"}
    for i, alias in enumerate(aliases):
        key = alias_key(alias)
        if key in seen:
            raise InvalidInput(f"alias {alias!r} is {seen[key]} again", field=f"aliases[{i}]")
        seen[key] = f"aliases[{i}]"


def _alias_keys(*names: str | Sequence[str]) -> list[str]:
    flat: list[str] = []
    for n in names:
        flat.extend([n] if isinstance(n, str) else n)
    return list(dict.fromkeys(alias_key(n) for n in flat))
