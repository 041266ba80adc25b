"""Health: is Neo4j reachable, with which schema."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel


class HealthOut(BaseModel):
    status: Literal["ok", "unavailable"]
    neo4j: Literal["reachable", "unreachable"]
    schema_version: int | None = None
    embedding_model: str | None = None
