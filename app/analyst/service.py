"""The analyst's service: the Browser guide for a workspace, and its claims as a networkx graph
for `donto export --format graphml|json|csv` (and for graph algorithms in process)."""

from __future__ import annotations

import csv
import json
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from donto.analyst.guide import guide_parameters, render_guide
from donto.auth.keys import check_workspace
from donto.errors import InvalidInput, NotFound
from donto.graph.client import GraphClient
from donto.temporal.instants import iso

if TYPE_CHECKING:  # networkx is imported where a graph is built: it is a third of `donto mcp`'s start
    import networkx as nx

GRAPH_FORMATS = ("graphml", "json", "csv")
MAX_HOPS = 3
LINK_TYPES = ("DERIVED_FROM", "SUPPORTS", "CONTRADICTS", "SUPERSEDES")


def static_text(name: str) -> str:
    """A file shipped beside this module (the GraSS style, the Bloom perspective)."""
    return (resources.files("donto.analyst") / name).read_text(encoding="utf-8")


class AnalystService:
    def __init__(self, graph: GraphClient):
        self.graph = graph

    def guide(self, base_url: str, workspace: str, values: dict[str, str | None]) -> str:
        return render_guide(self.graph.queries, base_url, guide_parameters(workspace, values))

    def claims_graph(
        self,
        workspace: str,
        valid_at: datetime | None = None,
        known_at: datetime | None = None,
        around: str | None = None,
        hops: int = 1,
    ) -> nx.MultiDiGraph:
        """The workspace's claims, entities and document revisions as a directed multigraph: nodes
        `claim:<id>`, `entity:<key>` and `document:<id>` (attribute `label`: Claim | Entity | Document,
        and the node's properties; a document's without its text), edges keyed by relationship type
        (SUBJECT, OBJECT, DERIVED_FROM, SUPPORTS, CONTRADICTS, SUPERSEDES, and EVIDENCED_BY from a claim
        to the revision its evidence cites). With `valid_at`, the claims true then and the document
        versions in force then; with `known_at`, those donto knew then; with neither, everything,
        retracted ones too. With `around`, the claims within `hops` claims of that entity (through
        entities, either direction), with their entities and the revisions they cite."""
        check_workspace(workspace)
        if around is not None and not 1 <= hops <= MAX_HOPS:
            raise InvalidInput(f"hops is 1 to {MAX_HOPS}", field="hops")
        import networkx as nx

        rows = self.graph.read_query("export_claims", workspace=workspace, valid_at=valid_at, known_at=known_at)
        graph = nx.MultiDiGraph(workspace=workspace, valid_at=iso(valid_at) or "", known_at=iso(known_at) or "")
        for row in rows:
            claim = {k: _plain(v) for k, v in row["claim"].items() if v is not None}
            node = f"claim:{claim['id']}"
            caption = f"{claim['subject']} · {claim['predicate']} · {claim.get('object', '')}"
            graph.add_node(node, label="Claim", caption=caption, **claim)
            entities = [("SUBJECT", claim["subject"])]
            if claim.get("objectKind") == "entity":
                entities.append(("OBJECT", claim["object"]))
            for kind, key in entities:
                graph.add_node(f"entity:{key}", label="Entity", caption=key, key=key)
                graph.add_edge(node, f"entity:{key}", key=kind, type=kind)
        for row in rows:
            for link in row["links"]:
                target = f"claim:{link['target']}"
                if target in graph:  # a premise outside the as-of scope is not drawn
                    graph.add_edge(f"claim:{row['claim']['id']}", target, key=link["type"], type=link["type"])
        # Document revisions in the same scope (of a document's versions, the one valid at valid_at),
        # each linked from the claims in scope whose evidence cites it.
        for row in self.graph.read_query("export_documents", workspace=workspace, valid_at=valid_at, known_at=known_at):
            document = {k: _plain(v) for k, v in row["document"].items() if v is not None}
            node = f"document:{document['id']}"
            graph.add_node(
                node, label="Document", caption=document.get("title") or document.get("externalId") or "", **document
            )
            for claim in row["cited_by"]:
                if f"claim:{claim}" in graph:
                    graph.add_edge(f"claim:{claim}", node, key="EVIDENCED_BY", type="EVIDENCED_BY")
        if around is None:
            return graph
        start = f"entity:{around}"
        if start not in graph:
            raise NotFound(f"workspace {workspace} has no entity {around!r} in this scope", field="around")
        # A hop is entity - claim - entity: two edges, either way; claim-to-claim links are not hops.
        mentions = nx.Graph((u, v) for u, v, kind in graph.edges(keys=True) if kind in ("SUBJECT", "OBJECT"))
        near = nx.ego_graph(mentions, start, radius=2 * hops)
        kept = {n for n in near if graph.nodes[n]["label"] == "Claim"}
        kept |= {e for c in kept for e in graph.successors(c) if graph.nodes[e]["label"] in ("Entity", "Document")}
        return graph.subgraph(kept).copy()


def write_graph(graph: nx.MultiDiGraph, fmt: str, out: IO[bytes] | Path) -> None:
    """GraphML or node-link JSON to a byte stream; CSV as nodes.csv and relationships.csv in a folder."""
    import networkx as nx

    if fmt == "graphml":
        assert not isinstance(out, Path)
        nx.write_graphml(graph, out, named_key_ids=True)
    elif fmt == "json":
        assert not isinstance(out, Path)
        data = nx.node_link_data(graph, edges="edges")
        out.write(json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8") + b"\n")
    elif fmt == "csv":
        assert isinstance(out, Path)
        out.mkdir(parents=True, exist_ok=True)
        columns = sorted({k for _, data in graph.nodes(data=True) for k in data} - {"label", "caption"})
        _write_csv(
            out / "nodes.csv",
            ["node", "label", "caption", *columns],
            ([n, d["label"], d["caption"], *(d.get(c, "") for c in columns)] for n, d in graph.nodes(data=True)),
        )
        _write_csv(
            out / "relationships.csv", ["source", "type", "target"], ((u, k, v) for u, v, k in graph.edges(keys=True))
        )
    else:
        raise InvalidInput(f"format is one of {', '.join(GRAPH_FORMATS)}", field="format")


def _write_csv(path: Path, header: list[str], rows: Any) -> None:
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)


def _plain(value: Any) -> Any:
    """A property as GraphML, JSON and CSV take it: instants as ISO-8601, lists as JSON text."""
    if isinstance(value, list):
        return json.dumps(value, ensure_ascii=False)
    if hasattr(value, "to_native") or isinstance(value, datetime):
        return iso(value)
    return value
