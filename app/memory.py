"""The composition root: donto assembled in one place.

A `Memory` owns the Neo4j driver, the encoder, every service and the background workers. The
shells — the REST API, the CLI, `donto worker`, the benchmarks, and next the MCP server — each
make one Memory from the settings and call its services; none of them builds a service itself.

    shells (app/api, app/cli.py, app/mcp, bench/)
      -> Memory (this module)
        -> services (app/claims, app/walk, app/recall, ...)
          -> graph access (app/graph: driver, managed transactions, named queries)
            -> settings, errors, temporal

Making a Memory opens no connection and loads no model: `open()` checks Neo4j and applies the
schema (which loads the embedding model for its dimension); a command that never embeds never
loads it. `start_workers()` drains the durable job queues on background threads. The API starts
with `serve()`: the schema is applied with the dimension the store recorded for the model, and the
model loads on a thread of its own while requests are answered."""

from __future__ import annotations

import atexit
import gc
import logging
import threading
import time
from collections.abc import Callable
from typing import Literal

from donto.analyst.service import AnalystService
from donto.auth.keys import KeyService
from donto.claims.service import ClaimService
from donto.documents.service import DocumentService
from donto.embedding.encoder import Encoder
from donto.embedding.reembed import reembed
from donto.episodes.conversations import ConversationService
from donto.episodes.service import EpisodeService
from donto.errors import BackendUnavailable, SchemaMismatch
from donto.explore.service import ExploreService
from donto.extraction.llm import RequestLimit
from donto.extraction.ocr import Ocr
from donto.extraction.prompts import BUILTIN, Prompts, PromptsFileError, load_prompts
from donto.graph.client import GraphClient, same_model
from donto.identity.service import IdentityService
from donto.jobs.claim_embeddings import ClaimEmbeddings
from donto.jobs.extraction import ExtractionJobs
from donto.jobs.foreground import Foreground
from donto.jobs.store import JobStore
from donto.jobs.worker import JobKind, Workers
from donto.memorize.service import MemorizeService
from donto.predicates.service import PredicateService
from donto.recall.rerank import Reranker
from donto.recall.service import RecallService
from donto.settings import ConfigurationError, Settings
from donto.subjects.attention import AttentionService
from donto.subjects.perspectives import Perspectives
from donto.subjects.service import SubjectService
from donto.walk.service import WalkService
from donto.workspaces.portability import PortabilityService
from donto.workspaces.purge import PurgeService
from donto.workspaces.service import WorkspaceService

log = logging.getLogger(__name__)

StartState = Literal["starting", "loading model", "ready", "failed"]  # what GET /health says as `state`

# Memory.open freezes the heap it finds; exiting unfreezes it, so that it is freed (native extensions
# report what is not). Not Memory.close: other Memories of the process may still be serving.
atexit.register(gc.unfreeze)


def extraction_prompts(settings: Settings) -> Prompts:
    """What extraction asks the model: the built-in prompts, or DONTO_EXTRACTION_PROMPTS's file over
    them, read and checked now (ConfigurationError naming the variable, the file and the key)."""
    path = settings.extraction.prompts
    if path is None:
        return BUILTIN
    try:
        return load_prompts(path.expanduser())
    except PromptsFileError as exc:
        raise ConfigurationError(f"DONTO_EXTRACTION_PROMPTS: {exc}") from None


class Memory:
    def __init__(self, settings: Settings, prompts: Prompts | None = None):
        """`prompts`: extraction's, already read (create_app reads them before the server starts);
        None: read them now (extraction_prompts)."""
        self.settings = settings
        self.prompts = prompts if prompts is not None else extraction_prompts(settings)
        self.opened = threading.Event()  # open() has run: Neo4j answered and the schema is applied
        self.reached = threading.Event()  # Neo4j answered (open() may still be applying the schema)
        self.start_failure: Exception | None = None  # what stopped a start in the background (serve_in_background)
        self._loading_model = False  # the embedding model is being loaded now
        self._schema_dimensions: int | None = None  # what the schema was applied with, the model unloaded
        self._closing = threading.Event()
        self.graph = GraphClient(settings)
        self.encoder = Encoder(settings.embedding)

        admin_key = settings.api.api_key.get_secret_value() if settings.api.api_key else None
        self.keys = KeyService(self.graph, admin_key, settings.api)
        self.workspaces = WorkspaceService(self.graph)
        self.portability = PortabilityService(self.graph)  # donto export / import
        self.purges = PurgeService(self.graph)  # donto purge
        self.identity = IdentityService(self.graph)  # SAME_AS links between entity keys
        self.foreground = Foreground()  # requests in flight (the API marks them): background jobs give way
        self.claims = ClaimService(self.graph, self.identity, settings.api.max_page, self.foreground.wait_for_light)
        self.predicates = PredicateService(self.graph)
        self.documents = DocumentService(self.graph)
        self.walk = WalkService(self.graph)
        self.explore = ExploreService(self.graph)
        self.analyst = AnalystService(self.graph)  # the Browser guide, graph exports
        self.episodes = EpisodeService(self.graph, self.encoder)
        self.conversations = ConversationService(self.graph)  # sessions and turns read back, retracted
        # The agent's curated memory (seed 002): subjects, observations, understandings; orient,
        # bring_to_mind, recall and consolidation over them.
        perspectives = Perspectives(self.graph, self.encoder)
        self.subjects = SubjectService(self.graph, perspectives)
        self.attention = AttentionService(self.graph, self.subjects, perspectives, settings.memory)
        self.claim_embeddings = ClaimEmbeddings(self.graph, self.encoder, self.foreground)
        # The optional reranking stage scores with a second model, named like the embedding model.
        rerank_model = settings.recall.rerank_model
        reranker = (
            Reranker(
                Encoder(
                    settings.embedding.model_copy(
                        update={"model": rerank_model, "query_prompt": None, "document_prompt": None}
                    )
                ),
                settings.recall.rerank_depth,
            )
            if rerank_model
            else None
        )
        self.recall = RecallService(
            self.graph, self.encoder, self.walk, self.claim_embeddings, settings.recall.arm_weights, reranker
        )
        self.jobs = JobStore(self.graph, settings.llm.lease_s)
        self.memorize = MemorizeService(
            self.graph,
            settings.llm,
            self.documents,
            self.claims,
            self.predicates,
            self.jobs,
            self.encoder,
            self.identity,
            # One limit on requests in flight to the LLM endpoint for the whole process: every job
            # the workers run at once, each job's chunks and apertures, and memorize requests.
            limit=RequestLimit(settings.llm.concurrency),
            prompts=self.prompts,
            ocr=Ocr(settings.ocr.threads),  # one engine per process, loaded when the first image comes
        )

        kinds: list[JobKind] = [self.claim_embeddings]
        if settings.llm.configured:  # with no endpoint no extraction job is ever queued
            # `llm.jobs` extraction jobs at once: each worker its own thread and lease owner's id.
            kinds += [
                ExtractionJobs(self.jobs, self.memorize, foreground=self.foreground) for _ in range(settings.llm.jobs)
            ]
        self.workers = Workers(kinds)

    # -- lifecycle ----------------------------------------------------------------------------

    def open(self, apply_schema: bool = True) -> Memory:
        """Check that Neo4j answers and (by default) bring the schema up to date for the model."""
        self.graph.verify()
        self.reached.set()
        if apply_schema:
            self.apply_schema()
        self.opened.set()
        self._freeze_heap()
        return self

    def _freeze_heap(self) -> None:
        # What starting made (torch and the model, over half a million objects) leaves the garbage
        # collector's view: each full collection walked all of it, and the request that met one
        # stalled (270 ms, about once in 230 recalls; 2.5 ms frozen).
        gc.collect()
        gc.freeze()

    def open_when_reachable(self, then: Callable[[], None], retry_s: float = 2.0) -> None:
        """open() now, then `then()`; if Neo4j does not answer yet (the API started before it, after a
        reboot or in a compose file), keep trying on a background thread every `retry_s` and call
        `then()` once open. Meanwhile `opened` is unset: the API answers 503 with Retry-After.
        Anything else (a wrong password, an unsupported Neo4j, another model's vectors) fails now."""
        try:
            self.open()
        except BackendUnavailable as exc:
            log.warning("%s; serving 503s and trying again every %s s until it answers", exc.message, retry_s)
        else:
            then()
            return

        def keep_trying() -> None:
            while not self._closing.wait(retry_s):
                try:
                    self.open()
                except BackendUnavailable:
                    continue
                except Exception:
                    log.exception("opening donto failed now that Neo4j answers; requests keep getting 503s")
                    return
                if not self._closing.is_set():
                    log.warning("Neo4j answers: schema applied, serving")
                    then()
                return

        threading.Thread(target=keep_trying, name="donto-open", daemon=True).start()

    def serve(self, run_workers: bool) -> None:
        """How the API starts, so that a restart answers within seconds: Neo4j reached and the schema
        applied (now, or once Neo4j answers), with the dimension the store recorded for the model; then
        the model loads on a thread of its own (importing torch and loading it took 8-10 s of the 10-20
        a restart was down), and the workers start once it is loaded. Meanwhile every request is served
        and what needs the model is refused with 503 model_warming_up; /health says which."""
        self.encoder.defer_loading()
        self.open_when_reachable(then=lambda: self._load_model(self.start_workers if run_workers else lambda: None))

    @property
    def state(self) -> StartState:
        """Where a start is: `starting` (Neo4j not reached yet, or the schema being applied), `loading
        model`, `ready`, or `failed` (the start stopped, or the model could not be loaded)."""
        if self.start_failure is not None or self.encoder.failed:
            return "failed"
        if self._loading_model or (self.opened.is_set() and not self.encoder.loaded):
            return "loading model"
        return "ready" if self.opened.is_set() else "starting"

    def serve_in_background(
        self, run_workers: bool, say: Callable[[str], None], on_failure: Callable[[Exception], None]
    ) -> None:
        """serve(), all of it on a thread of its own, so that the API listens (and /health answers
        `starting`) from its first second: Neo4j reached (tried every 2 s until it answers), the schema
        applied, then the model loaded. `say` gets a line at each step, and every 5 s while one lasts;
        `on_failure` gets what stopped the start (a refused login, an unsupported Neo4j, another model's
        vectors: what serve() raises at once), which is also kept in `start_failure`."""
        self.encoder.defer_loading()
        began = time.monotonic()

        def start() -> None:
            told = False
            while not self._closing.is_set():
                try:
                    self.open()
                    break
                except BackendUnavailable as exc:
                    if not told:
                        say(f"Neo4j does not answer yet ({exc.message}); trying again every 2 s")
                        told = True
                    self._closing.wait(2.0)
                except Exception as exc:
                    if self._closing.is_set():  # the server stops (Ctrl-C): what broke off is no failure
                        return
                    self.start_failure = exc
                    log.debug("the start failed", exc_info=True)
                    on_failure(exc)
                    return
            if self._closing.is_set():
                return
            loading = "" if self.encoder.loaded else f"; loading the embedding model {self.encoder.name}"
            say(f"schema applied ({time.monotonic() - began:.1f} s){loading}")
            self._load_model(self.start_workers if run_workers else lambda: None)

        def follow() -> None:  # a line every 5 s while the start lasts, and one when it is done
            next_line = began + 5.0
            while not self._closing.wait(0.2):
                state = self.state
                if state in ("ready", "failed"):
                    break
                if time.monotonic() < next_line:
                    continue
                next_line += 5.0
                doing = (
                    f"loading the embedding model {self.encoder.name}"
                    if state == "loading model"
                    else "applying the schema"
                    if self.reached.is_set()
                    else "waiting for Neo4j"
                )
                say(f"{state}: {doing} ({time.monotonic() - began:.0f} s)")
            if self.state == "ready":
                say(f"ready in {time.monotonic() - began:.1f} s: every request is served")
            elif self.encoder.failed:
                say(
                    f"the embedding model could not be loaded ({self.encoder.failure_remedy or 'see the log'}): "
                    "recall and episodes answer 503 model_unavailable"
                )

        threading.Thread(target=start, name="donto-start", daemon=True).start()
        threading.Thread(target=follow, name="donto-start-progress", daemon=True).start()

    def _load_model(self, then: Callable[[], None]) -> None:
        def load() -> None:
            started = time.monotonic()
            self._loading_model = True
            try:
                self.encoder.load()
                if self._schema_dimensions is not None and self.encoder.dimensions != self._schema_dimensions:
                    raise SchemaMismatch(
                        f"{self.encoder.name} has {self.encoder.dimensions} dimensions and this store's vectors "
                        f"{self._schema_dimensions}: run `donto reembed`"
                    )
                self.encoder.card, self.encoder.unrelated_cosine  # noqa: B018 (what /health and recall read first)
            except Exception as exc:
                log.exception("the embedding model could not be loaded: what needs it answers 503 model_unavailable")
                self.encoder.fail(exc)
                return
            finally:
                self._loading_model = False
            self._freeze_heap()
            log.info("embedding model %s loaded in %.1f s", self.encoder.name, time.monotonic() - started)
            if not self._closing.is_set():
                then()

        threading.Thread(target=load, name="donto-model", daemon=True).start()

    def start_workers(self) -> None:
        self.workers.start()

    def close(self) -> None:
        self._closing.set()
        self.workers.stop()
        self.keys.close()  # writes the key use counted since the last flush
        self.graph.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- maintenance --------------------------------------------------------------------------

    def apply_schema(self, load_model: bool = True) -> int:
        """cypher/schema.cypher applied (idempotent), and documents registered before version 10 given
        their passages; the schema version it recorded. While the model loads in the background
        (serve), or with load_model=False (`donto mcp`: the model loads when a tool first needs it),
        the store's own record of the model's dimension is used. A store with none (its first start)
        loads the model for it."""
        version = self._apply_schema(load_model)
        if migrated := self.documents.backfill_passages():  # passages wait for the embedder: no model needed
            log.warning("%d documents registered before schema version 10 were given passages", migrated)
        return version

    def _apply_schema(self, load_model: bool) -> int:
        if self.encoder.loaded or (load_model and not self.encoder.deferred):
            return self.graph.apply_schema(self.encoder.name, self.encoder.dimensions)
        [held] = self.graph.read_query("schema_embedding_model")
        if held["model"] is not None and held["dimensions"] and same_model(held["model"], self.encoder.name):
            self._schema_dimensions = held["dimensions"]
            return self.graph.apply_schema(self.encoder.name, held["dimensions"])
        self._loading_model = True  # the store's first start: the model decides the vectors' dimension
        try:
            self.encoder.load()
        finally:
            self._loading_model = False
        return self.graph.apply_schema(self.encoder.name, self.encoder.dimensions)

    def reembed(self, report: Callable[[str], None] = print) -> dict[str, int]:
        """Every vector rebuilt for the configured embedding model (see app/embedding/reembed.py)."""
        counts = reembed(self.graph, self.encoder, self.claim_embeddings.drain_all, report)
        return counts | self.subjects.reembed(report)
