"""`python -m bench write-profile`: where one batch of claims spends its time, part by part.

On a throwaway Neo4j (no background workers: nothing embeds meanwhile), after --warmup claims written
untimed to another workspace (a fresh JVM compiles Neo4j's write paths over its first batches), the
same --batches batches of bench ingest's synthetic claims are written in turn two ways:

- through REST (POST /v1/claims to the API served in this process), timed at the client;
- through the claim service directly (no HTTP, no JSON), each named statement of its write
  transaction timed until the driver has its rows, and the transaction as a whole.

Prints the median milliseconds per batch of each part: HTTP and JSON (the REST request less the
service's write), the service outside its transaction (rows made, content keys, the answer), each
statement with how many times a batch runs it, the commit (the transaction less its statements: the
Bolt round trip of COMMIT and Neo4j applying the batch to its indexes and log), and the round trips a
batch makes to Neo4j. The parts are timed by wrapping the service's own graph client in this process;
nothing in donto is changed to measure them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from bench.common import bench_settings, served_api
from bench.ingest import synthetic_claim, warm_up
from donto.api.schemas.claims import ClaimIn
from donto.memory import Memory
from donto.settings import Settings


class StatementClock:
    """Wraps a graph client's `run` and `write` to time each named statement and each transaction."""

    def __init__(self, graph: Any) -> None:
        self.batch: dict[str, list[float]] = defaultdict(list)  # this batch's: statement name -> seconds each
        self.transactions: list[float] = []
        run, write = graph.run, graph.write

        def timed_run(tx: Any, query_name: str, /, **params: Any) -> list[dict[str, Any]]:
            started = time.perf_counter()
            rows = run(tx, query_name, **params)
            self.batch[query_name].append(time.perf_counter() - started)
            return rows

        def timed_write(work: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return write(work, *args, **kwargs)
            finally:
                self.transactions.append(time.perf_counter() - started)

        graph.run, graph.write = timed_run, timed_write

    def take(self) -> tuple[dict[str, list[float]], float]:
        """This batch's statements and its write transaction's time; the clock starts the next batch."""
        statements, self.batch = self.batch, defaultdict(list)
        transaction = sum(self.transactions)
        self.transactions = []
        return statements, transaction


def run(settings: Settings, args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    subjects = max(1, (args.warmup + args.batches * args.batch) // 10)
    quiet = settings.model_copy(update={"api": settings.api.model_copy(update={"run_workers": False})})
    with bench_settings(quiet, args.throwaway) as s, served_api(s) as http, Memory(s) as memory:
        warm_up(http, rng, subjects, args.warmup, args.batch)
        clock = StatementClock(memory.graph)
        rest: list[float] = []
        service: list[float] = []
        transactions: list[float] = []
        statements: dict[str, list[float]] = defaultdict(list)  # name -> its total per batch
        runs: dict[str, int] = {}
        for n in range(args.batches):
            # Each way its own batch, so neither finds the other's claims live; the ways take turns.
            body = [synthetic_claim(rng, subjects) for _ in range(args.batch)]
            started = time.perf_counter()
            http.post("/v1/claims", json={"claims": body}).raise_for_status()
            rest.append(time.perf_counter() - started)

            claims = [ClaimIn.model_validate(c).to_domain() for c in (synthetic_claim(rng, subjects) for _ in body)]
            started = time.perf_counter()
            memory.claims.write(f"bench-service-{n % 4}", claims)
            service.append(time.perf_counter() - started)
            batch, transaction = clock.take()
            transactions.append(transaction)
            for name, times in batch.items():
                statements[name].append(sum(times))
                runs[name] = len(times)

    def ms(samples: list[float]) -> float:
        return statistics.median(samples) * 1000

    in_statements = [sum(statements[name][i] for name in statements) for i in range(args.batches)]
    print(
        f"write profile: {args.batches} batches of {args.batch} claims each way, after {args.warmup:,} warm-up "
        "claims; median ms per batch"
    )
    print(f"  REST request (client to answer)          {ms(rest):8.1f}")
    print(f"    HTTP and JSON (REST less the service)  {ms(rest) - ms(service):8.1f}")
    print(f"  the claim service's write                {ms(service):8.1f}")
    print(f"    outside its transaction                {ms([s - t for s, t in zip(service, transactions)]):8.1f}")
    print(f"    the write transaction                  {ms(transactions):8.1f}")
    for name in sorted(statements, key=lambda name: -ms(statements[name])):
        print(f"      {name:<24} x{runs[name]:<3}        {ms(statements[name]):8.1f}")
    commit = [t - s for t, s in zip(transactions, in_statements)]
    print(f"      commit (the rest of the transaction) {ms(commit):8.1f}")
    trips = sum(runs.values()) + 1
    print(f"  round trips to Neo4j per batch: {trips} ({sum(runs.values())} statements and the commit)")
    return 0
