"""Memorize: text in, claims with evidence out, through the extraction library and the job queue.

The text is always kept first, as a registered document (or it already is one, or an episode
session), so every claim has something to be evidenced by. Then an extraction job reads it:
`extraction.Extractor` finds candidate facts and anchors their quotes; this service turns them
into claims. A fact's quote becomes an EVIDENCED_BY span (in the document, or in the very turn of
a session it quotes); a fact the model inferred from others gets DERIVED_FROM edges to them; a
predicate that names a registered predicate or one of its aliases takes the registered name; a
modality other than "asserted" becomes the claim's context (so "did not run" never reads as "ran").
Claims are written through the claim service, so a fact already known (same content key) is not
written again: a retried job writes no duplicates. A paraphrase of a claim the workspace (or this
job) already holds, with the same subject, object and context and a triple whose embedding is at
least 0.95 similar to it ("melanie enjoys pottery" beside "melanie likes pottery"), corroborates
that claim instead of becoming a second one. Literal values and negations are never merged this
way: the object and the context must be the same. The job links every claim it wrote or found
again with (:Job)-[:EXTRACTED]->(:Claim), and records each pass's yields and raw replies. Entity
keys the model says name one thing ("mel" same_as "melanie"), and keys that differ only in accents
or punctuation, are linked (SAME_AS, app/identity), never merged.

With no LLM endpoint configured nothing fails: the text is kept and the answer says that no
extraction ran."""

from __future__ import annotations

import logging
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal, cast

from app.claims.models import Evidence, NewClaim
from app.claims.models import Literal as TypedLiteral
from app.claims.service import ClaimService
from app.documents.service import DocumentService
from app.embedding.encoder import Encoder
from app.errors import InvalidInput
from app.graph.client import GraphClient
from app.identity.service import IdentityService, LinkOutcome, Proposal
from app.jobs.store import ClaimedJob, JobHalted, JobStore
from app.predicates.service import PredicateService
from app.settings import LLMSettings
from extraction.engine import MAX_PASSES, MODES, ExtractionResult, Extractor, FoundFact, PassReport
from extraction.facts import IDENTITY_PREDICATES
from extraction.llm import ChatClient, LLMConfig

log = logging.getLogger(__name__)

MAX_BATCH = 1000  # claims per write transaction
MAX_SYNC_CHARS = 20_000  # `async: false` runs extraction while the request waits: short sources only
# On donto's similarity scale (Encoder.similarity: 0 unrelated, 1 the same text). e5-small-v2: "enjoys" /
# "likes pottery" 0.98, "lives" / "resides in boston" 0.97; "likes" / "dislikes pottery" 0.70, "born" /
# "died in lisbon" 0.80 (all-MiniLM: 0.97, 0.98; 0.91, 0.79).
PARAPHRASE_SIMILARITY = 0.95
PARAPHRASE_CANDIDATES = 5000  # existing claims compared per job
MAX_LITERAL_CHARS = 4096  # literals are indexed; Neo4j's range index keys stop near 8 kB
UNANCHORED_CONFIDENCE = 0.5  # the most an extracted fact with no quote found in the source keeps
DEFAULT_ETA_S = 60.0  # a job's guessed duration before this workspace has finished any


@dataclass(frozen=True)
class MemorizeRequest:
    text: str | None = None
    document_id: str | None = None
    session_id: str | None = None
    title: str | None = None
    mode: str = "single"
    passes: int = 3
    lenses: tuple[str, ...] = ()
    run_async: bool = True


SourceKind = Literal["document", "session"]
ExtractionState = Literal["queued", "running", "succeeded", "failed", "cancelled", "not_configured"]


@dataclass(frozen=True)
class MemorizeOutcome:
    source_kind: SourceKind
    source_id: str
    extraction: ExtractionState
    job_id: str | None = None
    queue_position: int | None = None
    eta_s: float | None = None
    summary: dict[str, Any] | None = None


@dataclass(frozen=True)
class _Source:
    text: str
    segments: list[tuple[int, int, str]]  # (start, end, evidence target id) in `text`


class MemorizeService:
    def __init__(
        self,
        graph: GraphClient,
        llm: LLMSettings,
        documents: DocumentService,
        claims: ClaimService,
        predicates: PredicateService,
        jobs: JobStore,
        encoder: Encoder,
        identity: IdentityService,
    ):
        self.graph = graph
        self.identity = identity
        self.encoder = encoder
        self.llm = llm
        self.documents = documents
        self.claims = claims
        self.predicates = predicates
        self.jobs = jobs

    # -- the request ----------------------------------------------------------------------------

    def memorize(self, workspace: str, request: MemorizeRequest, runner: str) -> MemorizeOutcome:
        """Keep the text, then queue its extraction (or, not async, run it now as `runner`)."""
        if request.mode not in MODES:
            raise InvalidInput(f"mode is one of {', '.join(MODES)}", field="mode")
        if not 1 <= request.passes <= MAX_PASSES:
            raise InvalidInput(f"passes is between 1 and {MAX_PASSES}", field="passes")
        source_kind, source_id, length = self._keep(workspace, request)
        if not request.run_async and length > MAX_SYNC_CHARS:
            raise InvalidInput(
                f"a source over {MAX_SYNC_CHARS:,} characters ({length:,}) is extracted as a job, not while the "
                "request waits: leave async true and follow the job",
                field="async",
            )
        if not self.llm.configured:
            return MemorizeOutcome(source_kind, source_id, "not_configured")
        job_request = {
            "mode": request.mode,
            "passes": request.passes,
            "lenses": list(request.lenses),
            "source_kind": source_kind,
            "source_id": source_id,
        }
        job_id, position = self.jobs.create(
            workspace,
            "extract",
            job_request,
            request.mode,
            source_kind,
            source_id,
            self.llm.job_attempts,
            run_by=None if request.run_async else runner,
        )
        if request.run_async:
            return MemorizeOutcome(source_kind, source_id, "queued", job_id, position, self._eta(workspace, position))
        job = ClaimedJob(job_id, workspace, "extract", job_request, request.mode, source_kind, source_id, 1)
        with self.jobs.held(job_id, runner) as check:
            self.run(job, runner, check)
        view = self.jobs.get(workspace, job_id)
        return MemorizeOutcome(
            source_kind, source_id, cast(ExtractionState, view.state), job_id, None, None, view.summary
        )

    def _keep(self, workspace: str, request: MemorizeRequest) -> tuple[SourceKind, str, int]:
        """The source to extract from (kept as a document when given as text) and its length."""
        given = [name for name in ("text", "document_id", "session_id") if getattr(request, name) is not None]
        if len(given) != 1:
            raise InvalidInput("give exactly one of text, document_id or session_id", field=(given or ["text"])[-1])
        if request.text is not None:
            if not request.run_async and len(request.text) > MAX_SYNC_CHARS:  # refused before it is kept
                return "document", "", len(request.text)
            document = self.documents.register(workspace, request.text, request.title, "memorize")
            return "document", document.id, len(request.text)
        if request.document_id is not None:
            rows = self.graph.read_query("documents_text", workspace=workspace, ids=[request.document_id])
            if not rows:
                raise InvalidInput(f"no document {request.document_id!r} in this workspace", field="document_id")
            return "document", request.document_id, len(rows[0]["text"])
        assert request.session_id is not None
        turns = self.graph.read_query("session_source_text", workspace=workspace, session_id=request.session_id)
        if not turns:
            raise InvalidInput(f"no session {request.session_id!r} with turns in this workspace", field="session_id")
        return "session", request.session_id, sum(len(t["text"]) for t in turns)

    def _eta(self, workspace: str, position: int) -> float:
        recent = self.jobs.recent_seconds(workspace)
        return round(position * (statistics.median(recent) if recent else DEFAULT_ETA_S), 1)

    # -- the job --------------------------------------------------------------------------------

    def run(self, job: ClaimedJob, worker: str, check: Callable[[], None] = lambda: None) -> None:
        """Run one extraction job that `worker` holds, and end it. `check` raises JobHalted when the
        job was cancelled or taken over (JobStore.held's heartbeat finds out); it is asked between passes."""
        started = time.perf_counter()
        request = job.request
        try:
            source = self._source(job.workspace, job.source_kind, job.source_id)
            seq = 0

            def on_pass(report: PassReport) -> None:
                nonlocal seq
                seq += 1
                self.jobs.record_pass(job.id, job.attempt, _pass_row(seq, report))
                check()

            with ChatClient(llm_config(self.llm)) as client:
                result = Extractor(client).extract(
                    source.text,
                    request["mode"],
                    passes=request["passes"],
                    lenses=request.get("lenses") or (),
                    on_pass=on_pass,
                )
            check()
            summary = self._write(job, source, result)
        except JobHalted:
            self.jobs.finish(job.id, worker, "cancelled", "cancelled by request")
            return
        except Exception as exc:  # a failed run is queued again while attempts remain; the reason is kept
            log.exception("extraction job %s, attempt %d", job.id, job.attempt)
            again = job.attempt < self.llm.job_attempts
            self.jobs.finish(job.id, worker, "queued" if again else "failed", f"{type(exc).__name__}: {exc}")
            return
        summary["elapsedS"] = round(time.perf_counter() - started, 2)
        state = "succeeded" if summary["facts"] or not summary["passesFailed"] else "failed"
        error = None if state == "succeeded" else "every pass failed; see the passes"
        self.jobs.finish(job.id, worker, state, error, summary)

    def _source(self, workspace: str, kind: str, source_id: str) -> _Source:
        if kind == "document":
            rows = self.graph.read_query("documents_text", workspace=workspace, ids=[source_id])
            if not rows:
                raise InvalidInput(f"no document {source_id!r} in this workspace", field="document_id")
            text = rows[0]["text"]
            return _Source(text, [(0, len(text), source_id)])
        parts: list[str] = []
        segments: list[tuple[int, int, str]] = []
        at = 0
        for turn in self.graph.read_query("session_source_text", workspace=workspace, session_id=source_id):
            prefix = f"{turn['speaker']}: "
            start = at + len(prefix)
            parts.append(prefix + turn["text"])
            segments.append((start, start + len(turn["text"]), turn["turnId"]))
            at = start + len(turn["text"]) + 1  # the line break between turns
        return _Source("\n".join(parts), segments)

    def _write(self, job: ClaimedJob, source: _Source, result: ExtractionResult) -> dict[str, Any]:
        aligned = self._predicate_names(job.workspace)
        new_claims = [self._claim(f, source, aligned) for f in result.facts]
        same_as = self._paraphrases(job.workspace, new_claims)  # fact index -> a claim id or an earlier fact
        ids: list[str | None] = [None] * len(result.facts)
        created: list[bool] = [False] * len(result.facts)
        for layer in _layers(result.facts, same_as):  # premises are written before the facts derived from them
            batch = []
            for i in layer:
                if i in same_as:  # corroborates a claim: written already, or by the earlier fact it restates
                    target = same_as[i]
                    ids[i] = target if isinstance(target, str) else ids[target]
                    continue
                premises = tuple(p for p in (ids[j] for j in result.facts[i].premises) if p is not None)
                batch.append((i, replace(new_claims[i], derived_from=premises)))
            for start in range(0, len(batch), MAX_BATCH):
                part = batch[start : start + MAX_BATCH]
                written = self.claims.write(job.workspace, [claim for _, claim in part])
                for (i, _), outcome in zip(part, written.claims):
                    ids[i], created[i] = outcome.id, outcome.created
        self.jobs.link_claims(
            job.id,
            job.workspace,
            [
                {
                    "claimId": ids[i],
                    "pass": f.pass_label,
                    "modality": f.fact.modality,
                    "hypothesisOnly": f.fact.hypothesis_only,
                    "anchored": new_claims[i].evidence != (),
                    "created": created[i],
                    "corroborates": i in same_as,
                    "asStated": f"{f.fact.subject} {f.fact.predicate} {f.fact.object}",
                }
                for i, f in enumerate(result.facts)
                if ids[i] is not None
            ],
        )
        links = self._identity(job, new_claims, ids, result.facts)
        usage = result.usage
        anchored = sum(1 for c in new_claims if c.evidence)
        return {
            "facts": len(result.facts),
            "claimsCreated": sum(created),
            "claimsExisting": len(created) - sum(created) - len(same_as),
            "corroborations": len(same_as),
            "anchored": anchored,
            "unanchored": len(new_claims) - anchored,
            "premises": sum(len(f.premises) for f in result.facts),
            "identityLinks": sum(1 for link in links if link.created),
            "promptTokens": usage.prompt_tokens,
            "completionTokens": usage.completion_tokens,
            "tokensEstimated": usage.estimated,
            "passesFailed": sum(1 for r in result.passes if r.error),
        }

    def _identity(
        self, job: ClaimedJob, claims: list[NewClaim], ids: list[str | None], facts: list[FoundFact]
    ) -> list[LinkOutcome]:
        """SAME_AS proposals for the keys this job wrote: the identity facts the model stated (only
        asserted ones, never a negated or merely possible identity), and keys that fold alike."""
        written = [(c, ids[i], facts[i]) for i, c in enumerate(claims) if ids[i] is not None]
        keys = {k for c, _, _ in written for k in (c.subject, c.object_entity) if k is not None}
        stated = [
            Proposal(
                c.subject,
                c.object_entity,
                "extracted",
                f"the text says {c.subject} {found.fact.predicate} {c.object_entity} (claim {claim_id})",
                c.confidence,
            )
            for c, claim_id, found in written
            if found.fact.predicate in IDENTITY_PREDICATES and c.object_entity is not None and c.context is None
        ]
        return self.identity.propose(job.workspace, keys, stated, recorded_by=f"job:{job.id}")

    def _paraphrases(self, workspace: str, claims: list[NewClaim]) -> dict[int, str | int]:
        """Facts that restate a claim in other words: same subject, object, datatype and context, a
        different predicate, and their triples at least PARAPHRASE_SIMILARITY apart. Each maps to the
        existing claim's id, or to the index of the earlier fact of this job it restates."""

        def shape(c: NewClaim) -> tuple[str, str, str | None, str | None]:
            return (c.subject, c.object_text, c.object_literal.datatype if c.object_literal else None, c.context)

        pairs = sorted({(c.subject, c.object_text) for c in claims})
        existing = (
            self.graph.read_query(
                "claims_same_subject_and_object",
                workspace=workspace,
                limit=PARAPHRASE_CANDIDATES,
                pairs=[{"subject": s, "object": o} for s, o in pairs],
            )
            if pairs
            else []
        )
        known: dict[tuple[str, str, str | None, str | None], list[tuple[str | int, str]]] = {}
        for row in existing:
            known.setdefault((row["subject"], row["object"], row["datatype"], row["context"]), []).append(
                (row["id"], row["predicate"])
            )
        shapes = [shape(c) for c in claims]
        groups = {g for g in shapes if len(known.get(g, [])) + shapes.count(g) > 1}
        if not groups:
            return {}
        texts: dict[str | int, str] = {
            i: _triple(c.subject, c.predicate, c.object_text) for i, c in enumerate(claims) if shapes[i] in groups
        }
        for g in groups:
            for claim_id, predicate in known.get(g, []):
                texts[claim_id] = _triple(g[0], predicate, g[1])
        keys = list(texts)
        vectors = dict(zip(keys, self.encoder.encode([texts[k] for k in keys])))
        same_as: dict[int, str | int] = {}
        similarity = self.encoder.similarity  # on donto's scale, whatever the model (see UNRELATED_TEXTS)
        for g in groups:
            seen: list[tuple[str | int, str]] = list(known.get(g, []))  # (claim id or fact index, predicate)
            for i in (i for i, s in enumerate(shapes) if s == g):
                if any(predicate == claims[i].predicate for _, predicate in seen):
                    continue  # the same claim: the content key finds it
                scored = [(target, similarity(_cosine(vectors[i], vectors[target]))) for target, _ in seen]
                best = max(scored, key=lambda t: t[1], default=None)
                if best is not None and best[1] >= PARAPHRASE_SIMILARITY:
                    same_as[i] = best[0]
                else:
                    seen.append((i, claims[i].predicate))
        return same_as

    def _predicate_names(self, workspace: str) -> dict[str, str]:
        names: dict[str, str] = {}
        for p in self.predicates.list(workspace):
            names[p.name] = p.name
            for alias in p.aliases:
                names.setdefault(alias, p.name)
        return names

    def _claim(self, found: FoundFact, source: _Source, aligned: dict[str, str]) -> NewClaim:
        fact = found.fact
        literal = None
        if fact.datatype is not None:
            try:
                literal = TypedLiteral.parse(_typed(fact.object, fact.datatype), fact.datatype)
            except ValueError:  # a model's "about five" as xsd:integer: kept as text
                literal = TypedLiteral.parse(fact.object[:MAX_LITERAL_CHARS], "xsd:string")
        evidence = _evidence(found, source)
        confidence = fact.confidence if evidence else min(fact.confidence, UNANCHORED_CONFIDENCE)
        return NewClaim(
            subject=fact.subject[:512],
            predicate=aligned.get(fact.predicate, fact.predicate)[:512],
            object_entity=None if literal else fact.object[:512],
            object_literal=literal,
            context=None if fact.modality == "asserted" else fact.modality,
            confidence=round(confidence, 3),
            evidence=evidence,
        )


def llm_config(settings: LLMSettings) -> LLMConfig:
    """The extraction client's configuration from donto's settings (the endpoint must be set)."""
    assert settings.base_url is not None
    return LLMConfig(
        base_url=settings.base_url,
        model=settings.model,
        api_key=settings.api_key.get_secret_value() if settings.api_key else None,
        timeout_s=settings.timeout_s,
        max_retries=settings.max_retries,
        max_tokens=settings.max_tokens,
        temperature=settings.temperature,
        structured_output=settings.structured_output,
    )


def _typed(value: str, datatype: str) -> Any:
    if datatype == "xsd:integer":
        return int(value) if value.lstrip("-").isdigit() else value
    if datatype == "xsd:boolean":
        return value.lower() == "true" if value.lower() in ("true", "false") else value
    return value


def _evidence(found: FoundFact, source: _Source) -> tuple[Evidence, ...]:
    """The fact's anchor as a span of the document, or of the one turn it falls in."""
    if found.anchor is None:
        return ()
    for start, end, target in source.segments:
        if start <= found.anchor.start and found.anchor.end <= end:
            return (Evidence(target, found.anchor.start - start, found.anchor.end - start),)
    return ()  # it straddles two turns: no single turn evidences it


def _triple(subject: str, predicate: str, obj: str) -> str:
    return f"{subject} {predicate.replace('_', ' ')} {obj}"


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b))  # the encoder's vectors are unit length


def _layers(facts: list[FoundFact], same_as: dict[int, str | int]) -> list[list[int]]:
    """Fact indices in write order: each fact after every premise it has, and a restating fact
    after the fact it restates (a cycle's facts last, without the links that close it)."""
    placed: set[int] = set()
    layers: list[list[int]] = []
    remaining = list(range(len(facts)))

    def needs(i: int) -> list[int]:
        target = same_as.get(i)
        return [*facts[i].premises, *([target] if isinstance(target, int) else [])]

    while remaining:
        layer = [i for i in remaining if all(p in placed for p in needs(i))]
        if not layer:  # a cycle of premises: write the rest, each linked to what is already written
            layer = remaining
        layers.append(layer)
        placed.update(layer)
        remaining = [i for i in remaining if i not in placed]
    return layers


def _pass_row(seq: int, report: PassReport) -> dict[str, Any]:
    row = asdict(report)
    usage = row.pop("usage")
    row.update(
        seq=seq,
        elapsedS=round(row.pop("elapsed_s"), 3),
        promptTokens=usage["prompt_tokens"],
        completionTokens=usage["completion_tokens"],
        tokensEstimated=usage["estimated"],
    )
    return row
