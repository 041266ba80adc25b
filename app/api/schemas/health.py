"""Health: is Neo4j reachable, with which schema, and which embedding model is configured."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

ModelState = Literal["ready", "warming_up", "failed"]


class ModelOut(BaseModel):
    """The configured embedding model (`donto models` prints the same card)."""

    name: str
    source: Literal["package", "path", "fetched", "cache"]
    dimensions: int
    max_seq_length: int
    query_prompt: str | None
    document_prompt: str | None
    licence: str
    runtime: Literal["onnxruntime", "torch"] = Field(
        description="what runs the model's transformer: ONNX Runtime where its folder holds the graph, on CPU"
    )


class IndexStateOut(BaseModel):
    """One of schema.cypher's indexes that is not online: POPULATING (being built), FAILED (drop it and
    apply the schema again) or MISSING (dropped: `donto reembed` makes the vector indexes again at its end)."""

    name: str
    type: str = Field(description="VECTOR, FULLTEXT, RANGE, ...")
    state: Literal["POPULATING", "FAILED", "MISSING"]
    percent: float = Field(description="how much of the graph it has read, 0-100")


class HealthOut(BaseModel):
    status: Literal["ok", "unavailable"]
    state: Literal["starting", "loading model", "ready", "failed"] | None = Field(
        default=None,
        description="where the server's start is: `starting` (Neo4j not reached yet or the schema being applied; "
        "503), `loading model` (the embedding model loads: served, but recall and episodes answer 503 "
        "model_warming_up; 503 too on a store's first start, whose schema waits for the model), `ready`, "
        "`failed` (the start stopped or the model could not be loaded; 503, the server's log says why). "
        "It says where the start got to, not whether the server serves now: `status` and `neo4j` say that (a "
        "Neo4j that stops answering after the start reads `state: ready` beside `status: unavailable`)",
    )
    neo4j: Literal["reachable", "unreachable"]
    schema_version: int | None = None
    embedding_model: str | None = None  # the model the graph's vectors were made with
    model_state: ModelState | None = Field(
        default=None,
        description="the configured model: `warming_up` for seconds after a start (it loads while requests are "
        "served; recall and episodes answer 503 model_warming_up meanwhile), `failed` if it could not be "
        "loaded (503; the server's log says why)",
    )
    model: ModelOut | None = Field(default=None, description="the configured model's card, once it is loaded")
    model_remedy: str | None = Field(
        default=None,
        description="with `failed`, where the configured model (or device) runs on PyTorch and the install "
        'leaves it out: what to install (pip install "donto-memory[torch]")',
    )
    indexes_not_online: list[IndexStateOut] | None = Field(
        default=None,
        description="indexes not online, empty when all are: while one is built (minutes for a million vectors) "
        "recall runs without the arms it serves and says so, and other reads of it answer 503",
    )
