"""Subjects, observations about them, and their intersections."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from app.api.schemas.common import Key, Strict
from app.subjects.service import Appended, Intersection, Observation, Subject
from app.temporal.instants import iso

MAX_SUBJECTS = 100  # per observation or intersection
SubjectRef = Annotated[Key, Field(description="a subject's name or id")]
Text = Annotated[str, StringConstraints(min_length=1, max_length=20_000, pattern=r"\S")]


class SubjectIn(Strict):
    name: Key
    summary: Annotated[str, StringConstraints(max_length=4000)] | None = None
    tags: list[Key] = Field(default_factory=list, max_length=50)


class SubjectOut(BaseModel):
    id: str
    name: str
    summary: str | None
    tags: list[str]
    created_at: str
    version: int
    observations: int = Field(description="how many observations are about it")

    @classmethod
    def of(cls, s: Subject) -> SubjectOut:
        return cls(
            id=s.id,
            name=s.name,
            summary=s.summary,
            tags=s.tags,
            created_at=iso(s.created_at),
            version=s.version,
            observations=s.observations,
        )


class SubjectListOut(BaseModel):
    subjects: list[SubjectOut]


class ObservationIn(Strict):
    text: Text
    subjects: list[SubjectRef] = Field(default_factory=list, max_length=MAX_SUBJECTS)


class ObservationOut(BaseModel):
    id: str
    text: str
    content_hash: str = Field(description="sha256 of the text; one observation per hash per workspace")
    generation: int
    created_at: str
    subjects: list[str] = Field(description="names of the subjects it is about")

    @classmethod
    def of(cls, o: Observation) -> ObservationOut:
        return cls(
            id=o.id,
            text=o.text,
            content_hash=o.content_hash,
            generation=o.generation,
            created_at=iso(o.created_at),
            subjects=o.subjects,
        )


class AppendedOut(BaseModel):
    observation: ObservationOut
    created: bool = Field(description="false: the same text was already observed; the stored one is returned")

    @classmethod
    def of(cls, a: Appended) -> AppendedOut:
        return cls(observation=ObservationOut.of(a.observation), created=a.created)


class IntersectionIn(Strict):
    subjects: list[SubjectRef] = Field(min_length=1, max_length=MAX_SUBJECTS)
    limit: int = Field(default=50, ge=1, le=1000)


class SubjectCountOut(BaseModel):
    id: str
    name: str
    total: int = Field(description="observations about it")
    alone: int = Field(description="observations about it and none of the other subjects asked")


class IntersectionOut(BaseModel):
    subjects: list[str]
    count: int = Field(description="observations about every subject asked (the page holds at most `limit`)")
    observations: list[ObservationOut] = Field(description="newest first")
    alone: list[SubjectCountOut] = Field(description="for two or more subjects, each one's own counts")

    @classmethod
    def of(cls, i: Intersection) -> IntersectionOut:
        return cls(
            subjects=i.subjects,
            count=i.count,
            observations=[ObservationOut.of(o) for o in i.observations],
            alone=[SubjectCountOut(id=c.id, name=c.name, total=c.total, alone=c.alone) for c in i.alone],
        )
