"""Perspectives: named embedding angles. Every observation and understanding is embedded once per
perspective of its workspace, the perspective's instruction prefixed to its text; a search asks
every perspective at once and keeps each item's best match (with the perspective that gave it).

Instruction-tuned models (nomic, e5, EmbeddingGemma) shift what a vector captures with the prefix;
the packaged default (all-MiniLM-L6-v2) is not instruction-tuned, so for it the perspectives mostly
vary the wording around the same meaning. Every vector carries the model that made it, and a search
reads only the configured model's vectors, so a model change never mixes vector spaces."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from neo4j import ManagedTransaction

from donto.embedding.encoder import Encoder
from donto.graph.client import GraphClient
from donto.subjects.models import MemoryState, Perspective

DEFAULT_PERSPECTIVES = (
    Perspective("general", None, True),
    Perspective("technical", "Represent for retrieval about technical design and implementation:", True),
    Perspective(
        "relational", "Represent for retrieval about relationships, collaboration, and personal context:", True
    ),
    Perspective(
        "temporal", "Represent for retrieval about decisions made, things that changed, and open questions:", True
    ),
    Perspective("project", "Represent for retrieval about project state and progress:", True),
)
_DEFAULT_ROWS = [{"name": p.name, "instruction": p.instruction} for p in DEFAULT_PERSPECTIVES]


def embedding_text(perspective: Perspective, text: str) -> str:
    return f"{perspective.instruction} {text}" if perspective.instruction else text


class Perspectives:
    def __init__(self, graph: GraphClient, encoder: Encoder):
        self.graph = graph
        self.encoder = encoder

    def state(self, workspace: str, tx: ManagedTransaction | None = None) -> MemoryState:
        """Read only (inside `tx` when given): a workspace that never used memory has generation 0
        and the defaults. A request reads it once and hands it on."""
        rows = (
            self.graph.run(tx, "memory_workspace_read", workspace=workspace)
            if tx is not None
            else self.graph.read_query("memory_workspace_read", workspace=workspace)
        )
        state = MemoryState.of(rows[0])
        return (
            state
            if state.perspectives
            else MemoryState(state.generation, state.last_consolidated_at, list(DEFAULT_PERSPECTIVES))
        )

    def ensure(self, tx: ManagedTransaction, workspace: str, now: Any) -> MemoryState:
        """The workspace's memory state inside a write, its node and default perspectives made if new."""
        row = self.graph.run(tx, "memory_workspace", workspace=workspace, defaults=_DEFAULT_ROWS, now=now)[0]
        return MemoryState.of(row)

    def vectors(self, perspectives: Sequence[Perspective], items: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
        """Rows for perspective_vectors_write: each (id, text) embedded from every perspective, in one batch."""
        pairs = [(item_id, p.name, embedding_text(p, text)) for item_id, text in items for p in perspectives]
        vectors = self.encoder.encode([text for _, _, text in pairs])
        return [
            {"targetId": item_id, "perspective": name, "embedding": vector}
            for (item_id, name, _), vector in zip(pairs, vectors, strict=True)
        ]

    def write(self, tx: ManagedTransaction, workspace: str, rows: list[dict[str, Any]]) -> None:
        if rows:
            self.graph.run(tx, "perspective_vectors_write", workspace=workspace, model=self.encoder.name, rows=rows)
