"""What the subject layer hands its shells: subjects, observations, understandings, and the
answers of its verbs. Plain frozen dataclasses; the API and MCP shapes wrap them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from donto.temporal.instants import to_native

UNDERSTANDING_KINDS = ("single_subject", "relationship", "structural", "soul", "protocol", "orientation")
POINTER_KINDS = ("soul", "protocol", "orientation")  # one active each per workspace: orient reads them
OBSERVATION_KINDS = ("fact", "inference", "preference", "task_state", "reflection")


@dataclass(frozen=True)
class Subject:
    id: str
    name: str
    summary: str | None
    tags: list[str]
    aliases: list[str]
    created_at: datetime
    updated_at: datetime
    version: int
    observations: int

    @classmethod
    def of(cls, row: dict[str, Any]) -> Subject:
        return cls(
            row["id"],
            row["name"],
            row["summary"],
            list(row["tags"] or []),
            list(row["aliases"] or []),
            to_native(row["createdAt"]),
            to_native(row["updatedAt"]),
            row["version"],
            row["observations"],
        )


@dataclass(frozen=True)
class SubjectPage:
    subjects: list[Subject]
    next_cursor: str | None  # None: no subject after these


@dataclass(frozen=True)
class Observation:
    id: str
    text: str
    content_hash: str
    kind: str | None
    confidence: float | None
    generation: int
    observed_at: datetime | None
    created_at: datetime
    session_id: str | None
    subjects: list[str]

    @classmethod
    def of(cls, row: dict[str, Any]) -> Observation:
        return cls(
            row["id"],
            row["text"],
            row["contentHash"],
            row.get("kind"),
            row.get("confidence"),
            row["generation"],
            to_native(row.get("observedAt")),
            to_native(row["createdAt"]),
            row.get("sessionId"),
            list(row["subjects"]),
        )


@dataclass(frozen=True)
class Appended:
    observation: Observation
    created: bool
    subjects_created: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Understanding:
    id: str
    kind: str
    text: str
    summary: str
    generation: int
    created_at: datetime
    session_id: str | None
    model_tier: str | None
    subjects: list[str]
    active: bool = True
    superseded_by: list[str] = field(default_factory=list)
    useful: int = 0
    questionable: int = 0

    @classmethod
    def of(cls, row: dict[str, Any]) -> Understanding:
        superseded_by = list(row.get("supersededBy") or [])
        return cls(
            row["id"],
            row["kind"],
            row["text"],
            row["summary"],
            row["generation"],
            to_native(row["createdAt"]),
            row.get("sessionId"),
            row.get("modelTier"),
            list(row.get("subjects") or []),
            not superseded_by and row.get("active", True),
            superseded_by,
            row.get("useful", 0),
            row.get("questionable", 0),
        )


@dataclass(frozen=True)
class SubjectDetail:
    subject: Subject
    understanding: Understanding | None  # the active single-subject understanding
    structural: Understanding | None
    last_observation_at: datetime | None


@dataclass(frozen=True)
class Revision:
    """One SUPERSEDED_BY edge of an understanding's history."""

    old: str
    new: str
    at: datetime
    reason: str | None


@dataclass(frozen=True)
class History:
    versions: list[Understanding]  # oldest first
    revisions: list[Revision]


@dataclass(frozen=True)
class SubjectCount:
    id: str
    name: str
    total: int
    alone: int  # about this subject and none of the others asked


@dataclass(frozen=True)
class Intersection:
    subjects: list[Subject]
    count: int  # observations about every subject
    observations: list[Observation]
    alone: list[SubjectCount]  # empty for a single subject
    relationship: Understanding | None  # the newest active relationship understanding about all of them
    understandings: list[Understanding]  # the other active understandings about all of them


@dataclass(frozen=True)
class Neighbour:
    id: str
    name: str
    summary: str | None
    intersection: int  # observations and active understandings about both
    similarity: float | None  # of the two subjects' embeddings
    understanding_id: str | None
    understanding_summary: str | None


@dataclass(frozen=True)
class Around:
    subject: Subject
    neighbours: list[Neighbour]


@dataclass(frozen=True)
class SimilarPair:
    a: str
    b: str
    similarity: float
    shared: int


@dataclass(frozen=True)
class Merge:
    merge_id: str
    primary: str
    duplicate: str
    moved: int  # tags added (merge) or removed (unmerge)


@dataclass(frozen=True)
class Perspective:
    name: str
    instruction: str | None
    is_default: bool


@dataclass(frozen=True)
class MemoryState:
    generation: int
    last_consolidated_at: datetime | None
    perspectives: list[Perspective]

    @classmethod
    def of(cls, row: dict[str, Any]) -> MemoryState:
        return cls(
            row["generation"] or 0,
            to_native(row["lastConsolidatedAt"]),
            [Perspective(p["name"], p["instruction"], bool(p["isDefault"])) for p in row["perspectives"]],
        )
