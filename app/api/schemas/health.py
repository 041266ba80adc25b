"""Health: is Neo4j reachable, with which schema, and which embedding model is configured."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel


class ModelOut(BaseModel):
    """The configured embedding model (`donto models` prints the same card)."""

    name: str
    source: Literal["package", "path", "fetched", "cache"]
    dimensions: int
    max_seq_length: int
    query_prompt: str | None
    document_prompt: str | None
    licence: str


class HealthOut(BaseModel):
    status: Literal["ok", "unavailable"]
    neo4j: Literal["reachable", "unreachable"]
    schema_version: int | None = None
    embedding_model: str | None = None  # the model the graph's vectors were made with
    model: ModelOut | None = None
