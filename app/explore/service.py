"""Graph exploration: paths between entities through claims, and a claim's neighbourhood."""

from __future__ import annotations

from datetime import datetime

from app.errors import InvalidInput, NotFound
from app.graph.client import GraphClient
from app.timeutil import iso, utc_now

MAX_HOPS = 3
MAX_NEIGHBOURHOOD_DEPTH = 3


class ExploreService:
    def __init__(self, graph: GraphClient):
        self.graph = graph

    def paths(self, workspace: str, start: str, to: str | None, max_hops: int = 2,
              valid_at: datetime | None = None, known_at: datetime | None = None, limit: int = 50) -> list[dict]:
        if not 1 <= max_hops <= MAX_HOPS:
            raise InvalidInput(f"max_hops is between 1 and {MAX_HOPS}", field="max_hops")
        now = utc_now()
        params = dict(workspace=workspace, max_hops=max_hops, valid_at=valid_at or now,
                      known_at=known_at or now, limit=limit)
        if to is None:
            rows = self.graph.read_query("entity_paths_from", **params, **{"from": start})
        else:
            rows = self.graph.read_query("entity_paths_between", **params, **{"from": start, "to": to})
        return [{"entities": r["entities"], "claims": r["claims"]} for r in rows]

    def neighbourhood(self, workspace: str, claim_id: str, depth: int = 1) -> dict:
        """Nodes and relationships a client can draw; node ids are '<kind>:<key>'."""
        if not 0 <= depth <= MAX_NEIGHBOURHOOD_DEPTH:
            raise InvalidInput(f"depth is between 0 and {MAX_NEIGHBOURHOOD_DEPTH}", field="depth")
        rows = self.graph.read_query("claim_neighbourhood", workspace=workspace, id=claim_id, depth=depth)
        if not rows:
            raise NotFound(f"no claim {claim_id!r} in this workspace", field="id")
        nodes: dict[str, dict] = {}
        relationships: set[tuple[str, str, str]] = set()
        for row in rows:
            c = row["claim"]
            cid = f"claim:{c['id']}"
            nodes[cid] = {"id": cid, "kind": "Claim", "label": f"{c['subject']} {c['predicate']} {c['object']}",
                          "properties": {k: iso(v) if k.startswith(("valid", "tx")) else v for k, v in c.items()}}
            for e in row["entities"]:
                eid = f"entity:{e['key']}"
                nodes[eid] = {"id": eid, "kind": "Entity", "label": e["key"], "properties": {"key": e["key"]}}
                relationships.add((e["role"], cid, eid))
            for ev in row["evidence"]:
                sid, did = f"span:{ev['span']['id']}", f"document:{ev['document']['id']}"
                nodes[sid] = {"id": sid, "kind": "Span", "label": ev["span"]["text"], "properties": ev["span"]}
                nodes[did] = {"id": did, "kind": "Document", "label": ev["document"].get("title") or ev["document"]["id"],
                              "properties": ev["document"]}
                relationships.update({("EVIDENCED_BY", cid, sid), ("IN", sid, did)})
            for link in row["links"]:
                relationships.add((link["type"], cid, f"claim:{link['target']}"))
        return {
            "nodes": list(nodes.values()),
            "relationships": [{"type": t, "start": s, "end": e} for t, s, e in sorted(relationships)],
        }


    def profile(self, workspace: str, key: str, valid_at: datetime | None = None,
                known_at: datetime | None = None, limit: int = 1000) -> dict:
        """Seed 000's dossier: what donto holds about one entity, grouped by predicate, dated,
        contradictions shown side by side (never resolved), plus where the entity is the object."""
        now = utc_now()
        valid_at, known_at = valid_at or now, known_at or now
        rows = self.graph.read_query("entity_profile", workspace=workspace, key=key, valid_at=valid_at,
                                     known_at=known_at, limit=limit)
        if not rows and not self.graph.read_query("entity_exists", workspace=workspace, key=key):
            raise NotFound(f"no entity {key!r} in this workspace", field="key")
        groups: dict[str, list[dict]] = {}
        mentioned_in = []
        for r in rows:
            fact = {"id": r["id"], "valid_from": iso(r["validFrom"]), "valid_to": iso(r["validTo"]),
                    "current": r["current"], "confidence": r["confidence"]}
            if r["supersededBy"]:
                fact["superseded_by"] = list(dict.fromkeys(r["supersededBy"]))
            if r["contradictedBy"]:
                fact["contradicted_by"] = r["contradictedBy"]
            if r["quotes"]:
                fact["quotes"] = r["quotes"]
            if r["direction"] == "subject":
                groups.setdefault(r["predicate"], []).append({"object": r["object"], **fact})
            else:
                mentioned_in.append({"subject": r["subject"], "predicate": r["predicate"], **fact})
        return {
            "entity": key, "valid_at": iso(valid_at), "known_at": iso(known_at),
            "predicates": [{"predicate": p, "claims": claims} for p, claims in groups.items()],
            "mentioned_in": mentioned_in,
        }
