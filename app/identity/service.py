"""Entity identity: keys that denote the same thing are linked, never merged.

Two entity keys are linked by (:Entity)-[:SAME_AS]->(:Entity), which lives in transaction time like
a claim: retracting a link closes it (txTo) and deletes nothing, so a read as known at an earlier
instant sees identity as it was then. An entity's identity set is the connected component of the
links known at an instant, itself included. Both nodes stay as they are, with their own claims;
reads that opt in (`identity=true`) take the claims of every key of the set, each still under the
key it was recorded with.

Links are asserted by a client (method 'asserted'), or proposed by extraction (app/memorize):
'extracted' when the model states an identity fact ("mel" also_known_as "melanie"), 'normalised'
when two keys differ only in what the key normaliser (extraction.facts.entity_key) leaves alone:
accents, inner punctuation, hyphens and spaces ("josé" / "jose", "o'brien" / "obrien"). A proposal
never links a pair whose link was retracted: a retraction is a decision, and it sticks."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from donto.errors import InvalidInput, NotFound
from donto.graph.client import GraphClient, next_transaction_time
from donto.graph.retraction import retract
from donto.ids import uuid7
from donto.temporal.instants import to_native

MAX_IDENTITY = 1000  # keys of one identity set, besides the entity's own
MIN_FOLD = 4  # shorter folds are too ambiguous to link on ("u.s" and "us")


@dataclass(frozen=True)
class Proposal:
    a: str
    b: str
    method: str  # 'extracted' | 'normalised'
    reason: str
    score: float | None = None


@dataclass(frozen=True)
class LinkOutcome:
    id: str
    created: bool  # False: the pair was linked already, and that link is the answer
    recorded_at: datetime  # the link's txFrom


@dataclass(frozen=True)
class SameAsLink:
    id: str
    from_key: str
    to_key: str
    reason: str | None
    method: str
    score: float | None
    tx_from: datetime
    tx_to: datetime | None
    recorded_by: str | None


@dataclass(frozen=True)
class Identity:
    key: str
    known_at: datetime
    keys: list[str]  # the key itself first, then the others it is linked to, directly or not
    links: list[SameAsLink]


def fold(key: str) -> str:
    """A key with accents, case, punctuation, spaces and hyphens dropped: 'José-María' -> 'josemaria'."""
    text = unicodedata.normalize("NFKD", key)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return re.sub(r"[\W_]+", "", text.casefold())


class IdentityService:
    def __init__(self, graph: GraphClient):
        self.graph = graph

    # -- writes -------------------------------------------------------------------------------

    def link(
        self, workspace: str, a: str, b: str, reason: str, score: float | None = None, recorded_by: str | None = None
    ) -> LinkOutcome:
        """Assert that keys a and b denote the same thing. Both must exist (a typo must not mint an
        entity); a pair linked already keeps its link (created false)."""
        if a == b:
            raise InvalidInput("an entity is the same as itself already: link two different keys", field="b")

        def work(tx: ManagedTransaction) -> dict[str, Any]:
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            for name, key in (("a", a), ("b", b)):
                if not self.graph.run(tx, "entity_exists", workspace=workspace, key=key):
                    raise NotFound(f"no entity {key!r} in this workspace", field=name)
            link = {"index": 0, "a": a, "b": b, "id": uuid7(), "reason": reason, "method": "asserted", "score": score}
            return self._link(tx, workspace, recorded_at, [link], renew=True, recorded_by=recorded_by)[0]

        row = self.graph.write(work, name="same_as_link")
        return LinkOutcome(row["id"], row["created"], to_native(row["txFrom"]))

    def retract(self, workspace: str, link_id: str, reason: str | None) -> datetime:
        return retract(self.graph, workspace, link_id, reason, query="same_as_retract", what="identity link")

    def propose(
        self, workspace: str, keys: Iterable[str], stated: Sequence[Proposal], recorded_by: str
    ) -> list[LinkOutcome]:
        """Extraction's proposals, in one transaction: the `stated` identity facts, and a link from
        each of `keys` to a key of the workspace with the same fold. Pairs linked before, or linked
        and retracted, are left as they are."""
        entities = [{"key": k, "fold": fold(k)} for k in sorted(set(keys))]

        def work(tx: ManagedTransaction) -> list[dict[str, Any]]:
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            matches = self.graph.run(tx, "entity_fold_matches", workspace=workspace, entities=entities)
            folded = [
                Proposal(
                    row["key"],
                    other,
                    "normalised",
                    f"{row['key']!r} and {other!r} differ only in accents, punctuation or spacing",
                )
                for row in matches
                if row["others"] and len(fold(row["key"])) >= MIN_FOLD
                for other in [min(row["others"])]
            ]
            pairs: dict[frozenset[str], Proposal] = {}
            for p in [*stated, *folded]:
                if p.a != p.b:
                    pairs.setdefault(frozenset((p.a, p.b)), p)
            links = [
                {
                    "index": i,
                    "a": p.a,
                    "b": p.b,
                    "id": uuid7(),
                    "reason": p.reason,
                    "method": p.method,
                    "score": p.score,
                }
                for i, p in enumerate(pairs.values())
            ]
            return self._link(tx, workspace, recorded_at, links, renew=False, recorded_by=recorded_by) if links else []

        rows = self.graph.write(work, name="same_as_propose")
        return [LinkOutcome(r["id"], r["created"], to_native(r["txFrom"])) for r in rows]

    def _link(
        self,
        tx: ManagedTransaction,
        workspace: str,
        recorded_at: datetime,
        links: list[dict[str, Any]],
        *,
        renew: bool,
        recorded_by: str | None,
    ) -> list[dict[str, Any]]:
        return self.graph.run(
            tx,
            "same_as_link",
            workspace=workspace,
            recorded_at=recorded_at,
            renew=renew,
            recorded_by=recorded_by,
            links=links,
        )

    # -- reads --------------------------------------------------------------------------------

    def identity(self, workspace: str, key: str, known_at: datetime) -> Identity:
        """The keys linked to `key` (itself first) and the links between them, as known at `known_at`."""
        rows = self.graph.read_query(
            "entity_identity", workspace=workspace, key=key, known_at=known_at, limit=MAX_IDENTITY
        )
        if not rows:
            raise NotFound(f"no entity {key!r} in this workspace", field="key")
        row = rows[0]
        links = [
            SameAsLink(
                id=r["id"],
                from_key=r["from"],
                to_key=r["to"],
                reason=r["reason"],
                method=r["method"],
                score=r["score"],
                tx_from=to_native(r["txFrom"]),
                tx_to=to_native(r["txTo"]),
                recorded_by=r["recordedBy"],
            )
            for r in sorted(row["links"], key=lambda r: r["id"])
        ]
        return Identity(key, known_at, [row["keys"][0], *sorted(row["keys"][1:])], links)

    def sets(self, workspace: str, known_at: datetime, **keys: str | None) -> dict[str, list[str]]:
        """Each key given by name (None: left out) as its identity set: a listing's subject and object."""
        return {name: self.keys(workspace, key, known_at) for name, key in keys.items() if key is not None}

    def keys(self, workspace: str, key: str, known_at: datetime) -> list[str]:
        """The identity set of `key` as known at `known_at`; just the key when no entity has it."""
        try:
            return self.identity(workspace, key, known_at).keys
        except NotFound:
            return [key]
