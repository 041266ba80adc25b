"""Recall: a question in, a small dated evidence bundle out — no LLM involved.

A pipeline of stages, declared in one place (PIPELINE, at the end of this module): the question is
read once (question.py, through one language.Language) and routed to a recipe (recipes.py); the arms
(arms.py) rank turns, passages, sessions or claims, all in one statement; fusion (fusion.py, pure)
merges their rankings by reciprocal rank, then the steps after it score (a unit gains from its
group's full-text rank, its speaker, its group's strength; neighbours join; claims compete) or order
(a reranker, the spread over sessions, the latest word first) the candidates, and the best `k` are
rendered (render.py) and trimmed to `max_tokens`. Every stage is one function of the request's
`Recall`, the one object passed from stage to stage; what the stages read of units by id is read
once a request (Details)."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Literal

from donto.embedding.encoder import Encoder
from donto.errors import IndexUnavailable, InvalidInput
from donto.graph.client import GraphClient
from donto.jobs.claim_embeddings import ClaimEmbeddings
from donto.recall import fusion, present, relevance
from donto.recall.addressed import ADDRESSED_CANDIDATES, addressed_as, with_labels
from donto.recall.arms import ARM_NAMES, ARMS, ArmsFound, QueryVectors, run_arms
from donto.recall.english import ENGLISH
from donto.recall.fusion import Candidate
from donto.recall.language import Language
from donto.recall.question import Question, read
from donto.recall.recipes import Recipe, route
from donto.recall.render import RecallItem, claim_item, passage_item, trim_to_tokens, turn_item
from donto.recall.rerank import Reranker
from donto.temporal.scope import TimeScope
from donto.walk.service import POTENTIALLY_STALE, UNVERIFIED, ClaimStatus, WalkService

DRAIN_BEFORE_RECALL = 2048  # claims a recall embeds itself before searching
# Threads that read whom a question's names address while the question is encoded: one a recall in
# flight (a recall past this many waits for one; the API runs 40 requests' work at once).
BESIDE_ENCODING = 8
# The arms that find claims or document passages only once the embedder has been by.
# Turns and passages compete on relevance among the best this many k (kinds_compete).
COMPETING_DEPTH = 2
EMBEDDED_ARMS = ("claim_vector", "fulltext", "passage_vector", "passage_context_vector", "time_window")


@dataclass(frozen=True)
class RecallRequest:
    query: str
    scope: TimeScope
    k: int = 20
    arms: tuple[str, ...] | None = None  # None: the routed recipe's arms and every step
    max_tokens: int | None = None
    include_provenance: bool = False
    arm_weights: Mapping[str, float] | None = None  # None: DONTO_RECALL_ARM_WEIGHTS
    rerank: bool = True  # False skips the reranking stage where one is configured
    sessions: tuple[str, ...] | None = None  # external ids: only these sessions' turns (None: all memory)
    documents: tuple[str, ...] | None = None  # external id prefixes: only these documents' passages (None: all)


@dataclass(frozen=True)
class RecallResult:
    items: list[RecallItem]
    took_ms: float
    arms_unavailable: tuple[str, ...] = ()  # left out while their index is built or rebuilt: a partial bundle
    names_read_as: Mapping[str, str] = field(default_factory=dict)  # a name the chat calls a speaker -> their label
    nothing_relevant: bool = False  # no item reaches relevance.FLOOR: memory likely holds no answer


def check_arm_weights(weights: Mapping[str, float]) -> dict[str, float]:
    for name, weight in weights.items():
        if name not in ARMS:
            raise InvalidInput(f"unknown arm; arms are {', '.join(ARMS)}", field=f"arm_weights.{name}")
        if not math.isfinite(weight) or weight < 0:  # 1e400 reads as infinity, which ties every hit
            raise InvalidInput("an arm's weight is a finite number, zero or more", field=f"arm_weights.{name}")
    return dict(weights)


class RecallService:
    def __init__(
        self,
        graph: GraphClient,
        encoder: Encoder,
        walk: WalkService,
        claim_embeddings: ClaimEmbeddings,
        arm_weights: Mapping[str, float] | None = None,
        reranker: Reranker | None = None,
        language: Language = ENGLISH,
    ):
        self.graph = graph
        self.encoder = encoder
        self.walk = walk
        self.claim_embeddings = claim_embeddings
        self.arm_weights = check_arm_weights(arm_weights or {})
        self.reranker = reranker
        self.language = language
        # Not shut down with the Memory: a recall still running then fails on the closed driver, as
        # every other read does. Idle threads end with the executor (or at exit).
        self.beside = ThreadPoolExecutor(BESIDE_ENCODING, thread_name_prefix="donto-recall-names")

    def recall(self, workspace: str, request: RecallRequest) -> RecallResult:
        started = time.perf_counter()
        r = self.begin(workspace, request)
        for stage in PIPELINE:
            if stage.when(r):
                stage.run(r)
        took = (time.perf_counter() - started) * 1000
        return RecallResult(r.items, took, r.found.unavailable if r.found else (), r.read_as, r.nothing_relevant)

    def begin(self, workspace: str, request: RecallRequest) -> Recall:
        """The request's Recall: its question read, its recipe routed, named and weighed."""
        factors = self.arm_weights if request.arm_weights is None else check_arm_weights(request.arm_weights)
        question = read(request.query, request.scope.known_at, self.language)
        recipe = route(question)
        if request.arms is not None:
            for i, name in enumerate(request.arms):
                if name not in ARM_NAMES:
                    raise InvalidInput(f"unknown arm; arms are {', '.join(ARM_NAMES)}", field=f"arms[{i}]")
            recipe = recipe.only(list(request.arms))
        # Named, then weighed: a factor of 0 keeps an arm off even where the request names it.
        recipe = recipe.weighed(factors)
        return Recall(self, workspace, request, question, recipe, Details(self.graph, workspace, request.scope))

    def addressed(self, workspace: str, names: list[str], scope: TimeScope) -> dict[str, str]:
        """{name: the speaker it addresses} for the question's `names` that the chat calls a speaker
        by (addressed.py); none while the full-text index it reads is being built."""
        try:
            rows = self.graph.read_list(
                "recall_addressed",
                workspace=workspace,
                addressed_names=names,
                addressed_candidates=ADDRESSED_CANDIDATES,
                **scope.params(),
            )
        except IndexUnavailable:
            return {}
        return addressed_as(rows, self.language)

    def speakers_named(self, workspace: str, names: list[str], scope: TimeScope) -> set[str]:
        """Which of the question's `names` are speakers in the workspace (recall_speakers_named); none
        while the full-text index it reads is being built."""
        try:
            row = self.graph.read_row(
                "recall_speakers_named", workspace=workspace, speaker_names=names, known_at=scope.known_at
            )
        except IndexUnavailable:
            return set()
        return set(row["speakers"])

    def query_vectors(self, question: Question, recipe: Recipe, speakers: set[str]) -> QueryVectors:
        """The vector arms' queries (arms.QueryVectors), one call of the encoder for all they need.
        Turns and passages: the question with the speakers it names said as "they", the question as
        asked beside it at `recipe.named_weight` (the name still says whose turns matter); claims:
        the question as asked. Where the question asks after a kind of thing ("What animals…"), the
        kind's encoding is added to both at `asked_for_weight` (of the first vector's), so that a
        turn naming one ("a stray cat followed me") comes near though it shares none of the
        question's other words."""
        text = question.text
        asked = self.language.impersonal(text, speakers)
        kind = question.kind if recipe.asked_for_weight else None
        texts = list(dict.fromkeys([asked, text, *([kind] if kind else [])]))
        if len(texts) == 1:
            vector = self.encoder.encode_query(text)
            return QueryVectors(vector, vector)
        encoded = dict(zip(texts, self.encoder.encode_queries(texts)))
        the_kind = [(encoded[kind], recipe.asked_for_weight)] if kind else []
        claims = blend([(encoded[text], 1.0), *the_kind])
        if asked == text:
            return QueryVectors(claims, claims)
        return QueryVectors(blend([(encoded[asked], 1.0), (encoded[text], recipe.named_weight), *the_kind]), claims)

    def attach_states(
        self,
        workspace: str,
        chosen: list[Candidate],
        items: list[RecallItem],
        scope: TimeScope,
        with_provenance: bool,
    ) -> None:
        """One premise walk, in the request's time scope, over the claims the bundle hands back (each
        claim item's `state`) and, with provenance, the claims whose hits brought any item (its
        `status`: POTENTIALLY_STALE when any of them is, else UNVERIFIED)."""
        claim_items = [c.id for c in chosen if c.kind == "claim"]
        walked = claim_items + ([i for c in chosen for i in c.claim_ids] if with_provenance else [])
        walked = list(dict.fromkeys(walked))
        if not walked:
            return
        statuses = {s.claim_id: s for s in self.walk.status(workspace, walked, scope)}
        for c, item in zip(chosen, items):
            if c.kind == "claim":
                item.state = claim_state(statuses[c.id])
            p = item.provenance
            if p is not None and p.claim_ids:
                worst = [statuses[i].status for i in p.claim_ids if i in statuses]
                p.status = POTENTIALLY_STALE if POTENTIALLY_STALE in worst else UNVERIFIED


class Details:
    """What the stages read of units by id, each read once a request: turns, document passages, the
    neighbours of the strongest, and rows of the other by-id queries."""

    def __init__(self, graph: GraphClient, workspace: str, scope: TimeScope):
        self.graph, self.workspace, self.scope = graph, workspace, scope
        self.turns: dict[str, dict[str, Any]] = {}
        self.passages: dict[str, dict[str, Any]] = {}
        self.neighbours: dict[str, dict[str, Any]] = {}  # unit id -> {previousId, nextId}
        self.embedded: dict[str, dict[str, Any]] = {}  # unit id -> recall_present_units' row

    def around(self, strongest: Sequence[Candidate], best: Sequence[Candidate]) -> None:
        """The strongest units' neighbours, and the details of the best units and those neighbours."""
        strong, ids = [c.id for c in strongest if c.kind == "turn"], [c.id for c in best if c.kind == "turn"]
        if strong or ids:
            around = self.graph.read_row(
                "recall_turns_around", workspace=self.workspace, strongest=strong, ids=ids, **self.scope.params()
            )
            self.neighbours.update({n["id"]: n for n in around["neighbours"]})
            self.turns.update({t["id"]: t for t in around["turns"]})
        strong, ids = [c.id for c in strongest if c.kind == "passage"], [c.id for c in best if c.kind == "passage"]
        if strong or ids:  # a document passage's neighbours are in its revision, so in the hit's time scope
            around = self.graph.read_row(
                "recall_passages_around",
                workspace=self.workspace,
                strongest=strong,
                ids=ids,
                known_at=self.scope.known_at,
            )
            self.neighbours.update({n["id"]: n for n in around["neighbours"]})
            self.passages.update({p["id"]: p for p in around["passages"]})

    def of(self, candidates: Sequence[Candidate]) -> None:
        """The details of these candidates' turns and passages, where not read already."""
        turns = [c.id for c in candidates if c.kind == "turn" and c.id not in self.turns]
        self.turns.update(self.by_id("recall_turns", turns))
        passages = [c.id for c in candidates if c.kind == "passage" and c.id not in self.passages]
        if passages:  # recall_passages_around, asked for no neighbours
            around = self.graph.read_row(
                "recall_passages_around",
                workspace=self.workspace,
                strongest=[],
                ids=passages,
                known_at=self.scope.known_at,
            )
            self.passages.update({p["id"]: p for p in around["passages"]})

    def units(self, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Turns' and passages' speaker, time, text and embedding (recall_present_units), by id."""
        self.embedded.update(self.by_id("recall_present_units", [i for i in ids if i not in self.embedded]))
        return {i: self.embedded[i] for i in ids if i in self.embedded}

    def by_id(self, query: str, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """The rows of `query` (recall_turns, recall_turn_places, recall_claims...) for `ids`, by id."""
        if not ids:
            return {}
        return {r["id"]: r for r in self.graph.read_list(query, workspace=self.workspace, ids=list(ids))}


@dataclass
class Recall:
    """One request's work, passed from stage to stage: what each stage hands the next."""

    service: RecallService
    workspace: str
    request: RecallRequest
    question: Question
    recipe: Recipe
    details: Details
    speakers: set[str] = field(default_factory=set)  # the question's names that are speakers
    addressed: Future[dict[str, str]] | None = None  # whom its names address, read beside the encoding
    read_as: dict[str, str] = field(default_factory=dict)  # a name the chat calls a speaker -> their label
    vectors: QueryVectors | None = None
    found: ArmsFound | None = None
    candidates: fusion.Candidates = field(default_factory=dict)  # units and claims
    groups: dict[tuple[str, str], Candidate] = field(default_factory=dict)  # sessions' and documents' hits
    ranking: list[Candidate] = field(default_factory=list)
    places: dict[str, dict[str, Any]] = field(default_factory=dict)  # pool units' session and speaker, or document
    later: dict[str, present.Later] = field(default_factory=dict)  # a replaced unit -> what replaced it
    picked: list[list[Candidate]] = field(default_factory=list)  # the items' candidates
    items: list[RecallItem] = field(default_factory=list)
    relevance: dict[tuple[str, str], float] = field(default_factory=dict)  # units' relevance, measured once
    nothing_relevant: bool = True  # no item reaches relevance.FLOOR

    @property
    def arms(self) -> list[str]:
        """The arms run, in recipe order (so ties break the same way every time): an arm weighed to 0 is not."""
        return [name for name, weight in self.recipe.weights.items() if weight > 0]

    @property
    def uses_vector(self) -> bool:
        return any(ARMS[name].uses_vector for name in self.arms)

    @property
    def rows(self) -> list[list[dict[str, Any]]]:
        """Each arm's rows, in the order of `arms`."""
        return self.found.rows if self.found else []

    def units(self, among: Sequence[Candidate] | None = None) -> list[Candidate]:
        return [c for c in (self.ranking if among is None else among) if c.kind in fusion.UNITS]


# ------------------------------------------------------------------------------------------- reads


def read_speakers(r: Recall) -> None:
    """Which of the question's names are speakers (the vector arms ask without them), and, beside
    the encoding (one waits on the model's threads, the other on Neo4j's socket), whom they address."""
    names = r.question.names
    if r.uses_vector:  # a millisecond alone; beside the reading of addresses, four
        r.speakers = r.service.speakers_named(r.workspace, names, r.request.scope)
    r.addressed = r.service.beside.submit(r.service.addressed, r.workspace, names, r.request.scope)


def encode(r: Recall) -> None:
    r.vectors = r.service.query_vectors(r.question, r.recipe, r.speakers)


def read_addressed(r: Recall) -> None:
    """A question calling someone by the name the chat addressed them by, not the label their turns
    carry, is asked by the label (addressed.py), which the vector arms leave out too."""
    assert r.addressed is not None
    r.read_as = r.addressed.result()
    if r.read_as:
        r.question = r.question.with_text(with_labels(r.question.text, r.read_as))
        r.speakers |= set(r.read_as.values())
        if r.uses_vector:
            r.vectors = r.service.query_vectors(r.question, r.recipe, r.speakers)


def search(r: Recall) -> None:
    r.found = run_arms(
        r.service.graph,
        [ARMS[n] for n in r.arms],
        r.workspace,
        r.question,
        r.vectors,
        per_arm(r),
        r.request.scope,
        sessions=r.request.sessions,
        documents=r.request.documents,
    )


def search_own_writes(r: Recall) -> None:
    """Read our own writes: claims and document passages the embedder has not reached yet are not in
    the vector indexes (nor claims in the full-text one, :Searchable); they are embedded now, and the
    arms that find them asked again."""
    assert r.found is not None
    embedded = [n for n in EMBEDDED_ARMS if n in r.arms and n not in r.found.unavailable]
    if (
        embedded
        and (r.found.holds["claims"] or r.found.holds["documents"])
        and r.service.claim_embeddings.drain(r.workspace, max_claims=DRAIN_BEFORE_RECALL)
    ):
        search_again(r, embedded, r.vectors)


def follow_identity(r: Recall) -> None:
    """Keys linked (SAME_AS) to those the question names count as named too: the full-text arm is
    asked again with their words, and the speakers' step reads them."""
    assert r.found is not None
    if also := identity_words(r.question.text, r.found.linked):
        r.question = r.question.with_text(f"{r.question.text} {also}")
        lexical = [n for n in ("fulltext",) if n in r.arms and n not in r.found.unavailable]
        if lexical:
            search_again(r, lexical, None)


def search_again(r: Recall, names: list[str], vectors: QueryVectors | None) -> None:
    """These arms asked again, their rows replacing those they found."""
    assert r.found is not None
    arms = [ARMS[n] for n in names]
    again = run_arms(
        r.service.graph,
        arms,
        r.workspace,
        r.question,
        vectors,
        per_arm(r),
        r.request.scope,
        False,
        sessions=r.request.sessions,
        documents=r.request.documents,
    )
    for name, rows in zip(names, again.rows):
        r.found.rows[r.arms.index(name)] = rows


def read_places(r: Recall) -> None:
    """Each pool unit's session and speaker, or document: from the arms' rows where one found the
    unit itself, read for the rest (turns only a claim's evidence cites). Fusion weighs a pool of units
    by where they sit."""
    recipe = r.recipe
    pool = r.units()[: r.request.k + recipe.neighbours_of + (recipe.session_pool if recipe.session_share else 0)]
    wanted = {c.id for c in pool}
    for arm_rows in r.rows:
        for row in arm_rows:
            unit_id, place = row.get("turnId") or row.get("passageId"), row.get("place")
            if place is not None and unit_id in wanted and unit_id not in r.places:
                r.places[unit_id] = place
    unplaced = [c.id for c in pool if c.id not in r.places and c.kind == "turn"]
    r.places.update(r.details.by_id("recall_turn_places", unplaced))


def read_around(r: Recall) -> None:
    """One read for the strongest units' neighbours and the details of every unit that can be chosen:
    neighbours only push the others down, so the chosen are among the best k before and the neighbours."""
    strongest = r.units()[: r.recipe.neighbours_of]
    r.details.around(strongest, r.units(r.ranking[: r.request.k]))


# ------------------------------------------------------------------------------------------ scores


def fuse(r: Recall) -> None:
    """Reciprocal-rank fusion, in recipe order; session and document hits are not items: they only
    lift the units within them (credit_groups)."""
    for name, rows in zip(r.arms, r.rows):
        fusion.fuse(r.candidates, name, r.recipe.weights[name], rows, r.recipe)
    r.groups = {key: r.candidates.pop(key) for key in [key for key in r.candidates if key[0] in fusion.GROUPS]}
    r.ranking = fusion.ranked(r.candidates.values())


def credit_groups(r: Recall) -> None:
    r.ranking = fusion.credit_groups(r.ranking, r.places, r.groups)


def boost_speakers(r: Recall) -> None:
    r.ranking = fusion.boost_speakers(r.ranking, r.places, r.question.words, r.recipe)


def weigh_groups(r: Recall) -> None:
    r.ranking = fusion.weigh_groups(r.ranking, r.places, r.recipe)


def add_neighbours(r: Recall) -> None:
    r.ranking = fusion.add_neighbours(r.ranking, r.details.neighbours, r.recipe, r.candidates)


def claims_compete(r: Recall) -> None:
    """present.claims_compete, with the premise walk's word on which of the claims in the running
    (the best 2k candidates) a later one replaced. On scores, so before the steps that only order."""
    depth = 2 * r.request.k
    ids = [c.id for c in r.ranking[:depth] if c.kind == "claim"]
    statuses = r.service.walk.status(r.workspace, ids, r.request.scope)
    superseded_by = {
        s.claim_id: [b for reason in s.reasons if reason.depth == 0 for b in reason.by]
        for s in statuses
        if any(reason.depth == 0 for reason in s.reasons)
    }
    r.ranking = present.claims_compete(r.ranking, present.cosines(r.arms, r.rows), superseded_by)


# ------------------------------------------------------------------------------------------ orders


def kinds_compete(r: Recall) -> None:
    """Turns and document passages compete on how well each answers: turns in the order the steps
    before gave them, passages by relevance, and each place a unit held in the best COMPETING_DEPTH k
    goes to whichever kind's next unit is the more relevant (relevance.py). A chat's turns lifted as a block
    by their session and their neighbours no longer stand above the document sentence that answers;
    claims keep their places (they competed on their own cosine, present.claims_compete)."""
    head = r.ranking[: COMPETING_DEPTH * r.request.k]
    units = r.units(head)
    scores = measured(r, units)
    queues = {kind: [c for c in units if c.kind == kind] for kind in fusion.UNITS}
    # A document's lines are found by fewer arms than a chat's turns, and lifted by their document and
    # neighbours more than by what they say: they line up by relevance; turns keep fusion's order, measured
    # on chats to beat any one measure of them.
    queues["passage"].sort(key=lambda c: -scores[(c.kind, c.id)])
    order: list[Candidate] = []
    for c in head:
        if c.kind not in fusion.UNITS:
            order.append(c)
            continue
        waiting = [q for q in queues.values() if q]
        # the more relevant head; on a tie, the one the steps before placed first
        best = max(waiting, key=lambda q: (scores[(q[0].kind, q[0].id)], -head.index(q[0])))
        order.append(best.pop(0))
    r.ranking = order + r.ranking[len(head) :]


def mixes_kinds(r: Recall) -> bool:
    return len({c.kind for c in r.units(r.ranking[: COMPETING_DEPTH * r.request.k])}) > 1


def rerank(r: Recall) -> None:
    reranker = r.service.reranker
    assert reranker is not None
    r.details.of([c for c in r.ranking[: reranker.depth] if c.kind == "turn"])
    r.ranking = reranker.rerank(r.request.query, r.ranking, r.details.turns)


def spread(r: Recall) -> None:
    """fusion.spread_over_groups, with the details of the units it weighs (read for those past the
    best k, which the read around them left out)."""
    r.details.of(r.ranking[: 2 * r.recipe.spread_top])
    spots = {i: (f"session:{t['sessionExternalId']}", t["seq"]) for i, t in r.details.turns.items()}
    spots.update({i: (f"document:{p['documentId']}", p["seq"]) for i, p in r.details.passages.items()})
    r.ranking = fusion.spread_over_groups(r.ranking, spots, r.recipe)


def latest_first(r: Recall) -> None:
    """On a question about the present, each matter's latest statement first (present.py)."""
    depth = max(r.request.k, present.MATTERS_AMONG)
    top = [c.id for c in r.units()[:depth]]
    language = r.service.language
    r.ranking, r.later = present.latest_first(r.ranking, r.details.units(top), depth, language.replaces, language.asks)


# ----------------------------------------------------------------------------------------- renders


def choose(r: Recall) -> None:
    """The best k items: a document line's passages come back as one item (where each passage lies
    is in its details)."""
    r.details.of([c for c in r.ranking[: 2 * r.request.k] if c.kind == "passage"])
    runs = {i: (f"{p['documentId']}:{p['blockStart']}", p["seq"]) for i, p in r.details.passages.items()}
    r.picked = fusion.chosen_items(r.ranking, r.request.k, runs)


def render(r: Recall) -> None:
    chosen = [group[0] for group in r.picked]
    r.details.of(chosen)
    claims = r.details.by_id("recall_claims", [c.id for c in chosen if c.kind == "claim"])
    turns, passages, with_provenance = r.details.turns, r.details.passages, r.request.include_provenance
    r.items = [
        turn_item(group[0], turns[group[0].id], with_provenance)
        if group[0].kind == "turn"
        else passage_item(group[0], [passages[c.id] for c in group], with_provenance)
        if group[0].kind == "passage"
        else claim_item(group[0], claims[group[0].id], with_provenance)
        for group in r.picked
    ]


def weigh_relevance(r: Recall) -> None:
    """Each item's relevance (relevance.py): a run of passages its best passage's; a claim by its
    cosine where a vector arm found it and by the words of its statement. And whether any item
    reaches the floor."""
    units = measured(r, [c for group in r.picked for c in group if c.kind in fusion.UNITS])
    near = present.cosines(r.arms, r.rows)
    for group, item in zip(r.picked, r.items):
        if group[0].kind in fusion.UNITS:
            item.relevance = max(units[(c.kind, c.id)] for c in group)
        else:
            said = relevance.words_said(asked_words(r), r.service.language.content_words(item.text))
            item.relevance = relevance.relevance(near.get(("claim", group[0].id)), said)
    r.nothing_relevant = relevance.nothing_relevant([item.relevance or 0.0 for item in r.items])


def measured(r: Recall, units: Sequence[Candidate]) -> dict[tuple[str, str], float]:
    """Each unit's relevance, measured once a request: its own embedding's cosine to the question
    (the turn and passage arms' query) and the share of the question's content words its text says."""
    todo = [c for c in units if (c.kind, c.id) not in r.relevance]
    rows = r.details.units([c.id for c in todo])
    language = r.service.language
    for c in todo:
        row = rows.get(c.id)
        if row is None:  # not in scope: nothing to measure it by
            r.relevance[(c.kind, c.id)] = relevance.relevance(None, 0.0)
            continue
        cosine = relevance.cosines(r.vectors.units, [row["embedding"]])[0] if r.vectors is not None else None
        said = relevance.words_said(asked_words(r), language.content_words(row["text"] or ""))
        r.relevance[(c.kind, c.id)] = relevance.relevance(cosine, said)
    return {(c.kind, c.id): r.relevance[(c.kind, c.id)] for c in units}


def asked_words(r: Recall) -> set[str]:
    """The question's content words, past the names of the people it asks about (their turns carry
    their names as speakers, not as words)."""
    language = r.service.language
    named = " ".join([*r.question.names, *r.speakers, *r.read_as])
    return language.content_words(r.question.asked) - language.content_words(named)


def note_corrections(r: Recall) -> None:
    """Each turn item a later turn corrects, in the request's time scope ("sorry, it was July, not
    August": episodes/corrections.py), says so and by which (present.note_corrected): the earlier
    words stay in the bundle, marked, as a replaced item does."""
    chosen = [group[0] for group in r.picked]
    scope = r.request.scope
    rows = r.details.graph.read_list(
        "recall_turn_corrections",
        workspace=r.workspace,
        ids=[c.id for c in chosen if c.kind == "turn"],
        **scope.params(),
    )
    corrections = {row["id"]: row for row in rows}
    for c, item in zip(chosen, r.items):
        if c.kind == "turn" and c.id in corrections:
            present.note_corrected(item, corrections[c.id])


def annotate(r: Recall) -> None:
    """What the items say of each other and of the memory: a later statement that replaced one, a
    document claim's sentence, each claim's state by the premise walk."""
    chosen = [group[0] for group in r.picked]
    for c, item in zip(chosen, r.items):
        if c.id in r.later:
            present.note_replaced(item, r.later[c.id])
    sources = r.details.by_id("recall_claim_passages", [c.id for c in chosen if c.kind == "claim"])
    for c, item in zip(chosen, r.items):
        if c.kind == "claim" and c.id in sources:
            present.with_sentence(item, sources[c.id])
    r.service.attach_states(r.workspace, chosen, r.items, r.request.scope, r.request.include_provenance)


def trim(r: Recall) -> None:
    assert r.request.max_tokens is not None
    r.items = trim_to_tokens(r.items, r.request.max_tokens)


def per_arm(r: Recall) -> int:
    return max(r.recipe.per_arm, r.request.k)


# ------------------------------------------------------------------------------------ the pipeline


@dataclass(frozen=True)
class Stage:
    name: str
    # reads: the graph or the model; scores: candidates' scores, then sorts them; orders: moves
    # candidates, no score changed (so no later sort may undo it); renders: the items
    does: Literal["reads", "scores", "orders", "renders"]
    run: Callable[[Recall], None]
    when: Callable[[Recall], bool] = lambda r: True


PIPELINE: tuple[Stage, ...] = (
    Stage("speakers", "reads", read_speakers, when=lambda r: bool(r.question.names)),
    Stage("encode", "reads", encode, when=lambda r: r.uses_vector),
    Stage("addressed", "reads", read_addressed, when=lambda r: r.addressed is not None),
    Stage("arms", "reads", search),
    Stage("own writes", "reads", search_own_writes),
    Stage("identity", "reads", follow_identity),
    Stage("fuse", "scores", fuse),
    Stage("places", "reads", read_places),
    Stage("groups", "scores", credit_groups, when=lambda r: bool(r.groups)),
    Stage("speakers' turns", "scores", boost_speakers, when=lambda r: r.recipe.speaker_boost != 1.0),
    Stage("sessions", "scores", weigh_groups, when=lambda r: bool(r.recipe.session_share)),
    Stage("around", "reads", read_around),
    Stage("neighbours", "scores", add_neighbours, when=lambda r: bool(r.recipe.neighbours_of)),
    Stage(
        "claims", "scores", claims_compete, when=lambda r: any(c.kind == "claim" for c in r.ranking[: 2 * r.request.k])
    ),
    Stage("kinds compete", "orders", kinds_compete, when=mixes_kinds),
    Stage("rerank", "orders", rerank, when=lambda r: r.service.reranker is not None and r.request.rerank),
    Stage("spread", "orders", spread, when=lambda r: bool(r.recipe.spread_top)),
    Stage("latest first", "orders", latest_first, when=lambda r: r.recipe.latest_first),
    Stage("choose", "renders", choose),
    Stage("render", "renders", render),
    Stage("relevance", "renders", weigh_relevance),
    Stage("corrections", "renders", note_corrections, when=lambda r: any(g[0].kind == "turn" for g in r.picked)),
    Stage("annotate", "renders", annotate),
    Stage("trim", "renders", trim, when=lambda r: r.request.max_tokens is not None),
)


def blend(parts: Sequence[tuple[Sequence[float], float]]) -> list[float]:
    """The weighted sum of vectors, normalised to unit length (the vector indexes rank by cosine)."""
    summed = [sum(weight * vector[i] for vector, weight in parts) for i in range(len(parts[0][0]))]
    norm = math.sqrt(sum(x * x for x in summed))
    return [x / norm for x in summed]


def identity_words(question: str, linked: Mapping[str, Sequence[str]]) -> str:
    """The words of keys linked to those the question names that the question does not hold already."""
    held = {w.lower() for w in re.findall(r"\w+", question)}
    words = [w for keys in linked.values() for key in keys for w in re.findall(r"\w+", key) if w.lower() not in held]
    return " ".join(dict.fromkeys(words))


def claim_state(status: ClaimStatus) -> str:
    """A claim's state in the bundle, from its premise walk: `superseded` when the claim itself no
    longer holds in scope (a later value of a single-valued predicate, a SUPERSEDES link, its valid
    time over), `potentially_stale` when a premise it was derived from no longer holds, `contested`
    when a claim held in scope contradicts it, `time_unknown` when its time is words donto could not
    resolve (nothing says whether it holds in scope), else `current`."""
    if any(r.depth == 0 for r in status.reasons):
        return "superseded"
    if status.reasons:
        return "potentially_stale"
    if any(c.claim_id == status.claim_id for c in status.contested):
        return "contested"
    return "time_unknown" if status.time_unknown else "current"
