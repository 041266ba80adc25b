"""Graph exploration: an entity's profile, paths between entities through claims, and a claim's
neighbourhood ready to draw."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from donto.claims.models import standing, statement
from donto.claims.service import superseded_by
from donto.errors import InvalidInput, NotFound
from donto.graph.client import GraphClient
from donto.temporal.instants import iso
from donto.temporal.scope import TimeScope

MAX_HOPS = 3
MAX_NEIGHBOURHOOD_DEPTH = 3


@dataclass(frozen=True)
class PathClaim:
    id: str
    subject: str
    predicate: str
    object: str


@dataclass(frozen=True)
class EntityPath:
    entities: list[str]  # entity keys from the start to the end
    claims: list[PathClaim]  # one claim per hop, in order


@dataclass(frozen=True)
class GraphNode:
    id: str  # '<kind>:<key>'
    kind: str  # Claim | Entity | Span | Document | Turn
    label: str
    properties: dict[str, Any]


@dataclass(frozen=True)
class GraphRelationship:
    type: str
    start: str
    end: str


@dataclass(frozen=True)
class Neighbourhood:
    nodes: list[GraphNode]
    relationships: list[GraphRelationship]


@dataclass(frozen=True)
class ProfileFact:
    """One claim about the entity, as the profile shows it."""

    id: str
    subject: str
    predicate: str
    object: str
    valid_from: str | None
    valid_to: str | None
    current: bool  # its valid time is known and holds in scope, and nothing replaced it (claims_superseded)
    confidence: float | None
    superseded_by: list[str] = field(default_factory=list)
    contradicted_by: list[str] = field(default_factory=list)
    quotes: list[str] = field(default_factory=list)
    context: str | None = None
    hypothesis: bool = False
    standing: str = "asserted"
    sources: int = 0
    valid_when: str | None = None  # words of a time donto could not resolve: its valid time is unknown
    statement: str = ""  # what it says, its modality in the words: "ann does NOT like fado"


@dataclass(frozen=True)
class PredicateGroup:
    predicate: str
    claims: list[ProfileFact]


@dataclass(frozen=True)
class EntityProfile:
    entity: str
    valid_at: str
    known_at: str
    predicates: list[PredicateGroup]  # claims with the entity as subject, grouped by predicate
    mentioned_in: list[ProfileFact]  # claims with the entity as object
    identity: list[str] | None = None  # the keys read, when the profile takes in the identity set


class ExploreService:
    def __init__(self, graph: GraphClient):
        self.graph = graph

    def paths(
        self,
        workspace: str,
        start: str,
        to: str | None,
        scope: TimeScope,
        max_hops: int = 2,
        limit: int = 50,
        identities: tuple[list[str], list[str] | None] | None = None,
    ) -> list[EntityPath]:
        """Paths through claims from `start` (to `to`, or to every entity within `max_hops`). Given
        `identities`, the identity sets of both (IdentityService.keys), from and to any of their keys."""
        if not 1 <= max_hops <= MAX_HOPS:
            raise InvalidInput(f"max_hops is between 1 and {MAX_HOPS}", field="max_hops")
        params = dict(workspace=workspace, max_hops=max_hops, limit=limit, **scope.params())
        starts, finishes = identities or ([start], None if to is None else [to])
        if to is None:
            rows = self.graph.read_query("entity_paths_from", **params, **{"from": starts})
        else:
            rows = self.graph.read_query("entity_paths_between", **params, **{"from": starts, "to": finishes or [to]})
        if not rows:  # no path, or no such entity: say which, as the profile does
            for field, key in (("key", start), ("to", to)):
                if key is not None and not self.graph.read_query("entity_exists", workspace=workspace, key=key):
                    raise NotFound(f"no entity {key!r} in this workspace", field=field)
        return [EntityPath(r["entities"], [PathClaim(**c) for c in r["claims"]]) for r in rows]

    def neighbourhood(self, workspace: str, claim_id: str, depth: int = 1) -> Neighbourhood:
        """Nodes and relationships a client can draw; node ids are '<kind>:<key>'."""
        if not 0 <= depth <= MAX_NEIGHBOURHOOD_DEPTH:
            raise InvalidInput(f"depth is between 0 and {MAX_NEIGHBOURHOOD_DEPTH}", field="depth")
        rows = self.graph.read_query("claim_neighbourhood", workspace=workspace, id=claim_id, depth=depth)
        if not rows:
            raise NotFound(f"no claim {claim_id!r} in this workspace", field="id")
        nodes: dict[str, GraphNode] = {}
        relationships: set[tuple[str, str, str]] = set()
        for row in rows:
            c = row["claim"]
            cid = f"claim:{c['id']}"
            properties = {k: iso(v) if k.startswith(("valid", "tx")) else v for k, v in c.items()}
            nodes[cid] = GraphNode(cid, "Claim", f"{c['subject']} {c['predicate']} {c['object']}", properties)
            for e in row["entities"]:
                eid = f"entity:{e['key']}"
                nodes[eid] = GraphNode(eid, "Entity", e["key"], {"key": e["key"]})
                relationships.add((e["role"], cid, eid))
            for ev in row["evidence"]:
                source = {k: v for k, v in ev["document"].items() if v is not None}
                kind = source.pop("kind")  # a registered Document, or an episode's Turn
                sid, did = f"span:{ev['span']['id']}", f"{kind.lower()}:{source['id']}"
                nodes[sid] = GraphNode(sid, "Span", ev["span"]["text"], ev["span"])
                nodes[did] = GraphNode(did, kind, source.get("title") or source.get("speaker") or source["id"], source)
                relationships.update({("EVIDENCED_BY", cid, sid), ("IN", sid, did)})
            for link in row["links"]:
                relationships.add((link["type"], cid, f"claim:{link['target']}"))
        return Neighbourhood(
            nodes=list(nodes.values()),
            relationships=[GraphRelationship(t, s, e) for t, s, e in sorted(relationships)],
        )

    def profile(
        self, workspace: str, key: str, scope: TimeScope, limit: int = 1000, identity: list[str] | None = None
    ) -> EntityProfile:
        """Seed 000's dossier: what donto holds about one entity, grouped by predicate, dated,
        contradictions shown side by side (never resolved), plus where the entity is the object.
        Given its `identity` set (IdentityService.keys), the claims of every key in it."""
        keys = identity or [key]
        rows = self.graph.read_query("entity_profile", workspace=workspace, keys=keys, limit=limit, **scope.params())
        if not rows and not self.graph.read_query("entity_exists", workspace=workspace, key=key):
            raise NotFound(f"no entity {key!r} in this workspace", field="key")
        groups: dict[str, list[ProfileFact]] = {}
        mentioned_in: list[ProfileFact] = []
        replaced = superseded_by(self.graph, workspace, list(dict.fromkeys(r["id"] for r in rows)), scope)
        for r in rows:
            by = replaced.get(r["id"], [])
            fact = ProfileFact(
                id=r["id"],
                subject=r["subject"],
                predicate=r["predicate"],
                object=r["object"],
                valid_from=iso(r["validFrom"]),
                valid_to=iso(r["validTo"]),
                current=r["valid"] and not by,
                confidence=r["confidence"],
                superseded_by=by,
                contradicted_by=list(r["contradictedBy"] or []),
                quotes=list(r["quotes"] or []),
                context=r["context"],
                hypothesis=r["hypothesis"],
                standing=standing(r["hypothesis"], r["sources"]),
                sources=r["sources"],
                valid_when=r["validWhen"],
                statement=statement(r["subject"], r["predicate"], r["object"], r["context"], r["hypothesis"]),
            )
            if r["direction"] == "subject":
                groups.setdefault(r["predicate"], []).append(fact)
            else:
                mentioned_in.append(fact)
        return EntityProfile(
            entity=key,
            valid_at=iso(scope.valid_at) or "",
            known_at=iso(scope.known_at) or "",
            predicates=[PredicateGroup(p, facts) for p, facts in groups.items()],
            mentioned_in=mentioned_in,
            identity=identity,
        )
