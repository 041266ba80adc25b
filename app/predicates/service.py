"""The predicate registry: cardinality ('one' | 'many') and aliases. Undeclared predicates are 'many'."""

from __future__ import annotations

from dataclasses import dataclass

from app.graph.client import GraphClient, next_transaction_time


@dataclass(frozen=True)
class Predicate:
    name: str
    cardinality: str
    aliases: list[str]


class PredicateService:
    def __init__(self, graph: GraphClient):
        self.graph = graph

    def declare(self, workspace: str, name: str, cardinality: str, aliases: list[str]) -> Predicate:
        def work(tx):
            recorded_at = next_transaction_time(self.graph, tx, workspace)
            return self.graph.run(
                tx,
                "predicate_upsert",
                workspace=workspace,
                name=name,
                cardinality=cardinality,
                aliases=aliases,
                recorded_at=recorded_at,
            )[0]

        row = self.graph.write(work, name="predicate_upsert")
        return Predicate(row["name"], row["cardinality"], list(row["aliases"] or []))

    def list(self, workspace: str) -> list[Predicate]:
        rows = self.graph.read_query("predicates_list", workspace=workspace)
        return [Predicate(r["name"], r["cardinality"], list(r["aliases"] or [])) for r in rows]
