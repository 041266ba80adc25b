"""Health: no key needed."""

from __future__ import annotations

from dataclasses import asdict

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from donto.api.deps import MemoryDep
from donto.api.schemas.health import HealthOut, IndexStateOut, ModelOut, ModelState
from donto.errors import BackendUnavailable

router = APIRouter(tags=["health"])


@router.get(
    "/health", response_model=HealthOut, response_model_exclude_none=True, responses={503: {"model": HealthOut}}
)
def health(memory: MemoryDep) -> HealthOut | JSONResponse:
    """Where the start is (`state`: starting, loading model, ready; 503 while starting). Is Neo4j
    reachable, and which schema version and embedding model does it carry; which model
    is configured (its card, once loaded: for seconds after a start it is `warming_up`); which
    indexes are still being built? 503 when Neo4j does not answer (the body says no more than that:
    no address, no driver message) or the model could not be loaded."""
    if not memory.opened.is_set():  # starting: Neo4j not reached yet, the schema being applied (or the start failed)
        reached = memory.reached.is_set()
        starting = HealthOut(status="unavailable", state=memory.state, neo4j="reachable" if reached else "unreachable")
        return JSONResponse(starting.model_dump(exclude_none=True), status_code=503)
    try:
        rows = memory.graph.read_once("health")
        not_online = memory.graph.indexes_not_online()
    except BackendUnavailable:
        down = HealthOut(status="unavailable", state=memory.state, neo4j="unreachable")
        return JSONResponse(down.model_dump(exclude_none=True), status_code=503)
    encoder = memory.encoder
    state: ModelState = "failed" if encoder.failed else "ready" if encoder.loaded else "warming_up"
    out = HealthOut(
        status="ok",
        state=memory.state,
        neo4j="reachable",
        schema_version=rows[0]["schemaVersion"],
        embedding_model=rows[0]["embeddingModel"],
        model_state=state,
        model=ModelOut(**asdict(encoder.card)) if state == "ready" else None,
        model_remedy=encoder.failure_remedy,
        indexes_not_online=[IndexStateOut(**row) for row in not_online],
    )
    if state == "failed":  # a balancer should send nothing here: recall would only get 503s
        failed = out.model_copy(update={"status": "unavailable"})
        return JSONResponse(failed.model_dump(exclude_none=True), status_code=503)
    return out
