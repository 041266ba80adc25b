"""Backup and restore of one workspace as JSON lines: `donto export` and `donto import`.

The file is a header line, then one line per node, then one per relationship:

    {"format": "donto-workspace", "format_version": 1, "donto_version", "workspace", "exported_at",
     "embedding_model", "counts": {"nodes": {label: n}, "relationships": {type: n}}}
    {"type": "node", "ref": "01a2...", "labels": ["Claim", "PendingEmbedding"], "properties": {...}}
    {"type": "relationship", "rel": "DERIVED_FROM", "start": ref, "end": ref, "properties": {...}}

Nothing is left out or re-derived: every property as stored (embeddings too, so an import
encodes nothing; a claim still waiting for its embedding keeps :PendingEmbedding and the worker
embeds it), transaction and valid times exactly (temporal values as Cypher writes them,
`{"$datetime": "2026-11-23T07:11:01.100643Z"}`, read back by the matching constructor). The
`workspace` property is not written: it is the workspace imported into. Nodes are sorted by
label and ref, properties by key, relationships by start, type, end and properties, so exporting
a restored workspace gives the same lines again (the header's `exported_at` aside).

Ids are kept, and claim, document, span, session, turn, passage, job, subject, observation,
understanding, utility signal and memory event ids are unique across the store: an import goes
into an empty workspace, and refuses ids that a node of the store already carries (restore into
another store, or after `donto purge`, under any name). Perspective vectors are named by the item
they embed and their perspective, memory sessions (the client's session ids) and perspectives by
their key in the workspace.

An import reads its file twice. The first pass writes nothing and checks everything: JSON,
record shapes, labels and relationship types, property values, refs, the header's counts (so a
cut-off file is refused), the embedding model, an empty target, free ids. Only then does it
write, in batches (a big workspace does not fit one transaction); if a batch still fails, the
nodes written so far are deleted before the error is raised, so a failed import leaves nothing.
A process killed mid-import leaves part of the workspace: `donto purge` it and import again."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import IO, Any

from donto.auth.keys import check_workspace
from donto.errors import Conflict, DontoError, InvalidInput
from donto.graph.client import GraphClient, next_transaction_time, same_model
from donto.predicates.service import check_aliases
from donto.settings import APP_VERSION
from donto.temporal.instants import iso, to_native, utc_now

FORMAT = "donto-workspace"
FORMAT_VERSION = 1
BATCH = 500  # nodes or relationships a transaction (a node's embedding is about 3 KB)
ALL = 2**62  # workspace_nodes' limit when every node is wanted
LONG_READ_TIMEOUT_S = 3600.0  # listing a big workspace's nodes outlasts the query timeout

# donto's labels, in the order an export writes them; and the relationship types between them.
LABELS = (
    *("Workspace", "Predicate", "AliasProposal", "Entity", "Document", "Span", "Session", "Turn", "Passage"),
    *("Claim", "Job", "JobFact"),
    *("JobPass", "JobLane", "Subject", "MergedSubject", "Observation", "Understanding", "Perspective"),
    *("PerspectiveVector", "MemorySession", "UtilitySignal", "MemoryEvent"),
)
# Beside a node's own label: a claim waiting for its embedding, and one in recall's full-text index.
EXTRA_LABELS = frozenset({"PendingEmbedding", "Searchable"})
# Nodes whose reference in the file is their id (unique across the store; a merged subject keeps
# its subject's id).
ID_LABELS = frozenset(
    {"Claim", "Document", "Span", "Session", "Turn", "Passage", "Job", "JobFact", "Subject", "MergedSubject"}
    | {"Observation"}
    | {"Understanding", "UtilitySignal", "MemoryEvent", "AliasProposal"}
)
RELATIONSHIP_TYPES = frozenset(
    {"SUBJECT", "OBJECT", "DERIVED_FROM", "SUPPORTS", "CONTRADICTS", "SUPERSEDES", "CORRECTS", "EVIDENCED_BY"}
    | {"IN", "REVISES"}
    | {"HAS_TURN", "NEXT", "HAS_PASSAGE", "READS", "HAS_PASS", "EXTRACTED", "ABOUT", "SUPERSEDED_BY"}
    | {"SOURCED_FROM", "RELATED_TO", "CITES", "EMBEDS", "SURFACED", "SIGNALS", "MERGED_INTO", "SAME_AS"}
    | {"UNDERSTANDS", "ALIAS_OF", "STATED", "BECAME"}
)
# Cypher's temporal types, as valueType() names them, and the tag each has in the file.
TEMPORAL_TAGS = {
    "ZONED DATETIME": "$datetime",
    "DATE": "$date",
    "LOCAL DATETIME": "$localdatetime",
    "ZONED TIME": "$time",
    "LOCAL TIME": "$localtime",
    "DURATION": "$duration",
}
TEMPORAL_TYPES = {tag: name for name, tag in TEMPORAL_TAGS.items()}
PLAIN_TYPES = frozenset({"STRING", "INTEGER", "FLOAT", "BOOLEAN", "NOTHING"})
LIST_TYPE = re.compile(r"^LIST<(\w+)(?: NOT NULL)?>$")
TEMPORAL_TEXT = re.compile(r"^[0-9TZPWHMSDY+\-:.\[\]/_A-Za-z]{1,64}$")  # Cypher's temporal text; Cypher checks the rest
INT64 = (-(2**63), 2**63 - 1)


@dataclass
class Counts:
    nodes: Counter[str] = field(default_factory=Counter)
    relationships: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, dict[str, int]]:
        return {"nodes": dict(sorted(self.nodes.items())), "relationships": dict(sorted(self.relationships.items()))}


def node_ref(label: str, key: dict[str, Any]) -> str:
    """What names a node in an export: its id, or for nodes without one their key in the workspace."""
    if label in ("Workspace", "JobLane"):
        return label
    parts = {
        "Entity": [key.get("key")],
        "Predicate": [key.get("name")],
        "JobPass": [key.get("jobId"), key.get("attempt"), key.get("seq")],
        "Perspective": [key.get("name")],
        "PerspectiveVector": [key.get("targetId"), key.get("perspective")],
    }.get(label, [key.get("id")])  # a MemorySession's id is the client's, unique in its workspace only
    if any(p is None for p in parts):
        raise DontoError(f"a {label} node lacks what names it ({key})")
    return ":".join(str(p) for p in parts) if label in ID_LABELS else ":".join([label, *map(str, parts)])


def _workspace_key(label: str) -> str:
    return "name" if label == "Workspace" else "workspace"


def _dump(record: dict[str, Any]) -> bytes:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


class PortabilityService:
    def __init__(self, graph: GraphClient):
        self.graph = graph

    # -- export ---------------------------------------------------------------------------------

    def export(self, workspace: str, out: IO[bytes]) -> Counts:
        """Write the workspace to `out` (bytes), header first. Nothing reaches `out` unless the whole
        export succeeded: the lines are gathered in temporary files first."""
        check_workspace(workspace)
        listed = self.graph.read(
            lambda tx: self.graph.run(tx, "workspace_nodes", workspace=workspace, limit=ALL),
            name="workspace_nodes",
            timeout_s=LONG_READ_TIMEOUT_S,
        )
        order = {label: i for i, label in enumerate(LABELS)}
        entries = sorted((order[r["label"]], node_ref(r["label"], r["key"]), r["elementId"]) for r in listed)
        refs = {ref for _, ref, _ in entries}
        if len(refs) != len(entries):
            raise DontoError(f"two nodes of workspace {workspace} have the same key; the export stopped")
        counts = Counts()
        with tempfile.TemporaryFile() as nodes, tempfile.TemporaryFile() as relationships:
            for start in range(0, len(entries), BATCH):
                batch = entries[start : start + BATCH]
                rows = self.graph.read_query("workspace_nodes_read", element_ids=[e for _, _, e in batch])
                by_id = {r["elementId"]: r for r in rows}
                for label_order, ref, element_id in batch:
                    row = by_id.get(element_id)
                    label = LABELS[label_order]
                    if row is None or label not in row["labels"]:
                        raise Conflict(
                            f"workspace {workspace} changed during the export (a {label} went); run it again"
                        )
                    counts.nodes[label] += 1
                    nodes.write(self._node_line(label, ref, row))
                    for line, rel_type in self._relationship_lines(workspace, ref, row, refs):
                        counts.relationships[rel_type] += 1
                        relationships.write(line)
            header = {
                "format": FORMAT,
                "format_version": FORMAT_VERSION,
                "donto_version": APP_VERSION,
                "workspace": workspace,
                "exported_at": iso(utc_now()),
                "embedding_model": self._embedding_model(),
                "counts": counts.as_dict(),
            }
            out.write(_dump(header))
            for spool in (nodes, relationships):
                spool.seek(0)
                shutil.copyfileobj(spool, out)
        out.flush()
        return counts

    def _node_line(self, label: str, ref: str, row: dict[str, Any]) -> bytes:
        omit = _workspace_key(label)
        properties = _encode(row["properties"], f"{label} {ref}", omit)
        return _dump({"type": "node", "ref": ref, "labels": sorted(row["labels"]), "properties": properties})

    def _relationship_lines(
        self, workspace: str, ref: str, row: dict[str, Any], refs: set[str]
    ) -> Iterator[tuple[bytes, str]]:
        """The node's outgoing relationships as lines, sorted (type, end, properties): Neo4j keeps no
        creation order that a restore could reproduce, so the file has a canonical one."""
        lines = []
        for rel in row["relationships"]:
            rel_type, target = rel["type"], rel["target"]
            label = next((lb for lb in target["labels"] if lb in LABELS), None)
            held = target["name"] if label == "Workspace" else target["workspace"]
            if label is None or held != workspace:
                raise DontoError(f"{ref} has a {rel_type} relationship out of workspace {workspace}; not exported")
            end = node_ref(label, target)
            if end not in refs:
                raise Conflict(f"workspace {workspace} changed during the export (a {label} came); run it again")
            properties = _encode(rel["properties"], f"{rel_type} of {ref}", None)
            record = {"type": "relationship", "rel": rel_type, "start": ref, "end": end, "properties": properties}
            lines.append((rel_type, end, _dump(record)))
        for rel_type, _, line in sorted(lines):
            yield line, rel_type

    def _embedding_model(self) -> str | None:
        rows = self.graph.read_query("health")
        return rows[0]["embeddingModel"] if rows else None

    # -- import ---------------------------------------------------------------------------------

    def import_(self, workspace: str, source: IO[bytes]) -> Counts:
        """Restore an export into `workspace`, which must hold nothing. Checks the whole file before
        writing anything; a write that still fails is undone (see the module's docstring)."""
        check_workspace(workspace)
        if not source.seekable():  # stdin: kept aside, since the file is read twice
            with tempfile.TemporaryFile() as spool:
                shutil.copyfileobj(source, spool)
                spool.seek(0)
                return self.import_(workspace, spool)
        header, counts, ids = self._check(source)
        model = self._embedding_model()
        exported_by = header.get("embedding_model")
        if exported_by is not None and (model is None or not same_model(exported_by, model)):
            raise Conflict(
                f"the export's vectors come from {header['embedding_model']} and this store embeds with {model}: "
                "import it into a store with that model (then `donto reembed` there to change models)"
            )
        if self.graph.read_query("workspace_nodes", workspace=workspace, limit=1):
            raise Conflict(f"workspace {workspace} is not empty: import restores into an empty workspace")
        id_list = sorted(ids)
        for start in range(0, len(id_list), 1000):
            taken = self.graph.read_query("ids_taken", ids=id_list[start : start + 1000])
            if taken:
                raise Conflict(
                    f"{taken[0]['label']} {taken[0]['id']} (and {len(taken) - 1} more in this batch) already exists in "
                    "this store: ids are unique across workspaces, so restore into another store or purge the "
                    "workspace that holds them first"
                )
        source.seek(0)
        self._write(workspace, source)
        return counts

    def _check(self, source: IO[bytes]) -> tuple[dict[str, Any], Counts, set[str]]:
        """Pass one: every line checked, nothing written. Returns the header, what the file holds,
        and the ids it would restore."""
        header: dict[str, Any] | None = None
        counts = Counts()
        labels_of: dict[str, str] = {}
        predicate_names: dict[str, tuple[int, str]] = {}  # a name or alias -> (line, the predicate it names)
        ends: list[tuple[int, str, str]] = []
        for number, record in _records(source):
            if header is None:
                header = _check_header(number, record)
                continue
            kind = record.get("type")
            if kind == "node":
                label, ref = _check_node(number, record)
                if ref in labels_of:
                    raise _bad(number, f"a second node with ref {ref!r}")
                labels_of[ref] = label
                counts.nodes[label] += 1
                if label == "Predicate":
                    _check_predicate_names(number, record["properties"], predicate_names)
            elif kind == "relationship":
                _check_relationship(number, record)
                if not (record["start"] in labels_of and record["end"] in labels_of):
                    ends.append((number, record["start"], record["end"]))  # a node further on, perhaps
                counts.relationships[record["rel"]] += 1
            else:
                raise _bad(number, "'type' must be 'node' or 'relationship'")
        if header is None:
            raise InvalidInput("the file is empty: an export starts with its header line", field="line 1")
        for number, start, end in ends:
            for ref in (start, end):
                if ref not in labels_of:
                    raise _bad(number, f"the relationship names {ref!r}, which no node of the file has")
        if counts.as_dict() != header["counts"]:
            raise _bad(
                1,
                f"the header counts {header['counts']} but the file holds {counts.as_dict()} (cut off, or edited)",
            )
        return header, counts, {ref for ref, label in labels_of.items() if label in ID_LABELS}

    def _write(self, workspace: str, source: IO[bytes]) -> None:
        """Pass two: nodes, then relationships, in batches; undone if any batch fails."""
        element_ids: dict[str, str] = {}
        latest: datetime | None = None
        try:
            nodes: list[tuple[str, dict[str, Any]]] = []
            relationships: list[dict[str, Any]] = []
            for _, record in _records(source):
                if record.get("type") == "node":
                    nodes.append((record["ref"], _node_row(workspace, record)))
                    if len(nodes) == BATCH:
                        latest = _later(latest, self._write_nodes(workspace, nodes, element_ids))
                        nodes = []
            if nodes:
                latest = _later(latest, self._write_nodes(workspace, nodes, element_ids))
            source.seek(0)
            for _, record in _records(source):
                if record.get("type") == "relationship":
                    relationships.append(_relationship_row(record, element_ids))
                    if len(relationships) == BATCH:
                        latest = _later(latest, self._write_relationships(workspace, relationships))
                        relationships = []
            if relationships:
                latest = _later(latest, self._write_relationships(workspace, relationships))
            if latest is not None:
                self._advance_clock(workspace, latest)
        except BaseException as exc:
            why = getattr(exc, "message", None) or str(exc) or type(exc).__name__
            try:
                self._undo(workspace, list(element_ids.values()))
            except Exception as undo_failed:
                raise DontoError(
                    f"the import failed ({why}) and what it wrote could not be removed ({undo_failed}): "
                    f"run `donto purge --workspace {workspace}`"
                ) from exc
            if isinstance(exc, Exception) and not isinstance(exc, DontoError):  # the store refused a value
                raise DontoError(f"the store refused part of the import ({why}); nothing was imported") from exc
            raise

    def _write_nodes(
        self, workspace: str, nodes: list[tuple[str, dict[str, Any]]], element_ids: dict[str, str]
    ) -> datetime | None:
        def work(tx: Any) -> list[dict[str, Any]]:
            next_transaction_time(self.graph, tx, workspace)
            return self.graph.run(tx, "workspace_import_nodes", nodes=[row for _, row in nodes])

        rows = self.graph.write(work, name="workspace_import_nodes")
        latest = None
        for (ref, _), row in zip(nodes, rows, strict=True):
            element_ids[ref] = row["elementId"]
            for value in row["clockTimes"]:
                latest = _later(latest, to_native(value))
        return latest

    def _write_relationships(self, workspace: str, relationships: list[dict[str, Any]]) -> datetime | None:
        def work(tx: Any) -> Any:
            next_transaction_time(self.graph, tx, workspace)
            return self.graph.run(tx, "workspace_import_relationships", relationships=relationships)[0]["latest"]

        return to_native(self.graph.write(work, name="workspace_import_relationships"))

    def _advance_clock(self, workspace: str, at: datetime) -> None:
        def work(tx: Any) -> None:
            next_transaction_time(self.graph, tx, workspace)
            self.graph.run(tx, "transaction_clock_advance", workspace=workspace, at=at)

        self.graph.write(work, name="transaction_clock_advance")

    def _undo(self, workspace: str, element_ids: list[str]) -> None:
        for start in range(0, len(element_ids), BATCH):
            batch = element_ids[start : start + BATCH]
            self.graph.write_query("workspace_nodes_delete", workspace=workspace, element_ids=batch)


# -- values ---------------------------------------------------------------------------------------


def _encode(triples: list[list[Any]], where: str, omit: str | None) -> dict[str, Any]:
    """[key, valueType, value] as read by workspace_nodes_read -> the file's properties."""
    out: dict[str, Any] = {}
    for key, value_type, value in triples:
        if key == omit:
            continue
        base = value_type.removesuffix(" NOT NULL")
        listed = LIST_TYPE.match(base)
        if base in TEMPORAL_TAGS:
            out[key] = {TEMPORAL_TAGS[base]: value}
        elif base in PLAIN_TYPES or (listed and listed.group(1) in PLAIN_TYPES):
            out[key] = value
        else:
            raise DontoError(f"{where}: property {key} holds a {base}, which an export cannot carry")
    return dict(sorted(out.items()))


def _split(properties: dict[str, Any]) -> tuple[dict[str, Any], list[list[str]]]:
    """The file's properties -> plain values, and temporal ones as [key, type, text] for Cypher."""
    plain: dict[str, Any] = {}
    temporal: list[list[str]] = []
    for key, value in properties.items():
        if isinstance(value, dict):
            [(tag, text)] = value.items()
            temporal.append([key, TEMPORAL_TYPES[tag], text])
        else:
            plain[key] = value
    return plain, temporal


def _check_value(value: Any) -> str | None:
    """Why a property value from the file cannot be stored, or None."""
    if isinstance(value, dict):
        if len(value) != 1:
            return "a temporal value is one {tag: text} pair"
        [(tag, text)] = value.items()
        if tag not in TEMPORAL_TYPES:
            return f"unknown value tag {tag!r} (known: {', '.join(sorted(TEMPORAL_TYPES))})"
        if not isinstance(text, str) or not TEMPORAL_TEXT.match(text):
            return f"{tag} needs its Cypher text, e.g. 2026-11-23T07:11:01.100643Z"
        return None
    if isinstance(value, list):  # an embedding is one: checked by type, not element by element
        kinds = set(map(type, value))
        if kinds - {str, int, float, bool}:
            return "a list property holds strings, numbers or booleans"
        if len(kinds) > 1:
            return "a list property holds values of one type"
        if kinds == {int} and not INT64[0] <= min(value) <= max(value) <= INT64[1]:
            return "an integer outside 64 bits"
        return None
    if value is None:
        return "null is not a property value (leave the property out)"
    if isinstance(value, int) and not isinstance(value, bool) and not INT64[0] <= value <= INT64[1]:
        return "an integer outside 64 bits"
    return None if isinstance(value, (str, int, float, bool)) else f"unsupported value {value!r}"


# -- records --------------------------------------------------------------------------------------


def _records(source: IO[bytes]) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, raw in enumerate(source, start=1):
        try:
            record = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise _bad(number, "not UTF-8") from None
        except json.JSONDecodeError as exc:
            raise _bad(number, f"not JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(record, dict):
            raise _bad(number, "a record is a JSON object")
        yield number, record


def _bad(number: int, message: str) -> InvalidInput:
    return InvalidInput(f"line {number}: {message}; nothing was imported", field=f"line {number}")


def _check_header(number: int, record: dict[str, Any]) -> dict[str, Any]:
    if record.get("format") != FORMAT:
        raise _bad(number, f"not a donto export (the first line is a header with format {FORMAT!r})")
    if record.get("format_version") != FORMAT_VERSION:
        raise _bad(number, f"format version {record.get('format_version')!r}; this donto reads {FORMAT_VERSION}")
    counts = record.get("counts")
    if not (isinstance(counts, dict) and set(counts) == {"nodes", "relationships"}):
        raise _bad(number, "the header's counts are {nodes: {label: n}, relationships: {type: n}}")
    return record


def _check_properties(number: int, properties: Any) -> dict[str, Any]:
    if not isinstance(properties, dict):
        raise _bad(number, "'properties' is a JSON object")
    for key, value in properties.items():
        why = _check_value(value)
        if why:
            raise _bad(number, f"property {key!r}: {why}")
    return properties


def _check_node(number: int, record: dict[str, Any]) -> tuple[str, str]:
    labels = record.get("labels")
    if not isinstance(labels, list) or not all(isinstance(lb, str) for lb in labels):
        raise _bad(number, "'labels' is a list of strings")
    own = [lb for lb in labels if lb in LABELS]
    unknown = [lb for lb in labels if lb not in LABELS and lb not in EXTRA_LABELS]
    if len(own) != 1 or unknown:
        raise _bad(number, f"labels {labels}: one of {', '.join(LABELS)} (and {', '.join(EXTRA_LABELS)} at most)")
    properties = _check_properties(number, record.get("properties"))
    [label] = own
    ref = record.get("ref")
    if not isinstance(ref, str):
        raise _bad(number, "'ref' is a string")
    try:
        expected = node_ref(label, properties)
    except DontoError:
        expected = None
    if ref != expected:
        raise _bad(number, f"ref {ref!r} does not match the {label}'s properties ({expected!r})")
    return label, ref


def _check_predicate_names(number: int, properties: dict[str, Any], holders: dict[str, tuple[int, str]]) -> None:
    """The rules `PUT /v1/predicates` keeps, for a file edited by hand: a name or alias names one
    predicate of the workspace (else supersession and extraction's alias mapping would depend on
    read order), and no alias is its predicate's own name or listed twice."""
    name, aliases = properties.get("name"), properties.get("aliases", [])
    if not isinstance(name, str) or not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        raise _bad(number, "a Predicate has a string 'name' and a list of string 'aliases'")
    try:
        check_aliases(name, aliases)
    except InvalidInput as exc:
        raise _bad(number, f"predicate {name!r}: {exc.message}") from None
    for word in (name, *aliases):
        if word in holders:
            line, holder = holders[word]
            raise _bad(number, f"predicate {name!r}: {word!r} already names the predicate {holder!r} (line {line})")
        holders[word] = (number, name)


def _check_relationship(number: int, record: dict[str, Any]) -> None:
    if record.get("rel") not in RELATIONSHIP_TYPES:
        raise _bad(number, f"relationship type {record.get('rel')!r}: one of {', '.join(sorted(RELATIONSHIP_TYPES))}")
    if not (isinstance(record.get("start"), str) and isinstance(record.get("end"), str)):
        raise _bad(number, "'start' and 'end' are refs (strings)")
    _check_properties(number, record.get("properties"))


def _node_row(workspace: str, record: dict[str, Any]) -> dict[str, Any]:
    plain, temporal = _split(record["properties"])
    label = next(lb for lb in record["labels"] if lb in LABELS)
    plain[_workspace_key(label)] = workspace
    labels = record["labels"]
    if label == "Claim" and "PendingEmbedding" not in labels and "Searchable" not in labels:
        # An embedded claim is in recall's full-text index; an export made before schema version 9
        # did not name that label, as every claim was in the index then.
        labels = [*labels, "Searchable"]
    return {"labels": labels, "properties": plain, "temporal": temporal}


def _relationship_row(record: dict[str, Any], element_ids: dict[str, str]) -> dict[str, Any]:
    plain, temporal = _split(record["properties"])
    start, end = element_ids[record["start"]], element_ids[record["end"]]
    return {"start": start, "end": end, "type": record["rel"], "properties": plain, "temporal": temporal}


def _later(a: datetime | None, b: datetime | None) -> datetime | None:
    return b if a is None or (b is not None and b > a) else a
