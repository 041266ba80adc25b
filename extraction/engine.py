"""The extraction engine: text in, anchored candidate facts out, with an audit of every pass.

Modes (seed 001):
- single: one maximal pass per chunk.
- exhaustive: the five apertures (surface, linguistic, presupposition, inferential, conceivable),
  side by side on each chunk.
- deep: up to `passes` sequential passes per chunk, each shown a capped block of the facts that
  chunk's earlier passes found and asked only for what is missing; it stops early after
  `dry_streak` passes that add nothing to them (seed 001 never stopped on its own and paid for it).
`lenses` add focused passes after the mode's own ("kinship", "dates and places", ...).
What each pass is told comes from a `Prompts` value (prompts.BUILTIN unless given one).

Chunks are extracted concurrently (`Extractor.concurrency` at once, requests in flight bounded by
the client's RequestLimit), each on its own, and merged in chunk order: the result is the same at
any concurrency.

Every pass is salvaged (facts.parse_reply), and a pass with no usable fact is asked again up to
`empty_retries` times (seed 001 lost a whole pass to one prose reply; seed 003 lost chunks to one
empty reply). Facts are deduplicated by content key, first found wins; the others count as
collisions. An endpoint that fails after the client's own retries fails that pass only: the
report says so and the other passes go on. The engine knows nothing of Neo4j or donto's app."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Literal

from donto.extraction.facts import Fact, Rejection, fact_from, parse_reply
from donto.extraction.llm import ChatClient, LLMError, Usage
from donto.extraction.prompts import APERTURES, BUILTIN, EXAMPLES, FACTS_SCHEMA, Prompts, known_facts_block, messages
from donto.extraction.text import MAX_CHUNK_CHARS, Anchor, Chunk, anchor, chunk

Mode = Literal["single", "exhaustive", "deep"]
MODES: tuple[Mode, ...] = ("single", "exhaustive", "deep")
# Seed 001's other names for the modes, accepted wherever a mode is and answered with the canonical one.
MODE_SYNONYMS: dict[str, Mode] = {
    "sequential": "deep",
    "iterative": "deep",
    "multi": "exhaustive",
    "apertures": "exhaustive",
}
ModeName = Literal["single", "exhaustive", "deep", "sequential", "iterative", "multi", "apertures"]


def canonical_mode(name: str) -> Mode:
    """The mode a name (or one of seed 001's synonyms) means; ValueError for none."""
    if name in MODES:
        return name
    if name in MODE_SYNONYMS:
        return MODE_SYNONYMS[name]
    raise ValueError(f"mode is one of {', '.join(MODES)} (or {', '.join(MODE_SYNONYMS)})")


MAX_PASSES = 10
# The prompt's own example facts: a model that copies one into its answer has not read it in the text.
EXAMPLE_KEYS = frozenset(f.content_key for f in (fact_from(e) for e in EXAMPLES) if f is not None)


@dataclass
class FoundFact:
    fact: Fact
    pass_label: str  # "single", an aperture's name, "pass_3", "lens:kinship"
    chunk: int
    anchor: Anchor | None  # offsets in the whole source; None: the quote was not found there
    premises: list[int] = field(default_factory=list)  # indices into ExtractionResult.facts

    @property
    def anchored(self) -> bool:
        return self.anchor is not None


@dataclass
class PassReport:
    label: str
    chunk: int
    raw: int = 0  # facts read from the reply
    new: int = 0  # of those, not found before
    collisions: int = 0  # of those, already found (same subject, predicate, object)
    rejected: int = 0  # objects that could not be read as facts
    rejections: list[Rejection] = field(default_factory=list)  # they, with why
    attempts: int = 0  # requests made, the client's retries and the empty-reply retries included
    elapsed_s: float = 0.0
    usage: Usage = field(default_factory=Usage)
    truncated: bool = False  # the last reply was cut at max_tokens
    salvaged: bool = False  # facts were recovered from an unclean reply
    error: str | None = None
    replies: list[str] = field(default_factory=list)  # every raw reply, for the job's audit


@dataclass(frozen=True)
class StatedFact:
    """One thing the model stated, in the order it was read: a fact new to this extraction
    (`index` into ExtractionResult.facts), one it had stated before (`index`: that fact), or
    something that could not be read as a fact (`reason`)."""

    pass_label: str
    chunk: int
    outcome: Literal["new", "repeated", "rejected"]
    fact: Fact | None = None
    index: int | None = None
    text: str | None = None  # for a rejected one: what the model wrote
    reason: str | None = None


@dataclass
class ExtractionResult:
    mode: Mode
    facts: list[FoundFact]
    passes: list[PassReport]
    stated: list[StatedFact] = field(default_factory=list)  # everything the model stated, in order

    @property
    def usage(self) -> Usage:
        total = Usage()
        for report in self.passes:
            total = total + report.usage
        return total

    @property
    def anchored(self) -> int:
        return sum(f.anchored for f in self.facts)


@dataclass(frozen=True)
class _Pass:
    label: str
    focus: str | None
    shows_known: bool  # shown the facts its chunk's earlier passes found
    side_by_side: bool = False  # asked at once with the rest of its plan (exhaustive's apertures)


class Extractor:
    """`concurrency`: how many chunks are extracted at once (default: the client's request limit).
    Requests in flight stay within the client's RequestLimit whatever this is (exhaustive mode asks
    each chunk's apertures side by side too), and the result does not depend on it: every chunk is
    extracted on its own and the chunks' findings are merged in chunk order."""

    def __init__(
        self,
        client: ChatClient,
        *,
        chunk_chars: int = MAX_CHUNK_CHARS,
        empty_retries: int = 1,
        known_chars: int = 12_000,
        dry_streak: int = 2,
        parallel: int = len(APERTURES),
        concurrency: int | None = None,
        prompts: Prompts = BUILTIN,
    ):
        self.client = client
        self.prompts = prompts
        self.chunk_chars = chunk_chars
        self.empty_retries = empty_retries
        self.known_chars = known_chars
        self.dry_streak = dry_streak
        self.parallel = parallel
        self.concurrency = max(1, concurrency if concurrency is not None else client.limit.size)

    def extract(
        self,
        text: str,
        mode: Mode = "single",
        *,
        passes: int = 3,
        lenses: Sequence[str] = (),
        context: str | None = None,
        on_pass: Callable[[PassReport], None] | None = None,
    ) -> ExtractionResult:
        """The facts of every chunk, merged in chunk order (the first found wins a duplicate).
        `on_pass` is called on this thread, in that order, as each pass is merged: the chunk being
        merged streams its passes as they are answered, so a job records its progress (and can be
        cancelled) pass by pass; what `on_pass` raises stops the extraction (the chunks under way
        finish their current pass and are dropped)."""
        if mode not in MODES:
            raise ValueError(f"mode is one of {', '.join(MODES)}")
        if not 1 <= passes <= MAX_PASSES:
            raise ValueError(f"passes is between 1 and {MAX_PASSES}")
        plans: list[tuple[list[_Pass], int | None]] = []
        if mode == "single":
            plans.append(([_Pass("single", None, False)], None))
        elif mode == "exhaustive":
            plans.append(([_Pass(name, focus, False, True) for name, focus in self.prompts.apertures.items()], None))
        else:
            plans.append(([_Pass(f"pass_{i}", None, i > 1) for i in range(1, passes + 1)], self.dry_streak))
        if lenses:
            plans.append(([_Pass(f"lens:{lens}", self.prompts.focus_of(lens), True) for lens in lenses], None))
        run = _Run(self, text, context, on_pass)
        pieces = chunk(text, self.chunk_chars)
        halted = threading.Event()
        with ThreadPoolExecutor(max_workers=max(1, min(self.concurrency, len(pieces)))) as pool:
            answered: list[queue.SimpleQueue[_Step | None]] = [queue.SimpleQueue() for _ in pieces]
            futures = [
                pool.submit(_chunk_steps, self, context, mode, n, p, plans, halted, answered[n])
                for n, p in enumerate(pieces)
            ]
            for future, queued in zip(futures, answered):  # ended, raised or cancelled: no more passes
                future.add_done_callback(partial(_no_more_passes, queued))
            try:
                for number, (piece, future) in enumerate(zip(pieces, futures)):
                    run.merge_chunk(number, piece, _as_answered(answered[number]))
                    future.result()  # what the chunk's passes raised, if anything
            except BaseException:
                halted.set()
                for future in futures:
                    future.cancel()
                raise
        return ExtractionResult(mode, run.facts, run.reports, run.stated)


@dataclass
class _Step:
    """One pass over one chunk, asked and answered, not yet merged into the extraction."""

    report: PassReport
    found: list[Fact]
    shown: int  # the pass was shown the chunk's first `shown` facts as k1..k<shown>


def _no_more_passes(answered: queue.SimpleQueue[_Step | None], _: Future[None]) -> None:
    answered.put(None)


def _as_answered(answered: queue.SimpleQueue[_Step | None]) -> Iterator[_Step]:
    while (step := answered.get()) is not None:
        yield step


def _chunk_steps(
    engine: Extractor,
    context: str | None,
    mode: Mode,
    number: int,
    piece: Chunk,
    plans: list[tuple[list[_Pass], int | None]],
    halted: threading.Event,
    answered: queue.SimpleQueue[_Step | None],
) -> None:
    """Every pass of one chunk, on its own: what a later pass (deep mode's, a lens's) is shown as
    known is what this chunk's earlier passes found, and a pass is dry when it adds nothing to them.
    So a chunk's passes do not wait on, or depend on the timing of, the other chunks'; a fact a later
    chunk states again is a collision when the chunks are merged. Each pass is put on `answered`
    as it is answered (the caller puts None after the last, however the chunk ended)."""
    facts: list[Fact] = []  # this chunk's facts so far, first found first
    keys: set[str] = set()

    def keep(found: list[Fact]) -> int:
        new = 0
        for fact in found:
            if fact.content_key not in keys:
                keys.add(fact.content_key)
                facts.append(fact)
                new += 1
        return new

    for plan, stop_after_dry in plans:
        if halted.is_set():
            break
        if plan[0].side_by_side:
            with ThreadPoolExecutor(max_workers=max(1, min(engine.parallel, len(plan)))) as pool:
                answers = list(pool.map(lambda step: _ask(engine, context, mode, number, piece, step, None), plan))
            for report, found in answers:  # in plan order, so the first aperture wins a duplicate
                keep(found)
                answered.put(_Step(report, found, 0))
            continue
        dry = 0
        for step in plan:
            if halted.is_set():
                break
            known = (known_facts_block(facts, engine.known_chars) or None) if step.shows_known else None
            shown = len(facts) if known else 0
            report, found = _ask(engine, context, mode, number, piece, step, known)
            answered.put(_Step(report, found, shown))
            dry = dry + 1 if keep(found) == 0 else 0
            if stop_after_dry and dry >= stop_after_dry:
                break


def _ask(
    engine: Extractor, context: str | None, mode: Mode, number: int, piece: Chunk, step: _Pass, known: str | None
) -> tuple[PassReport, list[Fact]]:
    client = engine.client
    report = PassReport(step.label, number)
    found: list[Fact] = []
    for _ in range(1 + engine.empty_retries):
        structured = client.takes_json_schema is not False
        asked = messages(
            piece.text,
            structured=structured,
            focus=step.focus,
            known=known,
            context=context,
            mode=mode,
            prompts=engine.prompts,
        )
        try:
            completion = client.complete(asked, json_schema=FACTS_SCHEMA if structured else None)
        except LLMError as exc:
            report.attempts += exc.attempts
            report.error = str(exc)
            break
        parsed = parse_reply(completion.text)
        copied = [f for f in parsed.facts if f.content_key in EXAMPLE_KEYS and anchor(f.quote, piece.text) is None]
        if copied:
            parsed.facts = [f for f in parsed.facts if f not in copied]
            parsed.rejections += [
                Rejection(f.line(), "a copy of the prompt's example, not in the text") for f in copied
            ]
        report.attempts += completion.attempts
        report.elapsed_s += completion.elapsed_s
        report.usage = report.usage + completion.usage
        report.truncated = completion.truncated
        report.salvaged = report.salvaged or parsed.salvaged
        report.rejected += parsed.rejected
        report.rejections += parsed.rejections
        report.replies.append(completion.text)
        found = parsed.facts
        if found:
            report.error = None
            break
        report.error = "no usable fact in the reply" if completion.text.strip() else "empty reply"
    return report, found


class _Run:
    """One extraction's merged state: the facts so far, their keys, the reports."""

    def __init__(
        self, engine: Extractor, source: str, context: str | None, on_pass: Callable[[PassReport], None] | None
    ):
        self.engine = engine
        self.source = source
        self.context = context
        self.on_pass = on_pass
        self.facts: list[FoundFact] = []
        self.stated: list[StatedFact] = []
        self.reports: list[PassReport] = []
        self.index_by_key: dict[str, int] = {}

    def merge_chunk(self, number: int, piece: Chunk, steps: Iterator[_Step]) -> None:
        chunk_facts: list[int] = []  # the chunk's own facts, first found first: k<n> is chunk_facts[n - 1]
        chunk_keys: set[str] = set()
        for step in steps:
            self._merge(step.report, step.found, piece, chunk_facts[: step.shown])
            for fact in step.found:
                if fact.content_key not in chunk_keys:
                    chunk_keys.add(fact.content_key)
                    chunk_facts.append(self.index_by_key[fact.content_key])

    def _merge(self, report: PassReport, found: list[Fact], piece: Chunk, shown: list[int]) -> None:
        report.raw = len(found)
        labels: dict[str, int] = {}
        fresh: list[int] = []
        for fact in found:
            key = fact.content_key
            if key in self.index_by_key:
                report.collisions += 1
                index = self.index_by_key[key]
                self.stated.append(StatedFact(report.label, report.chunk, "repeated", fact, index))
            else:
                index = len(self.facts)
                self.index_by_key[key] = index
                self.facts.append(FoundFact(fact, report.label, report.chunk, self._anchor(fact, piece)))
                self.stated.append(StatedFact(report.label, report.chunk, "new", fact, index))
                fresh.append(index)
                report.new += 1
            if fact.label:
                labels.setdefault(fact.label, index)
        for index in fresh:  # premises: this pass's own ids, or k<n> for the n-th fact it was shown
            premises = []
            for ref in self.facts[index].fact.derived_from:
                target = labels.get(ref)
                if target is None and ref.startswith("k") and ref[1:].isdigit() and 0 < int(ref[1:]) <= len(shown):
                    target = shown[int(ref[1:]) - 1]
                if target is not None and target != index and target not in premises:
                    premises.append(target)
            self.facts[index].premises = premises
        self.stated += [
            StatedFact(report.label, report.chunk, "rejected", text=r.text, reason=r.reason) for r in report.rejections
        ]
        self.reports.append(report)
        if self.on_pass:
            self.on_pass(report)

    def _anchor(self, fact: Fact, piece: Chunk) -> Anchor | None:
        found = anchor(fact.quote, piece.text)
        if found is not None:
            return Anchor(found.start + piece.start, found.end + piece.start, found.exact)
        return anchor(fact.quote, self.source)  # a quote from a neighbouring chunk still counts
