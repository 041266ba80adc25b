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
from datetime import UTC, datetime, timedelta
from datetime import time as clock_time
from typing import Any, Literal, cast

from donto.claims.models import Evidence, NewClaim
from donto.claims.models import Literal as TypedLiteral
from donto.claims.service import ClaimService
from donto.documents.service import DocumentService
from donto.embedding.encoder import Encoder
from donto.errors import InvalidInput
from donto.extraction.engine import MAX_PASSES, ExtractionResult, Extractor, FoundFact, PassReport, canonical_mode
from donto.extraction.facts import IDENTITY_PREDICATES, Correction, entity_key
from donto.extraction.llm import ChatClient, LLMConfig, RequestLimit
from donto.extraction.ocr import (
    IMAGE_FORMATS,
    MAX_IMAGE_BYTES,
    MAX_IMAGES,
    MAX_IMAGES_BYTES,
    Ocr,
    UnreadableImage,
    image_format,
)
from donto.extraction.prompts import BUILTIN, Prompts
from donto.graph.client import GraphClient
from donto.identity.service import IdentityService, LinkOutcome, Proposal
from donto.jobs.store import ClaimedJob, JobHalted, JobStore
from donto.predicates.service import DEFAULT_SINGLE_VALUED, PredicateService
from donto.settings import LLMSettings
from donto.temporal.instants import to_native, utc_now
from donto.temporal.phrases import resolve_time_phrase

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
NEGATED = "negated"  # the context (modality) of a fact the text denies
# A new predicate is proposed as an alias of a registered one when their phrasings ("someone lives in
# something") are at least this similar on donto's scale. Measured with e5-small-v2 over 21 paraphrase
# and 24 other pairs (docs: design notes): 7 paraphrases reach it (resides_in / lives_in 0.93,
# spouse_of / married_to 0.90, ...) and one other pair (worked_at / works_at 0.92; moved_from /
# moved_to 0.89 does not). A proposal is only recorded, never applied, so recall is worth that.
ALIAS_SIMILARITY = 0.90
DEFAULT_ETA_S = 60.0  # a job's guessed duration before this workspace has finished any
CORRECTION_CANDIDATES = 50  # live claims of a correcting fact's subject and predicate compared, at most


@dataclass(frozen=True)
class MemorizeRequest:
    text: str | None = None
    document_id: str | None = None
    session_id: str | None = None
    title: str | None = None
    occurred_at: datetime | None = None  # with text: when it was written or said
    mode: str = "single"
    passes: int = 3
    lenses: tuple[str, ...] | Literal["default"] = ()  # "default": the prompts' default lenses
    run_async: bool = True
    images: tuple[bytes, ...] = ()  # read by OCR; their text is put before `text` (or is the text)
    read: tuple[ImageRead, ...] = ()  # what check read in each image


@dataclass(frozen=True)
class ImageRead:
    """One image of a request: what OCR read in it (`chars` of the kept text) or why nothing."""

    index: int
    format: str
    bytes: int
    chars: int = 0
    error: str | None = None


SourceKind = Literal["document", "session"]
ExtractionState = Literal["queued", "running", "succeeded", "failed", "cancelled", "not_configured"]


@dataclass(frozen=True)
class MemorizeOutcome:
    source_kind: SourceKind
    source_id: str
    mode: str  # canonical
    extraction: ExtractionState
    job_id: str | None = None
    queue_position: int | None = None
    eta_s: float | None = None
    summary: dict[str, Any] | None = None
    images: tuple[ImageRead, ...] = ()


@dataclass(frozen=True)
class _Source:
    text: str
    segments: list[tuple[int, int, str, datetime]]  # (start, end, evidence target id, when said) in `text`
    said_at: datetime  # when the source was written or said, for facts found in no segment
    context: str  # what the model is told about the text: when it was written or said

    def said_at_of(self, found: FoundFact) -> datetime:
        """When the words a fact rests on were written or said: its turn's time in a session."""
        if found.anchor is not None:
            for start, end, _, said_at in self.segments:
                if start <= found.anchor.start and found.anchor.end <= end:
                    return said_at
        return self.said_at


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
        limit: RequestLimit | None = None,
        prompts: Prompts = BUILTIN,
        ocr: Ocr | None = None,
    ):
        self.graph = graph
        self.ocr = ocr or Ocr()  # loaded when an image first comes
        # Requests in flight to the endpoint: one limit for every job and request of the process.
        self.limit = limit or RequestLimit(llm.concurrency)
        self.prompts = prompts  # what the model is asked: the built-in prompts or a prompt file's
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
        return self._start(workspace, self.check(workspace, request), runner)

    def _start(self, workspace: str, request: MemorizeRequest, runner: str) -> MemorizeOutcome:
        """Keep the checked request's source and queue (or run) its extraction."""
        source_kind, source_id = self._keep(workspace, request)
        if not self.llm.configured:
            return MemorizeOutcome(source_kind, source_id, request.mode, "not_configured", images=request.read)
        job_request = {
            "mode": request.mode,
            # Which prompts read the text: builtin-<digest>, or file:<sha256 prefix>+builtin-<digest>.
            "prompts_version": self.prompts.version,
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
            eta = self._eta(workspace, position)
            return MemorizeOutcome(
                source_kind, source_id, request.mode, "queued", job_id, position, eta, images=request.read
            )
        job = ClaimedJob(job_id, workspace, "extract", job_request, request.mode, source_kind, source_id, 1)
        with self.jobs.held(job_id, runner) as check:
            self.run(job, runner, check)
        view = self.jobs.get(workspace, job_id)
        state = cast(ExtractionState, view.state)
        return MemorizeOutcome(
            source_kind, source_id, request.mode, state, job_id, None, None, view.summary, request.read
        )

    def memorize_many(self, workspace: str, requests: list[MemorizeRequest], runner: str) -> list[MemorizeOutcome]:
        """Several texts, one job each, in order; every request is checked before any is kept, so a
        bad one (InvalidInput, its field prefixed `items[i].`) keeps nothing."""
        checked = []
        for i, request in enumerate(requests):
            try:
                checked.append(self.check(workspace, request))
            except InvalidInput as exc:
                raise InvalidInput(
                    exc.message, field=f"items[{i}].{exc.field}" if exc.field else f"items[{i}]"
                ) from exc
        return [self._start(workspace, request, runner) for request in checked]

    def check(self, workspace: str, request: MemorizeRequest) -> MemorizeRequest:
        """The request with its mode's canonical name, or InvalidInput naming the field at fault:
        everything memorize refuses is refused here, before anything is kept."""
        try:
            request = replace(request, mode=canonical_mode(request.mode))
        except ValueError as exc:
            raise InvalidInput(str(exc), field="mode") from exc
        if not 1 <= request.passes <= MAX_PASSES:
            raise InvalidInput(f"passes is between 1 and {MAX_PASSES}", field="passes")
        if request.lenses == "default":  # the job records the lenses it ran, not the word
            request = replace(request, lenses=self.prompts.default_lenses)
        elif isinstance(request.lenses, str):
            raise InvalidInput('lenses is a list of lenses or "default"', field="lenses")
        given = [name for name in ("text", "document_id", "session_id") if getattr(request, name) is not None]
        if request.images and given and given != ["text"]:
            raise InvalidInput(
                "images go with text, or alone: their text is kept in the new document, not in a kept "
                "document or session",
                field="images",
            )
        if len(given) != 1 and not (request.images and not given):
            raise InvalidInput(
                "give exactly one of text, document_id or session_id (or images)", field=(given or ["text"])[-1]
            )
        if request.images:
            request = self._read_images(request)
        if request.occurred_at is not None and request.text is None:
            raise InvalidInput(
                "occurred_at dates a text given here; a registered document has its own (POST /v1/documents)",
                field="occurred_at",
            )
        if request.text is not None:
            length = len(request.text)
        elif request.document_id is not None:
            rows = self.graph.read_query("documents_text", workspace=workspace, ids=[request.document_id])
            if not rows:
                raise InvalidInput(f"no document {request.document_id!r} in this workspace", field="document_id")
            length = len(rows[0]["text"])
        else:
            turns = self.graph.read_query("session_source_text", workspace=workspace, session_id=request.session_id)
            if not turns:
                raise InvalidInput(
                    f"no session {request.session_id!r} with turns in this workspace", field="session_id"
                )
            length = sum(len(t["text"]) for t in turns)
        if not request.run_async and length > MAX_SYNC_CHARS:
            raise InvalidInput(
                f"a source over {MAX_SYNC_CHARS:,} characters ({length:,}) is extracted as a job, not while the "
                "request waits: leave async true and follow the job",
                field="async",
            )
        return request

    def _read_images(self, request: MemorizeRequest) -> MemorizeRequest:
        """The request with its images' text put before its text, as seed 001 does ("[OCR text from
        image #N]" above each image's lines), and what was read in each. An image that is no image
        donto reads, or too large, is refused (images[i]); one that cannot be decoded or has no text
        is reported and left out, unless nothing at all is left to keep (then images is refused)."""
        if len(request.images) > MAX_IMAGES:
            raise InvalidInput(f"at most {MAX_IMAGES} images a request", field="images")
        formats = []
        for i, data in enumerate(request.images):
            what = image_format(data)
            if what is None:
                raise InvalidInput(f"not an image donto reads ({IMAGE_FORMATS}, known by its bytes)", f"images[{i}]")
            if len(data) > MAX_IMAGE_BYTES:
                raise InvalidInput(
                    f"{len(data):,} bytes; an image is at most {MAX_IMAGE_BYTES:,} bytes", field=f"images[{i}]"
                )
            formats.append(what)
        total = sum(len(data) for data in request.images)
        if total > MAX_IMAGES_BYTES:
            raise InvalidInput(f"{total:,} bytes of images; at most {MAX_IMAGES_BYTES:,} a request", field="images")
        parts, read = [], []
        for i, (data, what) in enumerate(zip(request.images, formats, strict=True)):
            try:
                text = self.ocr.read(data).strip()
            except UnreadableImage as exc:
                read.append(ImageRead(i, what, len(data), error=str(exc)))
                continue
            if not text:
                read.append(ImageRead(i, what, len(data), error="no text found in it"))
                continue
            parts.append(f"[OCR text from image #{i + 1}]\n{text}")
            read.append(ImageRead(i, what, len(data), chars=len(text)))
        if not parts and request.text is None:
            reasons = "; ".join(f"images[{r.index}]: {r.error}" for r in read)
            raise InvalidInput(f"no text could be read in the images, and no text was given ({reasons})", "images")
        if request.text is not None:
            parts.append(request.text)
        return replace(request, text="\n\n".join(parts), read=tuple(read))

    def _keep(self, workspace: str, request: MemorizeRequest) -> tuple[SourceKind, str]:
        """The source to extract from, kept as a document when given as text (the request was checked)."""
        if request.text is not None:
            document = self.documents.register(
                workspace, request.text, request.title, "memorize", occurred_at=request.occurred_at
            )
            return "document", document.id
        if request.document_id is not None:
            return "document", request.document_id
        assert request.session_id is not None
        return "session", request.session_id

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

            if request.get("prompts_version") != self.prompts.version:
                log.warning(
                    "extraction job %s was queued with prompts %s and is run with %s",
                    job.id,
                    request.get("prompts_version"),
                    self.prompts.version,
                )
            with ChatClient(llm_config(self.llm), limit=self.limit) as client:
                result = Extractor(client, prompts=self.prompts).extract(
                    source.text,
                    request["mode"],
                    context=source.context,
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
        """The text the model reads, where each part of it came from, and when it was written or said."""
        if kind == "document":
            rows = self.graph.read_query("document_source", workspace=workspace, id=source_id)
            if not rows:
                raise InvalidInput(f"no document {source_id!r} in this workspace", field="document_id")
            doc = rows[0]
            occurred_at, recorded_at = to_native(doc["occurredAt"]), to_native(doc["recordedAt"])
            said_at = occurred_at or recorded_at
            context = (
                f"It was written or said on {_when(occurred_at)}."
                if occurred_at
                else f"It was given to the memory on {_when(recorded_at)}; when it was written is not known."
            )
            if doc["title"]:
                context += f" Its title: {doc['title']}."
            return _Source(doc["text"], [(0, len(doc["text"]), source_id, said_at)], said_at, context)
        turns = self.graph.read_query("session_source_text", workspace=workspace, session_id=source_id)
        said = [to_native(t["saidAt"]) for t in turns]
        one_day = len({moment.date() for moment in said}) <= 1
        parts: list[str] = []
        segments: list[tuple[int, int, str, datetime]] = []
        at = 0
        for turn, said_at in zip(turns, said):
            # Turns of several days each say when: the model reads a line's date with its words.
            prefix = f"{turn['speaker']}: " if one_day else f"[{_when(said_at)}] {turn['speaker']}: "
            start = at + len(prefix)
            parts.append(prefix + turn["text"])
            segments.append((start, start + len(turn["text"]), turn["turnId"], said_at))
            at = start + len(turn["text"]) + 1  # the line break between turns
        context = f"A conversation on {_when(said[0])}." if one_day and said else "A conversation; each line says when."
        return _Source("\n".join(parts), segments, said[0] if said else utc_now(), context)

    def _write(self, job: ClaimedJob, source: _Source, result: ExtractionResult) -> dict[str, Any]:
        registry = self.predicates.list(job.workspace)
        aligned = {name: p.name for p in registry for name in (*reversed(p.aliases), p.name)}  # alias -> its name
        drafts = [self._claim(f, source, aligned) for f in result.facts]
        new_claims = [draft.claim for draft in drafts]
        single_valued = self._adopt_single_valued(job.workspace, result.facts, new_claims, aligned)
        single = {name for p in registry if p.cardinality == "one" for name in (p.name, *p.aliases)} | set(
            single_valued
        )
        proposals = self._propose_aliases(job, new_claims, aligned)
        # A fact that says it corrects an earlier statement is always a claim of its own: never found again.
        correcting = {i for i, f in enumerate(result.facts) if f.fact.corrects is not None}
        found_again = self._restated(job.workspace, drafts, single, correcting)  # fact index -> the claim it restates
        # fact index -> a claim starting later that it restates from an earlier source, or an earlier fact of this job
        earlier, same_earlier = self._restated_earlier(job.workspace, drafts, single, correcting | set(found_again))
        same_as = self._paraphrases(job.workspace, new_claims)  # fact index -> a claim id or an earlier fact
        same_as = {i: target for i, target in same_as.items() if i not in {*found_again, *earlier, *correcting}}
        same_as |= same_earlier
        held_opposites, opposites = self._opposites(job.workspace, new_claims)
        # fact index -> (a claim of its content corrected since, its newest version): not written again
        taken = {*found_again, *same_as, *earlier}
        corrected_since = self._corrected_since(
            job.workspace, {i: c.content_key for i, c in enumerate(new_claims) if i not in taken}
        )
        ids: list[str | None] = [None] * len(result.facts)
        created: list[bool] = [False] * len(result.facts)
        notes: dict[int, str] = {}  # fact index -> what became of the correction it states, or of its earlier source
        # Premises are written before the facts derived from them, a fact before the later one negating
        # it, and a correcting fact after the statements of its subject and predicate it may correct.
        for layer in _layers(result.facts, same_as, opposites, _correction_order(result.facts, new_claims)):
            corrects = self._corrections(job.workspace, [i for i in layer if i in correcting], drafts, notes)
            batch = []
            for i in layer:
                if i in found_again:  # a claim that holds already: found again, as one of the same content key is
                    ids[i] = found_again[i]
                    continue
                if i in same_as:  # corroborates a claim: written already, or by the earlier fact it restates
                    target = same_as[i]
                    ids[i] = target if isinstance(target, str) else ids[target]
                    continue
                if i in corrected_since:  # the correction stands: what it corrected is not written again
                    ids[i], newest = corrected_since[i]
                    notes[i] = f"claim {ids[i]} states it and was corrected since (by {newest}): not written again"
                    continue
                premises = tuple(p for p in (ids[j] for j in result.facts[i].premises) if p is not None)
                against = [*held_opposites.get(i, []), *(ids[j] for j in opposites.get(i, []))]
                contradicts = tuple(dict.fromkeys(c for c in against if c is not None))
                claim = replace(new_claims[i], derived_from=premises, contradicts=contradicts)
                if i in corrects:
                    claim = replace(claim, corrects=(corrects[i],))
                elif i in earlier:  # the claim's new version, from the earlier source's date, citing both
                    claim = _moved_back(claim, earlier[i])
                    notes[i] = earlier[i].moved_back_to(drafts[i].said_at)
                batch.append((i, claim))
            for start in range(0, len(batch), MAX_BATCH):
                part = batch[start : start + MAX_BATCH]
                written = self.claims.write(job.workspace, [claim for _, claim in part])
                for (i, claim), outcome in zip(part, written.claims):
                    ids[i], created[i] = outcome.id, outcome.created
                    new_claims[i] = claim
        # A fact found again (same content, or a paraphrase) cites its span for the claim it restates:
        # from another source, that claim's count of independent sources rises.
        again = {**found_again, **{i: ids[i] for i in same_as}}
        cited = [(ids[i], ev) for i in again if ids[i] is not None for ev in new_claims[i].evidence]
        newly_sourced = self.claims.corroborate(job.workspace, [(c, ev) for c, ev in cited if c is not None])
        sourced_again = {i for i in found_again if ids[i] in newly_sourced}
        corrected = {i for i in range(len(result.facts)) if created[i] and new_claims[i].corrects}
        outcomes = [
            "existing"
            if i in found_again and i not in sourced_again
            else "corroborated"
            if i in same_as or i in sourced_again
            else "corrected"
            if i in corrected
            else "created"
            if created[i]
            else "existing"
            for i in range(len(result.facts))
        ]
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
                    "corroborates": i in same_as or i in sourced_again,
                    "corrects": new_claims[i].corrects[0] if i in corrected else None,
                    "asStated": f"{f.fact.subject} {f.fact.predicate} {f.fact.object}",
                    "validFromAsStated": f.fact.valid_from,
                    "validToAsStated": f.fact.valid_to,
                    "datesUnresolved": drafts[i].unresolved,
                }
                for i, f in enumerate(result.facts)
                if ids[i] is not None
            ],
        )
        self.jobs.record_facts(
            job.id, job.workspace, _stated_rows(job, source, result, new_claims, ids, outcomes, notes)
        )
        links = self._identity(job, new_claims, ids, result.facts)
        usage = result.usage
        anchored = sum(1 for c in new_claims if c.evidence)
        stated = sum(bool(f.fact.valid_from) + bool(f.fact.valid_to) for f in result.facts)
        unresolved = sum(len(d.unresolved) for d in drafts)
        return {
            "facts": len(result.facts),
            "claimsCreated": sum(created),
            "claimsExisting": len(created) - sum(created) - len(same_as) - len(sourced_again),
            "corroborations": len(same_as) + len(sourced_again),
            "corrections": len(corrected),
            "anchored": anchored,
            "unanchored": len(new_claims) - anchored,
            "premises": sum(len(f.premises) for f in result.facts),
            "identityLinks": sum(1 for link in links if link.created),
            "datesResolved": stated - unresolved,
            "datesUnresolved": unresolved,
            "contradictions": sum(
                1 for i in range(len(new_claims)) if created[i] and (held_opposites.get(i) or opposites.get(i))
            ),
            "singleValued": single_valued,
            "aliasProposals": [f"{p['alias']} ~ {p['predicate']} ({p['similarity']:.2f})" for p in proposals],
            "promptTokens": usage.prompt_tokens,
            "completionTokens": usage.completion_tokens,
            "tokensEstimated": usage.estimated,
            "passesFailed": sum(1 for r in result.passes if r.error),
        }

    def _restated(self, workspace: str, drafts: list[_Draft], single: set[str], skip: set[int]) -> dict[int, str]:
        """Facts stated with no time of their own that a live claim of the same content, holding when
        they were said, already records (of a single-valued predicate, `single`, one no other value
        replaced before then: see claims_restated). Facts in `skip` are left out."""
        facts = _undated(drafts, single, skip)
        rows = self.graph.read_query("claims_restated", workspace=workspace, facts=facts) if facts else []
        return {r["index"]: r["id"] for r in rows if r["id"] is not None}

    def _corrected_since(self, workspace: str, keys: dict[int, str]) -> dict[int, tuple[str, str]]:
        """Facts (index -> the content key of their claim) whose claim was corrected since: the
        corrected claim's id and its newest version's (claims_corrected)."""
        if not keys:
            return {}
        rows = self.graph.read_query("claims_corrected", workspace=workspace, keys=sorted(set(keys.values())))
        found = {r["contentKey"]: (r["id"], r["by"]) for r in rows}
        return {i: found[key] for i, key in keys.items() if key in found}

    def _restated_earlier(
        self, workspace: str, drafts: list[_Draft], single: set[str], skip: set[int]
    ) -> tuple[dict[int, _Earlier], dict[int, str | int]]:
        """Facts stated with no time of their own from a source dated before a live claim of the same
        content starts (read after it: claims_restated_earlier): that claim, whose start the fact moves
        back. A second fact of this job restating the same claim restates the first (its index, in the
        second map). Facts in `skip` are left out."""
        facts = _undated(drafts, single, skip)
        rows = self.graph.read_query("claims_restated_earlier", workspace=workspace, facts=facts) if facts else []
        earlier: dict[int, _Earlier] = {}
        first: dict[str, int] = {}  # claim id -> the first fact restating it
        same: dict[int, str | int] = {}
        for r in sorted(rows, key=lambda r: r["index"]):
            if r["id"] in first:
                same[r["index"]] = first[r["id"]]
                continue
            first[r["id"]] = r["index"]
            earlier[r["index"]] = _Earlier(
                r["id"],
                to_native(r["validFrom"]),
                to_native(r["validTo"]),
                r["confidence"],
                tuple(r["derivedFrom"]),
                tuple(Evidence(e["documentId"], e["start"], e["end"]) for e in r["evidence"]),
            )
        return earlier, same

    def _corrections(
        self, workspace: str, asked: list[int], drafts: list[_Draft], notes: dict[int, str]
    ) -> dict[int, str]:
        """For each fact in `asked` (each says it corrects an earlier statement), the one live claim
        it corrects: of its subject and predicate, with its context, whose object or time is what the
        fact says it replaces (claims_correctable). None or several such claims: nothing is corrected
        (never a guess), and `notes` says why; so it does when the fact's claim is live already (the
        job run again: its correction was made then)."""
        if not asked:
            return {}
        rows = self.graph.read_query(
            "claims_correctable",
            workspace=workspace,
            limit=CORRECTION_CANDIDATES,
            facts=[
                {
                    "index": i,
                    "subject": drafts[i].claim.subject,
                    "predicate": drafts[i].claim.predicate,
                    "context": drafts[i].claim.context,
                    "hypothesis": drafts[i].claim.hypothesis,
                    "contentKey": drafts[i].claim.content_key,
                }
                for i in asked
            ],
        )
        corrects: dict[int, str] = {}
        for row in rows:
            i, draft = row["index"], drafts[row["index"]]
            stated = draft.correction
            assert stated is not None
            what = f"{draft.claim.subject} {draft.claim.predicate}"
            if row["held"] is not None:
                notes[i] = f"claim {row['held']} states it already: nothing corrected again"
                continue
            matching = [c["id"] for c in row["candidates"] if _corrected_by(stated, c, draft.said_at)]
            if len(matching) == 1:
                corrects[i] = matching[0]
                notes[i] = f"corrects claim {matching[0]}, which said {stated.describe()}"
            elif not matching:
                notes[i] = (
                    f"not a correction: no live claim of {what} says {stated.describe()}; written as a claim of its own"
                )
            else:
                notes[i] = (
                    f"not a correction: {len(matching)} live claims of {what} say {stated.describe()} "
                    f"({', '.join(matching)}); written as a claim of its own"
                )
        return corrects

    def _adopt_single_valued(
        self, workspace: str, facts: list[FoundFact], claims: list[NewClaim], aligned: dict[str, str]
    ) -> list[str]:
        """Register the predicates of this job's facts that are single-valued and not yet in the
        registry: those the model marked (`sv`), and donto's defaults (DEFAULT_SINGLE_VALUED). A
        predicate the registry holds already, a user's declaration above all, is left as it is."""
        marks: dict[str, str] = {}
        for found, claim in zip(facts, claims):
            if claim.predicate in aligned:  # registered (claims take a registered predicate's name)
                continue
            if found.fact.single_valued:
                marks[claim.predicate] = "model"
            elif claim.predicate in DEFAULT_SINGLE_VALUED:
                marks.setdefault(claim.predicate, "default")
        return self.predicates.adopt_single_valued(workspace, marks)

    def _propose_aliases(self, job: ClaimedJob, claims: list[NewClaim], aligned: dict[str, str]) -> list[dict]:
        """New predicates whose phrasing nearly repeats a registered predicate's, proposed as its
        aliases (recorded, never applied by themselves: see app/predicates)."""
        registered = sorted(set(aligned.values()))
        new = sorted({c.predicate for c in claims} - set(aligned))
        if not registered or not new:
            return []
        vectors = self.encoder.encode([_phrasing(p) for p in registered + new])
        known, fresh = vectors[: len(registered)], vectors[len(registered) :]
        proposals = []
        for name, vector in zip(new, fresh):
            scored = [(self.encoder.similarity(_cosine(vector, v)), p) for p, v in zip(registered, known)]
            best, predicate = max(scored)
            if best >= ALIAS_SIMILARITY:
                proposals.append((name, predicate, best))
        return self.predicates.propose_aliases(job.workspace, proposals, proposed_by=f"job:{job.id}")

    def _opposites(self, workspace: str, claims: list[NewClaim]) -> tuple[dict[int, list[str]], dict[int, list[int]]]:
        """For each fact, the held claims it negates or that negate it (same subject, predicate and
        object, the other polarity), and the earlier facts of this job it so opposes."""
        polar = {i: c for i, c in enumerate(claims) if c.context in (None, NEGATED)}
        if not polar:
            return {}, {}
        rows = self.graph.read_query(
            "claims_opposed",
            workspace=workspace,
            facts=[
                {
                    "index": i,
                    "subject": c.subject,
                    "predicate": c.predicate,
                    "object": c.object_text,
                    "objectKind": "literal" if c.object_literal else "entity",
                    "negated": c.context == NEGATED,
                }
                for i, c in polar.items()
            ],
        )
        held = {r["index"]: list(r["ids"]) for r in rows if r["ids"]}
        in_job: dict[int, list[int]] = {}
        earlier: dict[tuple[str, str, str, bool, bool], list[int]] = {}  # (triple, polarity) -> fact indices
        for i, c in polar.items():
            triple = (c.subject, c.predicate, c.object_text, c.object_literal is None)
            negated = c.context == NEGATED
            if opposed := earlier.get((*triple, not negated)):
                in_job[i] = list(opposed)
            earlier.setdefault((*triple, negated), []).append(i)
        return held, in_job

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

    def _claim(self, found: FoundFact, source: _Source, aligned: dict[str, str]) -> _Draft:
        fact = found.fact
        literal = None
        if fact.datatype is not None:
            try:
                literal = TypedLiteral.parse(_typed(fact.object, fact.datatype), fact.datatype)
            except ValueError:  # a model's "about five" as xsd:integer: kept as text
                literal = TypedLiteral.parse(fact.object[:MAX_LITERAL_CHARS], "xsd:string")
        evidence = _evidence(found, source)
        confidence = fact.confidence if evidence else min(fact.confidence, UNANCHORED_CONFIDENCE)
        valid_from, valid_to, unresolved = valid_times(fact.valid_from, fact.valid_to, source.said_at_of(found))
        unknown = fact.valid_from is not None and fact.valid_from in unresolved  # its time is the words alone
        claim = NewClaim(
            subject=fact.subject[:512],
            predicate=aligned.get(fact.predicate, fact.predicate)[:512],
            object_entity=None if literal else fact.object[:512],
            object_literal=literal,
            context=None if fact.modality == "asserted" else fact.modality,
            confidence=round(confidence, 3),
            valid_from=valid_from,
            valid_to=valid_to,
            evidence=evidence,
            hypothesis=fact.hypothesis_only,
            valid_when=fact.valid_from if unknown else None,
        )
        said_at = source.said_at_of(found)
        return _Draft(claim, unresolved, said_at, valid_from != said_at or valid_to is not None, fact.corrects)


@dataclass(frozen=True)
class _Draft:
    claim: NewClaim
    unresolved: list[str]  # the fact's stated times donto could not resolve (kept as stated on the job)
    said_at: datetime  # when the words it rests on were written or said
    dated: bool  # its valid time is one the text states (not only when it was said)
    correction: Correction | None = None  # the earlier statement it says it corrects


@dataclass(frozen=True)
class _Earlier:
    """A live claim a fact restates from a source dated before the claim starts (claims_restated_earlier)."""

    id: str
    valid_from: datetime
    valid_to: datetime | None
    confidence: float | None
    derived_from: tuple[str, ...]
    evidence: tuple[Evidence, ...]

    def moved_back_to(self, said_at: datetime) -> str:
        """What a job's record says of the claim's new version, valid from `said_at`."""
        return (
            f"an earlier source: the start of claim {self.id} moves back from "
            f"{self.valid_from.date().isoformat()} to {said_at.date().isoformat()}"
        )


def _undated(drafts: list[_Draft], single: set[str], skip: set[int]) -> list[dict[str, Any]]:
    """The facts with no time of their own (but those in `skip`) as claims_restated and
    claims_restated_earlier take them."""
    return [
        {
            "index": i,
            "subject": d.claim.subject,
            "predicate": d.claim.predicate,
            "object": d.claim.object_text,
            "objectKind": "literal" if d.claim.object_literal else "entity",
            "context": d.claim.context,
            "hypothesis": d.claim.hypothesis,
            "saidAt": d.said_at,
            "single": d.claim.predicate in single,
        }
        for i, d in enumerate(drafts)
        if not d.dated and i not in skip
    ]


def _moved_back(claim: NewClaim, old: _Earlier) -> NewClaim:
    """The new version of `old` that a fact from an earlier source makes: valid from when the fact
    was said (the claim's start), until the old one's end, citing the old one's evidence and the
    fact's, derived from what either was, as confident as the surer."""
    return replace(
        claim,
        valid_to=old.valid_to,
        evidence=tuple(dict.fromkeys((*old.evidence, *claim.evidence))),
        derived_from=tuple(dict.fromkeys((*old.derived_from, *claim.derived_from))),
        confidence=max(claim.confidence, old.confidence or 0.0),
        corrects=(old.id,),
    )


def _corrected_by(stated: Correction, candidate: dict[str, Any], said_at: datetime) -> bool:
    """Whether a live claim (a claims_correctable candidate) is the statement a fact says it corrects:
    its object is the earlier object, its start (or end) falls in the earlier time, as stated; a
    bare value may be either. Nothing named: any claim of the subject and predicate is."""

    def same_object(value: str) -> bool:
        obj = candidate["object"]
        if candidate["objectKind"] == "entity":
            return bool(obj == entity_key(value))
        return bool(str(obj).strip().casefold() == value.strip().casefold())

    def in_time(value: str, which: str) -> bool:
        if candidate["validWhen"] is not None and candidate["validWhen"].strip().casefold() == value.strip().casefold():
            return which == "validFrom"
        moment = to_native(candidate[which])
        span = resolve_time_phrase(value, said_at)
        if moment is None or span is None:
            return False
        day = (moment - timedelta(microseconds=1)).date() if which == "validTo" else moment.date()
        return span[0] <= day <= span[1]

    checks = []
    if stated.object:
        checks.append(same_object(stated.object))
    if stated.valid_from:
        checks.append(in_time(stated.valid_from, "validFrom"))
    if stated.valid_to:
        checks.append(in_time(stated.valid_to, "validTo"))
    if stated.value:
        value = stated.value
        checks.append(same_object(value) or in_time(value, "validFrom") or in_time(value, "validTo"))
    return all(checks)


# Words a model may give as a fact's start that only say it holds when said: read as no time stated.
PRESENT = frozenset(
    {"now", "currently", "these days", "nowadays", "at the moment", "at present", "presently", "right now", "today"}
)


def valid_times(
    stated_from: str | None, stated_to: str | None, said_at: datetime
) -> tuple[datetime | None, datetime | None, list[str]]:
    """A fact's valid time from the times the text states, resolved against when it was written or
    said (`said_at`) by donto's own temporal layer, never the model's arithmetic: "since 2019" is
    valid from 2019-01-01, "until March" until April begins. A fact stated with no time of its own
    ("I live in Lisbon") holds from when it was said, open-ended: that is the earliest the source
    vouches for it, and what lets a later value of a single-valued predicate supersede it. A fact
    only said to have ended ("until 2021") has no known start. A start donto cannot resolve ("as a
    child") leaves the valid time unknown (no start, never "from when it was said": the claim keeps
    the words); an end it cannot resolve leaves that end open. Both are returned, to be reported; so
    is an end at or before the start."""
    unresolved: list[str] = []
    valid_from = valid_to = None
    if stated_from and stated_from.strip().lower() in PRESENT:  # "these days": no time of its own
        stated_from = None
    if stated_from:
        span = resolve_time_phrase(stated_from, said_at)
        if span is None:
            unresolved.append(stated_from)
            return None, None, unresolved
        else:
            valid_from = datetime.combine(span[0], clock_time.min, tzinfo=UTC)
    if stated_to:
        span = resolve_time_phrase(stated_to, said_at)
        try:
            valid_to = datetime.combine(span[1] + timedelta(days=1), clock_time.min, tzinfo=UTC) if span else None
        except OverflowError:  # ends on the calendar's last day: open
            valid_to = None
        if span is None:
            unresolved.append(stated_to)
    if valid_from is None and (valid_to is None or valid_to > said_at):
        valid_from = said_at
    if valid_from is not None and valid_to is not None and valid_to <= valid_from:
        unresolved.append(stated_to or "")
        valid_to = None
    return valid_from, valid_to, unresolved


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
        concurrency=settings.concurrency,
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
    for start, end, target, _ in source.segments:
        if start <= found.anchor.start and found.anchor.end <= end:
            return (Evidence(target, found.anchor.start - start, found.anchor.end - start),)
    return ()  # it straddles two turns: no single turn evidences it


def _stated_rows(
    job: ClaimedJob,
    source: _Source,
    result: ExtractionResult,
    claims: list[NewClaim],
    ids: list[str | None],
    outcomes: list[str],
    notes: dict[int, str],
) -> list[dict[str, Any]]:
    """Every fact the model stated, in order, as job_record_facts.cypher records it: where it was
    anchored (the evidence its claim got: a document or a turn, offsets in it) or why not, and what
    became of it: created, existing (a claim held it already), corroborated (it restates a claim in
    other words), corrected (its claim is another claim's new version: `corrects`), repeated (stated
    before in this job), or rejected (why); `correction` says what became of a correction it states,
    or of a claim it restates from an earlier source."""
    rows: list[dict[str, Any]] = []
    first_seq: dict[int, int] = {}  # fact index -> the seq it was first stated at
    for seq, stated in enumerate(result.stated, start=1):
        label = stated.pass_label
        row: dict[str, Any] = {
            "seq": seq,
            "attempt": job.attempt,
            "pass": label,
            "lens": label.removeprefix("lens:") if label.startswith("lens:") else None,
            "chunk": stated.chunk,
            "text": stated.text,
            "reason": stated.reason,
            **dict.fromkeys(("subject", "predicate", "object", "quote", "anchorKind", "anchorId", "start", "end")),
            **dict.fromkeys(("unanchoredReason", "claimId", "repeats", "corrects", "correction")),
        }
        if stated.fact is not None and stated.index is not None:
            fact, i = stated.fact, stated.index
            row |= {"subject": fact.subject, "predicate": fact.predicate, "object": fact.object, "quote": fact.quote}
            row["text"] = f"{fact.subject} {fact.predicate} {fact.object}"
            row["claimId"] = ids[i]
            evidence = claims[i].evidence
            if evidence:
                kind = "document" if job.source_kind == "document" else "turn"
                row |= {"anchorKind": kind, "anchorId": evidence[0].document_id}
                row |= {"start": evidence[0].start, "end": evidence[0].end}
            else:
                row["unanchoredReason"] = _unanchored_reason(fact.quote, result.facts[i].anchor is not None)
            if stated.outcome == "repeated":
                row |= {"outcome": "repeated", "repeats": first_seq.get(i)}
            elif ids[i] is None:
                row |= {"outcome": "rejected", "reason": "not written"}
            else:
                first_seq[i] = seq
                row["outcome"] = outcomes[i]
                row["correction"] = notes.get(i)
                if outcomes[i] == "corrected":
                    row["corrects"] = claims[i].corrects[0]
        else:
            row["outcome"] = "rejected"
        rows.append(row)
    return rows


def _unanchored_reason(quote: str | None, found: bool) -> str:
    if not quote:
        return "no quote"
    if found:
        return "its quote spans two turns"
    return "its quote is not in the text"


def _when(moment: datetime) -> str:
    """A date (and time, when it is not midnight) as the model is told it: '8 May 2023, 13:56 UTC'."""
    day = f"{moment.day} {moment:%B %Y}"
    return day if moment.time() == clock_time.min else f"{day}, {moment:%H:%M} UTC"


def _phrasing(predicate: str) -> str:
    """A predicate as words in a neutral sentence, as alias proposals compare them: bare names
    scored antonyms as close as paraphrases ("moved to" / "moved from")."""
    return f"someone {predicate.replace('_', ' ')} something"


def _triple(subject: str, predicate: str, obj: str) -> str:
    return f"{subject} {predicate.replace('_', ' ')} {obj}"


def _cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b))  # the encoder's vectors are unit length


def _correction_order(facts: list[FoundFact], claims: list[NewClaim]) -> dict[int, list[int]]:
    """For each fact that says it corrects an earlier statement, the facts of this job it comes
    after: every other of its subject and predicate that corrects nothing, and each earlier one that
    corrects too ("July... no, June": the second corrects the first's claim)."""
    order: dict[int, list[int]] = {}
    for i, found in enumerate(facts):
        if found.fact.corrects is None:
            continue
        key = (claims[i].subject, claims[i].predicate)
        order[i] = [
            j
            for j, other in enumerate(facts)
            if j != i and (claims[j].subject, claims[j].predicate) == key and (other.fact.corrects is None or j < i)
        ]
    return order


def _layers(
    facts: list[FoundFact],
    same_as: dict[int, str | int],
    opposites: dict[int, list[int]],
    after: dict[int, list[int]] | None = None,
) -> list[list[int]]:
    """Fact indices in write order: each fact after every premise it has, a restating fact after the
    fact it restates, a fact after the earlier ones it negates, and after those `after` names (a
    cycle's facts last, without the links that close it)."""
    placed: set[int] = set()
    layers: list[list[int]] = []
    remaining = list(range(len(facts)))
    after = after or {}

    def needs(i: int) -> list[int]:
        target = same_as.get(i)
        return [
            *facts[i].premises,
            *([target] if isinstance(target, int) else []),
            *opposites.get(i, []),
            *after.get(i, []),
        ]

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
    del row["rejections"]  # each is a JobFact of its own (job_record_facts)
    row.update(
        seq=seq,
        elapsedS=round(row.pop("elapsed_s"), 3),
        promptTokens=usage["prompt_tokens"],
        completionTokens=usage["completion_tokens"],
        tokensEstimated=usage["estimated"],
    )
    return row
