"""`python -m bench ingest`: write N claims through REST in batches, then time as-of lookups.

Prints claims/s for the writes beside a floor: after each REST batch, the same claims' fields
written as bare unindexed nodes by one UNWIND CREATE through the driver (median per batch, and
the ratio), and how long the API's claim embedder, which gives way to the writes, then takes to
embed what is left, and where the writes' CPU went (this process, which serves the API, against the
rest of the machine, a local Neo4j's): per 1,000 claims, beside what the cores had; and this process's
resident memory after the start and after the load (the batches are made as they are posted, so
what it holds is the API's). A batch refused with a 503 is posted again after its Retry-After, as
donto's client does, and counted. With --in-flight N, N clients post the batches at once and the
floors are written after them all. Then, measured
interleaved in the same run, p50/p99 of
- the as-of listing through REST (GET /v1/claims?subject=&predicate=&valid_at=&known_at=),
- the same as-of Cypher query through the driver (no HTTP),
- a bare indexed node lookup (MATCH (c:Claim {id: $id})) through the driver,
and the ratio of the as-of query to the bare lookup.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from bench.common import CpuMeter, bench_settings, served_api, summary_ms, timed
from donto.graph.client import GraphClient
from donto.memory import Memory
from donto.settings import Settings

PREDICATES = [f"p{i:02d}" for i in range(20)]
BASE = datetime(2020, 1, 1, tzinfo=UTC)


def synthetic_claim(rng: random.Random, subjects: int) -> dict:
    start = BASE + timedelta(days=rng.randrange(0, 1500))
    claim = {
        "subject": f"entity-{rng.randrange(subjects)}",
        "predicate": rng.choice(PREDICATES),
        "valid_from": start.isoformat(),
        "confidence": round(rng.random(), 3),
    }
    if rng.random() < 0.5:
        claim["valid_to"] = (start + timedelta(days=rng.randrange(1, 400))).isoformat()
    if rng.random() < 0.7:
        claim["object"] = {"entity": f"entity-{rng.randrange(subjects)}"}
    else:
        claim["object"] = {"literal": {"value": rng.randrange(10**6), "datatype": "xsd:integer"}}
    return claim


def _floor_row(claim: dict) -> dict:
    return {
        "subject": claim["subject"],
        "predicate": claim["predicate"],
        "object": str(claim["object"]),
        "validFrom": claim["valid_from"],
        "validTo": claim.get("valid_to"),
        "confidence": claim["confidence"],
    }


def workspace_of(n: int, workspaces: int) -> str:
    """The workspace the n-th batch goes to: "bench", then "bench-1", "bench-2"... in turn."""
    return "bench" if n % workspaces == 0 else f"bench-{n % workspaces}"


def pending_embeddings(graph: GraphClient, workspaces: int) -> int:
    """The bench workspaces' claims still waiting for their embedding (a warm-up's are not counted)."""
    names = {workspace_of(n, workspaces) for n in range(workspaces)}
    return sum(row["pending"] for row in graph.read_query("claims_pending_workspaces") if row["workspace"] in names)


def process_cpu_s() -> float:
    """CPU seconds this process has used, every thread (user + system), from /proc/self/stat: the API,
    its claim embedder and onnxruntime's threads all run here."""
    fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def resident_mb(field: str = "VmRSS") -> int:
    """This process's resident memory (or, with VmHWM, its peak so far), in MB, from /proc/self/status."""
    line = next(line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith(field))
    return int(line.split()[1]) // 1024


def cpu_line(meters: list[CpuMeter], claims: int, elapsed: float) -> str:
    """Where the writes' CPU went, per 1,000 claims: which side bounds the throughput on this machine."""
    per = 1000 / claims * 1000  # seconds per claim-total → ms per 1,000 claims
    process = sum(m.process_s for m in meters) * per
    machine = [m.machine_s for m in meters]
    if any(m is None for m in machine):
        return f"CPU per 1,000 claims: this process (client, API, its workers) {process:.0f} ms"
    busy = sum(m for m in machine if m is not None) * per
    cores = os.cpu_count() or 1
    return (
        f"CPU per 1,000 claims: this process (client, API, its workers) {process:.0f} ms, the rest of the machine "
        f"(a local Neo4j) {busy - process:.0f} ms; {busy:.0f} ms busy of the {elapsed * per * cores:.0f} ms "
        f"its {cores} cores had"
    )


def warm_up(http: httpx.Client, rng: random.Random, subjects: int, claims: int, batch: int) -> None:
    """`claims` synthetic claims written through REST to another workspace, untimed. A fresh JVM
    compiles Neo4j's hot paths as the writes come (C2 took 452 ms of CPU per batch over the first 20
    batches, 11 ms after 120), so a bench that writes these first measures a warm server."""
    for offset in range(0, claims, batch):
        warm = [synthetic_claim(rng, subjects) for _ in range(min(batch, claims - offset))]
        http.post("/v1/claims", json={"claims": warm}, headers={"X-Donto-Workspace": "bench-warmup"}).raise_for_status()
    if claims:
        print(f"warm-up: {claims:,} claims written to another workspace first, untimed")


def run(settings: Settings, args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    subjects = max(1, args.claims // 10)
    with bench_settings(settings, args.throwaway) as s, served_api(s) as http, Memory(s) as memory:
        graph = memory.graph
        warm_up(http, rng, subjects, args.warmup, args.batch)
        started_mb = resident_mb()

        def batch(n: int) -> list[dict]:
            """The n-th batch, made again whenever it is needed: a load held whole in this process
            would count against the API's resident memory, which is measured here."""
            made = random.Random(args.seed * 1_000_003 + n)
            return [synthetic_claim(made, subjects) for _ in range(min(args.batch, args.claims - n * args.batch))]

        count = -(-args.claims // args.batch)
        ids: list[str] = []
        recorded: list[str] = []
        refused: list[str] = []  # the codes of 503s a batch was retried after

        def post(n: int) -> float:
            claims = batch(n)
            started = time.perf_counter()
            headers = {"X-Donto-Workspace": workspace_of(n, args.workspaces)}
            response = http.post("/v1/claims", json={"claims": claims}, headers=headers)
            while response.status_code == 503 and len(refused) < 20:  # as donto's client does: wait, retry
                refused.append(response.json()["error"]["code"])
                time.sleep(float(response.headers.get("Retry-After", "1")))
                response = http.post("/v1/claims", json={"claims": claims}, headers=headers)
            response.raise_for_status()
            took = time.perf_counter() - started
            body = response.json()
            if workspace_of(n, args.workspaces) == "bench":  # the lookups below read this one
                ids.extend(c["id"] for c in body["claims"])
                recorded.append(body["recorded_at"])
            return took

        def floor(n: int) -> float:  # the same batch as bare nodes through the driver
            rows = [_floor_row(c) for c in batch(n)]
            return timed(lambda: graph.write_query("bench_ingest_floor", rows=rows))

        posts: list[float] = []
        floors: list[float] = []
        meters: list[CpuMeter] = []  # CPU spent while the batches were posted, not while the floor was written
        if args.in_flight == 1:
            for n in range(count):
                with CpuMeter() as meter:
                    posts.append(post(n))
                meters.append(meter)
                floors.append(floor(n))  # right after each post: both see the same store and machine
            elapsed = sum(posts)
        else:
            # Writers of one workspace queue on its clock from their first statement to their commit, so
            # what overlaps is each request's work outside its write transaction, in the API and in Neo4j.
            with CpuMeter() as meter, ThreadPoolExecutor(args.in_flight) as pool:
                started = time.perf_counter()
                posts = list(pool.map(post, range(count)))
                elapsed = time.perf_counter() - started
            meters.append(meter)
            floors = [floor(n) for n in range(count)]
        # The API's embedder gives way to the writes, then catches up.
        backlog = pending_embeddings(graph, args.workspaces)
        backlog_started, backlog_cpu = time.perf_counter(), process_cpu_s()
        while graph.write_query("bench_ingest_floor_clear", limit=10_000)[0]["deleted"]:
            pass
        per_batch, floor_rate = args.batch / statistics.median(posts), args.batch / statistics.median(floors)
        print(
            f"ingest: {args.claims} claims in batches of {args.batch}, {args.in_flight} in flight, "
            f"{args.workspaces} workspace{'s' if args.workspaces > 1 else ''}: {elapsed:.1f} s, "
            f"{args.claims / elapsed:,.0f} claims/s (median batch {per_batch:,.0f} claims/s)"
        )
        print(
            f"batches: {summary_ms(posts)}; slowest {max(posts) * 1000:.0f} ms; "
            f"retried after a 503: {len(refused)}" + (f" ({', '.join(sorted(set(refused)))})" if refused else "")
        )
        print(
            f"floor: the same batches as bare nodes by one UNWIND CREATE: median {floor_rate:,.0f} nodes/s; "
            f"ingest is {floor_rate / per_batch:.2f}x the floor's time"
            + (f" per batch, {floor_rate / (args.claims / elapsed):.2f}x overall" if args.in_flight > 1 else "")
        )
        print(cpu_line(meters, args.claims, elapsed))
        # (DONTO_RUN_WORKERS=false: nobody embeds)
        while s.api.run_workers and pending_embeddings(graph, args.workspaces):
            time.sleep(0.2)
        caught_up = time.perf_counter() - backlog_started
        loaded_mb = resident_mb()  # before this bench's own encode below
        catch_up_cpu = process_cpu_s() - backlog_cpu
        if s.api.run_workers:
            recallable = args.claims / (elapsed + caught_up)
            print(
                f"embeddings: {backlog:,} of {args.claims:,} claims waiting when the last batch was written, all "
                f"embedded {caught_up:.1f} s later; written and embedded: {recallable:,.0f} claims/s"
                + (
                    " (the embedder shared its time with the warm-up's claims: read it as an upper bound)"
                    if args.warmup
                    else ""
                )
            )
            # The floor: the model's own encode of the same claims' texts, in this process, now idle.
            texts = [r["text"] for r in graph.read_query("bench_ingest_claim_texts", workspace="bench", limit=4000)]
            memory.encoder.encode(texts[:64])  # warm
            raw_cpu = process_cpu_s()
            raw_s = timed(lambda: memory.encoder.encode(texts))
            raw_cpu = process_cpu_s() - raw_cpu
            raw_rate = len(texts) / raw_s
            print(
                f"raw encode of {len(texts):,} of these claims' texts: {raw_rate:,.0f} claims/s; written and embedded "
                f"is {recallable / raw_rate:.2f}x it (goal: at least 0.5), the catch-up alone "
                f"{backlog / caught_up / raw_rate:.2f}x"
            )
            print(
                f"CPU of this process per 1,000 claims: the catch-up {catch_up_cpu / max(backlog, 1) * 1000:.2f} s "
                f"(the embedder, and this bench's polling), the raw encode {raw_cpu / len(texts) * 1000:.2f} s: "
                f"{catch_up_cpu / max(backlog, 1) / (raw_cpu / len(texts)):.2f}x"
            )

        print(
            f"resident memory of this process (the API, its embedder and this bench's client): {started_mb:,} MB "
            f"after the start (model loaded), {loaded_mb:,} MB after the load"
            + (" and its embeddings" if s.api.run_workers else "")
            + f", {resident_mb('VmHWM'):,} MB at its peak"
        )

        rest, cypher, bare = [], [], []
        for _ in range(args.lookups):
            subject, predicate = f"entity-{rng.randrange(subjects)}", rng.choice(PREDICATES)
            valid_at = (BASE + timedelta(days=rng.randrange(0, 1800))).isoformat()
            known_at = rng.choice(recorded)
            params = {"subject": subject, "predicate": predicate, "valid_at": valid_at, "known_at": known_at}
            rest.append(timed(lambda: http.get("/v1/claims", params=params).raise_for_status()))
            cypher.append(
                timed(
                    lambda: graph.read_query(
                        "claims_as_of",
                        workspace="bench",
                        subjects=[subject],
                        predicate=predicate,
                        objects=None,
                        valid_at=datetime.fromisoformat(valid_at),
                        known_at=datetime.fromisoformat(known_at.replace("Z", "+00:00")),
                        include_retracted=False,
                        after=None,
                        limit=101,
                    )
                )
            )
            claim_id = rng.choice(ids)
            bare.append(timed(lambda: graph.read_query("claim_by_id", workspace="bench", id=claim_id)))
        print(f"as-of lookup, REST      : {summary_ms(rest)}")
        print(f"as-of lookup, Cypher    : {summary_ms(cypher)}")
        print(f"bare indexed lookup     : {summary_ms(bare)}")
        print(
            f"ratio as-of Cypher / bare lookup (p50): {statistics.median(cypher) / statistics.median(bare):.2f}x;"
            f" REST / bare: {statistics.median(rest) / statistics.median(bare):.2f}x"
        )
    return 0
