"""`donto bench ...` subcommands."""

from __future__ import annotations

import argparse


def add_bench_commands(sub: argparse._SubParsersAction) -> None:
    bench = sub.add_parser("bench", help="benchmarks that print figures")
    kinds = bench.add_subparsers(dest="bench", required=True)

    ingest = kinds.add_parser("ingest", help="write claims through REST, time as-of lookups")
    ingest.add_argument("--claims", type=int, default=100_000)
    ingest.add_argument("--batch", type=int, default=1000)
    ingest.add_argument("--lookups", type=int, default=2000)
    ingest.add_argument("--seed", type=int, default=7)
    ingest.set_defaults(run_bench=_lazy("bench.ingest"))

    walk = kinds.add_parser("walk", help="premise-walk status latency on a large claim graph")
    walk.add_argument("--claims", type=int, default=1_000_000)
    walk.add_argument("--samples", type=int, default=2000)
    walk.add_argument("--batch-ids", type=int, default=100)
    walk.add_argument("--seed", type=int, default=11)
    walk.set_defaults(run_bench=_lazy("bench.walk"))

    locomo = kinds.add_parser("locomo", help="evidence recall@K on LoCoMo conversations")
    locomo.add_argument("--data", required=True, help="a LoCoMo JSON file (a list of conversations)")
    locomo.set_defaults(run_bench=_lazy("bench.locomo"))

    for kind in kinds.choices.values():
        kind.add_argument("--throwaway", action=argparse.BooleanOptionalAction, default=True,
                          help="run against a fresh local Neo4j (default) instead of the configured one")


def _lazy(module: str):
    def run(settings, args):
        import importlib

        return importlib.import_module(module).run(settings, args)

    return run
