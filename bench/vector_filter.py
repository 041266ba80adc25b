"""`python -m bench vector-filter`: a small workspace's vector search inside a large shared database,
Neo4j 5.26 (over-fetch, then filter: how recall's arms searched before donto moved to 2026.x) against
2026.x (SEARCH filtering inside the index, as recall's arms do now). The record of that decision, and a
check that it still holds for a newer 2026.x.

Starts two throwaway servers: --old-version (5.26; its jars in a runtime of their own beside the
configured one; on the Java 21 donto picks, which 5.26 runs on too) and the supported version. Both
get the same database: one small workspace (--small-size nodes, LoCoMo size) and --large-workspaces
large ones, all drawing from the same topics, so a question about the small workspace's topics is as
near to every other workspace's nodes. Vectors are synthetic: unit vectors
around --topics random centroids (embedding a million texts on a CPU takes hours); the searches read
nothing else. Bulk-loaded in UNWIND batches, then the index is built and awaited.

Measured interleaved, one question at a time on both servers, each beside its floor (the bare
vector-index query for k, no filter, on the same server): 5.26 and 2026.x with the over-fetch and
widening recall did on 5.26 (`widened`, below), 2026.x with SEARCH ... WHERE n.workspace = $workspace, and an exact
cosine scan of the workspace through a range index. Recall@k is against exact cosine over the small
workspace (numpy). Prints p50/p95 and ratios; writes one JSON per run.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import SecretStr

from bench.common import REPO, percentile
from donto.graph.client import GraphClient
from donto.memory import Memory
from donto.settings import Neo4jSettings, Settings

SMALL = "small"
BATCH = 2000
MAX_CANDIDATES = 20_000  # the widest recall's vector arms over-fetched on 5.26


def widened(fetch: Callable[[int], list[dict[str, Any]]], limit: int) -> list[dict[str, Any]]:
    """How recall's vector arms searched on 5.26, whose vector index could not filter by workspace:
    fetch(candidates)'s rows, asking for more candidates while the workspace filter left fewer than `limit`."""
    candidates = max(limit * 4, 200)
    while True:
        rows = fetch(candidates)
        if len(rows) >= limit or candidates >= MAX_CANDIDATES:
            return rows
        candidates = min(candidates * 8, MAX_CANDIDATES)


def unit(rows: np.ndarray) -> np.ndarray:
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def dataset(args: argparse.Namespace, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(the topics' centroids, the small workspace's vectors); the large ones are drawn while loading."""
    centroids = unit(rng.standard_normal((args.topics, args.dimensions)))
    return centroids, around(centroids, args.small_size, rng)


def around(centroids: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """n unit vectors, each near a random topic (noise as long as the centroid: cosine ~0.5 within one)."""
    topics = rng.integers(len(centroids), size=n)
    noise = rng.standard_normal((n, centroids.shape[1])) / np.sqrt(centroids.shape[1])
    return unit(centroids[topics] + noise).astype(np.float32)


def batches(args: argparse.Namespace, small: np.ndarray, centroids: np.ndarray, seed: int) -> Iterator[list[dict]]:
    """The whole database in UNWIND batches: the small workspace, then the large ones (same seed: same data)."""
    rng = np.random.default_rng(seed)
    workspaces = [(SMALL, small)] + [(f"large-{w}", None) for w in range(args.large_workspaces)]
    for name, vectors in workspaces:
        if vectors is None:
            vectors = around(centroids, args.large_size, rng)
        for start in range(0, len(vectors), BATCH):
            chunk = vectors[start : start + BATCH]
            yield [
                {"id": f"{name}:{start + i}", "workspace": name, "embedding": v.tolist()} for i, v in enumerate(chunk)
            ]


def load(
    graph: GraphClient, args: argparse.Namespace, small: np.ndarray, centroids: np.ndarray, filtered: bool
) -> float:
    """Bulk-load, build the indexes and wait until they are online; returns the seconds it took."""
    began = time.perf_counter()
    for rows in batches(args, small, centroids, args.seed + 1):
        graph.write_query("bench_vector_filter_write", rows=rows)
    if filtered:
        graph.write_query("bench_vector_filter_index_filtered", dimensions=args.dimensions)
    else:
        graph.write_query("bench_vector_filter_index", dimensions=args.dimensions)
    graph.write_query("bench_vector_filter_workspace_index")
    while any(row["state"] != "ONLINE" for row in graph.read_query("bench_vector_filter_indexes")):
        time.sleep(1)
    return time.perf_counter() - began


@contextmanager
def servers(settings: Settings, args: argparse.Namespace) -> Iterator[tuple[GraphClient, GraphClient]]:
    """Throwaway servers of --old-version and of the supported version, each as a GraphClient."""
    from donto.neo4j_local import throwaway_server

    runtime = settings.local_neo4j.runtime
    runtime = runtime if runtime.is_absolute() else REPO / runtime
    with ExitStack() as stack:
        clients = []
        for version, where in (
            (args.old_version, runtime.with_name(f"{runtime.name}-{args.old_version}")),
            (None, runtime),
        ):
            uri, user, password = stack.enter_context(
                throwaway_server(where, heap=args.heap, pagecache=args.pagecache, version=version)
            )
            neo4j = Neo4jSettings(uri=uri, user=user, password=SecretStr(password))
            memory = stack.enter_context(Memory(settings.model_copy(update={"neo4j": neo4j})))
            clients.append(memory.graph)
        yield clients[0], clients[1]


def run(settings: Settings, args: argparse.Namespace) -> int:
    rng = np.random.default_rng(args.seed)
    centroids, small = dataset(args, rng)
    questions = around(centroids, args.samples + args.warmup, rng)
    total = args.small_size + args.large_workspaces * args.large_size
    k = args.k
    with servers(settings, args) as (old, new):
        versions = {
            name: g.read_query("bench_vector_filter_version")[0]["version"] for name, g in (("old", old), ("new", new))
        }
        print(f"loading {total:,} vectors of {args.dimensions} dimensions into {versions} ...")
        with ThreadPoolExecutor(2) as pool:
            old_load = pool.submit(load, old, args, small, centroids, False)
            new_load = pool.submit(load, new, args, small, centroids, True)
            load_s = {"old": old_load.result(), "new": new_load.result()}
        print(f"loaded and indexed in {load_s['old']:.0f} s (old) and {load_s['new']:.0f} s (new)")

        def overfetch(graph: GraphClient, vector: list[float], seen: list[int]) -> list[dict[str, Any]]:
            def fetch(candidates: int) -> list[dict[str, Any]]:
                seen.append(candidates)
                return graph.read_query(
                    "bench_vector_filter_overfetch", vector=vector, workspace=SMALL, candidates=candidates, k=k
                )

            return widened(fetch, k)

        methods: dict[str, Callable[[list[float], list[int]], list[dict[str, Any]]]] = {
            "5.26 floor": lambda v, _: old.read_query("bench_vector_filter_floor", vector=v, k=k),
            "5.26 over-fetch": lambda v, seen: overfetch(old, v, seen),
            "5.26 exact scan": lambda v, _: old.read_query("bench_vector_filter_exact", vector=v, workspace=SMALL, k=k),
            "new floor": lambda v, _: new.read_query("bench_vector_filter_floor", vector=v, k=k),
            "new SEARCH floor": lambda v, _: new.read_query("bench_vector_filter_search_floor", vector=v, k=k),
            "new SEARCH filtered": lambda v, _: new.read_query(
                "bench_vector_filter_search", vector=v, workspace=SMALL, k=k
            ),
            "new over-fetch": lambda v, seen: overfetch(new, v, seen),
            "new exact scan": lambda v, _: new.read_query("bench_vector_filter_exact", vector=v, workspace=SMALL, k=k),
        }
        samples: dict[str, list[float]] = {name: [] for name in methods}
        recall: dict[str, list[float]] = {name: [] for name in methods}
        candidates: dict[str, list[int]] = {name: [] for name in methods}
        for i, question in enumerate(questions):
            vector = question.tolist()
            truth = {f"{SMALL}:{j}" for j in np.argsort(-(small.astype(np.float64) @ question))[:k]}
            for name, method in methods.items():
                seen: list[int] = []
                began = time.perf_counter()
                rows = method(vector, seen)
                took = time.perf_counter() - began
                if i < args.warmup:
                    continue
                samples[name].append(took)
                if seen:
                    candidates[name].append(seen[-1])
                if "floor" not in name:
                    recall[name].append(len(truth & {row["id"] for row in rows}) / k)

    floors = {"5.26": statistics.median(samples["5.26 floor"]), "new": statistics.median(samples["new floor"])}
    results = {}
    print(f"\n{total:,} vectors ({args.small_size} in the small workspace), k = {k}, {args.samples} questions")
    print(f"{'method':22} {'p50 ms':>8} {'p95 ms':>8} {'p50/floor':>9} {'recall@k':>8} {'candidates':>10}")
    for name, values in samples.items():
        p50, p95 = statistics.median(values), percentile(values, 95)
        floor = floors[name.split()[0]]
        row: dict[str, Any] = {
            "p50_ms": round(p50 * 1000, 2),
            "p95_ms": round(percentile(values, 95) * 1000, 2),
            "p50_over_floor": round(p50 / floor, 2),
            "p95_over_floor_p50": round(p95 / floor, 2),
            "recall_at_k": round(statistics.mean(recall[name]), 4) if recall[name] else None,
            "final_candidates_median": statistics.median(candidates[name]) if candidates[name] else None,
        }
        results[name] = row
        print(
            f"{name:22} {row['p50_ms']:8.2f} {row['p95_ms']:8.2f} {row['p50_over_floor']:9.2f} "
            f"{row['recall_at_k'] if row['recall_at_k'] is not None else '':>8} "
            f"{row['final_candidates_median'] or '':>10}"
        )
    filtered, overfetched = results["new SEARCH filtered"], results["5.26 over-fetch"]
    print(f"\n5.26 over-fetch p50 / 2026 SEARCH filtered p50: {overfetched['p50_ms'] / filtered['p50_ms']:.1f}x")
    report = {
        "bench": "vector-filter",
        "versions": versions,
        "vectors": total,
        "dimensions": args.dimensions,
        "small_workspace": args.small_size,
        "large_workspaces": args.large_workspaces,
        "large_size": args.large_size,
        "topics": args.topics,
        "k": k,
        "samples": args.samples,
        "load_s": {name: round(s) for name, s in load_s.items()},
        "results": results,
    }
    Path(args.json).write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.json}")
    return 0
