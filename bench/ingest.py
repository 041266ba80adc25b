"""`python -m bench ingest`: write N claims through REST in batches, then time as-of lookups.

Prints claims/s for the writes beside a floor: after each REST batch, the same claims' fields
written as bare unindexed nodes by one UNWIND CREATE through the driver (median per batch, and
the ratio), and how long the API's claim embedder, which gives way to the writes, then takes to
embed what is left, and where the writes' CPU went (this process, which serves the API, against the
rest of the machine, a local Neo4j's): per 1,000 claims, beside what the cores had; and this process's
resident memory after the start and after the load (the batches are made as they are posted, so
what it holds is the API's). A batch refused with a 503 is posted again after its Retry-After, as
donto's client does, and counted. With --in-flight N, N clients, each a process of its own (as N
agents would be: threads of this process would hold the API's interpreter lock for their own JSON
work), post the batches at once and the floors are written after them all. Then, measured
interleaved in the same run, p50/p99 of
- the as-of listing through REST (GET /v1/claims?subject=&predicate=&valid_at=&known_at=),
- the same as-of Cypher query through the driver (no HTTP),
- a bare indexed node lookup (MATCH (c:Claim {id: $id})) through the driver,
and the ratio of the as-of query to the bare lookup.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import resource
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
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


def claim_batch(seed: int, n: int, size: int, total: int, subjects: int) -> list[dict]:
    """The n-th batch of a load of `total` claims, made again whenever it is needed: a load held whole
    in the process that serves the API would count against its resident memory, which is measured."""
    made = random.Random(seed * 1_000_003 + n)
    return [synthetic_claim(made, subjects) for _ in range(min(size, total - n * size))]


@dataclass(frozen=True)
class Posted:
    took_s: float
    ids: list[str]
    recorded_at: str
    refused: list[str]  # the codes of the 503s it was posted again after


def post_batch(client: httpx.Client, claims: list[dict]) -> Posted:
    """One batch through POST /v1/claims; a 503 is waited out and posted again, as donto's client does."""
    started = time.perf_counter()
    response = client.post("/v1/claims", json={"claims": claims})
    refused: list[str] = []
    while response.status_code == 503 and len(refused) < 20:
        refused.append(response.json()["error"]["code"])
        time.sleep(float(response.headers.get("Retry-After", "1")))
        response = client.post("/v1/claims", json={"claims": claims})
    response.raise_for_status()
    took = time.perf_counter() - started
    body = response.json()
    return Posted(took, [c["id"] for c in body["claims"]], body["recorded_at"], refused)


_CLIENT: httpx.Client | None = None  # a client process's connection (--in-flight)


def _start_client(base_url: str, headers: dict[str, str]) -> None:
    global _CLIENT
    _CLIENT = httpx.Client(base_url=base_url, headers=headers, timeout=600)


def _client_ready(wait_s: float) -> int:
    time.sleep(wait_s)  # held, so that each of the pool's processes takes one and all of them start
    return os.getpid()


def _post_from_client(job: tuple[int, int, int, int, int]) -> Posted:
    assert _CLIENT is not None
    return post_batch(_CLIENT, claim_batch(*job))


def children_cpu_s() -> float:
    """CPU seconds of this process's ended children (the client processes, once their pool is shut)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _floor_row(claim: dict) -> dict:
    return {
        "subject": claim["subject"],
        "predicate": claim["predicate"],
        "object": str(claim["object"]),
        "validFrom": claim["valid_from"],
        "validTo": claim.get("valid_to"),
        "confidence": claim["confidence"],
    }


def pending_embeddings(graph: GraphClient) -> int:
    """The bench workspace's claims still waiting for their embedding (a warm-up's are not counted)."""
    return sum(row["pending"] for row in graph.read_query("claims_pending_workspaces") if row["workspace"] == "bench")


def process_cpu_s() -> float:
    """CPU seconds this process has used, every thread (user + system), from /proc/self/stat: the API,
    its claim embedder and onnxruntime's threads all run here."""
    fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def resident_mb(field: str = "VmRSS") -> int:
    """This process's resident memory (or, with VmHWM, its peak so far), in MB, from /proc/self/status."""
    line = next(line for line in Path("/proc/self/status").read_text().splitlines() if line.startswith(field))
    return int(line.split()[1]) // 1024


def cpu_line(meters: list[CpuMeter], claims: int, elapsed: float, clients_s: float | None = None) -> str:
    """Where the writes' CPU went, per 1,000 claims: which side bounds the throughput on this machine.
    `clients_s`: the client processes' CPU seconds (--in-flight), else the client is this process."""
    per = 1000 / claims * 1000  # seconds per claim-total → ms per 1,000 claims
    process = sum(m.process_s for m in meters) * per
    who = "the API and its workers" if clients_s is not None else "client, API, its workers"
    clients = f", the client processes {clients_s * per:.0f} ms (their start included)" if clients_s is not None else ""
    machine = [m.machine_s for m in meters]
    if any(m is None for m in machine):
        return f"CPU per 1,000 claims: this process ({who}) {process:.0f} ms{clients}"
    busy = sum(m for m in machine if m is not None) * per
    rest = busy - process - (clients_s * per if clients_s is not None else 0.0)
    cores = os.cpu_count() or 1
    return (
        f"CPU per 1,000 claims: this process ({who}) {process:.0f} ms{clients}, the rest of the machine "
        f"(a local Neo4j) {rest:.0f} ms; {busy:.0f} ms busy of the {elapsed * per * cores:.0f} ms "
        f"its {cores} cores had"
    )


def run(settings: Settings, args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    subjects = max(1, args.claims // 10)
    with bench_settings(settings, args.throwaway) as s, served_api(s) as http, Memory(s) as memory:
        graph = memory.graph
        # A fresh JVM compiles Neo4j's hot paths as the writes come (C2 took 452 ms of CPU per batch over
        # the first 20 batches, 11 ms after 120): --warmup writes that many claims to another workspace
        # first, untimed, so the figures are a warm server's.
        for offset in range(0, args.warmup, args.batch):
            warm = [synthetic_claim(rng, subjects) for _ in range(min(args.batch, args.warmup - offset))]
            http.post(
                "/v1/claims", json={"claims": warm}, headers={"X-Donto-Workspace": "bench-warmup"}
            ).raise_for_status()
        if args.warmup:
            print(f"warm-up: {args.warmup:,} claims written to another workspace first, untimed")
        started_mb = resident_mb()

        def batch(n: int) -> list[dict]:
            return claim_batch(args.seed, n, args.batch, args.claims, subjects)

        count = -(-args.claims // args.batch)

        def floor(n: int) -> float:  # the same batch as bare nodes through the driver
            rows = [_floor_row(c) for c in batch(n)]
            return timed(lambda: graph.write_query("bench_ingest_floor", rows=rows))

        posted: list[Posted] = []
        floors: list[float] = []
        meters: list[CpuMeter] = []  # CPU spent while the batches were posted, not while the floor was written
        clients_cpu: float | None = None
        if args.in_flight == 1:
            for n in range(count):
                with CpuMeter() as meter:
                    posted.append(post_batch(http, batch(n)))
                meters.append(meter)
                floors.append(floor(n))  # right after each post: both see the same store and machine
            elapsed = sum(p.took_s for p in posted)
        else:
            # Writers of one workspace queue on its clock from their first statement to their commit, so
            # what overlaps is each request's work outside its write transaction, in the API and in Neo4j.
            before = children_cpu_s()
            pool = ProcessPoolExecutor(
                args.in_flight,
                mp_context=multiprocessing.get_context("spawn"),  # a fork would copy the API's threads
                initializer=_start_client,
                initargs=(str(http.base_url), dict(http.headers)),
            )
            with pool:
                started_clients = set(pool.map(_client_ready, [1.0] * args.in_flight))
                jobs = [(args.seed, n, args.batch, args.claims, subjects) for n in range(count)]
                with CpuMeter() as meter:
                    started = time.perf_counter()
                    posted = list(pool.map(_post_from_client, jobs))
                    elapsed = time.perf_counter() - started
            meters.append(meter)
            clients_cpu = children_cpu_s() - before
            print(f"clients: {len(started_clients)} processes, {clients_cpu:.1f} CPU-s in all (their start included)")
            floors = [floor(n) for n in range(count)]
        posts = [p.took_s for p in posted]
        ids = [i for p in posted for i in p.ids]
        recorded = [p.recorded_at for p in posted]
        refused = [code for p in posted for code in p.refused]
        backlog = pending_embeddings(graph)  # the API's embedder gives way to the writes, then catches up
        backlog_started, backlog_cpu = time.perf_counter(), process_cpu_s()
        while graph.write_query("bench_ingest_floor_clear", limit=10_000)[0]["deleted"]:
            pass
        per_batch, floor_rate = args.batch / statistics.median(posts), args.batch / statistics.median(floors)
        print(
            f"ingest: {args.claims} claims in batches of {args.batch}, {args.in_flight} in flight: {elapsed:.1f} s, "
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
        print(cpu_line(meters, args.claims, elapsed, clients_cpu))
        while s.api.run_workers and pending_embeddings(graph):  # (DONTO_RUN_WORKERS=false: nobody embeds)
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
