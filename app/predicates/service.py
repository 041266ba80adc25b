"""The predicate registry: cardinality ('one' | 'many') and aliases. Undeclared predicates are 'many'.

A name or alias denotes one predicate of a workspace: a claim of cardinality 'one' supersedes claims
of the same predicate or an alias of it (claim_status.cypher), and extraction maps an alias to its
predicate's name, so an alias two predicates held (or one predicate's alias another's name) would
make both depend on which match is read first. Declaring is refused instead: 422 for an alias list
at odds with itself, 409 for a name or alias another predicate holds. Names are compared exactly, as
claims' predicates are."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from neo4j import ManagedTransaction

from app.errors import Conflict, InvalidInput
from app.graph.client import GraphClient, next_transaction_time


@dataclass(frozen=True)
class Predicate:
    name: str
    cardinality: str
    aliases: list[str]


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
            return Predicate(row["name"], row["cardinality"], list(row["aliases"] or []))

        return self.graph.write(work, name="predicate_upsert")

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
        return [Predicate(r["name"], r["cardinality"], list(r["aliases"] or [])) for r in rows]
