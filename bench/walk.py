"""`python -m bench walk`: premise-walk latency on a large claim graph.

Builds chains of derived claims (1 to 10 deep, lengths uniform) until --claims claims exist,
with a tenth of the chain roots superseded later, through the production write path
(ClaimService.write, one transaction per layer of a batch of chains). Then measures, interleaved
in one run and through the same driver:
- single-claim status (the walk query) from random chain tips,
- batch status for --batch-ids ids in one round trip,
- a bare indexed claim lookup (MATCH (c:Claim {id: $id})),
and the same status and lookup through REST. Prints p50/p99 and the ratios.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from datetime import UTC, datetime, timedelta

from bench.common import bench_settings, served_api, summary_ms, timed
from donto.claims.models import NewClaim
from donto.memory import Memory
from donto.settings import Settings
from donto.temporal.scope import TimeScope

T0 = datetime(2024, 1, 1, tzinfo=UTC)
CHAINS_PER_BATCH = 400


def build(memory: Memory, total: int, rng: random.Random, first_chain: int = 0) -> list[str]:
    """Write `total` more claims as chains numbered from `first_chain`; returns the chain tips."""
    claims = memory.claims
    memory.predicates.declare("bench", "holds", "one", [])
    tips: list[str] = []
    written = 0
    chain_no = first_chain
    started = time.perf_counter()
    while written < total:
        lengths: list[int] = []
        while len(lengths) < CHAINS_PER_BATCH and written + sum(lengths) < total:
            lengths.append(min(rng.randint(1, 10), total - written - sum(lengths)))
        layer_ids: list[str | None] = [None] * len(lengths)
        for depth in range(max(lengths)):
            batch, owners = [], []
            for i, length in enumerate(lengths):
                if depth >= length:
                    continue
                n = chain_no + i
                if depth == 0:
                    batch.append(
                        NewClaim(
                            subject=f"root-{n}",
                            predicate="holds",
                            object_entity="v1",
                            valid_from=T0 + timedelta(days=rng.randrange(365)),
                        )
                    )
                else:
                    batch.append(
                        NewClaim(
                            subject=f"c{n}-{depth}",
                            predicate="derived",
                            object_entity=f"c{n}-{depth - 1}",
                            derived_from=(str(layer_ids[i]),),  # written in the layer before
                        )
                    )
                owners.append(i)
            result = claims.write("bench", batch)
            for i, outcome in zip(owners, result.claims):
                layer_ids[i] = outcome.id
        supersede = [
            NewClaim(
                subject=f"root-{chain_no + i}",
                predicate="holds",
                object_entity="v2",
                valid_from=T0 + timedelta(days=400 + rng.randrange(200)),
            )
            for i in range(len(lengths))
            if rng.random() < 0.1
        ]
        if supersede:
            claims.write("bench", supersede)
        tips += [t for t in layer_ids if t]
        written += sum(lengths) + len(supersede)
        chain_no += len(lengths)
        if chain_no % (CHAINS_PER_BATCH * 25) == 0:
            rate = written / (time.perf_counter() - started)
            print(f"  built {written:,} claims ({rate:,.0f}/s)", flush=True)
    print(f"graph: {written:,} claims in {chain_no - first_chain:,} chains, {time.perf_counter() - started:.0f} s")
    return tips


def run(settings: Settings, args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    with bench_settings(settings, args.throwaway) as s, Memory(s) as memory:
        memory.open()
        graph, walk = memory.graph, memory.walk
        tips = build(memory, args.claims, rng)
        valid_at = T0 + timedelta(days=700)
        single, batch, bare = [], [], []
        for i in range(args.samples):
            tip = rng.choice(tips)
            single.append(timed(lambda: walk.status("bench", [tip], TimeScope.resolve(valid_at))))
            bare.append(timed(lambda: graph.read_query("claim_by_id", workspace="bench", id=tip)))
            if i % 10 == 0:
                ids = rng.sample(tips, args.batch_ids)
                batch.append(timed(lambda: walk.status("bench", ids, TimeScope.resolve(valid_at))))
        stale = sum(
            s.status == "POTENTIALLY_STALE" for s in walk.status("bench", tips[:1000], TimeScope.resolve(valid_at))
        )
        print(f"status, one claim       : {summary_ms(single)}")
        print(f"status, {args.batch_ids} ids batch  : {summary_ms(batch)}")
        print(f"bare indexed lookup     : {summary_ms(bare)}")
        print(
            f"ratio status / bare lookup (p50): {statistics.median(single) / statistics.median(bare):.2f}x; "
            f"batch of {args.batch_ids} / bare: {statistics.median(batch) / statistics.median(bare):.2f}x"
        )
        print(f"sanity: {stale} of 1000 chain tips POTENTIALLY_STALE (about 10% of roots were superseded)")
        with served_api(s) as http:
            rest_status, rest_get = [], []
            for _ in range(min(args.samples, 500)):
                tip = rng.choice(tips)
                rest_status.append(
                    timed(
                        lambda: http.get(
                            f"/v1/claims/{tip}/status", params={"valid_at": valid_at.isoformat()}
                        ).raise_for_status()
                    )
                )
                rest_get.append(timed(lambda: http.get(f"/v1/claims/{tip}").raise_for_status()))
            print(f"REST status             : {summary_ms(rest_status)}")
            print(f"REST GET claim          : {summary_ms(rest_get)}")
    return 0
