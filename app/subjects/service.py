"""Subjects: named anchors a workspace stipulates, and observations tagged to any number of them.

Subjects relate only through what they share: the intersection of two or more subjects is the set
of observations ABOUT all of them, computed when asked (never stored as an edge). Observations are
append-only and deduplicated by a hash of their text per workspace. Consolidation (understandings,
generations past 0) is not built yet, so every observation is written in generation 0."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from app.errors import Conflict, InvalidInput, NotFound
from app.graph.client import GraphClient, next_transaction_time
from app.ids import uuid7
from app.temporal.instants import to_native

GENERATION = 0  # the workspace's consolidation cycle, once consolidation exists


@dataclass(frozen=True)
class Subject:
    id: str
    name: str
    summary: str | None
    tags: list[str]
    created_at: datetime
    version: int
    observations: int


@dataclass(frozen=True)
class Observation:
    id: str
    text: str
    content_hash: str
    generation: int
    created_at: datetime
    subjects: list[str]


@dataclass(frozen=True)
class Appended:
    observation: Observation
    created: bool


@dataclass(frozen=True)
class SubjectCount:
    id: str
    name: str
    total: int
    alone: int  # about this subject and none of the others asked


@dataclass(frozen=True)
class Intersection:
    subjects: list[str]
    count: int
    observations: list[Observation]
    alone: list[SubjectCount]  # empty for a single subject


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _subject(row: dict[str, Any]) -> Subject:
    return Subject(
        row["id"],
        row["name"],
        row["summary"],
        list(row["tags"] or []),
        to_native(row["createdAt"]),
        row["version"],
        row["observations"],
    )


def _observation(row: dict[str, Any]) -> Observation:
    return Observation(
        row["id"],
        row["text"],
        row["contentHash"],
        row["generation"],
        to_native(row["createdAt"]),
        list(row["subjects"]),
    )


class SubjectService:
    def __init__(self, graph: GraphClient):
        self.graph = graph

    def create(self, workspace: str, name: str, summary: str | None, tags: list[str]) -> Subject:
        def work(tx: ManagedTransaction) -> dict[str, Any]:
            recorded_at = next_transaction_time(self.graph, tx)
            return self.graph.run(
                tx,
                "subject_create",
                workspace=workspace,
                id=uuid7(),
                name=name,
                summary=summary,
                tags=tags,
                recorded_at=recorded_at,
            )[0]

        row = self.graph.write(work, name="subject_create")
        if not row["created"]:
            raise Conflict(f"a subject named {name!r} exists in this workspace", field="name")
        return _subject(row)

    def get(self, workspace: str, ref: str) -> Subject:
        rows = self.graph.read_query("subjects_resolve", workspace=workspace, refs=[ref])
        if not rows:
            raise NotFound(f"no subject {ref!r} in this workspace", field="ref")
        return _subject(rows[0])

    def all(self, workspace: str, limit: int) -> list[Subject]:
        return [_subject(r) for r in self.graph.read_query("subjects_list", workspace=workspace, limit=limit)]

    def append(self, workspace: str, text: str, subjects: list[str]) -> Appended:
        """Append an observation ABOUT the subjects (names or ids, all of which must exist); the
        same text again in this workspace returns the stored one, tagged with any new subjects."""

        def work(tx: ManagedTransaction) -> dict[str, Any]:
            ids = [id for id, _ in self._resolve(tx, workspace, subjects, "subjects")]
            recorded_at = next_transaction_time(self.graph, tx)
            return self.graph.run(
                tx,
                "observation_append",
                workspace=workspace,
                id=uuid7(),
                text=text,
                content_hash=content_hash(text),
                generation=GENERATION,
                recorded_at=recorded_at,
                subject_ids=ids,
            )[0]

        row = self.graph.write(work, name="observation_append")
        return Appended(_observation(row), row["created"])

    def intersection(self, workspace: str, subjects: list[str], limit: int) -> Intersection:
        """The observations ABOUT every given subject, newest first; for two or more subjects also
        each one's count in all and alone (about none of the others)."""

        def work(tx: ManagedTransaction) -> Intersection:
            resolved = self._resolve(tx, workspace, subjects, "subjects")
            ids = [id for id, _ in resolved]
            if len(set(ids)) != len(ids):
                raise InvalidInput("a subject is named twice", field="subjects")
            row = self.graph.run(tx, "subjects_intersection", workspace=workspace, subject_ids=ids, limit=limit)[0]
            alone = []
            if len(ids) > 1:
                rows = self.graph.run(tx, "subjects_alone_counts", workspace=workspace, subject_ids=ids)
                alone = [SubjectCount(r["id"], r["name"], r["total"], r["alone"]) for r in rows]
            return Intersection(
                [name for _, name in resolved],
                row["count"],
                [_observation(o) for o in row["observations"]],
                alone,
            )

        return self.graph.read(work, name="subjects_intersection")

    def _resolve(self, tx: ManagedTransaction, workspace: str, refs: list[str], field: str) -> list[tuple[str, str]]:
        """(id, name) of the subjects named (by id or name), in order; NotFound naming the first unknown."""
        found = {
            r["ref"]: (r["id"], r["name"])
            for r in self.graph.run(tx, "subjects_resolve", workspace=workspace, refs=refs)
        }
        for i, ref in enumerate(refs):
            if ref not in found:
                raise NotFound(f"no subject {ref!r} in this workspace", field=f"{field}[{i}]")
        return [found[ref] for ref in refs]
