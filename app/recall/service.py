"""Recall: a question in, a small dated evidence bundle out — no LLM involved.

The steps, each in its own module: the arms (arms.py) rank turns, passages, sessions or claims,
all in one statement; fusion (fusion.py, pure) merges their rankings by reciprocal rank with the weights
of the question's recipe (recipes.py), then a turn gains from its session's full-text rank, from
being said by someone the question names and from its session's other strong turns, and the ±1
neighbours of the strongest turns join; an optional reranker (rerank.py) re-scores the top turns;
rendering (render.py) makes the best `k` into items, trimmed to `max_tokens`. This module runs those
steps in order and fetches what they need."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from donto.embedding.encoder import Encoder
from donto.errors import IndexUnavailable, InvalidInput
from donto.graph.client import GraphClient
from donto.jobs.claim_embeddings import ClaimEmbeddings
from donto.recall import fusion, present
from donto.recall.addressed import ADDRESSED_CANDIDATES, addressed_as, impersonal, question_names, with_labels
from donto.recall.arms import ARM_NAMES, ARMS, QueryVectors, run_arms
from donto.recall.fusion import Candidate
from donto.recall.recipes import Recipe, asked_for, route
from donto.recall.render import RecallItem, claim_item, passage_item, trim_to_tokens, turn_item
from donto.recall.rerank import Reranker
from donto.temporal.scope import TimeScope
from donto.walk.service import POTENTIALLY_STALE, UNVERIFIED, ClaimStatus, WalkService

DRAIN_BEFORE_RECALL = 2048  # claims a recall embeds itself before searching
# Threads that read whom a question's names address while the question is encoded: one a recall in
# flight (a recall past this many waits for one; the API runs 40 requests' work at once).
BESIDE_ENCODING = 8
# The arms that find claims or document passages only once the embedder has been by.
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


@dataclass(frozen=True)
class RecallResult:
    items: list[RecallItem]
    took_ms: float
    arms_unavailable: tuple[str, ...] = ()  # left out while their index is built or rebuilt: a partial bundle
    names_read_as: Mapping[str, str] = field(default_factory=dict)  # a name the chat calls a speaker -> their label


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
    ):
        self.graph = graph
        self.encoder = encoder
        self.walk = walk
        self.claim_embeddings = claim_embeddings
        self.arm_weights = check_arm_weights(arm_weights or {})
        self.reranker = reranker
        # Not shut down with the Memory: a recall still running then fails on the closed driver, as
        # every other read does. Idle threads end with the executor (or at exit).
        self._beside = ThreadPoolExecutor(BESIDE_ENCODING, thread_name_prefix="donto-recall-names")

    def recall(self, workspace: str, request: RecallRequest) -> RecallResult:
        started = time.perf_counter()
        factors = self.arm_weights if request.arm_weights is None else check_arm_weights(request.arm_weights)
        recipe = route(request.query, now=request.scope.known_at)
        if request.arms is not None:
            for i, name in enumerate(request.arms):
                if name not in ARM_NAMES:
                    raise InvalidInput(f"unknown arm; arms are {', '.join(ARM_NAMES)}", field=f"arms[{i}]")
            recipe = recipe.only(list(request.arms))
        # Named, then weighed: a factor of 0 keeps an arm off even where the request names it.
        recipe = recipe.weighed(factors)
        per_arm = max(recipe.per_arm, request.k)

        # An arm weighed to 0 is not run at all.
        names = [name for name, weight in recipe.weights.items() if weight > 0]
        arms = [ARMS[name] for name in names]
        uses_vector = any(arm.uses_vector for arm in arms)
        question, scope = request.query, request.scope
        # Whom the question's names address is read while the question is encoded: one waits on the
        # model's threads, the other on Neo4j's socket.
        addressed: Future[dict[str, str]] | None = None
        spoken: set[str] = set()  # the question's names that are speakers: the vector arms ask without them
        if named := question_names(question):
            # Read first (a millisecond alone; beside the reading of addresses, four).
            if uses_vector:
                spoken = self._speakers_named(workspace, named, scope)
            addressed = self._beside.submit(self._addressed, workspace, named, scope)
        vectors = self._query_vectors(question, recipe, spoken) if uses_vector else None
        read_as = addressed.result() if addressed is not None else {}
        if read_as:
            # The question calls someone by the name the chat addressed them by, not the label their
            # turns carry: it is asked by the label (addressed.py), which the vector arms leave out too.
            question = with_labels(question, read_as)
            spoken |= set(read_as.values())
            vectors = self._query_vectors(question, recipe, spoken) if uses_vector else None
        found = run_arms(self.graph, arms, workspace, question, vectors, per_arm, scope)
        # Read our own writes: claims and document passages the embedder has not reached yet are not
        # in the vector indexes (nor claims in the full-text one, :Searchable); they are embedded now,
        # and the arms that find them asked again.
        embedded_arms = [name for name in EMBEDDED_ARMS if name in names and name not in found.unavailable]
        if (
            embedded_arms
            and (found.holds["claims"] or found.holds["documents"])
            and self.claim_embeddings.drain(workspace, max_claims=DRAIN_BEFORE_RECALL)
        ):
            again = run_arms(
                self.graph, [ARMS[n] for n in embedded_arms], workspace, question, vectors, per_arm, scope, False
            )
            for name, rows in zip(embedded_arms, again.rows):
                found.rows[names.index(name)] = rows
        # Identity: keys linked (SAME_AS) to those the question names count as named too. The full-text
        # arm is asked again with their words, and the speakers' step reads them.
        if also := identity_words(question, found.linked):
            question = f"{question} {also}"
            lexical = [n for n in ("fulltext",) if n in names and n not in found.unavailable]
            if lexical:
                again = run_arms(
                    self.graph, [ARMS[n] for n in lexical], workspace, question, None, per_arm, scope, False
                )
                for name, rows in zip(lexical, again.rows):
                    found.rows[names.index(name)] = rows
        candidates: fusion.Candidates = {}
        for name, rows in zip(names, found.rows):  # fused in recipe order, so ties break the same way every time
            fusion.fuse(candidates, name, recipe.weights[name], rows, recipe)
        # Session and document hits are not items: they only lift the units within them (below).
        groups = {key: candidates.pop(key) for key in [key for key in candidates if key[0] in fusion.GROUPS]}
        ranking = fusion.ranked(candidates.values())
        pool = request.k + recipe.neighbours_of + (recipe.session_pool if recipe.session_share else 0)
        # Fusion weighs a pool of units by where they sit; the arms said so for the units they found.
        pool_units = [c for c in ranking if c.kind in fusion.UNITS][:pool]
        places = self._places(workspace, pool_units, found.rows)
        if groups:
            ranking = fusion.credit_groups(ranking, places, groups)
        if recipe.speaker_boost != 1.0:
            ranking = fusion.boost_speakers(ranking, places, question, recipe)
        if recipe.session_share:
            ranking = fusion.weigh_groups(ranking, places, recipe)
        # One read for the strongest units' neighbours and the details of every unit that can be chosen
        # (a statement for turns, one for document passages, each only when there are some): neighbours
        # only push the others down, so the chosen are among the best k before and the neighbours.
        strongest = [c for c in ranking if c.kind in fusion.UNITS][: recipe.neighbours_of]
        best = [c for c in ranking[: request.k] if c.kind in fusion.UNITS]
        neighbours, turns, passages = self._around(workspace, strongest, best, scope)
        if recipe.neighbours_of:
            ranking = fusion.add_neighbours(ranking, neighbours, recipe, candidates)
        # Claims placed by how near they are (present.py): on scores, so before the steps that only
        # reorder (the reranker's, the spreading's), which a sort by score would undo.
        if any(c.kind == "claim" for c in ranking[: 2 * request.k]):
            ranking = self._claims_compete(workspace, ranking, names, found.rows, scope, 2 * request.k)
        if self.reranker is not None and request.rerank:
            top = [c.id for c in ranking[: self.reranker.depth] if c.kind == "turn" and c.id not in turns]
            turns.update(self._by_id(workspace, "recall_turns", top))
            ranking = self.reranker.rerank(request.query, ranking, turns)

        # The first items from different sessions (route leaves them as fused after one occasion).
        if recipe.spread_top:
            ranking = self._spread(workspace, ranking, recipe, turns, passages)

        # On a question about the present, each matter's latest statement first (present.py).
        later: dict[str, present.Later] = {}
        if recipe.latest_first:
            depth = max(request.k, present.MATTERS_AMONG)
            top = [c.id for c in ranking if c.kind in fusion.UNITS][:depth]
            ranking, later = present.latest_first(ranking, self._by_id(workspace, "recall_present_units", top), depth)

        # A document line's passages come back as one item: where each passage lies is in its details.
        unread = [c.id for c in ranking[: 2 * request.k] if c.kind == "passage" and c.id not in passages]
        passages.update(self._passages(workspace, unread))
        runs = {i: (f"{p['documentId']}:{p['blockStart']}", p["seq"]) for i, p in passages.items()}
        picked = fusion.chosen_items(ranking, request.k, runs)
        chosen = [item[0] for item in picked]
        turns.update(
            self._by_id(workspace, "recall_turns", [c.id for c in chosen if c.kind == "turn" and c.id not in turns])
        )
        passages.update(
            self._passages(workspace, [c.id for c in chosen if c.kind == "passage" and c.id not in passages])
        )
        claims = self._by_id(workspace, "recall_claims", [c.id for c in chosen if c.kind == "claim"])
        with_provenance = request.include_provenance
        items = [
            turn_item(group[0], turns[group[0].id], with_provenance)
            if group[0].kind == "turn"
            else passage_item(group[0], [passages[c.id] for c in group], with_provenance)
            if group[0].kind == "passage"
            else claim_item(group[0], claims[group[0].id], with_provenance)
            for group in picked
        ]
        for group, item in zip(picked, items):
            if group[0].id in later:
                present.note_replaced(item, later[group[0].id])
        sources = self._by_id(workspace, "recall_claim_passages", [c.id for c in chosen if c.kind == "claim"])
        for c, item in zip(chosen, items):
            if c.kind == "claim" and c.id in sources:
                present.with_sentence(item, sources[c.id])
        self._attach_states(workspace, chosen, items, request.scope, with_provenance)
        if request.max_tokens is not None:
            items = trim_to_tokens(items, request.max_tokens)
        return RecallResult(items, (time.perf_counter() - started) * 1000, found.unavailable, read_as)

    def _addressed(self, workspace: str, names: list[str], scope: TimeScope) -> dict[str, str]:
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
        return addressed_as(rows)

    def _speakers_named(self, workspace: str, names: list[str], scope: TimeScope) -> set[str]:
        """Which of the question's `names` are speakers in the workspace (recall_speakers_named); none
        while the full-text index it reads is being built."""
        try:
            row = self.graph.read_row(
                "recall_speakers_named", workspace=workspace, speaker_names=names, known_at=scope.known_at
            )
        except IndexUnavailable:
            return set()
        return set(row["speakers"])

    def _query_vectors(self, question: str, recipe: Recipe, speakers: set[str]) -> QueryVectors:
        """The vector arms' queries (arms.QueryVectors), one call of the encoder for all they need.
        Turns and passages: the question with the speakers it names said as "they", the question as
        asked beside it at `recipe.named_weight` (the name still says whose turns matter); claims:
        the question as asked. Where the question asks after a kind of thing ("What animals…"), the
        kind's encoding is added to both at `asked_for_weight` (of the first vector's), so that a
        turn naming one ("a stray cat followed me") comes near though it shares none of the
        question's other words."""
        asked = impersonal(question, speakers)
        kind = asked_for(question) if recipe.asked_for_weight else None
        texts = list(dict.fromkeys([asked, question, *([kind] if kind else [])]))
        if len(texts) == 1:
            vector = self.encoder.encode_query(question)
            return QueryVectors(vector, vector)
        encoded = dict(zip(texts, self.encoder.encode_queries(texts)))
        the_kind = [(encoded[kind], recipe.asked_for_weight)] if kind else []
        claims = blend([(encoded[question], 1.0), *the_kind])
        if asked == question:
            return QueryVectors(claims, claims)
        return QueryVectors(blend([(encoded[asked], 1.0), (encoded[question], recipe.named_weight), *the_kind]), claims)

    def _claims_compete(
        self,
        workspace: str,
        ranking: list[Candidate],
        names: Sequence[str],
        rows: Sequence[Sequence[Mapping[str, Any]]],
        scope: TimeScope,
        depth: int,
    ) -> list[Candidate]:
        """present.claims_compete, with the premise walk's word on which of the claims in the running
        (the best `depth` candidates) a later one replaced."""
        ids = [c.id for c in ranking[:depth] if c.kind == "claim"]
        statuses = self.walk.status(workspace, ids, scope)
        superseded_by = {
            s.claim_id: [b for r in s.reasons if r.depth == 0 for b in r.by]
            for s in statuses
            if any(r.depth == 0 for r in s.reasons)
        }
        return present.claims_compete(ranking, present.cosines(names, rows), superseded_by)

    def _places(
        self, workspace: str, pool: Sequence[Candidate], rows: Sequence[Sequence[Mapping[str, Any]]]
    ) -> dict[str, dict[str, Any]]:
        """Each pool unit's session and speaker, or document: from the arms' rows where one found the
        unit itself, read for the rest (turns only a claim's evidence cites)."""
        wanted = {c.id for c in pool}
        places: dict[str, dict[str, Any]] = {}
        for arm_rows in rows:
            for row in arm_rows:
                unit_id, place = row.get("turnId") or row.get("passageId"), row.get("place")
                if place is not None and unit_id in wanted and unit_id not in places:
                    places[unit_id] = place
        unplaced = [c.id for c in pool if c.id not in places and c.kind == "turn"]
        places.update(self._by_id(workspace, "recall_turn_places", unplaced))
        return places

    def _spread(
        self,
        workspace: str,
        ranking: list[Candidate],
        recipe: Recipe,
        turns: dict[str, dict[str, Any]],
        passages: dict[str, dict[str, Any]],
    ) -> list[Candidate]:
        """fusion.spread_over_groups, with the details of the units it weighs (read here for those
        past the best k, which the last read left out), kept in `turns` and `passages`."""
        window = ranking[: 2 * recipe.spread_top]
        turns.update(
            self._by_id(workspace, "recall_turns", [c.id for c in window if c.kind == "turn" and c.id not in turns])
        )
        passages.update(
            self._passages(workspace, [c.id for c in window if c.kind == "passage" and c.id not in passages])
        )
        spots = {i: (f"session:{t['sessionExternalId']}", t["seq"]) for i, t in turns.items()}
        spots.update({i: (f"document:{p['documentId']}", p["seq"]) for i, p in passages.items()})
        return fusion.spread_over_groups(ranking, spots, recipe)

    def _passages(self, workspace: str, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Document passages' details by id (recall_passages_around, asked for no neighbours)."""
        if not ids:
            return {}
        around = self.graph.read_row("recall_passages_around", workspace=workspace, strongest=[], ids=list(ids))
        return {p["id"]: p for p in around["passages"]}

    def _around(
        self, workspace: str, strongest: Sequence[Candidate], best: Sequence[Candidate], scope: TimeScope
    ) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
        """The strongest units' neighbours ({id: {previousId, nextId}}), and the details of the best
        units and those neighbours: turns by id, document passages by id."""
        neighbours: dict[str, dict[str, Any]] = {}
        turns: dict[str, dict[str, Any]] = {}
        passages: dict[str, dict[str, Any]] = {}
        strong, ids = [c.id for c in strongest if c.kind == "turn"], [c.id for c in best if c.kind == "turn"]
        if strong or ids:
            around = self.graph.read_row(
                "recall_turns_around", workspace=workspace, strongest=strong, ids=ids, **scope.params()
            )
            neighbours.update({n["id"]: n for n in around["neighbours"]})
            turns = {t["id"]: t for t in around["turns"]}
        strong, ids = [c.id for c in strongest if c.kind == "passage"], [c.id for c in best if c.kind == "passage"]
        if strong or ids:  # a document passage's neighbours are in its revision, so in the hit's time scope
            around = self.graph.read_row("recall_passages_around", workspace=workspace, strongest=strong, ids=ids)
            neighbours.update({n["id"]: n for n in around["neighbours"]})
            passages = {p["id"]: p for p in around["passages"]}
        return neighbours, turns, passages

    def _by_id(self, workspace: str, query: str, ids: Sequence[str], **params: Any) -> dict[str, dict[str, Any]]:
        """The rows of `query` (recall_turns, recall_turn_places, recall_claims) for `ids`, by id."""
        if not ids:
            return {}
        return {r["id"]: r for r in self.graph.read_list(query, workspace=workspace, ids=list(ids), **params)}

    def _attach_states(
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
