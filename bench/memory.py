"""`python -m bench memory`: bring_to_mind and open_intersection on a large agent memory.

Builds one workspace of --subjects subjects and --observations observations, each about 1 to 3
subjects drawn from a Zipf distribution (so a few subjects are on a large share of everything and
some intersections are large), plus --understandings active understandings (single_subject and
relationship). It is bulk-loaded in UNWIND batches through the graph client with the property names
and edges the services write (cypher/bench_memory_*.cypher); the workspace itself, its default
perspectives and its generations come from the real verbs (orient, advance_generation).

Vectors are random unit vectors of the model's dimension (embedding a million texts on a CPU takes
hours); only the questions are embedded by the model. Each item gets --perspectives vectors (default
1, 'general'); the workspace has the five default perspectives, so bring_to_mind asks the index for
as many neighbours as it would with five vectors per item.

Then measures, interleaved in one run: AttentionService.bring_to_mind (fresh: the seen log reset
before each call, untimed) and SubjectService.intersection of two subjects (small, head-with-tail
and large intersections), beside their floors: a bare indexed subject lookup, one query embedding
and a bare vector-index query for the same k. Last, one long session of consecutive bring_to_mind
calls without a reset, whose seen log grows by `limit` each call. Prints p50/p95 and median ratios.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np
from neo4j import ManagedTransaction
from neo4j.exceptions import ClientError

from bench.common import bench_settings, percentile, timed
from donto.graph.client import GraphClient, next_transaction_time
from donto.ids import uuid7
from donto.memory import Memory
from donto.settings import Settings
from donto.subjects.perspectives import DEFAULT_PERSPECTIVES

WORKSPACE = "bench"
BATCH = 5000
VECTOR_INDEXES = ("perspective_embedding", "subject_embedding")
KINDS = ("fact", "inference", "preference", "task_state", "reflection")
TOPICS = [
    "what did we decide about the database schema?",
    "how is the deployment pipeline set up",
    "who reviews the pull requests on the API",
    "open questions about pricing for next quarter",
    "the user's preferences for code style",
    "what changed in the embedding model last week",
    "progress on the migration to the new cluster",
    "which tests are flaky and why",
    "how the team feels about the release date",
    "notes about the customer's onboarding problems",
    "what is blocking the search feature",
    "how we handle secrets and credentials",
    "performance of the vector index at scale",
    "the agreement with the design team about colours",
    "what the user said about their travel plans",
    "why the nightly job failed on Tuesday",
]


@dataclass
class Built:
    subject_ids: list[str]  # by Zipf rank: index 0 is the most frequent subject
    degree: np.ndarray  # observations about each subject, by rank
    pairs: dict[str, list[tuple[int, int, int]]]  # class -> (rank a, rank b, intersection size)
    vectors: int


def zipf_subjects(rng: np.random.Generator, n: int, subjects: int, skew: float) -> np.ndarray:
    """n rows of 1-3 distinct subject ranks (-1 pads), ranks drawn with P(rank r) ~ 1 / (r + 1)^skew."""
    weights = 1.0 / np.arange(1, subjects + 1) ** skew
    drawn = rng.choice(subjects, size=(n, 3), p=weights / weights.sum())
    sizes = rng.choice(3, size=n, p=[0.5, 0.35, 0.15]) + 1
    drawn[sizes < 2, 1] = -1
    drawn[sizes < 3, 2] = -1
    drawn[drawn[:, 1] == drawn[:, 0], 1] = -1  # a repeated draw leaves the observation with fewer subjects
    drawn[(drawn[:, 2] == drawn[:, 0]) | (drawn[:, 2] == drawn[:, 1]), 2] = -1
    return drawn


def write_batch(graph: GraphClient, load: Callable[[ManagedTransaction], object]) -> None:
    def work(tx: ManagedTransaction) -> None:
        next_transaction_time(graph, tx, WORKSPACE)
        load(tx)

    graph.write(work, name="bench_memory_load", timeout_s=600)


def build(memory: Memory, args: argparse.Namespace, rng: np.random.Generator) -> Built:
    graph, attention = memory.graph, memory.attention
    model, dims = memory.encoder.name, memory.encoder.dimensions
    perspectives = [p.name for p in DEFAULT_PERSPECTIVES[: args.perspectives]]
    attention.orient(WORKSPACE, "bench-setup")  # the workspace node and its five default perspectives
    started = time.perf_counter()
    # HNSW insertion one transaction at a time runs at about a third of the rate of building the
    # index over the loaded nodes: drop the two memory vector indexes now, build them at the end.
    for index in VECTOR_INDEXES:
        graph.write_query("index_drop", name=index)

    subject_ids = [uuid7() for _ in range(args.subjects)]
    for at in range(0, args.subjects, BATCH):
        named = [{"id": subject_ids[r], "name": f"subject {r}"} for r in range(at, min(at + BATCH, args.subjects))]
        write_batch(
            graph,
            lambda tx: graph.run(
                tx,
                "bench_memory_subjects",
                workspace=WORKSPACE,
                model=model,
                dimensions=dims,
                recorded_at=datetime.now(UTC),
                rows=named,
            ),
        )

    n = args.observations
    about = zipf_subjects(rng, n, args.subjects, args.skew)
    kinds = rng.choice(len(KINDS), size=n)
    end = datetime.now(UTC)
    span = timedelta(days=365)  # created over the last year, in write order
    observation_ids: list[str] = []
    generation = 0
    for at in range(0, n, BATCH):
        if at >= (generation + 1) * n // 5:  # five consolidation generations across the load
            generation = attention.advance_generation(WORKSPACE, "bench-setup")[1]
        rows = []
        for i in range(at, min(at + BATCH, n)):
            ranks = [int(r) for r in about[i] if r >= 0]
            text = f"observation {i} about {', '.join(f'subject {r}' for r in ranks)}"
            oid = uuid7()
            observation_ids.append(oid)
            rows.append(
                {
                    "id": oid,
                    "text": text,
                    "contentHash": hashlib.sha256(text.encode()).hexdigest(),
                    "kind": KINDS[kinds[i]],
                    "generation": generation,
                    "session": f"session {i // 200}",
                    "createdAt": end - span * (n - i) / n,
                    "subjects": [subject_ids[r] for r in ranks],
                    "perspectives": perspectives,
                }
            )
        write_batch(
            graph,
            lambda tx: graph.run(
                tx, "bench_memory_observations", workspace=WORKSPACE, model=model, dimensions=dims, rows=rows
            ),
        )
        done = at + len(rows)
        if done % (BATCH * 20) == 0 or done == n:
            elapsed = time.perf_counter() - started
            print(f"  {done:,} observations ({done / elapsed:,.0f}/s, {elapsed:.0f} s)", flush=True)

    # Understandings: single-subject ones on Zipf-drawn subjects, relationship ones on pairs that
    # co-occur, each sourced from three observations and created at a random time in the year.
    multi = np.flatnonzero(about[:, 1] >= 0)
    understandings = []
    for _ in range(args.understandings):
        if rng.random() < 0.7:
            i = int(rng.integers(n))
            ranks = [int(about[i, 0])]
            kind = "single_subject"
        else:
            i = int(rng.choice(multi))
            ranks = [int(about[i, 0]), int(about[i, 1])]
            kind = "relationship"
        names = " and ".join(f"subject {r}" for r in ranks)
        understandings.append(
            {
                "id": uuid7(),
                "kind": kind,
                "text": f"what is understood about {names}",
                "summary": names,
                "generation": int(rng.integers(generation + 1)),
                "session": "bench-setup",
                "createdAt": end - span * float(rng.random()),
                "subjects": [subject_ids[r] for r in ranks],
                "sources": [observation_ids[int(j)] for j in rng.integers(n, size=3)],
                "perspectives": perspectives,
            }
        )
    for at in range(0, len(understandings), BATCH):
        batch = understandings[at : at + BATCH]
        write_batch(
            graph,
            lambda tx: graph.run(
                tx, "bench_memory_understandings", workspace=WORKSPACE, model=model, dimensions=dims, rows=batch
            ),
        )
    loaded = time.perf_counter()
    build_vector_indexes(memory)
    print(f"  vector indexes built in {time.perf_counter() - loaded:.0f} s")
    vectors = (n + args.understandings) * len(perspectives)
    print(
        f"graph: {args.subjects:,} subjects, {n:,} observations, {args.understandings:,} understandings, "
        f"{vectors:,} perspective vectors ({len(perspectives)} per item), {time.perf_counter() - started:.0f} s"
    )
    degree = np.bincount(about[about >= 0], minlength=args.subjects)
    return Built(subject_ids, degree, pick_pairs(about, args.subjects, rng), vectors)


def build_vector_indexes(memory: Memory) -> None:
    """Re-apply the schema, which creates the dropped indexes and waits up to 300 s for them to come
    online; a million vectors take longer, so wait again until they are."""
    while True:
        try:
            memory.apply_schema()
            return
        except ClientError as exc:
            if "come online" not in str(exc):
                raise


def pick_pairs(
    about: np.ndarray, subjects: int, rng: np.random.Generator, each: int = 20
) -> dict[str, list[tuple[int, int, int]]]:
    """Subject pairs that share observations: the largest intersections, tail pairs (both subjects
    past the most frequent tenth) and head-with-tail pairs (one of the five most frequent subjects
    with a tail one). A class with no such pair is left out."""
    tail = subjects // 10
    a = np.concatenate([about[:, 0], about[:, 0], about[:, 1]])
    b = np.concatenate([about[:, 1], about[:, 2], about[:, 2]])
    keep = (a >= 0) & (b >= 0)
    lo, hi = np.minimum(a[keep], b[keep]), np.maximum(a[keep], b[keep])
    codes, counts = np.unique(lo.astype(np.int64) * 1_000_000 + hi, return_counts=True)
    lo, hi = codes // 1_000_000, codes % 1_000_000

    def sample(mask: np.ndarray) -> list[tuple[int, int, int]]:
        chosen = np.flatnonzero(mask)
        chosen = rng.choice(chosen, size=min(each, len(chosen)), replace=False) if len(chosen) else chosen
        return [(int(lo[c]), int(hi[c]), int(counts[c])) for c in chosen]

    largest = np.argsort(-counts)[:each]
    pairs = {
        "small": sample((lo > tail) & (hi > tail)),
        "head x tail": sample((lo < 5) & (hi > tail)),
        "large": [(int(lo[c]), int(hi[c]), int(counts[c])) for c in largest],
    }
    return {name: chosen for name, chosen in pairs.items() if chosen}


def line(name: str, samples: list[float], floor: float | None = None) -> str:
    p50, p95 = statistics.median(samples) * 1000, percentile(samples, 95) * 1000
    ratio = f"   {p50 / (floor * 1000):6.2f}x floor" if floor else ""
    return f"{name:<40} p50 {p50:9.2f} ms   p95 {p95:9.2f} ms{ratio}   (n={len(samples)})"


def run(settings: Settings, args: argparse.Namespace) -> int:
    rng = np.random.default_rng(args.seed)
    with bench_settings(settings, args.throwaway) as s, Memory(s) as memory:
        memory.open()
        graph, attention, subjects, encoder = memory.graph, memory.attention, memory.subjects, memory.encoder
        built = build(memory, args, rng)
        ids = built.subject_ids
        # The k bring_to_mind first asks the index for (AttentionService._semantic, before any widening)
        k = max(100, args.limit * 3 * len(DEFAULT_PERSPECTIVES) * 2)
        for name, pairs in built.pairs.items():
            sizes = [c for _, _, c in pairs]
            degrees = [int(built.degree[x]) for a, b, _ in pairs for x in (a, b)]
            print(
                f"{name} pairs: {len(pairs)}, intersection {min(sizes, default=0):,}-{max(sizes, default=0):,} "
                f"observations, subjects about {min(degrees, default=0):,}-{max(degrees, default=0):,} each"
            )

        embed, vector_floor, lookup, bring = [], [], [], []
        opened: dict[str, list[float]] = {name: [] for name in built.pairs}
        token: int | None = None
        for i in range(args.samples + 5):  # the first five warm caches and are not counted
            topic = TOPICS[i % len(TOPICS)]
            t_embed = timed(lambda: encoder.encode_query(topic))
            vector = encoder.encode_query(topic)
            t_vector = timed(lambda: graph.read_query("bench_memory_vector_floor", vector=vector, k=k))
            sid = ids[int(rng.integers(len(ids)))]
            t_lookup = timed(lambda: graph.read_query("bench_memory_subject_lookup", workspace=WORKSPACE, id=sid))
            attention.reset_seen(WORKSPACE, "fresh")
            started = time.perf_counter()
            brought = attention.bring_to_mind(WORKSPACE, "fresh", topic, token, include_seen=False, limit=args.limit)
            t_bring = time.perf_counter() - started
            token = brought.heartbeat_token
            t_open = {}
            for name, pairs in built.pairs.items():
                pair = [ids[pairs[i % len(pairs)][0]], ids[pairs[i % len(pairs)][1]]]
                t_open[name] = timed(lambda: subjects.intersection(WORKSPACE, pair, args.intersection_limit))
            if i >= 5:
                embed.append(t_embed)
                vector_floor.append(t_vector)
                lookup.append(t_lookup)
                bring.append(t_bring)
                for name, t in t_open.items():
                    opened[name].append(t)

        bring_floor = statistics.median(embed) + statistics.median(vector_floor)
        lookup_floor = statistics.median(lookup)
        print(f"floors (vectors: {built.vectors:,} random unit vectors, k = {k}):")
        print(line("  bare indexed subject lookup", lookup))
        print(line("  query embedding (model)", embed))
        print(line(f"  bare vector-index query, k={k}", vector_floor))
        print(f"bring_to_mind (limit {args.limit}, floor = embedding + vector query, medians):")
        print(line("  fresh session", bring, bring_floor))
        graph_part = statistics.median(bring) - statistics.median(embed)
        print(
            f"  without the embedding (p50 bring_to_mind - p50 embedding): {graph_part * 1000:.2f} ms, "
            f"{graph_part / statistics.median(vector_floor):.2f}x the bare vector query"
        )
        print(f"open_intersection of 2 subjects (limit {args.intersection_limit}, floor = bare lookup):")
        for name, samples in opened.items():
            print(line(f"  {name}", samples, lookup_floor))

        long: list[float] = []
        token = None
        for i in range(args.long_calls):
            topic = TOPICS[i % len(TOPICS)]
            started = time.perf_counter()
            try:
                brought = attention.bring_to_mind(WORKSPACE, "long", topic, token, False, args.limit)
            except Exception as exc:  # a query past DONTO_QUERY_TIMEOUT_S ends the session, not the bench
                print(f"  long session: call {i + 1} failed after {time.perf_counter() - started:.1f} s: {exc!r:.200}")
                break
            long.append(time.perf_counter() - started)
            token = brought.heartbeat_token
        if long:
            tenth = max(1, len(long) // 10)
            first, last = statistics.median(long[:tenth]), statistics.median(long[-tenth:])
            seen = args.limit * (len(long) - 1)
            print(
                f"bring_to_mind, one long session of {len(long)} calls (the seen log grows by {args.limit} a call, "
                f"{seen} seen before the last): "
                f"p50 of the first {tenth} {first * 1000:.1f} ms, of the last {tenth} {last * 1000:.1f} ms "
                f"({last / first:.2f}x; {last / bring_floor:.2f}x floor)"
            )
    return 0
