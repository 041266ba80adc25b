from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from app.api.deps import ServicesDep
from app.errors import BackendUnavailable

router = APIRouter(tags=["health"])


@router.get("/health")
def health(svc: ServicesDep) -> JSONResponse:
    """No key needed: is Neo4j reachable, and which schema version does it carry?"""
    try:
        rows = svc.graph.read_query("health")
    except BackendUnavailable as exc:
        return JSONResponse({"status": "unavailable", "neo4j": "unreachable", "detail": exc.message},
                            status_code=503)
    return JSONResponse({"status": "ok", "neo4j": "reachable", "schema_version": rows[0]["schemaVersion"],
                         "embedding_model": rows[0]["embeddingModel"]})
