"""Claims: write batches, read one, list as of two times, retract."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from donto import cursors
from donto.claims.models import (
    MODAL_CONTEXTS,
    SEPARATOR,
    Claim,
    Evidence,
    EvidenceSpan,
    Literal,
    NewClaim,
    WriteOutcome,
    WriteResult,
)
from donto.errors import Conflict, InvalidInput, NotFound
from donto.graph.client import GraphClient, next_transaction_time
from donto.graph.retraction import retract
from donto.identity.service import IdentityService
from donto.ids import uuid7
from donto.temporal.instants import to_native
from donto.temporal.scope import TimeScope

LINKS = ("derived_from", "supports", "contradicts", "supersedes", "corrects")


@dataclass(frozen=True)
class ClaimListing:
    claims: list[Claim]
    next_cursor: str | None
    identity: dict[str, list[str]] | None  # with identity: the keys read for the subject and the object


# A batch's new claims are written in slices of this many, in its one transaction: between two
# slices the write waits (GIVE_WAY_S at most) while any light request is in flight, so a 1,000-claim
# batch holds the cores for a tenth of its time at a stretch, and stays all or nothing. bench tenants
# --flood 8 on 2 cores, quiet recall p95 beside the flood over alone (medians of 3, one quiet
# machine): 2.73x whole, 2.09x in slices of 250, 1.59x in slices of 100; bench ingest alone 3,535 ->
# 3,371 claims/s (medians of 2).
WRITE_SLICE = 100
GIVE_WAY_S = 0.25


class ClaimService:
    def __init__(
        self,
        graph: GraphClient,
        identity: IdentityService,
        max_page: int,
        light_waiting: Callable[[float], object] = lambda _: None,
    ):
        self.graph = graph
        self.identity = identity
        self.max_page = max_page
        self.light_waiting = light_waiting  # waits up to its argument while light requests are in flight

    # -- writes -------------------------------------------------------------------------------

    def write(self, workspace: str, claims: Sequence[NewClaim]) -> WriteResult:
        """One transaction for the whole batch: every reference is checked first, and any bad
        item rejects the batch with nothing written. Only what the batch has is written: links
        and evidence are statements of their own, run when some new claim carries them."""
        first_by_key: dict[str, int] = {}
        corrected: dict[str, int] = {}
        for index, claim in enumerate(claims):
            first_by_key.setdefault(claim.content_key, index)
            for target in claim.corrects:
                if target in corrected:
                    raise InvalidInput(
                        f"claims[{corrected[target]}] corrects {target!r} too: a claim has one new version at a time",
                        field=f"claims[{index}].corrects",
                    )
                corrected[target] = index
        referenced = sorted({i for c in claims for link in LINKS for i in getattr(c, link)})
        documents = sorted({e.document_id for c in claims for e in c.evidence})
        # Sources are immutable revisions, so spans are cut before the write transaction.
        texts = (
            {r["id"]: r["text"] for r in self.graph.read_query("documents_text", workspace=workspace, ids=documents)}
            if documents
            else {}
        )
        rows = [
            _row(index, claim, texts) for index, claim in enumerate(claims) if first_by_key[claim.content_key] == index
        ]

        def work(tx: ManagedTransaction) -> tuple[datetime, dict[str, str]]:
            # The workspace clock's lock also keeps claims_live's answer true until this commits.
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            if referenced:
                known = {r["id"] for r in self.graph.run(tx, "claims_existing", workspace=workspace, ids=referenced)}
                for row in rows:
                    _check_links(row, known)
            keys = [row.node["contentKey"] for row in rows]
            live = {r["contentKey"]: r["id"] for r in self.graph.run(tx, "claims_live", workspace=workspace, keys=keys)}
            for row in rows:
                if row.claim.corrects and row.node["contentKey"] in live:
                    raise InvalidInput(
                        f"claim {live[row.node['contentKey']]!r} says this already: a correction states something new",
                        field=f"claims[{row.index}].corrects",
                    )
            new = [row for row in rows if row.node["contentKey"] not in live]
            nodes = [row.node for row in new]
            for start in range(0, len(nodes), WRITE_SLICE):
                if start:
                    self.light_waiting(GIVE_WAY_S)
                batch = nodes[start : start + WRITE_SLICE]
                self.graph.run(tx, "claims_write", workspace=workspace, recorded_at=recorded_at, claims=batch)
            if links := [link for row in new for link in row.links]:
                self.graph.run(tx, "claims_link", workspace=workspace, links=links)
            if evidence := [ev for row in new for ev in row.evidence]:
                self.graph.run(tx, "claims_evidence", workspace=workspace, evidence=evidence)
            if corrections := [
                {"index": row.index, "new": row.node["id"], "old": row.claim.corrects[0]}
                for row in new
                if row.claim.corrects
            ]:
                ended = self.graph.run(
                    tx, "claims_correct", workspace=workspace, recorded_at=recorded_at, corrections=corrections
                )
                for r in sorted(ended, key=lambda r: r["index"]):
                    if not r["wasLive"]:  # raised inside the transaction: nothing of the batch is written
                        raise Conflict(
                            f"claim {r['old']!r} is no longer current: it was retracted or corrected at "
                            f"{to_native(r['endedAt']).isoformat()}; correct the claim that replaced it",
                            field=f"claims[{r['index']}].corrects",
                        )
            return recorded_at, live

        recorded_at, live = self.graph.write(work, name="claims_write")
        ids = {row.node["contentKey"]: row.node["id"] for row in rows}
        outcomes = []
        for index, claim in enumerate(claims):
            key = claim.content_key
            outcomes.append(
                WriteOutcome(id=live.get(key, ids[key]), created=key not in live and first_by_key[key] == index)
            )
        return WriteResult(recorded_at=recorded_at, claims=outcomes)

    def corroborate(self, workspace: str, citations: Sequence[tuple[str, Evidence]]) -> set[str]:
        """Cite more evidence for claims that hold already (claim id, evidence): the same fact found
        again. Returns the ids of the claims a source evidences for the first time (their count of
        independent sources rose). Idempotent: citing a span again adds nothing."""
        documents = sorted({e.document_id for _, e in citations})
        if not documents:
            return set()
        found = self.graph.read_query("documents_text", workspace=workspace, ids=documents)
        texts = {r["id"]: r["text"] for r in found}
        rows = [row for i, (claim_id, ev) in enumerate(citations) for row in _spans(i, claim_id, (ev,), texts)]

        def work(tx: ManagedTransaction) -> list[dict[str, Any]]:
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            return self.graph.run(tx, "claims_corroborate", workspace=workspace, recorded_at=recorded_at, evidence=rows)

        return {r["claimId"] for r in self.graph.write(work, name="claims_corroborate") if r["newSource"]}

    def retract(self, workspace: str, claim_id: str, reason: str | None) -> datetime:
        return retract(self.graph, workspace, claim_id, reason, query="claim_retract", what="claim")

    # -- reads --------------------------------------------------------------------------------

    def get(self, workspace: str, claim_id: str, scope: TimeScope) -> Claim:
        """One claim in full; what replaced it is answered in `scope`."""
        rows = self.graph.read_query("claim_get", workspace=workspace, id=claim_id)
        if not rows:
            raise NotFound(f"no claim {claim_id!r} in this workspace", field="id")
        row = rows[0]
        claim = claim_from_node(row["claim"])
        claim.links = {
            k: row[k]
            for k in (
                "derivedFrom",
                "supports",
                "contradicts",
                "supersedes",
                "derivedBy",
                "supportedBy",
                "contradictedBy",
                "supersededBy",
                "corrects",
                "correctedBy",
            )
        }
        claim.evidence = [
            EvidenceSpan(e["spanId"], e["documentId"], e["start"], e["end"], e["text"]) for e in row["evidence"]
        ]
        claim.superseded_by = superseded_by(self.graph, workspace, [claim.id], scope).get(claim.id, [])
        claim.links["supersededBy"] = claim.superseded_by
        return claim

    def list_as_of(
        self,
        workspace: str,
        *,
        subject: str | None = None,
        predicate: str | None = None,
        object: str | None = None,
        scope: TimeScope,
        include_retracted: bool = False,
        limit: int = 100,
        cursor: str | None = None,
        identity: bool = False,
    ) -> ClaimListing:
        """Claims valid at scope.valid_at as recorded by scope.known_at, in id order from `cursor`.
        With `identity`, the subject and object each stand for their identity set as known then
        (SAME_AS), and a claim keeps the key it was recorded under."""
        if limit > self.max_page:
            raise InvalidInput(f"limit is at most {self.max_page}", field="limit")
        sets = self.identity.sets(workspace, scope.known_at, subject=subject, object=object) if identity else {}
        rows = self.graph.read_query(
            "claims_as_of",
            workspace=workspace,
            subjects=_keys(sets.get("subject", subject)),
            predicate=predicate,
            objects=_keys(sets.get("object", object)),
            **scope.params(),
            include_retracted=include_retracted,
            after=cursors.decode_claim(cursor) if cursor else None,
            limit=limit + 1,
        )
        claims = [claim_from_node(r["claim"]) for r in rows[:limit]]
        replaced = superseded_by(self.graph, workspace, [c.id for c in claims], scope)
        for claim in claims:
            claim.superseded_by = replaced.get(claim.id, [])
        next_cursor = cursors.encode_claim(claims[-1].id) if len(rows) > limit else None
        return ClaimListing(claims, next_cursor, sets if identity else None)


def superseded_by(graph: GraphClient, workspace: str, ids: Sequence[str], scope: TimeScope) -> dict[str, list[str]]:
    """What replaced each claim in scope, declared or implied by a single-valued predicate: the one
    rule (cypher/claims_superseded.cypher) every read of supersession uses."""
    if not ids:
        return {}
    rows = graph.read_query(
        "claims_superseded", workspace=workspace, ids=list(ids), modal_contexts=MODAL_CONTEXTS, **scope.params()
    )
    return {r["id"]: list(r["supersededBy"]) for r in rows}


def _keys(keys: str | Sequence[str] | None) -> list[str] | None:
    return None if keys is None else [keys] if isinstance(keys, str) else list(keys)


def _check_links(row: _Row, known: set[str]) -> None:
    for link in LINKS:
        for j, target in enumerate(getattr(row.claim, link)):
            if target not in known:
                where = f"claims[{row.index}].{link}" + ("" if link == "corrects" else f"[{j}]")  # corrects: one id
                raise InvalidInput(f"no claim {target!r} in this workspace", field=where)


def claim_text(subject: str, predicate: str, obj: str, quotes: list[str]) -> str:
    """A claim as one readable line (embedded and full-text indexed): the triple, then the words
    its evidence cites."""
    line = f"{subject} {predicate} {obj}"
    return line + "".join(f' — "{q}"' for q in quotes)


@dataclass(frozen=True)
class _Row:
    """One claim of a batch as the write sends it: the node's properties (only those it has: the
    driver packs every key of every row), and its links and evidence if it is new."""

    index: int
    claim: NewClaim
    node: dict[str, Any]
    links: list[dict[str, str]]
    evidence: list[dict[str, Any]]


def _row(index: int, claim: NewClaim, texts: dict[str, str]) -> _Row:
    claim_id = uuid7()
    evidence = _spans(index, claim_id, claim.evidence, texts)
    literal = claim.object_literal
    node = {
        "id": claim_id,
        "contentKey": claim.content_key,
        "subject": claim.subject,
        "predicate": claim.predicate,
        "object": claim.object_text,
        "objectKind": "literal" if literal else "entity",
        "objectValue": literal.value if literal else None,
        "objectDatatype": literal.datatype if literal else None,
        "context": claim.context,
        "confidence": claim.confidence,
        # As text (claims_write reads it with datetime()): the driver packs a datetime in slow Python.
        "validFrom": claim.valid_from.isoformat() if claim.valid_from else None,
        "validTo": claim.valid_to.isoformat() if claim.valid_to else None,
        "text": claim_text(claim.subject, claim.predicate, claim.object_text, [e["text"] for e in evidence]),
        "hypothesis": True if claim.hypothesis else None,  # absent: stated
        "validWhen": claim.valid_when,
    }
    links = [
        {"from": claim_id, "to": target, "type": link.upper()} for link in LINKS for target in getattr(claim, link)
    ]
    return _Row(index, claim, {k: v for k, v in node.items() if v is not None}, links, evidence)


def _spans(index: int, claim_id: str, cited: Sequence[Evidence], texts: dict[str, str]) -> list[dict[str, Any]]:
    """The evidence rows claims_evidence and claims_corroborate write: each span cut from its source."""
    evidence: list[dict[str, Any]] = []
    for j, ev in enumerate(cited):
        text = texts.get(ev.document_id)
        if text is None:
            raise InvalidInput(
                f"no document {ev.document_id!r} in this workspace", field=f"claims[{index}].evidence[{j}].document_id"
            )
        if ev.end > len(text):
            raise InvalidInput(
                f"end {ev.end} is past the end of the document ({len(text)} characters)",
                field=f"claims[{index}].evidence[{j}].end",
            )
        span_key = SEPARATOR.join((ev.document_id, str(ev.start), str(ev.end)))
        evidence.append(
            {
                "claimId": claim_id,
                "spanId": hashlib.sha256(span_key.encode()).hexdigest(),
                "documentId": ev.document_id,
                "start": ev.start,
                "end": ev.end,
                "text": text[ev.start : ev.end],
            }
        )
    return evidence


def claim_from_node(props: dict[str, Any]) -> Claim:
    literal = None
    if props.get("objectKind") == "literal":
        literal = Literal(props["object"], props["objectDatatype"])
    return Claim(
        id=props["id"],
        subject=props["subject"],
        predicate=props["predicate"],
        object_entity=None if literal else props.get("object"),
        object_literal=literal,
        context=props.get("context"),
        confidence=props.get("confidence"),
        valid_from=to_native(props.get("validFrom")),
        valid_to=to_native(props.get("validTo")),
        tx_from=to_native(props["txFrom"]),
        tx_to=to_native(props.get("txTo")),
        retraction_reason=props.get("retractionReason"),
        hypothesis=bool(props.get("hypothesis")),
        valid_when=props.get("validWhen"),
        sources=props.get("sources") or 0,
    )
