"""The predicate registry: cardinality ('one' | 'many') and aliases. Undeclared predicates are 'many'.

Who declared a predicate is recorded (declaredBy): a user (PUT /v1/predicates), an extraction model that
marked a fact single-valued ('model'), or donto's defaults ('default': DEFAULT_SINGLE_VALUED, the
common predicates a subject has one value of at a time). Extraction registers the last two only for a
predicate the registry does not hold yet, so a user's declaration always wins, and a workspace
overrides a default by declaring the predicate 'many'. Extraction also proposes a new predicate as an
alias of a registered one whose phrasing it nearly repeats (AliasProposal): a declaration listing the
alias accepts it; rejected, it is never proposed again.

A name or alias denotes one predicate of a workspace: a claim of cardinality 'one' supersedes claims
of the same predicate or an alias of it (claim_status.cypher), and extraction maps an alias to its
predicate's name, so an alias two predicates held (or one predicate's alias another's name) would
make both depend on which match is read first. Declaring is refused instead: 422 for an alias list
at odds with itself, 409 for a name or alias another predicate holds. Names are compared exactly, as
claims' predicates are."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import datetime
from typing import Any

from neo4j import ManagedTransaction

from donto.errors import Conflict, InvalidInput, NotFound
from donto.graph.client import GraphClient, next_transaction_time
from donto.ids import uuid7
from donto.temporal.instants import to_native

# Where someone lives or works, their job, spouse, age...: one value at a time, so a later value
# supersedes the earlier in the walk and the profile. snake_case, as extraction names predicates.
DEFAULT_SINGLE_VALUED = frozenset(
    {
        *("lives_in", "lives_at", "resides_in", "home_city", "home_country", "address"),
        *("works_at", "works_for", "employed_by", "employer", "job_title", "job", "occupation", "works_as", "role"),
        *("married_to", "spouse", "is_married_to", "partner", "relationship_status"),
        *("age", "date_of_birth", "born_on", "born_in", "birthplace", "died_on", "died_in"),
        *("ceo", "ceo_of", "headquartered_in", "capital", "population"),
    }
)


@dataclass(frozen=True)
class AliasProposal:
    alias: str
    similarity: float
    proposed_by: str
    proposed_at: datetime


@dataclass(frozen=True)
class Predicate:
    name: str
    cardinality: str
    aliases: list[str]
    declared_by: str = "user"
    proposals: list[AliasProposal] = dataclass_field(default_factory=list)  # alias proposals still open


def check_aliases(name: str, aliases: list[str]) -> None:
    """422 naming `aliases[i]` for an alias that is the predicate's own name or repeats an earlier one."""
    seen: set[str] = set()
    for i, alias in enumerate(aliases):
        if alias == name:
            raise InvalidInput(f"{alias!r} is the predicate's own name, not an alias of it", field=f"aliases[{i}]")
        if alias in seen:
            raise InvalidInput(f"{alias!r} is listed twice", field=f"aliases[{i}]")
        seen.add(alias)


class PredicateService:
    def __init__(self, graph: GraphClient):
        self.graph = graph

    def declare(self, workspace: str, name: str, cardinality: str, aliases: list[str]) -> Predicate:
        """Declare (or redeclare) a predicate; declaring the same definition again changes nothing."""
        check_aliases(name, aliases)

        def work(tx: ManagedTransaction) -> Predicate:
            # Taken first: the workspace's writers queue on its clock, so two declarations claiming
            # one alias cannot both find it free.
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            self._check_names_free(tx, workspace, name, aliases)
            row = self.graph.run(
                tx,
                "predicate_upsert",
                workspace=workspace,
                name=name,
                cardinality=cardinality,
                aliases=aliases,
                recorded_at=recorded_at,
            )[0]
            return Predicate(row["name"], row["cardinality"], list(row["aliases"] or []), row["declaredBy"])

        return self.graph.write(work, name="predicate_upsert")

    def adopt_single_valued(self, workspace: str, predicates: Mapping[str, str]) -> list[str]:
        """Register each predicate (name -> 'model' | 'default') with cardinality 'one' where the
        registry does not hold it yet; the names registered now."""
        if not predicates:
            return []
        rows = [{"name": name, "declaredBy": by} for name, by in sorted(predicates.items())]

        def work(tx: ManagedTransaction) -> list[str]:
            recorded_at = next_transaction_time(self.graph, tx, workspace)  # queued with declarations
            adopted = self.graph.run(
                tx, "predicates_adopt_single_valued", workspace=workspace, predicates=rows, recorded_at=recorded_at
            )
            return [r["name"] for r in adopted]

        return self.graph.write(work, name="predicates_adopt_single_valued")

    def propose_aliases(
        self, workspace: str, proposals: Sequence[tuple[str, str, float]], proposed_by: str
    ) -> list[dict[str, Any]]:
        """Record (alias, predicate, similarity) proposals; those still open: {alias, predicate, similarity}."""
        if not proposals:
            return []
        rows = [{"id": uuid7(), "alias": a, "predicate": p, "similarity": round(s, 3)} for a, p, s in proposals]

        def work(tx: ManagedTransaction) -> list[dict[str, Any]]:
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            return self.graph.run(
                tx,
                "alias_proposals_record",
                workspace=workspace,
                proposals=rows,
                proposed_by=proposed_by,
                recorded_at=recorded_at,
            )

        recorded = self.graph.write(work, name="alias_proposals_record")
        return [
            {"alias": r["alias"], "predicate": r["predicate"], "similarity": r["similarity"]}
            for r in recorded
            if r["state"] == "proposed"
        ]

    def reject_alias(self, workspace: str, name: str, alias: str) -> str:
        """Reject the proposal that `alias` is an alias of `name`; its state after (an accepted one
        stays accepted: a declaration without the alias undoes that)."""

        def work(tx: ManagedTransaction) -> str | None:
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            rows = self.graph.run(
                tx, "alias_proposal_reject", workspace=workspace, predicate=name, alias=alias, recorded_at=recorded_at
            )
            return rows[0]["state"] if rows else None

        state = self.graph.write(work, name="alias_proposal_reject")
        if state is None:
            raise NotFound(f"no proposal that {alias!r} is an alias of {name!r} in this workspace", field="alias")
        return state

    def _check_names_free(self, tx: ManagedTransaction, workspace: str, name: str, aliases: list[str]) -> None:
        """409 naming `name` or `aliases[i]` and the predicate that already answers to it."""
        held = self.graph.run(tx, "predicate_name_holders", workspace=workspace, name=name, names=[name, *aliases])
        holders: dict[str, dict[str, Any]] = {}
        for row in held:
            holders.setdefault(row["taken"], row)
        for field, taken in [("name", name), *((f"aliases[{i}]", a) for i, a in enumerate(aliases))]:
            if taken in holders:
                holder = holders[taken]
                if holder["as_name"]:
                    raise Conflict(f"{taken!r} is already a predicate of this workspace", field=field)
                raise Conflict(f"{taken!r} is already an alias of the predicate {holder['holder']!r}", field=field)

    def list(self, workspace: str) -> list[Predicate]:
        rows = self.graph.read_query("predicates_list", workspace=workspace)
        return [
            Predicate(
                r["name"],
                r["cardinality"],
                list(r["aliases"] or []),
                r["declaredBy"],
                [
                    AliasProposal(a["alias"], a["similarity"], a["proposedBy"], to_native(a["proposedAt"]))
                    for a in r["proposals"]
                ],
            )
            for r in rows
        ]
