"""The FastAPI application: one driver per process, made in the lifespan and kept on app.state."""

from __future__ import annotations

import threading
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.api import errors
from app.api.body_limit import BodySizeLimit
from app.api.deps import Services
from app.api.routers import claims, health, recall, registry, walk
from app.auth.keys import KeyService
from app.claims.predicates import PredicateService
from app.claims.service import ClaimService
from app.documents.service import DocumentService
from app.embedding.backlog import EmbeddingBacklog
from app.embedding.encoder import Encoder
from app.episodes.service import EpisodeService
from app.recall.service import RecallService
from app.explore.service import ExploreService
from app.graph.client import GraphClient
from app.walk.service import WalkService
from app.settings import APP_VERSION, Settings, load_settings


def build_services(settings: Settings) -> Services:
    graph = GraphClient(settings)
    graph.verify()
    encoder = Encoder(settings.embedding)
    admin = settings.api.api_key.get_secret_value() if settings.api.api_key else None
    walk = WalkService(graph)
    backlog = EmbeddingBacklog(graph, encoder)
    return Services(
        graph=graph,
        encoder=encoder,
        backlog=backlog,
        keys=KeyService(graph, admin),
        claims=ClaimService(graph),
        predicates=PredicateService(graph),
        documents=DocumentService(graph),
        walk=walk,
        explore=ExploreService(graph),
        episodes=EpisodeService(graph, encoder),
        recall=RecallService(graph, encoder, walk, backlog),
    )


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or load_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        svc = build_services(settings)
        svc.graph.apply_schema(svc.encoder.name, svc.encoder.dimensions)
        app.state.services = svc
        stop = threading.Event()
        embedder = threading.Thread(target=svc.backlog.run, args=(stop,), name="claim-embedder", daemon=True)
        embedder.start()
        try:
            yield
        finally:
            stop.set()
            embedder.join(timeout=60)
            svc.graph.close()

    app = FastAPI(title="donto", version=APP_VERSION, lifespan=lifespan,
                  description="Graph-database-native memory for AI agents, on Neo4j.")
    app.state.settings = settings
    errors.install(app)
    for router in (health.router, walk.router, claims.router, registry.router, recall.router):
        app.include_router(router)
    app.add_middleware(BodySizeLimit, max_bytes=settings.api.max_body_bytes)
    return app
