"""A pure-Python reference premise walk on networkx: the test oracle for cypher/claim_status.cypher.

Deliberately written straight from the semantics in docs/explanation/premise-walk.md, with no shared code: if the two
disagree on a random graph, one of them misreads the spec."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import networkx as nx


@dataclass
class OClaim:
    id: str
    subject: str
    predicate: str
    object: str
    valid_from: datetime | None
    valid_to: datetime | None
    tx_from: datetime
    tx_to: datetime | None = None
    derived_from: list[str] = field(default_factory=list)
    supersedes: list[str] = field(default_factory=list)
    contradicts: list[str] = field(default_factory=list)


def known(c: OClaim, k: datetime) -> bool:
    return c.tx_from <= k and (c.tx_to is None or c.tx_to > k)


def valid(c: OClaim, v: datetime) -> bool:
    return (c.valid_from is None or c.valid_from <= v) and (c.valid_to is None or c.valid_to > v)


def family(predicate: str, registry: dict[str, tuple[str, list[str]]]) -> tuple[set[str], str]:
    """registry: name -> (cardinality, aliases)."""
    if predicate in registry:
        card, aliases = registry[predicate]
        return {predicate, *aliases}, card
    for name, (card, aliases) in registry.items():
        if predicate in aliases:
            return {name, *aliases}, card
    return {predicate}, "many"


def oracle_status(
    claims: dict[str, OClaim], registry, root: str, v: datetime, k: datetime, max_depth: int = 32, fan_out: int = 64
) -> dict:
    graph = nx.DiGraph()
    graph.add_nodes_from(claims)
    for c in claims.values():
        if known(c, k):  # the walk continues only through claims known at k
            for premise in sorted(c.derived_from)[:fan_out]:
                if claims[premise].tx_from <= k:  # claims recorded after k take no part
                    graph.add_edge(c.id, premise)
    depths = nx.single_source_shortest_path_length(graph, root, cutoff=max_depth)
    reasons, contested, skipped = set(), set(), 0
    for pid, depth in depths.items():
        p = claims[pid]
        fam, card = family(p.predicate, registry)
        retracted = p.tx_to is not None and p.tx_to <= k
        premises = len(claims[pid].derived_from)
        if not retracted:
            skipped += premises if depth >= max_depth else max(0, premises - fan_out)
        by = {
            q.id
            for q in claims.values()
            if known(q, k)
            and valid(q, v)
            and (
                (
                    card == "one"
                    and q.subject == p.subject
                    and q.predicate in fam
                    and q.object != p.object
                    and q.valid_from is not None
                    and (p.valid_from is None or q.valid_from > p.valid_from)
                )
                or pid in q.supersedes
            )
        }
        if by:
            reasons.add((pid, depth, "superseded", tuple(sorted(by))))
        if retracted:
            reasons.add((pid, depth, "retracted", ()))
        if (
            p.valid_to is not None
            and p.valid_to <= v
            and not any(
                known(q, k) and valid(q, v) and q.subject == p.subject and q.predicate in fam and q.object == p.object
                for q in claims.values()
            )
        ):
            reasons.add((pid, depth, "expired", ()))
        against = {
            q.id
            for q in claims.values()
            if known(q, k) and valid(q, v) and (pid in q.contradicts or q.id in p.contradicts)
        }
        if against:
            contested.add((pid, tuple(sorted(against))))
    return {
        "status": "POTENTIALLY_STALE" if reasons else "UNVERIFIED",
        "reasons": reasons,
        "contested": contested,
        "walked": len(depths),
        "skipped": skipped,
        "truncated": skipped > 0,
    }
