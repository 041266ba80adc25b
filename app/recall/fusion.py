"""Fusion, pure: the arms' rankings in, one scored list of candidates out. No graph, no model;
tests/unit/test_fusion.py runs it on hand-made rankings.

An arm's row names what it found: `turnId` (a turn or a passage of it), `turnIds` (a claim's hit
promotes the turns its evidence cites; `claimId` names the claim), `sessionExternalId` (a whole
session), or only `claimId` (a claim with no turn behind it); `dated` marks a passage whose date
resolved. The later steps read each turn's place in the conversation from `turns`: a mapping of
turn id to {sessionExternalId, speaker} (the sessions' and speakers' steps) or {previousId, nextId}
(the neighbours')."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from donto.recall.recipes import Recipe

Places = Mapping[str, Mapping[str, Any]]
UNITS = ("turn", "passage")  # what a bundle's text items are made of
GROUPS = ("session", "document")  # what holds units: their hits only lift the units within


def group_of(place: Mapping[str, Any]) -> tuple[str, str]:
    """The session or document a unit belongs to, as the key of that group's own hits."""
    if place.get("sessionExternalId") is not None:
        return ("session", place["sessionExternalId"])
    return ("document", place["documentId"])


@dataclass
class Candidate:
    kind: str  # "turn" | "passage" (of a document) | "claim" | "session" | "document"
    id: str
    score: float = 0.0
    arms: dict[str, float] = field(default_factory=dict)  # each arm's share of the score
    claim_ids: list[str] = field(default_factory=list)  # claims whose hits lifted it

    @property
    def source(self) -> str:
        """The arm that contributed most."""
        return max(self.arms, key=lambda arm: self.arms[arm])


Candidates = dict[tuple[str, str], Candidate]


def fuse(candidates: Candidates, arm: str, weight: float, rows: Iterable[Mapping[str, Any]], recipe: Recipe) -> None:
    """Reciprocal-rank fusion of one arm's ranking into `candidates`: the r-th distinct thing the
    arm found gains weight / (rrf_k + r), a dated passage's turn times the recipe's dated boost."""
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
        elif row.get("passageId"):
            keys = [("passage", row["passageId"])]
        elif row.get("documentId"):
            keys = [("document", row["documentId"])]
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


def ranked(candidates: Iterable[Candidate]) -> list[Candidate]:
    """Best first; ties keep their order, so equal inputs rank the same way every time."""
    return sorted(candidates, key=lambda c: -c.score)


def credit_groups(
    ranking: list[Candidate], places: Places, groups: Mapping[tuple[str, str], Candidate]
) -> list[Candidate]:
    """A unit gains the fused share of its session's or document's full-text rank: the words of a
    question are often spread over several turns of the one conversation (or passages of the one
    document) that answers it."""
    for c in ranking:
        if c.kind in UNITS and c.id in places:
            hit = groups.get(group_of(places[c.id]))
            if hit:  # the group's arm lifts the unit; the arm that found it stays its source
                c.score += hit.score
    return ranked(ranking)


def boost_speakers(ranking: list[Candidate], places: Places, words: Collection[str], recipe: Recipe) -> list[Candidate]:
    """Questions name the person they are about ("What does Melanie paint?"); what she says
    rarely names her. A turn (or a transcript's passage) said by someone the question names (any
    word of the speaker's name longer than two letters, among the question's lower-case `words`) has
    its score multiplied."""
    for c in ranking:
        if c.kind in UNITS and c.id in places:
            names = {w.lower() for w in re.findall(r"\w+", places[c.id].get("speaker") or "") if len(w) > 2}
            if not names.isdisjoint(words):
                c.score *= recipe.speaker_boost
    return ranked(ranking)


def weigh_groups(ranking: list[Candidate], places: Places, recipe: Recipe) -> list[Candidate]:
    """Evidence for a question tends to sit together in one conversation or document: a unit in a
    group whose best units also scored well gains a share of that group's strength."""
    scores: dict[tuple[str, str], list[float]] = {}
    for c in ranking:
        if c.kind in UNITS and c.id in places:
            scores.setdefault(group_of(places[c.id]), []).append(c.score)
    strength = {g: sum(sorted(v, reverse=True)[: recipe.session_depth]) for g, v in scores.items()}
    for c in ranking:
        if c.kind in UNITS and c.id in places:
            c.score += recipe.session_share * strength[group_of(places[c.id])]
    return ranked(ranking)


def spread_over_groups(
    ranking: list[Candidate], spots: Mapping[str, tuple[str, int | None]], recipe: Recipe
) -> list[Candidate]:
    """The first `spread_top` candidates come from as many sessions (documents) as the best
    `2 * spread_top` hold: a unit joins the head when none of its group is there yet, or
    when it lies within `spread_near` places of a unit that is (an answer beside its question); the
    others follow in their order. Only the head's order changes: the same candidates fill the best
    `2 * spread_top`. `spots`: unit id -> (its group, its place in it, None where unknown: near
    nothing); a claim, or a unit whose spot is unknown, is a group of its own."""
    top = recipe.spread_top
    window = ranking[: 2 * top]
    head: list[Candidate] = []
    rest: list[Candidate] = []
    taken: dict[str, list[int]] = {}  # group -> the places its units at the head hold
    for c in window:
        spot = spots.get(c.id) if c.kind in UNITS else None
        if len(head) < top and (
            spot is None
            or spot[0] not in taken
            or (spot[1] is not None and any(abs(spot[1] - seq) <= recipe.spread_near for seq in taken[spot[0]]))
        ):
            head.append(c)
            if spot is not None:
                places = taken.setdefault(spot[0], [])
                if spot[1] is not None:
                    places.append(spot[1])
        else:
            rest.append(c)
    return head + rest + ranking[2 * top :]


def add_neighbours(ranking: list[Candidate], places: Places, recipe: Recipe, candidates: Candidates) -> list[Candidate]:
    """The units just before and after the strongest hits join (an answer's question, a fact's
    follow-up, the next sentence of a document) at a share of their hit's score; a unit already
    found keeps its own score."""
    strongest = [c for c in ranking if c.kind in UNITS][: recipe.neighbours_of]
    for hit in strongest:
        place = places.get(hit.id)
        if not place:
            continue
        for neighbour in (place["previousId"], place["nextId"]):
            if neighbour and (hit.kind, neighbour) not in candidates:
                c = Candidate(hit.kind, neighbour)
                c.score = hit.score * recipe.neighbour_share
                c.arms["neighbours"] = c.score
                candidates[(hit.kind, neighbour)] = c
    return ranked(candidates.values())


def chosen_items(ranking: list[Candidate], k: int, runs: Mapping[str, tuple[str, int]]) -> list[list[Candidate]]:
    """The best `k` items, each a list of candidates: one turn or claim, or a run of a document's
    passages. A passage joins the item of a better one when both lie in one line of one document and
    it comes just before or after the run the item holds (`runs`: passage id -> (document id and
    line, seq)), so a line's sentences come back as one item rather than crowding out other evidence."""
    items: list[list[Candidate]] = []
    open_runs: dict[str, list[tuple[int, int, list[Candidate]]]] = {}  # line -> (first seq, last seq, item)
    for c in ranking:
        line = runs.get(c.id) if c.kind == "passage" else None
        if line is not None:
            key, seq = line[0], line[1]
            merged = False
            for i, (first, last, item) in enumerate(open_runs.get(key, [])):
                if seq in (first - 1, last + 1):
                    item.append(c)
                    open_runs[key][i] = (min(first, seq), max(last, seq), item)
                    merged = True
                    break
            if merged:
                continue
        if len(items) == k:
            break
        items.append([c])
        if line is not None:
            open_runs.setdefault(line[0], []).append((line[1], line[1], items[-1]))
    return items
