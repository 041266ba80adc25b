"""Recall: a question in, a small dated evidence bundle out — no LLM involved.

Each arm (cypher/recall_*.cypher) ranks turns, passages or claims; hits map to the turn they
belong to (a claim's hit promotes the turns its evidence cites); ranks fuse by reciprocal-rank
fusion with the weights of the query's recipe; a turn gains from its session's full-text rank,
from being said by someone the query names, and from its session's other strong turns; the ±1
neighbours of the strongest turns join; the best `k` become items, trimmed to `max_tokens`."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, time as dtime, timedelta, timezone

from app.embedding.backlog import EmbeddingBacklog
from app.embedding.encoder import Encoder
from app.episodes.text import resolve_time_expressions
from app.errors import InvalidInput
from app.graph.client import GraphClient
from app.recall.arms import ARM_NAMES, ARMS, Recipe, route
from app.recall.lucene import lucene_query
from app.timeutil import to_native, utc_now
from app.walk.service import WalkService

MAX_CANDIDATES = 20_000
DRAIN_BEFORE_RECALL = 2048  # claims a recall embeds itself before searching


@dataclass
class Candidate:
    kind: str  # "turn" | "claim" | "session"
    id: str
    score: float = 0.0
    arms: dict[str, float] = field(default_factory=dict)
    claim_ids: list[str] = field(default_factory=list)

    @property
    def source(self) -> str:
        return max(self.arms, key=self.arms.get)


@dataclass(frozen=True)
class RecallRequest:
    query: str
    k: int = 20
    valid_at: datetime | None = None
    known_at: datetime | None = None
    arms: tuple[str, ...] | None = None
    max_tokens: int | None = None
    include_provenance: bool = False


class RecallService:
    def __init__(self, graph: GraphClient, encoder: Encoder, walk: WalkService, backlog: EmbeddingBacklog):
        self.graph = graph
        self.encoder = encoder
        self.walk = walk
        self.backlog = backlog

    def recall(self, workspace: str, request: RecallRequest) -> tuple[list[dict], float]:
        started = time.perf_counter()
        recipe = route(request.query)
        if request.arms is not None:
            for i, name in enumerate(request.arms):
                if name not in ARM_NAMES:
                    raise InvalidInput(f"unknown arm; arms are {', '.join(ARM_NAMES)}", field=f"arms[{i}]")
            recipe = recipe.only(list(request.arms))
        now = utc_now()
        scope = {"workspace": workspace, "valid_at": request.valid_at or now, "known_at": request.known_at or now}
        per_arm = max(recipe.per_arm, request.k)

        holds = self.graph.read_query("recall_workspace_holds", workspace=workspace)[0]
        names = [name for name in recipe.weights if ARMS[name].holds is None or holds[ARMS[name].holds]]
        if "claim_vector" in names:
            self.backlog.drain(workspace, max_claims=DRAIN_BEFORE_RECALL)  # read our own writes
        candidates: dict[tuple[str, str], Candidate] = {}
        vector = self.encoder.encode_one(request.query) if any(ARMS[a].uses_vector for a in names) else None
        with ThreadPoolExecutor(max_workers=max(1, len(names))) as executor:  # arms are independent reads
            found = list(executor.map(lambda name: self._run_arm(name, request.query, vector, per_arm, scope), names))
        for name, rows in zip(names, found):  # fused in recipe order, so ties break the same way every time
            self._fuse(candidates, name, recipe.weights[name], rows, recipe)
        # Session hits are not items: they only lift the turns of their session (below).
        sessions = {key[1]: candidates.pop(key) for key in [key for key in candidates if key[0] == "session"]}
        ranked = sorted(candidates.values(), key=lambda c: -c.score)
        pool = request.k + recipe.neighbours_of + (recipe.session_pool if recipe.session_share else 0)
        turns = self._turn_details(workspace, [c.id for c in ranked if c.kind == "turn"][:pool])
        if sessions:
            ranked = self._credit_sessions(ranked, turns, sessions)
        if recipe.speaker_boost != 1.0:
            ranked = self._boost_speakers(ranked, turns, request.query, recipe)
        if recipe.session_share:
            ranked = self._weigh_sessions(ranked, turns, recipe)
        if recipe.neighbours_of:
            ranked = self._add_neighbours(ranked, turns, recipe, candidates)
        missing = [c.id for c in ranked[: request.k] if c.kind == "turn" and c.id not in turns]
        turns.update(self._turn_details(workspace, missing))
        chosen = ranked[: request.k]
        claims = self._claim_details(workspace, [c.id for c in chosen if c.kind == "claim"])
        items = [self._item(c, turns, claims) for c in chosen]
        if request.include_provenance:
            self._attach_status(workspace, chosen, items, scope)
        if request.max_tokens is not None:
            items = trim_to_tokens(items, request.max_tokens)
        return items, (time.perf_counter() - started) * 1000

    # -- arms ---------------------------------------------------------------------------------

    def _run_arm(self, name: str, query: str, vector, limit: int, scope: dict) -> list[dict]:
        arm = ARMS[name]
        if arm.needs_time:
            window = time_window(query, scope["known_at"])
            if window is None:
                return []
            return self.graph.read_query(arm.query, vector=vector, limit=limit, **window, **scope)
        if not arm.uses_vector:
            lucene = lucene_query(query)
            if lucene is None:
                return []
            return self.graph.read_query(arm.query, lucene=lucene, candidates=limit * 4, limit=limit, **scope)
        # The vector index spans all workspaces: over-fetch, and widen while the filter starves us.
        candidates = max(limit * 4, 200)
        while True:
            rows = self.graph.read_query(arm.query, vector=vector, candidates=candidates, limit=limit, **scope)
            if len(rows) >= limit or candidates >= MAX_CANDIDATES:
                return rows
            candidates *= 8

    @staticmethod
    def _fuse(candidates: dict, arm: str, weight: float, rows: list[dict], recipe: Recipe) -> None:
        seen: set[tuple[str, str]] = set()
        rank = 0
        for row in rows:
            claim_id = row.get("claimId")
            if row.get("sessionExternalId"):
                keys = [("session", row["sessionExternalId"])]
            elif row.get("turnId"):
                keys = [("turn", row["turnId"])]
            elif row.get("turnIds"):
                keys = [("turn", t) for t in row["turnIds"]]  # a claim promotes the turns it cites
            else:
                keys = [("claim", claim_id)]
            fresh = [k for k in keys if k not in seen]
            if not fresh:
                continue
            rank += 1
            share = weight / (recipe.rrf_k + rank)
            if row.get("dated"):
                share *= recipe.dated_boost
            for key in fresh:
                seen.add(key)
                candidate = candidates.setdefault(key, Candidate(*key))
                candidate.score += share
                candidate.arms[arm] = candidate.arms.get(arm, 0) + share
                if claim_id and claim_id not in candidate.claim_ids:
                    candidate.claim_ids.append(claim_id)

    @staticmethod
    def _weigh_sessions(ranked: list[Candidate], turns: dict, recipe: Recipe) -> list[Candidate]:
        """Evidence for a question tends to sit together in one conversation: a turn in a session
        whose best turns also scored well gains a share of that session's strength."""
        scores: dict[str, list[float]] = {}
        for c in ranked:
            if c.kind == "turn" and c.id in turns:
                scores.setdefault(turns[c.id]["sessionExternalId"], []).append(c.score)
        strength = {s: sum(sorted(v, reverse=True)[: recipe.session_depth]) for s, v in scores.items()}
        for c in ranked:
            if c.kind == "turn" and c.id in turns:
                c.score += recipe.session_share * strength[turns[c.id]["sessionExternalId"]]
        return sorted(ranked, key=lambda c: -c.score)

    @staticmethod
    def _credit_sessions(ranked: list[Candidate], turns: dict, sessions: dict[str, Candidate]) -> list[Candidate]:
        """A turn gains the fused share of its session's full-text rank: the words of a question
        are often spread over several turns of the one conversation that answers it."""
        for c in ranked:
            if c.kind == "turn" and c.id in turns:
                hit = sessions.get(turns[c.id]["sessionExternalId"])
                if hit:  # the session arm lifts the turn; the arm that found it stays its source
                    c.score += hit.score
        return sorted(ranked, key=lambda c: -c.score)

    @staticmethod
    def _boost_speakers(ranked: list[Candidate], turns: dict, query: str, recipe: Recipe) -> list[Candidate]:
        """Questions name the person they are about ("What does Melanie paint?"); what she says
        rarely names her. A turn said by someone the query names (any word of the speaker's name
        longer than two letters) has its score multiplied."""
        words = {w.lower() for w in re.findall(r"\w+", query)}
        for c in ranked:
            if c.kind == "turn" and c.id in turns:
                names = {w.lower() for w in re.findall(r"\w+", turns[c.id]["speaker"] or "") if len(w) > 2}
                if names & words:
                    c.score *= recipe.speaker_boost
        return sorted(ranked, key=lambda c: -c.score)

    @staticmethod
    def _add_neighbours(ranked: list[Candidate], turns: dict, recipe: Recipe, candidates: dict) -> list[Candidate]:
        strongest = [c for c in ranked if c.kind == "turn"][: recipe.neighbours_of]
        for hit in strongest:
            detail = turns.get(hit.id)
            if not detail:
                continue
            for neighbour in (detail["previousId"], detail["nextId"]):
                if neighbour and ("turn", neighbour) not in candidates:
                    c = Candidate("turn", neighbour)
                    c.score = hit.score * recipe.neighbour_share
                    c.arms["neighbours"] = c.score
                    candidates[("turn", neighbour)] = c
        return sorted(candidates.values(), key=lambda c: -c.score)

    # -- items --------------------------------------------------------------------------------

    def _turn_details(self, workspace: str, ids: Sequence[str]) -> dict[str, dict]:
        if not ids:
            return {}
        return {r["id"]: r for r in self.graph.read_query("recall_turns", workspace=workspace, ids=list(ids))}

    def _claim_details(self, workspace: str, ids: Sequence[str]) -> dict[str, dict]:
        if not ids:
            return {}
        return {r["id"]: r for r in self.graph.read_query("recall_claims", workspace=workspace, ids=list(ids))}

    @staticmethod
    def _item(c: Candidate, turns: dict, claims: dict) -> dict:
        if c.kind == "turn":
            t = turns[c.id]
            tags = [date_label(to_native(t["occurredAt"]))] if t["occurredAt"] else []
            tags += [f"{d['phrase']}: {d['tag']}" for d in t["dates"] if d["phrase"]]
            prefix = f"[{'; '.join(tags)}] " if tags else ""
            item = {"subject": t["speaker"], "predicate": "said", "object": None,
                    "text": prefix + t["text"], "source": c.source}
            item["_provenance"] = {"turn_ids": [t["externalId"]], "session_id": t["sessionExternalId"],
                                   "claim_ids": list(c.claim_ids), "status": None}
            return item
        claim = claims[c.id]
        start = to_native(claim["validFrom"])
        quotes = "".join(f' "{q}"' for q in claim["quotes"])
        prefix = f"[{date_label(start)}] " if start else ""
        item = {"subject": claim["subject"], "predicate": claim["predicate"], "object": claim["object"],
                "text": f"{prefix}{claim['subject']} {claim['predicate']} {claim['object']}{quotes}",
                "source": c.source}
        item["_provenance"] = {"turn_ids": [], "session_id": None, "claim_ids": [c.id], "status": None}
        return item

    def _attach_status(self, workspace: str, chosen: list[Candidate], items: list[dict], scope: dict) -> None:
        claim_ids = list(dict.fromkeys(i for c in chosen for i in c.claim_ids))
        statuses = {}
        if claim_ids:
            found = self.walk.status(workspace, claim_ids, scope["valid_at"], scope["known_at"])
            statuses = {s.claim_id: s.status for s in found}
        for item in items:
            p = item["_provenance"]
            if p["claim_ids"]:
                worst = [statuses.get(i) for i in p["claim_ids"]]
                p["status"] = "POTENTIALLY_STALE" if "POTENTIALLY_STALE" in worst else "UNVERIFIED"
            item["provenance"] = item.pop("_provenance")


def time_window(query: str, now: datetime) -> dict | None:
    """The time a query names ("in May 2023", "on 8 May, 2023", "last week"), as the parameters of
    the time-window arm; a day gets a day's slack either side for time zones."""
    mentions = resolve_time_expressions(query, now)
    if not mentions:
        return None
    first = mentions[0]
    slack = timedelta(days=1 if first.granularity == "day" else 0)
    start, end = first.date_from - slack, first.date_to + slack
    return {
        "date_from": start, "date_to": end,
        "window_from": datetime.combine(start, dtime.min, tzinfo=timezone.utc),
        "window_to": datetime.combine(end + timedelta(days=1), dtime.min, tzinfo=timezone.utc),
    }


def date_label(moment: datetime) -> str:
    return f"{moment.day} {moment.strftime('%B %Y')}"


def estimate_tokens(item: dict) -> int:
    """About four characters a token, counted over what the agent reads (the item as JSON)."""
    visible = {k: v for k, v in item.items() if not k.startswith("_")}
    return max(1, len(json.dumps(visible, ensure_ascii=False)) // 4)


def trim_to_tokens(items: list[dict], budget: int) -> list[dict]:
    """Keep the best-ranked items whose running total fits the budget."""
    kept, used = [], 0
    for item in items:
        cost = estimate_tokens(item)
        if used + cost > budget:
            break
        kept.append(item)
        used += cost
    return kept


def public(items: list[dict]) -> list[dict]:
    return [{k: v for k, v in item.items() if not k.startswith("_")} for item in items]
